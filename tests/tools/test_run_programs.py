#!/usr/bin/env python3
"""Tests of README command 1 (scripts/demo.sh) without a build: the part that
runs the chapters' programs (scripts/run_programs.sh) on a build folder of
its own, with small shell programs in place of the chapters'; the progress
line of a build (build_with_progress in scripts/common.sh) with a stand-in
for cmake; and the demo's order (chapter 1 on its own, then chapter by
chapter) in a copy of the scripts whose tools are stand-ins that note their
calls.

  python3 tests/tools/test_run_programs.py
"""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "run_programs.sh"


class RunProgramsTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.build = Path(self._tmp.name)
        self.listing = []

    def tearDown(self):
        self._tmp.cleanup()

    def add_program(self, chapter, name, body):
        """A program `name` of `chapter`: a shell script running `body`."""
        folder = self.build / "programs" / chapter
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        path.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
        path.chmod(0o755)

    def run_script(self, listing, lines=None, chapter=None, logs=None):
        (self.build / "programs.txt").write_text(listing, encoding="utf-8")
        env = dict(os.environ)
        env.pop("MINITF_DEMO_LINES", None)
        env.pop("MINITF_DEMO_LOGS", None)
        if lines is not None:
            env["MINITF_DEMO_LINES"] = str(lines)
        if logs is not None:
            env["MINITF_DEMO_LOGS"] = str(logs)
        args = ["bash", str(SCRIPT), str(self.build)]
        if chapter is not None:
            args.append(chapter)
        return subprocess.run(args, capture_output=True, text=True, env=env,
                              check=False)

    def test_a_long_output_shows_its_ends_and_the_log_has_it_all(self):
        self.add_program("02-graph", "long", "seq 1 100; echo oops >&2")
        result = self.run_script("02-graph: long\n")
        self.assertEqual(result.returncode, 0, result.stderr)
        log = self.build / "demo-logs" / "long.log"
        self.assertIn(" Chapter 02: graph\n", result.stdout)
        self.assertIn(f"--- long (full output: {log}) ---\n", result.stdout)
        shown = "1\n2\n3\n4\n5\n    ... 91 lines ...\n97\n98\n99\n100\noops\n"
        self.assertTrue(result.stdout.endswith(shown), result.stdout)
        self.assertEqual(log.read_text(encoding="utf-8"),
                         "".join(f"{i}\n" for i in range(1, 101)) + "oops\n")

    def test_a_short_output_is_shown_whole(self):
        self.add_program("02-graph", "short", "seq 1 11")
        result = self.run_script("02-graph: short\n")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(result.stdout.endswith(
            "".join(f"{i}\n" for i in range(1, 12))), result.stdout)
        self.assertNotIn("lines ...", result.stdout)

    def test_the_number_of_lines_at_each_end_can_be_chosen(self):
        self.add_program("02-graph", "long", "seq 1 10")
        result = self.run_script("02-graph: long\n", lines=2)
        self.assertTrue(result.stdout.endswith("1\n2\n    ... 6 lines ...\n9\n10\n"),
                        result.stdout)

    def test_programs_run_in_order_and_a_chapter_without_any_is_skipped(self):
        self.add_program("01-one", "first", "echo first")
        self.add_program("01-one", "second", "echo second")
        self.add_program("03-three", "third", "echo third")
        result = self.run_script("01-one: first;second\n02-two: \n03-three: third\n")
        self.assertEqual(result.returncode, 0, result.stderr)
        out = result.stdout
        self.assertLess(out.index("--- first"), out.index("--- second"))
        self.assertLess(out.index("--- second"), out.index(" Chapter 03: three"))
        self.assertNotIn("Chapter 02", out)

    def test_a_failing_program_fails_the_run_and_names_its_log(self):
        self.add_program("01-one", "broken", "seq 1 30; echo 'it broke' >&2; exit 3")
        self.add_program("01-one", "after", "echo after")
        result = self.run_script("01-one: broken;after\n")
        self.assertNotEqual(result.returncode, 0)
        log = self.build / "demo-logs" / "broken.log"
        self.assertIn(f"FAILED: broken exited with status 3; its full output: {log}",
                      result.stderr)
        self.assertIn("it broke\n", result.stdout)
        self.assertNotIn("--- after", result.stdout)
        self.assertIn("it broke", log.read_text(encoding="utf-8"))

    def test_one_chapter_alone_by_its_number(self):
        self.add_program("01-one", "first", "echo first")
        self.add_program("03-three", "third", "echo third")
        listing = "01-one: first\n02-two: \n03-three: third\n"
        for chapter in ("3", "03"):
            result = self.run_script(listing, chapter=chapter)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("--- third", result.stdout)
            self.assertNotIn("first", result.stdout)
        result = self.run_script(listing, chapter="three")
        self.assertEqual(result.returncode, 2)
        self.assertIn("CHAPTER is a number", result.stderr)

    def test_the_logs_go_where_minitf_demo_logs_says(self):
        self.add_program("01-one", "first", "echo first")
        logs = self.build / "elsewhere"
        result = self.run_script("01-one: first\n", logs=logs)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual((logs / "first.log").read_text(encoding="utf-8"), "first\n")
        self.assertIn(f"full output: {logs / 'first.log'}", result.stdout)
        self.assertFalse((self.build / "demo-logs" / "first.log").exists())

    # A stand-in for seed_distributed: the ps waits to be stopped, as the
    # real one does; a worker prints its flags (and fails when told to).
    CLUSTER_PROGRAM = """case "$*" in
  *--job_name=ps*) exec sleep 60 ;;
esac
echo "task: $*" | tr ' ' '\\n' | grep -e job_name -e task_index
case "$*" in *--task_index=1*) exit ${FAIL:-0} ;; esac"""

    def test_chapter_7_ends_with_seed_003s_cluster_of_three_processes(self):
        self.add_program("07-dist", "stale", "echo stale")
        self.add_program("07-dist", "seed_distributed", self.CLUSTER_PROGRAM)
        result = self.run_script("07-dist: stale\n", chapter="7")
        self.assertEqual(result.returncode, 0, result.stderr)
        out = result.stdout
        self.assertIn("--- seed_distributed as a cluster: one ps and two workers", out)
        self.assertLess(out.index("--- stale"), out.index("as a cluster"))
        cluster = self.build / "demo-logs" / "cluster"
        for log in ("ps_0.log", "worker_0.log", "worker_1.log"):
            self.assertIn(f"== {cluster / log}", out)
        self.assertIn("--job_name=worker\n--task_index=1", out)
        self.assertIn("--job_name=worker",
                      (self.build / "demo-logs" / "seed_distributed_cluster.log")
                      .read_text(encoding="utf-8"))

    def test_a_failing_worker_fails_the_run(self):
        self.add_program("07-dist", "stale", "echo stale")
        self.add_program("07-dist", "seed_distributed",
                         "FAIL=4\n" + self.CLUSTER_PROGRAM)
        result = self.run_script("07-dist: stale\n")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("FAILED: seed 003's cluster exited with status 4", result.stderr)

    def test_no_cluster_where_seed_distributed_is_not_built(self):
        self.add_program("07-dist", "stale", "echo stale")
        result = self.run_script("07-dist: stale\n")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("cluster", result.stdout)


