// Exercise 04_softmax: tf.nn.softmax on the GPU, one block per row.
//
// softmax(x)_j = exp(x_j) / sum_j' exp(x_j') overflows for logits of about
// 89 and more (exp(89) is past the largest float), so it is computed as
// exp(x_j - max) / sum_j' exp(x_j' - max), which is the same number. On a
// GPU each row is one block's: its threads stride along the row, and the
// block takes two reductions in shared memory, the row's max and then the
// sum of exp(x - max), before each thread divides its elements.
//
//   // logits:[rows, cols] out:[rows, cols], device memory
//   cudaError_t e = softmax(rows, cols, logits, out);
#pragma once

#include "minitf/gpu/emulator/cuda.h"

namespace minitf::exercises {

/// Threads per block (per row): a power of two, for the reductions.
inline constexpr int kSoftmaxBlock = 128;

/// logits:[rows, cols] -> out:[rows, cols], row r = blockIdx.x:
///   out[r, j] = exp(logits[r, j] - m) / sum_j' exp(logits[r, j'] - m)
/// with m the row's largest logit, so that no exp overflows. Thread t takes
/// columns j = t, t + kSoftmaxBlock, ... below cols. A logit of -inf gets
/// probability 0.
/// REQUIRES: blockDim = (kSoftmaxBlock, 1, 1); gridDim.x = rows; cols >= 1.
__global__ void softmax_kernel(int cols, const float* logits, float* out);

/// logits:[rows, cols] -> out:[rows, cols] = softmax of each row, on
/// `stream`: softmax_kernel on one block per row. Launches nothing when rows
/// or cols is 0; returns cudaErrorInvalidValue for a negative size, else the
/// launch's error.
cudaError_t softmax(int rows, int cols, const float* logits, float* out,
                    cudaStream_t stream = 0);

}  // namespace minitf::exercises
