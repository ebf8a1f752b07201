# Seed 002's CPU program, the twin of chapter 3's seed_softmax_regression.cc:
# softmax regression on MNIST-format data, 10 epochs of batches of 100.
# `accuracy`, which the seed prints without defining it, is the tutorial's.
# input_data is this folder's (TF 2 has none): the same IDX files and batches
# as the C++ program's, in the same order.
import input_data
import tensorflow.compat.v1 as tf  # TF 2: TF 1.x's API is tf.compat.v1

tf.disable_v2_behavior()

# 加载MNIST数据集
mnist = input_data.read_data_sets(input_data.default_data_dir(), one_hot=True)

# 设置模型参数
learning_rate = 0.1
epochs = 10
batch_size = 100

# 定义模型
x = tf.placeholder(tf.float32, [None, 784])
W = tf.Variable(tf.zeros([784, 10]))
b = tf.Variable(tf.zeros([10]))
y = tf.nn.softmax(tf.matmul(x, W) + b)

# 定义损失函数和优化器
y_ = tf.placeholder(tf.float32, [None, 10])
cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
train_step = tf.train.GradientDescentOptimizer(learning_rate).minimize(cross_entropy)

correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))

# 训练模型
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(epochs):
        for i in range(mnist.train.num_examples // batch_size):
            batch_xs, batch_ys = mnist.train.next_batch(batch_size)
            sess.run(train_step, feed_dict={x: batch_xs, y_: batch_ys})
        acc = sess.run(accuracy, feed_dict={x: mnist.test.images, y_: mnist.test.labels})
        print("Epoch:", "%04d" % (epoch + 1), "accuracy=", "{:.9f}".format(acc))
