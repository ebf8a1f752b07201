// OpKernel and the kernel registry: the code that runs a node.
//
// An OpDef (op_def.h) says what an op is; an OpKernel is how one node of that
// op computes on one type of device. Kernels are registered per (op type,
// device type), so chapter 4 adds kernels for "GPU" devices, and chapter 5
// real CUDA ones, without touching this layer. A session creates one kernel
// object per node when it first plans a run (reading the node's attrs once,
// in the constructor) and calls Compute on every run, so Compute should do
// the work and nothing else. The math itself is layer 1's: most kernels here
// are a few lines that call a kernels:: function.
//
//   class MatMulOp : public OpKernel {
//    public:
//     explicit MatMulOp(const OpKernelConstruction& c) : OpKernel(c) {
//       transpose_a_ = c.GetAttr<bool>("transpose_a").value(); ... }
//     Status Compute(OpKernelContext* ctx) override {
//       TF_ASSIGN_OR_RETURN(Tensor out, kernels::MatMul(ctx->input(0), ...));
//       ctx->set_output(0, std::move(out));
//       return Status::OK();
//     }
//   };
//   MINITF_REGISTER_KERNEL("MatMul", DEVICE_CPU, MatMulOp);
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/graph/registration.h"
#include "minitf/tensor/allocator.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

inline constexpr const char* DEVICE_CPU = "CPU";
inline constexpr const char* DEVICE_GPU = "GPU";

class ResourceMgr;

/// What a kernel's constructor may read: the node it will run.
class OpKernelConstruction {
 public:
  OpKernelConstruction(const Node* node, std::string device_type)
      : node_(node), device_type_(std::move(device_type)) {}
  const Node& node() const { return *node_; }
  const std::string& device_type() const { return device_type_; }
  template <typename T>
  StatusOr<T> GetAttr(std::string_view name) const {
    return minitf::GetAttr<T>(node_->attrs(), name);
  }

 private:
  const Node* node_;
  std::string device_type_;
};

/// Per-step state that a later layer hangs on the context (chapter 4's
/// rendezvous for Send/Recv, for instance). Kernels that need it cast.
class StepExtension {
 public:
  virtual ~StepExtension() = default;
};

/// The device's side of a kernel's run, which a later layer defines: chapter
/// 4's DeviceContext (how tensors cross into the device's memory) derives
/// from it, and chapter 5's GPU kernels find their device's stream there.
/// Kernels that need it cast, as they do with StepExtension.
class OpDeviceContext {
 public:
  virtual ~OpDeviceContext() = default;
};

/// Everything one Compute call sees. Created by the executor for each node
/// it runs; not kept between runs.
class OpKernelContext {
 public:
  struct Params {
    /// Input tensors, one per node input, owned by the executor.
    const Tensor* const* inputs = nullptr;
    int num_inputs = 0;
    /// Where the kernel writes its outputs, one slot per node output.
    Tensor* outputs = nullptr;
    int num_outputs = 0;
    /// Memory for outputs; the CPU's in this layer, a device's in chapter 4.
    /// Kernels that make their outputs with Tensor(dtype, shape) or layer 1's
    /// functions get the same memory through the default allocator, which
    /// chapter 4's executor sets around Compute (allocator.h).
    Allocator* allocator = nullptr;
    /// The session's named resources (variables live here from chapter 3).
    ResourceMgr* resource_manager = nullptr;
    /// Increases by one with every Session::run.
    int64_t step_id = 0;
    StepExtension* step_extension = nullptr;
    /// The context of the device the kernel runs on; nullptr for a device
    /// on host memory (a CPU), whose kernels need none.
    OpDeviceContext* op_device_context = nullptr;
  };

  explicit OpKernelContext(const Params& params) : p_(params) {}

  int num_inputs() const { return p_.num_inputs; }
  /// REQUIRES: 0 <= i < num_inputs().
  const Tensor& input(int i) const { return *p_.inputs[i]; }
  int num_outputs() const { return p_.num_outputs; }
  /// REQUIRES: the tensor's dtype is the node's output type i.
  void set_output(int i, Tensor value) { p_.outputs[i] = std::move(value); }
  Allocator* allocator() const { return p_.allocator; }
  ResourceMgr* resource_manager() const { return p_.resource_manager; }
  int64_t step_id() const { return p_.step_id; }
  StepExtension* step_extension() const { return p_.step_extension; }
  OpDeviceContext* op_device_context() const { return p_.op_device_context; }

 private:
  const Params& p_;
};

