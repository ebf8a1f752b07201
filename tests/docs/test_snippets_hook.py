"""Tests of docs/hooks/snippets.py, the hook that quotes code sections.

Run from the repository root:
    /usr/bin/python3 -m unittest discover -s tests/docs -t tests/docs
The pure functions need nothing but Python; the tests that go through MkDocs
skip themselves where MkDocs is not installed.
"""

import os
import shutil
import subprocess
import tempfile
import textwrap
import types
import unittest

from hooks_testing import hook_path, load_hook  # tests/docs/hooks_testing.py

HOOK = hook_path("snippets")
MKDOCS = "/usr/bin/mkdocs"
snippets = load_hook("snippets")

try:
    import mkdocs.exceptions
    HAVE_MKDOCS = True
except ImportError:
    HAVE_MKDOCS = False

SOURCE_H = textwrap.dedent("""\
    #pragma once
    // --8<-- [start:outer]
    struct Outer {
      // --8<-- [start:inner]
      int x;
      // --8<-- [end:inner]

      int y;
    };
    // --8<-- [end:outer]
    class Holder {
     public:
      // --8<-- [start:indented]
      void Method();
        int deeper;
      // --8<-- [end:indented]
    };
    // --8<-- [start:buffer]
    int buffer;
    // --8<-- [end:buffer]
    """)

SOURCE_PY = textwrap.dedent("""\
    import os
    # --8<-- [start:main]
    def main():
        return os.getcwd()
    # --8<-- [end:main]
    """)


class ParseTargetTest(unittest.TestCase):

    def test_path_and_section(self):
        self.assertEqual(snippets.parse_target("src/a/b.h:switch_dtype"),
                         ("src/a/b.h", "switch_dtype"))

    def test_path_alone_is_the_whole_file(self):
        self.assertEqual(snippets.parse_target("src/a/b.h"), ("src/a/b.h", None))

    def test_section_names_take_digits_underscores_and_dashes(self):
        self.assertEqual(snippets.parse_target("f.cc:v2_naive-kernel"), ("f.cc", "v2_naive-kernel"))

    def test_only_the_last_colon_separates_the_section(self):
        self.assertEqual(snippets.parse_target("odd:dir/f.h:name"), ("odd:dir/f.h", "name"))


class ExtractSectionTest(unittest.TestCase):

    def test_returns_the_lines_between_the_markers(self):
        self.assertEqual(snippets.extract_section(SOURCE_H, "buffer"), ["int buffer;"])

    def test_hash_markers_serve_python_cmake_and_shell(self):
        self.assertEqual(snippets.extract_section(SOURCE_PY, "main"),
                         ["def main():", "    return os.getcwd()"])

    def test_nested_markers_are_removed_and_their_lines_kept(self):
        self.assertEqual(snippets.extract_section(SOURCE_H, "outer"),
                         ["struct Outer {", "  int x;", "", "  int y;", "};"])

    def test_a_nested_section_can_be_quoted_alone_and_is_dedented(self):
        self.assertEqual(snippets.extract_section(SOURCE_H, "inner"), ["int x;"])

    def test_common_indentation_is_removed_and_relative_indentation_kept(self):
        self.assertEqual(snippets.extract_section(SOURCE_H, "indented"),
                         ["void Method();", "  int deeper;"])

    def test_a_name_does_not_match_a_longer_name(self):
        with self.assertRaisesRegex(snippets.SnippetError, "section 'buf' not found"):
            snippets.extract_section(SOURCE_H, "buf")

    def test_markers_may_carry_spaces_inside_the_brackets(self):
        text = "//  --8<-- [ start : a ]\nx\n// --8<-- [end:a]  \n"
        self.assertEqual(snippets.extract_section(text, "a"), ["x"])

    def test_a_marker_must_be_alone_on_its_comment_line(self):
        text = "int a;  // --8<-- [start:a]\nx\n// --8<-- [end:a]\n"
        with self.assertRaisesRegex(snippets.SnippetError, "section 'a' not found"):
            snippets.extract_section(text, "a")

    def test_whole_file_drops_every_marker_line(self):
        self.assertEqual(snippets.extract_section(SOURCE_PY, None),
                         ["import os", "def main():", "    return os.getcwd()"])

    def test_missing_section_names_the_file_and_the_section(self):
        with self.assertRaises(snippets.SnippetError) as caught:
            snippets.extract_section(SOURCE_H, "nowhere", "src/x.h")
        self.assertIn("section 'nowhere' not found in 'src/x.h'", str(caught.exception))

    def test_an_end_marker_without_a_start_is_a_missing_section(self):
        with self.assertRaisesRegex(snippets.SnippetError, "section 'a' not found"):
            snippets.extract_section("x\n// --8<-- [end:a]\n", "a")

    def test_unterminated_section_is_an_error(self):
        with self.assertRaises(snippets.SnippetError) as caught:
            snippets.extract_section("// --8<-- [start:a]\nx\n", "a", "src/x.h")
        self.assertIn("section 'a' in 'src/x.h' is unterminated", str(caught.exception))

    def test_an_end_before_the_start_does_not_terminate_it(self):
        text = "// --8<-- [end:a]\n// --8<-- [start:a]\nx\n"
        with self.assertRaisesRegex(snippets.SnippetError, "unterminated"):
            snippets.extract_section(text, "a")

    def test_empty_section_is_an_error(self):
        with self.assertRaises(snippets.SnippetError) as caught:
            snippets.extract_section("// --8<-- [start:a]\n// --8<-- [end:a]\n", "a", "src/x.h")
        self.assertIn("section 'a' in 'src/x.h' is empty", str(caught.exception))

    def test_a_section_of_blank_lines_and_nested_markers_is_empty(self):
        text = ("// --8<-- [start:a]\n\n  // --8<-- [start:b]\n  // --8<-- [end:b]\n"
                "// --8<-- [end:a]\n")
        with self.assertRaisesRegex(snippets.SnippetError, "is empty"):
            snippets.extract_section(text, "a")

    def test_a_section_started_twice_is_an_error(self):
        text = "// --8<-- [start:a]\nx\n// --8<-- [end:a]\n// --8<-- [start:a]\ny\n// --8<-- [end:a]\n"
        with self.assertRaisesRegex(snippets.SnippetError, r"starts more than once .*lines 1, 4"):
            snippets.extract_section(text, "a")

    def test_an_empty_whole_file_is_an_error(self):
        with self.assertRaisesRegex(snippets.SnippetError, "file 'src/x.h' is empty"):
            snippets.extract_section("\n// --8<-- [start:a]\n", None, "src/x.h")


