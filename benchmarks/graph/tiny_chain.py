"""What the peers' scripts of the tiny-op chain share (tf_tiny_ops.py,
torch_tiny_ops.py): the chain's length, their command line and the timer.

  reps, runs = tiny_chain.parse_args()   # [--quick] [--runs N]
  seconds = tiny_chain.best_seconds(reps, fn)
"""
import argparse
import time

CHAIN = 1000


def parse_args():
    """Returns (repetitions a run takes the best of, runs): 200 and 5, or
    20 and 1 with --quick; --runs N sets the runs."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int)
    args = parser.parse_args()
    return (20 if args.quick else 200), (args.runs or (1 if args.quick else 5))


def best_seconds(reps, fn):
    """The best of `reps` wall times of fn(), in seconds."""
    best = float("inf")
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best