/// The base of every kernel. Thread safety: Compute may be called from
/// several threads at once when a session is run concurrently, so a kernel
/// keeps no per-run state in members (stateful ops guard theirs).
class OpKernel {
 public:
  explicit OpKernel(const OpKernelConstruction& c)
      : name_(c.node().name()), type_(c.node().type_string()) {}
  virtual ~OpKernel() = default;
  OpKernel(const OpKernel&) = delete;
  OpKernel& operator=(const OpKernel&) = delete;

  /// Reads inputs, sets every output. An error names what was wrong; the
  /// executor adds the node's name.
  virtual Status Compute(OpKernelContext* ctx) = 0;

  /// For an op whose output is a reference (Ref(T) in its OpDef: a
  /// variable's VariableV2): sets that output again from what it refers to,
  /// as it stands now. A session calls it for a fetched reference once the
  /// run's steps are done, so the fetch shows the referenced value as the
  /// run leaves it, updates of the same run included: TensorFlow's fetch of a
  /// reference shares the variable's buffer, which the run's updates write
  /// in place. Reads no inputs. The default sets nothing, and the fetch
  /// keeps the value the op output when it ran.
  virtual Status RereadRef(OpKernelContext* /*ctx*/) { return Status::OK(); }

  const std::string& name() const { return name_; }
  const std::string& type_string() const { return type_; }

 private:
  std::string name_;
  std::string type_;
};

/// Makes a kernel for one node; an error when the node's attrs are unusable.
using KernelFactory = std::function<StatusOr<std::unique_ptr<OpKernel>>(
    const OpKernelConstruction&)>;

/// Kernels by (op type, device type). Thread safety: as OpRegistry.
///
/// Besides kernels, the registry holds aliases: "op X on device type D runs
/// the kernel registered for X on device type K". That is how a later layer
/// gives a new device type the kernels of an existing one without copying
/// their registrations: chapter 4's virtual GPUs (type "GPU") run the CPU
/// kernels, for exactly the ops and dtypes TensorFlow has GPU kernels for.
/// An alias is resolved when a kernel is looked up, so it does not matter
/// whether the alias or the kernel it names was registered first; a kernel
/// registered directly for (X, D) takes precedence over an alias.
///
/// A pair may hold several kernels at different priorities
/// (registration.h), as TensorFlow's KernelDefBuilder::Priority allows: a
/// node runs the highest-priority kernel whose dtype constraint admits it.
/// The library registers at priority 0; a program that links a kernel of
/// its own at priority 1 runs it in place of the library's, and so does a
/// device type that reaches the pair through an alias.
class KernelRegistry {
 public:
  static KernelRegistry* Global();

  /// Nodes of `op_type` placed on `device_type` run kernels from `factory`,
  /// as long as their attr "T" (when they have one) is in `types`; an empty
  /// `types` allows every dtype (TensorFlow's TypeConstraint). AlreadyExists
  /// when the pair already has a kernel at `priority`.
  Status Register(std::string op_type, std::string device_type,
                  KernelFactory factory, std::vector<DType> types = {},
                  int priority = 0);
  /// Removes the kernel of the pair at `priority`; NotFound when there is
  /// none. Thread safety: while no kernel of the pair is being created.
  Status Unregister(const std::string& op_type, const std::string& device_type,
                    int priority);
  /// Nodes of `op_type` placed on `device_type` run the kernel registered for
  /// (`op_type`, `kernel_device_type`), as long as their attr "T" (when they
  /// have one) is in `types`; an empty `types` allows every dtype.
  /// AlreadyExists when the pair already has an alias; InvalidArgument when
  /// the alias would name its own device type.
  Status RegisterAlias(std::string op_type, std::string device_type,
                       std::string kernel_device_type,
                       std::vector<DType> types = {});
  /// True when some kernel, direct or through an alias whose target exists,
  /// runs `op_type` on `device_type`, for some dtype.
  bool HasKernel(std::string_view op_type, std::string_view device_type) const;
  /// As HasKernel, for this node's dtype: false when a dtype constraint
  /// (the kernel's or its alias's) excludes the node's attr "T".
  bool HasKernelForNode(const Node& node, std::string_view device_type) const;
  /// NotFound in TensorFlow's words when there is no kernel:
  /// "No registered 'Foo' OpKernel for CPU devices compatible with node ...",
  /// followed by " (OpKernel was found, but attributes didn't match)
  /// Requested Attributes: T=DT_INT32" when only the dtype excluded it.
  StatusOr<std::unique_ptr<OpKernel>> CreateKernel(
      const Node& node, const std::string& device_type) const;
  /// True when `node` runs on `device_type` through an alias, with another
  /// device type's kernel: a later layer's device whose memory that kernel
  /// cannot read (a real GPU's) refuses it.
  bool IsAliased(const Node& node, std::string_view device_type) const;
  /// The device types with a kernel for `op_type`, direct or through an
  /// alias, e.g. {"CPU", "GPU"}; sorted, without repeats.
  std::vector<std::string> DeviceTypesFor(std::string_view op_type) const;

