// Seed 002's CPU program, line by line: softmax regression (784 -> 10) on
// MNIST-format data, 10 epochs of batches of 100 at learning rate 0.1, with
// the test accuracy printed after each epoch as the seed prints it.
//
// The seed prints `accuracy` without defining it; it is the tutorial's
//   correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
//   accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
// The data is Fashion-MNIST from Debian's dataset-fashion-mnist, or the
// folder in $MINITF_MNIST_DIR (the original MNIST files work there too).
#include <minitf/minitf.h>

#include <cstdio>

namespace tf = minitf;

int main() try {
  // --8<-- [start:seed]
  auto mnist = tf::datasets::mnist::read_data_sets(
      tf::datasets::mnist::default_data_dir(), /*one_hot=*/true);

  const float learning_rate = 0.1f;
  const int epochs = 10;
  const int batch_size = 100;

  auto x = tf::placeholder(tf::float32, {tf::None, 784});
  auto W = tf::Variable(tf::zeros({784, 10}));
  auto b = tf::Variable(tf::zeros({10}));
  auto y = tf::nn::softmax(tf::matmul(x, W) + b);

  auto y_ = tf::placeholder(tf::float32, {tf::None, 10});
  auto cross_entropy = tf::reduce_mean(
      -tf::reduce_sum(y_ * tf::log(y), /*reduction_indices=*/{1}));
  auto train_step = tf::train::GradientDescentOptimizer(learning_rate)
                        .minimize(cross_entropy);

  // Two statements where the seed has one: C++ leaves the order in which a
  // call's arguments are evaluated to the compiler (GCC goes right to left),
  // and the first ArgMax built must be y's to get TensorFlow's names
  // (ArgMax for y, ArgMax_1 for y_).
  auto predicted = tf::argmax(y, 1);
  auto correct_prediction = tf::equal(predicted, tf::argmax(y_, 1));
  auto accuracy = tf::reduce_mean(tf::cast(correct_prediction, tf::float32));

  tf::Session sess;
  sess.run(tf::global_variables_initializer());
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int64_t i = 0; i < mnist.train.num_examples() / batch_size; ++i) {
      auto [batch_xs, batch_ys] = mnist.train.next_batch(batch_size);
      sess.run(train_step, {{x, batch_xs}, {y_, batch_ys}});
    }
    auto acc = sess.run(accuracy,
                        {{x, mnist.test.images()}, {y_, mnist.test.labels()}});
    std::printf("Epoch: %04d accuracy= %.9f\n", epoch + 1, acc.scalar<float>());
  }
  // --8<-- [end:seed]
  return 0;
} catch (const tf::errors::OpError& e) {
  // A missing or damaged file ends the program with the error's name and
  // text, as Python prints an uncaught tf.errors exception.
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
