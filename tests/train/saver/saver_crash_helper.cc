// The two sides of the test that kills a process while it saves
// (saver_crash_test.sh):
//
//   saver_crash_helper save DIR    saves checkpoints DIR/model.ckpt-N, N =
//                                  1, 2, ... after the newest already there,
//                                  every variable filled with N, until it
//                                  is killed; prints "saved N" after each
//   saver_crash_helper check DIR   restores every checkpoint the folder's
//                                  `checkpoint` file names, in a fresh
//                                  session each, and checks that every
//                                  element of every variable is its N
//
// The model is four variables of 1,048,576 floats (16 MiB a checkpoint),
// so that a save takes long enough to be killed in the middle. check exits
// 0 and prints "checked K checkpoints, newest N"; 1 and what was wrong when a
// checkpoint named is missing, does not restore, or holds mixed values.
#include <minitf/minitf.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "checkpoint_check.h"

namespace tf = minitf;

namespace {

constexpr int kVariables = 4;
constexpr int64_t kElements = int64_t{1} << 20;

struct Model {
  std::vector<tf::Variable> vars;
  tf::Output fill_value;  // a float32 [kElements] placeholder
  std::vector<tf::Output> fills;
};

Model BuildModel() {
  Model m;
  m.fill_value = tf::placeholder(tf::float32, {kElements}, "fill_value");
  for (int i = 0; i < kVariables; ++i) {
    std::string name = "v";  // v0 ... v3
    name.push_back(static_cast<char>('0' + i));
    m.vars.emplace_back(tf::zeros({kElements}), name);
    m.fills.push_back(m.vars.back().assign(m.fill_value));
  }
  return m;
}

int Save(const std::string& dir) {
  Model m = BuildModel();
  tf::Session sess;
  sess.run(tf::global_variables_initializer());
  // Two checkpoints kept: the newest and the one before it.
  tf::train::Saver saver(tf::global_variables(), /*max_to_keep=*/2);
  int64_t step = 0;
  if (auto latest = tf::train::latest_checkpoint(dir))
    step = tf::testing::CheckpointStep(*latest);
  tf::Tensor value(tf::DT_FLOAT, tf::TensorShape({kElements}));
  for (;;) {
    ++step;
    value.flat<float>().setConstant(static_cast<float>(step));
    std::vector<tf::Fetch> fills(m.fills.begin(), m.fills.end());
    sess.run(fills, {{m.fill_value, value}});
    saver.save(sess, dir + "/model.ckpt", step);
    std::cout << "saved " << step << std::endl;
  }
}

int Check(const std::string& dir) {
  Model m = BuildModel();
  tf::train::Saver saver;
  return tf::testing::CheckEveryNamedCheckpoint(dir, m.vars, saver);
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode == "save") return Save(argv[2]);
  if (mode == "check") return Check(argv[2]);
  std::fprintf(stderr, "Usage: saver_crash_helper save|check DIR\n");
  return 2;
} catch (const tf::errors::OpError& e) {
  std::cout << e.status().ToString() << "\n";
  return 1;
}
