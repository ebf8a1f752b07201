#include "minitf/graph/ops/math_ops.h"

#include <cmath>
#include <set>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/shape_inference.h"

namespace minitf {
namespace {

// --8<-- [start:matmul_shape]
Status MatMulShape(InferenceContext* c) {
  TensorShape a, b;
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(0), 2, &a));
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(1), 2, &b));
  TF_ASSIGN_OR_RETURN(bool transpose_a, c->GetAttr<bool>("transpose_a"));
  TF_ASSIGN_OR_RETURN(bool transpose_b, c->GetAttr<bool>("transpose_b"));
  const int64_t rows = a.dim_size(transpose_a ? 1 : 0);
  const int64_t inner_a = a.dim_size(transpose_a ? 0 : 1);
  const int64_t inner_b = b.dim_size(transpose_b ? 1 : 0);
  const int64_t cols = b.dim_size(transpose_b ? 0 : 1);
  int64_t inner;
  TF_RETURN_IF_ERROR(InferenceContext::Merge(inner_a, inner_b, &inner));
  c->set_output(0, TensorShape({rows, cols}));
  return Status::OK();
}
// --8<-- [end:matmul_shape]

// --8<-- [start:reduction_shape]
// Sum, Mean, Max, Min, Prod: the reduced axes disappear (or become 1 with
// keep_dims). Without the axes' values, or the input's rank, the output
// shape is unknown, except that keep_dims keeps the rank.
Status ReductionShape(InferenceContext* c) {
  const TensorShape& input = c->input(0);
  TF_RETURN_IF_ERROR(InferenceContext::WithRankAtMost(c->input(1), 1));
  TF_ASSIGN_OR_RETURN(bool keep_dims, c->GetAttr<bool>("keep_dims"));
  const Tensor* indices = c->input_tensor(1);
  if (indices == nullptr || input.unknown_rank()) {
    c->set_output(0, keep_dims && !input.unknown_rank()
                         ? TensorShape(std::vector<int64_t>(input.dims(), None))
                         : TensorShape::UnknownRank());
    return Status::OK();
  }
  const int rank = input.dims();
  TF_ASSIGN_OR_RETURN(std::vector<int64_t> axes, IndexValues(*indices));
  std::set<int64_t> reduced;
  for (int64_t axis : axes) {
    if (axis < -rank || axis >= rank) {
      return errors::InvalidArgument("Invalid reduction dimension ", axis,
                                     " for input with ", rank, " dimensions.");
    }
    reduced.insert(axis < 0 ? axis + rank : axis);
  }
  std::vector<int64_t> dims;
  for (int i = 0; i < rank; ++i) {
    if (!reduced.count(i)) {
      dims.push_back(input.dim_size(i));
    } else if (keep_dims) {
      dims.push_back(1);
    }
  }
  c->set_output(0, TensorShape(std::move(dims)));
  return Status::OK();
}
// --8<-- [end:reduction_shape]

// ArgMax, ArgMin: the axis named by input `dimension` disappears.
Status ArgOpShape(InferenceContext* c) {
  const TensorShape& input = c->input(0);
  TF_RETURN_IF_ERROR(InferenceContext::WithRankAtLeast(input, 1));
  TF_RETURN_IF_ERROR(InferenceContext::WithRankAtMost(c->input(1), 0));
  if (input.unknown_rank()) return shape_fns::UnknownShape(c);
  const int rank = input.dims();
  const Tensor* dimension = c->input_tensor(1);
  if (dimension == nullptr) {
    c->set_output(0, TensorShape(std::vector<int64_t>(rank - 1, None)));
    return Status::OK();
  }
  TF_ASSIGN_OR_RETURN(std::vector<int64_t> values, IndexValues(*dimension));
  int64_t axis = values.at(0);
  if (axis < -rank || axis >= rank) {
    return errors::InvalidArgument(
        "Dimension (", axis, ") must be in the range [", -rank, ", ", rank,
        "), where ", rank, " is the number of dimensions in the input.");
  }
  if (axis < 0) axis += rank;
  std::vector<int64_t> dims;
  for (int i = 0; i < rank; ++i) {
    if (i != axis) dims.push_back(input.dim_size(i));
  }
  c->set_output(0, TensorShape(std::move(dims)));
  return Status::OK();
}

