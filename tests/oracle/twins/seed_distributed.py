# Seed 003's distributed half in TensorFlow, the twin of chapter 7's
# seed_distributed.cc: its flags for asynchronous training (the
# --sync_replicas ones are not here), the same model and placement, the same
# batches (input_data is this folder's, seeded per task as the C++ program
# seeds its own). scripts/cluster.sh starts it as
# it starts the C++ program, one process per task:
#   scripts/cluster.sh tests/oracle/twins/seed_distributed.py <log dir>
# It runs TensorFlow's own cluster, so the chapter can set minitf's accuracy
# after 1000 asynchronous updates beside TensorFlow's, run for run.
import argparse
import os
import time

import input_data
import tensorflow.compat.v1 as tf  # TF 2: TF 1.x's API is tf.compat.v1

tf.disable_v2_behavior()

parser = argparse.ArgumentParser()
parser.add_argument("--ps_hosts", required=True)
parser.add_argument("--worker_hosts", required=True)
parser.add_argument("--job_name", required=True)
parser.add_argument("--task_index", type=int, default=0)
parser.add_argument("--learning_rate", type=float, default=0.1)
parser.add_argument("--train_steps", type=int, default=1000)
parser.add_argument("--batch_size", type=int, default=100)
parser.add_argument("--staleness_dir", default="")
FLAGS = parser.parse_args()

ps_hosts = FLAGS.ps_hosts.split(",")
cluster = tf.train.ClusterSpec({"ps": ps_hosts, "worker": FLAGS.worker_hosts.split(",")})
server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
if FLAGS.job_name == "ps":
    server.join()

with tf.device("/job:ps/task:0"):
    W = tf.Variable(tf.zeros([784, 10]), name="W")
    global_step = tf.Variable(0, dtype=tf.int64, name="global_step", trainable=False)
with tf.device("/job:ps/task:%d" % (1 % len(ps_hosts))):
    b = tf.Variable(tf.zeros([10]), name="b")
with tf.device("/job:worker/task:%d" % FLAGS.task_index):
    x = tf.placeholder(tf.float32, [None, 784])
    y_ = tf.placeholder(tf.float32, [None, 10])
    y = tf.nn.softmax(tf.matmul(x, W) + b)
    cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
    train_step = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(
        cross_entropy, global_step=global_step)
    correct = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
init = tf.global_variables_initializer()
is_chief = FLAGS.task_index == 0

mnist = input_data.read_data_sets(input_data.default_data_dir(), one_hot=True,
                                  seed=input_data.DEFAULT_SEED + FLAGS.task_index)
# The ps and this worker only, as seed_distributed.cc's session (and
# TensorFlow's mnist_replica.py): no wait for workers that have gone.
sess = tf.Session(server.target, config=tf.ConfigProto(
    device_filters=["/job:ps", "/job:worker/task:%d" % FLAGS.task_index]))
if is_chief:
    sess.run(init)
else:
    while True:
        try:
            sess.run([W, b, global_step])
            break
        except tf.errors.FailedPreconditionError:
            time.sleep(0.1)

staleness = None
if FLAGS.staleness_dir:
    staleness = open(os.path.join(FLAGS.staleness_dir,
                                  "staleness_worker_%d.txt" % FLAGS.task_index), "w")
first_step = sess.run(global_step)
start = time.time()
step = 0
local_steps = 0
while step < FLAGS.train_steps:
    batch_xs, batch_ys = mnist.train.next_batch(FLAGS.batch_size)
    feeds = {x: batch_xs, y_: batch_ys}
    if staleness:
        # minimize's op is the AssignAdd of global_step: its output is the
        # global step just after this update.
        read, written = sess.run([global_step, train_step.outputs[0]], feeds)
        staleness.write("%d %d\n" % (read, written))
    else:
        sess.run(train_step, feeds)
    step = sess.run(global_step)
    local_steps += 1
seconds = time.time() - start
print("Worker %d: %d local steps, global step %d" % (FLAGS.task_index, local_steps, step))
print("Worker %d: %.0f examples/s; the cluster %.0f examples/s (global steps %d to %d in %.2f s)"
      % (FLAGS.task_index, local_steps * FLAGS.batch_size / seconds,
         (step - first_step) * FLAGS.batch_size / seconds, first_step, step, seconds))
if is_chief:
    acc = sess.run(accuracy, {x: mnist.test.images, y_: mnist.test.labels})
    print("Test accuracy after %d global steps: %.4f" % (step, acc))
if staleness:
    staleness.close()
sess.close()
