// CPU kernels of the optimizers' update ops (ops/training_ops.h).
//
// Every kernel follows one recipe (apply_recipe.h): find the Vars of its
// variable inputs (var and its slots), lock them all, check that they hold
// values of one shape and that the gradient and hyperparameters have the
// shapes they must, make each buffer writable (copy-on-write, var.h), then
// run the update, here a few Eigen expressions on the flat values, a chunk
// at a time (see RunUpdate).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "minitf/graph/kernel.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/kernels/intra_op.h"
#include "minitf/train/kernels/apply_recipe.h"
#include "minitf/train/kernels/var_lookup.h"
#include "minitf/train/var.h"

namespace minitf {
namespace {

// The base of the CPU Apply kernels, in the CRTP style: Derived names its
// variable inputs (the first ones: "var", "accum" ...), its scalar inputs
// and its gradient input, which ApplyRecipe checks, and gives the math as
//   template <typename T> void Update(OpKernelContext*, Tensor** vars,
//                                     int64_t begin, int64_t count) const;
// which may write vars[0..] in place. Update sees `count` values from
// `begin` (Values below) and may run for several ranges at once.
template <typename Derived>
class ApplyKernel : public OpKernel {
 public:
  ApplyKernel(const OpKernelConstruction& c, std::vector<std::string> refs,
              std::vector<std::pair<int, std::string>> scalars, int grad,
              std::string grad_name)
      : OpKernel(c),
        recipe_(c, std::move(refs), std::move(scalars), grad,
                std::move(grad_name)) {}

  Status Compute(OpKernelContext* ctx) override {
    return recipe_.Run(ctx, [&](Tensor** values) -> Status {
      switch (values[0]->dtype()) {
        case DT_FLOAT:
          RunUpdate<float>(ctx, values);
          return Status::OK();
        case DT_DOUBLE:
          RunUpdate<double>(ctx, values);
          return Status::OK();
        default:
          return errors::InvalidArgument(
              type_string(), " does not support ",
              std::string(DataTypeString(values[0]->dtype())));
      }
    });
  }

 private:
  // Runs Derived's Update over the values in chunks of kChunk. Adam's update
  // is three statements over var, m, v and grad; run over a whole
  // [784,256] variable, each statement streams arrays of 800 KB through the
  // caches again, while over a chunk all of them stay in the L1 cache.
  // Chunks are also the unit of work for the threads of
  // kernels::SetNumThreads (or of the thread's intra-op pool, chapter 4),
  // each given kMinPerThread values or more, enough to pay for starting it;
  // every value's arithmetic is the same whatever the split.
  template <typename T>
  void RunUpdate(OpKernelContext* ctx, Tensor** values) const {
    constexpr int64_t kChunk = 2048;
    constexpr int64_t kMinPerThread = 65536;
    const Derived& self = static_cast<const Derived&>(*this);
    const int64_t n = values[0]->NumElements();
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    auto run_chunk = [&](int64_t c) {
      const int64_t begin = c * kChunk;
      self.template Update<T>(ctx, values, begin, std::min(kChunk, n - begin));
    };
    const int threads =
        kernels::ThreadsFor(static_cast<double>(n), kMinPerThread, chunks,
                            kernels::IntraOpThreads());
    if (threads < 2) {
      // No parallel region at all: even with one thread, entering one is a
      // call into the runtime, a visible cost next to a small variable.
      for (int64_t c = 0; c < chunks; ++c) run_chunk(c);
      return;
    }
    // Consecutive chunks per shard, one shard per thread, on the thread's
    // intra-op pool or the process's (kernels/intra_op.h).
    kernels::ParallelFor(threads, [&](int t) {
      for (int64_t c = chunks * t / threads; c < chunks * (t + 1) / threads;
           ++c) {
        run_chunk(c);
      }
    });
  }

  const ApplyRecipe recipe_;
};

// Values [begin, begin + count) of a tensor, as an Eigen array.
template <typename T>
auto Values(Tensor* t, int64_t begin, int64_t count) {
  return t->flat<T>().segment(begin, count);
}
template <typename T>
auto Values(const Tensor& t, int64_t begin, int64_t count) {
  return t.flat<T>().segment(begin, count);
}

// A scalar input's value.
template <typename T>
T Scalar(OpKernelContext* ctx, int i) {
  return ctx->input(i).scalar<T>();
}

// --8<-- [start:gradient_descent_kernel]
// inputs: var, alpha, delta.  var -= alpha * delta.
class ApplyGradientDescentOp : public ApplyKernel<ApplyGradientDescentOp> {
 public:
  explicit ApplyGradientDescentOp(const OpKernelConstruction& c)
      : ApplyKernel(c, {"var"}, {{1, "alpha"}}, 2, "delta") {}
  template <typename T>
  void Update(OpKernelContext* ctx, Tensor** vars, int64_t begin,
              int64_t count) const {
    auto var = Values<T>(vars[0], begin, count);
    var -= Values<T>(ctx->input(2), begin, count) * Scalar<T>(ctx, 1);
  }
};
// --8<-- [end:gradient_descent_kernel]

// --8<-- [start:momentum_kernel]
// inputs: var, accum, lr, grad, momentum.
class ApplyMomentumOp : public ApplyKernel<ApplyMomentumOp> {
 public:
  explicit ApplyMomentumOp(const OpKernelConstruction& c)
      : ApplyKernel(c, {"var", "accum"}, {{2, "lr"}, {4, "momentum"}}, 3,
                    "grad"),
        use_nesterov_(c.GetAttr<bool>("use_nesterov").value()) {}
  template <typename T>
  void Update(OpKernelContext* ctx, Tensor** vars, int64_t begin,
              int64_t count) const {
    auto var = Values<T>(vars[0], begin, count);
    auto accum = Values<T>(vars[1], begin, count);
    const auto grad = Values<T>(ctx->input(3), begin, count);
    const T lr = Scalar<T>(ctx, 2);
    const T momentum = Scalar<T>(ctx, 4);
    accum = accum * momentum + grad;
    if (use_nesterov_) {
      // Looks one step ahead: the gradient's own step plus momentum's.
      var -= grad * lr + accum * momentum * lr;
    } else {
      var -= accum * lr;
    }
  }

