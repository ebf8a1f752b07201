#include "minitf/graph/attr_value.h"

#include <sstream>

namespace minitf {
namespace {

template <typename T, typename Fn>
std::string ListString(const std::vector<T>& items, Fn&& one) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += one(items[i]);
  }
  return out + "]";
}

std::string TypeString(DType t) {
  switch (t) {
    case DT_FLOAT:
      return "DT_FLOAT";
    case DT_DOUBLE:
      return "DT_DOUBLE";
    case DT_INT32:
      return "DT_INT32";
    case DT_INT64:
      return "DT_INT64";
    case DT_BOOL:
      return "DT_BOOL";
    default:
      return "DT_INVALID";
  }
}

std::string FloatString(float f) {
  std::ostringstream os;
  os << f;
  return os.str();
}

}  // namespace

std::string AttrValue::KindName() const {
  struct Visitor {
    std::string operator()(std::monostate) const { return "none"; }
    std::string operator()(const std::string&) const { return "string"; }
    std::string operator()(int64_t) const { return "int"; }
    std::string operator()(float) const { return "float"; }
    std::string operator()(bool) const { return "bool"; }
    std::string operator()(DType) const { return "type"; }
    std::string operator()(const TensorShape&) const { return "shape"; }
    std::string operator()(const Tensor&) const { return "tensor"; }
    std::string operator()(const std::vector<std::string>&) const {
      return "list(string)";
    }
    std::string operator()(const std::vector<int64_t>&) const {
      return "list(int)";
    }
    std::string operator()(const std::vector<float>&) const {
      return "list(float)";
    }
    std::string operator()(const std::vector<DType>&) const {
      return "list(type)";
    }
    std::string operator()(const std::vector<TensorShape>&) const {
      return "list(shape)";
    }
  };
  return std::visit(Visitor{}, value_);
}

std::string AttrValue::DebugString() const {
  struct Visitor {
    std::string operator()(std::monostate) const { return "<none>"; }
    std::string operator()(const std::string& s) const {
      return "\"" + s + "\"";
    }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(float f) const { return FloatString(f); }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(DType t) const { return TypeString(t); }
    std::string operator()(const TensorShape& s) const {
      return s.DebugString();
    }
    std::string operator()(const Tensor& t) const {
      return "Tensor<type: " + std::string(DataTypeString(t.dtype())) +
             " shape: " + t.shape().DebugString() + ">";
    }
    std::string operator()(const std::vector<std::string>& v) const {
      return ListString(v,
                        [](const std::string& s) { return "\"" + s + "\""; });
    }
    std::string operator()(const std::vector<int64_t>& v) const {
      return ListString(v, [](int64_t i) { return std::to_string(i); });
    }
    std::string operator()(const std::vector<float>& v) const {
      return ListString(v, FloatString);
    }
    std::string operator()(const std::vector<DType>& v) const {
      return ListString(v, TypeString);
    }
    std::string operator()(const std::vector<TensorShape>& v) const {
      return ListString(v,
                        [](const TensorShape& s) { return s.DebugString(); });
    }
  };
  return std::visit(Visitor{}, value_);
}

bool AttrValue::operator==(const AttrValue& other) const {
  if (value_.index() != other.value_.index()) return false;
  if (holds<Tensor>()) {
    // Tensors compare by dtype, shape and bytes.
    const Tensor& a = get<Tensor>();
    const Tensor& b = other.get<Tensor>();
    if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
    if (!a.IsInitialized() || !b.IsInitialized()) {
      return a.IsInitialized() == b.IsInitialized();
    }
    return SwitchDType(a.dtype(), [&]<typename T>() {
      return a.ToVector<T>() == b.ToVector<T>();
    });
  }
  return std::visit(
      [&](const auto& a) {
        using V = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<V, Tensor>) {
          return false;  // Handled above.
        } else {
          return a == std::get<V>(other.value_);
        }
      },
      value_);
}

}  // namespace minitf
