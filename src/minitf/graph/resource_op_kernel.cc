#include "minitf/graph/resource_op_kernel.h"

#include "minitf/graph/attr_value.h"

namespace minitf {

StatusOr<ResourcePlace> ResourcePlaceOf(const Node& node) {
  const AttrMap& attrs = node.attrs();
  ResourcePlace place;
  TF_ASSIGN_OR_RETURN(place.container,
                      GetAttr<std::string>(attrs, "container"));
  TF_ASSIGN_OR_RETURN(place.name, GetAttr<std::string>(attrs, "shared_name"));
  if (place.name.empty()) place.name = node.name();
  return place;
}

Status CheckResourceSignature(DType resource_dtype, DType op_dtype,
                              const std::string& inputs, bool dtype_is_output) {
  if (resource_dtype == op_dtype) return Status::OK();
  auto signature = [&](DType t) {
    const std::string name(DataTypeString(t));
    return dtype_is_output ? inputs + "->" + name : inputs + ", " + name + "->";
  };
  return errors::InvalidArgument(
      "Signature mismatch, have: ", signature(op_dtype),
      " expected: ", signature(resource_dtype));
}

}  // namespace minitf
