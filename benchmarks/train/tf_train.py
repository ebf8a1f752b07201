"""TensorFlow's side of chapter 3's training benchmark (train_bench.cc), in
graph mode (tf.compat.v1): the same two models, built with the same ops as
minitf builds them, the same optimizer settings, batch size, random data and
timing, so that the ratio of the two is the engines' alone.

  softmax regression: y = tf.nn.softmax(x W + b),
                      loss = reduce_mean(-reduce_sum(y_ * log(y), 1)),
                      W and b zero, GradientDescentOptimizer(0.1);
  MLP 784-256-10:     relu(x W1 + b1) W2 + b2, the fused
                      softmax_cross_entropy_with_logits, weights
                      truncated_normal(stddev 0.05), biases zero,
                      AdamOptimizer(0.001).

The session runs with intra_op_parallelism_threads and
inter_op_parallelism_threads both set to --threads, and TensorFlow's default
graph optimizations (Grappler on). A training step is run through
sess.make_callable(train_step, [x, y_]), TensorFlow's handle to one cached
signature, fed with NumPy arrays made before the clock starts.

Each timed window starts from freshly initialised variables. Prints, last,
machine-readable lines that compare.sh hands to train_bench --peers, which
puts them in its table:
  peer tf <name>
  peer_setup tf <how it ran>
  examples_per_s tf <model> <threads> <examples/s of each window...>
Usage: <peers' python> tf_train.py [--quick] [--threads N]
"""
import argparse
import os
import time
from statistics import median

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402

tf.get_logger().setLevel("ERROR")  # Deprecation notices of tf.compat.v1.
tf.disable_v2_behavior()

BATCH, PIXELS, CLASSES, HIDDEN = 100, 784, 10, 256


def random_batches(count):
    rng = np.random.default_rng(1)
    xs = [rng.random((BATCH, PIXELS), dtype=np.float32) for _ in range(count)]
    ys = []
    for _ in range(count):
        y = np.zeros((BATCH, CLASSES), np.float32)
        y[np.arange(BATCH), rng.integers(0, CLASSES, BATCH)] = 1
        ys.append(y)
    return xs, ys


def softmax_regression(x, y_):
    w = tf.Variable(tf.zeros([PIXELS, CLASSES]))
    b = tf.Variable(tf.zeros([CLASSES]))
    y = tf.nn.softmax(tf.matmul(x, w) + b)
    loss = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
    return loss, tf.train.GradientDescentOptimizer(0.1).minimize(loss)


def mlp(x, y_):
    w1 = tf.Variable(tf.truncated_normal([PIXELS, HIDDEN], stddev=0.05))
    b1 = tf.Variable(tf.zeros([HIDDEN]))
    w2 = tf.Variable(tf.truncated_normal([HIDDEN, CLASSES], stddev=0.05))
    b2 = tf.Variable(tf.zeros([CLASSES]))
    hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
    logits = tf.matmul(hidden, w2) + b2
    loss = tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=logits))
    return loss, tf.train.AdamOptimizer(0.001).minimize(loss)


def products(graph):
    """The matrix products in `graph`: MatMul ops, before any rewrite."""
    return sum(1 for op in graph.get_operations() if op.type == "MatMul")


def traced_products(sess, train_step, feeds):
    """The matrix products one traced step runs, after Grappler's rewrites:
    MatMul and the fused kinds (_FusedMatMul, oneDNN's _Mkl* ones)."""
    meta = tf.RunMetadata()
    sess.run(train_step, feeds,
             options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
             run_metadata=meta)
    return sum(1 for dev in meta.step_stats.dev_stats
               for node in dev.node_stats
               if "MatMul(" in node.timeline_label)


def examples_per_second(build, threads, data, windows, steps):
    """Examples/s of each timed window, the loss after them, and the
    products of the graph and of one traced step."""
    xs, ys = data
    pool = len(xs)
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [None, PIXELS])
        y_ = tf.placeholder(tf.float32, [None, CLASSES])
        loss, train_step = build(x, y_)
        init = tf.global_variables_initializer()
    config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                            inter_op_parallelism_threads=threads)
    with tf.Session(graph=graph, config=config) as sess:
        step = sess.make_callable(train_step, [x, y_])
        sess.run(init)
        for i in range(20):  # Plans the run; warms the caches.
            step(xs[i % pool], ys[i % pool])
        rates = []
        for _ in range(windows):
            sess.run(init)
            start = time.perf_counter()
            for i in range(steps):
                step(xs[i % pool], ys[i % pool])
            rates.append(steps * BATCH / (time.perf_counter() - start))
        last_loss = sess.run(loss, {x: xs[0], y_: ys[0]})
        ran = traced_products(sess, train_step, {x: xs[0], y_: ys[0]})
    return rates, last_loss, (products(graph), ran)


def onednn():
    """Whether TensorFlow's oneDNN kernels are on, as TensorFlow decides it:
    on Linux x86, by default for CPUs with AVX-512 VNNI, AVX-VNNI or AMX;
    TF_ENABLE_ONEDNN_OPTS=0 or 1 overrides. Where ONEDNN_MAX_CPU_ISA limits
    oneDNN's instruction sets (compare.sh --isa avx2), so says the text."""
    from tensorflow.python.util import _pywrap_util_port
    on = _pywrap_util_port.IsMklEnabled()
    limit = os.environ.get("ONEDNN_MAX_CPU_ISA")
    limited = f" (ONEDNN_MAX_CPU_ISA={limit})" if limit else ""
    return ("on" if on else "off") + limited


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    data = random_batches(10 if args.quick else 60)
    windows = 2 if args.quick else 7

    print(f"TensorFlow {tf.__version__} graph mode, {args.threads} intra-op and"
          f" inter-op thread(s), oneDNN {onednn()}")
    softmax_rates, loss, _ = examples_per_second(
        softmax_regression, args.threads, data, windows,
        200 if args.quick else 2000)
    print(f"  softmax regression, GD 0.1  : {median(softmax_rates):10.0f}"
          f" examples/s  (loss {loss:.3f})")
    mlp_rates, loss, (built, ran) = examples_per_second(
        mlp, args.threads, data, windows, 20 if args.quick else 300)
    print(f"  MLP 784-256-10, Adam 0.001  : {median(mlp_rates):10.0f}"
          f" examples/s  (loss {loss:.3f})")
    print(f"peer tf TensorFlow {tf.__version__}")
    print("peer_setup tf graph mode (tf.compat.v1), a training step run"
          " through sess.make_callable, intra-op and inter-op threads as"
          " many as minitf's, default graph optimizations, oneDNN"
          f" {onednn()}; of the MLP graph's {built} matrix products, a traced"
          f" step runs {ran}")
    for model, rates in (("softmax", softmax_rates), ("mlp", mlp_rates)):
        print(f"examples_per_s tf {model} {args.threads} "
              + " ".join(f"{r:.0f}" for r in rates))


if __name__ == "__main__":
    main()
