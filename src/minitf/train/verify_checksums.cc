// crc32c::kVerifyChecksums (crc32c.h), alone in its file: this file is the
// layer's default, in an archive of its own (minitf_train_defaults), and a
// program that defines the constant itself keeps its own value; the fuzzers
// do (fuzz/fuzzing_limits.cc). Nothing else may go in this file: a reference
// to anything else here would pull the default in beside the program's
// value.
#include "minitf/train/crc32c.h"

namespace minitf::crc32c {

const bool kVerifyChecksums = true;

}  // namespace minitf::crc32c
