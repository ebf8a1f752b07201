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
// printed as the seed's '{}'.format() prints a NumPy float32, with chapter
// 3's PyFloat.
// Usage: seed_device_placement [--steps N]   (the seed's 100000)
#include <minitf/minitf.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace tf = minitf;

namespace {

// A float32 as the seed's '{}'.format(loss_val) prints a NumPy float32:
// NumPy formats it as the Python float, a double, it widens to, so 34.712307f
// prints as 34.71230697631836; and a Python float prints its shortest digits
// that read back to the same double, positional from 1e-4 up to 1e16 (with
// ".0" on whole numbers), in scientific notation outside.
std::string PyFloat(float v) {
  const double d = v;
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[64];
  char* end =
      std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific)
          .ptr;
  const std::string scientific(buf, end);  // "3.471230697631836e+01"
  const int exponent = std::stoi(scientific.substr(scientific.find('e') + 1));
  if (exponent < -4 || exponent >= 16) return scientific;
  end = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::fixed).ptr;
  std::string s(buf, end);
  if (s.find('.') == std::string::npos) s += ".0";
  return s;
}

}  // namespace

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
                  PyFloat(r[1].scalar<float>()).c_str(),
                  PyFloat(r[2].scalar<float>()).c_str(),
                  PyFloat(r[3].scalar<float>()).c_str());
    }
  }
  // --8<-- [end:seed]
  return 0;
}
