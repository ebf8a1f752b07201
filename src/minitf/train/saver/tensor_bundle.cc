#include "minitf/train/saver/tensor_bundle.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "minitf/graph/proto_convert.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/crc32c.h"
#include "minitf/train/proto/tensor_bundle.pb.h"
#include "minitf/train/saver/atomic_file.h"
#include "minitf/train/saver/table.h"

namespace minitf::train {
namespace {

// The header's version: what TensorFlow's bundles carry (kTensorBundleVersion
// 1, kTensorBundleMinConsumer 0); minitf reads versions up to its own.
constexpr int kBundleVersion = 1;
constexpr int kBundleMinConsumer = 0;

std::string_view Bytes(const Tensor& t) {
  return {static_cast<const char*>(t.raw_data()),
          static_cast<size_t>(t.NumElements()) * DataTypeSize(t.dtype())};
}

StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return errors::NotFound(path, "; No such file or directory");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The data files of a checkpoint, each read on first use.
class DataFiles {
 public:
  DataFiles(const std::string& prefix, int num_shards)
      : prefix_(prefix), files_(num_shards) {}

  StatusOr<std::string_view> Get(int shard) {
    if (!files_[shard]) {
      TF_ASSIGN_OR_RETURN(
          files_[shard], ReadWholeFile(BundleDataPath(prefix_, shard, size())));
    }
    return std::string_view(*files_[shard]);
  }
  int size() const { return static_cast<int>(files_.size()); }

