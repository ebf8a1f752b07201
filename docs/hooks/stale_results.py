"""Marks a measured table whose code has changed since it was measured (a MkDocs hook).

A chapter shows a benchmark's figures by including its results file:

    --8<-- "results/cpu_gemm_bench.md"

Each results file names the commit it was measured at, and
scripts/record_results.sh declares which paths each file measures. Its
`--check` lists the files whose paths changed in a later commit, two lines
each:

    results/cpu_gemm_bench.md was measured at 0123456789ab; src/minitf/tensor changed since, ...
      record it again: scripts/record_results.sh cpu_gemm_bench

This hook runs that check once per build and puts a warning before each
include of a listed file: why its figures may no longer describe the code,
and the command that measures them again. So a stale table is never shown
silently. It must run before snippets.py, which replaces the include lines
with the files' text (mkdocs.yml lists it first).

Where the check cannot run (no git, or a copy of the tree without its
history) the build goes on with a line saying so: nothing can be marked.

The functions above `on_pre_build` are pure and need no MkDocs; see
tests/docs/test_stale_results_hook.py.
"""

import html
import logging
import os
import re
import subprocess

# --check's two lines per stale file.
STALE_LINE = re.compile(r"^(?P<file>results/[-\w.]+\.md) (?P<why>.+)$")
AGAIN_LINE = re.compile(r"^  record it again: (?P<command>.+)$")

# A page's include of a results file, as snippets.py reads it.
INCLUDE_LINE = re.compile(
    r"""^(?P<indent>[ \t]*)-{1,}8<-{1,}[ \t]+(?P<q>["'])(?P<file>results/[^"'\n\r]+)(?P=q)[ \t]*$""")

# The characters of a commit's subject that Markdown would read as markup.
MARKUP = re.compile(r"([\\`*_\[\]|#])")

log = logging.getLogger("mkdocs.hooks.stale_results")


def parse_check(output):
    """Returns {results file: (why, command)} from `--check`'s output."""
    stale = {}
    file = why = None
    for line in output.splitlines():
        stale_line = STALE_LINE.match(line)
        if stale_line:
            file, why = stale_line.group("file"), stale_line.group("why")
            continue
        again = AGAIN_LINE.match(line)
        if again and file:
            stale[file] = (why, again.group("command"))
            file = None
    return stale


def as_text(words):
    """`words` as Markdown shows them: no markup, no HTML."""
    return MARKUP.sub(r"\\\1", html.escape(words, quote=False))


def warning(file, why, command, indent=""):
    """The lines of the admonition put before an include of `file`."""
    return [
        "",
        f'{indent}!!! warning "These figures may no longer describe the code"',
        f"{indent}    `{file}` {as_text(why)}. `{command}` measures them again (on an "
        f"idle machine), and the page shows the new table when the site is built next.",
        "",
    ]


def mark(markdown, stale):
    """Puts a warning before each include of a file in `stale` ({file: (why, command)})."""
    out = []
    for line in markdown.split("\n"):
        include = INCLUDE_LINE.match(line)
        if include and include.group("file") in stale:
            why, command = stale[include.group("file")]
            out.extend(warning(include.group("file"), why, command, include.group("indent")))
        out.append(line)
    return "\n".join(out)


def run_check(root):
    """Runs `scripts/record_results.sh --check` in `root`.

    Returns (stale, problem): the stale files as parse_check gives them, and
    an empty problem; or None and what kept the check from answering.
    """
    try:
        result = subprocess.run(["bash", "scripts/record_results.sh", "--check"], cwd=root,
                                capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, str(error)
    # 0: every file current; 1: some stale; anything else: no answer.
    if result.returncode not in (0, 1):
        return None, result.stderr.strip() or f"exit status {result.returncode}"
    return parse_check(result.stdout), ""


# The stale files of this build, from on_pre_build.
_stale = {}


def on_pre_build(config, **kwargs):
    global _stale
    root = os.path.dirname(os.path.abspath(config["config_file_path"]))
    stale, problem = run_check(root)
    if stale is None:
        # Not a warning: a tree without its history can still build its site.
        log.info("stale_results: cannot tell which results files are stale: %s", problem)
        stale = {}
    elif stale:
        log.info("stale_results: %d results file(s) marked as stale: %s", len(stale),
                 ", ".join(sorted(stale)))
    _stale = stale


def on_page_markdown(markdown, page, config, files, **kwargs):
    return mark(markdown, _stale)
