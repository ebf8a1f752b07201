// Version 4 of chapter 1's CPU GEMM: packed operands and a micro-kernel.
//
// This is the structure of every fast CPU GEMM (Goto and van de Geijn's,
// which BLIS, OpenBLAS and Eigen follow). Each block of a and of b is first
// copied ("packed") into a contiguous buffer, in the order the innermost
// loop reads it: a in slivers of Tile::kMr rows, b in slivers of Tile::kNr
// columns, each sliver stored one depth step after another. The packed
// buffers are read with unit stride whatever the operands' strides were, so
// a transposed operand costs nothing more, and every cache line fetched is
// used in full. The innermost work is a micro-kernel: it computes one
// kMr x kNr tile of c over the block's depth, keeping the tile in registers
// and reading one column of the a sliver and one row of the b sliver per
// step. One block of b is read where it lies instead: a row-major one that
// a single block of a meets, as in a product of batch 100, whose copy would
// cost more than it saves.
//
// PackedGemm is the driver; its micro-kernel is a template parameter, so
// version 5 is this driver with another micro-kernel. Version 4's own,
// ScalarMicroKernel, is plain C++ loops over a tile array: the reference
// the vector kernel of version 5 is tested against.
//
//   bool ok = v4::Gemm(GemmArgs<float>::RowMajor(m, n, k, a, b, c));
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "minitf/tensor/kernels/gemm/gemm_args.h"

