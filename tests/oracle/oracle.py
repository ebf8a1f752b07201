"""The oracle: a seed program in minitf against its twin in TensorFlow.

   oracle.py <program> <path of the C++ program>     (run by oracle.sh)

Runs the C++ program (chapters/NN-*/programs/<program>.cc) and its twin
(twins/<program>.py: the seed's own lines under tf.compat.v1), each in a
fresh folder with its graphs written (MINITF_DUMP_GRAPHDEF; run_twin.py for
TensorFlow), and compares:

  output     the printed lines, one for one: the text between the numbers
             exactly, whole numbers exactly, the others within the program's
             tolerance (PROGRAMS says why each is what it is), and printed
             with the digits Python prints (output digits);
  graphs     each session's GraphDef, node for node: name, op, data inputs,
             control inputs, requested device. minitf's GraphDef has
             TensorFlow's field numbers, so TensorFlow's graph_pb2 reads it;
  placement  the log_device_placement lines, "name: (Op): device", per node
             and session;
  errors     the errors printed (class and text, as lines of the output),
             after taking off what TensorFlow 2 adds to TensorFlow 1.15's
             text (TF2_ADDITIONS); for a device that does not exist, the seed
             shows its own text and the seed's wins: minitf must print it,
             with TensorFlow's class for the same device, and TensorFlow's
             text is listed beside (placement_errors);
  device mapping  minitf's "Device mapping:" lines against TensorFlow's log.

Two parts of the graphs are sub-checks of their own: the gradient subgraph
(nodes under gradients/, and the inputs other nodes take from it) and seed
003's Saver subgraph (save/), in the graphs and the placement logs. Where a
program's entry in EXPECTED_TO_DIFFER names one (today only the Saver's,
whose nodes differ by design), its differences are listed as expected
failures and do not fail the test; the day they vanish, the test fails to
say the entry must go.
Everything else fails the test on any difference.

Exit status: 0 when everything compared matches (or differs only where
expected), 1 otherwise, 77 (CTest's skip) when the data a program needs is
missing.
"""
import dataclasses
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy

# The twin runs with TensorFlow's log on (the device mapping is in it); the
# driver reads graphs with TensorFlow's graph_pb2 and wants no log of its own.
TWIN_ENV = dict(os.environ, PYTHONUNBUFFERED="1", CUDA_VISIBLE_DEVICES="")
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
from tensorflow.core.framework import graph_pb2  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77


@dataclasses.dataclass
class Tolerance:
    abs: float
    rel: float
    why: str


@dataclasses.dataclass
class Program:
    args: list  # for both the C++ program and its twin
    tolerance: Tolerance
    needs_data: bool = False


LINEAR_REGRESSION = Tolerance(
    abs=1e-4, rel=1e-5,
    why="float32 gradient descent comes to rest where its gradient is lost "
    "in rounding: sums of 7 terms up to |x * (y - out)| = 140, added in "
    "another order by each engine's Eigen, are uncertain by about 1e-5, and "
    "so are w and b where the iteration stops (the loss curves by 0.89 in its "
    "flattest direction); on the way there a value moves by an ulp or two "
    "(relative 1e-5)")
SOFTMAX = Tolerance(
    abs=0.003, rel=0.0,
    why="the same batches from the same zero weights; the 784-term dot "
    "products and the 100-example gradient sums round differently in the two "
    "engines' matmul kernels, which after thousands of steps moves a few of "
    "the 10,000 test predictions that lie near a tie between two classes: "
    "0.003 is 30 of them")

PROGRAMS = {
    # 2 x 3 times 3 x 2 of small whole numbers: every product and sum is
    # exact in float32, whatever the order.
    "seed_matmul": Program([], Tolerance(0.0, 0.0, "whole numbers, exact in float32")),
    "seed_linear_regression": Program([], LINEAR_REGRESSION),
    "seed_softmax_regression": Program([], SOFTMAX, needs_data=True),
    "seed_single_machine": Program(["ckpt"], SOFTMAX, needs_data=True),
    # Chapter 4 adds the placement, not the training, which chapter 3 checks
    # for all 100,000 steps.
    "seed_device_placement": Program(["--steps", "2000"], LINEAR_REGRESSION),
    # tensorflow-cpu has no GPUs: minitf runs with no virtual GPUs either.
    "using_gpus": Program(["0"], Tolerance(0.0, 0.0, "whole numbers, exact in float32")),
}

