#!/usr/bin/env python3
"""Tests of tools/learn.py's logic: nothing here builds or runs CMake.

  python3 tests/tools/test_learn.py
"""

import json
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.dont_write_bytecode = True
REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

import learn  # noqa: E402  (found through the path set just above)


def make_exercise(root, chapter, name, readme="# Exercise\n\n## Hint\n\nThink.\n",
                  starter="starter.cc", starter_text="// stub\n"):
    """Writes a minimal exercise folder under root/exercises/ and returns it."""
    folder = Path(root) / "exercises" / chapter / name
    (folder / "solution").mkdir(parents=True)
    (folder / "README.md").write_text(readme, encoding="utf-8")
    if starter:
        (folder / starter).write_text(starter_text, encoding="utf-8")
        (folder / "solution" / starter).write_text("// answer\n", encoding="utf-8")
    return folder


class TempRepoTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.root = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()


class DiscoverTest(TempRepoTest):
    def test_orders_by_chapter_then_number(self):
        make_exercise(self.root, "02-graph", "04_op_registry")
        make_exercise(self.root, "01-tensors", "10_last")
        make_exercise(self.root, "01-tensors", "02_reduce_mean")
        make_exercise(self.root, "01-tensors", "01_broadcast_shape")
        names = [ex.name for ex in learn.discover(self.root)]
        self.assertEqual(names, ["01_broadcast_shape", "02_reduce_mean", "10_last",
                                 "04_op_registry"])

    def test_numbers_compare_as_numbers_not_text(self):
        make_exercise(self.root, "10-late", "01_a")
        make_exercise(self.root, "9-early", "01_b")
        make_exercise(self.root, "9-early", "100_c")
        make_exercise(self.root, "9-early", "20_d")
        names = [(ex.chapter, ex.name) for ex in learn.discover(self.root)]
        self.assertEqual(names, [("9-early", "01_b"), ("9-early", "20_d"), ("9-early", "100_c"),
                                 ("10-late", "01_a")])

    def test_skips_folders_without_readme_or_solution(self):
        make_exercise(self.root, "01-tensors", "01_real")
        (self.root / "exercises" / "01-tensors" / "02_no_solution").mkdir()
        (self.root / "exercises" / "01-tensors" / "02_no_solution" / "README.md").write_text("x")
        (self.root / "exercises" / "01-tensors" / "03_no_readme" / "solution").mkdir(parents=True)
        (self.root / "exercises" / "01-tensors" / "README.md").write_text("# Chapter 1\n")
        (self.root / "exercises" / "CMakeLists.txt").write_text("")
        self.assertEqual([ex.name for ex in learn.discover(self.root)], ["01_real"])

    def test_no_exercises_folder_means_no_exercises(self):
        self.assertEqual(learn.discover(self.root), [])

    def test_starters_are_the_files_that_solution_also_has(self):
        folder = make_exercise(self.root, "01-tensors", "01_a", starter="a.cc")
        (folder / "a.h").write_text("// header\n")
        (folder / "a_test.cc").write_text("// test\n")
        (ex,) = learn.discover(self.root)
        self.assertEqual(ex.starters, [folder / "a.cc"])
        self.assertEqual(ex.file_to_edit(), "exercises/01-tensors/01_a/a.cc")
        self.assertEqual(ex.chapter_ref(), "1.1")

    def test_duplicate_names_across_chapters_are_an_error(self):
        make_exercise(self.root, "01-tensors", "01_same")
        make_exercise(self.root, "02-graph", "01_same")
        with self.assertRaisesRegex(learn.DiscoveryError, "two exercises are named 01_same"):
            learn.discover(self.root)

    def test_finds_the_courses_own_exercises_in_order(self):
        exercises = learn.discover(REPO)
        names = [ex.name for ex in exercises]
        self.assertGreaterEqual(len(names), 3)
        self.assertEqual(names[:3], ["01_broadcast_shape", "02_reduce_mean", "03_stable_softmax"])
        for ex in exercises:
            self.assertTrue(ex.starters, "%s has no starter file" % ex.name)
            self.assertIsNotNone(learn.extract_hint(ex.readme.read_text(encoding="utf-8")),
                                 "%s's README has no Hint section" % ex.name)


