// Tensor coding: a RecvTensorResponse as the bytes gRPC sends, without
// copying the tensor into a message.
//
// The obvious way to answer a RecvTensor is to fill a RecvTensorResponse
// (TensorToProto copies the tensor's bytes into the string tensor_content)
// and let gRPC serialize it (a second copy, into gRPC's buffer); the receiver
// parses it (a third, into a fresh string) and TensorFromProto makes the
// tensor (a fourth). For a 64 MiB variable those copies, and the fresh pages
// each new 64 MiB string or buffer costs, are most of a transfer.
//
// TensorFlow (grpc_tensor_coding.cc, tensor_response.cc) writes the message
// by hand instead, and so does this file. On the wire a protobuf message is
// a sequence of fields, each a tag (field number and wire type), and for a
// message or string field a length, then the bytes. So a RecvTensorResponse
// whose tensor is large is two gRPC slices:
//
//   slice 0 (made here, a few dozen bytes):
//     [is_dead]                               RecvTensorResponse field 2
//     tag 1, length of the TensorProto       RecvTensorResponse.tensor
//       tag 1, dtype                            TensorProto.dtype
//       tag 2, length, TensorShapeProto         TensorProto.tensor_shape
//       tag 4, length of the bytes              TensorProto.tensor_content
//   slice 1: the tensor's own buffer, not copied; the slice holds a
//            reference to it, dropped when gRPC has sent it.
//
// The bytes are exactly those protobuf would write for the same message
// (field order aside: the small fields come before the tensor, as
// TensorFlow writes them), so any protobuf parser, TensorFlow's included,
// reads them as a RecvTensorResponse.
//
// The receiver walks the fields with protobuf's CodedInputStream over gRPC's
// slices (no copy of the message), allocates the tensor once it knows the
// dtype and shape, and copies tensor_content from the slices straight into
// the tensor's buffer: the one copy a transfer needs. A message in any other
// form (fields in another order, typed value lists instead of
// tensor_content, unknown fields) is parsed the ordinary way instead, as
// TensorFlow's ParseSlow does.
//
//   grpc::ByteBuffer bytes;
//   TF_RETURN_IF_ERROR(EncodeRecvTensorResponse(value, false, &bytes));
//   ... gRPC sends `bytes`; the caller may drop `value` at once ...
//   TF_RETURN_IF_ERROR(DecodeRecvTensorResponse(&received, cpu_allocator(),
//                                               &tensor, &is_dead));
#pragma once

#include <grpcpp/support/byte_buffer.h>

#include <cstddef>

#include "minitf/tensor/allocator.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

/// Tensors of more bytes than this are sent from their own buffer; smaller
/// ones are copied into the first slice, where a copy costs less than the
/// reference a shared slice takes (TensorFlow's kLargeTensorBytes).
inline constexpr size_t kShareTensorBytes = 1024;

/// Writes the RecvTensorResponse that carries `value` (none when `is_dead`)
/// into `out`, sharing the bytes of a tensor larger than kShareTensorBytes:
/// `out` keeps `value`'s buffer alive until gRPC releases the slice, however
/// long that is after `value` itself is gone. The tensor must not be written
/// while `out` is alive (a variable's in-place update sees the extra
/// reference and writes a new buffer instead).
/// Errors: InvalidArgument for a tensor not in host memory, or one whose
/// message would be larger than a protobuf message may be (2 GiB).
/// REQUIRES: `value` is initialized unless `is_dead`.
Status EncodeRecvTensorResponse(const Tensor& value, bool is_dead,
                                grpc::ByteBuffer* out);

/// Reads a RecvTensorResponse from `in`: `*is_dead`, and unless it is set,
/// `*value`, allocated from `allocator`. The buffer is read, not consumed.
/// Errors: InvalidArgument "Cannot parse tensor from response" (TensorFlow's
/// text) for bytes that are not a RecvTensorResponse, such as a truncated
/// one; TensorFromProto's errors for a tensor that does not match its shape.
Status DecodeRecvTensorResponse(grpc::ByteBuffer* in, Allocator* allocator,
                                Tensor* value, bool* is_dead);

}  // namespace minitf
