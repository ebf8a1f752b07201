// The two constants that differ in the fuzzers, linked into every fuzzer in
// place of the layers' defaults (src/minitf/graph/max_tensor_proto_bytes.cc
// and src/minitf/train/verify_checksums.cc; minitf_layer_defaults in
// cmake/Course.cmake says why this replaces them). The unit tests, built in
// the same tree, link the defaults and check the engine's real values.
#include "minitf/graph/proto_convert.h"
#include "minitf/train/crc32c.h"

namespace minitf {

// A dozen bytes of a TensorProto may rightly claim 2 GiB of zeros, the
// fuzzer's whole memory limit: a lower cap keeps such an input within it,
// and a claim over the cap takes the same ResourceExhausted path.
const int64_t kMaxTensorProtoBytes = int64_t{64} << 20;

// A mutated byte almost never comes with a checksum to match it: readers
// let a mismatch through, so that the parsing behind the check is fuzzed.
const bool crc32c::kVerifyChecksums = false;

}  // namespace minitf
