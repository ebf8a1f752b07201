// Reference solution of exercise 01_broadcast_shape.
#include "broadcast_shape.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace minitf::exercises {

StatusOr<TensorShape> BroadcastShape(const TensorShape& a,
                                     const TensorShape& b) {
  // A None would need a rule for "unknown vs. 3"; shape inference (chapter 2)
  // has one, but a kernel only ever sees real sizes.
  if (!a.IsFullyDefined() || !b.IsFullyDefined()) {
    return errors::InvalidArgument(
        "BroadcastShape needs fully defined shapes, got ", a, " and ", b);
  }
  // --8<-- [start:broadcast_rule]
  // Walk both shapes from the right: the i-th dimension from the end of each.
  // A shape that has run out behaves as if padded on the left with 1s.
  const int rank = std::max(a.dims(), b.dims());
  std::vector<int64_t> out(rank);
  for (int i = 1; i <= rank; ++i) {
    const int64_t da = i <= a.dims() ? a.dim_size(a.dims() - i) : 1;
    const int64_t db = i <= b.dims() ? b.dim_size(b.dims() - i) : 1;
    if (da != db && da != 1 && db != 1) {
      return errors::InvalidArgument("Incompatible shapes: ", a, " vs. ", b);
    }
    // A 1 stretches to the other size. Taking "the other one" rather than
    // the max is what makes [0] with [1] give [0], as NumPy does.
    out[rank - i] = da == 1 ? db : da;
  }
  // --8<-- [end:broadcast_rule]
  return TensorShape(std::move(out));
}

}  // namespace minitf::exercises
