// Reference solution of exercise 03_apply_gradient_descent.
#include "apply_gradient_descent.h"

#include <cstdint>

namespace minitf::exercises {
namespace {

// --8<-- [start:sgd_update]
// Through raw pointers into the buffers: var's pointer is where its values
// live, so writing through it is the in-place update.
template <typename T>
void Update(Tensor* var, const Tensor& alpha, const Tensor& delta) {
  T* v = var->data<T>();
  const T* d = delta.data<T>();
  const T lr = alpha.scalar<T>();
  for (int64_t i = 0; i < var->NumElements(); ++i) v[i] -= lr * d[i];
}
// --8<-- [end:sgd_update]

}  // namespace

Status ApplyGradientDescent(Tensor* var, const Tensor& alpha,
                            const Tensor& delta) {
  if (delta.shape() != var->shape()) {
    return errors::InvalidArgument("var and delta do not have the same shape",
                                   var->shape(), " ", delta.shape());
  }
  if (alpha.dims() != 0) {
    return errors::InvalidArgument("alpha is not a scalar: ", alpha.shape());
  }
  switch (var->dtype()) {
    case DT_FLOAT:
      Update<float>(var, alpha, delta);
      return Status::OK();
    case DT_DOUBLE:
      Update<double>(var, alpha, delta);
      return Status::OK();
    default:
      return errors::InvalidArgument("ApplyGradientDescent does not support ",
                                     var->dtype());
  }
}

}  // namespace minitf::exercises
