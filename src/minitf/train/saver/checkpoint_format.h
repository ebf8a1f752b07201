// The checkpoint file: the bytes a Saver writes for a set of named tensors.
//
// A checkpoint must survive two kinds of accident: a crash in the middle of
// writing it, and bytes that change on disk afterwards. The first is handled
// by how the file is written (WriteFileAtomically: a temporary file, fsync,
// rename), the second by checksums in the format itself, so that a damaged
// file is refused with DataLoss naming it instead of restoring garbage.
//
// One checkpoint is one file, `PREFIX.data-00000-of-00001`. TensorFlow splits
// its V2 checkpoints into `PREFIX.index` (a sorted table of names and
// offsets) and data shards; minitf keeps the index in the data file, so that
// a single rename publishes a whole checkpoint. All integers are
// little-endian; `crc` is a masked CRC32C (crc32c.h).
//
//   header   char[8]  magic "minitfck"
//            uint32   version (1)
//            uint32   number of tensors N
//            uint32   crc of the 16 bytes above
//   N times  uint32   name length L, then char[L] name ("weight")
//            uint32   dtype (TensorFlow's DataType number: 1 = float)
//            uint32   rank R, then int64[R] dimensions
//            uint64   data length D (elements times the dtype's size)
//            uint32   crc of this record's bytes from the name length on
//            byte[D]  the elements, row-major, little-endian
//            uint32   crc of the D data bytes
//   footer   uint64   length of everything before the footer
//            uint32   crc of everything before the footer
//            char[8]  magic "ckptend1"
//
// The footer's checksum covers every byte, so any altered or missing byte
// is found before a single record is trusted; the per-record checksums say
// which record a reader of a damaged file would have lost.
//
//   std::string bytes = tf::train::EncodeCheckpoint({{"weight", w}});
//   TF_RETURN_IF_ERROR(tf::train::WriteFileAtomically(path, bytes));
//   std::vector<tf::train::NamedTensor> tensors;
//   TF_RETURN_IF_ERROR(tf::train::ReadCheckpoint(path, &tensors));
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::train {

/// A tensor and the name it is saved under (a variable's op name).
using NamedTensor = std::pair<std::string, Tensor>;

inline constexpr std::string_view kCheckpointMagic = "minitfck";
inline constexpr std::string_view kCheckpointFooterMagic = "ckptend1";
inline constexpr uint32_t kCheckpointVersion = 1;

/// The file that holds checkpoint `prefix`: "PREFIX.data-00000-of-00001".
std::string CheckpointDataPath(const std::string& prefix);

/// The whole file for `tensors`, in the format above. REQUIRES: every
/// tensor is initialized.
std::string EncodeCheckpoint(const std::vector<NamedTensor>& tensors);

/// The tensors of a checkpoint file's bytes, in the order they were saved.
/// DataLoss naming `path` for a short, altered or foreign file, and for one
/// whose lengths or dims promise more bytes than it holds, even with valid
/// checksums: nothing is allocated beyond the bytes the file has.
Status DecodeCheckpoint(std::string_view bytes, const std::string& path,
                        std::vector<NamedTensor>* tensors);

/// Reads and decodes `path`; NotFound naming it when it does not exist.
Status ReadCheckpoint(const std::string& path,
                      std::vector<NamedTensor>* tensors);

/// Writes `bytes` to `path` so that a reader (or a crash) sees either the
/// old file or the whole new one: the bytes go to `PATH.tmpPID_N`, are
/// fsynced, and the temporary file is renamed over `path`; the folder is
/// fsynced so the rename itself survives a power cut. On failure the
/// temporary file is removed and `path` is untouched.
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace minitf::train
