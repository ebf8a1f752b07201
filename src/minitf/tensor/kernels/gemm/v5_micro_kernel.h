// Version 5 of chapter 1's CPU GEMM: a micro-kernel of fused multiply-adds.
//
// Version 4's driver with a micro-kernel written in Eigen's packet
// primitives, the thin layer over SSE, AVX, AVX-512 and NEON that Eigen's
// own kernels use: a Packet is one vector register of floats (8 with AVX2,
// 16 with AVX-512), pset1 broadcasts one value to all its lanes, ploadu
// reads one from memory, and pmadd(x, y, acc) is x * y + acc, one fused
// multiply-add instruction (FMA) on every lane. The tile lives in 2 kMr
// named accumulators, which the compiler keeps in registers, so each depth
// step reads two packets of b and kMr values of a and does 2 kMr FMAs: with
// 10 rows, 20 FMAs for 12 loads, enough to keep the FMA units busy.
//
//   bool ok = v5::Gemm(GemmArgs<float>::RowMajor(m, n, k, a, b, c));
#pragma once

#include <Eigen/Core>

#include "minitf/tensor/kernels/gemm/v4_packing.h"

namespace minitf::kernels::gemm {

// --8<-- [start:fma_micro_kernel]
/// Computes what ScalarMicroKernel computes, a tile at a time in registers.
template <typename T>
struct FmaMicroKernel {
  static void Run(int64_t kc, const T* a, const T* b, int64_t b_rs, T* c,
                  int64_t c_rs, int64_t c_cs, int mr, int nr, bool accumulate) {
    using namespace Eigen::internal;  // pset1, pload, pmadd, ...
    using Packet = typename Tile<T>::Packet;
    constexpr int kMr = Tile<T>::kMr, kNr = Tile<T>::kNr;
    constexpr int kP = Tile<T>::kPacket;
    // The tile of c is needed only after the loop: ask for its lines now,
    // so that they arrive while the FMAs run (two cache lines a row).
    for (int i = 0; i < mr; ++i) {
      __builtin_prefetch(c + i * c_rs);
      __builtin_prefetch(c + i * c_rs + (nr - 1) * c_cs);
    }
    // Every loop over the tile's rows is unrolled whole (the pragmas), so
    // that each acc[i][j] is a name the compiler can keep in a register;
    // a loop it leaves rolled indexes acc at run time, which puts the tile
    // in memory, and at a short depth the stores and loads of it cost as
    // much as the FMAs.
    Packet acc[kMr][2];
#pragma GCC unroll 32
    for (int i = 0; i < kMr; ++i) acc[i][0] = acc[i][1] = pset1<Packet>(0);
    for (int64_t p = 0; p < kc; ++p) {
      const Packet b0 = ploadu<Packet>(b), b1 = ploadu<Packet>(b + kP);
#pragma GCC unroll 32
      for (int i = 0; i < kMr; ++i) {
        const Packet a_i = pset1<Packet>(a[i]);
        acc[i][0] = pmadd(a_i, b0, acc[i][0]);
        acc[i][1] = pmadd(a_i, b1, acc[i][1]);
      }
      a += kMr;
      b += b_rs;
    }
    if (mr == kMr && nr == kNr && c_cs == 1) {  // a whole tile, rows dense
#pragma GCC unroll 32
      for (int i = 0; i < kMr; ++i) {
        T* c_row = c + i * c_rs;
        if (accumulate) {
          acc[i][0] = padd(acc[i][0], ploadu<Packet>(c_row));
          acc[i][1] = padd(acc[i][1], ploadu<Packet>(c_row + kP));
        }
        pstoreu(c_row, acc[i][0]);
        pstoreu(c_row + kP, acc[i][1]);
      }
      return;
    }
    alignas(64) T tile[kMr * kNr];  // an edge of c: through a tile
#pragma GCC unroll 32
    for (int i = 0; i < kMr; ++i) {
      pstore(tile + i * kNr, acc[i][0]);
      pstore(tile + i * kNr + kP, acc[i][1]);
    }
    StoreTile(tile, c, c_rs, c_cs, mr, nr, accumulate);
  }
};
// --8<-- [end:fma_micro_kernel]

namespace v5 {

/// c = a b, packed, with the FMA micro-kernel. False when out of memory.
template <typename T>
bool Gemm(const GemmArgs<T>& g) {
  return PackedGemm<FmaMicroKernel<T>>(g);
}

}  // namespace v5
}  // namespace minitf::kernels::gemm
