// Exercise 3.1's piece of the engine: your MatMulGrad, registered as the
// gradient of MatMul in place of the library's.
//
// The build links this file only into the seed program built on your code
// (seed_softmax_regression_with_01_matmul_grad, made by
// `python3 tools/learn.py run 3.1`): there every tf::gradients, and so every
// optimizer's minimize, differentiates a MatMul with your function. The
// exercise's tests do not link it, so that they can compare your function
// with the library's.
#include "matmul_grad.h"
#include "minitf/train/gradients/gradients.h"

MINITF_REGISTER_GRADIENT_WITH_PRIORITY("MatMul", minitf::exercises::MatMulGrad,
                                       1);
