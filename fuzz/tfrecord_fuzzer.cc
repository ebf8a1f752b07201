// Event files: TFRecord framing around serialized Event messages, as
// tf.summary.FileWriter writes them and TensorBoard reads them. Reads every
// record of the file, each parsed as an Event, until the end or an error.
#include "fuzzing.h"
#include "minitf/train/proto/event.pb.h"
#include "minitf/train/tfrecord.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::TFRecordReader reader;
  if (!reader.Open(tf::fuzzing::ScratchFile(data, size)).ok()) return 0;
  std::string record;
  while (reader.ReadRecord(&record).ok()) {
    tf::proto::Event event;
    (void)event.ParseFromString(record);
  }
  return 0;
}
