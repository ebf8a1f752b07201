#include "minitf/tensor/status.h"

#include <gtest/gtest.h>

#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

TEST(StatusTest, OkIsDefaultAndCheap) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), error::OK);
  EXPECT_EQ(s.message(), "");
  EXPECT_EQ(s.ToString(), "OK");
}

TEST(StatusTest, CodesHaveTensorFlowsNumbers) {
  EXPECT_EQ(errors::Cancelled("x").code(), 1);
  EXPECT_EQ(errors::InvalidArgument("x").code(), 3);
  EXPECT_EQ(errors::NotFound("x").code(), 5);
  EXPECT_EQ(errors::FailedPrecondition("x").code(), 9);
  EXPECT_EQ(errors::Aborted("x").code(), 10);
  EXPECT_EQ(errors::OutOfRange("x").code(), 11);
  EXPECT_EQ(errors::Unimplemented("x").code(), 12);
  EXPECT_EQ(errors::Internal("x").code(), 13);
  EXPECT_EQ(errors::Unavailable("x").code(), 14);
  EXPECT_EQ(errors::DataLoss("x").code(), 15);
}

TEST(StatusTest, FactoriesConcatenateAndPrintLikeTensorFlow) {
  Status s = errors::InvalidArgument("Expected ", 6, " elements, got ", 4.5);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(errors::IsInvalidArgument(s));
  EXPECT_EQ(s.message(), "Expected 6 elements, got 4.5");
  EXPECT_EQ(s.ToString(), "Invalid argument: Expected 6 elements, got 4.5");
  EXPECT_EQ(errors::DataLoss("bad crc").ToString(), "Data loss: bad crc");
}

StatusOr<int> Half(int x) {
  if (x % 2 != 0) return errors::InvalidArgument(x, " is odd");
  return x / 2;
}

Status Quarter(int x, int* out) {
  TF_ASSIGN_OR_RETURN(int half, Half(x));
  TF_ASSIGN_OR_RETURN(*out, Half(half));
  return Status::OK();
}

TEST(StatusOrTest, HoldsValueOrError) {
  StatusOr<int> ok = Half(8);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 4);
  StatusOr<int> bad = Half(3);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "3 is odd");
}

TEST(StatusOrTest, MacrosPropagateTheFirstError) {
  int out = 0;
  EXPECT_TRUE(Quarter(8, &out).ok());
  EXPECT_EQ(out, 2);
  EXPECT_EQ(Quarter(6, &out).message(), "3 is odd");
}

TEST(StatusOrTest, AnOkStatusWithoutValueBecomesInternal) {
  StatusOr<int> r = Status::OK();
  EXPECT_EQ(r.status().code(), error::INTERNAL);
}

TEST(StatusOrDeathTest, ValueOfAnErrorAborts) {
  StatusOr<int> bad = Half(3);
  EXPECT_DEATH((void)bad.value(), "3 is odd");
}

TEST(TypedErrorTest, EachCodeThrowsItsClass) {
  EXPECT_THROW(errors::ThrowIfError(errors::InvalidArgument("m")),
               errors::InvalidArgumentError);
  EXPECT_THROW(errors::ThrowIfError(errors::NotFound("m")),
               errors::NotFoundError);
  EXPECT_THROW(errors::ThrowIfError(errors::FailedPrecondition("m")),
               errors::FailedPreconditionError);
  EXPECT_THROW(errors::ThrowIfError(errors::DataLoss("m")),
               errors::DataLossError);
  EXPECT_THROW(errors::ThrowIfError(errors::Unavailable("m")),
               errors::UnavailableError);
  EXPECT_NO_THROW(errors::ThrowIfError(Status::OK()));
}

TEST(TypedErrorTest, CarriesCodeAndMessage) {
  try {
    errors::ThrowIfError(errors::OutOfRange("End of sequence"));
    FAIL() << "no exception";
  } catch (const errors::OpError& e) {
    EXPECT_EQ(e.code(), error::OUT_OF_RANGE);
    EXPECT_EQ(e.message(), "End of sequence");
    EXPECT_STREQ(e.what(), "End of sequence");
    EXPECT_EQ(e.status(), errors::OutOfRange("End of sequence"));
  }
}

TEST(TypedErrorTest, ValueOrThrow) {
  EXPECT_EQ(errors::ValueOrThrow(Half(10)), 5);
  EXPECT_THROW(errors::ValueOrThrow(Half(1)), errors::InvalidArgumentError);
}

}  // namespace
}  // namespace minitf
