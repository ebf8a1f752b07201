"""Quotes named sections of source files into the docs (a MkDocs hook).

Chapter pages never copy code: they quote it from the sources, so the text and
the code cannot drift apart. A line of Markdown

    --8<-- "src/minitf/tensor/dtype.h:switch_dtype"

is replaced by the lines between the two marker lines

    // --8<-- [start:switch_dtype]
    ...
    // --8<-- [end:switch_dtype]

in that file (`#` instead of `//` in Python, CMake and shell files). Paths are
relative to the repository root (the folder of mkdocs.yml). `--8<-- "path"`
without a section quotes the whole file. A quote may sit inside a fenced code
block and be indented; the quoted lines get the same indentation.

Rules, as in newer pymdownx.snippets, whose syntax this follows so that this
hook can be dropped once a pymdownx with sections is available:
- marker lines of other sections nested inside the quoted one are left out;
- the common leading indentation of the quoted lines is removed;
- a quote line starting with `;` is an escape: the `;` is removed and the line
  is kept as text (so a page can show the syntax itself).

Unlike pymdownx, every failure stops the build with an error naming the page,
the line, the file and the section: a missing file, a missing, duplicated,
unterminated or empty section, or a path leaving the repository.

The functions above `on_page_markdown` are pure and need no MkDocs; see
tests/docs/test_snippets_hook.py.
"""

import os
import re

# A quote line: optional indentation, `--8<--` and one quoted path. The same
# shape as pymdownx.snippets accepts.
QUOTE_LINE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<escape>;*)-{1,}8<-{1,}[ \t]+"
    r"""(?P<quoted>"(?:\\"|[^"\n\r])+?"|'(?:\\'|[^'\n\r])+?')[ \t]*$"""
)

# A section name: lowercase letters, digits, `_` and `-`, starting with a letter.
NAME = r"[a-z][-_0-9a-z]*"

# A marker line in a source file: a `//` or `#` comment holding only the marker.
MARKER_LINE = re.compile(
    r"^[ \t]*(?://|#)[ \t]*-{1,}8<-{1,}[ \t]+"
    r"\[[ \t]*(?P<kind>start|end)[ \t]*:[ \t]*(?P<name>" + NAME + r")[ \t]*\][ \t]*$"
)

# The section suffix of a quoted path: "file.h:name".
PATH_AND_SECTION = re.compile(r"^(?P<path>.+?):(?P<section>" + NAME + r")$")


class SnippetError(ValueError):
    """A quote that cannot be resolved; the message says which and why."""


def parse_target(target):
    """Splits "path:section" into (path, section); section is None for a file."""
    match = PATH_AND_SECTION.match(target)
    if match:
        return match.group("path"), match.group("section")
    return target, None


def dedent(lines):
    """Removes the leading whitespace common to all non-blank lines."""
    widths = [len(line) - len(line.lstrip(" \t")) for line in lines if line.strip()]
    cut = min(widths, default=0)
    return [line[cut:] if line.strip() else "" for line in lines]


def extract_section(text, section, path="<file>"):
    """Returns the lines of `section` in `text`, markers out, dedented.

    With section None returns the whole text with every marker line removed.
    Raises SnippetError when the section is missing, duplicated, unterminated
    or empty (blank lines only). `path` only names the file in messages.
    """
    lines = text.splitlines()
    if section is None:
        kept = [line for line in lines if not MARKER_LINE.match(line)]
        if not any(line.strip() for line in kept):
            raise SnippetError(f"file '{path}' is empty")
        return dedent(kept)

    starts = []
    ends = []
    for number, line in enumerate(lines):
        marker = MARKER_LINE.match(line)
        if marker and marker.group("name") == section:
            (starts if marker.group("kind") == "start" else ends).append(number)
    if not starts:
        raise SnippetError(f"section '{section}' not found in '{path}' "
                           f"(no line '// --8<-- [start:{section}]')")
    if len(starts) > 1:
        raise SnippetError(f"section '{section}' starts more than once in '{path}' "
                           f"(lines {', '.join(str(n + 1) for n in starts)})")
    start = starts[0]
    end = next((n for n in ends if n > start), None)
    if end is None:
        raise SnippetError(f"section '{section}' in '{path}' is unterminated "
                           f"(no line '// --8<-- [end:{section}]' after line {start + 1})")
    body = [line for line in lines[start + 1:end] if not MARKER_LINE.match(line)]
    if not any(line.strip() for line in body):
        raise SnippetError(f"section '{section}' in '{path}' is empty")
    return dedent(body)


def resolve_path(root, path):
    """Returns the absolute path of `path` under `root`, which it may not leave."""
    root = os.path.realpath(root)
    full = os.path.realpath(os.path.join(root, path))
    if os.path.commonpath([root, full]) != root:
        raise SnippetError(f"path '{path}' is not inside the repository")
    return full


def quote(target, root):
    """Returns the lines that `--8<-- "target"` stands for."""
    path, section = parse_target(target)
    full = resolve_path(root, path)
    try:
        with open(full, encoding="utf-8") as source:
            text = source.read()
    except FileNotFoundError:
        where = f" (for section '{section}')" if section else ""
        raise SnippetError(f"file '{path}' not found{where}") from None
    except (IsADirectoryError, UnicodeDecodeError) as error:
        raise SnippetError(f"file '{path}' cannot be read as text: {error}") from None
    return extract_section(text, section, path)


def expand(markdown, root):
    """Replaces every quote line of `markdown` by the lines it quotes.

    Raises SnippetError, its message prefixed with "line N: " (N counting from
    1 in `markdown`), at the first quote that cannot be resolved.
    """
    out = []
    for number, line in enumerate(markdown.split("\n"), start=1):
        match = QUOTE_LINE.match(line)
        if not match:
            out.append(line)
            continue
        indent = match.group("indent")
        if match.group("escape"):
            out.append(indent + line[len(indent) + 1:])
            continue
        target = match.group("quoted")[1:-1]
        try:
            quoted = quote(target, root)
        except SnippetError as error:
            raise SnippetError(f"line {number}: {error}") from None
        out.extend(indent + q if q else "" for q in quoted)
    return "\n".join(out)


def on_page_markdown(markdown, page, config, files, **kwargs):
    from mkdocs.exceptions import PluginError

    root = os.path.dirname(os.path.abspath(config["config_file_path"]))
    try:
        return expand(markdown, root)
    except SnippetError as error:
        raise PluginError(f"snippets: page '{page.file.src_path}', {error}") from None


def on_serve(server, config, builder, **kwargs):
    # `mkdocs serve` rebuilds when quoted code changes, not only docs/.
    root = os.path.dirname(os.path.abspath(config["config_file_path"]))
    for folder in ("src", "chapters"):
        if os.path.isdir(os.path.join(root, folder)):
            server.watch(os.path.join(root, folder))
    return server