# Sub-checks whose differences are known, per program, and why.
SAVER_DIFFERS = (
    "minitf's Saver saves by fetching the variables and restores by feeding "
    "save/restore_value placeholders to save/Assign; TensorFlow's builds "
    "SaveV2 and RestoreV2 nodes")
EXPECTED_TO_DIFFER = {
    "seed_single_machine": {"graph: saver": SAVER_DIFFERS},
}

# What TensorFlow 2.x adds to the text of TensorFlow 1.15's errors, which
# minitf prints where the seed shows no text of its own: a header naming
# where the node was defined, and a sentence for a GPU asked of a build
# without CUDA.
TF2_ADDITIONS = [
    (re.compile(r"Graph execution error:\n\nDetected at node '[^']*' defined at "
                r"\(most recent call last\):\n(?:    File .*\n)*Node: '[^']*'\n"),
     "the header 'Graph execution error: Detected at node ... defined at (most "
     "recent call last): <traceback> Node: ...'"),
    (re.compile(r" The requested device appears to be a GPU, but CUDA is not enabled\."),
     "the sentence 'The requested device appears to be a GPU, but CUDA is not "
     "enabled.'"),
]
# A device that does not exist: the seed (TensorFlow 0.x) shows its text,
# and the seed's text wins, so minitf prints that wording (chapter 4) and
# TensorFlow 2.21 another, naming the op it failed to place rather than the
# node whose request names the missing device. The oracle checks that minitf
# prints the seed's wording, that both engines raise the same error
# class, and lists TensorFlow's text as the difference.
SEED_001_ERROR = ("InvalidArgumentError: Invalid argument: Cannot assign a device "
                  "to node 'b': Could not satisfy explicit device specification '/gpu:2'")
SEED_PLACEMENT_ERROR = re.compile(
    r"^(\w+Error): Invalid argument: Cannot assign a device to node '[^']+': "
    r"Could not satisfy explicit device specification '/gpu:(\d+)'$")
SEED_PLACEMENT_SUMMARY = re.compile(r"^\t \[\[Node: .*\]\]$")
TF_PLACEMENT_ERROR = re.compile(
    r"^(\w+Error): Cannot assign a device for operation \S+: \{\{node \S+\}\} was "
    r"explicitly assigned to /device:GPU:(\d+) but available devices are .*$")
TF_PLACEMENT_SUMMARY = re.compile(r"^\t \[\[\S+\]\]$")


def placement_errors(ours, theirs):
    """Takes the missing-device errors out of both outputs' lines, pairing
    them in order; returns (our lines, their lines, problems, differences).
    A pair agrees when both raise the same class and minitf's text is in the
    seed's wording (the first one the seed's very text); each is replaced by
    one line both share, so the rest of the output is compared as usual."""

    def take(lines, error, summary):
        found, kept = [], []
        i = 0
        while i < len(lines):
            m = error.match(lines[i])
            if m:
                text = lines[i]
                if i + 1 < len(lines) and summary.match(lines[i + 1]):
                    text += "\n" + lines[i + 1]
                    i += 1
                found.append((m.group(1), m.group(2), text))
                kept.append(len(found) - 1)
            else:
                kept.append(lines[i])
            i += 1
        return found, kept

    our_errors, our_kept = take(ours, SEED_PLACEMENT_ERROR, SEED_PLACEMENT_SUMMARY)
    their_errors, their_kept = take(theirs, TF_PLACEMENT_ERROR, TF_PLACEMENT_SUMMARY)
    problems, differences = [], []
    if len(our_errors) != len(their_errors):
        problems.append(f"minitf raised {len(our_errors)} missing-device errors in the "
                        f"seed's wording, TensorFlow {len(their_errors)}")
    for k, (a, b) in enumerate(zip(our_errors, their_errors)):
        # The class must agree. The device may not: where several requests
        # name missing GPUs, TensorFlow 0.x (whose order minitf follows)
        # met another node first than TensorFlow 2.21 does.
        if a[0] != b[0]:
            problems.append(f"minitf {a[0]} for /gpu:{a[1]}, TensorFlow {b[0]} for GPU:{b[1]}")
        else:
            differences.append(f"minitf (the seed's wording): {a[2]!r}\n"
                               f"          TensorFlow 2.21: {b[2]!r}")
    if our_errors and SEED_001_ERROR not in our_errors[0][2]:
        problems.append(f"minitf's first error is not the seed's text: {our_errors[0][2]!r}")

    def lines_of(kept, errors):
        return [f"{errors[x][0]}: <a device that does not exist>"
                if isinstance(x, int) else x for x in kept]

    return (lines_of(our_kept, our_errors), lines_of(their_kept, their_errors),
            problems, differences)


