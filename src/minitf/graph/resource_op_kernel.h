// ResourceOpKernel: the kernels of an op that makes a resource, and of the
// ops that take its handle.
//
// A queue or an accumulator is a resource (resource_mgr.h): it lives in its
// device's ResourceMgr under a container and a name, so every session and
// every task that runs ops on the device reaches the same one. The node that
// makes it says where, in two attrs: `container` ("" = the manager's
// default) and `shared_name` ("" = the node's own name). minitf has no
// resource dtype, so the handle that node outputs is a Ref(int32) holding 0,
// and the reference edge keeps every op that takes it on the resource's
// device. A kernel of such an op reads the resource's description from the
// handle's node once, when it is built, and looks the resource up, making
// it on first use, on each run.
//
// TensorFlow writes the making op's kernel once, as ResourceOpKernel<T>;
// this file does the same, and writes once what the ops that take the
// handle share: the description read from the handle's node, the lookup,
// and TensorFlow's check of an op's element type against the resource's.
// A resource kind describes itself in a Spec:
//
//   struct CounterSpec {
//     using Resource = Counter;                  // derives from ResourceBase
//     static constexpr const char* kOp = "Counter";   // the making op
//     static constexpr const char* kWhat = "counter"; // in error messages
//     ResourcePlace place;
//     DType dtype = DT_INVALID;
//     static StatusOr<CounterSpec> FromAttrs(const AttrMap&, ResourcePlace);
//     std::shared_ptr<Counter> Create() const;
//   };
//   MINITF_REGISTER_KERNEL("Counter", DEVICE_CPU,
//   ResourceOpKernel<CounterSpec>); class IncrementOp : public OpKernel,
//   ResourceHandleOp<CounterSpec> { ... };
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "minitf/graph/graph.h"
#include "minitf/graph/kernel.h"
#include "minitf/graph/resource_mgr.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

/// Where a resource lives, as the node that makes it says.
struct ResourcePlace {
  std::string container;  ///< "" = the ResourceMgr's default container.
  std::string name;       ///< shared_name, else the node's name.
};

/// The place `node` names through its `container` and `shared_name` attrs
/// (TensorFlow's rule: the node's name unless a shared_name is given).
/// Errors: GetAttr's, for a node without those attrs.
StatusOr<ResourcePlace> ResourcePlaceOf(const Node& node);

/// The resource of type T at `place` in the context's ResourceMgr, made by
/// `create` on first use: every session and step that names the place gets
/// the same one. Internal "No resource manager to hold <what> <name>" when
/// the context has no ResourceMgr.
template <typename T>
StatusOr<std::shared_ptr<T>> LookupOrCreateResource(
    OpKernelContext* ctx, const ResourcePlace& place, std::string_view what,
    const std::function<StatusOr<std::shared_ptr<T>>()>& create) {
  ResourceMgr* rm = ctx->resource_manager();
  if (rm == nullptr) {
    return errors::Internal("No resource manager to hold ", what, " ",
                            place.name);
  }
  return rm->LookupOrCreate<T>(
      place.container.empty() ? rm->default_container() : place.container,
      place.name, create);
}

/// TensorFlow's check of a kernel's signature, in its words: an op built
/// for elements of `op_dtype` against a resource of `resource_dtype`.
/// `inputs` is the op's other inputs ("int32_ref, int64"); the dtype comes
/// after them, or after "->" when `dtype_is_output`. InvalidArgument
/// "Signature mismatch, have: int32_ref, int64, double-> expected:
/// int32_ref, int64, float->" when the two differ.
Status CheckResourceSignature(DType resource_dtype, DType op_dtype,
                              const std::string& inputs, bool dtype_is_output);

/// The Spec of the resource that `node` makes; InvalidArgument "Input
/// 'handle' of '<node>' is not a <Spec::kOp>" when `node` is of another op,
/// as a handle input from a graph imported from a GraphDef may be.
template <typename Spec>
StatusOr<Spec> ResourceSpecOf(const Node& node) {
  if (node.type_string() != Spec::kOp) {
    return errors::InvalidArgument("Input 'handle' of '", node.name(),
                                   "' is not a ", Spec::kOp);
  }
  TF_ASSIGN_OR_RETURN(ResourcePlace place, ResourcePlaceOf(node));
  return Spec::FromAttrs(node.attrs(), std::move(place));
}

/// The resource `spec` describes, made by spec.Create() on first use.
template <typename Spec>
StatusOr<std::shared_ptr<typename Spec::Resource>> FindResource(
    OpKernelContext* ctx, const Spec& spec) {
  using Resource = typename Spec::Resource;
  return LookupOrCreateResource<Resource>(
      ctx, spec.place, Spec::kWhat,
      [&]() -> StatusOr<std::shared_ptr<Resource>> { return spec.Create(); });
}

/// TensorFlow's ResourceOpKernel: the kernel of the op that makes the
/// resource (FIFOQueueV2, ConditionalAccumulator). Each run finds the
/// resource, making it the first time, checks one found again against the
/// node's attrs (VerifyResource), and outputs the handle, an int32 0.
///
/// Thread safety: Compute may run on many threads at once; the resource
/// guards its own state.
template <typename Spec>
class ResourceOpKernel : public OpKernel {
 public:
  using Resource = typename Spec::Resource;

  explicit ResourceOpKernel(const OpKernelConstruction& c)
      : OpKernel(c), spec_(ResourceSpecOf<Spec>(c.node())) {}

  Status Compute(OpKernelContext* ctx) override {
    if (!spec_.ok()) return spec_.status();
    TF_ASSIGN_OR_RETURN(std::shared_ptr<Resource> resource,
                        FindResource(ctx, *spec_));
    TF_RETURN_IF_ERROR(VerifyResource(*spec_, *resource));
    ctx->set_output(0, Tensor(int32_t{0}));
    return Status::OK();
  }

 protected:
  /// A resource that another node with the same place made first must agree
  /// with this node's spec; the default accepts it.
  virtual Status VerifyResource(const Spec& /*spec*/,
                                const Resource& /*resource*/) const {
    return Status::OK();
  }

 private:
  const StatusOr<Spec> spec_;
};

/// The base of the kernels of the ops that take the handle as input 0 (a
/// queue's enqueue, an accumulator's apply_grad). It reads the Spec from the
/// handle's node once, when the kernel is built; a bad handle is kept, and
/// every method below returns its error when the kernel runs.
///
/// Derive from it beside OpKernel or AsyncOpKernel (it is no kernel itself).
template <typename Spec>
class ResourceHandleOp {
 protected:
  using Resource = typename Spec::Resource;

  explicit ResourceHandleOp(const OpKernelConstruction& c)
      : spec_(ResourceSpecOf<Spec>(*c.node().input(0).node())) {}

  /// OK, or the error of a bad handle.
  Status HandleStatus() const { return spec_.status(); }
  /// The resource the handle names, made on first use.
  StatusOr<std::shared_ptr<Resource>> GetResource(OpKernelContext* ctx) const {
    if (!spec_.ok()) return spec_.status();
    return FindResource(ctx, *spec_);
  }
  /// CheckResourceSignature of this op's element type against the
  /// resource's dtype; the handle's error first.
  Status CheckSignature(DType op_dtype, const std::string& inputs,
                        bool dtype_is_output) const {
    if (!spec_.ok()) return spec_.status();
    return CheckResourceSignature(spec_->dtype, op_dtype, inputs,
                                  dtype_is_output);
  }

 private:
  const StatusOr<Spec> spec_;
};

}  // namespace minitf
