// OpDef and the op registry: what an operation type is.
//
// Before a graph can hold a "MatMul" node, something must say what MatMul
// takes and gives: two inputs of one element type T, one output of type T,
// attrs transpose_a and transpose_b, and how its output shape follows from
// its input shapes. That description is an OpDef. Every op type registers
// one, once, in the process-wide OpRegistry; the graph builder checks each new
// node against it, and the kernel registry (kernel.h) pairs it with code per
// device type. Later chapters register more ops without touching this file.
//
// Definitions are written in TensorFlow's REGISTER_OP spelling:
//
//   MINITF_REGISTER_OP("MatMul")
//       .Input("a: T").Input("b: T").Output("product: T")
//       .Attr("transpose_a: bool = false").Attr("transpose_b: bool = false")
//       .Attr("T: {float, double, int32, int64}")
//       .SetShapeFn(MatMulShape);
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "minitf/graph/attr_value.h"
#include "minitf/graph/registration.h"
#include "minitf/tensor/dtype.h"
#include "minitf/tensor/status.h"

namespace minitf {

class InferenceContext;

/// Computes the output shapes of one node from its input shapes and attrs.
using ShapeFn = std::function<Status(InferenceContext*)>;

/// One input or output of an op: "a: T" (type from attr T), "x: float" (a
/// fixed type), "values: N * T" (a list of N tensors of type T), "ref:
/// Ref(T)" (a reference to a tensor held by another op).
struct ArgDef {
  std::string name;
  DType type = DT_INVALID;  ///< Set for a fixed type.
  std::string type_attr;    ///< Set when the type comes from an attr.
  std::string number_attr;  ///< Set for a list: its length attr.
  /// TensorFlow's Ref(T): the tensor is passed by reference, so an op that
  /// takes it writes into the producer's buffer (Assign into a VariableV2).
  /// The dtype is T all the same; what it changes is where the op may run:
  /// a placer puts the two ends of a reference on one device.
  bool is_ref = false;
};

/// One attr: "transpose_a: bool = false", "T: {float, double}", "N: int >= 1".
struct AttrDef {
  std::string name;
  std::string type;                  ///< "bool", "int", "type", "shape", ...
  std::vector<DType> allowed_types;  ///< For "type" attrs; empty = any.
  std::optional<AttrValue> default_value;
  std::optional<int64_t> minimum;  ///< For "int" attrs.
};

/// Everything the graph needs to know about an op type.
struct OpDef {
  std::string name;
  std::vector<ArgDef> inputs;
  std::vector<ArgDef> outputs;
  std::vector<AttrDef> attrs;
  /// True for ops whose result is not a function of their inputs (random
  /// numbers, variables): never folded, never shared between graph runs.
  bool is_stateful = false;
  /// True for ops that take a state by reference and may run before it
  /// holds a value (Assign, IsVariableInitialized): TensorFlow's
  /// allows_uninitialized_input. Any other op given an input that holds no
  /// value fails with "Attempting to use uninitialized value NAME".
  bool allows_uninitialized_input = false;
  /// True for ops that hand out a state which may hold no value yet
  /// (VariableV2): they may leave an output unset, where TensorFlow hands
  /// out a reference to an uninitialized tensor.
  bool may_output_uninitialized = false;
  ShapeFn shape_fn;

  const AttrDef* FindAttr(std::string_view attr) const;
};

/// OK when a value of kind `given` ("bool", "list(int)" ..., as
/// AttrValue::KindName spells it) may be the value of `def`; else
/// InvalidArgument in TensorFlow's words: "AttrValue had value with type
/// 'bool' when 'type' expected for attr 'T'", and for `given` "" (no value)
/// "AttrValue missing value with expected type 'type' for attr 'T'".
/// Callers add the node, as TensorFlow does: "; NodeDef: {{node c}};
/// Op<name=MatMul>".
/// Every attr is checked so before its value is read as the declared kind,
/// so a GraphDef or a caller with a wrong kind gets this error instead of a
/// crash.
Status CheckAttrKind(const AttrDef& def, std::string_view given);

/// Builds an OpDef from TensorFlow-style spec strings. A malformed spec is
/// our bug (ops are registered by the library), so Finalize() reports it
/// through a Status that registration turns into a CHECK failure.
class OpDefBuilder {
 public:
  explicit OpDefBuilder(std::string op_name);

