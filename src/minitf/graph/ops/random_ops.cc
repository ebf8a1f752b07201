#include "minitf/graph/ops/random_ops.h"

#include <limits>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/shape_inference.h"

namespace minitf {
namespace {

// The output's shape is the value of the `shape` input.
Status RandomShape(InferenceContext* c) {
  TensorShape out;
  TF_RETURN_IF_ERROR(c->MakeShapeFromInput(0, &out));
  c->set_output(0, out);
  return Status::OK();
}

}  // namespace

// --8<-- [start:register_random]
MINITF_REGISTER_OP("RandomStandardNormal")
    .Input("shape: T")
    .SetIsStateful()
    .Output("output: dtype")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("dtype: {float, double}")
    .Attr("T: {int32, int64}")
    .SetShapeFn(RandomShape);
// --8<-- [end:register_random]

MINITF_REGISTER_OP("TruncatedNormal")
    .Input("shape: T")
    .SetIsStateful()
    .Output("output: dtype")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("dtype: {float, double}")
    .Attr("T: {int32, int64}")
    .SetShapeFn(RandomShape);

MINITF_REGISTER_OP("RandomUniform")
    .Input("shape: T")
    .SetIsStateful()
    .Output("output: dtype")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("dtype: {float, double}")
    .Attr("T: {int32, int64}")
    .SetShapeFn(RandomShape);

MINITF_REGISTER_OP("RandomUniformInt")
    .Input("shape: T")
    .Input("minval: Tout")
    .Input("maxval: Tout")
    .SetIsStateful()
    .Output("output: Tout")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("Tout: {int32, int64}")
    .Attr("T: {int32, int64}")
    .SetShapeFn([](InferenceContext* c) {
      TensorShape unused;
      TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(1), 0, &unused));
      TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(2), 0, &unused));
      return RandomShape(c);
    });

namespace random_seed {

// --8<-- [start:get_seed]
std::pair<int64_t, int64_t> GetSeed(Graph* graph,
                                    std::optional<int64_t> op_seed) {
  // Seeds are kept below 2^31 - 1, as TensorFlow's _truncate_seed does.
  constexpr int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();
  auto truncate = [](int64_t s) { return s % kMaxInt32; };
  std::pair<int64_t, int64_t> seeds{0, 0};
  if (graph->seed() != 0) {
    if (!op_seed) op_seed = graph->NextOpSeed();
    seeds = {truncate(graph->seed()), truncate(*op_seed)};
  } else if (op_seed) {
    seeds = {kDefaultGraphSeed, truncate(*op_seed)};
  } else {
    return {0, 0};  // Both unset: the kernel picks fresh seeds.
  }
  // (0, 0) would mean "random"; a seeded op must stay deterministic.
  if (seeds.first == 0 && seeds.second == 0) seeds.second = kMaxInt32;
  return seeds;
}
// --8<-- [end:get_seed]

}  // namespace random_seed

namespace {

Output ShapeConst(const std::vector<int64_t>& shape) {
  std::vector<int32_t> dims(shape.begin(), shape.end());
  return constant(errors::ValueOrThrow(Tensor::FromVector(
                      dims, TensorShape({static_cast<int64_t>(dims.size())}))),
                  "shape");
}

Output ScalarOf(double v, DType dtype, const std::string& name) {
  return internal::ScalarConst(v, dtype, name);
}

// RandomStandardNormal or TruncatedNormal, then * stddev + mean, in the
// scope TensorFlow's random_normal opens.
Output ScaledNormal(const char* op, const char* default_name,
                    const std::vector<int64_t>& shape, double mean,
                    double stddev, DType dtype, std::optional<int64_t> seed,
                    const std::string& name) {
  ops::OpScope scope(name, default_name, {});
  Output shape_t = ShapeConst(shape);
  Output mean_t = ScalarOf(mean, dtype, "mean");
  Output stddev_t = ScalarOf(stddev, dtype, "stddev");
  auto [seed1, seed2] = random_seed::GetSeed(get_default_graph(), seed);
  Output rnd = ops::AddOp(NodeBuilder(op)
                              .Input(shape_t)
                              .Attr("dtype", dtype)
                              .Attr("seed", seed1)
                              .Attr("seed2", seed2),
                          {shape_t});
  Output mul = rnd * stddev_t;
  return ops::AddOp(NodeBuilder("AddV2", scope.op_name())
                        .ExactName()
                        .Input(mul)
                        .Input(mean_t),
                    {mul, mean_t});
}

}  // namespace

Output random_normal(const std::vector<int64_t>& shape, double mean,
                     double stddev, DType dtype, std::optional<int64_t> seed,
                     const std::string& name) {
  return ScaledNormal("RandomStandardNormal", "random_normal", shape, mean,
                      stddev, dtype, seed, name);
}

Output truncated_normal(const std::vector<int64_t>& shape, double mean,
                        double stddev, DType dtype, std::optional<int64_t> seed,
                        const std::string& name) {
  return ScaledNormal("TruncatedNormal", "truncated_normal", shape, mean,
                      stddev, dtype, seed, name);
}

Output random_uniform(const std::vector<int64_t>& shape, double minval,
                      double maxval, DType dtype, std::optional<int64_t> seed,
                      const std::string& name) {
  ops::OpScope scope(name, "random_uniform", {});
  Output shape_t = ShapeConst(shape);
  Output min_t = ScalarOf(minval, dtype, "min");
  Output max_t = ScalarOf(maxval, dtype, "max");
  auto [seed1, seed2] = random_seed::GetSeed(get_default_graph(), seed);
  if (DataTypeIsInteger(dtype)) {
    return ops::AddOp(NodeBuilder("RandomUniformInt", scope.op_name())
                          .ExactName()
                          .Input(shape_t)
                          .Input(min_t)
                          .Input(max_t)
                          .Attr("seed", seed1)
                          .Attr("seed2", seed2),
                      {shape_t, min_t, max_t});
  }
  Output rnd = ops::AddOp(NodeBuilder("RandomUniform")
                              .Input(shape_t)
                              .Attr("dtype", dtype)
                              .Attr("seed", seed1)
                              .Attr("seed2", seed2),
                          {shape_t});
  Output scaled = rnd * (max_t - min_t);
  return ops::AddOp(NodeBuilder("AddV2", scope.op_name())
                        .ExactName()
                        .Input(scaled)
                        .Input(min_t),
                    {scaled, min_t});
}

}  // namespace minitf
