#!/usr/bin/env python3
"""Tests of tools/learn.py, and of the checks the exercises' tests share.

Most tests exercise the runner's logic on folders they write. The Build*
tests run the real cmake, ninja, ctest and g++ on tiny projects (a test that
hangs, a library to compile) and are skipped where those are missing; the
ExerciseChecks tests compile exercises/common/exercise_checks.h against
GoogleTest.

  python3 tests/tools/test_learn.py
"""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
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

    def test_short_ref_is_chapter_dot_number(self):
        by_name = {ex.name: ex for ex in self.exercises}
        self.assertEqual(learn.short_ref(self.exercises, by_name["02_reduce_mean"]), "1.2")
        self.assertEqual(learn.short_ref(self.exercises, by_name["01_graph_basics"]), "2.1")

    def test_short_ref_without_a_numbered_chapter_is_the_number_when_unique(self):
        make_exercise(self.root, "extras", "05_extra")
        make_exercise(self.root, "extras", "01_again")
        exercises = learn.discover(self.root)
        by_name = {ex.name: ex for ex in exercises}
        self.assertEqual(learn.short_ref(exercises, by_name["05_extra"]), "05")
        self.assertEqual(learn.short_ref(exercises, by_name["01_again"]), "01_again")


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

    def test_record_makes_the_exercise_current(self):
        progress = learn.load_progress(self.path)
        self.assertIsNone(learn.current_exercise(self.exercises, progress))
        learn.record(progress, self.b, False, learn.starter_hash(self.b))
        self.assertIs(learn.current_exercise(self.exercises, progress), self.b)

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


def quiet(fn, *args, **kwargs):
    """(fn's return value, what it printed)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value = fn(*args, **kwargs)
    return value, out.getvalue()


class NextOrderTest(TempRepoTest):
    """"Next" goes on from the exercise checked last, never back to 1.1."""

    def setUp(self):
        super().setUp()
        for chapter, names in (("01-tensors", ("01_a", "02_b")),
                               ("05-gpu", ("01_c", "02_d", "03_e")),
                               ("07-ps", ("01_f", "02_g"))):
            for name in names:
                make_exercise(self.root, chapter, name, starter=name + ".cc")
        self.exercises = learn.discover(self.root)
        self.ex = {ex.chapter_ref(): ex for ex in self.exercises}
        self.progress = learn.load_progress(self.root / "p.json")

    def passed(self, *refs):
        for ref in refs:
            ex = self.ex[ref]
            learn.record(self.progress, ex, True, learn.starter_hash(ex))

    def next_ref(self):
        ex = learn.next_exercise(self.exercises, self.progress)
        return ex.chapter_ref() if ex else None

    def test_nothing_checked_starts_at_the_beginning(self):
        self.assertEqual(self.next_ref(), "1.1")

    def test_after_passing_one_the_rest_of_its_chapter_comes_next(self):
        self.passed("5.1")
        self.assertEqual(self.next_ref(), "5.2")
        self.passed("7.1")
        self.assertEqual(self.next_ref(), "7.2")

    def test_after_the_chapters_end_its_skipped_ones_then_the_next_chapter(self):
        self.passed("5.2", "5.3")
        self.assertEqual(self.next_ref(), "5.1")  # skipped in this chapter
        self.passed("5.1")
        self.assertEqual(self.next_ref(), "7.1")  # not back to 1.1

    def test_earlier_chapters_come_last(self):
        self.passed("7.2", "7.1")
        self.assertEqual(self.next_ref(), "1.1")
        self.passed("1.1", "1.2", "5.1", "5.2", "5.3")
        self.assertIsNone(self.next_ref())

    def test_a_failing_current_exercise_stays_next(self):
        ex = self.ex["5.2"]
        learn.record(self.progress, ex, False, learn.starter_hash(ex))
        self.assertEqual(self.next_ref(), "5.2")

    def test_check_says_next_after_a_pass(self):
        runner = learn.Runner(self.root)
        runner.progress = self.progress
        self.passed("5.1")
        _, out = quiet(runner._say_next)
        self.assertIn("Next: 02_d", out)
        self.assertIn("check   python3 tools/learn.py check 5.2", out)


HINTS = """# Exercise 01: axpy

The task.

## Hints

### The idea

Each thread walks the array in strides.

### The next step

The stride is the number of threads in the grid.

### The last step

