#!/usr/bin/env python3
"""Checks the text a learner reads: no talk of how the project is made, and
no page too long to read as one story.

    python3 tools/book_check.py            # the repository this file is in
    python3 tools/book_check.py --root DIR # another tree laid out the same way
    python3 tools/book_check.py --words    # also print each page's prose words
    python3 tools/book_check.py --results  # also check that every results file names its commit

What it reads (everything a learner reads, as the site and the programs show it):
  - chapters/**/*.md, docs/*.md, docs/chapters/*.md (links into chapters/,
    read once), README.md and exercises/**/README.md;
  - the string literals of the programs under chapters/*/programs/ (*.cc,
    *.h): what the programs print. Literals written next to each other
    ("a " "b") are read as the one string the compiler makes of them.

Three rules, and a fourth with --results:

1. Process phrases. The book describes the engine as it is, never how the
   project was made (BOOK-STYLE.md, "The voice"): no work sessions, issues,
   targets met or missed, "the bar", "before the fix", "used to", "this
   run", load averages, "the development machine", commit hashes, machines
   "lent". PHRASES below lists each as a regular expression, with why it is
   banned; they are written so that TensorFlow's own vocabulary (a Session,
   a session's target, run targets, "X is used to compute Y", a bar of a
   chart) passes. A space in a phrase matches any run of white space, line
   ends included, so a phrase broken over two lines of Markdown is found.
   Markdown is checked whole, fenced code included: a code block is read too.

2. Prose words. A page holds at most WORD_LIMIT (7,000) words of prose.
   Prose words are the words of the Markdown outside fenced code blocks
   (``` or ~~~ fences, indented or not), not counting the `--8<--` lines
   that quote code or results files; a word is a run of non-blank characters
   holding at least one letter or digit (so a table's `|` and `---` rules do
   not count, and its cells do).

3. Pictures. A line that opens a picture, `![alt text](file)`, holds the
   whole of it and nothing after, the file an image (.svg, .png, .jpg):
   MkDocs prints a cut one as text, without a warning, where the picture
   should be.

4. With --results: every results file (results/*.md, the measured tables
   the chapters include) names in its first line the commit it was
   measured at, so that `scripts/record_results.sh --check`, and the docs
   build's warning, can tell when the code it measures has changed. A
   GPU's file that no GPU has measured yet says so instead, and passes.

Prints one line per finding, "path:line: ...", naming the phrase found, and
exits 1 when there is any; 0 and a one-line summary when there is none.
"""

import argparse
import dataclasses
import pathlib
import re
import sys

WORD_LIMIT = 7000


@dataclasses.dataclass(frozen=True)
class Phrase:
    pattern: str  # a regular expression, case-insensitive; " " matches any white space
    why: str
    # Skipped when the 40 characters before the match end with this (e.g. a
    # form of "be" before "used to": "is used to compute" means "serves to").
    unless_after: str = ""
    # Checked only in the files whose path starts with this (e.g. "chapters/":
    # the testing and contributing pages may speak of the project's CI).
    only_under: str = ""

    def regex(self):
        return re.compile(self.pattern.replace(" ", r"\s+"), re.IGNORECASE)


# "is/are/was/were/be/been/being [adverb] used to ..." is the passive ("serves
# to"), which a book may say; "X used to do" is the past, which it may not.
_PASSIVE = r"\b(?:is|are|was|were|be|been|being|it's|that's|\w+'s)(?:\s+(?:\w+ly|also|only|not|often|still|then|now))?\s+$"

