"""Tests of docs/hooks/site_files.py, which keeps build inputs out of site/.

Run from the repository root with the other docs tests:
    /usr/bin/python3 -m unittest discover -s tests/docs -t tests/docs
"""

import unittest

from hooks_testing import load_hook  # tests/docs/hooks_testing.py

site_files = load_hook("site_files")


class IsBuildInputTest(unittest.TestCase):

    def test_hooks_doxygen_inputs_and_python_caches_stay_out(self):
        for path in ("hooks/snippets.py", "hooks/site_files.py", "Doxyfile", "api_mainpage.dox",
                     "hooks/__pycache__/snippets.cpython-311.pyc", "x/__pycache__/y.pyc"):
            with self.subTest(path=path):
                self.assertTrue(site_files.is_build_input(path))

    def test_pages_and_the_api_reference_stay_in(self):
        for path in ("index.md", "chapters/01-tensors.md", "api/index.html", "api/doxygen.css",
                     "hooksmith.md", "Doxyfile.md", "api/hooks/x.html"):
            with self.subTest(path=path):
                self.assertFalse(site_files.is_build_input(path))


if __name__ == "__main__":
    unittest.main()