class ResolveTest(TempRepoTest):
    def setUp(self):
        super().setUp()
        make_exercise(self.root, "01-tensors", "01_broadcast_shape")
        make_exercise(self.root, "01-tensors", "02_reduce_mean")
        make_exercise(self.root, "02-graph", "01_graph_basics")
        self.exercises = learn.discover(self.root)

    def name_of(self, query):
        return learn.resolve(self.exercises, query).name

    def test_full_folder_name(self):
        self.assertEqual(self.name_of("02_reduce_mean"), "02_reduce_mean")

    def test_number_with_or_without_leading_zero(self):
        self.assertEqual(self.name_of("2"), "02_reduce_mean")
        self.assertEqual(self.name_of("02"), "02_reduce_mean")

    def test_name_without_its_number(self):
        self.assertEqual(self.name_of("reduce_mean"), "02_reduce_mean")

    def test_chapter_dot_number(self):
        self.assertEqual(self.name_of("1.1"), "01_broadcast_shape")
        self.assertEqual(self.name_of("2.1"), "01_graph_basics")

    def test_path_to_the_folder(self):
        self.assertEqual(self.name_of("exercises/01-tensors/02_reduce_mean/"), "02_reduce_mean")
        self.assertEqual(self.name_of("02-graph/01_graph_basics"), "01_graph_basics")

    def test_number_shared_by_two_chapters_is_ambiguous(self):
        with self.assertRaisesRegex(LookupError, r"ambiguous: 1\.1 \(01_broadcast_shape\), "
                                                 r"2\.1 \(01_graph_basics\)"):
            learn.resolve(self.exercises, "1")

    def test_unknown_names_list_the_exercises(self):
        for query in ("7", "nope", "3.1", "01-tensors/03_missing"):
            with self.assertRaisesRegex(LookupError, "01_broadcast_shape, 02_reduce_mean"):
                learn.resolve(self.exercises, query)

    def test_short_ref_is_the_number_only_when_unique(self):
        by_name = {ex.name: ex for ex in self.exercises}
        self.assertEqual(learn.short_ref(self.exercises, by_name["02_reduce_mean"]), "02")
        self.assertEqual(learn.short_ref(self.exercises, by_name["01_graph_basics"]),
                         "01_graph_basics")


class ProgressTest(TempRepoTest):
    def setUp(self):
        super().setUp()
        self.folder = make_exercise(self.root, "01-tensors", "01_a", starter="a.cc")
        make_exercise(self.root, "01-tensors", "02_b", starter="b.cc")
        self.exercises = learn.discover(self.root)
        self.a, self.b = self.exercises
        self.path = self.root / ".learn" / "progress.json"

    def test_missing_file_is_empty_progress(self):
        progress = learn.load_progress(self.path)
        self.assertEqual(progress["exercises"], {})
        self.assertEqual(learn.status(progress, self.a), learn.NOT_CHECKED)

    def test_round_trip_keeps_every_result(self):
        progress = learn.load_progress(self.path)
        learn.record(progress, self.a, True, learn.starter_hash(self.a), when="2024-01-01T00:00:00Z")
        learn.record(progress, self.b, False, learn.starter_hash(self.b), reason="does not compile")
        learn.save_progress(self.path, progress)
        loaded = learn.load_progress(self.path)
        self.assertEqual(loaded, progress)
        self.assertEqual(loaded["exercises"]["01_a"]["checked_at"], "2024-01-01T00:00:00Z")
        self.assertEqual(learn.status(loaded, self.a), learn.PASSED)
        self.assertEqual(learn.status(loaded, self.b), learn.FAILING)
        self.assertEqual(json.loads(self.path.read_text())["exercises"]["02_b"]["reason"],
                         "does not compile")

    def test_editing_the_starter_after_a_check_shows_changed(self):
        progress = learn.load_progress(self.path)
        learn.record(progress, self.a, True, learn.starter_hash(self.a))
        learn.save_progress(self.path, progress)
        (self.folder / "a.cc").write_text("// my attempt\n")
        progress = learn.load_progress(self.path)
        self.assertEqual(learn.status(progress, self.a), learn.CHANGED)
        (self.folder / "a.cc").write_text("// stub\n")  # back to what was checked
        self.assertEqual(learn.status(progress, self.a), learn.PASSED)

    def test_editing_other_files_does_not_invalidate_a_result(self):
        progress = learn.load_progress(self.path)
        learn.record(progress, self.a, False, learn.starter_hash(self.a))
        (self.folder / "README.md").write_text("# changed\n")
        (self.folder / "solution" / "a.cc").write_text("// other answer\n")
        self.assertEqual(learn.status(progress, self.a), learn.FAILING)

    def test_next_is_the_first_not_passed(self):
        progress = learn.load_progress(self.path)
        self.assertIs(learn.next_exercise(self.exercises, progress), self.a)
        learn.record(progress, self.a, True, learn.starter_hash(self.a))
        self.assertIs(learn.next_exercise(self.exercises, progress), self.b)
        learn.record(progress, self.b, True, learn.starter_hash(self.b))
        self.assertIsNone(learn.next_exercise(self.exercises, progress))
        (self.folder / "a.cc").write_text("// broke it again\n")
        self.assertIs(learn.next_exercise(self.exercises, progress), self.a)

    def test_corrupt_or_foreign_file_is_ignored_not_fatal(self):
        self.path.parent.mkdir(parents=True)
        for text in ("{not json", "[1, 2]", '{"exercises": 3}'):
            self.path.write_text(text)
            with mock.patch("sys.stderr"):
                progress = learn.load_progress(self.path)
            self.assertEqual(progress["exercises"], {}, text)

    def test_unknown_result_value_counts_as_not_checked(self):
        progress = {"exercises": {"01_a": {"result": "maybe",
                                           "starter_sha256": learn.starter_hash(self.a)}}}
        self.assertEqual(learn.status(progress, self.a), learn.NOT_CHECKED)