Cap the blocks; launch nothing for no elements.

## Elsewhere

Not a hint.
"""


class HintTiersTest(TempRepoTest):
    def test_each_subheading_is_a_tier(self):
        self.assertEqual(learn.hint_tiers(HINTS), [
            ("The idea", "Each thread walks the array in strides."),
            ("The next step", "The stride is the number of threads in the grid."),
            ("The last step", "Cap the blocks; launch nothing for no elements.")])

    def test_a_hint_without_subheadings_is_one_tier(self):
        self.assertEqual(learn.hint_tiers("# T\n## Hint\nThink.\n"), [("The idea", "Think.")])
        self.assertEqual(learn.hint_tiers("# T\n"), [])

    def test_hint_shows_one_tier_and_more_shows_the_next(self):
        make_exercise(self.root, "05-gpu", "01_axpy", readme=HINTS)
        runner = learn.Runner(self.root)
        rc, out = quiet(runner.cmd_hint, "5.1")
        self.assertEqual(rc, 0)
        self.assertIn("Hint 1 of 3 for 01_axpy: The idea", out)
        self.assertIn("walks the array", out)
        self.assertNotIn("number of threads", out)
        self.assertIn("The next step: python3 tools/learn.py hint 5.1 --more", out)
        self.assertIn("one answer is in exercises/05-gpu/01_axpy/solution/", out)
        _, out = quiet(runner.cmd_hint, "5.1", 1)
        self.assertIn("Hint 2 of 3", out)
        self.assertIn("number of threads", out)
        self.assertNotIn("Cap the blocks", out)
        self.assertIn("hint 5.1 --more --more", out)
        _, out = quiet(runner.cmd_hint, "5.1", 5)
        self.assertIn("Cap the blocks", out)
        self.assertIn("That is the last hint.", out)
        self.assertNotIn("Not a hint", out)

    def test_the_command_line_counts_more(self):
        make_exercise(self.root, "05-gpu", "01_axpy", readme=HINTS)
        runner_class = learn.Runner
        with mock.patch.object(learn, "Runner", lambda: runner_class(self.root)):
            _, out = quiet(learn.main, ["hint", "5.1", "--more"])
        self.assertIn("Hint 2 of 3", out)

    def test_code_is_found_in_a_hint(self):
        for text in ("Then:\n```cpp\nx = 1;\n```", "Write `y[i] = a * x[i] + y[i]`.",
                     "Use `for (int i = 0; i < n; ++i)`.", "Return `{}`.",
                     "Add `sum += v` each time.", "Then\n\n    int x = 0;\n"):
            self.assertIsNotNone(learn.code_in_hint(text), text)
        for text in ("Call `__syncthreads()` between levels.", "Compare `local_step` with "
                     "`global_step_`: when `count_ == 0` start over.", "- a list\n    - nested"):
            self.assertIsNone(learn.code_in_hint(text), text)

    def test_every_course_hint_has_tiers_and_no_code(self):
        for ex in learn.discover(REPO):
            tiers = learn.hint_tiers(ex.readme.read_text(encoding="utf-8"))
            self.assertGreaterEqual(len(tiers), 2, "%s: hints need an idea and a next step"
                                    % ex.name)
            for title, text in tiers:
                self.assertIsNone(learn.code_in_hint(text), "%s's hint '%s' holds code"
                                  % (ex.name, title))


class StubNoticeTest(TempRepoTest):
    def test_the_stubs_text_in_the_output_names_the_function(self):
        make_exercise(self.root, "07-ps", "03_acc", starter="acc.cc")
        (ex,) = learn.discover(self.root)
        output = ('C++ exception with description "exercise 03_acc: write ApplyGrad" '
                  "thrown in the test body.")
        notice = learn.stub_notice(ex, output)
        self.assertIn("Your ApplyGrad still returns the starter's Unimplemented stub", notice)

    def test_a_starter_with_its_marker_is_named_with_the_line(self):
        make_exercise(self.root, "05-gpu", "01_axpy", starter="axpy.cc",
                      starter_text="// top\n\n  // ==== EXERCISE 01_axpy: do it ====\n")
        (ex,) = learn.discover(self.root)
        self.assertIn("exercises/05-gpu/01_axpy/axpy.cc:3 still holds the starter's code",
                      learn.stub_notice(ex, "Failure"))

    def test_an_edited_starter_gets_no_notice(self):
        make_exercise(self.root, "05-gpu", "01_axpy", starter_text="// mine\n")
        (ex,) = learn.discover(self.root)
        self.assertIsNone(learn.stub_notice(ex, "Failure\nexercise 02_other: write X"))

    def test_every_course_starter_gets_the_notice(self):
        for ex in learn.discover(REPO):
            texts = "\n".join(p.read_text(encoding="utf-8") for p in ex.starters)
            self.assertIsNotNone(learn.stub_notice(ex, ""), ex.name)
            # Every Unimplemented stub's text starts with the prefix the runner looks for.
            for line in texts.splitlines():
                if "exercise " in line and ": write" in line:
                    self.assertIn(learn.STUB_PREFIX % ex.name, line, ex.name)


class HangMessageTest(TempRepoTest):
    OUTPUT = "\n".join([
        "1/1 Test #7: exercise.03_acc ..................***Timeout  60.02 sec",
        "[==========] Running 2 tests from 1 test suite.",
        "[ RUN      ] Acc.Fast",
        "[       OK ] Acc.Fast (0 ms)",
        "[ RUN      ] Acc.AgreesWithTheLibrary",
        "",
        "The following tests FAILED:",
        "\t  7 - exercise.03_acc (Timeout)",
    ])

    def test_finds_the_timeout_and_the_test_that_was_running(self):
        self.assertEqual(learn.timed_out(self.OUTPUT), 60.02)
        self.assertEqual(learn.unfinished_test(self.OUTPUT), "Acc.AgreesWithTheLibrary")
        self.assertIsNone(learn.timed_out("1/1 Test #7: exercise.x ....***Failed  0.02 sec"))
        self.assertIsNone(learn.unfinished_test("[ RUN      ] A.B\n[  FAILED  ] A.B (1 ms)\n"))

    def test_names_the_functions_the_starter_defines(self):
        text = textwrap.dedent("""\
            #include "acc.h"
            namespace minitf::exercises {
            bool Acc::ApplyGrad(int64_t local_step,
                                const std::vector<float>& grad) {
              return true;
            }
            std::optional<std::vector<float>> Acc::TryTakeGrad(
                int num_required) {
              if (num_required) return {};
            }
            __global__ void axpy_kernel(int n) { }
            int Declared(int x);
            }  // namespace minitf::exercises
            """)
        self.assertEqual(learn.defined_functions(text),
                         ["ApplyGrad", "TryTakeGrad", "axpy_kernel"])
        self.assertEqual(learn.or_list(["a", "b", "c"]), "a, b or c")

    def test_the_message_names_the_function_the_test_and_the_hint(self):
        folder = make_exercise(self.root, "07-ps", "03_acc", starter="acc.cc",
                               starter_text="int Acc::TakeGrad() {\n  for (;;) {}\n}\n")
        runner = learn.Runner(self.root)
        (ex,) = runner.exercises
        _, out = quiet(runner._say_hang, ex, self.OUTPUT, 60.02, True)
        self.assertIn("your TakeGrad (acc.cc) never returned: Acc.AgreesWithTheLibrary was "
                      "still running when it was stopped after 60 s", out)
        self.assertIn("Stuck? `python3 tools/learn.py hint 7.3`", out)
        self.assertTrue(folder.is_dir())


class SeedCompareTest(TempRepoTest):
    """The comparison behind `run` and CTest's exercise_seed tests."""

    SEED = {"title": "seed 002", "lines": "accuracy=", "tolerance": 0.005, "args": [],
            "skip": "MNIST file not found"}
    EPOCHS = "Epoch: 0001 accuracy= 0.805400014\nEpoch: 0002 accuracy= 0.841600001\n"

    def test_the_manifest_keeps_keys_and_arguments_in_order(self):
        path = self.root / "m.txt"
        path.write_text("exercise=01_matmul_grad\ntitle=seed 002 (x=y)\nlines=accuracy=\n"
                        "tolerance=0.005\narg=--log\narg=a b\n")
        seed = learn.read_manifest(path)
        self.assertEqual(seed["title"], "seed 002 (x=y)")
        self.assertEqual(seed["lines"], "accuracy=")
        self.assertEqual(seed["tolerance"], 0.005)
        self.assertEqual(seed["args"], ["--log", "a b"])

    def test_numbers_agree_within_the_tolerance_and_words_exactly(self):
        self.assertTrue(learn.lines_agree("acc= 0.8416", "acc= 0.8416", 0))
        self.assertTrue(learn.lines_agree("acc= 0.8416", "acc= 0.8431", 0.005))
        self.assertFalse(learn.lines_agree("acc= 0.8416", "acc= 0.8431", 0))
        self.assertFalse(learn.lines_agree("acc= 0.1000", "acc= 0.8416", 0.005))
        self.assertFalse(learn.lines_agree("loss= 0.8416", "acc= 0.8416", 0.005))
        self.assertFalse(learn.lines_agree("acc= 0.84 0.1", "acc= 0.84", 0.005))
        self.assertFalse(learn.lines_agree("acc= nan", "acc= 0.84", 0.005))
        self.assertFalse(learn.lines_agree("dtype=float32", "dtype=float64", 100))

    def test_a_last_figure_is_a_decimal_number_not_a_dtype_or_a_shape(self):
        self.assertIsNone(learn.last_figures(['Tensor("MatMul:0", shape=(2, 2), dtype=float32)'],
                                             ['Tensor("MatMul:0", shape=(2, 2), dtype=float32)']))
        self.assertEqual(learn.last_figures(["step 10 loss= 0.25"], ["step 10 loss= 0.5"]),
                         ("0.25", "0.5"))

    def test_agreeing_runs_print_side_by_side_and_the_last_figures(self):
        code, lines = learn.seed_report(self.SEED, {"yours": (0, "noise\n" + self.EPOCHS),
                                                    "reference": (0, self.EPOCHS)})
        self.assertEqual(code, 0)
        text = "\n".join(lines)
        self.assertIn("with your code", text)
        self.assertIn("Epoch: 0002 accuracy= 0.841600001   Epoch: 0002 accuracy= 0.841600001",
                      text)
        self.assertNotIn("noise", text)
        self.assertIn("Last result: 0.841600001 with your code, 0.841600001 with the library's",
                      text)
        self.assertIn("The results agree: 2 of 2 lines (numbers within 0.005)", text)

    def test_a_differing_line_is_marked_and_counted(self):
        wrong = self.EPOCHS.replace("0.841600001", "0.100000001")
        code, lines = learn.seed_report(self.SEED, {"yours": (0, wrong),
                                                    "reference": (0, self.EPOCHS)})
        self.assertEqual(code, 1)
        text = "\n".join(lines)
        self.assertIn("accuracy= 0.100000001 | Epoch: 0002", text)
        self.assertIn("1 of 2 result lines differ", text)
        self.assertIn("Last result: 0.100000001 with your code, 0.841600001", text)

    def test_a_timing_is_dropped_before_comparing(self):
        out = "Epoch: 0001 accuracy= 0.6969 (0.5 s training)\nsteps\n"
        self.assertEqual(learn.result_lines(out, "Epoch:", r" *[(][0-9.]+ s training[)]"),
                         ["Epoch: 0001 accuracy= 0.6969"])

    def test_no_result_lines_is_no_agreement(self):
        code, lines = learn.seed_report(self.SEED, {"yours": (0, "x\n"), "reference": (0, "y\n")})
        self.assertEqual(code, 1)
        self.assertIn("Neither run printed a result line", "\n".join(lines))

    def test_your_program_failing_shows_the_end_of_its_output(self):
        stub = "UNIMPLEMENTED: exercise 01_matmul_grad: write MatMulGrad (called for MatMul)\n"
        code, lines = learn.seed_report(self.SEED, {"yours": (1, stub),
                                                    "reference": (0, self.EPOCHS)})
        self.assertEqual(code, 1)
        self.assertIn("Your build of seed 002 stopped with exit status 1", lines[0])
        self.assertIn("write MatMulGrad", "\n".join(lines))
        code, lines = learn.seed_report(self.SEED, {"yours": (-6, "terminate called"),
                                                    "reference": (0, self.EPOCHS)})
        self.assertIn("was ended by SIGABRT (an exception that nothing caught", lines[0])
        code, lines = learn.seed_report(self.SEED, {"yours": (None, ""),
                                                    "reference": (0, self.EPOCHS)})
        self.assertIn("your code never returned", lines[0])

    def test_a_reference_that_cannot_run_here_is_skipped(self):
        out = "NOT_FOUND: MNIST file not found: /usr/share/x\n"
        code, lines = learn.seed_report(self.SEED, {"yours": (1, out), "reference": (1, out)})
        self.assertEqual(code, learn.SKIPPED)
        self.assertIn("cannot run on this machine: NOT_FOUND: MNIST file not found", lines[0])

    def test_both_programs_run_in_fresh_folders_with_the_arguments(self):
        script = self.root / "prog.sh"
        script.write_text("#!/bin/sh\necho \"accuracy= $1 in $(basename $(pwd))\"\ntouch f\n")
        script.chmod(0o755)
        seed = dict(self.SEED, yours=str(script), reference=str(script), args=["0.5"])
        results = learn.run_seeds(seed, self.root / "runs")
        self.assertEqual(results["yours"], (0, "accuracy= 0.5 in yours\n"))
        self.assertEqual(results["reference"], (0, "accuracy= 0.5 in reference\n"))
        self.assertTrue((self.root / "runs" / "yours" / "f").is_file())

    def test_a_runner_runs_each_program_named_after_it(self):
        path = self.root / "m.txt"
        path.write_text("runner=sh\nrunner=-c\nrunner=echo \"accuracy= $2 by $1\"\n"
                        "runner=cluster\narg=0.5\n")
        manifest = learn.read_manifest(path)
        self.assertEqual(manifest["runner"], ["sh", "-c", 'echo "accuracy= $2 by $1"', "cluster"])
        seed = dict(self.SEED, runner=manifest["runner"], yours="mine", reference="theirs",
                    args=manifest["args"])
        results = learn.run_seeds(seed, self.root / "runs")
        self.assertEqual(results["yours"], (0, "accuracy= 0.5 by mine\n"))
        self.assertEqual(results["reference"], (0, "accuracy= 0.5 by theirs\n"))

    def test_a_program_that_never_ends_is_stopped(self):
        script = self.root / "hang.sh"
        script.write_text("#!/bin/sh\necho started\nexec sleep 60\n")
        script.chmod(0o755)
        seed = dict(self.SEED, yours=str(script), reference="/bin/true")
        started = time.monotonic()
        results = learn.run_seeds(seed, self.root / "runs", seconds=1)
        self.assertLess(time.monotonic() - started, 20)
        self.assertEqual(results["yours"][0], None)
        self.assertEqual(results["reference"][0], 0)

    def test_every_course_piece_has_a_seed_in_its_cmake(self):
        for ex in learn.discover(REPO):
            if (ex.folder / "register_piece.cc").is_file():
                cmake = (ex.folder / "CMakeLists.txt").read_text(encoding="utf-8")
                self.assertIn("PIECE register_piece.cc", cmake, ex.name)
                self.assertIn("SEED ", cmake, ex.name)

    def test_the_course_has_engine_pieces_in_chapters_1_to_4_6_and_7(self):
        chapters = {ex.chapter_number for ex in learn.discover(REPO)
                    if (ex.folder / "register_piece.cc").is_file()}
        self.assertLessEqual({1, 2, 3, 4, 6, 7}, chapters)


