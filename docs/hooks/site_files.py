"""Keeps the site's build inputs out of the site (a MkDocs hook).

MkDocs copies every file under docs/ into site/. The hooks and Doxygen's
inputs (Doxyfile, api_mainpage.dox) live in docs/ too, as they build the docs,
but they are not part of the site: this hook leaves them (and Python's
__pycache__ folders) out.
"""

import posixpath

# Paths under docs/, as MkDocs names them (forward slashes), never copied.
BUILD_INPUTS = ("hooks/", "Doxyfile", "api_mainpage.dox")


def is_build_input(src_uri):
    """True for a docs/ file that builds the site rather than belongs to it."""
    if "__pycache__" in src_uri.split("/"):
        return True
    return any(
        src_uri == entry or (entry.endswith("/") and src_uri.startswith(entry))
        for entry in BUILD_INPUTS)


def on_files(files, config, **kwargs):
    for file in list(files):
        if is_build_input(posixpath.normpath(file.src_path.replace("\\", "/"))):
            files.remove(file)
    return files
