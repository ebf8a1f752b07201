// Proto conversion: tensors, shapes, dtypes and attrs as protocol buffers.
//
// A GraphDef (graph_def.h) is built from smaller messages: a Const node's
// value is a TensorProto, a Placeholder's shape a TensorShapeProto, every
// attr an AttrValue proto. These functions convert each of minitf's in-memory
// types to its message and back, with TensorFlow's encoding rules: a dtype is
// the same number in both, a tensor is written as its raw little-endian bytes
// (tensor_content), and a tensor is read from either those bytes or the typed
// value lists (float_val ...), where one value fills the whole shape. Later
// chapters reuse them wherever a tensor crosses a file or a wire.
//
//   proto::TensorProto p;
//   TF_RETURN_IF_ERROR(TensorToProto(Tensor({1.f, 2.f}), &p));
//   // p: dtype: DT_FLOAT tensor_shape { dim { size: 2 } }
//   //    tensor_content: "\000\000\200?\000\000\000@"
//   TF_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(p));   // [1. 2.]
#pragma once

#include <string_view>

#include "minitf/graph/attr_value.h"
#include "minitf/graph/proto/graph.pb.h"
#include "minitf/tensor/dtype.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"
#include "minitf/tensor/tensor_shape.h"

namespace minitf {

/// The enum value is the same number: DT_FLOAT is 1 in both.
proto::DataType DTypeToProto(DType dtype);
/// Unimplemented, naming the type, for a TensorFlow dtype minitf does not
/// compute with (DT_STRING, DT_HALF ...); InvalidArgument for DT_INVALID.
StatusOr<DType> DTypeFromProto(int dtype);

/// A dimension of tf::None is written as size -1; an unknown-rank shape as
/// unknown_rank: true with no dims, as TensorFlow writes them.
void ShapeToProto(const TensorShape& shape, proto::TensorShapeProto* out);
/// InvalidArgument for a size below -1, dims under an unknown rank, or a
/// product that overflows int64.
StatusOr<TensorShape> ShapeFromProto(const proto::TensorShapeProto& shape);

/// Writes dtype, shape and, for a non-empty tensor, tensor_content.
/// REQUIRES: the tensor is initialized and in host memory, else
/// InvalidArgument.
Status TensorToProto(const Tensor& tensor, proto::TensorProto* out);
/// Reads tensor_content when it is set, else the typed list for the dtype
/// (float_val, double_val, int_val, int64_val, bool_val) with TensorFlow's
/// rule for short lists: the last value repeats to fill the shape, and no
/// value at all means zeros. InvalidArgument for a wrong byte count, too many
/// values or a shape that is not fully defined; ResourceExhausted above
/// kMaxTensorProtoBytes.
StatusOr<Tensor> TensorFromProto(const proto::TensorProto& tensor);
/// The largest tensor a TensorProto is read into: 2 GiB. A protobuf message
/// cannot exceed 2 GiB, and a few bytes of float_val can ask for any shape,
/// so the cap keeps a corrupt file from allocating without bound.
///
/// In the fuzzers (fuzz/), the cap is 64 MiB: a dozen bytes may rightly
/// claim 2 GiB of zeros, and a fuzzer stops at 2 GiB of memory and 10 s an
/// input. Claims over the cap take the same path there. The value is defined
/// in a file of its own, max_tensor_proto_bytes.cc, which a program may
/// replace (minitf_layer_defaults in cmake/Course.cmake says how), and the
/// fuzzers link fuzz/fuzzing_limits.cc in its place.
extern const int64_t kMaxTensorProtoBytes;

/// Every kind of AttrValue has its field; a list fills the ListValue field
/// of its element kind. InvalidArgument for a tensor TensorToProto refuses.
Status AttrValueToProto(const AttrValue& value, proto::AttrValue* out);
/// `kind` is the attr's kind in the OpDef ("int", "list(type)" ...) or ""
/// when not known (annotations such as _class). It only decides what an
/// empty list is, which the bytes cannot say: `list {}` is an empty
/// list(int) for a list(int) attr, and an empty list(string) when the kind
/// is not known. Unimplemented for kinds minitf has no AttrValue for
/// (list(bool), list(tensor), function placeholders).
StatusOr<AttrValue> AttrValueFromProto(const proto::AttrValue& value,
                                       std::string_view kind = "");

/// The kind of value a proto AttrValue holds, in op-definition syntax
/// ("bool", "list(int)", "list(bool)", "placeholder" ...), to check against
/// an OpDef (CheckAttrKind) before the value is converted; "" when no value
/// is set. An empty list's bytes carry no kind: it is `kind` when that is a
/// list kind (any list may be empty), else "" too, as TensorFlow reads it.
std::string AttrValueProtoKind(const proto::AttrValue& value,
                               std::string_view kind);

}  // namespace minitf