PHRASES = [
    Phrase(r"\bused to\b", "say what the code does now", _PASSIVE),
    Phrase(r"\b(?:before|after|since|until|without) the fix\b",
           "the text describes the code as it is; its history belongs in git"),
    Phrase(r"\bwe (?:changed|fixed|rewrote|removed|reverted)\b",
           "the text describes the code as it is; its history belongs in git"),
    Phrase(r"\blent\b", 'machines "lent": state a limit once, as a fact of the reader\'s machine'),
    Phrase(r"\bload averages?\b", "the load of the machine the text was written on"),
    Phrase(r"\bdevelopment machine\b", "the machine the text was written on"),
    Phrase(r"\bthe course's (?:bar|targets?|machines?|development|(?:\d+|two)-core)\b",
           "the course's own goals or machines"),
    Phrase(r"\bmachines? (?:lent|given) to the course\b", "the course's own machines"),
    Phrase(r"\b(?:the|that|this|its|our) bar (?:of [0-9.]+|is|was|for|set)\b",
           '"the bar": say what the figure means to the reader'),
    Phrase(r"(?:'s|\bthe|\bmisse[sd]|\bmeets?|\bholds?|\bclears?|\bbelow|\bover|\babove) (?:the )?bar\b(?! (?:chart|graph|per|of the chart))",
           '"the bar": say what the figure means to the reader'),
    Phrase(r"\btargets? (?:is |are |was |were )?(?:not )?(?:met|missed)\b",
           "targets met or not met are the project's, not the reader's"),
    Phrase(r"\b(?:meets?|met|miss(?:es|ed)?|reach(?:es|ed)?) (?:the|its|every|both|all|three|two|one) (?:\w+ )?targets?\b",
           "targets met or not met are the project's, not the reader's"),
    Phrase(r"\b(?:speed|accuracy|course's|issue's|chapter's|performance) targets?\b",
           "targets met or not met are the project's, not the reader's"),
    # "issue #13854" is TensorFlow's tracker, which a learner may follow.
    Phrase(r"\bthe issue's\b|\b(?:of|in|by|from|per|for) the issue\b|\bissues? \d+\b",
           "the project's issues"),
    Phrase(r"\bfilers?\b|\bfiled by\b", "the project's issues"),
    # A Session is TensorFlow's: "this chapter's session", "a later session"
    # and "other sessions" may all be tf.Sessions, so only the unmistakable
    # phrasings are banned.
    Phrase(r"\b(?:work|working|coding) sessions?\b|\bother sessions' (?:builds|tests|work)\b",
           "the project's work sessions"),
    Phrase(r"\b(?:in|during) this session\b|\bsessions? that (?:wrote|measured|made this|ran this)\b",
           "the project's work sessions"),
    Phrase(r"\b(?:in|on|from|during) this run\b", '"this run": a figure comes from a results file'),
    Phrase(r"\b(?:commit|revision|git \w+) [0-9a-f]{7,40}\b", "commit hashes"),
    Phrase(r"\bnot yet written\b|\bfigures on a real GPU to come\b",
           "the page describes what is there"),
    Phrase(r"\b(?:passed|failed) on 20\d\d-\d\d-\d\d\b",
           "a figure comes from a results file, which carries its date"),
    Phrase(r"\b\d{1,2}:\d\d(?::\d\d)? UTC\b", "the hours of a work session"),
    Phrase(r"\bthe (?:machine|computer|host) (?:that|which) (?:builds|built|renders|rendered) "
           r"(?:this|the) (?:site|book|pages?)\b",
           "the machine the site is built on is the project's: a table's first line names "
           "the machine it was measured on"),
    Phrase(r"\bCI(?:'s)?\b",
           "a chapter describes the engine; the project's CI belongs on the testing and "
           "contributing pages", only_under="chapters/"),
    Phrase(r"\b(?:on|in|of) a (?:busy|loaded|shared|noisy) (?:[\w-]+ )?machine\b"
           r"|\bwhen the machine is (?:busy|loaded)\b",
           "a busy-machine caveat: tables are recorded on an idle machine; say what bounds "
           "a figure (the cores, a spinning wait), not the load it may have been measured under"),
    Phrase(r"\b(?:is|are|would be|remains?) worth (?:measuring|profiling|investigating|exploring|trying)\b"
           r"|\bremains? to be (?:measured|seen)\b|\bfuture work\b",
           "an open to-do: say what is known, or give the question to the reader as an exercise"),
    # An event file's name ends with the host's name (events.out.tfevents.<time>.<host>).
    Phrase(r"\btfevents\.\d+\.(?!<)[a-z][-\w.]*|\b[-\w.]+@[a-z][-\w]*:[~/]",
           "a host name in pasted output: write what differs from machine to machine as a "
           "placeholder, e.g. <host>"),
]

