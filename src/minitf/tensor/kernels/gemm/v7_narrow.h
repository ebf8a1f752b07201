// Version 7 of chapter 1's CPU GEMM: the shapes of a training step.
//
// Versions 4 to 6 are built for large square products. A layer with 10
// outputs is not one: h W2 ([100,256] x [256,10]) has a c only 10 columns
// wide, so a 10 x 32 tile of c is two-thirds empty, and turned around
// (c^T = W2^T h^T) it must pack h^T, a transpose, one strided value at a
// time. Such a product is better computed as what c[i][j] is by definition,
// a dot product of row i of a with column j of b, vectorised along the
// depth: the rows of a are contiguous already, and b^T, k x n values, is
// small enough to pack whole. NarrowGemm does that; its micro-kernel keeps
// a tile of kRows x kCols dot products in registers, each a packet of
// partial sums that is added up across its lanes at the end.
//
// v7::Gemm is what MatMul runs: it picks, for the shape and the strides in
// hand, among NarrowGemm, version 6 and version 6 turned around.
//
//   bool ok = v7::Gemm(GemmArgs<float>::RowMajor(m, n, k, a, b, c), 2);
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <vector>

#include "minitf/tensor/kernels/gemm/v6_threads.h"
#include "minitf/tensor/kernels/intra_op.h"

namespace minitf::kernels::gemm {

// --8<-- [start:narrow_tile]
/// The dot-product tile: kRows rows of a by kCols columns of b, one packet
/// of partial sums each. kCols = 10 covers a layer of 10 outputs in one
/// tile; 2 x 10 accumulators, 2 packets of a and 1 of b fit AVX-512's 32
/// registers, 1 x 10 AVX2's 16.
template <typename T>
struct NarrowTile {
  static constexpr int kRows =
      EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS >= 32 ? 2 : 1;
  static constexpr int kCols = 10;
  /// The widest c this path takes (two column tiles).
  static constexpr int64_t kMaxN = 2 * kCols;
};
// --8<-- [end:narrow_tile]

/// Whether NarrowGemm can run `g` and is worth it: a narrow c, rows of a
/// contiguous along the depth, and a depth of at least one packet.
template <typename T>
bool NarrowFits(const GemmArgs<T>& g) {
  return g.n <= NarrowTile<T>::kMaxN && g.a_cs == 1 && g.k >= Tile<T>::kPacket;
}

// --8<-- [start:lane_sums]
/// c[j * c_cs] = the sum of the lanes of acc[j], for j < cols: one
/// reduction per element of c, Eigen's predux.
template <typename T, typename Packet, int kCols>
inline void StoreLaneSums(const Packet (&acc)[kCols], int cols, T* c,
                          int64_t c_cs) {
  for (int j = 0; j < cols; ++j) c[j * c_cs] = Eigen::internal::predux(acc[j]);
}
// --8<-- [end:lane_sums]

// --8<-- [start:lane_sums_avx512]
#ifdef EIGEN_VECTORIZE_AVX512
/// The same for AVX-512's floats, up to 16 packets at once: each level adds
/// the two halves of two packets and puts the results side by side, so
/// that 16 packets of 16 partial sums become 8 of 2 x 8, 4 of 4 x 4, 2 of
/// 8 x 2 and 1 of 16 sums: 15 adds and 30 shuffles (fewer for fewer
/// packets) where 16 predux take 64 of each. The sums come out with lane
/// 4q + r holding column q + 4r; one permutation puts column j in lane j,
/// and one masked store writes the row of c.
template <int kCols>
inline void StoreLaneSums(const __m512 (&acc)[kCols], int cols, float* c,
                          int64_t c_cs) {
  static_assert(kCols <= 16);
  __m512 v[16], t[8], u[4], s[2];
  for (int j = 0; j < 16; ++j) v[j] = j < kCols ? acc[j] : _mm512_setzero_ps();
  for (int i = 0; i < 8; ++i) {  // 256-bit halves: 8 partial sums a column
    t[i] = _mm512_add_ps(_mm512_shuffle_f32x4(v[2 * i], v[2 * i + 1], 0x44),
                         _mm512_shuffle_f32x4(v[2 * i], v[2 * i + 1], 0xEE));
  }
  for (int i = 0; i < 4; ++i) {  // 128-bit quarters: 4 a column
    u[i] = _mm512_add_ps(_mm512_shuffle_f32x4(t[2 * i], t[2 * i + 1], 0x88),
                         _mm512_shuffle_f32x4(t[2 * i], t[2 * i + 1], 0xDD));
  }
  for (int i = 0; i < 2; ++i) {  // pairs of lanes: 2 a column
    s[i] = _mm512_add_ps(_mm512_shuffle_ps(u[2 * i], u[2 * i + 1], 0x88),
                         _mm512_shuffle_ps(u[2 * i], u[2 * i + 1], 0xDD));
  }
  const __m512 w = _mm512_add_ps(_mm512_shuffle_ps(s[0], s[1], 0x88),
                                 _mm512_shuffle_ps(s[0], s[1], 0xDD));
  const __m512 sums = _mm512_permutexvar_ps(
      _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15),
      w);
  if (c_cs == 1) {
    _mm512_mask_storeu_ps(c, static_cast<__mmask16>((1u << cols) - 1), sums);
  } else {
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, sums);
    for (int j = 0; j < cols; ++j) c[j * c_cs] = lanes[j];
  }
}
#endif
// --8<-- [end:lane_sums_avx512]