// AddN: every input has one shape; unknown dims are filled from the others.
Status AddNShape(InferenceContext* c) {
  TensorShape merged = TensorShape::UnknownRank();
  for (int i = c->num_inputs() - 1; i >= 0; --i) {
    Status s = InferenceContext::MergeShapes(c->input(i), merged, &merged);
    if (!s.ok()) {
      return Status(s.code(), StrCat(s.message(), "\n\tFrom merging shape ", i,
                                     " with other shapes."));
    }
  }
  c->set_output(0, merged);
  return Status::OK();
}

}  // namespace

// The op definitions, in TensorFlow's spelling. The type lists are the
// dtypes minitf's layer 1 has kernels for.
#define MINITF_UNARY(types)   \
  Input("x: T")               \
      .Output("y: T")         \
      .Attr("T: {" types "}") \
      .SetShapeFn(shape_fns::UnchangedShape)
#define MINITF_BINARY(types, out) \
  Input("x: T")                   \
      .Input("y: T")              \
      .Output("z: " out)          \
      .Attr("T: {" types "}")     \
      .SetShapeFn(shape_fns::BroadcastBinaryOp)
#define MINITF_NUMERIC "float, double, int32, int64"
#define MINITF_FLOATS "float, double"

MINITF_REGISTER_OP("Add").MINITF_BINARY(MINITF_NUMERIC, "T");
// What tf.add and `+` build since TensorFlow 1.15: Add under a new name, for
// graph rewrites that may assume it is commutative (Add also concatenates
// strings). minitf computes both with one kernel.
MINITF_REGISTER_OP("AddV2").MINITF_BINARY(MINITF_NUMERIC, "T");
MINITF_REGISTER_OP("Sub").MINITF_BINARY(MINITF_NUMERIC, "T");
MINITF_REGISTER_OP("Mul").MINITF_BINARY(MINITF_NUMERIC, "T");
MINITF_REGISTER_OP("Div").MINITF_BINARY(MINITF_NUMERIC, "T");
MINITF_REGISTER_OP("RealDiv").MINITF_BINARY(MINITF_FLOATS, "T");
MINITF_REGISTER_OP("Maximum").MINITF_BINARY(MINITF_NUMERIC, "T");
MINITF_REGISTER_OP("Minimum").MINITF_BINARY(MINITF_NUMERIC, "T");
MINITF_REGISTER_OP("Equal").MINITF_BINARY(MINITF_NUMERIC ", bool", "bool");
MINITF_REGISTER_OP("NotEqual").MINITF_BINARY(MINITF_NUMERIC ", bool", "bool");
MINITF_REGISTER_OP("Less").MINITF_BINARY(MINITF_NUMERIC, "bool");
MINITF_REGISTER_OP("LessEqual").MINITF_BINARY(MINITF_NUMERIC, "bool");
MINITF_REGISTER_OP("Greater").MINITF_BINARY(MINITF_NUMERIC, "bool");
MINITF_REGISTER_OP("GreaterEqual").MINITF_BINARY(MINITF_NUMERIC, "bool");

MINITF_REGISTER_OP("Neg").MINITF_UNARY(MINITF_NUMERIC);
MINITF_REGISTER_OP("Square").MINITF_UNARY(MINITF_NUMERIC);
MINITF_REGISTER_OP("Abs").MINITF_UNARY(MINITF_NUMERIC);
MINITF_REGISTER_OP("Sign").MINITF_UNARY(MINITF_NUMERIC);
MINITF_REGISTER_OP("Sqrt").MINITF_UNARY(MINITF_FLOATS);
MINITF_REGISTER_OP("Exp").MINITF_UNARY(MINITF_FLOATS);
MINITF_REGISTER_OP("Log").MINITF_UNARY(MINITF_FLOATS);
MINITF_REGISTER_OP("Sigmoid").MINITF_UNARY(MINITF_FLOATS);
MINITF_REGISTER_OP("Tanh").MINITF_UNARY(MINITF_FLOATS);

