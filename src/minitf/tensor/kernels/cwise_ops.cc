#include "minitf/tensor/kernels/cwise_ops.h"

#include <Eigen/Core>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "minitf/tensor/kernels/broadcast.h"
#include "minitf/tensor/kernels/checks.h"
#include "minitf/tensor/kernels/cwise_functors.h"

namespace minitf::kernels {
namespace {

using cwise::ComputeType;

template <typename T>
using Array = Eigen::Array<T, Eigen::Dynamic, 1>;

// The elements of `t` (of type T) seen as C: T itself, or for a wrapping
// integer op its unsigned twin, which C++ allows to alias a signed object.
template <typename C, typename T>
const C* ElementsAs(const Tensor& t) {
  return reinterpret_cast<const C*>(t.data<T>());
}
template <typename C, typename T>
C* ElementsAs(Tensor& t) {
  return reinterpret_cast<C*>(t.data<T>());
}

// ---------------------------------------------------------------------------
// Checks shared by every op, in TensorFlow's order: inputs, dtypes, shapes
// (checks.h).

template <typename Types>
Status NoKernelFor(std::string_view op, DType dtype) {
  return NoKernel(op, dtype, Types::Names());
}

// ---------------------------------------------------------------------------
// Unary ops: one flat loop over every element.

template <typename T, typename F>
StatusOr<Tensor> UnaryKernel(const F& f, const Tensor& x) {
  using C = ComputeType<F, T>;
  const int64_t n = x.NumElements();
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(x.dtype(), x.shape()));
  Eigen::Map<Array<C>>(ElementsAs<C, T>(out), n) =
      f(Eigen::Map<const Array<C>>(ElementsAs<C, T>(x), n));
  return out;
}

template <typename F>
StatusOr<Tensor> Unary(std::string_view op, const Tensor& x) {
  TF_RETURN_IF_ERROR(CheckInitialized(op, x, 0));
  return SwitchDType(x.dtype(), [&]<typename T>() -> StatusOr<Tensor> {
    if constexpr (F::Types::template kContains<T>) {
      return UnaryKernel<T>(F(), x);
    } else {
      return NoKernelFor<typename F::Types>(op, x.dtype());
    }
  });
}

// ---------------------------------------------------------------------------
// Binary ops: broadcast, then walk the plan's loops.

// --8<-- [start:binary_inner_loop]
// One innermost run of n outputs. Each input either steps through n
// contiguous elements or repeats one element, which Eigen sees as a constant
// array; each case compiles to its own vectorised loop. The plan never has
// both inputs repeat along a dimension (the output size there would be 1).
template <typename F, typename C, typename R>
void BinaryRun(const F& f, const C* x, bool x_steps, const C* y, bool y_steps,
               R* z, int64_t n) {
  using Run = Eigen::Map<const Array<C>>;
  Eigen::Map<Array<R>> out(z, n);
  if (x_steps && y_steps) {
    out = f(Run(x, n), Run(y, n));
  } else if (x_steps) {
    out = f(Run(x, n), Array<C>::Constant(n, *y));
  } else {
    out = f(Array<C>::Constant(n, *x), Run(y, n));
  }
}
// --8<-- [end:binary_inner_loop]

// --8<-- [start:binary_outer_loops]
// z:[out] = f(x, y) along `plan`. The outer merged dimensions are walked
// like an odometer: the last digit turns fastest, and when a digit wraps
// around, each input moves back to the start of that dimension. Same-shape
// inputs never come here: BinaryKernel runs them as one flat loop.
template <typename F, typename C, typename R>
void BinaryLoops(const F& f, const C* x, const C* y, R* z,
                 const BroadcastPlan& plan) {
  const int inner = static_cast<int>(plan.dims.size()) - 1;
  const int64_t n = plan.dims[inner];
  const bool x_steps = plan.x_strides[inner] != 0;
  const bool y_steps = plan.y_strides[inner] != 0;
  int64_t runs = 1;
  for (int d = 0; d < inner; ++d) runs *= plan.dims[d];

  std::vector<int64_t> index(inner, 0);
  int64_t xi = 0;
  int64_t yi = 0;
  for (int64_t run = 0; run < runs; ++run, z += n) {
    BinaryRun(f, x + xi, x_steps, y + yi, y_steps, z, n);
    for (int d = inner - 1; d >= 0; --d) {
      xi += plan.x_strides[d];
      yi += plan.y_strides[d];
      if (++index[d] < plan.dims[d]) break;
      xi -= plan.x_strides[d] * plan.dims[d];
      yi -= plan.y_strides[d] * plan.dims[d];
      index[d] = 0;
    }
  }
}
// --8<-- [end:binary_outer_loops]

template <typename T, typename F>
StatusOr<Tensor> BinaryKernel(const F& f, const Tensor& x, const Tensor& y,
                              const TensorShape& shape) {
  using C = ComputeType<F, T>;
  // R, what f returns per element: bool for comparisons, else C. A bool
  // result makes a bool tensor; any other keeps the inputs' dtype.
  using R =
      typename decltype(f(std::declval<Eigen::Map<const Array<C>>>(),
                          std::declval<Eigen::Map<const Array<C>>>()))::Scalar;
  using Stored = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(DataTypeToEnum<Stored>::value, shape));
  if (out.NumElements() == 0) return out;
  if constexpr (requires { F::template Validate<T>(y); }) {
    TF_RETURN_IF_ERROR(F::template Validate<T>(y));
  }
  // --8<-- [start:same_shape]
  if (x.shape() == y.shape()) {
    // The common case needs no plan: one flat loop over both inputs.
    BinaryRun(f, ElementsAs<C, T>(x), true, ElementsAs<C, T>(y), true,
              ElementsAs<R, Stored>(out), out.NumElements());
  } else {
    BinaryLoops(f, ElementsAs<C, T>(x), ElementsAs<C, T>(y),
                ElementsAs<R, Stored>(out),
                BroadcastPlan(x.shape(), y.shape(), shape));
  }
  // --8<-- [end:same_shape]
  return out;
}