def have_tools(*tools):
    return all(shutil.which(t) for t in tools)


@unittest.skipUnless(have_tools("cmake", "ninja", "ctest", "g++"),
                     "needs cmake, ninja, ctest and g++")
class BuildTest(TempRepoTest):
    """The runner against a real CMake project shaped like the course: a
    library under src/, and one exercise whose test the project defines."""

    def write_project(self, test_command, timeout=2):
        make_exercise(self.root, "07-ps", "03_acc", starter="acc.cc",
                      starter_text="// ==== EXERCISE 03_acc: write it ====\n"
                                   "int Acc::TakeGrad() {\n  return 0;\n}\n")
        (self.root / "src").mkdir()
        (self.root / "src" / "lib.cc").write_text("int Lib() { return 1; }\n")
        (self.root / "src" / "CMakeLists.txt").write_text("add_library(minitf_lib STATIC lib.cc)\n")
        (self.root / "hang.sh").write_text(test_command)
        (self.root / "CMakeLists.txt").write_text(textwrap.dedent("""\
            cmake_minimum_required(VERSION 3.20)
            project(fake CXX)
            set(MINITF_EXERCISES "solutions" CACHE STRING "")
            enable_testing()
            add_subdirectory(src src)
            add_custom_target(exercise_03_acc ALL DEPENDS minitf_lib)
            add_test(NAME exercise.03_acc COMMAND sh ${CMAKE_SOURCE_DIR}/hang.sh)
            set_tests_properties(exercise.03_acc PROPERTIES TIMEOUT %d)
            """ % timeout))
        return learn.Runner(self.root)

    def test_a_hanging_test_ends_within_its_limit_with_the_message(self):
        runner = self.write_project(
            'echo "[ RUN      ] Acc.AgreesWithTheLibrary"\nexec sleep 60\n')
        (ex,) = runner.exercises
        started = time.monotonic()
        ok, out = quiet(runner.check, ex, True)
        self.assertLess(time.monotonic() - started, 40)
        self.assertFalse(ok)
        self.assertIn("your TakeGrad (acc.cc) never returned: Acc.AgreesWithTheLibrary was "
                      "still running when it was stopped after 2 s", out)
        self.assertIn("hint 7.3", out)
        self.assertEqual(runner.progress["exercises"]["03_acc"]["reason"], "never returned")

    def test_the_first_build_message_only_when_the_library_is_not_built(self):
        runner = self.write_project("exit 0\n")
        (ex,) = runner.exercises
        ok, out = quiet(runner.check, ex, True)
        self.assertTrue(ok, out)
        self.assertIn("this first build also compiles the minitf library (2 steps)", out)
        ok, out = quiet(runner.check, ex, True)
        self.assertTrue(ok, out)
        self.assertNotIn("first build", out)

    def test_a_ctest_that_never_returns_is_stopped_by_the_runner(self):
        runner = self.write_project("exit 0\n")
        (ex,) = runner.exercises
        quiet(runner.check, ex, False)  # configures and builds
        fake_bin = self.root / "bin"
        fake_bin.mkdir()
        (fake_bin / "ctest").write_text("#!/bin/sh\necho '[ RUN      ] Acc.Stuck'\nexec sleep 60\n")
        (fake_bin / "ctest").chmod(0o755)
        runner.guard_seconds = 1
        started = time.monotonic()
        with mock.patch.dict(os.environ, {"PATH": "%s:%s" % (fake_bin, os.environ["PATH"])}):
            ok, out = quiet(runner.check, ex, True)
        self.assertLess(time.monotonic() - started, 20)
        self.assertFalse(ok)
        self.assertIn("never returned: Acc.Stuck was still running when it was stopped "
                      "after 1 s", out)