// Logic has fixed bool types, so no T.
MINITF_REGISTER_OP("LogicalAnd")
    .Input("x: bool")
    .Input("y: bool")
    .Output("z: bool")
    .SetShapeFn(shape_fns::BroadcastBinaryOp);
MINITF_REGISTER_OP("LogicalOr")
    .Input("x: bool")
    .Input("y: bool")
    .Output("z: bool")
    .SetShapeFn(shape_fns::BroadcastBinaryOp);
MINITF_REGISTER_OP("LogicalNot")
    .Input("x: bool")
    .Output("y: bool")
    .SetShapeFn(shape_fns::UnchangedShape);

// --8<-- [start:register_matmul]
MINITF_REGISTER_OP("MatMul")
    .Input("a: T")
    .Input("b: T")
    .Output("product: T")
    .Attr("transpose_a: bool = false")
    .Attr("transpose_b: bool = false")
    .Attr("T: {float, double, int32, int64}")
    .SetShapeFn(MatMulShape);
// --8<-- [end:register_matmul]

// --8<-- [start:register_sum]
#define MINITF_REDUCTION()                  \
  Input("input: T")                         \
      .Input("reduction_indices: Tidx")     \
      .Output("output: T")                  \
      .Attr("keep_dims: bool = false")      \
      .Attr("T: {" MINITF_NUMERIC "}")      \
      .Attr("Tidx: {int32, int64} = int32") \
      .SetShapeFn(ReductionShape)
MINITF_REGISTER_OP("Sum").MINITF_REDUCTION();
// --8<-- [end:register_sum]
MINITF_REGISTER_OP("Mean").MINITF_REDUCTION();
MINITF_REGISTER_OP("Max").MINITF_REDUCTION();
MINITF_REGISTER_OP("Min").MINITF_REDUCTION();
MINITF_REGISTER_OP("Prod").MINITF_REDUCTION();

#define MINITF_ARG_OP()                            \
  Input("input: T")                                \
      .Input("dimension: Tidx")                    \
      .Output("output: output_type")               \
      .Attr("T: {" MINITF_NUMERIC "}")             \
      .Attr("Tidx: {int32, int64} = int32")        \
      .Attr("output_type: {int32, int64} = int64") \
      .SetShapeFn(ArgOpShape)
MINITF_REGISTER_OP("ArgMax").MINITF_ARG_OP();
MINITF_REGISTER_OP("ArgMin").MINITF_ARG_OP();

MINITF_REGISTER_OP("Cast")
    .Input("x: SrcT")
    .Output("y: DstT")
    .Attr("SrcT: type")
    .Attr("DstT: type")
    .Attr("Truncate: bool = false")
    .SetShapeFn(shape_fns::UnchangedShape);

MINITF_REGISTER_OP("AddN")
    .Input("inputs: N * T")
    .Output("sum: T")
    .Attr("N: int >= 1")
    .Attr("T: {" MINITF_NUMERIC "}")
    .SetShapeFn(AddNShape);

#undef MINITF_UNARY
#undef MINITF_BINARY
#undef MINITF_REDUCTION
#undef MINITF_ARG_OP
#undef MINITF_NUMERIC
#undef MINITF_FLOATS

