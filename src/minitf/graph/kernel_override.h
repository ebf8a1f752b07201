// Replacing a registered kernel, for the course's exercises.
//
// The kernel registry holds one factory per (op type, device type), and a
// second registration of a pair is refused. An exercise in which the learner
// writes a kernel (exercises/01-tensors/03_stable_softmax) needs the
// library's programs to run the learner's kernel instead, so that the seed
// program computes with it. This header is the only way to do that: an
// override sits beside the registry's entry for the pair and is what
// CreateKernel builds while it is there, whatever the order in which static
// initialisers run. It replaces a registered kernel only: the entry's dtype
// constraint still applies, and a device type that runs the pair through an
// alias (chapter 4's virtual GPUs run the CPU kernels) runs the override too.
//
//   // exercises/01-tensors/03_stable_softmax/register_piece.cc
//   MINITF_OVERRIDE_KERNEL_FOR_EXERCISE("Softmax", DEVICE_CPU, YourSoftmaxOp);
#pragma once

#include <memory>
#include <string>

#include "minitf/graph/kernel.h"

namespace minitf {

/// Makes `factory` build the kernels of `op_type` on `device_type` until
/// removed; a second override of the pair replaces the first. Thread
/// safety: as registration, during static initialisation or while no
/// kernel is being created.
void OverrideKernelForExercise(const std::string& op_type,
                               const std::string& device_type,
                               KernelFactory factory);

/// Removes the override of the pair, if any: the registered kernel is built
/// again.
void RemoveKernelOverrideForExercise(const std::string& op_type,
                                     const std::string& device_type);

namespace internal {
struct KernelOverrideRegistration {
  KernelOverrideRegistration(const std::string& op_type,
                             const std::string& device_type,
                             KernelFactory factory) {
    OverrideKernelForExercise(op_type, device_type, std::move(factory));
  }
};
}  // namespace internal

}  // namespace minitf

/// MINITF_OVERRIDE_KERNEL_FOR_EXERCISE("Softmax", DEVICE_CPU, K): from a
/// static initialiser, kernel class K (constructor
/// K(const OpKernelConstruction&)) in place of the registered one.
#define MINITF_OVERRIDE_KERNEL_FOR_EXERCISE(op_type, device_type, K) \
  MINITF_OVERRIDE_KERNEL_UNIQ(__COUNTER__, op_type, device_type, K)
#define MINITF_OVERRIDE_KERNEL_UNIQ(ctr, op_type, device_type, K) \
  MINITF_OVERRIDE_KERNEL_UNIQ2(ctr, op_type, device_type, K)
#define MINITF_OVERRIDE_KERNEL_UNIQ2(ctr, op_type, device_type, K)         \
  static const ::minitf::internal::KernelOverrideRegistration              \
      minitf_kernel_override_##ctr [[maybe_unused]] (                      \
          op_type, device_type,                                            \
          [](const ::minitf::OpKernelConstruction& c)                      \
              -> ::minitf::StatusOr<std::unique_ptr<::minitf::OpKernel>> { \
            return std::unique_ptr<::minitf::OpKernel>(new K(c));          \
          })
