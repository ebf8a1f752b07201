// IDX, the format of MNIST's files: a magic number, the dimensions, then
// the bytes. Parses the input as an IDX file's contents.
#include "fuzzing.h"
#include "minitf/train/data/idx.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)tf::datasets::ParseIdx(std::string(tf::fuzzing::Bytes(data, size)),
                               "fuzz.idx");
  return 0;
}
