// Seed 002's GPU program, line by line: chapter 3's softmax regression with
// the model, the loss and the accuracy under tf.device('/gpu:0'), after
// CUDA_VISIBLE_DEVICES=0.
//
//   os.environ["CUDA_VISIBLE_DEVICES"]="0"
//   with tf.device('/gpu:0'):
//       x = tf.placeholder(tf.float32, [None, 784])
//       W = tf.Variable(tf.zeros([784, 10])) ...
//
// Where it runs: on a machine with a GPU, on that GPU. Anywhere else ask for
// an emulated one, whose kernels are this chapter's CUDA kernels on the CPU
// emulator of CUDA:
//
//   MINITF_VIRTUAL_GPUS=1 MINITF_EMULATE_GPU_KERNELS=1
//   ./seed_softmax_regression_gpu
//
// As in the seed, nothing allows soft placement: without a GPU the session
// fails to place the model, with TensorFlow's error. The accuracies are the
// CPU program's within a few test images: the GPU's sums add in another
// order. --epochs N runs fewer than the seed's 10 (the emulator is slow).
// Usage: seed_softmax_regression_gpu [--epochs N]
#include <minitf/minitf.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tf = minitf;

int main(int argc, char** argv) try {
  int epochs_to_run = 10;
  if (argc == 3 && std::strcmp(argv[1], "--epochs") == 0) {
    epochs_to_run = std::atoi(argv[2]);
  }
  // --8<-- [start:seed]
  setenv("CUDA_VISIBLE_DEVICES", "0", /*overwrite=*/1);

  auto mnist = tf::datasets::mnist::read_data_sets(
      tf::datasets::mnist::default_data_dir(), /*one_hot=*/true);

  const float learning_rate = 0.1f;
  const int epochs = epochs_to_run;
  const int batch_size = 100;

  tf::Output x, y, y_, accuracy;
  tf::Variable W, b;
  tf::Operation train_step;
  {
    tf::device_scope on_gpu("/gpu:0");
    x = tf::placeholder(tf::float32, {tf::None, 784});
    W = tf::Variable(tf::zeros({784, 10}));
    b = tf::Variable(tf::zeros({10}));
    y = tf::nn::softmax(tf::matmul(x, W) + b);
  }
  {
    tf::device_scope on_gpu("/gpu:0");
    y_ = tf::placeholder(tf::float32, {tf::None, 10});
    auto cross_entropy = tf::reduce_mean(
        -tf::reduce_sum(y_ * tf::log(y), /*reduction_indices=*/{1}));
    train_step = tf::train::GradientDescentOptimizer(learning_rate)
                     .minimize(cross_entropy);
  }
  {
    tf::device_scope on_gpu("/gpu:0");
    // y's ArgMax first, for TensorFlow's names (chapter 3's program says why).
    auto predicted = tf::argmax(y, 1);
    auto correct_prediction = tf::equal(predicted, tf::argmax(y_, 1));
    accuracy = tf::reduce_mean(tf::cast(correct_prediction, tf::float32));
  }

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
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
