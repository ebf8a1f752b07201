#include "minitf/train/gradients/gradient_checker.h"

#include <algorithm>
#include <cmath>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/train/gradients/gradients.h"

namespace minitf::test {

std::pair<Tensor, Tensor> compute_gradient(Output x, const Tensor& x_value,
                                           Output y, const FeedDict& feeds,
                                           double delta) {
  if (x.dtype() != DT_DOUBLE || y.dtype() != DT_DOUBLE ||
      x_value.dtype() != DT_DOUBLE) {
    throw errors::InvalidArgumentError(
        "compute_gradient works in float64: x, x_value and y must be double");
  }
  Graph* graph = y.graph();
  graph_scope use(*graph);
  Session sess(SessionOptions{}, graph);
  FeedDict base = feeds;
  base.emplace_back(x, x_value);
  const int64_t nx = x_value.NumElements();
  const Tensor y0 = sess.run(y, base);
  const int64_t ny = y0.NumElements();

  // Symbolic: one run of the gradient per element of y, grad_ys one-hot.
  Tensor theoretical(DT_DOUBLE, TensorShape({nx, ny}));
  Output seed = placeholder(DT_DOUBLE, y0.shape(), "checker_grad_ys");
  // The gradient reads the seed through an Identity: a gradient function
  // may wait on its incoming gradient by a control edge (Square's and Log's
  // do), and minitf's executors would then wait on the placeholder itself,
  // which is fed, not run (TensorFlow moves such edges to the fed value).
  Output dx = gradients({y}, {x}, {identity(seed)})[0];
  for (int64_t j = 0; j < ny; ++j) {
    Tensor onehot(DT_DOUBLE, y0.shape());
    std::fill_n(onehot.data<double>(), ny, 0.0);
    onehot.data<double>()[j] = 1.0;
    FeedDict f = base;
    f.emplace_back(seed, onehot);
    Tensor g = dx.valid() ? sess.run(dx, f) : Tensor();
    for (int64_t i = 0; i < nx; ++i) {
      theoretical.data<double>()[i * ny + j] =
          dx.valid() ? g.data<double>()[i] : 0.0;
    }
  }

  // Numeric: central differences, one element of x at a time.
  Tensor numerical(DT_DOUBLE, TensorShape({nx, ny}));
  for (int64_t i = 0; i < nx; ++i) {
    Tensor plus = x_value.DeepCopy(), minus = x_value.DeepCopy();
    plus.data<double>()[i] += delta;
    minus.data<double>()[i] -= delta;
    FeedDict fp = feeds, fm = feeds;
    fp.emplace_back(x, plus);
    fm.emplace_back(x, minus);
    const Tensor yp = sess.run(y, fp), ym = sess.run(y, fm);
    for (int64_t j = 0; j < ny; ++j) {
      numerical.data<double>()[i * ny + j] =
          (yp.data<double>()[j] - ym.data<double>()[j]) / (2 * delta);
    }
  }
  return {theoretical, numerical};
}

double compute_gradient_error(Output x, const Tensor& x_value, Output y,
                              const FeedDict& feeds, double delta) {
  auto [theoretical, numerical] = compute_gradient(x, x_value, y, feeds, delta);
  double error = 0;
  for (int64_t k = 0; k < theoretical.NumElements(); ++k) {
    error = std::max(error, std::abs(theoretical.data<double>()[k] -
                                     numerical.data<double>()[k]));
  }
  return error;
}

}  // namespace minitf::test
