#include "minitf/gpu/kernels/gemm/reference.h"

namespace minitf::gpu::gemm {

// --8<-- [start:reference]
void gemm_reference(int m, int n, int k, float alpha, const float* a,
                    const float* b, float beta, float* c) {
  for (int row = 0; row < m; ++row) {
    for (int col = 0; col < n; ++col) {
      float acc = 0.f;
      for (int p = 0; p < k; ++p) acc += a[row * k + p] * b[p * n + col];
      float& out = c[row * n + col];
      out = beta == 0.f ? alpha * acc : alpha * acc + beta * out;
    }
  }
}
// --8<-- [end:reference]

}  // namespace minitf::gpu::gemm
