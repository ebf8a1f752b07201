// MNIST's files as read_data_sets reads them: from a file, gunzipped when
// it starts with gzip's magic bytes, then parsed as IDX.
#include "fuzzing.h"
#include "minitf/train/data/idx.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)tf::datasets::ReadIdx(tf::fuzzing::ScratchFile(data, size));
  return 0;
}