namespace minitf::kernels::gemm {

// --8<-- [start:tile]
/// The shape of the micro-kernel's tile of c, set by the vector registers:
/// kNr is two of Eigen's packets (16 floats with AVX2, 32 with AVX-512), and
/// kMr rows, as many as leave registers for the loads: 2 kMr accumulators,
/// two rows of b and one broadcast value of a. With 16 registers (AVX2)
/// that is 6 rows. With 32 (AVX-512) it could be 14; 10 leaves ten FMAs
/// a row of a still, and a batch of 100 rows, the course's, is ten whole
/// tiles where 12 would leave a third of its last tile empty.
template <typename T>
struct Tile {
  using Packet = typename Eigen::internal::packet_traits<T>::type;
  static constexpr int kPacket = Eigen::internal::unpacket_traits<Packet>::size;
  static constexpr int kNrPackets = 2;
  static constexpr int kNr = kNrPackets * kPacket;
  static constexpr int kMr =
      EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS >= 32 ? 10 : 6;
};

/// The block sizes, from the caches of one core (32 KiB L1, 1 MiB L2 and a
/// share of the L3 on the x86 CPUs of this course). kMc rows of a by kKc
/// steps of depth is the packed block of a that every sliver of b meets:
/// the course's batch of 100 rows in whole tiles (10 of 10 rows, or 17 of
/// 6 with 16 registers) by 4 KiB of depth a row, about 400 KiB of floats,
/// under half the L2 so that the slivers of b that stream through it do not
/// evict it; a batch of 100 is one block, so b streams past it once.
/// A sliver of b (kKc x kNr, 128 KiB) is larger than the L1: it streams
/// from the L2 in unit stride, which the hardware prefetcher keeps ahead
/// of the loads. A deep block is worth that: each depth block reads and
/// writes every tile of c once more, and at 1024 steps that is once for a
/// product of 1024 or less. kNc columns of b: the packed block of b, 4 MiB
/// of floats at most, in the L3.
template <typename T>
struct Blocking {
  static constexpr int64_t kKc = 4096 / sizeof(T);
  static constexpr int64_t kMc =
      (100 + Tile<T>::kMr - 1) / Tile<T>::kMr * Tile<T>::kMr;
  static constexpr int64_t kNc = 1024;
};

/// The depth blocks of a product of depth k: as few as kKc allows, of equal
/// size (rounded up to a multiple of 8), so that a depth just over kKc is
/// two half blocks rather than a full one and a sliver.
template <typename T>
int64_t DepthBlock(int64_t k) {
  const int64_t blocks = (k + Blocking<T>::kKc - 1) / Blocking<T>::kKc;
  return std::min(Blocking<T>::kKc, ((k + blocks - 1) / blocks + 7) / 8 * 8);
}
// --8<-- [end:tile]

/// c(i, j) = tile(i, j) (or += when `accumulate`), for the mr x nr corner of
/// a kMr x kNr tile that lies inside c.
template <typename T>
void StoreTile(const T* tile, T* c, int64_t c_rs, int64_t c_cs, int mr, int nr,
               bool accumulate) {
  constexpr int kNr = Tile<T>::kNr;
  for (int i = 0; i < mr; ++i) {
    T* c_row = c + i * c_rs;
    const T* t_row = tile + i * kNr;
    if (c_cs == 1) {
      for (int j = 0; j < nr; ++j)
        c_row[j] = (accumulate ? c_row[j] : 0) + t_row[j];
    } else {
      for (int j = 0; j < nr; ++j) {
        T& c_ij = c_row[j * c_cs];
        c_ij = (accumulate ? c_ij : 0) + t_row[j];
      }
    }
  }
}

// --8<-- [start:scalar_micro_kernel]
/// The reference micro-kernel: tile = the product of an a sliver
/// ([kc, kMr], packed) and a b sliver ([kc, kNr], its rows b_rs apart: kNr
/// when packed), in plain loops.
/// The compiler may keep `tile` in registers and vectorise the j loop, or
/// may not: that is its choice, not the code's.
template <typename T>
struct ScalarMicroKernel {
  static void Run(int64_t kc, const T* a, const T* b, int64_t b_rs, T* c,
                  int64_t c_rs, int64_t c_cs, int mr, int nr, bool accumulate) {
    constexpr int kMr = Tile<T>::kMr, kNr = Tile<T>::kNr;
    alignas(64) T tile[kMr * kNr] = {};
    for (int64_t p = 0; p < kc; ++p) {
      for (int i = 0; i < kMr; ++i) {
        for (int j = 0; j < kNr; ++j) tile[i * kNr + j] += a[i] * b[j];
      }
      a += kMr;
      b += b_rs;
    }
    StoreTile(tile, c, c_rs, c_cs, mr, nr, accumulate);
  }
};
// --8<-- [end:scalar_micro_kernel]

/// One thread's packing buffers, grown to the largest blocks it has packed
/// and kept until the thread ends, so that a product allocates nothing once
/// the thread has run one of its size.
template <typename T>
class PackBuffers {
 public:
  static PackBuffers& ForThisThread() {
    thread_local PackBuffers buffers;
    return buffers;
  }
  /// Buffers of at least `a` and `b` elements; false when out of memory.
  bool Reserve(int64_t a, int64_t b) {
    return Grow(&a_, &a_size_, a) && Grow(&b_, &b_size_, b);
  }
  T* a() const { return a_.get(); }
  T* b() const { return b_.get(); }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  static bool Grow(std::unique_ptr<T, Free>* buffer, int64_t* size,
                   int64_t needed) {
    if (needed <= *size) return true;
    // 64-byte aligned, for the widest vector loads; aligned_alloc wants a
    // multiple of the alignment.
    const size_t bytes = (needed * sizeof(T) + 63) / 64 * 64;
    buffer->reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
    *size = *buffer ? needed : 0;
    return *buffer != nullptr;
  }
  std::unique_ptr<T, Free> a_;
  std::unique_ptr<T, Free> b_;
  int64_t a_size_ = 0;
  int64_t b_size_ = 0;
};

// --8<-- [start:pack]
/// Writes the kMr x kc block of rows at `a` (rows `a_rs` apart, contiguous)
/// to `out` column by column, kMr values a depth step, and returns the end
/// of what it wrote. Where a packet holds kMr values or more, it moves
/// kPacket depth steps at a time: kMr packets loaded from the rows (and
/// zeros up to kPacket), transposed in registers (Eigen's ptranspose), each
/// stored whole at its depth step; a packet's lanes past kMr land where the
/// next one is stored next. So it writes up to kPacket values past its end,
/// which the packing buffer leaves room for.
template <typename T>
T* PackRowsTransposed(const T* a, int64_t a_rs, int64_t kc, T* out) {
  using namespace Eigen::internal;
  using Packet = typename Tile<T>::Packet;
  constexpr int kMr = Tile<T>::kMr, kP = Tile<T>::kPacket;
  int64_t p = 0;
  if constexpr (kMr <= kP) {
    for (; p + kP <= kc; p += kP) {
#pragma GCC diagnostic push  // Packet's vector attributes, as Eigen's own
#pragma GCC diagnostic ignored "-Wignored-attributes"
      PacketBlock<Packet, kP> block;
#pragma GCC diagnostic pop
      for (int i = 0; i < kP; ++i) {
        block.packet[i] =
            i < kMr ? ploadu<Packet>(a + i * a_rs + p) : pset1<Packet>(0);
      }
      ptranspose(block);
      for (int q = 0; q < kP; ++q, out += kMr) pstoreu(out, block.packet[q]);
    }
  }
  for (; p < kc; ++p, out += kMr) {
    for (int i = 0; i < kMr; ++i) out[i] = a[i * a_rs + p];
  }
  return out;
}

/// Packs a[i0:i0+mc, p0:p0+kc] into slivers of kMr rows: sliver s holds
/// rows s*kMr.. of the block, depth step by depth step, zero-padded to kMr.
template <typename T>
void PackA(const GemmArgs<T>& g, int64_t i0, int64_t mc, int64_t p0, int64_t kc,
           T* out) {
  constexpr int kMr = Tile<T>::kMr;
  int64_t is = 0;
  if (g.a_rs == 1) {
    // a transposed: the kMr values of a depth step lie side by side.
    for (; is + kMr <= mc; is += kMr) {
      for (int64_t p = p0; p < p0 + kc; ++p, out += kMr) {
        std::memcpy(out, &g.A(i0 + is, p), kMr * sizeof(T));
      }
    }
  } else if (g.a_cs == 1) {
    // a row-major: a sliver is a transpose of kMr rows.
    for (; is + kMr <= mc; is += kMr) {
      out = PackRowsTransposed(&g.A(i0 + is, p0), g.a_rs, kc, out);
    }
  }
  for (; is < mc; is += kMr) {
    const int64_t mr = std::min<int64_t>(kMr, mc - is);
    for (int64_t p = p0; p < p0 + kc; ++p) {
      for (int64_t i = 0; i < mr; ++i) out[i] = g.A(i0 + is + i, p);
      for (int64_t i = mr; i < kMr; ++i) out[i] = 0;
      out += kMr;
    }
  }
}

/// Packs b[p0:p0+kc, j0:j0+nc] into slivers of kNr columns, the same way.
template <typename T>
void PackB(const GemmArgs<T>& g, int64_t p0, int64_t kc, int64_t j0, int64_t nc,
           T* out) {
  constexpr int kNr = Tile<T>::kNr;
  for (int64_t js = 0; js < nc; js += kNr) {
    const int64_t nr = std::min<int64_t>(kNr, nc - js);
    for (int64_t p = p0; p < p0 + kc; ++p) {
      const T* row = &g.B(p, j0 + js);
      if (nr == kNr && g.b_cs == 1) {
        std::memcpy(out, row, kNr * sizeof(T));
      } else {
        for (int64_t j = 0; j < nr; ++j) out[j] = row[j * g.b_cs];
        for (int64_t j = nr; j < kNr; ++j) out[j] = 0;
      }
      out += kNr;
    }
  }
}
// --8<-- [end:pack]

// --8<-- [start:driver]
/// c = a b through packed blocks and MicroKernel. False when the packing
/// buffers cannot be allocated (c is then unspecified).
template <typename MicroKernel, typename T>
bool PackedGemm(const GemmArgs<T>& g) {
  constexpr int kMr = Tile<T>::kMr, kNr = Tile<T>::kNr;
  using B = Blocking<T>;
  if (g.k == 0) {
    for (int64_t i = 0; i < g.m; ++i) {
      for (int64_t j = 0; j < g.n; ++j) g.C(i, j) = 0;
    }
    return true;
  }
  const int64_t kc_step = DepthBlock<T>(g.k);
  const int64_t kc_max = std::min(kc_step, g.k);
  const int64_t mc_max = std::min(B::kMc, (g.m + kMr - 1) / kMr * kMr);
  const int64_t nc_max = std::min(B::kNc, (g.n + kNr - 1) / kNr * kNr);
  PackBuffers<T>& buffers = PackBuffers<T>::ForThisThread();
  // A packet's room past the end of a: PackRowsTransposed's last store.
  if (!buffers.Reserve(mc_max * kc_max + Tile<T>::kPacket, kc_max * nc_max)) {
    return false;
  }
  for (int64_t jc = 0; jc < g.n; jc += B::kNc) {
    const int64_t nc = std::min(B::kNc, g.n - jc);
    for (int64_t pc = 0; pc < g.k; pc += kc_step) {
      const int64_t kc = std::min(kc_step, g.k - pc);
      // A block of b that one block of a meets alone (m <= kMc), already
      // in whole rows of slivers (b_cs == 1, nc a multiple of kNr), is read
      // where it lies: packing would copy each value to read it at most
      // kMc / kMr times, and the rows of b stream from the L2 as well.
      const bool pack_b = !(g.b_cs == 1 && nc % kNr == 0 && g.m <= B::kMc);
      if (pack_b) PackB(g, pc, kc, jc, nc, buffers.b());
      for (int64_t ic = 0; ic < g.m; ic += B::kMc) {
        const int64_t mc = std::min(B::kMc, g.m - ic);
        PackA(g, ic, mc, pc, kc, buffers.a());
        // The first depth block writes c, the others add to it.
        for (int64_t jr = 0; jr < nc; jr += kNr) {
          for (int64_t ir = 0; ir < mc; ir += kMr) {
            MicroKernel::Run(kc, buffers.a() + ir * kc,
                             pack_b ? buffers.b() + jr * kc : &g.B(pc, jc + jr),
                             pack_b ? kNr : g.b_rs, &g.C(ic + ir, jc + jr),
                             g.c_rs, g.c_cs,
                             static_cast<int>(std::min<int64_t>(kMr, mc - ir)),
                             static_cast<int>(std::min<int64_t>(kNr, nc - jr)),
                             /*accumulate=*/pc > 0);
          }
        }
      }
    }
  }
  return true;
}
// --8<-- [end:driver]

namespace v4 {

/// c = a b, packed, with the scalar micro-kernel. False when out of memory.
template <typename T>
bool Gemm(const GemmArgs<T>& g) {
  return PackedGemm<ScalarMicroKernel<T>>(g);
}

}  // namespace v4
}  // namespace minitf::kernels::gemm
