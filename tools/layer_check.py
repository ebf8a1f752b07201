#!/usr/bin/env python3
"""Checks that each layer's code includes only the layers its CMake links.

    python3 tools/layer_check.py            # the repository this file is in
    python3 tools/layer_check.py --root DIR # another tree laid out the same way
    python3 tools/layer_check.py --graph    # also print what each layer links

Every file of the course's libraries sits under src/minitf/ and is included
as "minitf/<path>", so the compiler finds any header of any layer: an
include of a layer that the library does not link compiles, and fails, if
at all, only at the link of a program that does not happen to bring that
layer. This check reads what CMake links and what the files include, and
fails on the difference.

What CMake links (cmake/Course.cmake says how a layer is declared):
  - each layer's src/minitf/<layer>/CMakeLists.txt calls
    minitf_layer(<layer> ... LAYERS <layer>... DEPS <target>...). LAYERS
    names layers linked as such; in DEPS, minitf_<layer> is that layer with
    every layer built before it (a chapter's course so far, in the order of
    MINITF_CHAPTERS), minitf_<layer>_code the layer itself;
  - a CMakeLists.txt in a folder below a layer that calls
    add_library(<target> ...) makes that folder a part of the layer with a
    library of its own (the CUDA emulator, say), which links what its
    target_link_libraries(<target> ...) names. A part may include the rest
    of its layer's folder (header-only code is compiled by whoever includes
    it); a layer that links a part gains only the layers the part links.
A library may include the files of every layer it links, of the layers
those link, and so on.

What the files include: every #include "minitf/..." or <minitf/...> of the
.h, .cc, .cu and .cuh files of a library's folder (less the folders of the
libraries below it), generated headers included (a path under a layer's
folder belongs to that layer's library).

The engine knows nothing of the course built on it: an exercise puts its
piece in place of the library's through the registries' priorities
(registration.h), so no file of a library names an exercise, in an include
or anywhere else. A line that does is a finding too.

Prints one line per include that CMake does not allow, "path:line:
includes <header> of layer <x>; layer <y> links ...", and one per line that
names an exercise, and exits 1 when there is any; 0 and a one-line summary
when there is none. Only the libraries'
own files are read: the tests, programs and exercises of chapter N link
every layer of chapters 1..N.
"""

import argparse
import pathlib
import re
import sys

