// Fed values: what a session makes of the value given for a tensor.
//
// TensorFlow's Python session does not require a fed value to have the
// placeholder's dtype: it converts each one with NumPy,
// `np.asarray(value, dtype=placeholder.dtype)`, so the integer list of
// `sess.run(y, {x: [1, 2, 3]})` feeds a float placeholder. minitf's fed
// values are Tensors, which play the part of NumPy arrays, and a session
// converts them the same way before it checks the shape and runs: every
// dtype converts to every other, as NumPy's astype does (see
// ConvertFedValue). The one refusal is Python's own check of an integer
// scalar, `{x, 3000000000}` into an int32 placeholder, which NumPy would
// silently wrap.
//
//   StatusOr<Tensor> v = ConvertFedValue(x, Tensor({1, 2, 3}));  // x: float
//   v->ToVector<float>();   // {1.f, 2.f, 3.f}
#pragma once

#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

/// The value fed for tensor `t`, checked and converted to t's dtype as
/// TensorFlow's Python session.py does it:
///
///   1. an integer scalar (a rank-0 int32 or int64 tensor: what a C++ integer
///      literal makes, and what Python's `int` is) that the dtype cannot hold
///      is InvalidArgument, with Python's TypeError text: "Type of feed value
///      2147483648 with type <class 'int'> is not compatible with Tensor type
///      <class 'numpy.int32'>. Try explicitly setting the type of the feed
///      tensor to a larger type (e.g. int64)." An int32 or int64 holds it
///      when it is in range, a bool when it is 0 or 1; a float or double
///      always does, to the nearest value, as NumPy 2 compares them;
///   2. a shape the tensor's static shape does not admit is InvalidArgument:
///      "Cannot feed value of shape (3,) for Tensor 'x:0', which has shape
///      '(2,)'";
///   3. the value is converted element by element, as NumPy's astype:
///      integers and bools to floats round to nearest; double to float
///      rounds, overflowing to inf; floats to integers truncate toward zero,
///      and NaN, inf and values out of the integer's range become its
///      smallest value (-2147483648 for int32), which is what x86's
///      conversion instruction gives NumPy; int64 to int32 wraps modulo
///      2^32; anything to bool is `!= 0` (NaN is true). The same dtype is
///      the value itself, shared.
///
/// Python converts before it checks the shape; a conversion never fails, so
/// checking first changes nothing one can see. An uninitialized value is
/// InvalidArgument ("Cannot feed an uninitialized Tensor for 'x:0'").
/// minitf cannot tell a literal from a computed scalar, so every integer
/// scalar gets step 1, as Python's int would.
StatusOr<Tensor> ConvertFedValue(const Output& t, const Tensor& value);

}  // namespace minitf
