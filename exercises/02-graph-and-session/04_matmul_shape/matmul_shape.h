// Exercise 04_matmul_shape: the shape function of MatMul.
//
// Every op type registers a shape function with its OpDef
// (.SetShapeFn(MatMulShape)); the graph builder calls it for each new node,
// with the shapes of the node's inputs and its attributes, so that
// `tf::matmul(a, b)` knows its output's shape, or fails, on the line that
// builds it, before anything runs. Seed 001 prints that shape:
//
//   auto a = tf::constant({...}, {2, 3}, "a");
//   auto b = tf::constant({...}, {3, 2}, "b");
//   auto c = tf::matmul(a, b);  // c is Tensor("MatMul:0", shape=(2, 2), ...)
//
//   [2,3] x [3,2]                      -> [2,2]
//   [?,3] x [3,4]                      -> [?,4]   a batch known only at run
//   time [3,2] x [3,4], transpose_a         -> [2,4] [2,3] x [4,2] ->
//   "Dimensions must be equal, but are 3
//                                          and 4"
#pragma once

#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/status.h"

namespace minitf::exercises {

/// Sets c->output(0) to the shape of MatMul(a, b).
///
/// Inputs: c->input(0) is a's shape, c->input(1) b's; either may be partial
/// (a dimension of None) or of unknown rank. Attributes: "transpose_a" and
/// "transpose_b" (bool), read with c->GetAttr<bool>.
///
/// Rules, each error InvalidArgument with TensorFlow's text, in this order:
///  1. a, then b, must be of rank 2: "Shape must be rank 2 but is rank 3".
///     An unknown rank counts as rank 2 with both dimensions unknown.
///  2. The product reads a (or aᵀ with transpose_a) as [m,k] and b (or bᵀ)
///     as [k',n]. k and k' must agree: "Dimensions must be equal, but are 3
///     and 4" (a's first); an unknown one agrees with anything.
///  3. The output is [m,n], each unknown where the input's is.
Status MatMulShape(InferenceContext* c);

}  // namespace minitf::exercises
