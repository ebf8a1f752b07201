#include "minitf/graph/proto_convert.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

namespace minitf {
namespace {

// tensor_content holds the bytes as a little-endian machine stores them, so
// on such a machine (x86-64 and AArch64 as Linux runs them) writing and
// reading are one memcpy. A big-endian port would swap bytes here.
static_assert(std::endian::native == std::endian::little,
              "tensor_content is little-endian; this build would need "
              "byte swapping");
// TensorFlow stores a bool in one byte.
static_assert(sizeof(bool) == 1);

// The typed value list of a TensorProto for element type T.
template <typename T>
const auto& TypedValues(const proto::TensorProto& p) {
  if constexpr (std::is_same_v<T, float>) return p.float_val();
  if constexpr (std::is_same_v<T, double>) return p.double_val();
  if constexpr (std::is_same_v<T, int32_t>) return p.int_val();
  if constexpr (std::is_same_v<T, int64_t>) return p.int64_val();
  if constexpr (std::is_same_v<T, bool>) return p.bool_val();
}

template <typename T>
StatusOr<Tensor> FillTensor(const proto::TensorProto& p, Tensor t) {
  static_assert(std::is_arithmetic_v<T>, "zero is all-0 bytes below");
  const int64_t n = t.NumElements();
  const std::string& content = p.tensor_content();
  if (!content.empty()) {
    // Its size was checked before `t` was allocated (TensorFromProto).
    if constexpr (std::is_same_v<T, bool>) {
      // Any byte other than 0 or 1 would be an invalid bool to read.
      bool* out = t.data<bool>();
      for (int64_t i = 0; i < n; ++i) out[i] = content[i] != 0;
    } else {
      std::memcpy(t.data<T>(), content.data(), content.size());
    }
    return t;
  }
  const auto& values = TypedValues<T>(p);
  const int64_t given = values.size();
  if (given > n) {
    return errors::InvalidArgument(
        "TensorProto of type ", DataTypeString(t.dtype()), " and shape ",
        t.shape(), " holds ", n, " values, but ", given, " are given");
  }
  if (n == 0) return t;
  T* out = t.data<T>();
  // TensorFlow's rule: the last value given fills the rest, so
  // `float_val: 0.5` with shape [2,3] is six halves; none at all is zeros.
  // A few bytes from the wire may claim a large tensor of zeros, so the
  // fill is one pass the C library does, not a loop over elements.
  if (given == 0) {
    std::memset(out, 0, n * sizeof(T));
    return t;
  }
  for (int64_t i = 0; i < given; ++i) out[i] = static_cast<T>(values[i]);
  std::fill(out + given, out + n, out[given - 1]);
  return t;
}

template <typename T, typename Repeated>
std::vector<T> ToVector(const Repeated& values) {
  return std::vector<T>(values.begin(), values.end());
}

// Which kind an empty ListValue is when the OpDef does not say.
constexpr std::string_view kDefaultListKind = "list(string)";

StatusOr<AttrValue> ListFromProto(const proto::AttrValue::ListValue& list,
                                  std::string_view kind) {
  const int kinds = (list.s_size() > 0) + (list.i_size() > 0) +
                    (list.f_size() > 0) + (list.b_size() > 0) +
                    (list.type_size() > 0) + (list.shape_size() > 0) +
                    (list.tensor_size() > 0);
  if (kinds > 1) {
    return errors::InvalidArgument(
        "AttrValue list holds values of more than one kind");
  }
  if (list.b_size() > 0) {
    return errors::Unimplemented("list(bool) attrs are not supported");
  }
  if (list.tensor_size() > 0) {
    return errors::Unimplemented("list(tensor) attrs are not supported");
  }
  if (list.i_size() > 0) return AttrValue(ToVector<int64_t>(list.i()));
  if (list.f_size() > 0) return AttrValue(ToVector<float>(list.f()));
  if (list.s_size() > 0) return AttrValue(ToVector<std::string>(list.s()));
  if (list.type_size() > 0) {
    std::vector<DType> types;
    for (int t : list.type()) {
      TF_ASSIGN_OR_RETURN(DType d, DTypeFromProto(t));
      types.push_back(d);
    }
    return AttrValue(std::move(types));
  }
  if (list.shape_size() > 0) {
    std::vector<TensorShape> shapes;
    for (const auto& s : list.shape()) {
      TF_ASSIGN_OR_RETURN(TensorShape shape, ShapeFromProto(s));
      shapes.push_back(std::move(shape));
    }
    return AttrValue(std::move(shapes));
  }
  // Empty: the bytes cannot say of what, so the OpDef's kind decides.
  if (kind.empty()) kind = kDefaultListKind;
  if (kind == "list(int)") return AttrValue(std::vector<int64_t>());
  if (kind == "list(float)") return AttrValue(std::vector<float>());
  if (kind == "list(type)") return AttrValue(std::vector<DType>());
  if (kind == "list(shape)") return AttrValue(std::vector<TensorShape>());
  if (kind == "list(string)") return AttrValue(std::vector<std::string>());
  return errors::InvalidArgument("An empty list cannot be an attr of kind ",
                                 kind);
}

// "2 GiB"; "64 MiB" in the fuzzers.
std::string CapString() {
  constexpr int64_t kGiB = int64_t{1} << 30;
  return kMaxTensorProtoBytes % kGiB == 0
             ? StrCat(kMaxTensorProtoBytes / kGiB, " GiB")
             : StrCat(kMaxTensorProtoBytes >> 20, " MiB");
}
}  // namespace

proto::DataType DTypeToProto(DType dtype) {
  return static_cast<proto::DataType>(dtype);
}

StatusOr<DType> DTypeFromProto(int dtype) {
  switch (dtype) {
    case DT_FLOAT:
    case DT_DOUBLE:
    case DT_INT32:
    case DT_INT64:
    case DT_BOOL:
      return static_cast<DType>(dtype);
    case DT_INVALID:
      return errors::InvalidArgument("dtype DT_INVALID is not a valid type");
    default:
      break;
  }
  const std::string& name =
      proto::DataType_IsValid(dtype)
          ? proto::DataType_Name(static_cast<proto::DataType>(dtype))
          : std::string();
  return errors::Unimplemented(
      "dtype ", name.empty() ? "number " + std::to_string(dtype) : name,
      " is not supported by minitf (it computes with float32, float64, "
      "int32, int64 and bool)");
}

void ShapeToProto(const TensorShape& shape, proto::TensorShapeProto* out) {
  out->Clear();
  if (shape.unknown_rank()) {
    out->set_unknown_rank(true);
    return;
  }
  for (int64_t d : shape.dim_sizes()) out->add_dim()->set_size(d);
}

StatusOr<TensorShape> ShapeFromProto(const proto::TensorShapeProto& shape) {
  if (shape.unknown_rank()) {
    if (shape.dim_size() > 0) {
      return errors::InvalidArgument(
          "A shape of unknown rank cannot list dimensions, but this one has ",
          shape.dim_size());
    }
    return TensorShape::UnknownRank();
  }
  std::vector<int64_t> dims;
  dims.reserve(shape.dim_size());
  for (const auto& d : shape.dim()) dims.push_back(d.size());
  return TensorShape::FromDims(dims, /*allow_unknown=*/true);
}

Status TensorToProto(const Tensor& tensor, proto::TensorProto* out) {
  if (!tensor.IsInitialized()) {
    return errors::InvalidArgument("Cannot write an uninitialized tensor");
  }
  if (tensor.allocator() != nullptr && !tensor.allocator()->HostAccessible()) {
    return errors::InvalidArgument(
        "Cannot write a tensor whose bytes are not in host memory; copy it to "
        "the host first");
  }
  out->Clear();
  out->set_dtype(DTypeToProto(tensor.dtype()));
  ShapeToProto(tensor.shape(), out->mutable_tensor_shape());
  if (tensor.NumElements() > 0) {
    // The compact form TensorFlow writes for all but tiny tensors.
    SwitchDType(tensor.dtype(), [&]<typename T>() {
      out->set_tensor_content(
          reinterpret_cast<const char*>(tensor.data<T>()),
          static_cast<size_t>(tensor.NumElements()) * sizeof(T));
    });
  }
  return Status::OK();
}

StatusOr<Tensor> TensorFromProto(const proto::TensorProto& tensor) {
  TF_ASSIGN_OR_RETURN(DType dtype, DTypeFromProto(tensor.dtype()));
  TF_ASSIGN_OR_RETURN(TensorShape shape, ShapeFromProto(tensor.tensor_shape()));
  if (!shape.IsFullyDefined()) {
    return errors::InvalidArgument(
        "A TensorProto's shape must be fully defined, not ", shape);
  }
  const int64_t n = shape.num_elements();
  if (n > kMaxTensorProtoBytes / DataTypeSize(dtype)) {
    return errors::ResourceExhausted("TensorProto of type ",
                                     DataTypeString(dtype), " and shape ",
                                     shape, " is larger than ", CapString());
  }
  // tensor_content must be exactly the tensor's bytes: check before
  // allocating, so that a few bytes claiming a huge shape cost nothing.
  const int64_t want = n * DataTypeSize(dtype);
  const size_t content = tensor.tensor_content().size();
  if (content != 0 && static_cast<int64_t>(content) != want) {
    return errors::InvalidArgument(
        "TensorProto of type ", DataTypeString(dtype), " and shape ", shape,
        " needs ", want, " bytes of tensor_content, but has ", content);
  }
  TF_ASSIGN_OR_RETURN(Tensor t, Tensor::Allocate(dtype, shape));
  return SwitchDType(
      dtype, [&]<typename T>() { return FillTensor<T>(tensor, std::move(t)); });
}

Status AttrValueToProto(const AttrValue& value, proto::AttrValue* out) {
  out->Clear();
  struct Visitor {
    proto::AttrValue* out;
    Status operator()(std::monostate) const {
      return errors::InvalidArgument("Cannot write an attr with no value");
    }
    Status operator()(const std::string& s) const {
      out->set_s(s);
      return Status::OK();
    }
    Status operator()(int64_t i) const {
      out->set_i(i);
      return Status::OK();
    }
    Status operator()(float f) const {
      out->set_f(f);
      return Status::OK();
    }
    Status operator()(bool b) const {
      out->set_b(b);
      return Status::OK();
    }
    Status operator()(DType t) const {
      out->set_type(DTypeToProto(t));
      return Status::OK();
    }
    Status operator()(const TensorShape& s) const {
      ShapeToProto(s, out->mutable_shape());
      return Status::OK();
    }
    Status operator()(const Tensor& t) const {
      return TensorToProto(t, out->mutable_tensor());
    }
    Status operator()(const std::vector<std::string>& v) const {
      auto* list = out->mutable_list();
      for (const auto& s : v) list->add_s(s);
      return Status::OK();
    }
    Status operator()(const std::vector<int64_t>& v) const {
      auto* list = out->mutable_list();
      for (int64_t i : v) list->add_i(i);
      return Status::OK();
    }
    Status operator()(const std::vector<float>& v) const {
      auto* list = out->mutable_list();
      for (float f : v) list->add_f(f);
      return Status::OK();
    }
    Status operator()(const std::vector<DType>& v) const {
      auto* list = out->mutable_list();
      for (DType t : v) list->add_type(DTypeToProto(t));
      return Status::OK();
    }
    Status operator()(const std::vector<TensorShape>& v) const {
      auto* list = out->mutable_list();
      for (const auto& s : v) ShapeToProto(s, list->add_shape());
      return Status::OK();
    }
  };
  return std::visit(Visitor{out}, value.value());
}

StatusOr<AttrValue> AttrValueFromProto(const proto::AttrValue& value,
                                       std::string_view kind) {
  switch (value.value_case()) {
    case proto::AttrValue::kList:
      return ListFromProto(value.list(), kind);
    case proto::AttrValue::kS:
      return AttrValue(value.s());
    case proto::AttrValue::kI:
      return AttrValue(static_cast<int64_t>(value.i()));
    case proto::AttrValue::kF:
      return AttrValue(value.f());
    case proto::AttrValue::kB:
      return AttrValue(value.b());
    case proto::AttrValue::kType: {
      TF_ASSIGN_OR_RETURN(DType t, DTypeFromProto(value.type()));
      return AttrValue(t);
    }
    case proto::AttrValue::kShape: {
      TF_ASSIGN_OR_RETURN(TensorShape s, ShapeFromProto(value.shape()));
      return AttrValue(std::move(s));
    }
    case proto::AttrValue::kTensor: {
      TF_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(value.tensor()));
      return AttrValue(std::move(t));
    }
    case proto::AttrValue::kPlaceholder:
      return errors::Unimplemented("the attr is the function placeholder '",
                                   value.placeholder(),
                                   "'; minitf has no functions");
    case proto::AttrValue::VALUE_NOT_SET:
      break;
  }
  return errors::InvalidArgument("AttrValue has no value set");
}

