// Exercise 1.3's piece of the engine: your StableSoftmax, registered as the
// CPU kernel of the graph op Softmax in place of the library's.
//
// A kernel is a class with a Compute method that reads the node's inputs and
// sets its outputs (chapter 2's OpKernel); this one hands its input to your
// function. The build links this file only into the seed program built on
// your code (seed_softmax_regression_with_03_stable_softmax, made by
// `python3 tools/learn.py run 1.3`): there every tf::nn::softmax on the CPU
// runs your function, the softmax regression of seed 002 included. The
// exercise's tests do not link it.
#include "minitf/graph/kernel.h"
#include "stable_softmax.h"

namespace minitf::exercises {
namespace {

// Softmax over the last axis of [batch,classes] logits.
class StableSoftmaxOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(Tensor out, StableSoftmax(ctx->input(0)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

MINITF_REGISTER_KERNEL_WITH_PRIORITY("Softmax", DEVICE_CPU, StableSoftmaxOp, 1);

}  // namespace
}  // namespace minitf::exercises
