// The tensor bundle: TensorFlow's V2 checkpoint format, the files a Saver
// writes for a set of named tensors.
//
// A checkpoint with prefix PREFIX is two kinds of file:
//
//   PREFIX.data-00000-of-00001   the tensors' bytes, one after another,
//                                row-major, little-endian, nothing between
//   PREFIX.index                 a table (table.h) from each tensor's name
//                                to a BundleEntryProto: dtype, shape, which
//                                data file, offset, size, masked CRC32C
//
// The index's first key, the empty string, holds the BundleHeaderProto: the
// number of data files ("shards") and their byte order. A Saver whose
// variables sit on several devices writes one data file per device,
// PREFIX.data-0000K-of-0000N, and one index for all of them. The messages
// are in proto/tensor_bundle.proto.
//
// A checkpoint must survive a crash in the middle of writing it and bytes
// that change on disk afterwards. The first is handled by how the files are
// written (atomic_file.h: the data files first, then the index that points
// into them, each renamed into place whole), the second by the checksums of
// every index block and every tensor, so that a damaged file is refused
// naming it instead of restoring garbage.
//
//   TF_RETURN_IF_ERROR(tf::train::WriteBundle("/tmp/m", {{"weight", w}}));
//   std::vector<tf::train::NamedTensor> tensors;
//   TF_RETURN_IF_ERROR(tf::train::ReadBundle("/tmp/m", &tensors));
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::train {

/// A tensor and the name it is saved under (a variable's op name).
using NamedTensor = std::pair<std::string, Tensor>;

/// "PREFIX.index".
std::string BundleIndexPath(const std::string& prefix);
/// "PREFIX.data-0000K-of-0000N" for shard K of N (five digits each).
std::string BundleDataPath(const std::string& prefix, int shard,
                           int num_shards);

/// The bytes of a bundle: one string per data file, and the index.
struct BundleBytes {
  std::vector<std::string> data;
  std::string index;
};

/// Encodes `shards[k]` into data file k, in the order given, and indexes
/// every tensor under its name. REQUIRES: at least one shard; names are
/// distinct over all shards; every tensor is initialized and in host memory.
BundleBytes EncodeBundle(const std::vector<std::vector<NamedTensor>>& shards);

/// Writes the bundle of `shards` for `prefix`: every data file, then the
/// index, each atomically (WriteFileAtomically), so that an index is never
/// seen before the data it points into. Errors as WriteFileAtomically's.
Status WriteBundle(const std::string& prefix,
                   const std::vector<std::vector<NamedTensor>>& shards);
/// One data file.
Status WriteBundle(const std::string& prefix,
                   const std::vector<NamedTensor>& tensors);

/// Every tensor of checkpoint `prefix`, sorted by name, each checked against
/// its entry: NotFound naming the file for a missing index or data file;
/// DataLoss naming the file for a damaged index (TensorFlow's "block checksum
/// mismatch", "not an sstable (bad magic number)") and naming the file and
/// tensor for data whose checksum differs ("Checksum does not match");
/// OutOfRange naming both for data past a file's end ("Read less bytes than
/// requested"); Unimplemented naming the tensor for a dtype minitf lacks or a
/// tensor saved in slices. Nothing is allocated beyond the bytes the files
/// hold.
Status ReadBundle(const std::string& prefix, std::vector<NamedTensor>* tensors);

}  // namespace minitf::train