std::string AttrValueProtoKind(const proto::AttrValue& value,
                               std::string_view kind) {
  switch (value.value_case()) {
    case proto::AttrValue::kList: {
      const auto& list = value.list();
      // A list mixing kinds is refused when it is converted; here the first
      // kind present names it.
      if (list.s_size() > 0) return "list(string)";
      if (list.i_size() > 0) return "list(int)";
      if (list.f_size() > 0) return "list(float)";
      if (list.b_size() > 0) return "list(bool)";
      if (list.type_size() > 0) return "list(type)";
      if (list.shape_size() > 0) return "list(shape)";
      if (list.tensor_size() > 0) return "list(tensor)";
      // Empty: a value for any list kind, and no value for any other.
      return kind.starts_with("list(") ? std::string(kind) : "";
    }
    case proto::AttrValue::kS:
      return "string";
    case proto::AttrValue::kI:
      return "int";
    case proto::AttrValue::kF:
      return "float";
    case proto::AttrValue::kB:
      return "bool";
    case proto::AttrValue::kType:
      return "type";
    case proto::AttrValue::kShape:
      return "shape";
    case proto::AttrValue::kTensor:
      return "tensor";
    case proto::AttrValue::kPlaceholder:
      return "placeholder";
    case proto::AttrValue::VALUE_NOT_SET:
      break;
  }
  return "";
}

}  // namespace minitf
