#include "minitf/train/kernels/apply_recipe.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>

#include "minitf/train/var.h"

namespace minitf {
namespace {

// Holds the locks of several Vars, taken in address order and each once, so
// that two ops sharing variables (two optimizers on one slot-less variable,
// say) never wait on each other in a cycle.
class VarLocks {
 public:
  explicit VarLocks(const std::vector<std::shared_ptr<Var>>& vars) {
    std::vector<std::mutex*> mus;
    for (const auto& v : vars) mus.push_back(&v->mu());
    std::sort(mus.begin(), mus.end());
    mus.erase(std::unique(mus.begin(), mus.end()), mus.end());
    for (std::mutex* mu : mus) locks_.emplace_back(*mu);
  }

 private:
  std::vector<std::unique_lock<std::mutex>> locks_;
};

// TensorFlow's wording: "var and grad do not have the same shape[2] [3]".
Status SameShape(const TensorShape& var, const std::string& name,
                 const TensorShape& other) {
  if (var == other) return Status::OK();
  return errors::InvalidArgument("var and ", name,
                                 " do not have the same shape",
                                 var.DebugString(), " ", other.DebugString());
}

Status HostCopy(const Tensor& from, Tensor* to) {
  std::memcpy(to->raw_data(), from.raw_data(), from.TotalBytes());
  return Status::OK();
}

}  // namespace

ApplyRecipe::ApplyRecipe(const OpKernelConstruction& c,
                         std::vector<std::string> refs,
                         std::vector<std::pair<int, std::string>> scalars,
                         int grad, std::string grad_name)
    : ref_names_(std::move(refs)),
      scalars_(std::move(scalars)),
      grad_(grad),
      grad_name_(std::move(grad_name)) {
  for (int i = 0; i < static_cast<int>(ref_names_.size()); ++i) {
    StatusOr<VarLocation> loc = RefLocation(c, i);
    if (!loc.ok()) {
      bad_ref_ = loc.status();
      return;
    }
    locs_.push_back(std::move(loc).value());
  }
}

Status ApplyRecipe::Run(OpKernelContext* ctx, const Update& update,
                        const CopyValue& copy) const {
  if (!bad_ref_.ok()) return bad_ref_;
  const int n = static_cast<int>(locs_.size());
  std::vector<std::shared_ptr<Var>> vars;
  for (const VarLocation& loc : locs_) {
    TF_ASSIGN_OR_RETURN(std::shared_ptr<Var> var, FindVar(ctx, loc));
    vars.push_back(std::move(var));
  }
  VarLocks lock(vars);
  // The executor has checked the inputs, so this holds only if a value
  // were removed in between; say so rather than crash.
  for (int i = 0; i < n; ++i) {
    if (!vars[i]->is_initialized()) {
      return errors::FailedPrecondition(
          "Attempting to use uninitialized value ", locs_[i].name);
    }
  }
  const TensorShape& shape = vars[0]->tensor()->shape();
  for (int i = 1; i < n; ++i) {
    TF_RETURN_IF_ERROR(
        SameShape(shape, ref_names_[i], vars[i]->tensor()->shape()));
  }
  TF_RETURN_IF_ERROR(SameShape(shape, grad_name_, ctx->input(grad_).shape()));
  for (const auto& [index, name] : scalars_) {
    if (ctx->input(index).dims() != 0) {
      return errors::InvalidArgument(
          name, " is not a scalar: ", ctx->input(index).shape().DebugString());
    }
  }
  std::vector<Tensor*> values;
  for (int i = 0; i < n; ++i) {
    Tensor* t = vars[i]->tensor();
    // A reader holds the old value: write into a copy, so it never sees
    // the update (var.h). The copy is in the variable's memory, and may
    // find it full.
    if (!vars[i]->CanUpdateInPlace(ctx->input(i))) {
      TF_ASSIGN_OR_RETURN(Tensor fresh, Tensor::Allocate(t->dtype(), t->shape(),
                                                         t->allocator()));
      TF_RETURN_IF_ERROR(copy ? copy(*t, &fresh) : HostCopy(*t, &fresh));
      *t = std::move(fresh);
    }
    values.push_back(t);
  }
  TF_RETURN_IF_ERROR(update(values.data()));
  ctx->set_output(0, *values[0]);
  return Status::OK();
}

}  // namespace minitf