SOURCE_SUFFIXES = {".h", ".cc", ".cu", ".cuh"}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](minitf/[^">]+)[">]')
EXERCISE = re.compile(r"exercise", re.IGNORECASE)


class Library:
    """One library: a layer's (minitf_layer) or one of its parts' (a folder
    below it with an add_library of its own), with what it links."""

    def __init__(self, name, layer, folder, cmake_file):
        self.name = name  # the layer's name, or the part's target
        self.layer = layer  # the layer whose folder holds it
        self.folder = folder  # pathlib.PurePosixPath, e.g. src/minitf/gpu
        self.cmake_file = cmake_file
        self.layers = []  # LAYERS: layer names
        self.deps = []  # DEPS or target_link_libraries: target names

    @property
    def is_layer(self):
        return self.name == self.layer


def strip_comments(text):
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def calls(text, command):
    """The argument lists of every call of `command` in CMake `text`."""
    out = []
    for m in re.finditer(r"\b" + command + r"\s*\(", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        out.append(text[m.end():i - 1].split())
    return out


def keyword_values(args, keyword, keywords):
    """The words after `keyword` in `args`, up to the next of `keywords`."""
    values, on = [], False
    for word in args:
        if word in keywords:
            on = word == keyword
        elif on:
            values.append(word)
    return values


def chapter_layers(root):
    """The layers in course order, from MINITF_CHAPTERS in cmake/Course.cmake."""
    text = (root / "cmake" / "Course.cmake").read_text(encoding="utf-8")
    block = re.search(r"set\(MINITF_CHAPTERS(.*?)\)", text, re.S)
    if not block:
        raise SystemExit("layer_check: no MINITF_CHAPTERS in cmake/Course.cmake")
    return re.findall(r'"\d\d-[^:"]+:([a-z_]+)"', block.group(1))


def read_libraries(root, order):
    """Every library under src/minitf/, keyed by name."""
    libraries = {}
    for layer in order:
        folder = root / "src" / "minitf" / layer
        for cmake_file in sorted(folder.rglob("CMakeLists.txt")):
            text = strip_comments(cmake_file.read_text(encoding="utf-8"))
            relative = pathlib.PurePosixPath(cmake_file.parent.relative_to(root).as_posix())
            where = cmake_file.relative_to(root).as_posix()
            for args in calls(text, "minitf_layer"):
                lib = Library(args[0], layer, relative, where)
                keys = {"SOURCES", "LAYERS", "DEPS"}
                lib.layers = keyword_values(args, "LAYERS", keys)
                lib.deps = keyword_values(args, "DEPS", keys)
                libraries[lib.name] = lib
            for args in calls(text, "add_library"):
                target = args[0]
                lib = Library(target, layer, relative, where)
                for link in calls(text, "target_link_libraries"):
                    if link and link[0] == target:
                        lib.deps += [w for w in link[1:]
                                     if w not in ("PUBLIC", "PRIVATE", "INTERFACE")]
                libraries[target] = lib
    return libraries


class Graph:
    """Which layers each library may include: those it links, transitively.
    A layer's parts are the layer's own: a part may include the rest of its
    layer's folder, and a layer that links a part gains only what the part
    links."""

    def __init__(self, libraries, order):
        self.libraries = libraries
        self.order = order
        self._reach = {}

    def linked(self, name):
        """The libraries that library `name` names directly (LAYERS, DEPS):
        minitf_<layer> is the layer with every layer before it (a chapter's
        course so far), minitf_<layer>_code the layer alone."""
        lib = self.libraries[name]
        out = [layer for layer in lib.layers if layer in self.libraries]
        for dep in lib.deps:
            m = re.fullmatch(r"minitf_([a-z_]+?)(_code)?", dep)
            if m and m.group(1) in self.order and m.group(1) in self.libraries:
                if m.group(2):
                    out.append(m.group(1))
                else:
                    out += self.order[:self.order.index(m.group(1)) + 1]
            elif dep in self.libraries:
                out.append(dep)
        return [n for n in dict.fromkeys(out) if n != name]

    def layers(self, name):
        """The layers library `name` may include, its own among them."""
        if name not in self._reach:
            self._reach[name] = set()  # a loop of links adds nothing twice
            found = {self.libraries[name].layer}
            for linked in self.linked(name):
                found |= self.layers(linked)
            self._reach[name] = found
        return self._reach[name]


def owner(path, libraries):
    """The library whose folder holds `path` (the longest folder that does)."""
    best = None
    for lib in libraries.values():
        folder = lib.folder.as_posix() + "/"
        if path.as_posix().startswith(folder):
            if best is None or len(lib.folder.as_posix()) > len(best.folder.as_posix()):
                best = lib
    return best


def describe(lib):
    if lib.is_layer:
        return f"layer {lib.name}"
    return f"{lib.name} (part of layer {lib.layer})"


def check(root, show_graph=False):
    order = chapter_layers(root)
    libraries = read_libraries(root, order)
    graph = Graph(libraries, order)
    findings, files, crossings = [], 0, 0
    for path in sorted((root / "src" / "minitf").rglob("*")):
        if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
            continue
        relative = pathlib.PurePosixPath(path.relative_to(root).as_posix())
        lib = owner(relative, libraries)
        if lib is None:
            continue
        files += 1
        allowed = graph.layers(lib.name)
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines, 1):
            if EXERCISE.search(line):
                findings.append(
                    f"{relative}:{number}: names the course's exercises; the engine "
                    "reaches an exercise's piece only through a registry's "
                    "priorities (registration.h)")
            m = INCLUDE.match(line)
            if not m:
                continue
            target = owner(pathlib.PurePosixPath("src") / m.group(1), libraries)
            if target is None or target.layer == lib.layer:
                continue
            crossings += 1
            if target.layer in allowed:
                continue
            linked = [n for n in order if n in allowed and n != lib.layer]
            findings.append(
                f"{relative}:{number}: includes {m.group(1)} of layer {target.layer}; "
                f"{describe(lib)} links {', '.join(linked) or 'no other layer'} "
                f"({lib.cmake_file}), not {target.layer}")
    if show_graph:
        for name in [n for n in order if n in libraries] + \
                sorted(n for n in libraries if not libraries[n].is_layer):
            direct = graph.linked(name)
            print(f"{name}: links {', '.join(direct) or 'nothing of the course'}")
    for finding in findings:
        print(finding)
    if findings:
        print(f"layer_check: {len(findings)} finding(s): includes of layers CMake "
              "does not link, or lines that name an exercise")
        return 1
    print(f"layer_check: {files} files, {crossings} includes of other layers, "
          "each of a layer its CMake links")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parents[1])
    parser.add_argument("--graph", action="store_true",
                        help="print what each library links")
    args = parser.parse_args(argv)
    return check(args.root.resolve(), args.graph)


if __name__ == "__main__":
    sys.exit(main())
