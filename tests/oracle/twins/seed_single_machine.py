# Seed 003's single-machine program, the twin of chapter 3's
# seed_single_machine.cc, with that program's additions to the seed: seed
# 002's model, a global_step variable, a restore when the folder already
# holds a checkpoint, and the seed's typos mended (`y_=batch_ys`,
# `if i%100 = 0`). input_data is this folder's (TF 2 has none): the same
# batches as the C++ program's, in the same order.
#   seed_single_machine.py [<checkpoint folder>]
import os
import sys
import tempfile

import input_data
import tensorflow.compat.v1 as tf  # TF 2: TF 1.x's API is tf.compat.v1

tf.disable_v2_behavior()

ckpt_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tempfile.gettempdir(), "tf-seed-003")
os.makedirs(ckpt_dir, exist_ok=True)
mnist = input_data.read_data_sets(input_data.default_data_dir(), one_hot=True)

x = tf.placeholder(tf.float32, [None, 784])
W = tf.Variable(tf.zeros([784, 10]))
b = tf.Variable(tf.zeros([10]))
y = tf.nn.softmax(tf.matmul(x, W) + b)
y_ = tf.placeholder(tf.float32, [None, 10])
cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
global_step = tf.Variable(0, dtype=tf.int64, name="global_step", trainable=False)
train_step = tf.train.GradientDescentOptimizer(0.1).minimize(
    cross_entropy, global_step=global_step)

saver = tf.train.Saver()
sess = tf.InteractiveSession()
last = tf.train.latest_checkpoint(ckpt_dir)
if last:
    saver.restore(sess, last)
    print("Restored %s at step %d" % (last, global_step.eval()))
else:
    tf.global_variables_initializer().run()

for i in range(1000):
    batch_xs, batch_ys = mnist.train.next_batch(100)
    sess.run(train_step, feed_dict={x: batch_xs, y_: batch_ys})
    if i % 100 == 0:
        saver.save(sess, ckpt_dir + "/mnist.ckpt")
        print("Step %d: saved %s/mnist.ckpt" % (global_step.eval(), ckpt_dir))
correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
acc = sess.run(accuracy, feed_dict={x: mnist.test.images, y_: mnist.test.labels})
print("Test accuracy after %d steps: %.4f" % (global_step.eval(), acc))
