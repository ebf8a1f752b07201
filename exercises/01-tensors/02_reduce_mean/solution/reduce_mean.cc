// Reference solution of exercise 02_reduce_mean.
#include "reduce_mean.h"

#include <cstdint>
#include <limits>

namespace minitf::exercises {
namespace {

// --8<-- [start:row_major_strides]
// strides[d] = dims[d+1] * ... * dims[n-1]: moving one step along axis d
// skips one whole block of the axes after it.
std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size());
  int64_t stride = 1;
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= dims[d];
  }
  return strides;
}
// --8<-- [end:row_major_strides]

}  // namespace

StatusOr<Tensor> ReduceMeanOverAxes(const Tensor& x, std::vector<int> axes,
                                    bool keep_dims) {
  if (x.dtype() != DT_FLOAT) {
    return errors::InvalidArgument(
        "ReduceMeanOverAxes needs a float tensor, got ", x.dtype());
  }
  const int rank = x.dims();
  std::vector<bool> reduced(rank, false);
  for (int axis : axes) {
    if (axis < -rank || axis >= rank) {
      return errors::InvalidArgument("Invalid reduction dimension (", axis,
                                     " for input with ", rank, " dimension(s)");
    }
    const int d = axis < 0 ? axis + rank : axis;
    if (reduced[d]) {
      return errors::InvalidArgument(
          "Invalid reduction arguments: Axes contains duplicate dimension: ",
          d);
    }
    reduced[d] = true;
  }

  // The output laid out as if keep_dims: same rank, 1 on reduced axes. Its
  // buffer is the same with or without keep_dims (size-1 axes change no
  // offsets), so only the shape handed back differs.
  std::vector<int64_t> kept_dims(rank);
  std::vector<int64_t> out_dims;
  int64_t count = 1;  // elements averaged into each output element
  for (int d = 0; d < rank; ++d) {
    if (reduced[d]) {
      kept_dims[d] = 1;
      count *= x.dim_size(d);
      if (keep_dims) out_dims.push_back(1);
    } else {
      kept_dims[d] = x.dim_size(d);
      out_dims.push_back(x.dim_size(d));
    }
  }
  TF_ASSIGN_OR_RETURN(
      Tensor out, Tensor::Allocate(DT_FLOAT, TensorShape(std::move(out_dims))));

  // --8<-- [start:reduce_by_strides]
  const std::vector<int64_t> in_strides =
      RowMajorStrides(x.shape().dim_sizes());
  std::vector<int64_t> out_strides = RowMajorStrides(kept_dims);
  // A reduced axis does not move the output position: every element along it
  // lands in the same output element.
  for (int d = 0; d < rank; ++d) {
    if (reduced[d]) out_strides[d] = 0;
  }
  // Sums in double: adding many floats into a float loses the small ones.
  std::vector<double> sums(out.NumElements(), 0.0);
  const float* in = x.data<float>();
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    // Peel the coordinates of flat index i off, outermost axis first.
    int64_t rest = i;
    int64_t o = 0;
    for (int d = 0; d < rank; ++d) {
      const int64_t coordinate = rest / in_strides[d];
      rest -= coordinate * in_strides[d];
      o += coordinate * out_strides[d];
    }
    sums[o] += in[i];
  }
  // --8<-- [end:reduce_by_strides]

  float* result = out.data<float>();
  for (int64_t o = 0; o < out.NumElements(); ++o) {
    // The mean of no values is undefined: NaN, as NumPy and TensorFlow give.
    result[o] = count == 0
                    ? std::numeric_limits<float>::quiet_NaN()
                    : static_cast<float>(sums[o] / static_cast<double>(count));
  }
  return out;
}

}  // namespace minitf::exercises