class QuoteTest(unittest.TestCase):

    def setUp(self):
        self.root = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.root, "src"))
        with open(os.path.join(self.root, "src", "x.h"), "w", encoding="utf-8") as f:
            f.write(SOURCE_H)

    def tearDown(self):
        shutil.rmtree(self.root)

    def test_reads_the_section_from_a_path_relative_to_the_root(self):
        self.assertEqual(snippets.quote("src/x.h:buffer", self.root), ["int buffer;"])

    def test_missing_file_names_the_file_and_the_section(self):
        with self.assertRaises(snippets.SnippetError) as caught:
            snippets.quote("src/gone.h:buffer", self.root)
        self.assertEqual(str(caught.exception),
                         "file 'src/gone.h' not found (for section 'buffer')")

    def test_missing_whole_file_names_the_file(self):
        with self.assertRaisesRegex(snippets.SnippetError, "^file 'src/gone.h' not found$"):
            snippets.quote("src/gone.h", self.root)

    def test_a_folder_is_not_a_file(self):
        with self.assertRaisesRegex(snippets.SnippetError, "file 'src' cannot be read"):
            snippets.quote("src", self.root)

    def test_a_path_may_not_leave_the_root(self):
        for path in ("../outside.h:a", "src/../../outside.h", "/etc/passwd"):
            with self.subTest(path=path):
                with self.assertRaisesRegex(snippets.SnippetError, "not inside the repository"):
                    snippets.quote(path, self.root)


