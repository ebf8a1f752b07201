#include "minitf/tensor/kernels/nn_ops.h"

#include <Eigen/Core>
#include <cmath>
#include <string_view>
#include <type_traits>
#include <vector>

#include "minitf/tensor/kernels/checks.h"
#include "minitf/tensor/kernels/eigen_maps.h"

namespace minitf::kernels {
namespace {

// --8<-- [start:stable_softmax]
// One softmax (or log-softmax) row of n contiguous logits. Shifting by the
// row's maximum m makes every exponent <= 0, so exp() cannot overflow, and
// the largest term is exp(0) = 1, so the sum is >= 1 and its log is finite.
//   softmax:      exp(x - m) / sum(exp(x - m))
//   log-softmax:  (x - m) - log(sum(exp(x - m)))
template <typename T, bool kLog>
void SoftmaxRow(const T* x, int64_t n, T* y) {
  ConstVec<T> in(x, n);
  Vec<T> out(y, n);
  const T m = in.maxCoeff();
  if constexpr (kLog) {
    out = in - m;
    out -= std::log(out.exp().sum());
  } else {
    out = (in - m).exp();
    out /= out.sum();
  }
}
// --8<-- [end:stable_softmax]

// Many short rows, such as a batch of 10-class logits: each row alone is
// shorter than two of Eigen's SIMD packets, so SoftmaxRow's exp() would run
// one value at a time. Here each step runs over the whole batch instead, so
// that exp(), the costly part, is one vectorised pass over every value:
// the row maxima, x - max everywhere, exp(), then the row sums and the
// division (or the log-subtraction) row by row. The arithmetic per value is
// SoftmaxRow's.
template <typename T, bool kLog>
void SoftmaxShortRows(const T* x, int64_t rows, int64_t n, T* y) {
  using Rows = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Column = Eigen::Array<T, Eigen::Dynamic, 1>;
  Eigen::Map<const Rows> in(x, rows, n);
  Eigen::Map<Rows> out(y, rows, n);
  const Column max = in.rowwise().maxCoeff();
  out = in.colwise() - max;
  if constexpr (kLog) {
    const Column log_sum = Rows(out.exp()).rowwise().sum().log();
    out.colwise() -= log_sum;
  } else {
    out = out.exp();
    const Column sum = out.rowwise().sum();
    out.colwise() /= sum;
  }
}

// The same along a middle axis: x:[n, inner] for one outer index, softmax down
// each column. The work is arranged row by row, so every Eigen operation runs
// over `inner` contiguous values (vectorised) instead of striding by `inner`.
// `scratch` holds two rows of `inner`: the column maxima and the column sums.
template <typename T, bool kLog>
void SoftmaxColumns(const T* x, int64_t n, int64_t inner, T* y, T* scratch) {
  Vec<T> max(scratch, inner);
  Vec<T> sum(scratch + inner, inner);
  max = ConstVec<T>(x, inner);
  for (int64_t k = 1; k < n; ++k)
    max = max.max(ConstVec<T>(x + k * inner, inner));
  sum.setZero();
  for (int64_t k = 0; k < n; ++k) {
    Vec<T> row(y + k * inner, inner);
    if constexpr (kLog) {
      row = ConstVec<T>(x + k * inner, inner) - max;
      sum += row.exp();
    } else {
      row = (ConstVec<T>(x + k * inner, inner) - max).exp();
      sum += row;
    }
  }
  if constexpr (kLog) sum = sum.log();
  for (int64_t k = 0; k < n; ++k) {
    Vec<T> row(y + k * inner, inner);
    if constexpr (kLog) {
      row -= sum;
    } else {
      row /= sum;
    }
  }
}

template <bool kLog>
StatusOr<Tensor> SoftmaxKernel(std::string_view op, const Tensor& logits,
                               int axis) {
  TF_RETURN_IF_ERROR(CheckSoftmaxLogits(op, logits));
  const int rank = logits.dims();
  if (axis < -rank || axis >= rank) {
    return errors::InvalidArgument(
        "Dimension (", axis, ") must be in the range [", -rank, ", ", rank,
        "), where ", rank, " is the number of dimensions in the input.");
  }
  if (axis < 0) axis += rank;
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(logits.dtype(), logits.shape()));
  if (out.NumElements() == 0) return out;
  // Any axis becomes the middle of [outer, n, inner]; the last axis is inner
  // == 1.
  int64_t outer = 1;
  int64_t inner = 1;
  for (int i = 0; i < axis; ++i) outer *= logits.dim_size(i);
  for (int i = axis + 1; i < rank; ++i) inner *= logits.dim_size(i);
  const int64_t n = logits.dim_size(axis);
  SwitchDType(logits.dtype(), [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const T* x = logits.data<T>();
      T* y = out.data<T>();
      if (inner == 1 && n < 2 * Eigen::internal::packet_traits<T>::size) {
        SoftmaxShortRows<T, kLog>(x, outer, n, y);
        return;
      }
      if (inner == 1) {
        for (int64_t o = 0; o < outer; ++o)
          SoftmaxRow<T, kLog>(x + o * n, n, y + o * n);
        return;
      }
      std::vector<T> scratch(2 * inner);
      for (int64_t o = 0; o < outer; ++o) {
        SoftmaxColumns<T, kLog>(x + o * n * inner, n, inner, y + o * n * inner,
                                scratch.data());
      }
    }
  });
  return out;
}

}  // namespace

StatusOr<Tensor> Softmax(const Tensor& logits, int axis) {
  return SoftmaxKernel</*kLog=*/false>("Softmax", logits, axis);
}

StatusOr<Tensor> LogSoftmax(const Tensor& logits, int axis) {
  return SoftmaxKernel</*kLog=*/true>("LogSoftmax", logits, axis);
}

}  // namespace minitf::kernels
