"""Tests of docs/hooks/stale_results.py, the hook that marks stale tables.

Run from the repository root with the other docs tests:
    /usr/bin/python3 -m unittest discover -s tests/docs -t tests/docs
The pure functions need nothing but Python. The others make a small git
repository with the project's scripts/record_results.sh, record a table in
it, change the code the table measures, and look for the warning: through
the hook's functions (they need git) and through a MkDocs build (which also
needs MkDocs).
"""

import os
import shutil
import subprocess
import tempfile
import textwrap
import unittest

from hooks_testing import REPO, hook_path, load_hook  # tests/docs/hooks_testing.py

HOOK = hook_path("stale_results")
SNIPPETS_HOOK = hook_path("snippets")
MKDOCS = "/usr/bin/mkdocs"
stale_results = load_hook("stale_results")

CHECK_OUTPUT = textwrap.dedent("""\
    results/graph_bench.md records no commit, so nothing tells whether the code it measures changed since
      record it again: scripts/record_results.sh graph_bench
    results/gpu_ops.md was measured at 0123456789ab; src/minitf/gpu changed since, in 2 commits, the newest "GPU: *faster* Add"
      record it again: scripts/gpu_check.sh
    record_results: 2 of 21 results files are stale; record them again on an idle machine: scripts/record_results.sh --stale
    """)


class ParseCheckTest(unittest.TestCase):

    def test_each_stale_file_gets_its_reason_and_command(self):
        self.assertEqual(stale_results.parse_check(CHECK_OUTPUT), {
            "results/graph_bench.md": (
                "records no commit, so nothing tells whether the code it measures changed since",
                "scripts/record_results.sh graph_bench"),
            "results/gpu_ops.md": (
                'was measured at 0123456789ab; src/minitf/gpu changed since, in 2 commits, '
                'the newest "GPU: *faster* Add"',
                "scripts/gpu_check.sh"),
        })

    def test_current_files_give_nothing(self):
        self.assertEqual(stale_results.parse_check(
            "record_results: the 21 results files are current\n"), {})


class MarkTest(unittest.TestCase):

    stale = stale_results.parse_check(CHECK_OUTPUT)

    def test_a_warning_goes_before_the_include_of_a_stale_file(self):
        marked = stale_results.mark('Text.\n\n--8<-- "results/graph_bench.md"\n', self.stale)
        before, include = marked.split('--8<-- "results/graph_bench.md"')
        self.assertIn('!!! warning "These figures may no longer describe the code"', before)
        self.assertIn("`results/graph_bench.md` records no commit", before)
        self.assertIn("`scripts/record_results.sh graph_bench` measures them again", before)
        self.assertEqual(include, "\n")

    def test_a_current_file_is_left_alone(self):
        page = 'Text.\n\n--8<-- "results/tensor_bench.md"\n'
        self.assertEqual(stale_results.mark(page, self.stale), page)

    def test_the_warning_takes_the_include_lines_indentation(self):
        marked = stale_results.mark('??? info "AVX2"\n\n    --8<-- "results/gpu_ops.md"\n',
                                    self.stale)
        self.assertIn('\n    !!! warning "', marked)
        self.assertIn("\n        `results/gpu_ops.md` was measured at 0123456789ab", marked)

    def test_a_commit_subject_is_shown_as_text_not_markup(self):
        marked = stale_results.mark('--8<-- "results/gpu_ops.md"', self.stale)
        self.assertIn(r'"GPU: \*faster\* Add"', marked)

    def test_a_quoted_code_section_is_not_an_include_of_results(self):
        page = '--8<-- "src/minitf/graph/graph.h:results"\n'
        self.assertEqual(stale_results.mark(page, {"results/graph.h": ("x", "y")}), page)


def git(root, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="Author", GIT_AUTHOR_EMAIL="author@example.com",
               GIT_COMMITTER_NAME="Author", GIT_COMMITTER_EMAIL="author@example.com")
    return subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


TABLE = "\n| size | GFLOP/s |\n|---|---:|\n| 1024 | 80.0 |\n"