 private:
  const bool use_nesterov_;
};
// --8<-- [end:momentum_kernel]

// --8<-- [start:adam_kernel]
// inputs: var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
// grad.
class ApplyAdamOp : public ApplyKernel<ApplyAdamOp> {
 public:
  explicit ApplyAdamOp(const OpKernelConstruction& c)
      : ApplyKernel(c, {"var", "m", "v"},
                    {{3, "beta1_power"},
                     {4, "beta2_power"},
                     {5, "lr"},
                     {6, "beta1"},
                     {7, "beta2"},
                     {8, "epsilon"}},
                    9, "grad"),
        use_nesterov_(c.GetAttr<bool>("use_nesterov").value()) {}
  // The update runs on blocks of kBlock values of a fixed size, so that the
  // three statements below work on each block while it is in registers:
  // one pass over var, m, v and grad. A last, shorter block runs as a
  // dynamic segment; every value's arithmetic is the same either way.
  template <typename T>
  void Update(OpKernelContext* ctx, Tensor** vars, int64_t begin,
              int64_t count) const {
    constexpr int64_t kBlock = 64;
    const Hyper<T> h(ctx);
    // The four arrays' maps once per call, not once per block: each flat()
    // is a call that checks the tensor's dtype and buffer, and four of them
    // a block of 64 values show in a profile of the update.
    auto var = vars[0]->flat<T>();
    auto m = vars[1]->flat<T>();
    auto v = vars[2]->flat<T>();
    auto grad = ctx->input(9).flat<T>();
    int64_t i = 0;
    for (; i + kBlock <= count; i += kBlock) {
      const int64_t at = begin + i;
      Step(h, var.template segment<kBlock>(at), m.template segment<kBlock>(at),
           v.template segment<kBlock>(at), grad.template segment<kBlock>(at));
    }
    if (i < count) {
      const int64_t at = begin + i, rest = count - i;
      Step(h, var.segment(at, rest), m.segment(at, rest), v.segment(at, rest),
           grad.segment(at, rest));
    }
  }

 private:
  // The scalar inputs, and alpha: the bias correction of m and v (both
  // start at 0), folded into lr.
  template <typename T>
  struct Hyper {
    explicit Hyper(OpKernelContext* ctx)
        : lr(Scalar<T>(ctx, 5)),
          beta1(Scalar<T>(ctx, 6)),
          beta2(Scalar<T>(ctx, 7)),
          epsilon(Scalar<T>(ctx, 8)),
          alpha(lr * std::sqrt(T(1) - Scalar<T>(ctx, 4)) /
                (T(1) - Scalar<T>(ctx, 3))) {}
    const T lr, beta1, beta2, epsilon, alpha;
  };

  template <typename T, typename Block, typename GradBlock>
  void Step(const Hyper<T>& h, Block var, Block m, Block v,
            const GradBlock& grad) const {
    m += (grad - m) * (T(1) - h.beta1);
    v += (grad.square() - v) * (T(1) - h.beta2);
    if (use_nesterov_) {
      var -= ((grad * (T(1) - h.beta1) + m * h.beta1) * h.alpha) /
             (v.sqrt() + h.epsilon);
    } else {
      var -= (m * h.alpha) / (v.sqrt() + h.epsilon);
    }
  }

  const bool use_nesterov_;
};
// --8<-- [end:adam_kernel]

// --8<-- [start:rmsprop_kernel]
// inputs: var, ms, mom, lr, rho, momentum, epsilon, grad.
class ApplyRMSPropOp : public ApplyKernel<ApplyRMSPropOp> {
 public:
  explicit ApplyRMSPropOp(const OpKernelConstruction& c)
      : ApplyKernel(c, {"var", "ms", "mom"},
                    {{3, "lr"}, {4, "rho"}, {5, "momentum"}, {6, "epsilon"}}, 7,
                    "grad") {}
  template <typename T>
  void Update(OpKernelContext* ctx, Tensor** vars, int64_t begin,
              int64_t count) const {
    auto var = Values<T>(vars[0], begin, count);
    auto ms = Values<T>(vars[1], begin, count);
    auto mom = Values<T>(vars[2], begin, count);
    const auto grad = Values<T>(ctx->input(7), begin, count);
    const T lr = Scalar<T>(ctx, 3);
    const T rho = Scalar<T>(ctx, 4);
    const T momentum = Scalar<T>(ctx, 5);
    const T epsilon = Scalar<T>(ctx, 6);
    ms += (grad.square() - ms) * (T(1) - rho);
    // TensorFlow's ApplyRMSProp puts epsilon inside the square root.
    mom = mom * momentum + (grad * lr) / (ms + epsilon).sqrt();
    var -= mom;
  }
};
// --8<-- [end:rmsprop_kernel]

MINITF_REGISTER_KERNEL("ApplyGradientDescent", DEVICE_CPU,
                       ApplyGradientDescentOp);
MINITF_REGISTER_KERNEL("ApplyMomentum", DEVICE_CPU, ApplyMomentumOp);
MINITF_REGISTER_KERNEL("ApplyAdam", DEVICE_CPU, ApplyAdamOp);
MINITF_REGISTER_KERNEL("ApplyRMSProp", DEVICE_CPU, ApplyRMSPropOp);

}  // namespace
}  // namespace minitf