_COMPILED = [(p, p.regex(), re.compile(p.unless_after, re.IGNORECASE) if p.unless_after else None)
             for p in PHRASES]


@dataclasses.dataclass(frozen=True)
class Finding:
    path: str
    line: int
    message: str

    def __str__(self):
        return f"{self.path}:{self.line}: {self.message}"


def find_phrases(text, path, line_of=None):
    """Returns a Finding for each banned phrase in `text`.

    `line_of(offset)` gives the line of an offset; by default, counts the
    newlines of `text` before it.
    """
    if line_of is None:
        def line_of(offset):
            return text.count("\n", 0, offset) + 1
    found = []  # (start, end, Finding); a match inside one already found is not repeated
    for phrase, regex, unless in _COMPILED:
        if not path.startswith(phrase.only_under):
            continue
        for match in regex.finditer(text):
            if unless and unless.search(text[max(0, match.start() - 40):match.start()]):
                continue
            if any(start < match.end() and match.start() < end for start, end, _ in found):
                continue
            words = " ".join(match.group(0).split())
            found.append((match.start(), match.end(),
                          Finding(path, line_of(match.start()), f'"{words}": {phrase.why}')))
    return [finding for _, _, finding in sorted(found, key=lambda f: f[0])]


_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_QUOTE = re.compile(r"^[ \t]*-+8<-+")
_WORD = re.compile(r"\S*[^\W_]\S*")


def prose_words(markdown):
    """The number of prose words of a Markdown page (see the module's doc)."""
    words = 0
    fence = None  # the opening fence's characters while inside a code block
    for line in markdown.split("\n"):
        opening = _FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) \
                    and not line.strip()[len(opening.group(1)):].strip():
                fence = None
            continue
        if opening:
            fence = opening.group(1)
            continue
        if _QUOTE.match(line):
            continue
        words += len(_WORD.findall(line))
    return words


# C++: comments, raw strings, string and character literals, in one scan.
_CPP_TOKEN = re.compile(
    r'//[^\n]*'
    r'|/\*.*?\*/'
    r'|(?:u8|[uUL])?R"(?P<delim>[^()\\\s]{0,16})\((?P<raw>.*?)\)(?P=delim)"'
    r'|(?:u8|[uUL])?"(?P<str>(?:[^"\\\n]|\\.)*)"'
    r"|'(?:[^'\\\n]|\\.)*'",
    re.DOTALL)
_ESCAPE = re.compile(r"\\(?:n|t|r|\"|'|\\|[0-7]{1,3}|x[0-9a-fA-F]+)")


def _unescape(body):
    simple = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "'": "'", "\\": "\\"}
    return _ESCAPE.sub(lambda m: simple.get(m.group(0)[1], " "), body)


def string_literals(source):
    """Returns [(line, text)]: the program's string literals, adjacent ones joined."""
    literals = []
    last_end = None
    for match in _CPP_TOKEN.finditer(source):
        if match.group("raw") is not None:
            text = match.group("raw")
        elif match.group("str") is not None:
            text = _unescape(match.group("str"))
        else:
            continue  # a comment or a character
        line = source.count("\n", 0, match.start()) + 1
        if last_end is not None and not source[last_end:match.start()].strip():
            literals[-1] = (literals[-1][0], literals[-1][1] + text)
        else:
            literals.append((line, text))
        last_end = match.end()
    return literals


