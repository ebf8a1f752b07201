"""TensorFlow's client on a minitf server: several fetches in every order,
with mixed dtypes and repeats, each compared with the same run in a local
TensorFlow session. Prints one line per run and "all N runs agree"; exits 1
at the first difference.
Usage: tf_fetch_order.py <port>"""
import itertools
import sys

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
one = tf.constant([1.], name="one")
two = tf.constant([2., 2.], name="two")
three = tf.multiply(tf.constant([1., 1., 1.]), 3., name="three")
pair = tf.matmul(tf.constant([[1., 2.]], tf.float64),
                 tf.constant([[3.], [4.]], tf.float64), name="pair")
count = tf.constant([7, 8, 9, 10], name="count")

runs = [list(p) for s in ([one, two, three], [count, one, pair])
        for p in itertools.permutations(s)]
runs += [[pair, pair], [three, one, three], [count, pair, count, one]]

config = tf.ConfigProto(operation_timeout_in_ms=30000)
with tf.Session("grpc://localhost:%s" % sys.argv[1], config=config) as remote, \
        tf.Session() as local:
    for fetches in runs:
        names = "{" + ", ".join(f.name for f in fetches) + "}"
        got, want = remote.run(fetches), local.run(fetches)
        for i, (g, w) in enumerate(zip(got, want)):
            if g.dtype != w.dtype or not np.array_equal(g, w):
                print("%s: fetch %d (%s) is %r, expected %r"
                      % (names, i, fetches[i].name, g, w))
                sys.exit(1)
        print(names + ": as asked")
print("all %d runs agree" % len(runs))