namespace {

Output Binary(const char* op, Output x, Output y, const std::string& name) {
  return ops::AddOp(NodeBuilder(op, name).Input(x).Input(y), {x, y});
}

// The final op of a function that opened an OpScope: named exactly.
Output BinaryExact(const char* op, Output x, Output y,
                   const std::string& exact_name) {
  return ops::AddOp(NodeBuilder(op, exact_name).ExactName().Input(x).Input(y),
                    {x, y});
}

Output Unary(const char* op, Output x, const std::string& name) {
  return ops::AddOp(NodeBuilder(op, name).Input(x), {x});
}

// TensorFlow's reductions. With axis None the axes are a Const of
// range(rank) built before the op, named as any constant ("Const"); given
// axes are converted inside the op's scope ("Sum/reduction_indices").
Output Reduce(const char* op, Output x, std::optional<Tensor> axes,
              bool keep_dims, const std::string& name) {
  if (!axes) {
    if (x.shape().unknown_rank()) {
      throw errors::UnimplementedError(
          StrCat(op, " over all axes of '", x.name(),
                 "', whose rank is unknown, needs the axes listed explicitly"));
    }
    std::vector<int32_t> all(x.shape().dims());
    for (int i = 0; i < x.shape().dims(); ++i) all[i] = i;
    Output dims = constant(errors::ValueOrThrow(Tensor::FromVector(
        all, TensorShape({static_cast<int64_t>(all.size())}))));
    return ops::AddOp(
        NodeBuilder(op, name).Input(x).Input(dims).Attr("keep_dims", keep_dims),
        {x, dims});
  }
  ops::OpScope scope(name, op, {x});
  Output dims = constant(*axes, "reduction_indices");
  return ops::AddOp(NodeBuilder(op, scope.op_name())
                        .ExactName()
                        .Input(x)
                        .Input(dims)
                        .Attr("keep_dims", keep_dims),
                    {x, dims});
}

std::optional<Tensor> AxesTensor(const ReductionAxes& axis) {
  if (!axis) return std::nullopt;
  return errors::ValueOrThrow(
      Tensor::FromVector(std::vector<int32_t>(axis->begin(), axis->end()),
                         TensorShape({static_cast<int64_t>(axis->size())})));
}

Output ArgOp(const char* op, Output input, int axis, const std::string& name,
             DType output_type) {
  ops::OpScope scope(name, op, {input});
  Output dimension = constant(Tensor(int32_t{axis}), "dimension");
  return ops::AddOp(NodeBuilder(op, scope.op_name())
                        .ExactName()
                        .Input(input)
                        .Input(dimension)
                        .Attr("output_type", output_type),
                    {input, dimension});
}

}  // namespace

Output add(Output x, Output y, const std::string& name) {
  return Binary("AddV2", x, y, name);
}
Output subtract(Output x, Output y, const std::string& name) {
  return Binary("Sub", x, y, name);
}
Output multiply(Output x, Output y, const std::string& name) {
  return Binary("Mul", x, y, name);
}
Output div(Output x, Output y, const std::string& name) {
  return Binary("Div", x, y, name.empty() ? "div" : name);
}

// --8<-- [start:truediv]
Output truediv(Output x, Output y, const std::string& name) {
  ops::OpScope scope(name, "truediv", {x, y});
  // Python 3's `/` on integers gives floats: TensorFlow casts int32 and
  // int64 operands to float64 and divides those.
  if (DataTypeIsInteger(x.dtype()) && x.dtype() == y.dtype()) {
    x = cast(x, DT_DOUBLE);
    y = cast(y, DT_DOUBLE);
  }
  return BinaryExact("RealDiv", x, y, scope.op_name());
}
// --8<-- [end:truediv]

Output divide(Output x, Output y, const std::string& name) {
  return truediv(x, y, name);
}
Output maximum(Output x, Output y, const std::string& name) {
  return Binary("Maximum", x, y, name);
}
Output minimum(Output x, Output y, const std::string& name) {
  return Binary("Minimum", x, y, name);
}

