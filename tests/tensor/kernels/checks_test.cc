// The shared checks of checks.h that several devices' kernels of an op and
// its shape function call: each says what was wrong in TensorFlow's words.
#include "minitf/tensor/kernels/checks.h"

#include <gtest/gtest.h>

namespace minitf::kernels {
namespace {

TEST(CheckSliceArgsTest, BeginAndSizeMustHaveOneEntryPerDimension) {
  EXPECT_TRUE(CheckSliceArgs(2, {0, 1}, {1, -1}).ok());
  const Status s = CheckSliceArgs(2, {0}, {1, 1});
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Expected begin and size arguments to be 1-D tensors of size 2, "
            "but got shapes [1] and [2] instead.");
}

TEST(CheckBiasAddTest, ValueAtLeastAMatrixAndBiasAsLongAsItsLastDimension) {
  const Tensor value(DT_FLOAT, TensorShape({2, 4}));
  EXPECT_TRUE(CheckBiasAdd(value, Tensor(DT_FLOAT, TensorShape({4}))).ok());
  EXPECT_EQ(CheckBiasAdd(Tensor(DT_FLOAT, TensorShape({4})),
                         Tensor(DT_FLOAT, TensorShape({4})))
                .message(),
            "Input tensor must be at least 2D: [4]");
  EXPECT_EQ(CheckBiasAdd(value, value).message(), "Biases must be 1D: [2,4]");
  const Status s = CheckBiasAdd(value, Tensor(DT_FLOAT, TensorShape({3})));
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Must provide as many biases as the last dimension of the input "
            "tensor: [3] vs. [2,4]");
}

}  // namespace
}  // namespace minitf::kernels