def pages(root):
    """The Markdown pages a learner reads, each once (by its real path), in order."""
    root = pathlib.Path(root)
    candidates = []
    candidates += sorted((root / "chapters").glob("**/*.md"))
    candidates += sorted((root / "docs").glob("*.md"))
    candidates += sorted((root / "docs" / "chapters").glob("*.md"))
    candidates += [root / "README.md"]
    candidates += sorted((root / "exercises").glob("**/README.md"))
    seen, result = set(), []
    for path in candidates:
        if not path.is_file():
            continue
        real = path.resolve()
        if real in seen:
            continue
        seen.add(real)
        result.append(path)
    return result


def program_sources(root):
    root = pathlib.Path(root)
    found = []
    for pattern in ("chapters/*/programs/**/*.cc", "chapters/*/programs/**/*.h"):
        found += root.glob(pattern)
    return sorted(set(found))


# The first line of a results file: "*Measured on <CPU> (...), <date>, at
# commit <hex>, with `<command>`...*" (benchmarks/tensor/results.h,
# scripts/fuzz.sh); a GPU's file before any GPU measured it, "*Not measured...".
_RESULTS_COMMIT = re.compile(r", at commit [0-9a-f]{7,40}\b")


def results_findings(root):
    """A Finding for each results file whose first line names no commit."""
    root = pathlib.Path(root)
    findings = []
    for path in sorted((root / "results").glob("*.md")):
        first_line = path.read_text(encoding="utf-8").split("\n", 1)[0]
        if first_line.startswith("*Not measured") or _RESULTS_COMMIT.search(first_line):
            continue
        findings.append(Finding(str(path.relative_to(root)), 1,
                                "names no commit it was measured at: record it again "
                                f"(scripts/record_results.sh {path.stem})"))
    return findings


_PICTURE = re.compile(r"^\s*!\[.*\]\([^()\s]+\.(svg|png|jpg)\)\s*$")


def picture_findings(text, path):
    """A Finding for each line that opens a picture but is not a whole one."""
    return [Finding(path, number, "a picture cut short or followed by text: a line "
                                  "that opens one holds ![alt text](file) alone")
            for number, line in enumerate(text.split("\n"), start=1)
            if line.lstrip().startswith("![") and not _PICTURE.match(line)]


def check(root, word_counts=None):
    """Returns the findings over the tree at `root`; fills `word_counts` {path: words}."""
    root = pathlib.Path(root)
    findings = []
    for path in pages(root):
        name = str(path.relative_to(root))
        text = path.read_text(encoding="utf-8")
        findings += find_phrases(text, name)
        findings += picture_findings(text, name)
        words = prose_words(text)
        if word_counts is not None:
            word_counts[name] = words
        if words > WORD_LIMIT:
            findings.append(Finding(name, 1, f"{words:,} words of prose, over the page limit "
                                             f"of {WORD_LIMIT:,}: cut, or make it two pages"))
    for path in program_sources(root):
        name = str(path.relative_to(root))
        for line, literal in string_literals(path.read_text(encoding="utf-8")):
            for finding in find_phrases(literal, name, line_of=lambda _offset, line=line: line):
                findings.append(Finding(finding.path, finding.line,
                                        "printed: " + finding.message))
    return findings


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parents[1],
                        help="the repository (default: the one this file is in)")
    parser.add_argument("--words", action="store_true", help="print each page's prose words")
    parser.add_argument("--results", action="store_true",
                        help="also check that every results file names the commit it was measured at")
    args = parser.parse_args(argv)
    counts = {}
    findings = check(args.root, counts)
    if args.results:
        findings += results_findings(args.root)
    if args.words:
        for name, words in counts.items():
            print(f"{words:7,}  {name}")
    for finding in findings:
        print(finding)
    if findings:
        print(f"book_check: {len(findings)} finding(s) in {len({f.path for f in findings})} file(s)")
        return 1
    print(f"book_check: {len(counts)} pages and the programs' output read; no process talk, "
          f"no page over {WORD_LIMIT:,} words" + ("; every results file names its commit"
                                                  if args.results else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
