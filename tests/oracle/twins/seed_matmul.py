# Seed 001's first snippet, the twin of chapter 2's seed_matmul.cc:
# two constants and their product, run in a Session.
import tensorflow.compat.v1 as tf  # TF 2: TF 1.x's API is tf.compat.v1

tf.disable_v2_behavior()

a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
c = tf.matmul(a, b)
sess = tf.Session()
print(sess.run(c))  # TF 2: print is a function
# seed_matmul.cc's last line, which is not the seed's.
print("\nc is", c)