class ExpandTest(unittest.TestCase):

    def setUp(self):
        self.root = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.root, "src"))
        with open(os.path.join(self.root, "src", "x.h"), "w", encoding="utf-8") as f:
            f.write(SOURCE_H)
        with open(os.path.join(self.root, "src", "run.py"), "w", encoding="utf-8") as f:
            f.write(SOURCE_PY)

    def tearDown(self):
        shutil.rmtree(self.root)

    def expand(self, markdown):
        return snippets.expand(textwrap.dedent(markdown), self.root)

    def test_replaces_a_quote_in_a_fenced_block_and_keeps_the_rest(self):
        self.assertEqual(
            self.expand("""\
                Text.

                ```cpp
                --8<-- "src/x.h:buffer"
                ```
                """),
            "Text.\n\n```cpp\nint buffer;\n```\n")

    def test_the_quote_line_indentation_is_given_to_every_non_blank_line(self):
        self.assertEqual(
            self.expand("""\
                1. A list item:

                    ```cpp
                    --8<-- "src/x.h:outer"
                    ```
                """),
            "1. A list item:\n\n    ```cpp\n    struct Outer {\n      int x;\n\n      int y;\n"
            "    };\n    ```\n")

    def test_single_quotes_work_too(self):
        self.assertEqual(self.expand("--8<-- 'src/x.h:buffer'"), "int buffer;")

    def test_a_path_alone_quotes_the_whole_file_without_markers(self):
        self.assertEqual(self.expand('--8<-- "src/run.py"'),
                         "import os\ndef main():\n    return os.getcwd()")

    def test_a_semicolon_escapes_a_quote_line(self):
        self.assertEqual(snippets.expand('  ;--8<-- "src/gone.h:x"', self.root),
                         '  --8<-- "src/gone.h:x"')

    def test_lines_that_only_mention_the_syntax_are_left_alone(self):
        text = 'Write `--8<-- "src/x.h:buffer"` in a page.\n--8<-- "src/x.h:buffer" and more\n'
        self.assertEqual(self.expand(text), text)

    def test_several_quotes_in_one_page(self):
        self.assertEqual(self.expand('--8<-- "src/x.h:buffer"\n--8<-- "src/x.h:inner"\n'),
                         "int buffer;\nint x;\n")

    def test_an_error_names_the_line_of_the_page(self):
        with self.assertRaises(snippets.SnippetError) as caught:
            self.expand('# Title\n\n--8<-- "src/x.h:nowhere"\n')
        self.assertEqual(
            str(caught.exception),
            "line 3: section 'nowhere' not found in 'src/x.h' "
            "(no line '// --8<-- [start:nowhere]')")


@unittest.skipUnless(HAVE_MKDOCS, "MkDocs is not installed")
class OnPageMarkdownTest(unittest.TestCase):

    def setUp(self):
        self.root = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.root, "src"))
        with open(os.path.join(self.root, "src", "x.h"), "w", encoding="utf-8") as f:
            f.write(SOURCE_H)
        self.config = {"config_file_path": os.path.join(self.root, "mkdocs.yml")}
        self.page = types.SimpleNamespace(file=types.SimpleNamespace(src_path="chapters/01.md"))

    def tearDown(self):
        shutil.rmtree(self.root)

    def test_expands_relative_to_the_folder_of_mkdocs_yml(self):
        self.assertEqual(
            snippets.on_page_markdown('--8<-- "src/x.h:buffer"', page=self.page,
                                      config=self.config, files=None),
            "int buffer;")

    def test_a_failure_is_a_plugin_error_naming_page_line_file_and_section(self):
        with self.assertRaises(mkdocs.exceptions.PluginError) as caught:
            snippets.on_page_markdown('\n--8<-- "src/x.h:nowhere"', page=self.page,
                                      config=self.config, files=None)
        message = str(caught.exception)
        for part in ("page 'chapters/01.md'", "line 2", "'src/x.h'", "'nowhere'"):
            self.assertIn(part, message)


@unittest.skipUnless(os.path.exists(MKDOCS), f"{MKDOCS} is not installed")
class MkDocsBuildTest(unittest.TestCase):
    """The hook in a real (small) MkDocs build, without --strict."""

    def setUp(self):
        self.root = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.root, "docs"))
        os.makedirs(os.path.join(self.root, "src"))
        with open(os.path.join(self.root, "src", "x.h"), "w", encoding="utf-8") as f:
            f.write(SOURCE_H)
        with open(os.path.join(self.root, "mkdocs.yml"), "w", encoding="utf-8") as f:
            f.write(f"site_name: t\ntheme: mkdocs\nhooks:\n  - {HOOK}\n")

    def tearDown(self):
        shutil.rmtree(self.root)

    def build(self, markdown):
        with open(os.path.join(self.root, "docs", "index.md"), "w", encoding="utf-8") as f:
            f.write(markdown)
        return subprocess.run([MKDOCS, "build", "-q"], cwd=self.root, capture_output=True,
                              text=True, timeout=120,
                              env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))

    def test_a_good_quote_builds(self):
        result = self.build('```cpp\n--8<-- "src/x.h:buffer"\n```\n')
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(self.root, "site", "index.html"), encoding="utf-8") as f:
            self.assertIn("int buffer;", f.read())

    def test_a_broken_quote_fails_the_build_even_without_strict(self):
        result = self.build('```cpp\n--8<-- "src/x.h:nowhere"\n```\n')
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("snippets: page 'index.md', line 2: section 'nowhere' not found in 'src/x.h'",
                      result.stderr)


if __name__ == "__main__":
    unittest.main()
