"""TensorFlow's per-op cost on the chain graph_bench.cc times, in graph mode
(tf.compat.v1): y = ((x + 1) + 1) + ..., 1,000 Add nodes on 1-element
tensors, x a placeholder, run by a Session on one thread
(intra_op_parallelism_threads = inter_op_parallelism_threads = 1).

The first run plans the signature (feeds x, fetches y); the timed runs reuse
that plan, as minitf's timed Session::run does. Two ways of calling it:
  - sess.run(y, {x: value}), which parses its fetches and feeds in Python on
    every call;
  - sess.make_callable(y, [x]), TensorFlow's handle to one signature, which
    parses them once.
Grappler is turned off: left on, it folds the chain into a few Add nodes,
and the figure would no longer be the cost of 1,000 ops. A traced run
checks that 1,000 Add nodes do run, and a traced run with Grappler on
counts how many it leaves; both counts go under the table (a peer_note
line).

Each of --runs runs (default 5; 1 with --quick) takes the best of many
repetitions, and prints one machine-readable line per way of calling, which
compare.sh hands to graph_bench:
  peer_us|<label>|<us per op>
  peer_note|<sentence for the results>
Usage: <peers' python> tf_tiny_ops.py [--quick] [--runs N]
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402
from tiny_chain import CHAIN, best_seconds, parse_args  # noqa: E402

tf.get_logger().setLevel("ERROR")  # Deprecation notices of tf.compat.v1.
tf.disable_v2_behavior()


def traced_run(sess, y, feeds):
    """Runs y once, traced: its value and how many Add nodes ran."""
    meta = tf.RunMetadata()
    result = sess.run(y, feeds,
                      options=tf.RunOptions(
                          trace_level=tf.RunOptions.FULL_TRACE),
                      run_metadata=meta)
    adds = sum(1 for dev in meta.step_stats.dev_stats
               for node in dev.node_stats
               if node.node_name.startswith("Add"))
    return result, adds


def main():
    reps, runs = parse_args()
    x = tf.placeholder(tf.float32, [1], name="x")
    one = tf.constant([1.0], name="one")
    y = x
    for _ in range(CHAIN):
        y = tf.add(y, one)
    config = tf.ConfigProto(intra_op_parallelism_threads=1,
                            inter_op_parallelism_threads=1)
    x_value = np.zeros([1], np.float32)
    # What Grappler leaves of the chain, in a session of its own.
    with tf.Session(config=config) as sess:
        _, grappler_adds = traced_run(sess, y, {x: x_value})
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    with tf.Session(config=config) as sess:
        # Plans and caches the signature; the traced run counts the nodes
        # that ran.
        result, adds = traced_run(sess, y, {x: x_value})
        call = sess.make_callable(y, [x])
        call(x_value)
        run_us, callable_us = [], []
        for _ in range(runs):
            run_us.append(best_seconds(reps, lambda: sess.run(y, {x: x_value}))
                          * 1e6 / CHAIN)
            callable_us.append(best_seconds(reps, lambda: call(x_value))
                               * 1e6 / CHAIN)
    print(f"TensorFlow {tf.__version__} graph mode, 1 thread, Grappler off:"
          f" {CHAIN} chained adds on 1-element tensors")
    print(f"  result check: {result[0]:g} (expect {CHAIN}); Add nodes run:"
          f" {adds}")
    print(f"peer_note|TensorFlow {tf.__version__}'s traced runs of the chain:"
          f" {adds:,} `Add` nodes run with Grappler off, as timed here;"
          f" {grappler_adds:,} with Grappler on.")
    for us in run_us:
        print(f"peer_us|TensorFlow {tf.__version__}, `sess.run(y, feeds)`|"
              f"{us:.4f}")
    for us in callable_us:
        print(f"peer_us|TensorFlow {tf.__version__},"
              f" `sess.make_callable(y, [x])`|{us:.4f}")


if __name__ == "__main__":
    main()
