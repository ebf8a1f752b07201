// The checks chapter 1's kernels make of their inputs, as functions of
// their own, so that every kernel of an op, on any device, says the same
// thing in the same words.
//
// A kernel checks before it computes: its inputs are initialized and of the
// dtypes it takes, their shapes fit the op. The CPU kernels of this folder
// call these checks, and so do a later layer's kernels of the same ops on
// another device (the GPU's, which must not read the data to check it and
// need not: every check here reads dtypes and shapes only). The words are
// TensorFlow's.
//
//   TF_RETURN_IF_ERROR(kernels::CheckInitialized("Add", x, 0));
//   TF_RETURN_IF_ERROR(kernels::CheckSameDType("Add", x, y));
//   TF_ASSIGN_OR_RETURN(kernels::MatMulSizes s,
//                       kernels::CheckMatMul(a, b, false, false));
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::kernels {

// --- any op -----------------------------------------------------------------

/// InvalidArgument "cannot compute Add as input #1(zero-based) is an
/// uninitialized tensor" unless `t` is initialized.
Status CheckInitialized(std::string_view op, const Tensor& t, int index);
/// InvalidArgument "cannot compute Add as input #1(zero-based) was expected
/// to be a float tensor but is a int32 tensor" unless the dtypes agree;
/// `y_index` is y's input number in the message.
Status CheckSameDType(std::string_view op, const Tensor& x, const Tensor& y,
                      int y_index = 1);
/// InvalidArgument "No Exp kernel for dtype int32 (Exp takes float,
/// double)": `takes` lists the dtypes the op has a kernel for.
Status NoKernel(std::string_view op, DType dtype, std::string_view takes);
/// True for the numbers: floats and integers, not bool.
bool IsNumeric(DType dtype);
/// InvalidArgument "Sum has no kernel for dtype bool" unless IsNumeric.
Status CheckNumeric(std::string_view op, DType dtype);

// --- Cast and Fill ----------------------------------------------------------

/// x initialized, `to` a valid dtype.
Status CheckCast(const Tensor& x, DType to);
/// value an initialized scalar ("value must be a scalar, got shape [2]"),
/// `dims` no negative size: the output's shape.
StatusOr<TensorShape> CheckFill(const std::vector<int64_t>& dims,
                                const Tensor& value);
/// Fill's two inputs as a graph gives them, before dims is read: dims a
/// vector ("dims must be a vector, got shape [2,2]"), value as CheckFill
/// wants it.
Status CheckFillInputs(const Tensor& dims, const Tensor& value);

// --- Tile and BroadcastTo --------------------------------------------------

/// One multiple per dimension of x, none negative ("Expected multiples[1] >=
/// 0, but got -1"): the tiled shape, x's dimensions times the multiples.
StatusOr<TensorShape> CheckTile(const TensorShape& x,
                                const std::vector<int64_t>& multiples);
/// x aligned with `shape` at the last axis, each of its dimensions 1 or
/// equal to shape's ("Unable to broadcast tensor of shape [2,3] to tensor of
/// shape [4]").
Status CheckBroadcastTo(const TensorShape& x,
                        const std::vector<int64_t>& shape);

// --- ArgMax and ArgMin ------------------------------------------------------

/// x:[outer, n, inner] around the reduced axis, and the output's shape.
struct ArgReducePlan {
  int64_t outer = 1, n = 1, inner = 1;
  TensorShape out_shape;
};
/// `axis` in [-rank, rank) and not empty in x. REQUIRES: x's dtype checked.
StatusOr<ArgReducePlan> PlanArgReduce(const Tensor& x, int axis);

// --- Mean and Softmax ------------------------------------------------------

/// InvalidArgument "Mean of an empty set of int32 values is undefined
/// (reducing shape [0,3])" when a Mean of an integer x reduces no element
/// (`reduced_count` 0); a floating Mean of nothing is NaN.
Status CheckMeanOfEmpty(const Tensor& x, int64_t reduced_count);
/// logits of a floating dtype ("Softmax has no kernel for dtype int32") and
/// at least a vector.
Status CheckSoftmaxLogits(std::string_view op, const Tensor& logits);

// --- Slice and BiasAdd -----------------------------------------------------

/// InvalidArgument "Expected begin and size arguments to be 1-D tensors of
/// size 2, but got shapes [1] and [2] instead." unless `begin` and `size`
/// both have `rank` entries. Slice's kernel and its shape function check
/// this alike.
Status CheckSliceArgs(int rank, const std::vector<int64_t>& begin,
                      const std::vector<int64_t>& size);
/// value at least a matrix, bias a vector as long as value's last
/// dimension ("Must provide as many biases as the last dimension of the
/// input tensor: [3] vs. [2,4]").
Status CheckBiasAdd(const Tensor& value, const Tensor& bias);

// --- MatMul -----------------------------------------------------------------

/// out:[m, n] = op(a):[m, k] op(b):[k, n].
struct MatMulSizes {
  int64_t m = 0, n = 0, k = 0;
};
/// Both operands matrices of one dtype; TensorFlow checks them in this order
/// before it looks at the dtype itself.
Status CheckMatMulOperands(const Tensor& a, const Tensor& b);
/// The sizes, with op(a)'s columns equal to op(b)'s rows.
/// REQUIRES: CheckMatMulOperands(a, b) is OK.
StatusOr<MatMulSizes> MatMulSizesOf(const Tensor& a, const Tensor& b,
                                    bool transpose_a, bool transpose_b);

}  // namespace minitf::kernels
