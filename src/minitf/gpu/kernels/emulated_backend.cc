// The GPU kernels compiled by the host compiler and run by the CPU emulator
// of CUDA: backend_impl.cuh in namespace minitf::gpu::emulated, and
// MatMul by the course's teaching GEMMs (device/matmul.cuh) where a GPU build
// calls cuBLAS.
#include <cstdint>

#include "minitf/gpu/kernels/backend.h"
#include "minitf/gpu/kernels/backend_impl.cuh"
#include "minitf/gpu/kernels/device/matmul.cuh"

namespace minitf::gpu {
namespace emulated {
namespace {

class EmulatedKernels final : public BackendKernels {
 public:
  Status MatMul(GpuStream stream, DType dtype, const void* a, const void* b,
                void* c, int64_t m, int64_t n, int64_t k, bool transpose_a,
                bool transpose_b, void* scratch) const override {
    if (!IsReal(dtype)) return NoKernel("MatMul", dtype);
    // The GEMMs index with int, and the grids have at most 65535 blocks
    // along y: the transposes' 32-row tiles and the tiled GEMM's 16 rows.
    constexpr int64_t kMaxElements = INT32_MAX;
    if (m * k > kMaxElements || k * n > kMaxElements || m * n > kMaxElements ||
        m > 65535 * 16 || k > 65535 * 16 || n > 65535 * 16) {
      return errors::Unimplemented(
          "MatMul on the emulated GPU takes matrices of fewer than 2^31 "
          "elements, each side at most 1048560: got m=",
          m, " n=", n, " k=", k);
    }
    return RealSwitch(dtype, [&]<typename T>() {
      return LaunchStatus(
          "MatMul", LaunchTeachingMatMul<T>(
                        static_cast<const T*>(a), static_cast<const T*>(b),
                        static_cast<T*>(c), m, n, k, transpose_a, transpose_b,
                        static_cast<T*>(scratch), ToStream(stream)));
    });
  }

  size_t MatMulScratchBytes(DType dtype, int64_t m, int64_t n, int64_t k,
                            bool transpose_a, bool transpose_b) const override {
    if (!IsReal(dtype)) return 0;
    return TeachingMatMulScratch(DataTypeSize(dtype), m, n, k, transpose_a,
                                 transpose_b);
  }
};

}  // namespace
}  // namespace emulated

const GpuKernels& EmulatedGpuKernels() {
  static const emulated::EmulatedKernels kernels;
  return kernels;
}

}  // namespace minitf::gpu
