// Test helpers shared by the tests of chapter 3's exercises.
//
// Each check prints what the function under test returned when it fails (a
// starter's "write ..." message, say), so a learner sees at once which
// behaviour is missing; LibraryError fetches the message that the library's
// own kernel gives for the same mistake, so a test can demand the same text:
//
//   ASSERT_TRUE(Ok(ApplyGradientDescent(&w, alpha, delta)));
//   ExpectInvalid(SoftmaxXentGrad(m, m, Tensor({1.f})), "grad_loss must ...");
//   ExpectFloats(SoftmaxXentGrad(logits, labels, grad), {2, 3}, want, 1e-6f);
//   std::string text = LibraryError([&] { sess.run(step, feeds); });
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exercise_checks.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::exercises {

/// Passes when `status` is OK; otherwise fails, showing the status.
inline ::testing::AssertionResult Ok(const Status& status) {
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "returned " << status;
}

/// Expects `status` to be InvalidArgument with exactly `message`.
inline void ExpectInvalid(const Status& status, const std::string& message) {
  ASSERT_FALSE(status.ok()) << "should fail with: " << message;
  EXPECT_EQ(status.code(), error::INVALID_ARGUMENT) << status;
  EXPECT_EQ(status.message(), message);
}
template <typename T>
void ExpectInvalid(const StatusOr<T>& result, const std::string& message) {
  ExpectInvalid(result.status(), message);
}

/// Expects `result` to be a float32 tensor of `shape` holding `values` in
/// row-major order, each within `tol`; a mismatch names the first element
/// that differs (its row and column, for a matrix) and how many do.
inline void ExpectFloats(const StatusOr<Tensor>& result,
                         const TensorShape& shape,
                         const std::vector<float>& values, float tol = 1e-6f) {
  ASSERT_TRUE(Ok(result.status()));
  ASSERT_TRUE(result->IsInitialized()) << "returned an uninitialized Tensor";
  ASSERT_EQ(result->dtype(), DT_FLOAT);
  ASSERT_EQ(result->shape(), shape);
  const float* data = result->data<float>();
  const std::vector<float> got(data, data + result->NumElements());
  const std::size_t row_length =
      shape.dims() >= 2
          ? static_cast<std::size_t>(shape.dim_size(shape.dims() - 1))
          : 0;
  EXPECT_TRUE(NearValues(got, values, tol, row_length));
}

/// The first line of the InvalidArgumentError that `run` throws: the
/// kernel's message, without the line Session::run adds to name the node.
template <typename F>
std::string LibraryError(F run) {
  try {
    run();
  } catch (const errors::InvalidArgumentError& e) {
    const std::string what = e.what();
    return what.substr(0, what.find('\n'));
  }
  return "(the library kernel did not fail)";
}

}  // namespace minitf::exercises