@unittest.skipUnless(shutil.which("git"), "git is not installed")
class StaleRepositoryTest(unittest.TestCase):
    """A repository where tensor_bench's code changed after its table was measured."""

    def setUp(self):
        self.root = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.root, "scripts"))
        for script in ("record_results.sh", "common.sh"):
            shutil.copy(os.path.join(REPO, "scripts", script), os.path.join(self.root, "scripts"))
        # The paths scripts/record_results.sh declares for the three tables.
        for path in ("benchmarks/tensor/tensor_bench.cc", "benchmarks/tensor/timing.h",
                     "src/minitf/tensor/matmul.cc", "benchmarks/gpu/emulator_bench.cc",
                     "tests/gpu/test_kernels.cuh", "src/minitf/gpu/emulator/launch.h",
                     "benchmarks/graph/compare.sh", "scripts/peers.sh", "src/minitf/graph/graph.cc"):
            write(self.root, path, "// version 1\n")
        git(self.root, "init", "-q")
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", "The engine")
        measured = git(self.root, "rev-parse", "--short=12", "HEAD")
        header = f"*Measured on A CPU (2 cores, Linux x86_64), 2026-01-01, at commit {measured}, with `{{}}`.*\n"
        write(self.root, "results/tensor_bench.md", header.format("tensor_bench") + TABLE)
        write(self.root, "results/emulator_bench.md", header.format("emulator_bench") + TABLE)
        write(self.root, "results/graph_bench.md",
              "*Measured on A CPU (2 cores, Linux x86_64), 2026-01-01, with `compare.sh`.*\n" + TABLE)
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", "Results")
        write(self.root, "src/minitf/tensor/matmul.cc", "// version 2\n")
        git(self.root, "commit", "-q", "-am", "MatMul: a faster kernel")
        self.page = textwrap.dedent("""\
            # Measured

            --8<-- "results/tensor_bench.md"

            --8<-- "results/emulator_bench.md"

            --8<-- "results/graph_bench.md"
            """)

    def tearDown(self):
        shutil.rmtree(self.root)

    def marked_page(self):
        stale_results.on_pre_build({"config_file_path": os.path.join(self.root, "mkdocs.yml")})
        return stale_results.on_page_markdown(self.page, page=None, config=None, files=None)

    def test_the_changed_table_gets_what_changed_and_the_command(self):
        marked = self.marked_page()
        tensor = marked[:marked.index('--8<-- "results/tensor_bench.md"')]
        self.assertIn("!!! warning", tensor)
        self.assertIn("src/minitf/tensor changed since, in 1 commit", tensor)
        self.assertIn('the newest "MatMul: a faster kernel"', tensor)
        self.assertIn("`scripts/record_results.sh tensor_bench`", tensor)

    def test_a_table_whose_code_did_not_change_is_not_marked(self):
        marked = self.marked_page()
        between = marked[marked.index('"results/tensor_bench.md"'):
                         marked.index('"results/emulator_bench.md"')]
        self.assertNotIn("!!! warning", between)

    def test_a_table_that_records_no_commit_is_marked(self):
        marked = self.marked_page()
        between = marked[marked.index('"results/emulator_bench.md"'):
                         marked.index('"results/graph_bench.md"')]
        self.assertIn("`results/graph_bench.md` records no commit", between)

    def test_the_check_itself_lists_both_and_fails(self):
        result = subprocess.run(["bash", "scripts/record_results.sh", "--check"], cwd=self.root,
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("results/tensor_bench.md was measured at", result.stdout)
        self.assertIn("record_results: 2 of 3 results files are stale", result.stdout)

    def test_without_history_nothing_is_marked_and_the_build_goes_on(self):
        shutil.rmtree(os.path.join(self.root, ".git"))
        self.assertEqual(self.marked_page(), self.page)

    @unittest.skipUnless(os.path.exists(MKDOCS), f"{MKDOCS} is not installed")
    def test_a_mkdocs_build_shows_the_warning_beside_the_table(self):
        write(self.root, "docs/index.md", self.page)
        write(self.root, "mkdocs.yml", textwrap.dedent(f"""\
            site_name: t
            theme: mkdocs
            hooks:
              - {HOOK}
              - {SNIPPETS_HOOK}
            markdown_extensions:
              - admonition
              - tables
            """))
        result = subprocess.run([MKDOCS, "build", "-q"], cwd=self.root, capture_output=True,
                                text=True, timeout=120,
                                env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(self.root, "site", "index.html"), encoding="utf-8") as f:
            site = f.read()
        self.assertIn('class="admonition warning"', site)
        self.assertIn("MatMul: a faster kernel", site)
        self.assertIn("<td>1024</td>", site)


if __name__ == "__main__":
    unittest.main()
