#!/usr/bin/env python3
"""Tests of scripts/run_programs.sh, the part of README command 1 (demo.sh)
that runs the chapters' programs: on a build folder of its own, with small
shell programs in place of the chapters'.

  python3 tests/tools/test_run_programs.py
"""

import os
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

    def run_script(self, listing, lines=None):
        (self.build / "programs.txt").write_text(listing, encoding="utf-8")
        env = dict(os.environ)
        env.pop("MINITF_DEMO_LINES", None)
        if lines is not None:
            env["MINITF_DEMO_LINES"] = str(lines)
        return subprocess.run(["bash", str(SCRIPT), str(self.build)],
                              capture_output=True, text=True, env=env,
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


if __name__ == "__main__":
    unittest.main()
