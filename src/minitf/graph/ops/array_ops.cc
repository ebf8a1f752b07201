#include "minitf/graph/ops/array_ops.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "minitf/graph/ops/build.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/kernels/array_ops.h"
#include "minitf/tensor/kernels/checks.h"

namespace minitf {

// --8<-- [start:register_const]
MINITF_REGISTER_OP("Const")
    .Output("output: dtype")
    .Attr("value: tensor")
    .Attr("dtype: type")
    .SetShapeFn([](InferenceContext* c) {
      TF_ASSIGN_OR_RETURN(Tensor value, c->GetAttr<Tensor>("value"));
      TF_ASSIGN_OR_RETURN(DType dtype, c->GetAttr<DType>("dtype"));
      // A GraphDef from elsewhere may disagree with itself: refuse it here,
      // not in the kernel.
      if (value.dtype() != dtype) {
        return errors::InvalidArgument(
            "Const value has dtype ", DataTypeString(value.dtype()),
            " but attr dtype is ", DataTypeString(dtype));
      }
      c->set_output(0, value.shape());
      return Status::OK();
    });
// --8<-- [end:register_const]

MINITF_REGISTER_OP("Placeholder")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("shape: shape = <unknown>")
    .SetShapeFn([](InferenceContext* c) {
      TF_ASSIGN_OR_RETURN(TensorShape shape, c->GetAttr<TensorShape>("shape"));
      c->set_output(0, shape);
      return Status::OK();
    });

MINITF_REGISTER_OP("Identity")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::UnchangedShape);

MINITF_REGISTER_OP("NoOp").SetShapeFn(shape_fns::NoOutputs);

namespace {

// A 1-D int32 Const holding `values`, named `name` in the current scope.
Output IndexConst(const std::vector<int64_t>& values, const std::string& name) {
  std::vector<int32_t> v(values.begin(), values.end());
  return constant(errors::ValueOrThrow(Tensor::FromVector(
                      v, TensorShape({static_cast<int64_t>(v.size())}))),
                  name);
}

// A Const that ends a function with an OpScope, named as the scope.
Output ExactConst(const Tensor& value, const std::string& exact_name) {
  return ops::AddOp(NodeBuilder("Const", exact_name)
                        .ExactName()
                        .Attr("value", value)
                        .Attr("dtype", value.dtype()),
                    {});
}

// --8<-- [start:reshape_shape]
// Reshape: the target shape is the `shape` input when it is a constant. One
// -1 is resolved when the input's element count is known; a count that no
// shape of that form can hold is an error now, not at run time.
Status ReshapeShape(InferenceContext* c) {
  TensorShape out;
  TF_RETURN_IF_ERROR(c->MakeShapeFromInput(1, &out));
  const TensorShape& in = c->input(0);
  if (c->input_tensor(1) == nullptr || out.unknown_rank() ||
      !in.IsFullyDefined()) {
    c->set_output(0, out);
    return Status::OK();
  }
  int unknown = -1;
  int64_t known = 1;
  for (int i = 0; i < out.dims(); ++i) {
    if (out.dim_size(i) == None) {
      if (unknown >= 0) {  // Two -1s: the kernel reports it.
        c->set_output(0, out);
        return Status::OK();
      }
      unknown = i;
    } else {
      known *= out.dim_size(i);
    }
  }
  const int64_t count = in.num_elements();
  if ((unknown < 0 && known != count) ||
      (unknown >= 0 && (known == 0 ? count != 0 : count % known != 0))) {
    return errors::InvalidArgument("Cannot reshape a tensor with ", count,
                                   " elements to shape ", ShapeErrorString(out),
                                   " (", known, " elements)");
  }
  if (unknown >= 0) {
    std::vector<int64_t> dims(out.dims());
    for (int i = 0; i < out.dims(); ++i) dims[i] = out.dim_size(i);
    dims[unknown] = known == 0 ? 0 : count / known;
    out = TensorShape(std::move(dims));
  }
  c->set_output(0, out);
  return Status::OK();
}
// --8<-- [end:reshape_shape]

Status TransposeShape(InferenceContext* c) {
  const TensorShape& in = c->input(0);
  TensorShape perm_shape;
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(1), 1, &perm_shape));
  int rank = in.dims();
  if (in.unknown_rank()) {
    if (perm_shape.dim_size(0) == None) return shape_fns::UnknownShape(c);
    rank = static_cast<int>(perm_shape.dim_size(0));
  } else if (perm_shape.dim_size(0) != None && perm_shape.dim_size(0) != rank) {
    return errors::InvalidArgument("Dimension must be ", rank, " but is ",
                                   perm_shape.dim_size(0));
  }
  const Tensor* perm_t = c->input_tensor(1);
  if (perm_t == nullptr) {
    c->set_output(0, TensorShape(std::vector<int64_t>(rank, None)));
    return Status::OK();
  }
  TF_ASSIGN_OR_RETURN(std::vector<int64_t> perm, IndexValues(*perm_t));
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= rank) {
      return errors::InvalidArgument("perm dim ", perm[i],
                                     " is out of range of input rank ", rank);
    }
    dims[i] = in.unknown_rank() ? None : in.dim_size(perm[i]);
  }
  c->set_output(0, TensorShape(std::move(dims)));
  return Status::OK();
}

