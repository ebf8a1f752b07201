"""A test case with a scratch tree of its own, for the checkers of
tools/ that read a tree laid out as the repository is (--root DIR):
write files into it, run the checker's main() on it, read what it printed.
"""

import io
import tempfile
import unittest
from contextlib import redirect_stdout
from pathlib import Path


class TreeTest(unittest.TestCase):
    """self.root: an empty folder, removed after each test."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.root = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, relative, text):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def run_checker(self, main, *args):
        """main(["--root", root, *args]): its exit status and what it printed."""
        out = io.StringIO()
        with redirect_stdout(out):
            status = main(["--root", str(self.root), *args])
        return status, out.getvalue()
