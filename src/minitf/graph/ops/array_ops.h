// Graph ops that make, name, pass and rearrange tensors: constants,
// placeholders, identity, no_op and group; reshape, transpose, concat, stack,
// slice; fill, zeros, ones, one_hot; shape, size and rank.
//
// `tf::constant` puts a value into the graph (a Const node holding it as its
// `value` attr); `tf::placeholder` is a hole that every run must fill through
// its feed_dict. Both are how data enters a graph in chapter 2. The array ops
// move elements without arithmetic; their shape functions work with partly
// known shapes, so `reshape(x, {-1, 28, 28, 1})` of a [None,784] placeholder
// is known to be (?, 28, 28, 1) before anything runs.
//
//   auto a = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
//   auto x = tf::placeholder(tf::float32, {tf::None, 784}, "x");
//   auto img = tf::reshape(x, {-1, 28, 28, 1});  // Tensor("Reshape:0", ...)
//   auto y = tf::one_hot(labels, 10);             // int labels -> [n,10]
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

/// tf.constant(value, name=name): a Const node holding `value`.
Output constant(const Tensor& value, const std::string& name = "");
/// tf.constant(values, shape=shape, name=name): TensorFlow's rules, a flat
/// list laid out in `shape` or one value filling it; a count that fits
/// neither throws InvalidArgumentError naming both sizes.
template <TensorElement T>
Output constant(std::initializer_list<T> values,
                const std::vector<int64_t>& shape,
                const std::string& name = "") {
  return constant(errors::ValueOrThrow(Tensor::FromVector(
                      std::vector<T>(values), TensorShape(shape))),
                  name);
}

/// tf.placeholder(dtype, shape, name): a value each run must feed. A shape
/// of tf::None entries (or TensorShape::UnknownRank(), the default) accepts
/// any size there.
Output placeholder(DType dtype,
                   const TensorShape& shape = TensorShape::UnknownRank(),
                   const std::string& name = "");
Output placeholder(DType dtype, std::initializer_list<int64_t> shape,
                   const std::string& name = "");

/// tf.identity: the same tensor, as a new node (handy for naming a value).
Output identity(Output input, const std::string& name = "");

/// tf.no_op: does nothing; useful as a target that carries control edges.
Operation no_op(const std::string& name = "");

/// tf.group(ops...): one op that runs after all of `inputs`, a NoOp named
/// `name` ("group_deps" by default, made unique as a name scope is). As in
/// TensorFlow 1.x, when every input asked for the same device (a variable's
/// initializers, an optimizer's updates colocated with their variables),
/// the NoOp asks for it too; when they asked for several, one NoOp per
/// device, "<name>/NoOp", "<name>/NoOp_1" ... in the order of the device
/// names, waits for that device's inputs, and the NoOp returned, which asks
/// for no device, waits for them.
Operation group(const std::vector<Operation>& inputs,
                const std::string& name = "");

/// tf.reshape (op "Reshape", shape as an int32 Const "Reshape/shape"). One
/// entry may be -1: inferred from the element count. x:[2,3] {3,2} -> [3,2].
Output reshape(Output tensor, const std::vector<int64_t>& shape,
               const std::string& name = "");
/// tf.transpose (op "Transpose", node "transpose"): output axis i is input
/// axis perm[i]; no perm reverses the axes. x:[2,3] -> [3,2].
Output transpose(Output a,
                 const std::optional<std::vector<int>>& perm = std::nullopt,
                 const std::string& name = "transpose");
/// tf.concat (op "ConcatV2", node "concat"): joined along `axis`; the other
/// dims must agree. [2,3],[2,1] axis 1 -> [2,4]. One value: an Identity.
Output concat(const std::vector<Output>& values, int axis,
              const std::string& name = "concat");
/// tf.stack (op "Pack", node "stack"): N tensors of shape S -> a new axis
/// of size N at `axis`. Two [3] axis 0 -> [2,3]; axis 1 -> [3,2].
Output stack(const std::vector<Output>& values, int axis = 0,
             const std::string& name = "stack");
/// tf.slice (op "Slice"): size[i] elements from begin[i] along axis i;
/// size -1 takes the rest. x:[3,4] begin {1,0} size {2,-1} -> [2,4].
Output slice(Output input, const std::vector<int64_t>& begin,
             const std::vector<int64_t>& size, const std::string& name = "");
/// tf.fill (op "Fill"): `value` (a scalar) repeated over `dims`.
Output fill(const std::vector<int64_t>& dims, const Tensor& value,
            const std::string& name = "");
/// tf.zeros / tf.ones: a Const when small (fewer than 1000 elements), else a
/// Fill, as TensorFlow builds them; node "zeros" / "ones".
Output zeros(const std::vector<int64_t>& shape, DType dtype = DT_FLOAT,
             const std::string& name = "");
Output ones(const std::vector<int64_t>& shape, DType dtype = DT_FLOAT,
            const std::string& name = "");
/// tf.zeros_like / tf.ones_like (ops "ZerosLike", "OnesLike"; nodes
/// "zeros_like", "ones_like"): x's shape and dtype.
Output zeros_like(Output tensor, const std::string& name = "");
Output ones_like(Output tensor, const std::string& name = "");
/// tf.one_hot (op "OneHot", node "one_hot"): int32/int64 indices:[n] ->
/// [n,depth] of `dtype` (float, double, int32, int64), `on_value` at each
/// index and `off_value` elsewhere; axis -1 puts the new axis last.
Output one_hot(Output indices, int64_t depth, double on_value = 1.0,
               double off_value = 0.0, int axis = -1, DType dtype = DT_FLOAT,
               const std::string& name = "");
/// tf.shape (op "Shape"): x's shape as an int32 (or int64) vector. As in
/// TensorFlow, a fully known shape is folded into a Const named "Shape".
Output shape(Output input, const std::string& name = "",
             DType out_type = DT_INT32);
/// tf.size (op "Size"): the element count, a scalar; a Const when known.
Output size(Output input, const std::string& name = "",
            DType out_type = DT_INT32);
/// tf.rank (op "Rank"): the number of dims, an int32 scalar; a Const when
/// known.
Output rank(Output input, const std::string& name = "");

}  // namespace minitf
