"""A TensorFlow server of a one-task cluster on localhost:PORT, for minitf's
client to run on; prints "ready" once it serves, and serves until killed or
for SECONDS.
Usage: tf_server.py <port> [<seconds>]"""
import sys
import time

import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
cluster = tf.train.ClusterSpec({"worker": ["localhost:" + sys.argv[1]]})
server = tf.distribute.Server(cluster, "worker", 0)
print("ready", flush=True)
time.sleep(float(sys.argv[2]) if len(sys.argv) > 2 else 120)