class HintTest(unittest.TestCase):
    def test_extracts_the_section_up_to_the_next_heading(self):
        text = "# Title\n\nTask.\n\n## Hint\n\nUse strides.\nThen divide.\n\n## Later\n\nNo.\n"
        self.assertEqual(learn.extract_hint(text), "Use strides.\nThen divide.")

    def test_section_at_the_end_and_plural_heading(self):
        self.assertEqual(learn.extract_hint("# T\n\n### Hints\nOne.\nTwo.\n"), "One.\nTwo.")

    def test_keeps_subsections_and_code_with_hash_lines(self):
        text = ("# T\n## Hint\nStep:\n```sh\n# not a heading\ncmake ..\n```\n"
                "### Detail\nMore.\n## Next\nNo.\n")
        self.assertEqual(learn.extract_hint(text),
                         "Step:\n```sh\n# not a heading\ncmake ..\n```\n### Detail\nMore.")

    def test_missing_or_empty_hint_is_none(self):
        self.assertIsNone(learn.extract_hint("# T\n\nNo hint here. The word Hint alone.\n"))
        self.assertIsNone(learn.extract_hint("# T\n## Hint\n\n## Next\n"))

    def test_title_drops_the_exercise_number(self):
        self.assertEqual(learn.readme_title("# Exercise 02: reduce_mean\n", "x"), "reduce_mean")
        self.assertEqual(learn.readme_title("# Strides\n", "x"), "Strides")
        self.assertEqual(learn.readme_title("no heading\n", "02_x"), "02_x")


class GTestOutputTest(unittest.TestCase):
    OUTPUT = "\n".join([
        "Running main() from gtest_main.cc",
        "[==========] Running 3 tests from 1 test suite.",
        "[ RUN      ] ATest.Good",
        "[       OK ] ATest.Good (0 ms)",
        "[ RUN      ] ATest.Bad",
        "a_test.cc:10: Failure",
        "Expected equality",
        "a_test.cc:12: Failure",
        "Second",
        "[  FAILED  ] ATest.Bad (0 ms)",
        "[ RUN      ] ATest.Crashes",
        "Check failed: ok()",
    ])

    def test_finds_failed_and_crashed_tests(self):
        total, failures = learn.parse_gtest(self.OUTPUT)
        self.assertIsNone(total)  # the crash cut the summary off
        self.assertEqual([name for name, _ in failures], ["ATest.Bad", "ATest.Crashes"])
        self.assertEqual(failures[1][1], ["Check failed: ok()"])

    def test_counts_tests_and_splits_failed_checks(self):
        output = self.OUTPUT.rsplit("\n[ RUN      ] ATest.Crashes", 1)[0]
        output += "\n[==========] 2 tests from 1 test suite ran. (0 ms total)\n"
        total, failures = learn.parse_gtest(output)
        self.assertEqual(total, 2)
        checks = learn.split_failures(failures[0][1])
        self.assertEqual(checks, [["a_test.cc:10: Failure", "Expected equality"],
                                  ["a_test.cc:12: Failure", "Second"]])


if __name__ == "__main__":
    unittest.main()