PLACEMENT = re.compile(r"^(\S+): \((\w+)\): (/job:\S+)$")
DEVICE_MAPPING = "Device mapping:"
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|\bnan\b|\binf\b")


class Report:
    SHOWN = 12  # differences listed per check

    def __init__(self):
        self.failures = 0

    def _list(self, problems):
        for p in problems[: self.SHOWN]:
            print(f"        {p}")
        if len(problems) > self.SHOWN:
            print(f"        ... and {len(problems) - self.SHOWN} more")

    def check(self, name, problems, detail=""):
        if problems:
            self.failures += 1
            print(f"FAIL  {name}: {len(problems)} difference(s){detail}")
            self._list(problems)
        else:
            print(f"ok    {name}{detail}")

    def expected(self, name, problems, why):
        if problems:
            print(f"XFAIL {name}: {len(problems)} difference(s), expected: {why}")
            self._list(problems)
        else:
            self.failures += 1
            print(f"FAIL  {name}: expected to differ ({why}) but matches: "
                  f"take it out of EXPECTED_TO_DIFFER in {os.path.basename(__file__)}")


def run(argv, cwd, env):
    start = time.monotonic()
    p = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    return p, time.monotonic() - start


# --- Output ------------------------------------------------------------------

def split_output(stdout):
    """The lines of stdout as (other lines, placement blocks, device mappings):
    a placement block is the run of log lines of one session's placement, as
    {node: (op, device)}; a device mapping is minitf's "Device mapping:" line
    with the lines that list the devices, which TensorFlow logs instead."""
    lines, blocks, mappings = [], [], []
    in_block = False
    for line in stdout.splitlines():
        m = PLACEMENT.match(line)
        if m:
            if not in_block:
                blocks.append({})
            blocks[-1][m.group(1)] = (m.group(2), m.group(3))
            in_block = True
            continue
        in_block = False
        if line.startswith(DEVICE_MAPPING):
            mappings.append(line)
        elif mappings and line.startswith("/job:") and " -> device: " in line:
            mappings[-1] += "\n" + line
        else:
            lines.append(line)
    return lines, blocks, mappings


def strip_tf2_additions(text):
    for pattern, _ in TF2_ADDITIONS:
        text = pattern.sub("", text)
    return text


def python_style(token):
    """True when a float's digits are those Python's format() gives a NumPy
    float32, as the seeds print theirs ('{}'.format(loss_val)): the repr of
    the float32 widened to a double (0.07999999821186066 for 0.08f), and not
    also the float32's own shortest digits."""
    value = numpy.float32(token)
    return token == repr(float(value)) and token != str(value)


def compare_lines(ours, theirs, tol):
    """The problems with the values, those with the digits, and the largest
    difference (absolute, relative) of the numbers compared within the
    tolerance. A float that TensorFlow's twin prints with Python's format()
    digits must be printed with them by minitf too."""
    values, digits = [], []
    worst = [0.0, 0.0]
    if len(ours) != len(theirs):
        values.append(f"minitf printed {len(ours)} lines, TensorFlow {len(theirs)}")
    for i, (a, b) in enumerate(zip(ours, theirs)):
        na, nb = NUMBER.findall(a), NUMBER.findall(b)
        both = f"line {i + 1}: minitf {a!r}\n          TensorFlow {b!r}"
        if NUMBER.sub("#", a) != NUMBER.sub("#", b) or len(na) != len(nb):
            values.append(both)
            continue
        value_ok, digits_ok = True, True
        for x, y in zip(na, nb):
            if not re.search(r"[.eEna]", x + y):  # whole numbers
                value_ok &= x == y
                continue
            fx, fy = float(x), float(y)
            d = abs(fx - fy)
            r = d / max(abs(fx), abs(fy)) if d else 0.0
            worst[0], worst[1] = max(worst[0], d), max(worst[1], r)
            value_ok &= d <= tol.abs or r <= tol.rel
            digits_ok &= python_style(x) or not python_style(y)
        if not value_ok:
            values.append(both)
        if not digits_ok:
            digits.append(both)
    return values, digits, worst


