#include "minitf/graph/kernels/index_inputs.h"

#include "minitf/graph/shape_inference.h"

namespace minitf {

StatusOr<std::vector<int64_t>> VectorInput(OpKernelContext* ctx, int i,
                                           const char* what) {
  const Tensor& t = ctx->input(i);
  if (t.dims() != 1) {
    return errors::InvalidArgument(what, " must be a 1-D tensor, not ",
                                   ShapeErrorString(t.shape()));
  }
  return IndexValues(t);
}

StatusOr<int64_t> ScalarInput(OpKernelContext* ctx, int i, const char* what) {
  const Tensor& t = ctx->input(i);
  if (t.dims() != 0) {
    return errors::InvalidArgument(what, " must be a scalar, not ",
                                   ShapeErrorString(t.shape()));
  }
  TF_ASSIGN_OR_RETURN(std::vector<int64_t> v, IndexValues(t));
  return v[0];
}

}  // namespace minitf
