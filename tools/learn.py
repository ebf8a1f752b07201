#!/usr/bin/env python3
"""minitf's exercise runner: do the course's exercises one by one.

Each exercise is a folder exercises/NN-chapter/NN_name/ with a README.md (the
task, ending in a Hint section), a starter .cc that you edit, solution/ with
one answer, and a test. The runner builds your starter against the test and
remembers what passed in .learn/progress.json, so you always know what is next.

  python3 tools/learn.py                 list the exercises and what to do next
  python3 tools/learn.py next            show the next exercise's task
  python3 tools/learn.py hint 5.1        the idea behind exercise 5.1
  python3 tools/learn.py hint 5.1 --more the next step (--more --more: the one after)
  python3 tools/learn.py check 5.1       rebuild and test exercise 5.1
  python3 tools/learn.py check           rebuild and test every exercise
  python3 tools/learn.py run 3.1         run the chapter's seed program on your code
  python3 tools/learn.py watch           re-check an exercise whenever you save it

Some exercises are pieces of the engine itself (a gradient, a kernel, a
shape function): their folder has a register_piece.cc that registers your code
through the engine's own extension points in place of the library's. `run`
builds the chapter's seed program with your piece and as the library has it,
runs both, and prints their results side by side.

"Next" is the next exercise not passed yet after the one checked last: the
rest of its chapter first, then the chapters after it. A hint comes in tiers
(the README's "Hints" section, one "###" heading per tier) and never holds
code: the solution/ folder holds one answer. A test that runs longer than
its CTest TIMEOUT (cmake/Course.cmake) is stopped, and the runner names the
test that was running and the functions of your starter it calls.

An exercise is named by its folder (02_reduce_mean), its number (02 or 2),
its name without the number (reduce_mean), or chapter.number (1.2).
Builds go to build/learn/ (configured once with -DMINITF_EXERCISES=starters);
deleting it loses no progress. Only Python's standard library is used.
"""

import argparse
import datetime
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD_DIR_NAME = "build/learn"
PROGRESS_PATH = Path(".learn") / "progress.json"
PROG = "python3 tools/learn.py"

PASSED = "passed"
FAILING = "failing"
NOT_CHECKED = "not checked"
CHANGED = "changed, re-check"

_LEADING_NUMBER = re.compile(r"^(\d+)")


def _number(folder_name):
    """The leading number of '02_reduce_mean' or '01-tensors', else None."""
    m = _LEADING_NUMBER.match(folder_name)
    return int(m.group(1)) if m else None


def _order(folder_name):
    # Numbered folders first, by number; then any others by name.
    n = _number(folder_name)
    return (0 if n is not None else 1, n if n is not None else 0, folder_name)


class Exercise:
    """One exercise folder: exercises/<chapter>/<name>/.

    The starters are the files the learner edits: those in the folder that
    also exist under solution/, so the runner needs no list of them.
    """

    def __init__(self, root, folder):
        self.root = Path(root)
        self.folder = Path(folder)
        self.name = self.folder.name
        self.chapter = self.folder.parent.name
        self.number = _number(self.name)
        self.chapter_number = _number(self.chapter)
        solution = self.folder / "solution"
        self.starters = sorted(
            self.folder / f.name for f in solution.iterdir()
            if f.is_file() and (self.folder / f.name).is_file())

    @property
    def readme(self):
        return self.folder / "README.md"

    def rel(self, path):
        """A path as the learner types it, relative to the repository root."""
        try:
            return Path(path).relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def file_to_edit(self):
        return self.rel(self.starters[0] if self.starters else self.folder)

    def chapter_ref(self):
        """'1.2' for exercise 02 of chapter 01, or None if either is unnumbered."""
        if self.number is None or self.chapter_number is None:
            return None
        return "%d.%d" % (self.chapter_number, self.number)

    def title(self):
        return readme_title(self.readme.read_text(encoding="utf-8"), self.name)

    def __repr__(self):
        return "Exercise(%s/%s)" % (self.chapter, self.name)


class DiscoveryError(Exception):
    pass


def discover(root):
    """Every exercise under root/exercises, ordered by chapter then number.

    An exercise is a folder exercises/<chapter>/<name>/ holding a README.md and
    a solution/ folder; anything else (a chapter's own README, say) is skipped.
    Names must be unique across the course: each is a build target.
    """
    base = Path(root) / "exercises"
    if not base.is_dir():
        return []
    found = []
    for chapter in sorted((p for p in base.iterdir() if p.is_dir()), key=lambda p: _order(p.name)):
        if chapter.name.startswith("."):
            continue
        folders = [p for p in chapter.iterdir()
                   if p.is_dir() and (p / "README.md").is_file() and (p / "solution").is_dir()]
        for folder in sorted(folders, key=lambda p: _order(p.name)):
            found.append(Exercise(root, folder))
    seen = {}
    for ex in found:
        if ex.name in seen:
            raise DiscoveryError("two exercises are named %s: %s and %s" % (
                ex.name, ex.rel(seen[ex.name].folder), ex.rel(ex.folder)))
        seen[ex.name] = ex
    return found