 private:
  struct Entry {
    KernelFactory factory;
    std::vector<DType> types;  // empty: every dtype
  };
  struct Alias {
    std::string kernel_device_type;
    std::vector<DType> types;  // empty: every dtype
  };
  // What runs `op_type` on `device_type`: the factory, or nullptr. With a
  // node, the dtype constraints apply, and `*attr_mismatch` says whether it
  // was a constraint that left nothing.
  const KernelFactory* FindLocked(std::string_view op_type,
                                  std::string_view device_type,
                                  const Node* node, bool* attr_mismatch) const;
  static const KernelFactory* Allowed(const Prioritized<Entry>& entries,
                                      const Node* node, bool* attr_mismatch);

  mutable std::mutex mu_;
  std::map<std::pair<std::string, std::string>, Prioritized<Entry>> factories_;
  std::map<std::pair<std::string, std::string>, Alias> aliases_;
};

namespace internal {
struct KernelRegistration {
  KernelRegistration(std::string op_type, std::string device_type,
                     KernelFactory factory, std::vector<DType> types = {},
                     int priority = 0);
};
struct KernelAliasRegistration {
  KernelAliasRegistration(std::string op_type, std::string device_type,
                          std::string kernel_device_type,
                          std::vector<DType> types = {});
};
}  // namespace internal

/// Registers kernel class K (constructor K(const OpKernelConstruction&)) for
/// op `op_type` on `device_type`, at static-initialisation time.
#define MINITF_REGISTER_KERNEL(op_type, device_type, K) \
  MINITF_REGISTER_KERNEL_UNIQ(__COUNTER__, op_type, device_type, K)
#define MINITF_REGISTER_KERNEL_UNIQ(ctr, op_type, device_type, K) \
  MINITF_REGISTER_KERNEL_UNIQ2(ctr, op_type, device_type, K)
#define MINITF_REGISTER_KERNEL_UNIQ2(ctr, op_type, device_type, K)         \
  static const ::minitf::internal::KernelRegistration                      \
      minitf_kernel_registration_##ctr [[maybe_unused]] (                  \
          op_type, device_type,                                            \
          [](const ::minitf::OpKernelConstruction& c)                      \
              -> ::minitf::StatusOr<std::unique_ptr<::minitf::OpKernel>> { \
            return std::unique_ptr<::minitf::OpKernel>(new K(c));          \
          })

/// As MINITF_REGISTER_KERNEL, at `priority` (an int, above the library's 0
/// to run in its place), optionally for the dtypes listed after it:
///   MINITF_REGISTER_KERNEL_WITH_PRIORITY("Softmax", DEVICE_CPU, MySoftmax, 1);
#define MINITF_REGISTER_KERNEL_WITH_PRIORITY(op_type, device_type, K,      \
                                             priority, ...)                \
  static const ::minitf::internal::KernelRegistration                      \
  MINITF_REGISTRATION_NAME(minitf_kernel_registration_at_priority_)        \
      [[maybe_unused]] (                                                   \
          op_type, device_type,                                            \
          [](const ::minitf::OpKernelConstruction& c)                      \
              -> ::minitf::StatusOr<std::unique_ptr<::minitf::OpKernel>> { \
            return std::unique_ptr<::minitf::OpKernel>(new K(c));          \
          },                                                               \
          std::vector<::minitf::DType>{__VA_ARGS__}, priority)

/// Lets `op_type` on `device_type` run the kernel of `kernel_device_type`,
/// at static-initialisation time; an optional braced list of dtypes limits
/// it to nodes whose attr "T" is one of them (see RegisterAlias).
#define MINITF_REGISTER_KERNEL_ALIAS(op_type, device_type, ...)        \
  MINITF_REGISTER_KERNEL_ALIAS_UNIQ(__COUNTER__, op_type, device_type, \
                                    __VA_ARGS__)
#define MINITF_REGISTER_KERNEL_ALIAS_UNIQ(ctr, op_type, device_type, ...) \
  MINITF_REGISTER_KERNEL_ALIAS_UNIQ2(ctr, op_type, device_type, __VA_ARGS__)
#define MINITF_REGISTER_KERNEL_ALIAS_UNIQ2(ctr, op_type, device_type, ...) \
  static const ::minitf::internal::KernelAliasRegistration                 \
      minitf_kernel_alias_##ctr                                            \
      [[maybe_unused]] (op_type, device_type, __VA_ARGS__)

}  // namespace minitf