# --- Graphs ------------------------------------------------------------------

GRADIENT = re.compile(r"^gradients(_\d+)?/")
SAVER = re.compile(r"^save(_\d+)?/")


def sub_check_of(name):
    if GRADIENT.match(name):
        return "gradients"
    if SAVER.match(name):
        return "saver"
    return "forward"


def read_graphs(folder):
    graphs = []
    k = 0
    while os.path.exists(os.path.join(folder, f"session_{k}.pb")):
        gd = graph_pb2.GraphDef()
        with open(os.path.join(folder, f"session_{k}.pb"), "rb") as f:
            gd.ParseFromString(f.read())
        graphs.append({n.name: n for n in gd.node})
        k += 1
    return graphs


def describe(node):
    data = [i for i in node.input if not i.startswith("^")]
    control = [i for i in node.input if i.startswith("^")]
    return {"op": node.op, "inputs": data, "control inputs": control,
            "device": node.device}


def compare_graphs(ours, theirs):
    """Differences by sub-check: {"forward" | "gradients" | "saver": [...]}."""
    found = {"forward": [], "gradients": [], "saver": []}
    if len(ours) != len(theirs):
        found["forward"].append(f"minitf ran {len(ours)} sessions' graphs, "
                                f"TensorFlow {len(theirs)}")
    for k, (g, h) in enumerate(zip(ours, theirs)):
        where = f"session {k}: " if len(ours) > 1 else ""
        for name in sorted(set(g) | set(h)):
            if name not in h:
                found[sub_check_of(name)].append(
                    f"{where}{name} ({g[name].op}) only in minitf's graph")
                continue
            if name not in g:
                found[sub_check_of(name)].append(
                    f"{where}{name} ({h[name].op}) only in TensorFlow's graph")
                continue
            a, b = describe(g[name]), describe(h[name])
            for field in a:
                if a[field] == b[field]:
                    continue
                # A node outside the gradient subgraph whose inputs differ
                # only in what they take from it belongs to that sub-check.
                part = sub_check_of(name)
                if part != "gradients" and field != "op" and field != "device":
                    changed = set(a[field]) ^ set(b[field])
                    if changed and all(GRADIENT.match(i.lstrip("^")) for i in changed):
                        part = "gradients"
                found[part].append(f"{where}{name}: {field} {a[field]} in minitf, "
                                   f"{b[field]} in TensorFlow")
    return found


# --- Placement ---------------------------------------------------------------

def compare_placement(ours, theirs):
    found = {"forward": [], "gradients": [], "saver": []}
    if len(ours) != len(theirs):
        found["forward"].append(f"minitf logged {len(ours)} placements, TensorFlow "
                                f"{len(theirs)}")
    for k, (a, b) in enumerate(zip(ours, theirs)):
        where = f"session {k}: " if len(ours) > 1 else ""
        for name in sorted(set(a) | set(b)):
            if a.get(name) != b.get(name):
                found[sub_check_of(name)].append(
                    f"{where}{name}: {a.get(name, 'not logged')} in minitf, "
                    f"{b.get(name, 'not logged')} in TensorFlow")
    return found


def tf_device_mappings(stderr):
    """The "Device mapping:" messages in TensorFlow's log."""
    found = []
    for line in stderr.splitlines():
        m = re.search(r"direct_session\.cc:\d+\] (Device mapping:.*)$", line)
        if m:
            found.append(m.group(1))
    return found


# --- The test ----------------------------------------------------------------

