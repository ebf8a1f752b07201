// Reference solution of exercise 04_apply_momentum.
#include "apply_momentum.h"

#include <cstdint>
#include <utility>

namespace minitf::exercises {
namespace {

// --8<-- [start:momentum_update]
// accum first: both variants step with the velocity that includes this
// step's gradient.
template <typename T>
void Update(Tensor* var, Tensor* accum, const Tensor& lr, const Tensor& grad,
            const Tensor& momentum, bool use_nesterov) {
  T* v = var->data<T>();
  T* a = accum->data<T>();
  const T* g = grad.data<T>();
  const T rate = lr.scalar<T>();
  const T mu = momentum.scalar<T>();
  for (int64_t i = 0; i < var->NumElements(); ++i) {
    a[i] = a[i] * mu + g[i];
    if (use_nesterov) {
      v[i] -= g[i] * rate + a[i] * mu * rate;
    } else {
      v[i] -= a[i] * rate;
    }
  }
}
// --8<-- [end:momentum_update]

}  // namespace

Status ApplyMomentum(Tensor* var, Tensor* accum, const Tensor& lr,
                     const Tensor& grad, const Tensor& momentum,
                     bool use_nesterov) {
  // The kernel's order: the variable-shaped inputs, then the scalars.
  const std::pair<const char*, const Tensor*> same_shape[] = {{"accum", accum},
                                                              {"grad", &grad}};
  for (const auto& [name, t] : same_shape) {
    if (t->shape() != var->shape()) {
      return errors::InvalidArgument("var and ", name,
                                     " do not have the same shape",
                                     var->shape(), " ", t->shape());
    }
  }
  const std::pair<const char*, const Tensor*> scalars[] = {
      {"lr", &lr}, {"momentum", &momentum}};
  for (const auto& [name, t] : scalars) {
    if (t->dims() != 0) {
      return errors::InvalidArgument(name, " is not a scalar: ", t->shape());
    }
  }
  switch (var->dtype()) {
    case DT_FLOAT:
      Update<float>(var, accum, lr, grad, momentum, use_nesterov);
      return Status::OK();
    case DT_DOUBLE:
      Update<double>(var, accum, lr, grad, momentum, use_nesterov);
      return Status::OK();
    default:
      return errors::InvalidArgument("ApplyMomentum does not support ",
                                     var->dtype());
  }
}

}  // namespace minitf::exercises
