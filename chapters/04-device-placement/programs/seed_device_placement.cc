// Seed 000's second program, line by line: chapter 3's linear regression
// with the model pinned to the CPU and the placement logged.
//
//   with tf.device("/device:cpu:0"):
//       w = tf.Variable(0.0, name='weight')
//       b = tf.Variable(0.0, name='bias')
//       x = tf.placeholder(dtype=tf.float32, shape=[None])
//       out = tf.placeholder(dtype=tf.float32, shape=[None])
//       y = w * x + b
//   loss = tf.reduce_mean(tf.square(y - out))
//   optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.01)
//   train_op = optimizer.minimize(loss)
//   config = tf.ConfigProto()
//   config.log_device_placement=True
//   with tf.Session(config=config) as sess: ...
//
// The session prints "Device mapping:" when it is created, then, at the
// first run, one line per node: "<name>: (<op>): <device>". The loss and
// the optimizer ask for no device, so they go to the best one: GPU:0 when
// there is a GPU (MINITF_VIRTUAL_GPUS=1 makes one), the CPU otherwise. The
// floats are chapter 3's seed_linear_regression's to the last digit: where
// an op runs does not change what it computes. As there, the loop runs the
// seed's 100,000 steps unless --steps asks for fewer, and each value is
// printed as Python's format() prints a NumPy float32 (the tensor printer's
// scalar form: the shortest digits that read back to the same float).
// Usage: seed_device_placement [--steps N]   (the seed's 100000)
#include <minitf/minitf.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tf = minitf;

int main(int argc, char** argv) {
  int steps = 100000;
  if (argc == 3 && std::strcmp(argv[1], "--steps") == 0) {
    steps = std::atoi(argv[2]);
  }
  // --8<-- [start:seed]
  tf::reset_default_graph();
  tf::Variable w, b;
  tf::Output x, out, y;
  {
    tf::device_scope on_cpu("/device:cpu:0");
    // create w and b init 0.0
    w = tf::Variable(0.0f, "weight");
    b = tf::Variable(0.0f, "bias");

    // create input and out
    x = tf::placeholder(tf::float32, {tf::None});
    out = tf::placeholder(tf::float32, {tf::None});

    // create loss and opt
    y = w * x + b;
  }

  auto loss = tf::reduce_mean(tf::square(y - out));
  tf::train::GradientDescentOptimizer optimizer(/*learning_rate=*/0.01);
  auto train_op = optimizer.minimize(loss);

  tf::ConfigProto config;
  config.log_device_placement = true;

  // train model
  tf::Session sess(config);
  sess.run(tf::global_variables_initializer());
  for (int i = 0; i < steps; ++i) {
    auto r = sess.run({train_op, loss, w, b},
                      {{x, {1.f, 23.f, 4.f, 5.f, 7.f, 5.f, 7.f}},
                       {out, {3.f, 5.f, 7.f, 9.f, 11.f, 13.f, 15.f}}});
    if (i % 100 == 0) {
      std::printf("Step %d: loss = %s, w = %s, b = %s\n", i,
                  r[1].ToString().c_str(), r[2].ToString().c_str(),
                  r[3].ToString().c_str());
    }
  }
  // --8<-- [end:seed]
  return 0;
}
