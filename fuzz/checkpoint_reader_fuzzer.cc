// Checkpoints: TensorFlow's V2 bundle, an index file (a table of entries)
// and a data file the entries point into. The input is both files: its
// first four bytes, little-endian, are the index's length, the index
// follows, and the rest is the data file, shard 0 of 1. Reads every tensor
// of the checkpoint, as Saver.restore does.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <vector>

#include "fuzzing.h"
#include "minitf/train/saver/tensor_bundle.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  uint32_t index_size = 0;
  for (int i = 3; i >= 0; --i) index_size = (index_size << 8) | data[i];
  const size_t cut = std::min<size_t>(index_size, size - 4);
  const std::string prefix = tf::fuzzing::ScratchFile(nullptr, 0);
  auto write = [](const std::string& path, const uint8_t* bytes, size_t n) {
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes),
               static_cast<std::streamsize>(n));
  };
  write(tf::train::BundleIndexPath(prefix), data + 4, cut);
  write(tf::train::BundleDataPath(prefix, 0, 1), data + 4 + cut,
        size - 4 - cut);
  std::vector<tf::train::NamedTensor> tensors;
  (void)tf::train::ReadBundle(prefix, &tensors);
  return 0;
}
