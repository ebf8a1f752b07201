// Exercise 01_matmul_grad: the gradient function of MatMul.
//
// tf::gradients never differentiates anything itself. It walks the graph
// backwards and, for each op on the way, calls the gradient function that
// the op type registered (MINITF_REGISTER_GRADIENT("MatMul", ...), as
// TensorFlow's @ops.RegisterGradient("MatMul")). That function receives the
// forward op and the gradient dC of the loss with respect to the op's output,
// and *builds graph ops* that compute the gradients of its inputs. For
// C = A B they are dA = dC B^T and dB = A^T dC; transpose_a and transpose_b
// move the transposes around:
//
//   auto a = tf::placeholder(tf::float32, {2, 3}, "a");
//   auto b = tf::placeholder(tf::float32, {3, 4}, "b");
//   auto c = tf::matmul(a, b);                          // [2,4]
//   auto dc = tf::placeholder(tf::float32, {2, 4}, "dc");
//   auto g = MatMulGrad(c.op(), {dc});   // g[0]: [2,3] like a, g[1]: [3,4]
#pragma once

#include <vector>

#include "minitf/graph/graph.h"

namespace minitf::exercises {

/// The gradients of MatMul's two inputs, as TensorFlow's _MatMulGrad.
///
/// `op` is a MatMul node c = matmul(a, b, transpose_a, transpose_b), its
/// inputs op.input(0) = a and op.input(1) = b, its attributes "transpose_a"
/// and "transpose_b" (bool). `grads` holds one entry, grads[0] = dc, the
/// gradient of the loss with respect to c, of c's shape and dtype.
///
/// Returns {da, db}: new graph ops (built in the current graph and name
/// scope) whose values are the gradients of the loss with respect to a and
/// b, each of its input's shape, as the op stores it (a transposed input
/// keeps its stored shape). Shapes may be partial (a None batch); the ops
/// must work for any value they take when the graph runs.
///
///   a:[m,k] b:[k,n] dc:[m,n] -> da:[m,k] db:[k,n]     (no transposes)
///   a:[k,m] b:[n,k] dc:[m,n] -> da:[k,m] db:[n,k]     (both transposed)
std::vector<Output> MatMulGrad(const Operation& op,
                               const std::vector<Output>& grads);

}  // namespace minitf::exercises