@unittest.skipUnless(have_tools("cmake", "ninja", "ctest", "g++"),
                     "needs cmake, ninja, ctest and g++")
class RunTest(TempRepoTest):
    """`learn.py run` against a real CMake project: an exercise whose piece
    and seed program are shell scripts, and one without a seed."""

    def write_project(self, yours_prints):
        make_exercise(self.root, "03-train", "01_grad", starter="grad.cc")
        make_exercise(self.root, "03-train", "02_plain", starter="plain.cc")
        for name, text in (("seed.sh", "echo 'Epoch: 0001 accuracy= 0.84'\n"),
                           ("seed_with.sh", yours_prints)):
            (self.root / name).write_text("#!/bin/sh\n" + text)
            (self.root / name).chmod(0o755)
        (self.root / "CMakeLists.txt").write_text(textwrap.dedent("""\
            cmake_minimum_required(VERSION 3.20)
            project(fake NONE)
            set(MINITF_EXERCISES "solutions" CACHE STRING "")
            enable_testing()
            add_custom_target(seed)
            add_custom_target(seed_with_01_grad)
            file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/exercise_seeds/01_grad.txt" CONTENT
                 "exercise=01_grad\\ntitle=seed 002\\nyours_target=seed_with_01_grad\\n\\
            yours=${CMAKE_SOURCE_DIR}/seed_with.sh\\nreference_target=seed\\n\\
            reference=${CMAKE_SOURCE_DIR}/seed.sh\\nlines=accuracy=\\ntolerance=0.005\\n")
            """))
        return learn.Runner(self.root)

    def test_run_prints_both_results_side_by_side(self):
        runner = self.write_project("echo 'Epoch: 0001 accuracy= 0.84'\n")
        code, out = quiet(runner.cmd_run, "3.1")
        self.assertEqual(code, 0, out)
        self.assertIn("Running seed 002 on your exercises/03-train/01_grad/grad.cc", out)
        self.assertIn("Epoch: 0001 accuracy= 0.84   Epoch: 0001 accuracy= 0.84", out)
        self.assertIn("Last result: 0.84 with your code, 0.84 with the library's.", out)
        self.assertIn("Seed 002 runs on your code and prints what it prints on the library's",
                      out)

    def test_run_on_the_starter_says_where_the_code_goes(self):
        runner = self.write_project(
            "echo 'UNIMPLEMENTED: exercise 01_grad: write Grad (called for MatMul)'\nexit 1\n")
        code, out = quiet(runner.cmd_run, "3.1")
        self.assertEqual(code, 1, out)
        self.assertIn("Your build of seed 002 stopped with exit status 1", out)
        self.assertIn("Your Grad still returns the starter's Unimplemented stub", out)
        self.assertIn("check 3.1", out)

    def test_an_exercise_without_a_seed_names_those_that_have_one(self):
        runner = self.write_project("exit 0\n")
        code, out = quiet(runner.cmd_run, "3.2")
        self.assertEqual(code, 2, out)
        self.assertIn("02_plain builds no seed program", out)
        self.assertIn("The exercises whose code a seed program runs on: 3.1.", out)

    def test_compare_is_what_ctest_runs(self):
        self.write_project("echo 'Epoch: 0001 accuracy= 0.20'\n")
        runner = learn.Runner(self.root)
        quiet(runner._configure)
        manifest = self.root / learn.BUILD_DIR_NAME / "exercise_seeds" / "01_grad.txt"
        cwd = os.getcwd()
        try:
            os.chdir(str(self.root))
            code, out = quiet(learn.main, ["compare", str(manifest)])
        finally:
            os.chdir(cwd)
        self.assertEqual(code, 1, out)
        self.assertIn("1 of 1 result lines differ", out)


