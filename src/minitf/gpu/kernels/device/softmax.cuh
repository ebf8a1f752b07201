// Softmax, log-softmax and the softmax cross-entropy losses on the GPU, each
// one kernel, numerically stable as chapter 1's: every exponent is shifted
// by the row's maximum m, so exp() never overflows, and the sum of the
// shifted exponentials is at least exp(0) = 1, so its log is finite.
//   softmax:      exp(x - m) / sum(exp(x - m))
//   log-softmax:  (x - m) - log(sum(exp(x - m)))
//   cross-entropy, per row, with log_p the log-softmax:
//     loss = -sum(labels * log_p);  backprop = exp(log_p) * sum(labels) -
//     labels
//
// Threads to elements: a block per row of logits:[rows, classes], of as many
// threads as the row has classes, in whole warps (BlockReduce's unit) and at
// most kBlock = 256: the seed's 10 classes get one warp, not eight of which
// seven would idle at every barrier. The grid loops over the rows when there
// are more than kMaxBlocks. Within a row, thread t of n takes classes t,
// t + n, ...
// (coalesced), and the block agrees on the row's maximum and sums with
// BlockReduce (common.cuh). The fused cross-entropy kernel computes the
// loss and its gradient in the same pass over the row, where TensorFlow's
// graph would otherwise run softmax, log, multiply and sum as four kernels,
// each reading the whole batch from memory.
//
//   LaunchSoftmax<float>(/*log=*/false, logits, out, rows, classes, stream);
//   LaunchXent<float>(logits, labels, loss, backprop, rows, classes, stream);
#pragma once

#include <cstdint>

#include "minitf/gpu/kernels/device/common.cuh"
#include "minitf/gpu/kernels/device/elementwise.cuh"  // AddF, MaximumF

namespace minitf::gpu::MINITF_GPU_BACKEND {

/// The row's maximum m and log(sum(exp(x - m))), agreed by the whole block.
/// REQUIRES: every thread of the block calls it (it has barriers).
template <class T>
__device__ void RowLogSumExp(const T* x, int64_t classes, T* max, T* log_sum) {
  T m = -Infinity<T>();
  for (int64_t c = threadIdx.x; c < classes; c += blockDim.x)
    m = MaxNan(m, x[c]);
  m = BlockReduce(m, -Infinity<T>(), MaximumF());
  T sum = 0;
  for (int64_t c = threadIdx.x; c < classes; c += blockDim.x)
    sum += Exp(x[c] - m);
  sum = BlockReduce(sum, T(0), AddF());
  *max = m;
  *log_sum = Log(sum);
}

// --8<-- [start:softmax_kernel]
template <class T, bool kLog>
__global__ void SoftmaxKernel(const T* logits, T* out, int64_t rows,
                              int64_t classes) {
  // Rows, not threads, are strided: the block stays together for the
  // barriers in RowLogSumExp.
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const T* x = logits + row * classes;
    T* y = out + row * classes;
    T m, log_sum;
    RowLogSumExp(x, classes, &m, &log_sum);
    for (int64_t c = threadIdx.x; c < classes; c += blockDim.x)
      y[c] = kLog ? (x[c] - m) - log_sum : Exp((x[c] - m) - log_sum);
  }
}
// --8<-- [end:softmax_kernel]

// --8<-- [start:xent_kernel]
/// logits, labels:[rows, classes] -> loss:[rows], backprop:[rows, classes].
template <class T>
__global__ void XentKernel(const T* logits, const T* labels, T* loss,
                           T* backprop, int64_t rows, int64_t classes) {
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const T* x = logits + row * classes;
    const T* p = labels + row * classes;
    T* g = backprop + row * classes;
    T m, log_sum;
    RowLogSumExp(x, classes, &m, &log_sum);
    T row_loss = 0;
    T label_sum = 0;
    for (int64_t c = threadIdx.x; c < classes; c += blockDim.x) {
      row_loss += p[c] * ((x[c] - m) - log_sum);
      label_sum += p[c];
    }
    row_loss = BlockReduce(row_loss, T(0), AddF());
    label_sum = BlockReduce(label_sum, T(0), AddF());
    for (int64_t c = threadIdx.x; c < classes; c += blockDim.x)
      g[c] = Exp((x[c] - m) - log_sum) * label_sum - p[c];
    if (threadIdx.x == 0) loss[row] = -row_loss;
  }
}
// --8<-- [end:xent_kernel]

