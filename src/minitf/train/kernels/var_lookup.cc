#include "minitf/train/kernels/var_lookup.h"

#include <utility>

#include "minitf/graph/graph.h"
#include "minitf/graph/resource_op_kernel.h"
#include "minitf/tensor/errors.h"

namespace minitf {

VarLocation LocationOf(const Node& variable) {
  const AttrMap& attrs = variable.attrs();
  VarLocation loc;
  ResourcePlace place = ResourcePlaceOf(variable).value();
  loc.container = std::move(place.container);
  loc.name = std::move(place.name);
  loc.dtype = GetAttr<DType>(attrs, "dtype").value();
  loc.shape = GetAttr<TensorShape>(attrs, "shape").value();
  return loc;
}

StatusOr<VarLocation> RefLocation(const OpKernelConstruction& c, int input) {
  const Node& var = *c.node().input(input).node();
  if (var.type_string() != "VariableV2") {
    return errors::InvalidArgument("Input 'ref' of '", c.node().type_string(),
                                   "' Op requires l-value input, got ",
                                   c.node().input(input).name());
  }
  return LocationOf(var);
}

StatusOr<std::shared_ptr<Var>> FindVar(OpKernelContext* ctx,
                                       const VarLocation& loc) {
  return LookupOrCreateResource<Var>(ctx, {loc.container, loc.name}, "variable",
                                     [&]() -> StatusOr<std::shared_ptr<Var>> {
                                       return std::make_shared<Var>(loc.dtype,
                                                                    loc.shape);
                                     });
}

}  // namespace minitf
