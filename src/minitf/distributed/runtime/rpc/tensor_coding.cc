#include "minitf/distributed/runtime/rpc/tensor_coding.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>
#include <grpcpp/support/proto_buffer_reader.h>
#include <grpcpp/support/slice.h>

#include <climits>
#include <cstdint>
#include <string>

#include "minitf/distributed/runtime/proto/worker.pb.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;
using google::protobuf::io::StringOutputStream;

// The tags of the fields this file writes and reads by hand: a field's
// number shifted left by 3, or'ed with its wire type.
constexpr uint32_t Tag(int field, WireFormatLite::WireType type) {
  return (static_cast<uint32_t>(field) << 3) | type;
}
constexpr uint32_t kResponseTensorTag =
    Tag(proto::RecvTensorResponse::kTensorFieldNumber,
        WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
constexpr uint32_t kResponseIsDeadTag =
    Tag(proto::RecvTensorResponse::kIsDeadFieldNumber,
        WireFormatLite::WIRETYPE_VARINT);
constexpr uint32_t kResponseSendStartTag =
    Tag(proto::RecvTensorResponse::kSendStartMicrosFieldNumber,
        WireFormatLite::WIRETYPE_VARINT);
constexpr uint32_t kResponseRequireAckTag =
    Tag(proto::RecvTensorResponse::kRequireAckFieldNumber,
        WireFormatLite::WIRETYPE_VARINT);
constexpr uint32_t kDtypeTag =
    Tag(proto::TensorProto::kDtypeFieldNumber, WireFormatLite::WIRETYPE_VARINT);
constexpr uint32_t kShapeTag = Tag(proto::TensorProto::kTensorShapeFieldNumber,
                                   WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
constexpr uint32_t kVersionTag =
    Tag(proto::TensorProto::kVersionNumberFieldNumber,
        WireFormatLite::WIRETYPE_VARINT);
constexpr uint32_t kContentTag =
    Tag(proto::TensorProto::kTensorContentFieldNumber,
        WireFormatLite::WIRETYPE_LENGTH_DELIMITED);

// The destroy callback of a shared slice: drops the reference to the
// tensor's buffer that the slice held.
void ReleaseTensor(void* tensor) { delete static_cast<Tensor*>(tensor); }

// The length of a string or message field, which a message of at most
// 2 GiB bounds; false past that (or past the end).
bool ReadLength(CodedInputStream* in, int* length) {
  uint64_t n = 0;
  if (!in->ReadVarint64(&n) || n > INT_MAX) return false;
  *length = static_cast<int>(n);
  return true;
}

// The dtype and the fully defined shape that a TensorProto's dtype field
// and tensor_shape bytes give; false when they are not valid ones.
bool ReadSkeleton(uint32_t dtype_number, const std::string& shape_bytes,
                  DType* dtype, TensorShape* shape) {
  proto::TensorShapeProto shape_proto;
  if (!shape_proto.ParseFromString(shape_bytes)) return false;
  StatusOr<DType> d = DTypeFromProto(static_cast<int>(dtype_number));
  StatusOr<TensorShape> s = ShapeFromProto(shape_proto);
  if (!d.ok() || !s.ok() || !s->IsFullyDefined()) return false;
  *dtype = *d;
  *shape = std::move(s).value();
  return true;
}

// Reads a TensorProto of `length` bytes in the form EncodeRecvTensorResponse
// writes (dtype, shape, then tensor_content) into `value`. False, with the
// stream in any state, for anything else, including a tensor that does not
// match its shape: the ordinary parse then says what is wrong.
bool ReadTensorFast(CodedInputStream* in, int length, Allocator* allocator,
                    Tensor* value) {
  const CodedInputStream::Limit limit = in->PushLimit(length);
  uint32_t dtype_number = 0;
  std::string shape_bytes;
  bool has_shape = false;
  bool has_content = false;
  DType dtype = DT_INVALID;
  TensorShape shape;
  for (uint32_t tag = in->ReadTag(); tag != 0; tag = in->ReadTag()) {
    if (tag == kDtypeTag && !has_shape) {
      if (!in->ReadVarint32(&dtype_number)) return false;
    } else if (tag == kShapeTag && !has_shape) {
      int size = 0;
      if (!ReadLength(in, &size) || !in->ReadString(&shape_bytes, size)) {
        return false;
      }
      has_shape = true;
    } else if (tag == kVersionTag) {
      uint32_t unused = 0;
      if (!in->ReadVarint32(&unused)) return false;
    } else if (tag == kContentTag && has_shape && !has_content) {
      // --8<-- [start:read_content]
      int size = 0;
      if (!ReadSkeleton(dtype_number, shape_bytes, &dtype, &shape) ||
          !ReadLength(in, &size) ||
          size != shape.num_elements() * DataTypeSize(dtype)) {
        return false;
      }
      StatusOr<Tensor> tensor = Tensor::Allocate(dtype, shape, allocator);
      if (!tensor.ok()) return false;
      // The one copy of the transfer: from gRPC's slices into the tensor.
      if (size > 0 && !in->ReadRaw(tensor->raw_data(), size)) {
        return false;
      }
      // --8<-- [end:read_content]
      if (dtype == DT_BOOL) {
        // Any byte but 0 and 1 would be an invalid bool to read; as bytes
        // they may be anything on the wire (TensorFromProto's rule).
        auto* bytes = static_cast<unsigned char*>(tensor->raw_data());
        for (int i = 0; i < size; ++i) bytes[i] = bytes[i] != 0;
      }
      *value = std::move(tensor).value();
      has_content = true;
    } else {
      return false;
    }
  }
  // The end of the message must be the end of the TensorProto's length,
  // not the end of a body cut short.
  if (!in->ConsumedEntireMessage() || in->BytesUntilLimit() != 0 ||
      !has_shape) {
    return false;
  }
  in->PopLimit(limit);
  if (has_content) return true;
  // No tensor_content: an empty tensor, as TensorFlow writes one. A
  // non-empty one without bytes holds zeros, which the ordinary parse fills.
  if (!ReadSkeleton(dtype_number, shape_bytes, &dtype, &shape) ||
      shape.num_elements() != 0) {
    return false;
  }
  StatusOr<Tensor> tensor = Tensor::Allocate(dtype, shape, allocator);
  if (!tensor.ok()) return false;
  *value = std::move(tensor).value();
  return true;
}

// The fast parse: the fields of a RecvTensorResponse in the form
// EncodeRecvTensorResponse (and TensorFlow) write them. False for any other
// form.
bool DecodeFast(grpc::ByteBuffer* in, Allocator* allocator, Tensor* value,
                bool* is_dead) {
  grpc::ProtoBufferReader reader(in);
  if (!reader.status().ok()) return false;
  CodedInputStream stream(&reader);
  bool dead = false;
  bool has_tensor = false;
  Tensor tensor;
  for (uint32_t tag = stream.ReadTag(); tag != 0; tag = stream.ReadTag()) {
    uint64_t number = 0;
    if (tag == kResponseTensorTag && !has_tensor) {
      int length = 0;
      if (!ReadLength(&stream, &length) ||
          !ReadTensorFast(&stream, length, allocator, &tensor)) {
        return false;
      }
      has_tensor = true;
    } else if (tag == kResponseIsDeadTag) {
      if (!stream.ReadVarint64(&number)) return false;
      dead = number != 0;
    } else if (tag == kResponseSendStartTag || tag == kResponseRequireAckTag) {
      if (!stream.ReadVarint64(&number)) return false;
    } else {
      return false;
    }
  }
  if (!stream.ConsumedEntireMessage() || (!dead && !has_tensor)) return false;
  *is_dead = dead;
  if (!dead) *value = std::move(tensor);
  return true;
}

}  // namespace

// --8<-- [start:encode]
Status EncodeRecvTensorResponse(const Tensor& value, bool is_dead,
                                grpc::ByteBuffer* out) {
  // Every field of the response but the tensor.
  proto::RecvTensorResponse fields;
  fields.set_is_dead(is_dead);
  if (is_dead) {
    std::string bytes = fields.SerializeAsString();
    grpc::Slice slice(bytes);
    *out = grpc::ByteBuffer(&slice, 1);
    return Status::OK();
  }
  if (value.allocator() != nullptr && !value.allocator()->HostAccessible()) {
    return errors::InvalidArgument(
        "Cannot write a tensor whose bytes are not in host memory; copy it to "
        "the host first");
  }
  // The tensor's fields but its bytes: dtype and shape.
  proto::TensorProto skeleton;
  skeleton.set_dtype(DTypeToProto(value.dtype()));
  ShapeToProto(value.shape(), skeleton.mutable_tensor_shape());
  const size_t content = value.TotalBytes();
  const size_t tensor_bytes =
      skeleton.ByteSizeLong() + CodedOutputStream::VarintSize32(kContentTag) +
      CodedOutputStream::VarintSize64(content) + content;
  if (tensor_bytes > INT_MAX - size_t{64}) {
    return errors::InvalidArgument("Cannot send a tensor of ", content,
                                   " bytes: a message is at most 2 GiB");
  }
  // Slice 0: the fields, then the tags and lengths that lead to the bytes.
  std::string head;
  {
    StringOutputStream stream(&head);
    CodedOutputStream coded(&stream);
    fields.SerializeToCodedStream(&coded);
    coded.WriteTag(kResponseTensorTag);
    coded.WriteVarint64(tensor_bytes);
    skeleton.SerializeToCodedStream(&coded);
    coded.WriteTag(kContentTag);
    coded.WriteVarint64(content);
  }  // the stream writes its last bytes into `head` as it goes
  const char* data = static_cast<const char*>(value.raw_data());
  if (content <= kShareTensorBytes) {
    head.append(data, content);
    grpc::Slice slice(head);
    *out = grpc::ByteBuffer(&slice, 1);
    return Status::OK();
  }
  // Slice 1: the tensor's buffer itself. The slice owns a Tensor that
  // shares the buffer, and deletes it when gRPC is done with the bytes.
  grpc::Slice slices[2] = {grpc::Slice(head),
                           grpc::Slice(const_cast<char*>(data), content,
                                       ReleaseTensor, new Tensor(value))};
  *out = grpc::ByteBuffer(slices, 2);
  return Status::OK();
}
// --8<-- [end:encode]

// --8<-- [start:decode]
Status DecodeRecvTensorResponse(grpc::ByteBuffer* in, Allocator* allocator,
                                Tensor* value, bool* is_dead) {
  if (DecodeFast(in, allocator, value, is_dead)) return Status::OK();
  // Any other form: parse the message the ordinary way (copying the bytes
  // into tensor_content) and let TensorFromProto check it.
  proto::RecvTensorResponse response;
  grpc::ProtoBufferReader reader(in);
  if (!reader.status().ok() || !response.ParseFromZeroCopyStream(&reader)) {
    return errors::InvalidArgument("Cannot parse tensor from response");
  }
  *is_dead = response.is_dead();
  if (*is_dead) return Status::OK();
  ScopedDefaultAllocator from(allocator);
  TF_ASSIGN_OR_RETURN(*value, TensorFromProto(response.tensor()));
  return Status::OK();
}
// --8<-- [end:decode]

}  // namespace minitf