// The dims [begin, end) of a known-rank shape.
TensorShape SubShape(const TensorShape& s, int begin, int end) {
  std::vector<int64_t> dims;
  for (int i = begin; i < end; ++i) dims.push_back(s.dim_size(i));
  return TensorShape(std::move(dims));
}

// ConcatV2: inputs 0..N-1 are the values, input N the axis. The dims before
// and after the axis must agree; along it they add up.
Status ConcatShape(InferenceContext* c) {
  const int n = c->num_inputs() - 1;
  int rank = -1;
  for (int i = 0; i < n && rank < 0; ++i) rank = c->input(i).dims();
  if (rank < 0) return shape_fns::UnknownShape(c);
  for (int i = 0; i < n; ++i) {
    TensorShape unused;
    TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(i), rank, &unused));
  }
  const Tensor* axis_t = c->input_tensor(n);
  if (axis_t == nullptr) {
    c->set_output(0, TensorShape(std::vector<int64_t>(rank, None)));
    return Status::OK();
  }
  TF_ASSIGN_OR_RETURN(std::vector<int64_t> axis_v, IndexValues(*axis_t));
  int64_t axis = axis_v.at(0);
  if (axis < -rank || axis >= rank) {
    return errors::InvalidArgument(
        "ConcatOp : Expected concatenating dimensions in the range [", -rank,
        ", ", rank, "), but got ", axis);
  }
  if (axis < 0) axis += rank;
  const int a = static_cast<int>(axis);
  TensorShape before = TensorShape::UnknownRank();
  TensorShape after = TensorShape::UnknownRank();
  int64_t total = 0;
  for (int i = 0; i < n; ++i) {
    const TensorShape& in = c->input(i);
    if (in.unknown_rank()) {
      total = None;
      continue;
    }
    TF_RETURN_IF_ERROR(
        InferenceContext::MergeShapes(before, SubShape(in, 0, a), &before));
    TF_RETURN_IF_ERROR(InferenceContext::MergeShapes(
        after, SubShape(in, a + 1, rank), &after));
    const int64_t d = in.dim_size(a);
    total = (total == None || d == None) ? None : total + d;
  }
  std::vector<int64_t> dims;
  for (int i = 0; i < a; ++i) {
    dims.push_back(before.unknown_rank() ? None : before.dim_size(i));
  }
  dims.push_back(total);
  for (int i = a + 1; i < rank; ++i) {
    dims.push_back(after.unknown_rank() ? None : after.dim_size(i - a - 1));
  }
  c->set_output(0, TensorShape(std::move(dims)));
  return Status::OK();
}

// Pack: every input has one shape; the output gains an axis of size N.
Status PackShape(InferenceContext* c) {
  TensorShape cur = c->input(c->num_inputs() - 1);
  for (int i = c->num_inputs() - 2; i >= 0; --i) {
    Status s = InferenceContext::MergeShapes(cur, c->input(i), &cur);
    if (!s.ok()) {
      return Status(s.code(), StrCat(s.message(), "\n\tFrom merging shape ", i,
                                     " with other shapes."));
    }
  }
  if (cur.unknown_rank()) return shape_fns::UnknownShape(c);
  const int rank = cur.dims() + 1;
  TF_ASSIGN_OR_RETURN(int64_t axis, c->GetAttr<int64_t>("axis"));
  if (axis < -rank || axis >= rank) {
    return errors::InvalidArgument("Invalid axis: ", axis, "; must be in [",
                                   -rank, ",", rank, ")");
  }
  if (axis < 0) axis += rank;
  std::vector<int64_t> dims;
  for (int i = 0; i < cur.dims(); ++i) dims.push_back(cur.dim_size(i));
  dims.insert(dims.begin() + axis, c->num_inputs());
  c->set_output(0, TensorShape(std::move(dims)));
  return Status::OK();
}

