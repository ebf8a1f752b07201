// The chief of a MonitoredTrainingSession killed while it saves
// (tests/train/saver/saver_crash_test.sh runs it as it runs the Saver's
// helper):
//
//   chief_crash_helper save DIR    trains as a chief with checkpoint_dir DIR
//                                  and a checkpoint every step, resuming
//                                  from the newest checkpoint there; a step
//                                  sets every element of every variable to
//                                  the new global step N; prints "saved N"
//                                  after each step, until it is killed
//   chief_crash_helper check DIR   restores every checkpoint the folder's
//                                  `checkpoint` file names and checks that
//                                  every element is its N
//
// Four variables of 1,048,576 floats: 16 MiB a checkpoint; the chief keeps
// two checkpoints, the newest and the one before it.
#include <minitf/minitf.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "../../train/saver/checkpoint_check.h"

namespace tf = minitf;

namespace {

constexpr int kVariables = 4;
constexpr int64_t kElements = int64_t{1} << 20;

struct Model {
  std::vector<tf::Variable> vars;
  tf::Operation train_op;
};

Model BuildModel() {
  Model m;
  tf::Variable global_step(tf::Tensor(int64_t{0}), "global_step",
                           /*trainable=*/false);
  tf::Output step = global_step.assign_add(tf::Tensor(int64_t{1}));
  tf::Output value =
      tf::fill({kElements}, tf::Tensor(0.f)) + tf::cast(step, tf::float32);
  std::vector<tf::Operation> fills;
  for (int i = 0; i < kVariables; ++i) {
    std::string name = "v";  // v0 ... v3
    name.push_back(static_cast<char>('0' + i));
    m.vars.emplace_back(tf::zeros({kElements}), name);
    fills.push_back(m.vars.back().assign(value).op());
  }
  m.train_op = tf::group(fills, "train_op");
  return m;
}

int Save(const std::string& dir) {
  Model m = BuildModel();
  tf::train::Scaffold::Options scaffold;
  scaffold.saver =
      std::make_shared<tf::train::Saver>(tf::global_variables(), 2);
  auto sess = tf::train::MonitoredTrainingSession(
      {.is_chief = true,
       .checkpoint_dir = dir,
       .scaffold = std::make_shared<tf::train::Scaffold>(scaffold),
       .save_summaries_steps = 0,
       .log_step_count_steps = 0,
       .save_checkpoint_steps = 1});
  for (;;) {
    sess->run({m.train_op});
    const tf::Tensor step = sess->run({*tf::train::get_global_step()})[0];
    std::cout << "saved " << step.scalar<int64_t>() << std::endl;
  }
}

int Check(const std::string& dir) {
  Model m = BuildModel();
  tf::train::Saver saver(m.vars);
  return tf::testing::CheckEveryNamedCheckpoint(dir, m.vars, saver);
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode == "save") return Save(argv[2]);
  if (mode == "check") return Check(argv[2]);
  std::fprintf(stderr, "Usage: chief_crash_helper save|check DIR\n");
  return 2;
} catch (const tf::errors::OpError& e) {
  std::cout << e.status().ToString() << "\n";
  return 1;
}