Output negative(Output x, const std::string& name) {
  return Unary("Neg", x, name);
}
Output square(Output x, const std::string& name) {
  return Unary("Square", x, name);
}
Output sqrt(Output x, const std::string& name) {
  return Unary("Sqrt", x, name);
}
Output exp(Output x, const std::string& name) { return Unary("Exp", x, name); }
Output log(Output x, const std::string& name) { return Unary("Log", x, name); }
Output abs(Output x, const std::string& name) { return Unary("Abs", x, name); }
Output sign(Output x, const std::string& name) {
  return Unary("Sign", x, name);
}
Output sigmoid(Output x, const std::string& name) {
  return Unary("Sigmoid", x, name);
}
Output tanh(Output x, const std::string& name) {
  return Unary("Tanh", x, name);
}

Output equal(Output x, Output y, const std::string& name) {
  return Binary("Equal", x, y, name);
}
Output not_equal(Output x, Output y, const std::string& name) {
  return Binary("NotEqual", x, y, name);
}
Output less(Output x, Output y, const std::string& name) {
  return Binary("Less", x, y, name);
}
Output less_equal(Output x, Output y, const std::string& name) {
  return Binary("LessEqual", x, y, name);
}
Output greater(Output x, Output y, const std::string& name) {
  return Binary("Greater", x, y, name);
}
Output greater_equal(Output x, Output y, const std::string& name) {
  return Binary("GreaterEqual", x, y, name);
}
Output logical_and(Output x, Output y, const std::string& name) {
  return Binary("LogicalAnd", x, y, name);
}
Output logical_or(Output x, Output y, const std::string& name) {
  return Binary("LogicalOr", x, y, name);
}
Output logical_not(Output x, const std::string& name) {
  return Unary("LogicalNot", x, name);
}

Output matmul(Output a, Output b, bool transpose_a, bool transpose_b,
              const std::string& name) {
  return ops::AddOp(NodeBuilder("MatMul", name)
                        .Input(a)
                        .Input(b)
                        .Attr("transpose_a", transpose_a)
                        .Attr("transpose_b", transpose_b),
                    {a, b});
}

Output reduce_sum(Output x, const ReductionAxes& axis, bool keep_dims,
                  const std::string& name) {
  return Reduce("Sum", x, AxesTensor(axis), keep_dims, name);
}
Output reduce_mean(Output x, const ReductionAxes& axis, bool keep_dims,
                   const std::string& name) {
  return Reduce("Mean", x, AxesTensor(axis), keep_dims, name);
}
Output reduce_max(Output x, const ReductionAxes& axis, bool keep_dims,
                  const std::string& name) {
  return Reduce("Max", x, AxesTensor(axis), keep_dims, name);
}
Output reduce_min(Output x, const ReductionAxes& axis, bool keep_dims,
                  const std::string& name) {
  return Reduce("Min", x, AxesTensor(axis), keep_dims, name);
}
Output reduce_prod(Output x, const ReductionAxes& axis, bool keep_dims,
                   const std::string& name) {
  return Reduce("Prod", x, AxesTensor(axis), keep_dims, name);
}
Output reduce_sum(Output x, const std::vector<int>& axis, bool keep_dims,
                  const std::string& name) {
  return Reduce("Sum", x, AxesTensor(axis), keep_dims, name);
}
Output reduce_mean(Output x, const std::vector<int>& axis, bool keep_dims,
                   const std::string& name) {
  return Reduce("Mean", x, AxesTensor(axis), keep_dims, name);
}
Output reduce_max(Output x, const std::vector<int>& axis, bool keep_dims,
                  const std::string& name) {
  return Reduce("Max", x, AxesTensor(axis), keep_dims, name);
}
Output reduce_min(Output x, const std::vector<int>& axis, bool keep_dims,
                  const std::string& name) {
  return Reduce("Min", x, AxesTensor(axis), keep_dims, name);
}
Output reduce_prod(Output x, const std::vector<int>& axis, bool keep_dims,
                   const std::string& name) {
  return Reduce("Prod", x, AxesTensor(axis), keep_dims, name);
}
// One axis is a scalar Const, as TensorFlow converts a Python int.
Output reduce_sum(Output x, int axis, bool keep_dims, const std::string& name) {
  return Reduce("Sum", x, Tensor(int32_t{axis}), keep_dims, name);
}
Output reduce_mean(Output x, int axis, bool keep_dims,
                   const std::string& name) {
  return Reduce("Mean", x, Tensor(int32_t{axis}), keep_dims, name);
}
Output reduce_max(Output x, int axis, bool keep_dims, const std::string& name) {
  return Reduce("Max", x, Tensor(int32_t{axis}), keep_dims, name);
}
Output reduce_min(Output x, int axis, bool keep_dims, const std::string& name) {
  return Reduce("Min", x, Tensor(int32_t{axis}), keep_dims, name);
}
Output reduce_prod(Output x, int axis, bool keep_dims,
                   const std::string& name) {
  return Reduce("Prod", x, Tensor(int32_t{axis}), keep_dims, name);
}

