#include "minitf/graph/resource_op_kernel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "minitf/graph/kernel.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

// A counter of one dtype: the smallest resource with a Spec. The making op
// takes the attrs every resource has, and a `start` that a counter opened
// again must agree with; the handle op adds one and returns the count.
struct TestCounter : ResourceBase {
  explicit TestCounter(int64_t start) : start(start), n(start) {}
  std::string DebugString() const override { return "TestCounter"; }
  const int64_t start;
  std::atomic<int64_t> n;
};

struct CounterSpec {
  using Resource = TestCounter;
  static constexpr const char* kOp = "ResourceOpTestCounter";
  static constexpr const char* kWhat = "counter";

  ResourcePlace place;
  DType dtype = DT_INVALID;
  int64_t start = 0;

  static StatusOr<CounterSpec> FromAttrs(const AttrMap& attrs,
                                         ResourcePlace place) {
    CounterSpec spec;
    spec.place = std::move(place);
    TF_ASSIGN_OR_RETURN(spec.dtype, GetAttr<DType>(attrs, "dtype"));
    TF_ASSIGN_OR_RETURN(spec.start, GetAttr<int64_t>(attrs, "start"));
    return spec;
  }
  std::shared_ptr<TestCounter> Create() const {
    return std::make_shared<TestCounter>(start);
  }
};

MINITF_REGISTER_OP("ResourceOpTestCounter")
    .Output("handle: Ref(int32)")
    .Attr("dtype: type")
    .Attr("start: int = 0")
    .Attr("container: string = \"\"")
    .Attr("shared_name: string = \"\"")
    .SetIsStateful()
    .SetShapeFn(shape_fns::ScalarShape);

class CounterOp : public ResourceOpKernel<CounterSpec> {
 public:
  using ResourceOpKernel::ResourceOpKernel;

 protected:
  Status VerifyResource(const CounterSpec& spec,
                        const TestCounter& counter) const override {
    if (spec.start == counter.start) return Status::OK();
    return errors::InvalidArgument("counter '", spec.place.name, "' starts at ",
                                   counter.start);
  }
};
MINITF_REGISTER_KERNEL("ResourceOpTestCounter", DEVICE_CPU, CounterOp);

MINITF_REGISTER_OP("ResourceOpTestIncrement")
    .Input("handle: Ref(int32)")
    .Output("n: int64")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::ScalarShape);

class IncrementOp : public OpKernel, ResourceHandleOp<CounterSpec> {
 public:
  explicit IncrementOp(const OpKernelConstruction& c)
      : OpKernel(c),
        ResourceHandleOp(c),
        type_(c.GetAttr<DType>("T").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_RETURN_IF_ERROR(CheckSignature(type_, "int32_ref", true));
    TF_ASSIGN_OR_RETURN(std::shared_ptr<TestCounter> counter, GetResource(ctx));
    ctx->set_output(0, Tensor(static_cast<int64_t>(++counter->n)));
    return Status::OK();
  }

 private:
  const DType type_;
};
MINITF_REGISTER_KERNEL("ResourceOpTestIncrement", DEVICE_CPU, IncrementOp);

Output Counter(const std::string& name, const std::string& shared_name = "",
               int64_t start = 0) {
  return ops::AddOp(NodeBuilder("ResourceOpTestCounter", name)
                        .Attr("dtype", DT_FLOAT)
                        .Attr("start", start)
                        .Attr("shared_name", shared_name),
                    {});
}

Output Increment(Output handle, DType type = DT_FLOAT) {
  return ops::AddOp(
      NodeBuilder("ResourceOpTestIncrement").Input(handle).Attr("T", type),
      {handle});
}

int64_t Count(Session& sess, Output n) { return sess.run(n).scalar<int64_t>(); }

// The error of running `fetch` in `sess`, through the session's core (the
// Status, not the exception the user-facing run throws).
std::string RunError(Session& sess, Output fetch) {
  std::vector<Tensor> out;
  return sess.core()->Run({}, {fetch.name()}, {}, &out).message();
}

class ResourceOpKernelTest : public ::testing::Test {
 protected:
  Graph g_;
  graph_scope use_{g_};
};

TEST_F(ResourceOpKernelTest, ASharedNameIsOneResourceTheNodesNameIsAnother) {
  Output a = Counter("a", "shared");
  Output b = Counter("b", "shared");
  Output c = Counter("c");
  Session sess;
  EXPECT_EQ(Count(sess, Increment(a)), 1);
  EXPECT_EQ(Count(sess, Increment(b)), 2);  // the same counter as a
  EXPECT_EQ(Count(sess, Increment(c)), 1);  // its own, under the name "c"
}

TEST_F(ResourceOpKernelTest, TheMakingOpOutputsTheHandleAndVerifiesAgain) {
  Output a = Counter("a", "shared", /*start=*/5);
  Output b = Counter("b", "shared", /*start=*/7);
  Session sess;
  EXPECT_EQ(sess.run(a).scalar<int32_t>(), 0);
  EXPECT_EQ(RunError(sess, b),
            "counter 'shared' starts at 5\n\t [[{{node b}}]]");
}

TEST_F(ResourceOpKernelTest, ASignatureMismatchIsToldInTensorFlowsWords) {
  Output n = Increment(Counter("a"), DT_DOUBLE);
  Session sess;
  EXPECT_EQ(RunError(sess, n),
            "Signature mismatch, have: int32_ref->double expected: "
            "int32_ref->float\n\t [[{{node ResourceOpTestIncrement}}]]");
}

TEST_F(ResourceOpKernelTest, AHandleFromAnotherOpIsRefusedWhenRun) {
  // As a graph imported from a GraphDef may have it: an int32 that no
  // counter made.
  Output n = Increment(constant(Tensor(int32_t{0}), "other"));
  Session sess;
  EXPECT_EQ(RunError(sess, n),
            "Input 'handle' of 'other' is not a ResourceOpTestCounter\n\t "
            "[[{{node ResourceOpTestIncrement}}]]");
}

TEST(CheckResourceSignature, NamesTheOtherInputsBeforeTheDtype) {
  EXPECT_TRUE(
      CheckResourceSignature(DT_FLOAT, DT_FLOAT, "int32_ref", false).ok());
  EXPECT_EQ(CheckResourceSignature(DT_FLOAT, DT_DOUBLE, "int32_ref, int64",
                                   /*dtype_is_output=*/false)
                .message(),
            "Signature mismatch, have: int32_ref, int64, double-> expected: "
            "int32_ref, int64, float->");
}

}  // namespace
}  // namespace minitf