template <typename F>
StatusOr<Tensor> Binary(std::string_view op, const Tensor& x, const Tensor& y) {
  TF_RETURN_IF_ERROR(CheckInitialized(op, x, 0));
  TF_RETURN_IF_ERROR(CheckInitialized(op, y, 1));
  TF_RETURN_IF_ERROR(CheckSameDType(op, x, y));
  return SwitchDType(x.dtype(), [&]<typename T>() -> StatusOr<Tensor> {
    if constexpr (F::Types::template kContains<T>) {
      if (x.shape() == y.shape()) return BinaryKernel<T>(F(), x, y, x.shape());
      TF_ASSIGN_OR_RETURN(TensorShape shape,
                          BroadcastShapes(x.shape(), y.shape()));
      return BinaryKernel<T>(F(), x, y, shape);
    } else {
      return NoKernelFor<typename F::Types>(op, x.dtype());
    }
  });
}

}  // namespace

StatusOr<Tensor> Neg(const Tensor& x) { return Unary<cwise::NegOp>("Neg", x); }
StatusOr<Tensor> Square(const Tensor& x) {
  return Unary<cwise::SquareOp>("Square", x);
}
StatusOr<Tensor> Sqrt(const Tensor& x) {
  return Unary<cwise::SqrtOp>("Sqrt", x);
}
StatusOr<Tensor> Exp(const Tensor& x) { return Unary<cwise::ExpOp>("Exp", x); }
StatusOr<Tensor> Log(const Tensor& x) { return Unary<cwise::LogOp>("Log", x); }
StatusOr<Tensor> Abs(const Tensor& x) { return Unary<cwise::AbsOp>("Abs", x); }
StatusOr<Tensor> Sign(const Tensor& x) {
  return Unary<cwise::SignOp>("Sign", x);
}
StatusOr<Tensor> Relu(const Tensor& x) {
  return Unary<cwise::ReluOp>("Relu", x);
}
StatusOr<Tensor> Sigmoid(const Tensor& x) {
  return Unary<cwise::SigmoidOp>("Sigmoid", x);
}
StatusOr<Tensor> Tanh(const Tensor& x) {
  return Unary<cwise::TanhOp>("Tanh", x);
}

StatusOr<Tensor> Add(const Tensor& x, const Tensor& y) {
  return Binary<cwise::AddOp>("Add", x, y);
}
StatusOr<Tensor> Sub(const Tensor& x, const Tensor& y) {
  return Binary<cwise::SubOp>("Sub", x, y);
}
StatusOr<Tensor> Mul(const Tensor& x, const Tensor& y) {
  return Binary<cwise::MulOp>("Mul", x, y);
}
StatusOr<Tensor> Div(const Tensor& x, const Tensor& y) {
  return Binary<cwise::DivOp>("Div", x, y);
}
StatusOr<Tensor> Maximum(const Tensor& x, const Tensor& y) {
  return Binary<cwise::MaximumOp>("Maximum", x, y);
}
StatusOr<Tensor> Minimum(const Tensor& x, const Tensor& y) {
  return Binary<cwise::MinimumOp>("Minimum", x, y);
}

StatusOr<Tensor> ReluGrad(const Tensor& gradients, const Tensor& features) {
  return Binary<cwise::ReluGradOp>("ReluGrad", gradients, features);
}

StatusOr<Tensor> Equal(const Tensor& x, const Tensor& y) {
  return Binary<cwise::EqualOp>("Equal", x, y);
}
StatusOr<Tensor> NotEqual(const Tensor& x, const Tensor& y) {
  return Binary<cwise::NotEqualOp>("NotEqual", x, y);
}
StatusOr<Tensor> Less(const Tensor& x, const Tensor& y) {
  return Binary<cwise::LessOp>("Less", x, y);
}
StatusOr<Tensor> LessEqual(const Tensor& x, const Tensor& y) {
  return Binary<cwise::LessEqualOp>("LessEqual", x, y);
}
StatusOr<Tensor> Greater(const Tensor& x, const Tensor& y) {
  return Binary<cwise::GreaterOp>("Greater", x, y);
}
StatusOr<Tensor> GreaterEqual(const Tensor& x, const Tensor& y) {
  return Binary<cwise::GreaterEqualOp>("GreaterEqual", x, y);
}

StatusOr<Tensor> LogicalAnd(const Tensor& x, const Tensor& y) {
  return Binary<cwise::LogicalAndOp>("LogicalAnd", x, y);
}
StatusOr<Tensor> LogicalOr(const Tensor& x, const Tensor& y) {
  return Binary<cwise::LogicalOrOp>("LogicalOr", x, y);
}
StatusOr<Tensor> LogicalNot(const Tensor& x) {
  return Unary<cwise::LogicalNotOp>("LogicalNot", x);
}

}  // namespace minitf::kernels
