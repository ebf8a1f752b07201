# Seed 001, TensorFlow's "Using GPUs", every snippet in order: the twin of
# chapter 4's using_gpus.cc. As there, each snippet runs on a fresh graph
# under a heading, and an InvalidArgumentError is printed and the program goes
# on. tensorflow-cpu has no GPUs, so the oracle compares it with
# `using_gpus 0` (no virtual GPUs); the C++ program's transfer table, printed
# only after the towers ran, is not the seed's and has no twin here.
import tensorflow.compat.v1 as tf  # TF 2: TF 1.x's API is tf.compat.v1

tf.disable_v2_behavior()

first = True


def snippet(heading, body):
    global first
    print(("" if first else "\n") + "=== " + heading + " ===")
    first = False
    tf.reset_default_graph()
    try:
        body()
    except tf.errors.InvalidArgumentError as e:
        print("InvalidArgumentError: " + e.message)


def log_placement():
    # Creates a graph.
    a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
    b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
    c = tf.matmul(a, b)
    # Creates a session with log_device_placement set to True.
    sess = tf.Session(config=tf.ConfigProto(log_device_placement=True))
    # Runs the op.
    print(sess.run(c))


def manual():
    # Creates a graph.
    with tf.device('/cpu:0'):
        a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
        b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
    c = tf.matmul(a, b)
    # Creates a session with log_device_placement set to True.
    sess = tf.Session(config=tf.ConfigProto(log_device_placement=True))
    # Runs the op.
    print(sess.run(c))


def single_gpu():
    # Creates a graph.
    with tf.device('/gpu:2'):
        a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
        b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
        c = tf.matmul(a, b)
    # Creates a session with log_device_placement set to True.
    sess = tf.Session(config=tf.ConfigProto(log_device_placement=True))
    # Runs the op.
    print(sess.run(c))


def soft_placement():
    # Creates a graph.
    with tf.device('/gpu:2'):
        a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
        b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
        c = tf.matmul(a, b)
    # Creates a session with allow_soft_placement and log_device_placement set
    # to True.
    sess = tf.Session(config=tf.ConfigProto(
        allow_soft_placement=True, log_device_placement=True))
    # Runs the op.
    print(sess.run(c))


def towers():
    # Creates a graph.
    c = []
    for d in ['/gpu:2', '/gpu:3']:
        with tf.device(d):
            a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3])
            b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2])
            c.append(tf.matmul(a, b))
    with tf.device('/cpu:0'):
        sum = tf.add_n(c)
    # Creates a session with log_device_placement set to True.
    sess = tf.Session(config=tf.ConfigProto(log_device_placement=True))
    # Runs the op.
    print(sess.run(sum))


snippet("Logging device placement", log_placement)
snippet("Manual device placement", manual)
snippet("Using a single GPU on a multi-GPU system", single_gpu)
snippet("The same with allow_soft_placement", soft_placement)
snippet("Using multiple GPUs", towers)
