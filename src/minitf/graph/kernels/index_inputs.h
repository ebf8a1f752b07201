// The index inputs of a kernel: the small int32 or int64 tensors that say
// what to do rather than hold data (a shape, a permutation, the begins of a
// slice, an axis), read on the host and checked in TensorFlow's words.
//
// A Session may feed an index input any tensor, so a kernel checks its rank
// before it reads it: a bad one is an error Status, never a crash. Every
// device's kernel of an op reads them through these functions, so the
// CPU's and the GPU's kernels refuse a bad one alike.
//
//   TF_ASSIGN_OR_RETURN(std::vector<int64_t> perm,
//                       VectorInput(ctx, 1, "perm"));
//   TF_ASSIGN_OR_RETURN(int64_t axis, ScalarInput(ctx, 2, "axis"));
#pragma once

#include <cstdint>
#include <vector>

#include "minitf/graph/kernel.h"

namespace minitf {

/// The values of the 1-D index input `i`, named `what` in the message
/// ("perm must be a 1-D tensor, not [2,2]").
StatusOr<std::vector<int64_t>> VectorInput(OpKernelContext* ctx, int i,
                                           const char* what);
/// The value of the scalar index input `i` ("axis must be a scalar, not
/// [1]").
StatusOr<int64_t> ScalarInput(OpKernelContext* ctx, int i, const char* what);
/// The axis of ArgMax and ArgMin, their scalar index input `i`, in
/// TensorFlow's words for it ("dim must be a scalar, but received tensor of
/// shape: [1]").
StatusOr<int64_t> DimensionInput(OpKernelContext* ctx, int i);

}  // namespace minitf