/// labels:[rows] class indices. One label per row: loss = log_sum - (x[label]
/// - m), backprop = softmax - one_hot(label). A label outside [0, classes)
/// makes the row's loss and backprop NaN, as TensorFlow's GPU kernel does:
/// the CPU kernel checks every label before it starts and returns an error,
/// but the GPU's labels are in device memory, and reading them on the host
/// first would stall the stream.
template <class T, class Label>
__global__ void SparseXentKernel(const T* logits, const Label* labels, T* loss,
                                 T* backprop, int64_t rows, int64_t classes) {
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const T* x = logits + row * classes;
    T* g = backprop + row * classes;
    const int64_t label = static_cast<int64_t>(labels[row]);
    const bool valid = label >= 0 && label < classes;
    T m, log_sum;
    RowLogSumExp(x, classes, &m, &log_sum);
    for (int64_t c = threadIdx.x; c < classes; c += blockDim.x) {
      g[c] = valid ? Exp((x[c] - m) - log_sum) - (c == label ? T(1) : T(0))
                   : QuietNan<T>();
    }
    if (threadIdx.x == 0)
      loss[row] = valid ? log_sum - (x[label] - m) : QuietNan<T>();
  }
}

inline unsigned RowBlocks(int64_t rows) {
  return static_cast<unsigned>(rows < kMaxBlocks ? rows : kMaxBlocks);
}

/// The threads of a row's block: `classes` rounded up to whole warps, from
/// one warp to kBlock.
inline unsigned RowThreads(int64_t classes) {
  const int64_t warps = (classes + 31) / 32;
  return static_cast<unsigned>(warps < 1             ? 32
                               : warps * 32 > kBlock ? kBlock
                                                     : warps * 32);
}

/// REQUIRES: rows * classes >= 1.
template <class T>
cudaError_t LaunchSoftmax(bool log, const T* logits, T* out, int64_t rows,
                          int64_t classes, cudaStream_t stream) {
  if (log) {
    MINITF_LAUNCH(MINITF_KERNEL_NAME(SoftmaxKernel<T, true>), RowBlocks(rows),
                  RowThreads(classes), 0, stream, logits, out, rows, classes);
  } else {
    MINITF_LAUNCH(MINITF_KERNEL_NAME(SoftmaxKernel<T, false>), RowBlocks(rows),
                  RowThreads(classes), 0, stream, logits, out, rows, classes);
  }
  return LaunchError();
}

/// REQUIRES: rows >= 1.
template <class T>
cudaError_t LaunchXent(const T* logits, const T* labels, T* loss, T* backprop,
                       int64_t rows, int64_t classes, cudaStream_t stream) {
  MINITF_LAUNCH(MINITF_KERNEL_NAME(XentKernel<T>), RowBlocks(rows),
                RowThreads(classes), 0, stream, logits, labels, loss, backprop,
                rows, classes);
  return LaunchError();
}

/// REQUIRES: rows >= 1.
template <class T, class Label>
cudaError_t LaunchSparseXent(const T* logits, const Label* labels, T* loss,
                             T* backprop, int64_t rows, int64_t classes,
                             cudaStream_t stream) {
  MINITF_LAUNCH(MINITF_KERNEL_NAME(SparseXentKernel<T, Label>), RowBlocks(rows),
                RowThreads(classes), 0, stream, logits, labels, loss, backprop,
                rows, classes);
  return LaunchError();
}

}  // namespace minitf::gpu::MINITF_GPU_BACKEND
