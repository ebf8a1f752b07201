// The public API of layer 1 (tensors), as included by <minitf/minitf.h>.
//
// Status and the typed errors, dtypes, shapes, the Tensor with its NumPy-style
// printing, the CPU kernels and their eager, exception-throwing front end.
//
//   #include <minitf/minitf.h>
//   namespace tf = minitf;
//   tf::Tensor x({{1.f, 2.f}, {3.f, 4.f}});
//   std::cout << tf::eager::reduce_sum(x, std::vector<int>{1});   // [3. 7.]
#pragma once

#include "minitf/tensor/allocator.h"
#include "minitf/tensor/dtype.h"
#include "minitf/tensor/eager.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/kernels/array_ops.h"
#include "minitf/tensor/kernels/broadcast.h"
#include "minitf/tensor/kernels/cwise_ops.h"
#include "minitf/tensor/kernels/intra_op.h"
#include "minitf/tensor/kernels/matmul.h"
#include "minitf/tensor/kernels/nn_ops.h"
#include "minitf/tensor/kernels/random_ops.h"
#include "minitf/tensor/kernels/reduction_ops.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"
#include "minitf/tensor/tensor_shape.h"
