// Var: the value a session holds for one variable.
//
// A graph only names a variable; its value lives in each session's
// ResourceMgr (resource_mgr.h), under the container and name of its
// VariableV2 node, so two sessions on one graph hold two values. The
// variable's kernels (VariableV2, Assign, AssignAdd ...) find it there by
// that name and update it under its lock:
//
//   auto var = rm->LookupOrCreate<tf::Var>("localhost", "weight", [] {
//     return std::make_shared<tf::Var>(tf::DT_FLOAT, tf::TensorShape({2}));
//   });
//   std::lock_guard<std::mutex> l((*var)->mu());
//   if ((*var)->is_initialized()) std::cout << *(*var)->tensor();
#pragma once

#include <mutex>
#include <string>

#include "minitf/graph/resource_mgr.h"
#include "minitf/tensor/tensor.h"
#include "minitf/tensor/tensor_shape.h"

namespace minitf {

/// One variable's value in one session.
///
/// Invariants: once initialized, tensor() holds a value of dtype(); its
/// shape is declared_shape() unless an Assign with validate_shape=false
/// changed it. An uninitialized Var holds no tensor.
///
/// Copy-on-write: the tensor may share its buffer with tensors handed to
/// readers (a fetched value, the output of a read). An update writes into the
/// buffer only when no reader holds it (see CanUpdateInPlace) and otherwise
/// makes a new buffer, so a value a reader holds never changes under it.
/// TensorFlow's updates write in place whoever holds the buffer, and its
/// fetch of a variable, which shares the buffer, shows the run's updates;
/// minitf gives a fetch of a variable the same value by reading it again
/// when the run ends (OpKernel::RereadRef), not by changing it under anyone.
///
/// Thread safety: mu() guards tensor(); every kernel locks it, whatever the
/// op's use_locking attr says, so concurrent updates never lose a write.
class Var : public ResourceBase {
 public:
  Var(DType dtype, TensorShape declared_shape)
      : dtype_(dtype), declared_shape_(std::move(declared_shape)) {}

  std::mutex& mu() { return mu_; }
  DType dtype() const { return dtype_; }
  /// The VariableV2 node's shape attr (may be partial).
  const TensorShape& declared_shape() const { return declared_shape_; }
  /// REQUIRES: mu() held.
  bool is_initialized() const { return tensor_.IsInitialized(); }
  /// REQUIRES: mu() held.
  Tensor* tensor() { return &tensor_; }

  /// Whether an update may write into tensor()'s buffer: no one else holds
  /// it, except `ref`, the value the updating op received from its variable
  /// (TensorFlow's ref edge, a counted reference here). REQUIRES: mu() held,
  /// is_initialized(). Exact under the lock: a reader gets its reference
  /// only from the VariableV2 kernel, under this lock, or by copying one
  /// already counted.
  bool CanUpdateInPlace(const Tensor& ref) const {
    // The count is read through a copy of the tensor: taking a reference is
    // an acquire-release step on the count, which orders this thread after
    // every reader that has let go of the buffer (a reader on another thread,
    // a _Send copying the value to another device). A plain read of the
    // count would not, and the update could overwrite bytes that reader
    // was still reading as far as the memory model is concerned.
    const Tensor probe = tensor_;
    const int64_t holders = probe.BufferRefCount() - 1;
    return holders == 1 || (holders == 2 && ref.SharesBufferWith(tensor_));
  }

  /// "float/[2]", as TensorFlow describes a variable.
  std::string DebugString() const override;

 private:
  std::mutex mu_;
  const DType dtype_;
  const TensorShape declared_shape_;
  Tensor tensor_;
};

}  // namespace minitf
