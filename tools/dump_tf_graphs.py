#!/usr/bin/env python3
"""Writes TensorFlow's GraphDef of each training graph the course rebuilds.

Each graph is built as the seed programs and chapter 3's MLP build it, with
TensorFlow 2's tf.compat.v1 in graph mode (tf.disable_v2_behavior()), and
written one node a line, in the order TensorFlow created the nodes:

  name = Op(input, input:1, ^control) @device attr=value ...

Attrs are sorted by name; a tensor shows its dtype, shape and (up to 64)
values. Two attrs TensorFlow 1.x did not have are left out: TensorFlow 2's
`_has_manual_control_dependencies` (its mark for the automatic control
dependencies of tf.function) and MatMul's `grad_a` and `grad_b` (hints, set
by MatMul's gradient, that an operand is a gradient). tests/train/tf_graphs_test.cc builds the same graphs in
minitf, prints them the same way and compares line for line (seed_003_ps:
tests/distributed/training/replica_device_setter_test.cc).

  /path/to/venv-with-tensorflow/bin/python tools/dump_tf_graphs.py \
      tests/train/testdata/tf_graphs
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
tf.logging.set_verbosity(tf.logging.ERROR)

SKIPPED_ATTRS = {"_has_manual_control_dependencies", "grad_a", "grad_b"}


def dtype_name(enum):
    return tf.as_dtype(enum).name


def shape_text(shape):
    if shape.unknown_rank:
        return "<unknown>"
    return "[" + ",".join("?" if d.size < 0 else str(d.size)
                          for d in shape.dim) + "]"


def scalar_text(v, dtype):
    if dtype == "bool":
        return "true" if v else "false"
    if dtype in ("float32", "float64"):
        return "%.9g" % v if dtype == "float32" else "%.17g" % v
    return str(int(v))


def tensor_text(proto):
    arr = tf.make_ndarray(proto)
    dtype = dtype_name(proto.dtype)
    text = "%s[%s]" % (dtype, ",".join(str(d) for d in arr.shape))
    if arr.size <= 64:
        text += "{" + ",".join(scalar_text(v, dtype)
                               for v in arr.reshape(-1).tolist()) + "}"
    return text


def attr_text(value):
    kind = value.WhichOneof("value")
    if kind == "type":
        return dtype_name(value.type)
    if kind == "b":
        return "true" if value.b else "false"
    if kind == "i":
        return str(value.i)
    if kind == "f":
        return "%.9g" % value.f
    if kind == "s":
        return '"%s"' % value.s.decode()
    if kind == "shape":
        return shape_text(value.shape)
    if kind == "tensor":
        return tensor_text(value.tensor)
    if kind == "list":
        lst = value.list
        items = ([f'"{s.decode()}"' for s in lst.s] + [str(i) for i in lst.i] +
                 ["%.9g" % f for f in lst.f] +
                 [dtype_name(t) for t in lst.type] +
                 [shape_text(s) for s in lst.shape])
        return "[" + ",".join(items) + "]"
    return "<none>"


def node_text(node):
    line = "%s = %s(%s)" % (node.name, node.op, ", ".join(node.input))
    if node.device:
        line += " @" + node.device
    for key in sorted(node.attr):
        if key not in SKIPPED_ATTRS:
            line += " %s=%s" % (key, attr_text(node.attr[key]))
    return line


def seed_000():
    # Seed 000's linear regression (chapter 3's seed_linear_regression).
    w = tf.Variable(0.0, name="weight")
    b = tf.Variable(0.0, name="bias")
    x = tf.placeholder(dtype=tf.float32, shape=[None])
    out = tf.placeholder(dtype=tf.float32, shape=[None])
    y = w * x + b
    loss = tf.reduce_mean(tf.square(y - out))
    optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.01)
    optimizer.minimize(loss)


def seed_000_device():
    # Seed 000's second program (chapter 4's seed_device_placement).
    with tf.device("/device:cpu:0"):
        w = tf.Variable(0.0, name="weight")
        b = tf.Variable(0.0, name="bias")
        x = tf.placeholder(dtype=tf.float32, shape=[None])
        out = tf.placeholder(dtype=tf.float32, shape=[None])
        y = w * x + b
    loss = tf.reduce_mean(tf.square(y - out))
    optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.01)
    optimizer.minimize(loss)


def softmax_model():
    x = tf.placeholder(tf.float32, [None, 784])
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))
    y = tf.nn.softmax(tf.matmul(x, W) + b)
    y_ = tf.placeholder(tf.float32, [None, 10])
    cross_entropy = tf.reduce_mean(
        -tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
    return cross_entropy


def seed_002():
    # Seed 002's softmax regression (chapter 3's seed_softmax_regression).
    tf.train.GradientDescentOptimizer(0.1).minimize(softmax_model())


def seed_003():
    # Seed 003's single-machine program: seed 002's model with a global step.
    cross_entropy = softmax_model()
    global_step = tf.Variable(np.int64(0), name="global_step",
                              trainable=False)
    tf.train.GradientDescentOptimizer(0.1).minimize(cross_entropy,
                                                    global_step=global_step)


def seed_003_ps():
    # Seed 003's program on a cluster, as worker 1 builds it: the variables
    # on the two ps tasks by replica_device_setter (chapter 7).
    cluster = tf.train.ClusterSpec({
        "ps": ["localhost:2222", "localhost:2223"],
        "worker": ["localhost:2224", "localhost:2225"]})
    with tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:1", cluster=cluster)):
        seed_003()


def mlp():
    # Chapter 3's mlp: 784-256-10, ReLU, fused cross-entropy, Adam.
    tf.set_random_seed(1)
    x = tf.placeholder(tf.float32, [None, 784])
    y_ = tf.placeholder(tf.float32, [None, 10])
    W1 = tf.Variable(tf.truncated_normal([784, 256], 0.0, 0.05), name="W1")
    b1 = tf.Variable(tf.zeros([256]), name="b1")
    W2 = tf.Variable(tf.truncated_normal([256, 10], 0.0, 0.05), name="W2")
    b2 = tf.Variable(tf.zeros([10]), name="b2")
    hidden = tf.nn.relu(tf.matmul(x, W1) + b1)
    logits = tf.matmul(hidden, W2) + b2
    loss = tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=logits))
    tf.train.AdamOptimizer(0.001).minimize(loss)


GRAPHS = {
    "seed_000": seed_000,
    "seed_000_device": seed_000_device,
    "seed_002": seed_002,
    "seed_003": seed_003,
    "seed_003_ps": seed_003_ps,
    "mlp": mlp,
}


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
    for name, build in GRAPHS.items():
        graph = tf.Graph()
        with graph.as_default():
            build()
        path = os.path.join(out_dir, name + ".txt")
        with open(path, "w") as f:
            f.write("# TensorFlow %s's GraphDef of graph %s, written by\n"
                    "# tools/dump_tf_graphs.py (tf.compat.v1, graph mode). "
                    "Do not edit.\n" % (tf.__version__, name))
            for node in graph.as_graph_def().node:
                f.write(node_text(node) + "\n")
        print("wrote", path)


if __name__ == "__main__":
    main()
