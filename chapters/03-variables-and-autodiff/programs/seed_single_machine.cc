// Seed 003's single-machine program, line by line: an InteractiveSession
// trains seed 002's softmax regression for 1000 steps of batches of 100,
// saves a checkpoint every 100 steps with a Saver, and prints the test
// accuracy at the end.
//
// The seed saves to 'mnist.ckpt' but never reads it back; this program does
// what the checkpoints are for. When the folder already holds one (a second
// run), it restores it instead of initializing, and trains 1000 more steps
// from there. A `global_step` variable, saved with the weights, says where
// the previous run stopped.
//   seed_single_machine [<checkpoint folder>]   (default: a folder in /tmp)
#include <minitf/minitf.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace tf = minitf;

int main(int argc, char** argv) try {
  const std::string ckpt_dir =
      argc > 1 ? argv[1]
               : (std::filesystem::temp_directory_path() / "minitf-seed-003")
                     .string();
  std::filesystem::create_directories(ckpt_dir);
  auto mnist = tf::datasets::mnist::read_data_sets(
      tf::datasets::mnist::default_data_dir(), /*one_hot=*/true);

  // Seed 002's model; global_step counts the training steps across runs.
  auto x = tf::placeholder(tf::float32, {tf::None, 784});
  auto W = tf::Variable(tf::zeros({784, 10}));
  auto b = tf::Variable(tf::zeros({10}));
  auto y = tf::nn::softmax(tf::matmul(x, W) + b);
  auto y_ = tf::placeholder(tf::float32, {tf::None, 10});
  auto cross_entropy = tf::reduce_mean(
      -tf::reduce_sum(y_ * tf::log(y), /*reduction_indices=*/{1}));
  auto global_step =
      tf::Variable(tf::Tensor(int64_t{0}), "global_step", /*trainable=*/false);
  auto train_step = tf::train::GradientDescentOptimizer(0.1).minimize(
      cross_entropy, &global_step);

  // --8<-- [start:seed]
  tf::train::Saver saver;
  tf::InteractiveSession sess;
  if (auto last = tf::train::latest_checkpoint(ckpt_dir)) {
    saver.restore(sess, *last);
    std::printf("Restored %s at step %lld\n", last->c_str(),
                static_cast<long long>(global_step.eval().scalar<int64_t>()));
  } else {
    tf::global_variables_initializer().run();
  }

  for (int i = 0; i < 1000; ++i) {
    auto [batch_xs, batch_ys] = mnist.train.next_batch(100);
    sess.run(train_step, {{x, batch_xs}, {y_, batch_ys}});
    if (i % 100 == 0) {
      saver.save(sess, ckpt_dir + "/mnist.ckpt");
      std::printf("Step %lld: saved %s/mnist.ckpt\n",
                  static_cast<long long>(global_step.eval().scalar<int64_t>()),
                  ckpt_dir.c_str());
    }
  }
  // Two statements where the seed has one: C++ leaves the order in which a
  // call's arguments are evaluated to the compiler (GCC goes right to left),
  // and the first ArgMax built must be y's to get TensorFlow's names
  // (ArgMax for y, ArgMax_1 for y_).
  auto predicted = tf::argmax(y, 1);
  auto correct_prediction = tf::equal(predicted, tf::argmax(y_, 1));
  auto accuracy = tf::reduce_mean(tf::cast(correct_prediction, tf::float32));
  auto acc =
      sess.run(accuracy, {{x, mnist.test.images()}, {y_, mnist.test.labels()}});
  // --8<-- [end:seed]
  std::printf("Test accuracy after %lld steps: %.4f\n",
              static_cast<long long>(global_step.eval().scalar<int64_t>()),
              acc.scalar<float>());
  return 0;
} catch (const tf::errors::OpError& e) {
  // A missing or damaged file ends the program with the error's name and
  // text, as Python prints an uncaught tf.errors exception.
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