def resolve(exercises, query):
    """The exercise the learner means by `query`; LookupError if none or several."""
    q = query.strip().rstrip("/")
    names = ", ".join(ex.name for ex in exercises) or "(none)"
    for ex in exercises:
        if q == ex.name:
            return ex
    if "/" in q:
        parts = q.split("/")
        for ex in exercises:
            if parts[-1] == ex.name and (len(parts) < 2 or parts[-2] == ex.chapter):
                return ex
        raise LookupError("No exercise at '%s'. Exercises: %s" % (query, names))
    m = re.match(r"^(\d+)\.(\d+)$", q)
    if m:
        for ex in exercises:
            if ex.chapter_ref() == "%d.%d" % (int(m.group(1)), int(m.group(2))):
                return ex
        raise LookupError("No exercise %s (chapter.number). Exercises: %s" % (query, names))
    if q.isdigit():
        matches = [ex for ex in exercises if ex.number == int(q)]
    else:
        # The name without its number: 'reduce_mean' for '02_reduce_mean'.
        matches = [ex for ex in exercises if re.sub(r"^\d+_", "", ex.name) == q]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        refs = ", ".join("%s (%s)" % (ex.chapter_ref() or ex.name, ex.name) for ex in matches)
        raise LookupError("'%s' is ambiguous: %s. Give chapter.number or the full name."
                          % (query, refs))
    raise LookupError("No exercise named '%s'. Exercises: %s" % (query, names))


def short_ref(exercises, ex):
    """How the runner names `ex` in the commands it suggests: chapter.number
    (5.1), else its number when that is unique, else its folder's name."""
    ref = ex.chapter_ref()
    if ref is not None:
        try:
            if resolve(exercises, ref) is ex:
                return ref
        except LookupError:
            pass
    if ex.number is not None:
        ref = "%02d" % ex.number
        try:
            if resolve(exercises, ref) is ex:
                return ref
        except LookupError:
            pass
    return ex.name


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _headings(lines):
    """(index, level, text) of each Markdown heading outside code fences."""
    in_fence = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        m = None if in_fence else _HEADING.match(line)
        if m:
            yield i, len(m.group(1)), m.group(2)


def extract_hint(markdown):
    """The body of the README's 'Hint' (or 'Hints') section, or None.

    The section runs to the next heading of the same or a higher level, so a
    hint may have subsections; a '#' inside a code block is not a heading.
    """
    lines = markdown.splitlines()
    heads = list(_headings(lines))
    for k, (i, level, text) in enumerate(heads):
        if text.strip().lower() in ("hint", "hints"):
            end = len(lines)
            for j, other_level, _ in heads[k + 1:]:
                if other_level <= level:
                    end = j
                    break
            body = "\n".join(lines[i + 1:end]).strip("\n")
            return body if body.strip() else None
    return None


def hint_tiers(markdown):
    """The README's hints as a list of (title, text), the gentlest first.

    Each subheading of the 'Hints' section is one tier ('### The idea',
    '### The next step', ...); text before the first subheading is a tier of
    its own, titled 'The idea'. A section without subheadings is one tier.
    Empty when there is no hint.
    """
    body = extract_hint(markdown)
    if body is None:
        return []
    lines = body.splitlines()
    heads = list(_headings(lines))
    if not heads:
        return [("The idea", body.strip())]
    top = min(level for _, level, _ in heads)
    starts = [(i, text) for i, level, text in heads if level == top]
    tiers = []
    lead = "\n".join(lines[:starts[0][0]]).strip()
    if lead:
        tiers.append(("The idea", lead))
    for k, (i, text) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        text_body = "\n".join(lines[i + 1:end]).strip()
        if text_body:
            tiers.append((text, text_body))
    return tiers


_CODE_SPAN = re.compile(r"`([^`]+)`")
_CODE_MARKS = re.compile(r";|\{|\}|[^=!<>]=[^=]|\+=|-=|\+\+|\bfor \(|\bif \(|\breturn ")


def code_in_hint(text):
    """The first piece of code in a hint's text, or None.

    Hints say what to do in words; the solution folder holds the code. A
    fenced or indented block is code, and so is an inline span that reads as
    a statement (an assignment, a semicolon, a brace, a loop, a return). A
    name in backticks (`__syncthreads()`, `global_step_`) is not.
    """
    for line in text.splitlines():
        if _FENCE.match(line) or line.startswith("    ") or line.startswith("\t"):
            if line.strip() and not re.match(r"^\s+([-*]|\d+\.)\s", line):
                return line.strip()
        for span in _CODE_SPAN.findall(line):
            if _CODE_MARKS.search(span):
                return span
    return None


def readme_title(markdown, default):
    """'reduce_mean over any axes' from '# Exercise 02: reduce_mean over any axes'."""
    for _, level, text in _headings(markdown.splitlines()):
        if level == 1:
            return re.sub(r"^Exercise\s+\d+\s*[:.\-]\s*", "", text) or default
    return default


