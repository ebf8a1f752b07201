// The GPU kernels compiled by nvcc for a real GPU: backend_impl.cuh in
// namespace minitf::gpu::cuda, and MatMul by cuBLAS.
//
// cuBLAS is column-major, the engine row-major. A row-major [r,c] matrix is
// the column-major [c,r] matrix, its transpose, in the same memory; so the
// row-major c = op(a) op(b) is the column-major c^T = op(b)^T op(a)^T, which
// is one cublasSgemm (or Dgemm) with the operands swapped and the same
// transpose flags. A cuBLAS handle belongs to one stream at a time, so there
// is one per stream, made the first time the stream runs a MatMul.
#include <cublas_v2.h>

#include <cstdint>
#include <map>
#include <mutex>

#include "minitf/gpu/kernels/backend.h"
#include "minitf/gpu/kernels/backend_impl.cuh"

namespace minitf::gpu {
namespace cuda {
namespace {

Status CublasStatus(const char* call, cublasStatus_t s) {
  if (s == CUBLAS_STATUS_SUCCESS) return Status::OK();
  return errors::Internal(call, " failed: ", cublasGetStatusName(s), ": ",
                          cublasGetStatusString(s));
}

class CudaKernels final : public BackendKernels {
 public:
  Status MatMul(GpuStream stream, DType dtype, const void* a, const void* b,
                void* c, int64_t m, int64_t n, int64_t k, bool transpose_a,
                bool transpose_b, void* /*scratch*/) const override {
    if (!IsReal(dtype)) return NoKernel("MatMul", dtype);
    // cuBLAS's classic interface takes int sizes.
    if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX) {
      return errors::Unimplemented("MatMul on the GPU: a side over 2^31 - 1: ",
                                   "m=", m, " n=", n, " k=", k);
    }
    cublasHandle_t handle = nullptr;
    TF_RETURN_IF_ERROR(HandleFor(stream, &handle));
    const int mi = static_cast<int>(m), ni = static_cast<int>(n),
              ki = static_cast<int>(k);
    // Leading dimensions: the row lengths of the row-major buffers, at
    // least 1 as cuBLAS requires even of an empty matrix.
    auto at_least_1 = [](int64_t v) { return static_cast<int>(v > 0 ? v : 1); };
    const int lda = at_least_1(transpose_a ? m : k);
    const int ldb = at_least_1(transpose_b ? k : n);
    const cublasOperation_t op_a = transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t op_b = transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N;
    if (dtype == DT_FLOAT) {
      const float one = 1.f, zero = 0.f;
      return CublasStatus("cublasSgemm",
                          cublasSgemm(handle, op_b, op_a, ni, mi, ki, &one,
                                      static_cast<const float*>(b), ldb,
                                      static_cast<const float*>(a), lda, &zero,
                                      static_cast<float*>(c), ni));
    }
    const double one = 1., zero = 0.;
    return CublasStatus("cublasDgemm",
                        cublasDgemm(handle, op_b, op_a, ni, mi, ki, &one,
                                    static_cast<const double*>(b), ldb,
                                    static_cast<const double*>(a), lda, &zero,
                                    static_cast<double*>(c), ni));
  }

  size_t MatMulScratchBytes(DType, int64_t, int64_t, int64_t, bool,
                            bool) const override {
    return 0;  // cuBLAS reads transposed operands as they are
  }

 private:
  // The stream's cuBLAS handle, made on first use and kept by the stream's
  // address (a stream made later at the same address is given the same
  // handle, set to the same stream value). Without a device,
  // cublasCreate fails and so does this, with cuBLAS's reason.
  Status HandleFor(GpuStream stream, cublasHandle_t* handle) const {
    std::lock_guard lock(mu_);
    auto it = handles_.find(stream);
    if (it == handles_.end()) {
      cublasHandle_t h = nullptr;
      TF_RETURN_IF_ERROR(CublasStatus("cublasCreate", cublasCreate(&h)));
      if (const Status s = CublasStatus("cublasSetStream",
                                        cublasSetStream(h, ToStream(stream)));
          !s.ok()) {
        cublasDestroy(h);
        return s;
      }
      it = handles_.emplace(stream, h).first;
    }
    *handle = it->second;
    return Status::OK();
  }

  mutable std::mutex mu_;
  mutable std::map<GpuStream, cublasHandle_t> handles_;  // guarded by mu_
};

}  // namespace
}  // namespace cuda

const GpuKernels* CudaGpuKernels() {
  // Never destroyed, nor are its cuBLAS handles: at exit the CUDA runtime
  // may already be torn down, and destroying a handle then can fail.
  static const cuda::CudaKernels* const kernels = new cuda::CudaKernels();
  return kernels;
}

}  // namespace minitf::gpu
