// Reference solution of exercise 04_matmul_shape.
#include "matmul_shape.h"

namespace minitf::exercises {

// WithRank turns an unknown rank into [?,?] and writes TensorFlow's message
// for a wrong one; Merge lets an unknown inner dimension agree with any.
Status MatMulShape(InferenceContext* c) {
  TensorShape a, b;
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(0), 2, &a));
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(1), 2, &b));
  TF_ASSIGN_OR_RETURN(bool transpose_a, c->GetAttr<bool>("transpose_a"));
  TF_ASSIGN_OR_RETURN(bool transpose_b, c->GetAttr<bool>("transpose_b"));
  const int64_t m = a.dim_size(transpose_a ? 1 : 0);
  const int64_t k = a.dim_size(transpose_a ? 0 : 1);
  const int64_t k_b = b.dim_size(transpose_b ? 1 : 0);
  const int64_t n = b.dim_size(transpose_b ? 0 : 1);
  int64_t inner;
  TF_RETURN_IF_ERROR(InferenceContext::Merge(k, k_b, &inner));
  c->set_output(0, TensorShape({m, n}));
  return Status::OK();
}

}  // namespace minitf::exercises