CHECKS_TEST = r"""
#include "exercise_checks.h"

#include <thread>

using minitf::exercises::NearValues;
using minitf::exercises::ReturnsWithin;
using minitf::exercises::SameValues;

TEST(Checks, Mismatch) {
  std::vector<float> want(100, 1.f), got = want;
  got[17] = 4.5f;
  got[90] = 0.f;
  EXPECT_TRUE(SameValues(got, want));
  EXPECT_TRUE(SameValues(std::vector<float>(3), want));
  EXPECT_TRUE(NearValues(got, want, 0.5, 10));
  EXPECT_TRUE(SameValues(want, want));
}

TEST(Checks, Hang) {
  ReturnsWithin(1, "TakeGrad", "with two gradients in", [] {
    std::this_thread::sleep_for(std::chrono::seconds(60));
    return 0;
  });
}
"""


@unittest.skipUnless(have_tools("g++") and (Path("/usr/include/gtest/gtest.h").is_file()),
                     "needs g++ and GoogleTest")
class ExerciseChecksTest(TempRepoTest):
    """exercises/common/exercise_checks.h, compiled and run."""

    def run_checks(self, test):
        source = self.root / "checks_test.cc"
        source.write_text(CHECKS_TEST)
        binary = self.root / "checks_test"
        subprocess.run(["g++", "-std=c++20", "-I", str(REPO / "exercises" / "common"),
                        str(source), "-o", str(binary), "-lgtest", "-lgtest_main", "-pthread"],
                       check=True)
        started = time.monotonic()
        proc = subprocess.run([str(binary), "--gtest_filter=Checks." + test],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=30)
        return proc, time.monotonic() - started

    def test_a_mismatch_names_the_first_index_both_values_and_the_count(self):
        proc, _ = self.run_checks("Mismatch")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("2 of 100 elements differ; the first is element 17: got 4.5, want 1",
                      proc.stdout)
        self.assertIn("got 3 elements, want 100", proc.stdout)
        self.assertIn("2 of 100 elements differ by more than 0.5; the first is element 17 "
                      "(row 1, column 7): got 4.5, want 1", proc.stdout)

    def test_a_call_that_never_returns_fails_in_time_naming_it(self):
        proc, seconds = self.run_checks("Hang")
        self.assertLess(seconds, 10)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("your TakeGrad never returned within 1 s with two gradients in",
                      proc.stdout)
        _, failures = learn.parse_gtest(proc.stdout)
        self.assertEqual([name for name, _ in failures], ["Checks.Hang"])


if __name__ == "__main__":
    unittest.main()