def starter_hash(ex):
    """sha256 of the learner's starter files: a result is only valid for them."""
    h = hashlib.sha256()
    for path in ex.starters:
        h.update(path.name.encode("utf-8") + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def load_progress(path):
    """The saved progress, or an empty one if there is none or it is unreadable."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"format": 1, "exercises": {}}
    except (OSError, ValueError) as e:
        print("warning: ignoring unreadable %s (%s)" % (path, e), file=sys.stderr)
        return {"format": 1, "exercises": {}}
    if not isinstance(data, dict) or not isinstance(data.get("exercises"), dict):
        return {"format": 1, "exercises": {}}
    return data


def save_progress(path, progress):
    """Writes atomically, so an interrupted save never loses the old file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(progress, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(str(tmp), str(path))


def record(progress, ex, passed, digest, reason=None, when=None):
    """Stores the result of checking `ex` whose starters hashed to `digest`."""
    when = when or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    entry = {"result": PASSED if passed else FAILING, "starter_sha256": digest,
             "checked_at": when}
    if reason:
        entry["reason"] = reason
    progress.setdefault("exercises", {})[ex.name] = entry
    progress["current"] = ex.name


def status(progress, ex, digest=None):
    """PASSED, FAILING, NOT_CHECKED, or CHANGED when the starter was edited since."""
    entry = progress.get("exercises", {}).get(ex.name)
    if not isinstance(entry, dict) or entry.get("result") not in (PASSED, FAILING):
        return NOT_CHECKED
    if entry.get("starter_sha256") != (digest if digest is not None else starter_hash(ex)):
        return CHANGED
    return entry["result"]


def current_exercise(exercises, progress):
    """The exercise checked last (progress's "current"), or None."""
    name = progress.get("current")
    for ex in exercises:
        if ex.name == name:
            return ex
    return None


def next_exercise(exercises, progress, current=None):
    """The exercise to do next, or None when every one has passed.

    `current` (default: the exercise checked last) while it has not passed;
    then the first one not passed later in its chapter, then earlier in its
    chapter, then in the chapters after it, and only then in the chapters
    before it. With no current exercise, the first one not passed.
    """
    if current is None:
        current = current_exercise(exercises, progress)
    if current is None or current not in exercises:
        order = list(exercises)
    else:
        i = exercises.index(current)
        chapter = [ex for ex in exercises if ex.chapter == current.chapter]
        k = chapter.index(current)
        later = [ex for ex in exercises[i + 1:] if ex.chapter != current.chapter]
        earlier = [ex for ex in exercises[:i] if ex.chapter != current.chapter]
        order = [current] + chapter[k + 1:] + chapter[:k] + later + earlier
    for ex in order:
        if status(progress, ex) != PASSED:
            return ex
    return None


def parse_gtest(output):
    """(total, failures) from a GoogleTest run's output.

    failures is a list of (test name, lines of its output). A test that started
    and never finished (the program crashed) counts as a failure too. total is
    None when the run did not get as far as printing its summary.
    """
    total = None
    failures = []
    current, block = None, []
    for line in output.splitlines():
        m = re.match(r"^\[ RUN      \] (\S+)", line)
        if m:
            current, block = m.group(1), []
            continue
        if current and re.match(r"^\[\s+OK \] ", line):
            current = None
            continue
        if current and re.match(r"^\[  FAILED  \] " + re.escape(current), line):
            failures.append((current, block))
            current = None
            continue
        m = re.match(r"^\[==========\] (\d+) tests? from .* ran", line)
        if m:
            total = int(m.group(1))
        if current:
            block.append(line)
    if current:
        failures.append((current, block))
    return total, failures


_TIMEOUT = re.compile(r"\*\*\*Timeout\s+([\d.]+)\s+sec")


def timed_out(output):
    """Seconds after which CTest stopped a test that ran too long, or None."""
    m = _TIMEOUT.search(output)
    return float(m.group(1)) if m else None


def unfinished_test(output):
    """The GoogleTest test that started and never ended, or None."""
    current = None
    for line in output.splitlines():
        m = re.match(r"^\[ RUN      \] (\S+)", line)
        if m:
            current = m.group(1)
        elif current and (re.match(r"^\[\s+OK \] ", line)
                          or line.startswith("[  FAILED  ] " + current)
                          or line.startswith("[  SKIPPED ] " + current)):
            current = None
    return current


# A function's definition at the start of a line, as Google style writes it:
# a return type, the (qualified) name, and its parameters, maybe on later lines.
_DEFINITION = re.compile(
    r"^(?!\s|#|//|/\*|\*|namespace\b|using\b|template\b|class\b|struct\b|enum\b"
    r"|return\b|typedef\b|static_assert\b|[A-Z_]+\()"
    r"[\w:<>,*&\s]*?\b((?:\w+::)*~?(\w+))\s*\(", re.M)


def defined_functions(text):
    """The names of the functions a C++ file defines, in order, without
    their class ('TryTakeGrad' for 'StaleAccumulator::TryTakeGrad')."""
    names = []
    for m in _DEFINITION.finditer(text):
        rest = text[m.end():]
        # A definition's body starts before any ';' (a declaration ends there).
        brace, semi = rest.find("{"), rest.find(";")
        if brace < 0 or (0 <= semi < brace):
            continue
        name = m.group(2)
        if name not in names and name not in ("if", "for", "while", "switch"):
            names.append(name)
    return names


def or_list(names):
    """'a', 'a or b', 'a, b or c'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


STUB_PREFIX = "exercise %s: write "
MARKER = "==== EXERCISE %s"


def stub_notice(ex, output):
    """What to say when a failing test ran the starter's own code, or None.

    A starter either returns (or throws) an Unimplemented error whose text
    starts with 'exercise <name>: write ', or keeps a working part of the
    answer under a '==== EXERCISE <name>' comment. The first shows in the
    test's output; the second in the starter file, as long as the comment is
    there.
    """
    m = re.search(re.escape(STUB_PREFIX % ex.name) + r"(\w+)", output)
    if m:
        return ("Your %s still returns the starter's Unimplemented stub "
                "(\"%s%s\"): that is where your code goes."
                % (m.group(1), STUB_PREFIX % ex.name, m.group(1)))
    for path in ex.starters:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        for number, line in enumerate(lines, 1):
            if MARKER % ex.name in line:
                return ("%s:%d still holds the starter's code under its '==== EXERCISE' "
                        "line: that is where your code goes." % (ex.rel(path), number))
    return None


def library_steps(dry_run):
    """How many of a dry run's build steps compile or link the minitf library
    (objects under src/), as opposed to the exercise itself."""
    return sum(1 for line in dry_run.splitlines()
               if re.match(r"^\[\d+/\d+\] (Building|Linking) \S+ (object|static library) src/",
                           line))


def split_failures(block):
    """A failed test's output cut into its failed checks ('file:line: Failure' ...)."""
    checks = []
    for line in block:
        if re.search(r":\d+: Failure$", line) or not checks:
            checks.append([])
        checks[-1].append(line)
    return [c for c in checks if any(re.search(r": Failure$", line) for line in c)]


# ---------------------------------------------------------------------------
# Seed programs built on the learner's piece of the engine.

SEEDS_DIR_NAME = "exercise_seeds"
# How long one run of a seed program may take before the runner stops it.
SEED_SECONDS = 300
SKIPPED = 77  # CTest's SKIP_RETURN_CODE for exercise_seed.<name>


def read_manifest(path):
    """The seed program of an engine-building exercise, as cmake/Course.cmake
    writes it (build/.../exercise_seeds/<name>.txt): a dict of its keys, with
    'args' the list of the program's arguments, 'runner' the command that
    runs it, named before it ([] for none), and 'tolerance' a float."""
    seed = {"args": [], "runner": []}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        key, sep, value = line.partition("=")
        if not sep:
            continue
        if key == "arg":
            seed["args"].append(value)
        elif key == "runner":
            seed["runner"].append(value)
        else:
            seed[key] = value
    seed["tolerance"] = float(seed.get("tolerance") or 0)
    seed.setdefault("lines", ".")
    return seed


def result_lines(output, pattern, drop=None):
    """The lines of a program's output that hold its results: those that
    match `pattern`, less what matches `drop` (a timing, which no two runs
    share), stripped of trailing blanks."""
    regex = re.compile(pattern)
    lines = [line for line in output.splitlines() if regex.search(line)]
    if drop:
        lines = [re.sub(drop, "", line) for line in lines]
    return [line.rstrip() for line in lines]


# A number on its own, not the digits of a word such as float32.
_NUMBER = re.compile(r"(?<![\w.])(?:[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf)(?!\w)")


def lines_agree(yours, reference, tolerance):
    """Whether two result lines say the same: the same words, and numbers
    that differ by at most `tolerance` (0: the same text)."""
    if yours == reference:
        return True
    words_a, words_b = _NUMBER.split(yours), _NUMBER.split(reference)
    nums_a, nums_b = _NUMBER.findall(yours), _NUMBER.findall(reference)
    if words_a != words_b or len(nums_a) != len(nums_b):
        return False
    for a, b in zip(nums_a, nums_b):
        if a == b:
            continue
        try:
            if not abs(float(a) - float(b)) <= tolerance:
                return False
        except ValueError:
            return False
    return True


def compare_results(yours, reference, tolerance):
    """(rows, agree): rows of (your line, the reference's line, same?) side by
    side ('' where one has fewer lines); agree when every row agrees and
    there is at least one."""
    rows = []
    for k in range(max(len(yours), len(reference))):
        a = yours[k] if k < len(yours) else ""
        b = reference[k] if k < len(reference) else ""
        rows.append((a, b, k < len(yours) and k < len(reference) and
                     lines_agree(a, b, tolerance)))
    return rows, bool(rows) and all(same for _, _, same in rows)


def last_figures(yours, reference):
    """('0.8416', '0.8416'): the last number with a decimal point of each last
    result line (an accuracy, a loss), or None where either has none."""
    if not yours or not reference:
        return None
    a = [n for n in _NUMBER.findall(yours[-1]) if "." in n]
    b = [n for n in _NUMBER.findall(reference[-1]) if "." in n]
    return (a[-1], b[-1]) if a and b else None


def run_seeds(seed, workdir, seconds=SEED_SECONDS):
    """Runs your build of the seed and the reference, each in a fresh folder
    under `workdir` (a seed may write checkpoints or logs), stopping either
    after `seconds`. Two plain programs run at the same time; a seed started
    through a runner (a cluster of processes, whose ports are picked free
    when it starts) runs one after the other, so the two clusters cannot pick
    the same port. Returns {"yours"|"reference": (exit status or None when
    stopped, output)}."""
    def start(who):
        cwd = Path(workdir) / who
        shutil.rmtree(str(cwd), ignore_errors=True)
        cwd.mkdir(parents=True)
        command = seed.get("runner", []) + [seed[who]] + seed["args"]
        return subprocess.Popen(command, cwd=str(cwd),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                universal_newlines=True, errors="replace",
                                start_new_session=True)

    def finish(proc, deadline):
        try:
            out, _ = proc.communicate(timeout=max(0.1, deadline - time.monotonic()))
            return (proc.returncode, out)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            return (None, out or "")

    results = {}
    if seed.get("runner"):
        for who in ("yours", "reference"):
            results[who] = finish(start(who), time.monotonic() + seconds)
        return results
    procs = {who: start(who) for who in ("yours", "reference")}
    deadline = time.monotonic() + seconds
    for who, proc in procs.items():
        results[who] = finish(proc, deadline)
    return results


def _signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return "signal %d" % number


def seed_report(seed, results, label="with your code"):
    """(exit status, the lines to print) for two runs of a seed program:
    0 when both ran and their result lines agree, SKIPPED when the reference
    cannot run here (its output matches the manifest's 'skip'), else 1."""
    lines = []
    rc_ref, out_ref = results["reference"]
    rc_yours, out_yours = results["yours"]
    skip = seed.get("skip")
    if skip and re.search(skip, out_ref):
        first = next((line for line in out_ref.splitlines() if re.search(skip, line)), skip)
        lines.append("The library's %s cannot run on this machine: %s" % (seed["title"], first))
        return SKIPPED, lines
    if rc_ref != 0:
        lines.append("The library's %s did not finish (%s); its output ends:"
                     % (seed["title"], "stopped after %d s" % SEED_SECONDS
                        if rc_ref is None else "exit status %d" % rc_ref))
        lines += ["    " + line for line in out_ref.splitlines()[-15:]]
        return 1, lines
    if rc_yours != 0:
        if rc_yours is None:
            what = "was stopped after %d s: your code never returned" % SEED_SECONDS
        elif rc_yours < 0:
            what = "was ended by %s" % _signal_name(-rc_yours)
            if -rc_yours == signal.SIGABRT:
                what += " (an exception that nothing caught ends a C++ program so)"
        else:
            what = "stopped with exit status %d" % rc_yours
        lines.append("Your build of %s %s. Its output ends:" % (seed["title"], what))
        lines += ["    " + line for line in out_yours.splitlines()[-15:]]
        return 1, lines
    yours = result_lines(out_yours, seed["lines"], seed.get("drop"))
    reference = result_lines(out_ref, seed["lines"], seed.get("drop"))
    rows, agree = compare_results(yours, reference, seed["tolerance"])
    width = max([len(label)] + [len(a) for a, _, _ in rows])
    lines.append("  %s   %s" % (label.ljust(width), "with the library's"))
    for a, b, same in rows:
        lines.append("  %s %s %s" % (a.ljust(width), " " if same else "|", b))
    figures = last_figures(yours, reference)
    if figures:
        lines.append("Last result: %s %s, %s with the library's." % (figures[0], label,
                                                                     figures[1]))
    differ = sum(1 for _, _, same in rows if not same)
    if agree:
        within = (" (numbers within %g)" % seed["tolerance"]) if seed["tolerance"] else ""
        lines.append("The results agree: %d of %d lines%s." % (len(rows), len(rows), within))
        return 0, lines
    if not rows:
        lines.append("Neither run printed a result line (lines matching '%s')." % seed["lines"])
    else:
        lines.append("%d of %d result lines differ (marked |; numbers may differ by %g)."
                     % (differ, len(rows), seed["tolerance"]))
    return 1, lines


# ---------------------------------------------------------------------------
# Output.

def _use_color():
    return (sys.stdout.isatty() and "NO_COLOR" not in os.environ
            and os.environ.get("TERM") != "dumb")


_COLORS = {PASSED: "32", FAILING: "31", CHANGED: "33", NOT_CHECKED: "2", "bold": "1"}


def paint(text, what):
    if not _use_color() or what not in _COLORS:
        return text
    return "\033[%sm%s\033[0m" % (_COLORS[what], text)


def say(text=""):
    """print(), but never fails on a terminal that cannot show some character."""
    try:
        print(text)
    except UnicodeEncodeError:
        enc = sys.stdout.encoding or "ascii"
        print(text.encode(enc, "replace").decode(enc))
    sys.stdout.flush()


class Runner:
    """The commands, over one repository root."""

    # How long the runner lets CTest run one exercise's test: CTest's own
    # TIMEOUT (60 s, cmake/Course.cmake) and some time to spare.
    GUARD_SECONDS = 90

    def __init__(self, root=ROOT, guard_seconds=GUARD_SECONDS):
        self.root = Path(root)
        self.guard_seconds = guard_seconds
        self.build_dir = self.root / BUILD_DIR_NAME
        self.progress_path = self.root / PROGRESS_PATH
        self.exercises = discover(self.root)
        self.progress = load_progress(self.progress_path)

    # -- list / next / hint -------------------------------------------------

    def cmd_list(self):
        if not self.exercises:
            say("No exercises found under exercises/.")
            return 0
        passed = sum(1 for ex in self.exercises if status(self.progress, ex) == PASSED)
        say(paint("minitf exercises: %d of %d passed" % (passed, len(self.exercises)), "bold"))
        width = max(len(ex.name) for ex in self.exercises)
        chapter = None
        for ex in self.exercises:
            if ex.chapter != chapter:
                chapter = ex.chapter
                say()
                say("  " + chapter)
            st = status(self.progress, ex)
            label = st
            reason = self.progress["exercises"].get(ex.name, {}).get("reason")
            if st == FAILING and reason:
                label += " (%s)" % reason
            say("    %s  %s  %s" % (ex.name.ljust(width), paint(label.ljust(26), st), ex.title()))
        say()
        self._say_next()
        return 0

    def _say_next(self):
        ex = next_exercise(self.exercises, self.progress)
        if ex is None:
            say(paint("Every exercise passes. Well done!", PASSED))
            return
        ref = short_ref(self.exercises, ex)
        say(paint("Next: %s - %s" % (ex.name, ex.title()), "bold"))
        say("  read    %s   (or: %s next)" % (ex.rel(ex.readme), PROG))
        say("  edit    %s" % ex.file_to_edit())
        say("  check   %s check %s" % (PROG, ref))
        say("  stuck?  %s hint %s" % (PROG, ref))

    def cmd_next(self):
        ex = next_exercise(self.exercises, self.progress)
        if ex is None:
            say(paint("Every exercise passes. Well done!", PASSED))
            return 0
        rule = "-" * 72
        say(paint("Next: %s  (%s)" % (ex.name, ex.rel(ex.folder)), "bold"))
        say(rule)
        say(ex.readme.read_text(encoding="utf-8").rstrip())
        say(rule)
        say("Edit %s, then run: %s check %s"
            % (ex.file_to_edit(), PROG, short_ref(self.exercises, ex)))
        return 0

    def cmd_hint(self, query, more=0):
        """Hint tiers 1..1+more of an exercise, and how to get the next one."""
        ex = self._pick(query)
        tiers = hint_tiers(ex.readme.read_text(encoding="utf-8"))
        if not tiers:
            say("%s has no Hints section in %s." % (ex.name, ex.rel(ex.readme)))
            return 1
        shown = min(len(tiers), 1 + max(0, more))
        ref = short_ref(self.exercises, ex)
        for k, (title, text) in enumerate(tiers[:shown]):
            if k:
                say()
            say(paint("Hint %d of %d for %s: %s" % (k + 1, len(tiers), ex.name, title), "bold"))
            say()
            say(text)
        say()
        if shown < len(tiers):
            say("The next step: %s hint %s %s" % (PROG, ref, " ".join(["--more"] * shown)))
        else:
            say("That is the last hint.")
        say("Hints hold no code; one answer is in %s/, to read once yours runs."
            % ex.rel(ex.folder / "solution"))
        return 0

    def _pick(self, query):
        if query:
            return resolve(self.exercises, query)
        if not self.exercises:
            raise LookupError("No exercises found under exercises/.")
        ex = next_exercise(self.exercises, self.progress)
        if ex is None:
            ex = current_exercise(self.exercises, self.progress)
        return ex if ex is not None else self.exercises[-1]

    # -- check --------------------------------------------------------------

    def cmd_check(self, query):
        if query:
            ok = self.check(resolve(self.exercises, query), verbose=True)
            say()
            if ok:
                self._say_next()
            return 0 if ok else 1
        if not self.exercises:
            say("No exercises found under exercises/.")
            return 0
        failed = [ex for ex in self.exercises if not self.check(ex, verbose=False)]
        say()
        self.cmd_list()
        return 1 if failed else 0

    def check(self, ex, verbose):
        """Builds exercise_<name> from the starter, runs its test, records the result."""
        digest = starter_hash(ex)
        say(paint("Checking %s" % ex.name, "bold") + "  (%s)" % ex.file_to_edit())
        if not self._configure():
            return False
        built, build_lines = self._build(ex)
        if not built:
            unknown = any("unknown target" in line for line in build_lines)
            self._show(build_lines)
            if unknown:
                say(paint("  The build has no target exercise_%s." % ex.name, FAILING))
                say("  Is add_subdirectory(%s) in exercises/%s/CMakeLists.txt?"
                    % (ex.name, ex.chapter))
                return False
            record(self.progress, ex, False, digest, reason="does not compile")
            save_progress(self.progress_path, self.progress)
            say(paint("  FAILING  %s does not compile; the compiler's messages are above."
                      % ex.name, FAILING))
            return False
        passed, output = self._test(ex)
        stopped = timed_out(output)
        record(self.progress, ex, passed, digest,
               reason="never returned" if stopped is not None else None)
        save_progress(self.progress_path, self.progress)
        total, failures = parse_gtest(output)
        if passed:
            say(paint("  PASSED  %s: every test passes." % ex.name, PASSED))
            return True
        if stopped is not None:
            self._say_hang(ex, output, stopped, verbose)
            return False
        if total:
            summary = "%d of %d tests fail" % (len(failures), total)
        else:
            summary = "the test program did not finish"
        say(paint("  FAILING  %s: %s." % (ex.name, summary), FAILING))
        if verbose:
            self._show_failures(ex, output, failures)
        return False

    def _say_hang(self, ex, output, seconds, verbose):
        """The message for a test that CTest (or the runner) stopped."""
        test = unfinished_test(output)
        functions = []
        for path in ex.starters:
            try:
                functions += defined_functions(path.read_text(encoding="utf-8"))
            except OSError:
                pass
        files = ", ".join(p.name for p in ex.starters)
        yours = ("your %s (%s)" % (or_list(functions), files)) if functions else "your code"
        say(paint("  FAILING  %s: %s never returned: %s was still running when it was stopped "
                  "after %d s." % (ex.name, yours, test or "the test program", round(seconds)),
                  FAILING))
        if not verbose:
            return
        say()
        say("  Look for a loop that never ends, or a library call (a take, a dequeue, a")
        say("  session run) that waits for something your code never gives it.")
        _, failures = parse_gtest(output)
        block = next((b for name, b in failures if name == test), [])
        checks = split_failures(block)
        if checks:
            say("  What the test reported before it was stopped:")
            self._show(checks[0], limit=25)
        ref = short_ref(self.exercises, ex)
        say("Full output: .learn/logs/%s.log" % ex.name)
        say("Stuck? `%s hint %s`" % (PROG, ref))

    def _configure(self):
        cache = self.build_dir / "CMakeCache.txt"
        if cache.is_file() and "MINITF_EXERCISES:STRING=starters" in cache.read_text(
                encoding="utf-8", errors="replace"):
            return True
        for tool, package in (("cmake", "cmake"), ("ninja", "ninja-build")):
            if shutil.which(tool) is None:
                say(paint("  %s is not installed (Debian package %s; scripts/setup.sh installs it)."
                          % (tool, package), FAILING))
                return False
        say("  configuring %s/ for your starters (once) ..." % BUILD_DIR_NAME)
        cmd = ["cmake", "-S", str(self.root), "-B", str(self.build_dir), "-G", "Ninja",
               "-DMINITF_EXERCISES=starters"]
        proc = subprocess.run(cmd, cwd=str(self.root), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True)
        if proc.returncode != 0:
            self._show(proc.stdout.splitlines())
            say(paint("  Configuring %s/ failed (messages above). If it was made with another"
                      " generator, delete it and try again." % BUILD_DIR_NAME, FAILING))
            return False
        return True

    def _build(self, ex):
        """(ok, the build's messages): ninja's progress lines are only shown live."""
        return self._build_targets(["exercise_" + ex.name])

    def _build_targets(self, targets):
        """Builds `targets` in the runner's build folder; as _build."""
        pending = self._library_steps(targets)
        if pending:
            say("  building: this first build also compiles the minitf library (%d steps):"
                " a few minutes ..." % pending)
        cmd = ["cmake", "--build", str(self.build_dir), "--target"] + list(targets)
        proc = subprocess.Popen(cmd, cwd=str(self.root), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, universal_newlines=True)
        messages = []
        live = sys.stdout.isatty()
        after_failed = False
        for line in proc.stdout:
            line = line.rstrip("\n")
            if re.match(r"^\[\d+/\d+\] ", line):
                if live:
                    sys.stdout.write("\r\033[K  " + line[:100])
                    sys.stdout.flush()
            elif line.startswith("FAILED: "):
                after_failed = True  # the next line is the long compiler command
            elif after_failed:
                after_failed = False
            elif line and not line.startswith("ninja: build stopped") and \
                    line != "ninja: no work to do.":
                messages.append(line)
        proc.stdout.close()
        proc.wait()
        if live:
            sys.stdout.write("\r\033[K")
            sys.stdout.flush()
        # The compiler's warnings about the learner's own files; those about
        # the library (a first build compiles it) are not theirs to act on.
        if proc.returncode == 0 and any("warning:" in m and "exercises/" in m
                                        for m in messages):
            self._show(messages)
        return proc.returncode == 0, messages

    def _library_steps(self, targets):
        """How many steps of building `targets` compile the minitf library:
        0 once an earlier build made it (ninja's dry run says what is left)."""
        proc = subprocess.run(["cmake", "--build", str(self.build_dir), "--target"]
                              + list(targets) + ["--", "-n"], cwd=str(self.root), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True)
        return library_steps(proc.stdout) if proc.returncode == 0 else 0

    def _test(self, ex):
        """(passed, the test program's output); the full log is kept in .learn/logs/.

        CTest stops a test after its TIMEOUT; should CTest itself not return,
        the runner stops it GUARD_SECONDS later and reports a timeout too.
        """
        regex = "^exercise\\." + re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", ex.name) + "$"
        cmd = ["ctest", "--test-dir", str(self.build_dir), "-R", regex,
               "--output-on-failure", "--no-tests=error"]
        started = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=str(self.root), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, universal_newlines=True,
                                start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=self.guard_seconds)
            passed = proc.returncode == 0
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            output, _ = proc.communicate()
            output = (output or "") + "\n***Timeout %.2f sec (stopped by %s)\n" % (
                time.monotonic() - started, PROG)
            passed = False
        log = self.root / ".learn" / "logs" / (ex.name + ".log")
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(output, encoding="utf-8")
        return passed, output

    def _show(self, lines, limit=60):
        prefix = str(self.root) + "/"
        shown = [line.replace(prefix, "") for line in lines]
        if len(shown) > limit:
            say("    ... (%d earlier lines)" % (len(shown) - limit))
            shown = shown[-limit:]
        for line in shown:
            say("    " + line)

    def _show_failures(self, ex, output, failures, detailed=3):
        say()
        if not failures:
            self._show(output.splitlines(), limit=40)
        for name, block in failures[:detailed]:
            checks = split_failures(block)
            say("  " + paint(name, FAILING))
            self._show(checks[0] if checks else block, limit=25)
            if len(checks) > 1:
                more = len(checks) - 1
                say("    (and %d more failed check%s in this test)" % (more, "s" if more > 1 else ""))
            say()
        rest = [name for name, _ in failures[detailed:]]
        if rest:
            say("  %d more failing tests:" % len(rest))
            for name in rest:
                say("    " + name)
            say()
        ref = short_ref(self.exercises, ex)
        notice = stub_notice(ex, output)
        if notice:
            say(notice)
        say("Full output: .learn/logs/%s.log" % ex.name)
        say("Edit %s and run `%s check %s` again." % (ex.file_to_edit(), PROG, ref))
        say("Stuck? `%s hint %s`" % (PROG, ref))

    # -- run ----------------------------------------------------------------

    def cmd_run(self, query):
        """Builds the exercise's seed program on the learner's piece and the
        library's, runs both and prints their results side by side."""
        ex = self._pick(query)
        ref = short_ref(self.exercises, ex)
        if not self._configure():
            return 1
        seeds = self.build_dir / SEEDS_DIR_NAME
        manifest = seeds / (ex.name + ".txt")
        if not manifest.is_file():
            # A build folder configured before the exercise had its piece.
            subprocess.run(["cmake", str(self.build_dir)], cwd=str(self.root),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not manifest.is_file():
            pieces = [short_ref(self.exercises, e) for e in self.exercises
                      if (seeds / (e.name + ".txt")).is_file()]
            say("%s builds no seed program: its code is not registered in the engine."
                % ex.name)
            if pieces:
                say("The exercises whose code a seed program runs on: %s." % ", ".join(pieces))
            return 2
        seed = read_manifest(manifest)
        say(paint("Running %s on your %s" % (seed["title"], ex.file_to_edit()), "bold"))
        built, messages = self._build_targets([seed["yours_target"], seed["reference_target"]])
        if not built:
            self._show(messages)
            say(paint("  %s does not compile; the compiler's messages are above." % ex.name,
                      FAILING))
            return 1
        say("  running yours and the library's side by side (each for at most %d s) ..."
            % SEED_SECONDS)
        results = run_seeds(seed, self.build_dir / "seed_runs" / ex.name)
        code, lines = seed_report(seed, results)
        say()
        for line in lines:
            say(line)
        if code == 0:
            title = seed["title"][:1].upper() + seed["title"][1:]
            say(paint("%s runs on your code and prints what it prints on the library's."
                      % title, PASSED))
            return 0
        notice = stub_notice(ex, results["yours"][1])
        if notice:
            say(notice)
        say("Its tests say more: `%s check %s`; stuck? `%s hint %s`" % (PROG, ref, PROG, ref))
        return 1

    # -- watch --------------------------------------------------------------

    def cmd_watch(self, interval=1.0):
        self.cmd_list()
        say()
        say("Watching your starter files; save one to re-check it (Ctrl-C to stop).")
        seen = {ex.name: starter_hash(ex) for ex in self.exercises}
        try:
            while True:
                time.sleep(interval)
                for ex in self.exercises:
                    digest = starter_hash(ex)
                    if digest != seen[ex.name]:
                        seen[ex.name] = digest
                        say()
                        if self.check(ex, verbose=True):
                            say()
                            self._say_next()
        except KeyboardInterrupt:
            say()
            return 0


def cmd_compare(manifest, seconds=SEED_SECONDS):
    """CTest's exercise_seed.<name>: both builds of the seed, in ./seed_runs/.
    Exit status 0 when they agree, SKIPPED when the reference cannot run."""
    seed = read_manifest(manifest)
    say("%s: %s with the piece of %s, and with the library's"
        % (seed.get("exercise", "?"), seed["title"], seed.get("exercise", "?")))
    code, lines = seed_report(seed, run_seeds(seed, Path.cwd() / "seed_runs", seconds),
                              label="with the piece")
    for line in lines:
        say(line)
    return code


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog=PROG, description="Do minitf's exercises: list them, read them, check them.",
        epilog="NAME: the folder (02_reduce_mean), its number (02), its name without the "
               "number (reduce_mean) or chapter.number (1.2).")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("list", help="every exercise, its state, and what to do next (the default)")
    sub.add_parser("next", help="show the next exercise's task")
    p = sub.add_parser("hint", help="the idea behind an exercise (default: the next one); "
                                    "--more for the next step")
    p.add_argument("name", nargs="?", metavar="NAME")
    p.add_argument("-m", "--more", action="count", default=0,
                   help="one more tier of hints each time it is given")
    p = sub.add_parser("check", help="rebuild and test one exercise, or all of them")
    p.add_argument("name", nargs="?", metavar="NAME")
    p = sub.add_parser("run", help="run the chapter's seed program on your piece of the engine "
                                   "beside the library's")
    p.add_argument("name", nargs="?", metavar="NAME")
    p = sub.add_parser("compare", help="run a seed program on an exercise's piece and on the "
                                       "library, as CTest's exercise_seed tests do")
    p.add_argument("manifest", metavar="MANIFEST",
                   help="build/.../exercise_seeds/<name>.txt, written by cmake/Course.cmake")
    sub.add_parser("watch", help="re-check an exercise each time you save its starter")
    args = parser.parse_args(argv)
    if args.command == "compare":
        return cmd_compare(args.manifest)
    try:
        runner = Runner()
        if args.command in (None, "list"):
            return runner.cmd_list()
        if args.command == "next":
            return runner.cmd_next()
        if args.command == "hint":
            return runner.cmd_hint(args.name, args.more)
        if args.command == "check":
            return runner.cmd_check(args.name)
        if args.command == "run":
            return runner.cmd_run(args.name)
        return runner.cmd_watch()
    except (LookupError, DiscoveryError) as e:
        say(str(e))
        return 2
    except BrokenPipeError:
        # Output piped into `head` that stopped reading: not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
