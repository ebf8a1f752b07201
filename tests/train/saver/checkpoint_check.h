// What the kill-while-saving tests check after each kill
// (saver_crash_test.sh): every checkpoint that a folder's `checkpoint` file
// names restores, in a fresh session, with every element of every variable
// equal to the checkpoint's step N ("model.ckpt-N"). Shared by the Saver's
// helper (tests/train) and the MonitoredTrainingSession chief's
// (tests/distributed).
#pragma once

#include <minitf/minitf.h>

#include <iostream>
#include <string>
#include <vector>

namespace minitf::testing {

/// N of a checkpoint prefix ".../model.ckpt-N".
inline int64_t CheckpointStep(const std::string& prefix) {
  return std::stoll(prefix.substr(prefix.rfind('-') + 1));
}

/// Restores each checkpoint `dir`'s state file names into `vars` through
/// `saver`; prints "checked K checkpoints, newest PATH" and returns 0, or
/// prints what was wrong and returns 1. Throws what restore throws.
inline int CheckEveryNamedCheckpoint(const std::string& dir,
                                     const std::vector<Variable>& vars,
                                     train::Saver& saver) {
  const auto state = train::get_checkpoint_state(dir);
  if (!state) {
    std::cout << "no checkpoint file in " << dir << "\n";
    return 1;
  }
  for (const std::string& path : state->all_model_checkpoint_paths) {
    const std::string prefix = dir + "/" + path;
    Session sess;
    saver.restore(sess, prefix);
    const float want = static_cast<float>(CheckpointStep(prefix));
    for (const Variable& v : vars) {
      const Tensor got = sess.run(v);
      const auto flat = got.flat<float>();
      for (int64_t i = 0; i < flat.size(); ++i) {
        if (flat(i) != want) {
          std::cout << prefix << ": " << v.name() << "[" << i << "] is "
                    << flat(i) << ", not " << want << "\n";
          return 1;
        }
      }
    }
  }
  std::cout << "checked " << state->all_model_checkpoint_paths.size()
            << " checkpoints, newest " << state->model_checkpoint_path << "\n";
  return 0;
}

}  // namespace minitf::testing