Output argmax(Output input, int axis, const std::string& name,
              DType output_type) {
  return ArgOp("ArgMax", input, axis, name, output_type);
}
Output argmin(Output input, int axis, const std::string& name,
              DType output_type) {
  return ArgOp("ArgMin", input, axis, name, output_type);
}

Output cast(Output x, DType dtype, const std::string& name) {
  if (x.dtype() == dtype) return x;
  return ops::AddOp(NodeBuilder("Cast", name).Input(x).Attr("DstT", dtype),
                    {x});
}

Output add_n(const std::vector<Output>& inputs, const std::string& name) {
  if (inputs.empty()) {
    throw errors::InvalidArgumentError(
        "inputs must be a list of at least one Tensor with the same dtype and "
        "shape");
  }
  if (inputs.size() == 1) {
    return name.empty() ? inputs[0] : identity(inputs[0], name);
  }
  return ops::AddOp(NodeBuilder("AddN", name).Input(inputs), inputs);
}

namespace internal {

Output ScalarConst(double value, DType dtype, const std::string& name) {
  Tensor t;
  bool exact = true;
  SwitchDType(dtype, [&]<typename T>() {
    const T v = static_cast<T>(value);
    exact = static_cast<double>(v) == value || std::isnan(value);
    t = Tensor(v);
  });
  if (!exact && !DataTypeIsFloating(dtype)) {
    throw errors::InvalidArgumentError(StrCat(
        "Expected ", DataTypePythonName(dtype), ", got ", value, " instead."));
  }
  return constant(t, name);
}

}  // namespace internal

Output operator+(Output x, Output y) { return add(x, y, "add"); }
Output operator-(Output x, Output y) { return subtract(x, y, "sub"); }
Output operator*(Output x, Output y) { return multiply(x, y, "mul"); }
Output operator/(Output x, Output y) { return truediv(x, y); }
Output operator-(Output x) { return negative(x); }

// --8<-- [start:binary_operator]
Output BinaryOperator(const char* op, Output x, double y, bool scalar_first) {
  // TensorFlow's binary_op_wrapper: open the scope "add", convert the number
  // to a tensor of x's dtype inside it, then build the op with the scope's
  // name. The number keeps its side: 1 - x is sub(1, x).
  ops::OpScope scope("", op, {x});
  Output c = internal::ScalarConst(y, x.dtype(), scalar_first ? "x" : "y");
  Output lhs = scalar_first ? c : x;
  Output rhs = scalar_first ? x : c;
  const std::string name = scope.op_name();
  const std::string_view kind = op;
  if (kind == "add") return BinaryExact("AddV2", lhs, rhs, name);
  if (kind == "sub") return BinaryExact("Sub", lhs, rhs, name);
  if (kind == "mul") return BinaryExact("Mul", lhs, rhs, name);
  // truediv opens its own scope; "truediv/" re-enters this one exactly.
  return truediv(lhs, rhs, name + "/");
}
// --8<-- [end:binary_operator]

}  // namespace minitf