def main():
    if len(sys.argv) != 3 or sys.argv[1] not in PROGRAMS:
        print(f"usage: oracle.py <program> <path of the C++ program>; programs: "
              f"{', '.join(PROGRAMS)}")
        return 2
    name, binary = sys.argv[1], os.path.abspath(sys.argv[2])
    if not os.access(binary, os.X_OK):
        print(f"FAIL  {name}: no program at {binary}: build it first")
        return 1
    spec = PROGRAMS[name]
    expected = EXPECTED_TO_DIFFER.get(name, {})
    if spec.needs_data:
        sys.path.insert(0, os.path.join(HERE, "twins"))
        import input_data
        data = input_data.default_data_dir()
        if not os.path.exists(os.path.join(data, "train-images-idx3-ubyte.gz")):
            print(f"SKIP: no MNIST-format files in {data} (Debian's "
                  "dataset-fashion-mnist installs them)")
            return SKIP

    with tempfile.TemporaryDirectory(prefix=f"oracle-{name}-") as tmp:
        folders = {}
        for who in ("minitf", "tensorflow"):
            folders[who] = os.path.join(tmp, who)
            os.makedirs(os.path.join(folders[who], "graphs"))
        env = dict(os.environ)
        # The C++ program as its own tests run it: no virtual GPUs from the
        # environment, none hidden.
        for var in ("MINITF_VIRTUAL_GPUS", "CUDA_VISIBLE_DEVICES"):
            env.pop(var, None)
        env["MINITF_DUMP_GRAPHDEF"] = os.path.join(folders["minitf"], "graphs")
        ours, our_s = run([binary] + spec.args, folders["minitf"], env)
        theirs, their_s = run(
            [sys.executable, os.path.join(HERE, "run_twin.py"),
             os.path.join(folders["tensorflow"], "graphs"),
             os.path.join(HERE, "twins", name + ".py")] + spec.args,
            folders["tensorflow"], TWIN_ENV)
        print(f"{name}: minitf {our_s:.1f} s, TensorFlow (with its import) {their_s:.1f} s")

        report = Report()
        report.check("exit status",
                     [] if ours.returncode == theirs.returncode == 0 else
                     [f"minitf {ours.returncode}, TensorFlow {theirs.returncode}",
                      "minitf's stderr: " + ours.stderr[-2000:],
                      "TensorFlow's stderr: " + theirs.stderr[-4000:]])
        if report.failures:
            return 1

        our_lines, our_blocks, our_maps = split_output(ours.stdout)
        their_lines, their_blocks, _ = split_output(
            strip_tf2_additions(theirs.stdout))
        our_lines, their_lines, error_problems, error_differences = placement_errors(
            our_lines, their_lines)
        values, digits, worst = compare_lines(our_lines, their_lines, spec.tolerance)
        print(f"      tolerance: absolute {spec.tolerance.abs}, relative "
              f"{spec.tolerance.rel}: {spec.tolerance.why}")
        report.check("output", values,
                     f" ({len(our_lines)} lines; largest difference {worst[0]:.3g}, "
                     f"relative {worst[1]:.3g})")
        report.check("output digits", digits)
        tf2_texts = [why for pattern, why in TF2_ADDITIONS if pattern.search(theirs.stdout)]
        if tf2_texts:
            print("      TensorFlow 2 adds to the errors' text, taken off before comparing: "
                  + "; ".join(tf2_texts))
        if error_differences or error_problems:
            report.check("errors: class as TensorFlow's, text as the seed's",
                         error_problems)
            print("      the texts, where the seed's wording wins over TensorFlow 2.21's:")
            report._list(error_differences)

        their_graphs = read_graphs(os.path.join(folders["tensorflow"], "graphs"))
        graphs = compare_graphs(read_graphs(os.path.join(folders["minitf"], "graphs")),
                                their_graphs)
        placement = compare_placement(our_blocks, their_blocks)
        for part, found in (("graph", graphs), ("placement", placement)):
            for sub in ("forward", "gradients", "saver"):
                label = f"{part}: {sub}" if sub != "forward" else part
                if label in expected:
                    report.expected(label, found[sub], expected[label])
                elif found[sub] or sub == "forward":
                    report.check(label, found[sub])
        if our_blocks or their_blocks:
            print(f"      {sum(len(b) for b in our_blocks)} placements logged by minitf, "
                  f"{sum(len(b) for b in their_blocks)} by TensorFlow")

        their_maps = tf_device_mappings(theirs.stderr)
        if our_maps or their_maps:
            report.check("device mapping", [] if our_maps == their_maps else
                         [f"minitf printed {our_maps}, TensorFlow logged {their_maps}"],
                         " (minitf prints it on stdout; TensorFlow logs it on stderr)")
        return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
