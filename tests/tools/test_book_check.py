#!/usr/bin/env python3
"""Tests of tools/book_check.py on small trees of its own: a banned phrase
and an over-long page fail, a clean page passes, and TensorFlow's own words
(a session, its target, "is used to") pass; with --results, a results file
that names no commit fails.

  python3 tests/tools/test_book_check.py
"""

import sys
import unittest
from pathlib import Path

sys.dont_write_bytecode = True
REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import book_check  # noqa: E402  (found through the path set just above)
import tree_test  # noqa: E402

CLEAN = """# Chapter 9: a clean page

The session runs the graph. Its target is `grpc://localhost:2222`, and the
placer is used to put each op on a device. A bar of the chart is one op.

```cpp
// Code is fenced: its words are not prose.
int main() { return 0; }
```

--8<-- "results/example.md"
"""


class TreeTest(tree_test.TreeTest):
    def setUp(self):
        super().setUp()
        self.write("README.md", "# A course\n\nSeven chapters.\n")
        self.write("chapters/09-clean/README.md", CLEAN)

    def run_main(self):
        return self.run_checker(book_check.main)


class CleanTreeTest(TreeTest):
    def test_a_clean_tree_passes(self):
        status, out = self.run_main()
        self.assertEqual(status, 0, out)
        self.assertIn("no process talk", out)


class PhraseTest(TreeTest):
    def test_a_planted_phrase_fails_naming_file_line_and_phrase(self):
        self.write("chapters/09-clean/README.md",
                   CLEAN + "\nThe step took 2 ms on the development machine.\n")
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn('chapters/09-clean/README.md:13: "development machine"', out)

    def test_a_phrase_broken_over_two_lines_is_found(self):
        self.write("docs/index.md", "# Home\n\nNo GPU was\nlent to the course.\n")
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn('docs/index.md:4: "lent"', out)

    def test_a_phrase_in_a_fenced_block_is_found(self):
        self.write("exercises/09-clean/01_x/README.md",
                   "# Exercise\n\n```\n# before the fix this printed 3\n```\n")
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn('exercises/09-clean/01_x/README.md:4: "before the fix"', out)

    def test_a_program_that_prints_a_phrase_fails(self):
        self.write("chapters/09-clean/programs/show.cc",
                   '#include <cstdio>\n'
                   '// A comment may say load average; only output counts.\n'
                   'int main() {\n'
                   '  std::printf("the speed " "target is not met\\n");\n'
                   '}\n')
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn('chapters/09-clean/programs/show.cc:4: printed: "target is not met"', out)
        self.assertNotIn("load average", out)

    def test_each_kind_of_process_talk_is_found(self):
        for text in ["No GPU was lent to it.", "the course's bar of 0.82",
                     "seed 003's bar of 0.82", "Both targets are met.",
                     "The issue's figures", "see issue 23", "The session used to start",
                     "the data used to be a second allocation", "before the fix below",
                     "a load average of 2.1", "commit 9a01c21", "work sessions",
                     "in this session", "on the course's 2-core machine",
                     "not yet written", "all six passed on 2026-11-24",
                     "measured on the machine that builds\nthis site",
                     "On a busy machine, then, the ratio says little",
                     "on a loaded machine its step grows",
                     "on a busy two-core machine they often run one after the other",
                     "whether it takes fewer faults is worth measuring.",
                     "Writing the loss to /tmp/logs/events.out.tfevents.1795438265.vm",
                     "root@vm:~# scripts/demo.sh"]:
            with self.subTest(text=text):
                self.assertTrue(book_check.find_phrases(text, "page.md"), text)

    def test_the_projects_ci_is_found_in_a_chapter(self):
        for text in ["Most machines have no GPU, and neither do CI's.",
                     "CI runs the benchmark and prints its figures; nothing asserts them."]:
            with self.subTest(text=text):
                self.assertTrue(book_check.find_phrases(text, "chapters/05-gpu/README.md"), text)

    def test_the_testing_and_contributing_pages_may_speak_of_ci(self):
        for path in ["docs/testing.md", "docs/contributing.md", "README.md"]:
            with self.subTest(path=path):
                self.assertEqual(book_check.find_phrases("CI runs them once more.", path), [])

    def test_a_ci_printed_by_a_chapters_program_is_found(self):
        self.write("chapters/09-clean/programs/show.cc",
                   'int main() { std::puts("CI skips this step"); }\n')
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn('chapters/09-clean/programs/show.cc:1: printed: "CI"', out)

    def test_tensorflows_own_words_pass(self):
        for text in ["The session's target is grpc://ps:2222.",
                     "tf.Session(target) runs the graph on the master.",
                     "The op is used to compute the mean.",
                     "A queue is also used to hold the tokens.",
                     "this chapter's session runs one op at a time",
                     "a later session restores the variables",
                     "TensorFlow's issue #13854 describes the hang.",
                     "a bar per node, and the long orange bar is the wait",
                     "the run's targets are the ops to run",
                     "Most learners, and every CI machine of the course, have no GPU.",
                     "windows taken in turn, so that a change in the machine's load falls on both",
                     "with more runnable threads than cores, a woken thread waits for one",
                     "Which half of it names the variables is worth a look:",
                     "the name ends with the host: events.out.tfevents.<seconds>.<host>",
                     "the specific gravity of a vm-sized cluster",
                     "git@github.com:tensorflow/tensorflow.git"]:
            with self.subTest(text=text):
                self.assertEqual(book_check.find_phrases(text, "page.md"), [], text)