def write_executable(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)


class BuildProgressTest(unittest.TestCase):
    """build_with_progress (scripts/common.sh), with a cmake that prints what
    ninja prints: a glob check with a count of its own, steps, a warning."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = Path(self._tmp.name)
        self.build = self.tmp / "build"
        self.build.mkdir()

    def tearDown(self):
        self._tmp.cleanup()

    def build_with(self, ninja_output, status=0):
        (self.tmp / "output.txt").write_text(ninja_output, encoding="utf-8")
        write_executable(self.tmp / "bin" / "cmake",
                         f'#!/bin/sh\necho "$NINJA_STATUS|$*" > "{self.tmp}/args"\n'
                         f'cat "{self.tmp}/output.txt"\nexit {status}\n')
        env = dict(os.environ)
        env["PATH"] = f"{self.tmp / 'bin'}:{env['PATH']}"
        script = (f'source "{REPO}/scripts/common.sh"; '
                  f'build_with_progress "{self.build}" "chapter 3" chapter_03')
        # stdout is a pipe here: the line is printed at each quarter.
        return subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                              env=env, check=False)

    STEPS = ("[0/2] Re-checking globbed directories...\n"
             + "".join(f"[{i}/8] Building CXX object x{i}.o\n" for i in range(1, 9)))

    def test_one_line_per_quarter_and_no_compiler_output_on_screen(self):
        output = self.STEPS.replace("[3/8] Building CXX object x3.o\n",
                                    "[3/8] Building CXX object x3.o\nx3.cc:1: warning: w\n")
        result = self.build_with(output)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, "building chapter 3: 1/8\nbuilding chapter 3: 2/8\n"
                                        "building chapter 3: 4/8\nbuilding chapter 3: 6/8\n"
                                        "building chapter 3: 8/8\n")
        self.assertEqual(result.stderr, "")
        log = (self.build / "build-logs" / "chapter_3.log").read_text(encoding="utf-8")
        self.assertEqual(log, output)
        self.assertEqual((self.tmp / "args").read_text(encoding="utf-8").split("|")[0],
                         "[%f/%t] ")
        self.assertIn("--target chapter_03", (self.tmp / "args").read_text(encoding="utf-8"))

    def test_a_target_up_to_date_says_so(self):
        result = self.build_with("[0/2] Re-checking globbed directories...\n"
                                 "ninja: no work to do.\n")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, "building chapter 3: up to date\n")

    def test_a_failed_build_shows_the_compilers_messages(self):
        output = ("[1/3] Building CXX object a.o\n"
                  "FAILED: b.o\nb.cc:2:3: error: no\n"
                  "ninja: build stopped: subcommand failed.\n")
        result = self.build_with(output, status=1)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("FAILED: building chapter 3 (exit status 1)", result.stderr)
        self.assertIn("FAILED: b.o\nb.cc:2:3: error: no\n", result.stderr)
        self.assertNotIn("a.o", result.stderr)


class DemoOrderTest(unittest.TestCase):
    """scripts/demo.sh in a copy of the repository's scripts where setup.sh,
    run_programs.sh, build_docs.sh, tools/learn.py and cmake are stand-ins
    that write their calls to a file."""

    def test_chapter_1_runs_first_then_each_chapter_builds_and_runs_in_turn(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            calls = root / "calls"
            note = f'#!/bin/sh\necho "$(basename "$0") $*" >> "{calls}"\n'
            (root / "scripts").mkdir()
            for name in ("demo.sh", "common.sh"):
                shutil.copy(REPO / "scripts" / name, root / "scripts" / name)
            for name in ("setup.sh", "run_programs.sh", "build_docs.sh"):
                write_executable(root / "scripts" / name, note)
            write_executable(root / "tools" / "learn.py",
                             f'import sys\nopen("{calls}", "a").write('
                             f'"learn.py " + " ".join(sys.argv[1:]) + "\\n")\n')
            write_executable(root / "bin" / "cmake", note)
            env = dict(os.environ)
            env["PATH"] = f"{root / 'bin'}:{env['PATH']}"
            env["MINITF_JOBS"] = "3"
            result = subprocess.run(["bash", str(root / "scripts" / "demo.sh")],
                                    capture_output=True, text=True, env=env, check=False)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            lines = [line.rstrip() for line in
                     calls.read_text(encoding="utf-8").splitlines()]

        def at(line):
            self.assertIn(line, lines)
            return lines.index(line)

        one = f"{root}/build/01-tensors"
        everything = f"{root}/build/all"
        self.assertEqual(lines[0], "setup.sh first")
        at("setup.sh later --download-only")
        order = [
            at(f"cmake -S chapters/01-tensors -B {one} -G Ninja"),
            at(f"cmake --build {one} -j 3 --target chapter_01_programs"),
            at(f"run_programs.sh {one} 1"),
            at("learn.py list"),
            at(f"cmake --build {one} -j 3 --target chapter_01"),
            at(f"cmake -S . -B {everything} -G Ninja"),
        ]
        for n in range(2, 8):
            order.append(at(f"cmake --build {everything} -j 3 --target chapter_0{n}"))
            order.append(at(f"run_programs.sh {everything} {n}"))
        order.append(at(f"cmake --build {everything} -j 3 --target towers_bench"))
        order.append(at("build_docs.sh"))
        self.assertEqual(order, sorted(order))
        # The later packages install while chapter 1's exercises build, and
        # before chapters 2 to 7 are configured.
        self.assertEqual(lines.count("setup.sh later"), 1)
        self.assertLess(at("learn.py list"), at("setup.sh later"))
        self.assertLess(at("setup.sh later"), at(f"cmake -S . -B {everything} -G Ninja"))


if __name__ == "__main__":
    unittest.main()
