"""TensorFlow's side of placement_bench.cc's session figures: the same tower
model (tower_model.h), built with the same ops in graph mode
(tf.compat.v1), on three CPU devices (ConfigProto device_count {"CPU": 3}),
the towers on CPU:1 and CPU:2 in turn with every third left to the placer,
and their sum on CPU:0.

TensorFlow places and partitions a graph inside a session's first run, and
has no timer for those steps alone, so the figures are:
  - init: the first run of a fresh session, the initializer's, less a run
    on its cached plan. The first run hands the graph to the C++ session,
    places every node of it, then prunes the initializer's part, runs
    Grappler on it, partitions it and makes its kernels;
  - step: the first run of a training step after that, less a cached run:
    pruning, Grappler, partitioning and kernels for the step (the graph is
    placed already).
Each is measured once per fresh session, in several sessions; a cached run
is the best of three. Measured twice: with TensorFlow's default options, and
with Grappler turned off (minitf has no graph optimizer of the kind).
Prints, last, machine-readable lines that compare.sh hands to
placement_bench --tf, which puts them in its table:
  tf_version <version>
  tf_nodes <the graph's node count>
  tf_first_run_ms init <ms of each session...>      (default options)
  tf_first_run_ms step <ms...>
  tf_first_run_ms init_no_grappler <ms...>
  tf_first_run_ms step_no_grappler <ms...>
Usage: <peers' python> tf_placement.py [--quick]
"""
import os
import sys
import time
from statistics import median

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402

tf.get_logger().setLevel("ERROR")  # Deprecation notices of tf.compat.v1.
tf.disable_v2_behavior()

NODES = 10000
TOWER_DEVICES = 2


def build():
    """The tower model; returns its loss, its training ops and its
    initializer."""
    x = tf.placeholder(tf.float32, [1, 4], name="x")
    graph = tf.get_default_graph()
    towers, train_ops = [], []
    t = 0
    while len(graph.get_operations()) < NODES:
        slot = t % (TOWER_DEVICES + 1)
        device = f"/cpu:{slot + 1}" if slot < TOWER_DEVICES else None
        with tf.device(device), tf.name_scope(f"tower_{t}"):
            h = x
            weights = []
            for _ in range(8):
                weights.append(
                    tf.Variable(tf.constant(0.1, shape=[4, 4]), name="w"))
                h = tf.nn.relu(tf.matmul(h, weights[-1]))
            loss = tf.reduce_sum(tf.square(h))
            train_ops.append(
                tf.train.GradientDescentOptimizer(0.01).minimize(
                    loss, var_list=weights))
            towers.append(loss)
        t += 1
    with tf.device("/cpu:0"):
        total = tf.add_n(towers, name="total_loss")
    return total, train_ops, tf.global_variables_initializer()


def seconds(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def first_runs(graph, loss, train_ops, init, config, sessions):
    """The init and step figures of `sessions` fresh sessions, in
    seconds."""
    feeds = {graph.get_tensor_by_name("x:0"): np.zeros([1, 4], np.float32)}
    inits, steps = [], []
    for _ in range(sessions):
        with tf.Session(graph=graph, config=config) as sess:
            first = seconds(lambda: sess.run(init))
            cached = min(seconds(lambda: sess.run(init)) for _ in range(3))
            inits.append(first - cached)
            step = lambda: sess.run([loss, train_ops], feeds)  # noqa: E731
            first = seconds(step)
            cached = min(seconds(step) for _ in range(3))
            steps.append(first - cached)
    return inits, steps


def main():
    sessions = 1 if "--quick" in sys.argv else 5
    graph = tf.Graph()
    with graph.as_default():
        loss, train_ops, init = build()
    nodes = len(graph.get_operations())
    config = tf.ConfigProto(device_count={"CPU": TOWER_DEVICES + 1})
    init_s, step_s = first_runs(graph, loss, train_ops, init, config, sessions)
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    bare_init_s, bare_step_s = first_runs(graph, loss, train_ops, init, config,
                                          sessions)
    print(f"TensorFlow {tf.__version__}: a {nodes}-node tower model on CPU:0,"
          f" CPU:1 and CPU:2, first runs less cached ones")
    for what, (i, s) in (("default options", (init_s, step_s)),
                         ("Grappler off", (bare_init_s, bare_step_s))):
        print(f"  {what}:")
        print(f"    initializer's run (places the graph, plans its part):"
              f" {median(i) * 1e3:7.2f} ms")
        print(f"    training step's run (plans the step)                :"
              f" {median(s) * 1e3:7.2f} ms")
    print(f"tf_version {tf.__version__}")
    print(f"tf_nodes {nodes}")
    for what, values in (("init", init_s), ("step", step_s),
                         ("init_no_grappler", bare_init_s),
                         ("step_no_grappler", bare_step_s)):
        print(f"tf_first_run_ms {what} "
              + " ".join(f"{v * 1e3:.3f}" for v in values))


if __name__ == "__main__":
    main()