Status SliceShape(InferenceContext* c) {
  const TensorShape& in = c->input(0);
  TensorShape begin_shape;
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(1), 1, &begin_shape));
  const Tensor* begin_t = c->input_tensor(1);
  const Tensor* size_t_ = c->input_tensor(2);
  int rank = in.dims();
  if (rank < 0) rank = static_cast<int>(begin_shape.dim_size(0));
  if (rank < 0) return shape_fns::UnknownShape(c);
  if (begin_t == nullptr || size_t_ == nullptr) {
    c->set_output(0, TensorShape(std::vector<int64_t>(rank, None)));
    return Status::OK();
  }
  TF_ASSIGN_OR_RETURN(std::vector<int64_t> begin, IndexValues(*begin_t));
  TF_ASSIGN_OR_RETURN(std::vector<int64_t> size, IndexValues(*size_t_));
  TF_RETURN_IF_ERROR(kernels::CheckSliceArgs(rank, begin, size));
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    const int64_t d = in.unknown_rank() ? None : in.dim_size(i);
    if (size[i] == -1) {
      dims[i] = d == None ? None : d - begin[i];
    } else {
      dims[i] = size[i];
    }
    if (d != None && (begin[i] < 0 || size[i] < -1 || dims[i] < 0 ||
                      begin[i] + dims[i] > d)) {
      return errors::InvalidArgument("Expected size[", i, "] in [0, ",
                                     d - begin[i], "], but got ", size[i]);
    }
  }
  c->set_output(0, TensorShape(std::move(dims)));
  return Status::OK();
}

Status FillShape(InferenceContext* c) {
  TensorShape unused;
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(1), 0, &unused));
  TensorShape out;
  TF_RETURN_IF_ERROR(c->MakeShapeFromInput(0, &out));
  c->set_output(0, out);
  return Status::OK();
}

// OneHot: a new axis of size `depth` at `axis` (-1: last).
Status OneHotShape(InferenceContext* c) {
  TF_ASSIGN_OR_RETURN(int64_t axis, c->GetAttr<int64_t>("axis"));
  if (axis < -1) return errors::InvalidArgument("axis must be >= -1");
  TensorShape unused;
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(1), 0, &unused));
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(2), 0, &unused));
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(3), 0, &unused));
  const TensorShape& indices = c->input(0);
  if (indices.unknown_rank()) return shape_fns::UnknownShape(c);
  int64_t depth = None;
  if (const Tensor* t = c->input_tensor(1)) depth = t->scalar<int32_t>();
  if (depth != None && depth < 0) {
    return errors::InvalidArgument("depth must be non-negative, got: ", depth);
  }
  if (axis > indices.dims()) {
    return errors::InvalidArgument("Expected axis in [-1, ", indices.dims(),
                                   "], but got ", axis);
  }
  std::vector<int64_t> dims;
  for (int i = 0; i < indices.dims(); ++i) dims.push_back(indices.dim_size(i));
  dims.insert(axis == -1 ? dims.end() : dims.begin() + axis, depth);
  c->set_output(0, TensorShape(std::move(dims)));
  return Status::OK();
}

Status ShapeShape(InferenceContext* c) {
  const TensorShape& in = c->input(0);
  c->set_output(0, TensorShape({in.unknown_rank() ? None : in.dims()}));
  return Status::OK();
}

}  // namespace

MINITF_REGISTER_OP("Reshape")
    .Input("tensor: T")
    .Input("shape: Tshape")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tshape: {int32, int64} = int32")
    .SetShapeFn(ReshapeShape);

MINITF_REGISTER_OP("Transpose")
    .Input("x: T")
    .Input("perm: Tperm")
    .Output("y: T")
    .Attr("T: type")
    .Attr("Tperm: {int32, int64} = int32")
    .SetShapeFn(TransposeShape);

