// Broadcasting, step by step: how tensors of different shapes combine.
//
// For each pair of shapes, the program prints the shapes lined up from the
// right, the rule applied to each dimension, and the result of adding them.
#include <minitf/minitf.h>

#include <algorithm>
#include <iostream>
#include <string>

namespace tf = minitf;

namespace {

// Prints how the shapes of x and y line up, dimension by dimension.
void Explain(const tf::Tensor& x, const tf::Tensor& y) {
  const tf::TensorShape& sx = x.shape();
  const tf::TensorShape& sy = y.shape();
  std::cout << "x" << sx << " + y" << sy << "\n";
  const int rank = std::max(sx.dims(), sy.dims());
  for (int i = 0; i < rank; ++i) {
    // Dimension i of the result, counted from the left of the longer shape.
    const int ix = i - (rank - sx.dims());
    const int iy = i - (rank - sy.dims());
    const int64_t dx = ix >= 0 ? sx.dim_size(ix) : 1;
    const int64_t dy = iy >= 0 ? sy.dim_size(iy) : 1;
    std::string rule;
    if (ix < 0 || iy < 0) {
      rule = "missing on one side: treated as 1, then stretched";
    } else if (dx == dy) {
      rule = "equal";
    } else if (dx == 1 || dy == 1) {
      rule = "one side is 1: stretched";
    } else {
      rule = "different and neither is 1: incompatible";
    }
    std::cout << "  dim " << i << ": " << (ix >= 0 ? std::to_string(dx) : "-")
              << " vs " << (iy >= 0 ? std::to_string(dy) : "-") << "  " << rule
              << "\n";
  }
  try {
    tf::Tensor z = tf::eager::add(x, y);
    std::cout << "  result shape " << z.shape() << ":\n" << z << "\n\n";
  } catch (const tf::errors::InvalidArgumentError& e) {
    std::cout << "  InvalidArgumentError: " << e.what() << "\n\n";
  }
}

}  // namespace

int main() {
  // --8<-- [start:cases]
  tf::Tensor matrix({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});  // [2,3]
  tf::Tensor row({10.f, 20.f, 30.f});                     // [3]
  tf::Tensor column({{100.f}, {200.f}});                  // [2,1]
  tf::Tensor scalar(0.5f);                                // []
  Explain(matrix, row);     // a row added to every row
  Explain(matrix, column);  // a column added to every column
  Explain(column, row);     // [2,1] + [3] -> [2,3]: both stretch
  Explain(matrix, scalar);  // a scalar goes everywhere
  Explain(matrix,
          tf::Tensor({1.f, 2.f}));  // [2,3] + [2]: trailing 3 vs 2 fails
  // --8<-- [end:cases]
  return 0;
}