#if defined(EIGEN_VECTORIZE_AVX) && !defined(EIGEN_VECTORIZE_AVX512)
/// The same for AVX's floats, 8 packets at a time: two rounds of
/// horizontal adds leave 4 columns' sums in each 128-bit half, and adding
/// the halves gives 8.
template <int kCols>
inline void StoreLaneSums(const __m256 (&acc)[kCols], int cols, float* c,
                          int64_t c_cs) {
  for (int j0 = 0; j0 < kCols && j0 < cols; j0 += 8) {
    __m256 v[8];
    for (int j = 0; j < 8; ++j) {
      v[j] = j0 + j < kCols ? acc[j0 + j] : _mm256_setzero_ps();
    }
    const __m256 h0 =
        _mm256_hadd_ps(_mm256_hadd_ps(v[0], v[1]), _mm256_hadd_ps(v[2], v[3]));
    const __m256 h1 =
        _mm256_hadd_ps(_mm256_hadd_ps(v[4], v[5]), _mm256_hadd_ps(v[6], v[7]));
    const __m256 sums = _mm256_add_ps(_mm256_permute2f128_ps(h0, h1, 0x20),
                                      _mm256_permute2f128_ps(h0, h1, 0x31));
    const int n = std::min(8, cols - j0);
    if (c_cs == 1 && n == 8) {
      _mm256_storeu_ps(c + j0, sums);
    } else {
      alignas(32) float lanes[8];
      _mm256_store_ps(lanes, sums);
      for (int j = 0; j < n; ++j) c[(j0 + j) * c_cs] = lanes[j];
    }
  }
}
#endif

// --8<-- [start:dot_kernel]
/// c[i0 + r][j0 + q] = row i0 + r of a . row q of bt, for r < rows and
/// q < cols. The rows of a are contiguous (a_cs == 1); the last k % kPacket
/// values of each are read from `a_tail` instead (kRows zero-padded
/// packets). bt: kCols packed rows of `kk` values (k rounded up to whole
/// packets, zero-padded).
template <typename T, int kRows, int kCols>
inline void DotMicroKernel(const GemmArgs<T>& g, const T* bt, int64_t kk,
                           int64_t i0, int rows, int64_t j0, int cols,
                           const T* a_tail) {
  using namespace Eigen::internal;  // pset1, ploadu, pmadd, ...
  using Packet = typename Tile<T>::Packet;
  constexpr int kP = Tile<T>::kPacket;
  // A missing row repeats the last one: computed, never stored.
  const T* ar[kRows];
  for (int r = 0; r < kRows; ++r) {
    ar[r] = g.a + std::min<int64_t>(i0 + r, i0 + rows - 1) * g.a_rs;
  }
  Packet acc[kRows][kCols];
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < kCols; ++c) acc[r][c] = pset1<Packet>(0);
  }
  // Each step: a packet of depth from each row of a, times the same packet
  // of each row of bt. Two steps a turn of the loop (GCC does not unroll it
  // by itself at -O3): the loop's own instructions, its pointer updates,
  // compare and branch, come once per 2 x kRows x kCols FMAs.
  const int64_t k_main = g.k / kP * kP;
