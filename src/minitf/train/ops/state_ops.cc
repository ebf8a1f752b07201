#include "minitf/train/ops/state_ops.h"

#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

// Output 0 has the shape both inputs agree on (TensorFlow's
// MergeBothInputsShapeFn).
Status MergeBothInputs(InferenceContext* c) {
  TensorShape out;
  TF_RETURN_IF_ERROR(
      InferenceContext::MergeShapes(c->input(0), c->input(1), &out));
  c->set_output(0, out);
  return Status::OK();
}

}  // namespace

// --8<-- [start:register_variable]
// The output is a reference: the ops that take it by reference (Ref(T)
// inputs) write into the variable's own buffer. It may be unset while the
// variable holds no value.
MINITF_REGISTER_OP("VariableV2")
    .Output("ref: Ref(dtype)")
    .Attr("shape: shape")
    .Attr("dtype: type")
    .Attr("container: string = \"\"")
    .Attr("shared_name: string = \"\"")
    .SetIsStateful()
    .SetMayOutputUninitialized()
    .SetShapeFn([](InferenceContext* c) {
      TF_ASSIGN_OR_RETURN(TensorShape shape, c->GetAttr<TensorShape>("shape"));
      c->set_output(0, shape);
      return Status::OK();
    });

// Runs before the variable holds a value: that is what initializers do.
MINITF_REGISTER_OP("Assign")
    .Input("ref: Ref(T)")
    .Input("value: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: type")
    .Attr("validate_shape: bool = true")
    .Attr("use_locking: bool = true")
    .SetIsStateful()
    .SetAllowsUninitializedInput()
    .SetShapeFn([](InferenceContext* c) {
      TF_ASSIGN_OR_RETURN(bool validate, c->GetAttr<bool>("validate_shape"));
      if (!validate) {
        c->set_output(0, c->input(1));
        return Status::OK();
      }
      return MergeBothInputs(c);
    });
// --8<-- [end:register_variable]

MINITF_REGISTER_OP("AssignAdd")
    .Input("ref: Ref(T)")
    .Input("value: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: {float, double, int32, int64}")
    .Attr("use_locking: bool = false")
    .SetIsStateful()
    .SetShapeFn(MergeBothInputs);

MINITF_REGISTER_OP("AssignSub")
    .Input("ref: Ref(T)")
    .Input("value: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: {float, double, int32, int64}")
    .Attr("use_locking: bool = false")
    .SetIsStateful()
    .SetShapeFn(MergeBothInputs);

MINITF_REGISTER_OP("IsVariableInitialized")
    .Input("ref: Ref(dtype)")
    .Output("is_initialized: bool")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetAllowsUninitializedInput()
    .SetShapeFn(shape_fns::ScalarShape);

bool IsRefOutput(const Output& ref) {
  return ref.valid() && ref.node()->type_string() == "VariableV2";
}

namespace {

// TensorFlow refuses a plain tensor where an op writes: it has no l-value.
void CheckRef(const Output& ref, const char* op) {
  if (!IsRefOutput(ref)) {
    throw errors::InvalidArgumentError(std::string("Input 'ref' of '") + op +
                                       "' Op requires l-value input, got " +
                                       ref.name());
  }
}

// An op that writes the variable runs where the variable lives: TensorFlow's
// placer puts a reference's consumers there; minitf records it in the graph.
Output UpdateOp(const char* op, Output ref, Output value, NodeBuilder builder) {
  CheckRef(ref, op);
  graph_scope in_graph(*GraphForInputs({ref, value}));
  colocate_with with_var(ref.op());
  builder.Input(ref).Input(value);
  return ops::AddOp(builder, {ref, value});
}

}  // namespace

Output variable_v2(const TensorShape& shape, DType dtype,
                   const std::string& name, const std::string& container,
                   const std::string& shared_name) {
  return ops::AddOp(NodeBuilder("VariableV2", name)
                        .Attr("shape", shape)
                        .Attr("dtype", dtype)
                        .Attr("container", container)
                        .Attr("shared_name", shared_name),
                    {});
}

Output assign(Output ref, Output value, bool validate_shape, bool use_locking,
              const std::string& name) {
  return UpdateOp("Assign", ref, value,
                  NodeBuilder("Assign", name)
                      .Attr("validate_shape", validate_shape)
                      .Attr("use_locking", use_locking));
}

Output assign_add(Output ref, Output value, bool use_locking,
                  const std::string& name) {
  return UpdateOp(
      "AssignAdd", ref, value,
      NodeBuilder("AssignAdd", name).Attr("use_locking", use_locking));
}

Output assign_sub(Output ref, Output value, bool use_locking,
                  const std::string& name) {
  return UpdateOp(
      "AssignSub", ref, value,
      NodeBuilder("AssignSub", name).Attr("use_locking", use_locking));
}

Output is_variable_initialized(Output ref, const std::string& name) {
  CheckRef(ref, "IsVariableInitialized");
  graph_scope in_graph(*ref.graph());
  colocate_with with_var(ref.op());
  return ops::AddOp(NodeBuilder("IsVariableInitialized", name)
                        .Input(ref)
                        .Attr("dtype", ref.dtype()),
                    {ref});
}

}  // namespace minitf