  OpDefBuilder& Input(std::string_view spec);
  OpDefBuilder& Output(std::string_view spec);
  OpDefBuilder& Attr(std::string_view spec);
  OpDefBuilder& SetIsStateful();
  OpDefBuilder& SetAllowsUninitializedInput();
  OpDefBuilder& SetMayOutputUninitialized();
  OpDefBuilder& SetShapeFn(ShapeFn fn);

  StatusOr<OpDef> Finalize() const;

 private:
  OpDef def_;
  std::vector<std::string> input_specs_, output_specs_, attr_specs_;
};

/// The process-wide table of op types. Thread safety: registration happens
/// during static initialisation or under the registry's lock; lookups are
/// safe from any thread.
///
/// An op's shape function may also be registered apart from its OpDef, at a
/// priority (registration.h): the OpDef's own counts as priority 0, and the
/// function of the highest priority is the OpDef's shape_fn, whichever of
/// the op and the function was registered first. That is how a program puts
/// a shape function of its own in place of the library's without
/// registering the op again.
class OpRegistry {
 public:
  static OpRegistry* Global();

  /// AlreadyExists when `def.name` is taken.
  Status Register(OpDef def);
  /// Makes `fn` the shape function of `op_type` while no function of a
  /// higher priority is registered. InvalidArgument for a priority of 0 or
  /// less (the OpDef's own); AlreadyExists when `priority` is taken. Thread
  /// safety: during static initialisation or while no graph is being built
  /// (a graph reads shape_fn without the lock).
  Status RegisterShapeFn(const std::string& op_type, ShapeFn fn, int priority);
  /// Removes the function registered at `priority`; NotFound when there is
  /// none. Thread safety: as RegisterShapeFn.
  Status UnregisterShapeFn(const std::string& op_type, int priority);
  /// NotFound with TensorFlow's wording when no op has this name:
  /// "Op type not registered 'Foo' in binary running on this machine."
  StatusOr<const OpDef*> LookUp(std::string_view op_type) const;
  /// Every registered op name, sorted.
  std::vector<std::string> ListOps() const;

 private:
  // Sets the OpDef's shape_fn to the best of `op_type`'s functions.
  void UpdateShapeFnLocked(const std::string& op_type);

  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<OpDef>, std::less<>> ops_;
  // Every op's shape functions by priority, the OpDef's own at 0; an entry
  // may come before its op is registered.
  std::map<std::string, Prioritized<ShapeFn>, std::less<>> shape_fns_;
};

namespace internal {
/// Registers at static-initialisation time; aborts on a malformed spec.
struct OpDefRegistration {
  OpDefRegistration(const OpDefBuilder& builder);  // NOLINT: implicit
};
}  // namespace internal

namespace internal {
/// Registers a shape function at static-initialisation time; aborts when
/// the priority is taken.
void RegisterShapeFnOrDie(const std::string& op_type, ShapeFn fn, int priority);
}  // namespace internal

/// MINITF_REGISTER_SHAPE_FN("MatMul", MyMatMulShape, 1): from a static
/// initialiser, MyMatMulShape in place of MatMul's registered function.
#define MINITF_REGISTER_SHAPE_FN(op_type, fn, priority)   \
  static const ::minitf::internal::StaticRegistration<    \
      &::minitf::internal::RegisterShapeFnOrDie>          \
  MINITF_REGISTRATION_NAME(minitf_shape_fn_registration_) \
      [[maybe_unused]] (op_type, fn, priority)

#define MINITF_REGISTER_OP(name) MINITF_REGISTER_OP_UNIQ(__COUNTER__, name)
#define MINITF_REGISTER_OP_UNIQ(ctr, name) MINITF_REGISTER_OP_UNIQ2(ctr, name)
#define MINITF_REGISTER_OP_UNIQ2(ctr, name)           \
  static const ::minitf::internal::OpDefRegistration  \
      minitf_op_registration_##ctr [[maybe_unused]] = \
          ::minitf::OpDefBuilder(name)

}  // namespace minitf
