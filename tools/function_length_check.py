#!/usr/bin/env python3
"""Checks that every function in the engine's sources is short enough to
hold in one look: no body longer than LIMIT (80) lines.

    python3 tools/function_length_check.py            # src/ of this repository
    python3 tools/function_length_check.py --root DIR # DIR/src instead
    python3 tools/function_length_check.py --list N   # also list bodies over N lines

What it reads: every *.h, *.cc, *.cu and *.cuh file under src/.

What a function is: a brace block opened directly in a namespace or a class
(never inside another function) whose text since the previous ';', '{' or
'}' holds a ')' (a parameter list) and does not start with namespace, class,
struct, union or enum. That takes in free functions, member functions defined
in or out of their class, constructors with initializer lists, and lambdas
written at namespace scope (a REGISTER_OP's shape function). A lambda inside
a function is part of that function. Braces in an initializer list
("Foo() : a_{1}, b_(2) {") are read as part of the signature, not as a body.

Before counting, comments, string and character literals (raw strings too)
and preprocessor lines are blanked, so a brace in any of them counts for
nothing. A function's length is the number of lines strictly between the
line of its opening brace and the line of its closing one.

Prints one line per function over the limit, "path:line: name is N lines
(limit 80)", the line being the opening brace's, and exits 1 when there is
any; 0 and a one-line summary when there is none.
"""

import argparse
import dataclasses
import pathlib
import re
import sys

LIMIT = 80
SUFFIXES = (".h", ".cc", ".cu", ".cuh")


@dataclasses.dataclass(frozen=True)
class Function:
    path: str
    line: int  # 1-based line of the opening brace
    name: str
    length: int  # lines strictly between the braces


def blank(text):
    """Returns `text` with comments, literals and preprocessor lines replaced
    by spaces (line ends kept), so only code braces and parentheses remain."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # A preprocessor line, with its backslash continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
            continue
        if c in " \t":
            out.append(c)
            i += 1
            continue
        line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = re.match(r'R"([^()\\ ]{0,16})\(', text[i:i + 20])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c in "\"'":
            # A digit separator (1'000'000) is no character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and \
                    i + 1 < n and text[i + 1].isalnum() and \
                    re.match(r"[0-9a-fA-FxXbB']", text[i - 1]) and \
                    re.search(r"\b0[xXbB]?[0-9a-fA-F']*$", text[:i]):
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


SCOPE_KEYWORD = re.compile(
    r"^\s*(template\s*<.*>\s*)?(export\s+)?"
    r"(inline\s+)?(namespace|class|struct|union|enum)\b|^\s*extern\s*$",
    re.DOTALL)
NAME_BEFORE_PARAMS = re.compile(
    r"((?:[A-Za-z_~]\w*(?:<[^()]*>)?\s*::\s*)*~?[A-Za-z_]\w*)\s*(?:<[^()]*>)?$")


def function_name(signature):
    """The qualified name before the parameter list of `signature`
    ("Foo::Bar", "Foo::operator()"), or "lambda" for a lambda's."""
    signature = re.sub(r"__launch_bounds__\s*\([^)]*\)", "", signature)
    if re.search(r"\]\s*(<[^()]*>\s*)?\(", signature):
        return "lambda"
    operator = re.search(r"((?:\w+\s*::\s*)*)operator\s*(\(\s*\)|[^\s(]+)",
                         signature)
    if operator:
        return re.sub(r"\s+", "", operator.group(0))
    before = signature[:signature.find("(")].rstrip()
    m = NAME_BEFORE_PARAMS.search(before)
    return re.sub(r"\s+", "", m.group(1)) if m else "?"


def is_init_list_brace(signature):
    """True for the '{' of "a_{1}" in "Foo() : a_{1}, b_(2) {": after the
    parameter list's ')' comes a lone ':' and the text ends with a name."""
    after = signature[signature.find(")") + 1:]
    return bool(re.search(r"(?<!:):(?!:)", after) and
                re.search(r"[\w>]\s*$", signature))


def functions(path, text):
    """Every function body in `text` (see the module's docstring)."""
    code = blank(text)
    found = []
    # Each open brace: (kind, line, name, the signature to go on with once
    # it closes, or None to start afresh).
    stack = []
    signature = []
    line = 1
    for ch in code:
        if ch == "\n":
            line += 1
        if ch == "{":
            sig = "".join(signature)
            # Inside an argument list ("thread_([this] { ... })", a default
            # "= {}") the signature goes on after the closing brace.
            go_on = sig if sig.count("(") > sig.count(")") else None
            if any(kind in ("function", "other") for kind, *_ in stack):
                stack.append(("other", line, "", None))
            elif go_on is None and SCOPE_KEYWORD.match(sig):
                stack.append(("scope", line, "", None))
            elif re.search(r"\]\s*(\([^()]*\))?[\s\w]*(->[^{]*)?$", sig) and \
                    "](" in re.sub(r"\s+", "", sig):
                stack.append(("function", line, "lambda", go_on))
            elif go_on is None and ")" in sig and is_init_list_brace(sig):
                stack.append(("init", line, "", sig))
            elif go_on is None and ")" in sig:
                stack.append(("function", line, function_name(sig), None))
            else:
                stack.append(("init" if go_on is not None else "other", line,
                              "", go_on))
            signature = []
            continue
        if ch == "}":
            if not stack:
                signature = []
                continue
            kind, start, name, kept = stack.pop()
            if kind == "function":
                found.append(Function(path, start, name,
                                      max(0, line - start - 1)))
            signature = [] if kept is None else [kept, "{}"]
            continue
        if ch == ";":
            signature = []
            continue
        signature.append(ch)
    return found


def scan(root):
    """Every function under root/src, in path order."""
    result = []
    src = root / "src"
    for path in sorted(src.rglob("*")):
        if path.suffix not in SUFFIXES or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        result.extend(functions(str(path.relative_to(root)), text))
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parents[1])
    parser.add_argument("--list", type=int, metavar="N",
                        help="also print every function over N lines")
    args = parser.parse_args(argv)
    found = scan(args.root)
    if args.list is not None:
        for f in sorted(found, key=lambda f: -f.length):
            if f.length > args.list:
                print(f"{f.length:5d} {f.path}:{f.line} {f.name}")
    long = [f for f in found if f.length > LIMIT]
    for f in long:
        print(f"{f.path}:{f.line}: {f.name} is {f.length} lines (limit {LIMIT})")
    if long:
        print(f"{len(long)} function(s) over {LIMIT} lines; split each along "
              "its steps into functions of their own")
        return 1
    print(f"function_length_check: {len(found)} functions in src/, "
          f"none over {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
