# Seed 000's second program, the twin of chapter 4's seed_device_placement.cc:
# the model under tf.device("/device:cpu:0"), the placement logged. The
# seed's print(device_lib.list_local_devices()) is list_devices.cc's, not
# this program's. `--steps N` runs N steps instead of the seed's 100000.
import sys

import tensorflow.compat.v1 as tf  # TF 2: TF 1.x's API is tf.compat.v1

tf.disable_v2_behavior()

steps = int(sys.argv[2]) if len(sys.argv) == 3 and sys.argv[1] == "--steps" else 100000

tf.reset_default_graph()

with tf.device("/device:cpu:0"):
    # create w and b init 0.0
    w = tf.Variable(0.0, name='weight')
    b = tf.Variable(0.0, name='bias')

    # create input and out
    x = tf.placeholder(dtype=tf.float32, shape=[None])
    out = tf.placeholder(dtype=tf.float32, shape=[None])

    # create loss and opt
    y = w * x + b


loss = tf.reduce_mean(tf.square(y - out))
optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.01)
train_op = optimizer.minimize(loss)

config = tf.ConfigProto()
config.log_device_placement = True

# train model
with tf.Session(config=config) as sess:
    tf.global_variables_initializer().run(session=sess)
    for i in range(steps):
        _, loss_val, w_val, b_val = sess.run(
            [train_op, loss, w, b],
            feed_dict={x: [1, 23, 4, 5, 7, 5, 7], out: [3, 5, 7, 9, 11, 13, 15]}
        )
        if i % 100 == 0:
            print('Step {}: loss = {}, w = {}, b = {}'.format(i, loss_val, w_val, b_val))