class ResultsTest(TreeTest):
    MEASURED = ("*Measured on A CPU (2 cores, Linux x86_64), 2026-01-01, at commit "
                "0123456789ab{}, with `build/all/benchmarks/tensor/tensor_bench`.*\n\n| a |\n")

    def test_without_the_flag_results_files_are_not_read(self):
        self.write("results/tensor_bench.md", "*Measured on A CPU, 2026-01-01, with `x`.*\n")
        status, out = self.run_main()
        self.assertEqual(status, 0, out)

    def test_a_results_file_without_a_commit_fails(self):
        self.write("results/tensor_bench.md", "*Measured on A CPU, 2026-01-01, with `x`.*\n")
        status, out = self.run_checker(book_check.main, "--results")
        self.assertEqual(status, 1, out)
        self.assertIn("results/tensor_bench.md:1: names no commit it was measured at: "
                      "record it again (scripts/record_results.sh tensor_bench)", out)

    def test_a_commit_with_or_without_uncommitted_changes_passes_and_so_does_a_gpus_placeholder(self):
        self.write("results/tensor_bench.md", self.MEASURED.format(""))
        self.write("results/graph_bench.md", self.MEASURED.format(" + uncommitted changes"))
        self.write("results/gpu_ops.md", "*Not measured on a GPU yet: `scripts/gpu_check.sh` ...*\n")
        status, out = self.run_checker(book_check.main, "--results")
        self.assertEqual(status, 0, out)
        self.assertIn("every results file names its commit", out)


class WordsTest(TreeTest):
    def test_code_fences_and_quote_lines_are_not_prose(self):
        text = ("one two three\n\n```cpp\nfour five six\n```\n\n"
                "    ~~~~\n    seven\n    ~~~~\n"
                '--8<-- "results/x.md"\n| a | b |\n|---|---|\n')
        self.assertEqual(book_check.prose_words(text), 5)

    def test_a_page_over_the_limit_fails(self):
        words = " ".join(["word"] * (book_check.WORD_LIMIT + 1))
        self.write("chapters/09-clean/long.md", f"# Long\n\n{words}\n")
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn("chapters/09-clean/long.md:1: 7,002 words of prose, over the page limit", out)

    def test_a_page_at_the_limit_with_long_code_passes(self):
        words = " ".join(["word"] * (book_check.WORD_LIMIT - 2))
        code = "\n".join(["x = 1"] * 5000)
        self.write("chapters/09-clean/long.md", f"# Long\n\n{words}\n\n```\n{code}\n```\n")
        status, out = self.run_main()
        self.assertEqual(status, 0, out)

    def test_a_picture_cut_short_fails_and_a_whole_one_passes(self):
        whole = ("![A graph: the worker (green) and the ps (blue)]"
                 "(../images/generated/sync.svg)")
        self.write("chapters/09-clean/README.md", CLEAN + "\n" + whole + "\n")
        status, out = self.run_main()
        self.assertEqual(status, 0, out)
        self.write("chapters/09-clean/README.md",
                   CLEAN + "\n![A graph: the worker (green)\n")
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn("chapters/09-clean/README.md:13: a picture cut short", out)

    def test_a_linked_page_is_read_once(self):
        (self.root / "docs" / "chapters").mkdir(parents=True)
        (self.root / "docs" / "chapters" / "09-clean.md").symlink_to(
            self.root / "chapters" / "09-clean" / "README.md")
        pages = [p.relative_to(self.root).as_posix() for p in book_check.pages(self.root)]
        self.assertEqual(pages, ["chapters/09-clean/README.md", "README.md"])


if __name__ == "__main__":
    unittest.main()