#pragma GCC unroll 2
  for (int64_t p = 0; p < k_main; p += kP) {
    Packet av[kRows];
    for (int r = 0; r < kRows; ++r) av[r] = ploadu<Packet>(ar[r] + p);
    for (int c = 0; c < kCols; ++c) {
      const Packet bv = pload<Packet>(bt + c * kk + p);
      for (int r = 0; r < kRows; ++r) acc[r][c] = pmadd(av[r], bv, acc[r][c]);
    }
  }
  if (k_main < g.k) {  // the ragged end of a, from a_tail
    for (int c = 0; c < kCols; ++c) {
      const Packet bv = pload<Packet>(bt + c * kk + k_main);
      for (int r = 0; r < kRows; ++r) {
        acc[r][c] = pmadd(pload<Packet>(a_tail + std::min(r, rows - 1) * kP),
                          bv, acc[r][c]);
      }
    }
  }
  // r up to kRows, not rows: a loop of a fixed count, which the compiler
  // unrolls, keeps acc in registers; with rows, it goes through the stack.
  for (int r = 0; r < kRows; ++r) {
    if (r < rows) StoreLaneSums(acc[r], cols, &g.C(i0 + r, j0), g.c_cs);
  }
}
// --8<-- [end:dot_kernel]

// --8<-- [start:narrow_driver]
/// c = a b as dot products, for NarrowFits(g). False when out of memory.
template <typename T>
bool NarrowGemm(const GemmArgs<T>& g) {
  constexpr int kP = Tile<T>::kPacket;
  constexpr int kRows = NarrowTile<T>::kRows, kCols = NarrowTile<T>::kCols;
  const int64_t kk = (g.k + kP - 1) / kP * kP;
  const int64_t n_tiles = (g.n + kCols - 1) / kCols;
  PackBuffers<T>& buffers = PackBuffers<T>::ForThisThread();
  if (!buffers.Reserve(kRows * kP, n_tiles * kCols * kk)) return false;
  // b^T, whole: row j is column j of b, zero-padded to kk values; the rows
  // past n are zeros.
  T* bt = buffers.b();
  for (int64_t j = 0; j < n_tiles * kCols; ++j) {
    T* row = bt + j * kk;
    if (j < g.n) {
      for (int64_t p = 0; p < g.k; ++p) row[p] = g.B(p, j);
    } else {
      std::fill(row, row + g.k, T(0));
    }
    std::fill(row + g.k, row + kk, T(0));
  }
  const int64_t k_whole = g.k / kP * kP;
  T* a_tail = buffers.a();
  for (int64_t i = 0; i < g.m; i += kRows) {
    const int rows = static_cast<int>(std::min<int64_t>(kRows, g.m - i));
    for (int r = 0; r < rows && k_whole < g.k; ++r) {  // ragged ends
      for (int64_t p = k_whole; p < k_whole + kP; ++p) {
        a_tail[r * kP + p - k_whole] = p < g.k ? g.A(i + r, p) : T(0);
      }
    }
    for (int64_t j = 0; j < g.n; j += kCols) {
      DotMicroKernel<T, kRows, kCols>(
          g, bt + j * kk, kk, i, rows, j,
          static_cast<int>(std::min<int64_t>(kCols, g.n - j)), a_tail);
    }
  }
  return true;
}
// --8<-- [end:narrow_driver]

namespace v7 {

// --8<-- [start:kernel]
/// c = a b on up to `threads` threads, by the method that suits the shape.
/// False when out of memory.
template <typename T>
bool Gemm(const GemmArgs<T>& g, int threads) {
  // A narrow c (or a narrow c^T, turned around) with contiguous rows of a:
  // dot products, the rows of c split between the threads.
  for (const GemmArgs<T>& h : {g, g.Transposed()}) {
    if (!NarrowFits(h) || h.m < 2) continue;
    const int64_t units =
        (h.m + NarrowTile<T>::kRows - 1) / NarrowTile<T>::kRows;
    threads = ThreadsFor(static_cast<double>(h.m) * h.n * h.k,
                         kMinWorkPerThread, units, threads);
    if (threads <= 1) return NarrowGemm(h);
    std::vector<char> ok(threads, 0);
    ParallelFor(threads, [&](int t) {
      const int64_t begin = units * t / threads * NarrowTile<T>::kRows;
      const int64_t end =
          std::min(h.m, units * (t + 1) / threads * NarrowTile<T>::kRows);
      ok[t] = NarrowGemm(h.Block(begin, end - begin, 0, h.n));
    });
    return std::all_of(ok.begin(), ok.end(), [](char b) { return b != 0; });
  }
  // Narrower than a tile of version 5: turned around, the narrow side runs
  // along the tile's kMr rows instead of its kNr columns.
  if (g.n < Tile<T>::kNr && g.m > g.n) return v6::Gemm(g.Transposed(), threads);
  return v6::Gemm(g, threads);
}
// --8<-- [end:kernel]

}  // namespace v7
}  // namespace minitf::kernels::gemm