 private:
  std::string prefix_;
  std::vector<std::optional<std::string>> files_;
};

// The tensor an entry describes, its bytes checked against the entry.
StatusOr<Tensor> ReadEntry(const std::string& prefix, const std::string& name,
                           const proto::BundleEntryProto& entry,
                           DataFiles* files) {
  const std::string index = BundleIndexPath(prefix);
  if (entry.slices_size() > 0) {
    return errors::Unimplemented(
        "Tensor ", name, " in ", index,
        " is saved in slices (a partitioned variable), which minitf does "
        "not read");
  }
  StatusOr<DType> dtype = DTypeFromProto(entry.dtype());
  if (!dtype.ok()) {
    return Status(
        dtype.status().code(),
        StrCat("Tensor ", name, " in ", index, ": ", dtype.status().message()));
  }
  StatusOr<TensorShape> shape = ShapeFromProto(entry.shape());
  if (!shape.ok() || !shape->IsFullyDefined()) {
    return errors::DataLoss("Unable to read file (", index, "): tensor ", name,
                            " has a bad shape");
  }
  const uint64_t element_size = DataTypeSize(*dtype);
  if (entry.shard_id() < 0 || entry.shard_id() >= files->size() ||
      entry.offset() < 0 || entry.size() < 0 ||
      static_cast<uint64_t>(entry.size()) / element_size !=
          static_cast<uint64_t>(shape->num_elements()) ||
      entry.size() % element_size != 0) {
    return errors::DataLoss("Unable to read file (", index, "): tensor ", name,
                            " has a bad entry (shard ", entry.shard_id(),
                            ", offset ", entry.offset(), ", size ",
                            entry.size(), ")");
  }
  TF_ASSIGN_OR_RETURN(const std::string_view data,
                      files->Get(entry.shard_id()));
  const std::string path =
      BundleDataPath(prefix, entry.shard_id(), files->size());
  const uint64_t offset = entry.offset(), size = entry.size();
  if (offset > data.size() || size > data.size() - offset) {
    return errors::OutOfRange("Read less bytes than requested: tensor ", name,
                              " needs bytes ", offset, " to ", offset + size,
                              " of ", path, ", which has ", data.size());
  }
  // --8<-- [start:entry_crc]
  const std::string_view bytes = data.substr(offset, size);
  const uint32_t stored = crc32c::Unmask(entry.crc32c());
  const uint32_t actual = crc32c::Value(bytes);
  if (crc32c::kVerifyChecksums && stored != actual) {
    return errors::DataLoss("TensorBundle at ", prefix, " shard ",
                            entry.shard_id(), " (", data.size(),
                            " bytes): Checksum does not match: stored ", stored,
                            " vs. calculated on the restored bytes ", actual,
                            " (tensor ", name, " in ", path, ")");
  }
  // --8<-- [end:entry_crc]
  Tensor t(*dtype, *shape);
  if (size > 0) std::memcpy(t.raw_data(), bytes.data(), size);
  return t;
}

}  // namespace

std::string BundleIndexPath(const std::string& prefix) {
  return prefix + ".index";
}

std::string BundleDataPath(const std::string& prefix, int shard,
                           int num_shards) {
  char suffix[32];
  std::snprintf(suffix, sizeof(suffix), ".data-%05d-of-%05d", shard,
                num_shards);
  return prefix + suffix;
}

// --8<-- [start:encode]
BundleBytes EncodeBundle(const std::vector<std::vector<NamedTensor>>& shards) {
  MINITF_CHECK(!shards.empty());
  BundleBytes out;
  // Sorted by name: the table's keys must be added in order.
  std::map<std::string, proto::BundleEntryProto> entries;
  for (size_t k = 0; k < shards.size(); ++k) {
    std::string& data = out.data.emplace_back();
    for (const auto& [name, tensor] : shards[k]) {
      const std::string_view bytes = Bytes(tensor);
      proto::BundleEntryProto& entry = entries[name];
      entry.set_dtype(DTypeToProto(tensor.dtype()));
      ShapeToProto(tensor.shape(), entry.mutable_shape());
      entry.set_shard_id(static_cast<int>(k));
      entry.set_offset(static_cast<int64_t>(data.size()));
      entry.set_size(static_cast<int64_t>(bytes.size()));
      entry.set_crc32c(crc32c::Mask(crc32c::Value(bytes)));
      data += bytes;
    }
  }
  proto::BundleHeaderProto header;
  header.set_num_shards(static_cast<int>(shards.size()));
  header.set_endianness(proto::BundleHeaderProto::LITTLE);
  header.mutable_version()->set_producer(kBundleVersion);
  header.mutable_version()->set_min_consumer(kBundleMinConsumer);
  TableBuilder table;
  table.Add("", header.SerializeAsString());
  for (const auto& [name, entry] : entries) {
    table.Add(name, entry.SerializeAsString());
  }
  out.index = table.Finish();
  return out;
}
// --8<-- [end:encode]

Status WriteBundle(const std::string& prefix,
                   const std::vector<std::vector<NamedTensor>>& shards) {
  const BundleBytes bytes = EncodeBundle(shards);
  const int n = static_cast<int>(bytes.data.size());
  for (int k = 0; k < n; ++k) {
    TF_RETURN_IF_ERROR(
        WriteFileAtomically(BundleDataPath(prefix, k, n), bytes.data[k]));
  }
  return WriteFileAtomically(BundleIndexPath(prefix), bytes.index);
}

Status WriteBundle(const std::string& prefix,
                   const std::vector<NamedTensor>& tensors) {
  return WriteBundle(prefix, std::vector<std::vector<NamedTensor>>{tensors});
}

Status ReadBundle(const std::string& prefix,
                  std::vector<NamedTensor>* tensors) {
  const std::string index = BundleIndexPath(prefix);
  TF_ASSIGN_OR_RETURN(const std::string bytes, ReadWholeFile(index));
  std::vector<std::pair<std::string, std::string>> entries;
  const Status read = ReadTable(bytes, index, &entries);
  if (!read.ok()) {
    return errors::DataLoss("Unable to read file (", index,
                            "). Perhaps the file is corrupt or was produced "
                            "by a newer version of TensorFlow with format "
                            "changes: ",
                            read.message());
  }
  proto::BundleHeaderProto header;
  if (entries.empty() || !entries[0].first.empty() ||
      !header.ParseFromString(entries[0].second)) {
    return errors::DataLoss("Unable to read file (", index,
                            "): no header entry");
  }
  if (header.version().min_consumer() > kBundleVersion) {
    return errors::InvalidArgument("Checkpoint ", index, " requires version ",
                                   header.version().min_consumer(),
                                   " of the format; minitf reads ",
                                   kBundleVersion);
  }
  if (header.endianness() != proto::BundleHeaderProto::LITTLE) {
    return errors::Unimplemented("Checkpoint ", index,
                                 " is big-endian; minitf reads little-endian");
  }
  // Each shard is a file the entries point into; more shards than entries
  // would name files no tensor is in.
  if (header.num_shards() < 1 ||
      static_cast<size_t>(header.num_shards()) > entries.size()) {
    return errors::DataLoss("Unable to read file (", index,
                            "): ", header.num_shards(), " shards for ",
                            entries.size() - 1, " tensors");
  }
  DataFiles files(prefix, header.num_shards());
  tensors->clear();
  for (size_t i = 1; i < entries.size(); ++i) {
    const std::string& name = entries[i].first;
    proto::BundleEntryProto entry;
    if (!entry.ParseFromString(entries[i].second)) {
      return errors::DataLoss("Unable to read file (", index,
                              "): the entry of tensor ", name,
                              " does not parse");
    }
    TF_ASSIGN_OR_RETURN(Tensor t, ReadEntry(prefix, name, entry, &files));
    tensors->emplace_back(name, std::move(t));
  }
  return Status::OK();
}

}  // namespace minitf::train
