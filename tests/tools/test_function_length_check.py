#!/usr/bin/env python3
"""Tests of tools/function_length_check.py on small trees of its own: a
planted long function fails, named by file, line and length; a function of
exactly the limit passes; braces in comments, strings and initializer lists
count for nothing; a lambda counts in the function that holds it.

  python3 tests/tools/test_function_length_check.py
"""

import sys
import unittest
from pathlib import Path

sys.dont_write_bytecode = True
REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import function_length_check as check  # noqa: E402  (found through the path set just above)
import tree_test  # noqa: E402

LIMIT = check.LIMIT


def body(lines, indent="  "):
    """`lines` statements, one a line."""
    return "".join(f"{indent}x += {k};\n" for k in range(lines))


def free_function(name, lines):
    return f"int {name}(int x) {{\n{body(lines)}  return x;\n}}\n"


class TreeTest(tree_test.TreeTest):
    def run_main(self):
        return self.run_checker(check.main)

    def lengths(self, relative, text):
        self.write(relative, text)
        return {f.name: f.length for f in check.scan(self.root)}


class LimitTest(TreeTest):
    def test_a_function_at_the_limit_passes(self):
        # LIMIT - 1 statements and a return: LIMIT lines between the braces.
        self.write("src/minitf/a/short.cc",
                   "namespace minitf {\n" + free_function("Short", LIMIT - 1) +
                   "}  // namespace minitf\n")
        status, out = self.run_main()
        self.assertEqual(status, 0, out)
        self.assertIn("none over", out)

    def test_a_planted_long_function_fails_naming_file_line_and_length(self):
        text = ("// A file with one function too long.\n"
                "namespace minitf {\n"
                "namespace {\n"
                "\n" + free_function("Long", LIMIT) +  # opens on line 5
                "}  // namespace\n"
                "}  // namespace minitf\n")
        self.write("src/minitf/a/long.cc", text)
        self.write("src/minitf/a/short.cc", free_function("Short", 3))
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn(f"src/minitf/a/long.cc:5: Long is {LIMIT + 1} lines "
                      f"(limit {LIMIT})", out)
        self.assertNotIn("short.cc", out)

    def test_a_long_member_function_in_a_class_fails(self):
        text = ("class Engine {\n public:\n  void Step(int x) const {\n" +
                body(LIMIT + 5, "    ") + "  }\n};\n")
        self.write("src/minitf/a/engine.h", text)
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn(f"src/minitf/a/engine.h:3: Step is {LIMIT + 5} lines", out)

    def test_only_sources_under_src_are_read(self):
        self.write("tests/long_test.cc", free_function("Long", LIMIT + 10))
        self.write("src/minitf/a/notes.md", free_function("Long", LIMIT + 10))
        status, out = self.run_main()
        self.assertEqual(status, 0, out)


class ReadingTest(TreeTest):
    def test_braces_in_comments_strings_and_preprocessor_lines_count_nothing(self):
        text = ('int F(int x) {\n'
                '  // a } in a comment\n'
                '  /* and { in\n     a block } } */\n'
                '  const char* s = "}}{";\n'
                "  char c = '}';\n"
                '  const char* r = R"x(})x";\n'
                '#define OPEN {\n'
                '  return x;\n'
                '}\n'
                'int G() {\n  return 1;\n}\n')
        self.assertEqual(self.lengths("src/a.cc", text), {"F": 8, "G": 1})

    def test_a_lambda_counts_in_its_function(self):
        text = ("int F(int x) {\n"
                "  auto f = [&](int y) {\n    return x + y;\n  };\n"
                "  return f(1);\n}\n")
        self.assertEqual(self.lengths("src/a.cc", text), {"F": 4})

    def test_an_initializer_list_with_braces_is_part_of_the_signature(self):
        text = ("Foo::Foo(int x)\n    : a_{x},\n      b_([this] { Go(); }),\n"
                "      c_(2) {\n  Start();\n  Run();\n}\n")
        found = self.lengths("src/a.cc", text)
        self.assertEqual(found["Foo::Foo"], 2)

    def test_a_lambda_passed_at_namespace_scope_is_a_function(self):
        text = ('REGISTER_OP("Add").SetShapeFn([](Context* c) {\n' +
                body(LIMIT + 1) + '  return Status();\n});\n')
        self.write("src/minitf/ops.cc", text)
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn(f"src/minitf/ops.cc:1: lambda is {LIMIT + 2} lines", out)

    def test_a_table_and_a_class_are_not_functions(self):
        text = ("enum class Kind {\n" + "".join(f"  k{i},\n" for i in range(90)) +
                "};\nconst int kTable[] = {\n" + "  1,\n" * 90 + "};\n"
                "struct S {\n" + "  int m;\n" * 90 + "};\n")
        self.assertEqual(self.lengths("src/a.h", text), {})


if __name__ == "__main__":
    unittest.main()