MINITF_REGISTER_OP("ConcatV2")
    .Input("values: N * T")
    .Input("axis: Tidx")
    .Output("output: T")
    .Attr("N: int >= 2")
    .Attr("T: type")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(ConcatShape);

MINITF_REGISTER_OP("Pack")
    .Input("values: N * T")
    .Output("output: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .Attr("axis: int = 0")
    .SetShapeFn(PackShape);

MINITF_REGISTER_OP("Slice")
    .Input("input: T")
    .Input("begin: Index")
    .Input("size: Index")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Index: {int32, int64}")
    .SetShapeFn(SliceShape);

MINITF_REGISTER_OP("Fill")
    .Input("dims: index_type")
    .Input("value: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("index_type: {int32, int64} = int32")
    .SetShapeFn(FillShape);

MINITF_REGISTER_OP("ZerosLike")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::UnchangedShape);

MINITF_REGISTER_OP("OnesLike")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {float, double, int32, int64}")
    .SetShapeFn(shape_fns::UnchangedShape);

MINITF_REGISTER_OP("OneHot")
    .Input("indices: TI")
    .Input("depth: int32")
    .Input("on_value: T")
    .Input("off_value: T")
    .Attr("axis: int = -1")
    .Output("output: T")
    .Attr("T: {float, double, int32, int64}")
    .Attr("TI: {int32, int64} = int64")
    .SetShapeFn(OneHotShape);

MINITF_REGISTER_OP("Shape")
    .Input("input: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = int32")
    .SetShapeFn(ShapeShape);

MINITF_REGISTER_OP("Size")
    .Input("input: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = int32")
    .SetShapeFn(shape_fns::ScalarShape);

MINITF_REGISTER_OP("Rank")
    .Input("input: T")
    .Output("output: int32")
    .Attr("T: type")
    .SetShapeFn(shape_fns::ScalarShape);

Output constant(const Tensor& value, const std::string& name) {
  if (!value.IsInitialized()) {
    throw errors::InvalidArgumentError(
        "tf.constant needs a value; the tensor given is uninitialized");
  }
  return ops::AddOp(NodeBuilder("Const", name.empty() ? "Const" : name)
                        .Attr("value", value)
                        .Attr("dtype", value.dtype()),
                    {});
}

Output placeholder(DType dtype, const TensorShape& shape,
                   const std::string& name) {
  return ops::AddOp(NodeBuilder("Placeholder", name)
                        .Attr("dtype", dtype)
                        .Attr("shape", shape),
                    {});
}

Output placeholder(DType dtype, std::initializer_list<int64_t> shape,
                   const std::string& name) {
  return placeholder(dtype, TensorShape(shape), name);
}

Output identity(Output input, const std::string& name) {
  return ops::AddOp(NodeBuilder("Identity", name).Input(input), {input});
}

Operation no_op(const std::string& name) {
  return Operation(ops::AddNode(NodeBuilder("NoOp", name), {}));
}

Operation group(const std::vector<Operation>& inputs, const std::string& name) {
  // As tf.group builds it: the inputs sorted by the device they asked for.
  std::vector<Output> graph_of;
  std::map<std::string, std::vector<Operation>> on_device;
  for (const Operation& op : inputs) {
    if (op.num_outputs() > 0) graph_of.push_back(op.output(0));
    on_device[op.device()].push_back(op);
  }
  ops::OpScope scope(name, "group_deps", graph_of);
  // A NoOp with a control edge from each of `deps`, under
  // `with tf.device(device):` unless `device` is "".
  auto wait_for = [](const std::vector<Operation>& deps,
                     const std::string& device, NodeBuilder b) {
    std::optional<device_scope> on;
    if (!device.empty()) on.emplace(device);
    for (const Operation& op : deps) b.ControlInput(op.node());
    return ops::AddNode(b, {});
  };
  NodeBuilder root = NodeBuilder("NoOp", scope.op_name()).ExactName();
  Node* n = nullptr;
  if (on_device.size() <= 1) {
    // One device (or none asked for): the NoOp goes there too.
    n = wait_for(inputs, on_device.empty() ? "" : on_device.begin()->first,
                 root);
  } else {
    // A two-level tree: a NoOp "<name>/NoOp" per device, in the order of the
    // devices' names, waits for that device's inputs; the NoOp returned,
    // which asks for no device, waits for those.
    std::vector<Operation> per_device;
    for (const auto& [device, deps] : on_device) {
      per_device.emplace_back(wait_for(deps, device, NodeBuilder("NoOp", "")));
    }
    n = wait_for(per_device, "", root);
  }
  for (const Operation& op : inputs) {
    if (op.graph() != n->graph()) {
      throw errors::InvalidArgumentError(
          "tf.group: all inputs must be from the same graph");
    }
  }
  return Operation(n);
}

Output reshape(Output tensor, const std::vector<int64_t>& shape,
               const std::string& name) {
  ops::OpScope scope(name, "Reshape", {tensor});
  Output target = IndexConst(shape, "shape");
  return ops::AddOp(NodeBuilder("Reshape", scope.op_name())
                        .ExactName()
                        .Input(tensor)
                        .Input(target),
                    {tensor, target});
}

Output transpose(Output a, const std::optional<std::vector<int>>& perm,
                 const std::string& name) {
  ops::OpScope scope(name, "transpose", {a});
  std::vector<int64_t> p;
  if (perm) {
    p.assign(perm->begin(), perm->end());
  } else {
    if (a.shape().unknown_rank()) {
      throw errors::UnimplementedError(
          "transpose of '" + a.name() +
          "', whose rank is unknown, needs an explicit perm");
    }
    for (int i = a.shape().dims() - 1; i >= 0; --i) p.push_back(i);
  }
  Output perm_t = IndexConst(p, "perm");
  return ops::AddOp(NodeBuilder("Transpose", scope.op_name())
                        .ExactName()
                        .Input(a)
                        .Input(perm_t),
                    {a, perm_t});
}

Output concat(const std::vector<Output>& values, int axis,
              const std::string& name) {
  if (values.empty()) {
    throw errors::InvalidArgumentError("tf.concat needs at least one value");
  }
  if (values.size() == 1) {
    // TensorFlow's degenerate case: nothing to join, an Identity.
    ops::OpScope scope(name, "concat", values);
    return ops::AddOp(
        NodeBuilder("Identity", scope.op_name()).ExactName().Input(values[0]),
        values);
  }
  ops::OpScope scope(name, "concat", values);
  Output axis_t = constant(Tensor(int32_t{axis}), "axis");
  std::vector<Output> all = values;
  all.push_back(axis_t);
  return ops::AddOp(NodeBuilder("ConcatV2", scope.op_name())
                        .ExactName()
                        .Input(values)
                        .Input(axis_t),
                    all);
}

Output stack(const std::vector<Output>& values, int axis,
             const std::string& name) {
  return ops::AddOp(
      NodeBuilder("Pack", name).Input(values).Attr("axis", int64_t{axis}),
      values);
}

Output slice(Output input, const std::vector<int64_t>& begin,
             const std::vector<int64_t>& size, const std::string& name) {
  ops::OpScope scope(name, "Slice", {input});
  Output b = IndexConst(begin, "begin");
  Output s = IndexConst(size, "size");
  return ops::AddOp(NodeBuilder("Slice", scope.op_name())
                        .ExactName()
                        .Input(input)
                        .Input(b)
                        .Input(s),
                    {input, b, s});
}

Output fill(const std::vector<int64_t>& dims, const Tensor& value,
            const std::string& name) {
  ops::OpScope scope(name, "Fill", {});
  Output d = IndexConst(dims, "dims");
  Output v = constant(value, "value");
  return ops::AddOp(
      NodeBuilder("Fill", scope.op_name()).ExactName().Input(d).Input(v),
      {d, v});
}

namespace {

// --8<-- [start:zeros]
// tf.zeros and tf.ones: a small result is stored whole in a Const; a large
// one as a Fill, so that a GraphDef does not carry megabytes of zeros.
Output ConstantOrFill(const std::vector<int64_t>& shape, DType dtype,
                      double value, const std::string& name,
                      const char* default_name) {
  ops::OpScope scope(name, default_name, {});
  const TensorShape s =
      errors::ValueOrThrow(TensorShape::FromDims(shape, false));
  Tensor scalar = SwitchDType(
      dtype, [&]<typename T>() { return Tensor(static_cast<T>(value)); });
  if (s.num_elements() < 1000) {
    Tensor full = errors::ValueOrThrow(kernels::Fill(shape, scalar));
    return ExactConst(full, scope.op_name());
  }
  Output d = IndexConst(shape, "shape_as_tensor");
  Output v = constant(scalar, "Const");
  return ops::AddOp(
      NodeBuilder("Fill", scope.op_name()).ExactName().Input(d).Input(v),
      {d, v});
}
// --8<-- [end:zeros]

}  // namespace

Output zeros(const std::vector<int64_t>& shape, DType dtype,
             const std::string& name) {
  return ConstantOrFill(shape, dtype, 0.0, name, "zeros");
}

Output ones(const std::vector<int64_t>& shape, DType dtype,
            const std::string& name) {
  return ConstantOrFill(shape, dtype, 1.0, name, "ones");
}

Output zeros_like(Output tensor, const std::string& name) {
  return ops::AddOp(NodeBuilder("ZerosLike", name.empty() ? "zeros_like" : name)
                        .Input(tensor),
                    {tensor});
}

Output ones_like(Output tensor, const std::string& name) {
  return ops::AddOp(
      NodeBuilder("OnesLike", name.empty() ? "ones_like" : name).Input(tensor),
      {tensor});
}

Output one_hot(Output indices, int64_t depth, double on_value, double off_value,
               int axis, DType dtype, const std::string& name) {
  ops::OpScope scope(name, "one_hot", {indices});
  auto scalar = [&](double v) {
    return SwitchDType(dtype,
                       [&]<typename T>() { return Tensor(static_cast<T>(v)); });
  };
  Output on = constant(scalar(on_value), "on_value");
  Output off = constant(scalar(off_value), "off_value");
  Output d = constant(Tensor(static_cast<int32_t>(depth)), "depth");
  return ops::AddOp(NodeBuilder("OneHot", scope.op_name())
                        .ExactName()
                        .Input(indices)
                        .Input(d)
                        .Input(on)
                        .Input(off)
                        .Attr("axis", int64_t{axis}),
                    {indices, d, on, off});
}

// --8<-- [start:shape]
// TensorFlow folds what it already knows: the shape of a tensor whose shape
// is fully known is a Const, computed now; only a partly known one needs a
// Shape op that reads the tensor at run time.
Output shape(Output input, const std::string& name, DType out_type) {
  ops::OpScope scope(name, "Shape", {input});
  const TensorShape& s = input.shape();
  if (s.IsFullyDefined()) {
    std::vector<int64_t> dims(s.dims());
    for (int i = 0; i < s.dims(); ++i) dims[i] = s.dim_size(i);
    Tensor value = out_type == DT_INT64
                       ? errors::ValueOrThrow(
                             Tensor::FromVector(dims, TensorShape({s.dims()})))
                       : errors::ValueOrThrow(Tensor::FromVector(
                             std::vector<int32_t>(dims.begin(), dims.end()),
                             TensorShape({s.dims()})));
    return ExactConst(value, scope.op_name());
  }
  return ops::AddOp(NodeBuilder("Shape", scope.op_name())
                        .ExactName()
                        .Input(input)
                        .Attr("out_type", out_type),
                    {input});
}
// --8<-- [end:shape]

Output size(Output input, const std::string& name, DType out_type) {
  ops::OpScope scope(name, "Size", {input});
  const TensorShape& s = input.shape();
  if (s.IsFullyDefined()) {
    const int64_t n = s.num_elements();
    return ExactConst(
        out_type == DT_INT64 ? Tensor(n) : Tensor(static_cast<int32_t>(n)),
        scope.op_name());
  }
  return ops::AddOp(NodeBuilder("Size", scope.op_name())
                        .ExactName()
                        .Input(input)
                        .Attr("out_type", out_type),
                    {input});
}

Output rank(Output input, const std::string& name) {
  ops::OpScope scope(name, "Rank", {input});
  if (!input.shape().unknown_rank()) {
    return ExactConst(Tensor(static_cast<int32_t>(input.shape().dims())),
                      scope.op_name());
  }
  return ops::AddOp(
      NodeBuilder("Rank", scope.op_name()).ExactName().Input(input), {input});
}

}  // namespace minitf
