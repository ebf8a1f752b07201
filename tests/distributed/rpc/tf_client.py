"""A TensorFlow client on a minitf server: seed 001's matmul through
tf.compat.v1.Session("grpc://localhost:PORT"), which must print TensorFlow's
[[22. 28.]
 [49. 64.]]
Usage: tf_client.py <port>"""
import sys

import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
a = tf.constant([[1., 2., 3.], [4., 5., 6.]])
b = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
c = tf.matmul(a, b)
config = tf.ConfigProto(operation_timeout_in_ms=30000)
with tf.Session("grpc://localhost:%s" % sys.argv[1], config=config) as sess:
    print(sess.run(c))
