// A folder's `checkpoint` file: TensorFlow's CheckpointState in the
// protobuf text format, which names the newest checkpoint and the ones kept.
// The input is the file; get_checkpoint_state parses it, or throws
// DataLossError naming the file.
#include <filesystem>
#include <fstream>

#include "fuzzing.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/saver/saver.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A folder beside the scratch file, made once.
  static const std::string dir = [] {
    std::string path = tf::fuzzing::ScratchFile(nullptr, 0) + ".d";
    std::filesystem::create_directories(path);
    return path;
  }();
  std::ofstream(dir + "/checkpoint", std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data),
             static_cast<std::streamsize>(size));
  try {
    (void)tf::train::get_checkpoint_state(dir);
    (void)tf::train::latest_checkpoint(dir);
  } catch (const tf::errors::DataLossError&) {
  }
  return 0;
}
