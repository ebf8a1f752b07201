// The teaching GEMMs, in order, as a table the tests and the benchmark walk:
// each version's name and its launcher. Every launcher computes
// c = alpha * a b + beta * c on row-major float matrices (common.cuh); the
// engine itself calls cuBLAS, and these exist to be read and measured.
//
//   for (const GemmVersion& v : kGemmVersions)
//     v.launch(m, n, k, 1.f, d_a, d_b, 0.f, d_c, /*stream=*/0);
#pragma once

#include "minitf/gpu/kernels/gemm/common.cuh"
#include "minitf/gpu/kernels/gemm/v1_naive.cuh"
#include "minitf/gpu/kernels/gemm/v2_coalesced.cuh"
#include "minitf/gpu/kernels/gemm/v3_shared_tiles.cuh"
#include "minitf/gpu/kernels/gemm/v4_1d_register_blocking.cuh"
#include "minitf/gpu/kernels/gemm/v5_2d_register_blocking.cuh"
#include "minitf/gpu/kernels/gemm/v6_vectorized.cuh"
#include "minitf/gpu/kernels/gemm/v7_warp_tiling.cuh"

namespace minitf::gpu::gemm {

/// One teaching version: "v3_shared_tiles" and its launcher.
struct GemmVersion {
  const char* name;
  GemmLauncher launch;
};

inline constexpr GemmVersion kGemmVersions[] = {
    {"v1_naive", gemm_v1_naive},
    {"v2_coalesced", gemm_v2_coalesced},
    {"v3_shared_tiles", gemm_v3_shared_tiles},
    {"v4_1d_register_blocking", gemm_v4_1d_register_blocking},
    {"v5_2d_register_blocking", gemm_v5_2d_register_blocking},
    {"v6_vectorized", gemm_v6_vectorized},
    {"v7_warp_tiling", gemm_v7_warp_tiling},
};

}  // namespace minitf::gpu::gemm
