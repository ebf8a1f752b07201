#include "minitf/tensor/kernels/matmul.h"

#include <omp.h>

#include <Eigen/Core>
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <type_traits>
#include <vector>

#include "minitf/tensor/kernels/checks.h"
#include "minitf/tensor/kernels/intra_op.h"

namespace minitf::kernels {
namespace {

using Eigen::Index;

// --8<-- [start:matmul_kernel]
// out:[m,n] = op(a) * op(b), where op transposes when asked. Eigen's
// .transpose() of a row-major map is a free view, so no copy is made. This
// is the whole kernel for small, degenerate and integer products; float and
// double products of any size go through Gemm below, which runs the same
// Eigen GEMM with its workspace kept and its threads split by minitf.
template <typename T>
void MatMulKernel(const Tensor& a, const Tensor& b, bool transpose_a,
                  bool transpose_b, Tensor* out) {
  auto x = a.matrix<T>();
  auto y = b.matrix<T>();
  auto z = out->matrix<T>();
  if (!transpose_a && !transpose_b) {
    z.noalias() = x * y;
  } else if (transpose_a && !transpose_b) {
    z.noalias() = x.transpose() * y;
  } else if (!transpose_a && transpose_b) {
    z.noalias() = x * y.transpose();
  } else {
    z.noalias() = x.transpose() * y.transpose();
  }
}
// --8<-- [end:matmul_kernel]

// ---------------------------------------------------------------------------
// The GEMM driver.
//
// Eigen's GEMM (Goto's algorithm) copies blocks of both operands into
// contiguous "packed" buffers before multiplying them. Called through
// `z = x * y`, it allocates those buffers for every product: on the stack
// when under 128 KiB, else with malloc, freed at the end. Two costs follow
// for the products of a training step, measured on the course's machine:
//   - glibc returns freed memory at the top of its heap to the operating
//     system, so a product whose buffers land there faults their pages in
//     afresh every time. [100,784]x[784,256] (blocks of 441 and 306 KiB) then
//     ran at 12 to 18 GF/s instead of about 140, depending only on what else
//     the process had allocated.
//   - With two threads, Eigen allocates a block per thread per product too.
// So the driver below calls Eigen's blocked product itself, with buffers
// that each thread keeps from one product to the next, and splits the work
// between threads itself, each thread running the sequential product on a
// slab of the output with its own buffers. The threads are those of the
// calling thread's intra-op pool, or of the process's (intra_op.h), not
// OpenMP's: a parallel region of OpenMP waits for every thread of its team
// to be scheduled, and on a machine with more work than cores that made
// two threads slower than one.
//
// It also chooses the orientation. A row-major out:[m,n] is the column-major
// out^T:[n,m] = op(b)^T op(a)^T, which Eigen computes with op(b)^T as its
// left operand, cut into panels of Traits::mr rows (48 floats with AVX-512),
// and a as its right operand. For the weight gradient of a layer with few
// outputs, x^T dy with dy:[batch,10], a panel is mostly empty and the big
// operand x is packed from its rows. Computing instead the column-major
// out:[m,n] = op(a) op(b) into a scratch buffer and copying it over,
// transposed (m * n values, a small part of the work), measured 29 -> 20 us
// for [784,100]x[100,10] and 12 -> 7 us for [256,100]x[100,10] on one
// thread. For the forward products x W of the same layers it gained nothing
// ([100,784]x[784,10]) or lost the copy ([100,256]x[256,10]), so the driver
// turns only products with a transposed, n narrower than a panel and m
// wider than n.

template <typename T>
struct AlignedFree {
  void operator()(T* p) const { std::free(p); }
};

// One thread's packing buffers, grown to the largest blocks it has packed
// and kept until the thread ends, so that no product allocates.
template <typename T>
class PackBuffers {
 public:
  static PackBuffers& ForThisThread() {
    thread_local PackBuffers buffers;
    return buffers;
  }
  // Buffers of at least `a` and `b` elements, or false when out of memory.
  bool Reserve(Index a, Index b) {
    return Grow(&a_, &a_size_, a) && Grow(&b_, &b_size_, b);
  }
  T* a() const { return a_.get(); }
  T* b() const { return b_.get(); }

 private:
  static bool Grow(std::unique_ptr<T, AlignedFree<T>>* buffer, Index* size,
                   Index needed) {
    if (needed <= *size) return true;
    // 64-byte aligned, for Eigen's widest loads; aligned_alloc wants a
    // multiple of the alignment.
    const size_t bytes = (needed * sizeof(T) + 63) / 64 * 64;
    buffer->reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
    *size = *buffer ? needed : 0;
    return *buffer != nullptr;
  }

  std::unique_ptr<T, AlignedFree<T>> a_;
  std::unique_ptr<T, AlignedFree<T>> b_;
  Index a_size_ = 0;
  Index b_size_ = 0;
};

// Eigen's block sizes for one sequential product, over this thread's
// buffers. (level3_blocking is the interface Eigen's product reads them
// through; its fields are protected, hence the subclass.)
template <typename T>
class KeptBlocking : public Eigen::internal::level3_blocking<T, T> {
 public:
  // Eigen's block sizes for this shape; then Reserve(size_a(), size_b()) on
  // this thread's buffers and Use() them.
  KeptBlocking(Index rows, Index cols, Index depth) {
    this->m_mc = rows;
    this->m_nc = cols;
    this->m_kc = depth;
    Eigen::internal::computeProductBlockingSizes<T, T, 1>(
        this->m_kc, this->m_mc, this->m_nc, Index{1});
  }
  Index size_a() const { return this->m_kc * this->m_mc; }
  Index size_b() const { return this->m_kc * this->m_nc; }
  void Use(PackBuffers<T>& buffers) {
    this->m_blockA = buffers.a();
    this->m_blockB = buffers.b();
  }
};

// Computes res[r0:r0+rows, c0:c0+cols] (column-major, leading dimension
// res_stride) on this thread. Eigen's product adds to what is there, so the
// slab is zeroed first, here: by the thread that writes it, which is then
// also in its cache, and in parallel with the other slabs (for a [784,256]
// weight gradient, 800 KB). False when out of memory.
template <typename T, int LhsOrder, int RhsOrder>
bool GemmSlab(const T* lhs, Index lhs_stride, const T* rhs, Index rhs_stride,
              T* res, Index res_stride, Index r0, Index rows, Index c0,
              Index cols, Index depth) {
  if (rows <= 0 || cols <= 0) return true;
  for (Index c = c0; c < c0 + cols; ++c) {
    std::fill_n(res + r0 + c * res_stride, rows, T(0));
  }
  // Where row r0 of lhs and column c0 of rhs start, in their storage order.
  const T* lhs_r0 =
      LhsOrder == Eigen::ColMajor ? lhs + r0 : lhs + r0 * lhs_stride;
  const T* rhs_c0 =
      RhsOrder == Eigen::ColMajor ? rhs + c0 * rhs_stride : rhs + c0;
  KeptBlocking<T> blocking(rows, cols, depth);
  PackBuffers<T>& buffers = PackBuffers<T>::ForThisThread();
  if (!buffers.Reserve(blocking.size_a(), blocking.size_b())) return false;
  blocking.Use(buffers);
  Eigen::internal::general_matrix_matrix_product<
      Index, T, LhsOrder, false, T, RhsOrder, false, Eigen::ColMajor,
      1>::run(rows, cols, depth, lhs_r0, lhs_stride, rhs_c0, rhs_stride,
              res + r0 + c0 * res_stride, 1, res_stride, T(1), blocking);
  return true;
}

// res:[rows,cols] (column-major) = lhs rhs, on up to `threads`
// threads. Each thread takes a slab of whole rows or whole columns and packs
// its share of one operand and all of the other; the slabs run across the
// operand that is cheaper to pack twice.
template <typename T, int LhsOrder, int RhsOrder>
bool Gemm(const T* lhs, Index lhs_stride, const T* rhs, Index rhs_stride,
          T* res, Index rows, Index cols, Index depth, int threads) {
  using Traits = Eigen::internal::gebp_traits<T, T>;
  // Eigen's own rule for how many threads a product is worth: at least
  // 50,000 multiply-adds each.
  const double work = static_cast<double>(rows) * cols * depth;
  threads = static_cast<int>(
      std::clamp<double>(work / 50000, 1, std::max(threads, 1)));
  if (omp_in_parallel()) threads = 1;
  // Slabs across the rows repack all of rhs in every thread; across the
  // columns, all of lhs.
  const bool split_rows = depth * cols <= depth * rows &&
                          rows >= static_cast<Index>(threads) * Traits::mr;
  const Index step = split_rows ? Traits::mr : Traits::nr;
  const Index extent = split_rows ? rows : cols;
  const Index units = (extent + step - 1) / step;
  threads = static_cast<int>(std::min<Index>(threads, units));
  if (threads <= 1) {
    return GemmSlab<T, LhsOrder, RhsOrder>(lhs, lhs_stride, rhs, rhs_stride,
                                           res, rows, 0, rows, 0, cols, depth);
  }
  // One slab per thread, on the thread's intra-op pool or OpenMP's team
  // (intra_op.h).
  std::vector<char> ok(threads, 0);
  ParallelFor(threads, [&](int t) {
    // Whole units of `step`, spread as evenly as they go.
    const Index begin = std::min(extent, units * t / threads * step);
    const Index end = std::min(extent, units * (t + 1) / threads * step);
    ok[t] = split_rows ? GemmSlab<T, LhsOrder, RhsOrder>(
                             lhs, lhs_stride, rhs, rhs_stride, res, rows, begin,
                             end - begin, 0, cols, depth)
                       : GemmSlab<T, LhsOrder, RhsOrder>(
                             lhs, lhs_stride, rhs, rhs_stride, res, rows, 0,
                             rows, begin, end - begin, depth);
  });
  return std::all_of(ok.begin(), ok.end(), [](char b) { return b != 0; });
}

// Runs Gemm with the storage orders known at compile time.
template <typename T>
bool GemmAnyOrder(bool lhs_row_major, const T* lhs, Index lhs_stride,
                  bool rhs_row_major, const T* rhs, Index rhs_stride, T* res,
                  Index rows, Index cols, Index depth, int threads) {
  constexpr int kRow = Eigen::RowMajor;
  constexpr int kCol = Eigen::ColMajor;
  if (lhs_row_major) {
    return rhs_row_major ? Gemm<T, kRow, kRow>(lhs, lhs_stride, rhs, rhs_stride,
                                               res, rows, cols, depth, threads)
                         : Gemm<T, kRow, kCol>(lhs, lhs_stride, rhs, rhs_stride,
                                               res, rows, cols, depth, threads);
  }
  return rhs_row_major ? Gemm<T, kCol, kRow>(lhs, lhs_stride, rhs, rhs_stride,
                                             res, rows, cols, depth, threads)
                       : Gemm<T, kCol, kCol>(lhs, lhs_stride, rhs, rhs_stride,
                                             res, rows, cols, depth, threads);
}

// --8<-- [start:gemm_orientation]
// out:[m,n] = op(a) op(b) through Gemm, in the orientation explained above.
// A row-major [r,c] buffer is also the column-major [c,r] transpose, so each
// operand is passed as whichever of the two the product needs.
template <typename T>
Status GemmMatMul(const Tensor& a, const Tensor& b, bool transpose_a,
                  bool transpose_b, Tensor* out) {
  using Traits = Eigen::internal::gebp_traits<T, T>;
  const Index m = out->dim_size(0);
  const Index n = out->dim_size(1);
  const Index k = a.dim_size(transpose_a ? 0 : 1);
  const Index a_cols = a.dim_size(1);
  const Index b_cols = b.dim_size(1);
  const int threads = IntraOpThreads();
  bool ok;
  if (transpose_a && n < Traits::mr && m > n) {
    // Narrow: the column-major out:[m,n] = op(a) op(b), then transposed.
    TF_ASSIGN_OR_RETURN(Tensor scratch,
                        Tensor::Allocate(out->dtype(), TensorShape({n, m})));
    ok = GemmAnyOrder<T>(!transpose_a, a.data<T>(), a_cols, !transpose_b,
                         b.data<T>(), b_cols, scratch.data<T>(), m, n, k,
                         threads);
    out->matrix<T>() = scratch.matrix<T>().transpose();
  } else {
    // The column-major out^T:[n,m] = op(b)^T op(a)^T, written in place.
    ok = GemmAnyOrder<T>(transpose_b, b.data<T>(), b_cols, transpose_a,
                         a.data<T>(), a_cols, out->data<T>(), n, m, k, threads);
  }
  if (!ok) {
    return errors::ResourceExhausted(
        "OOM when allocating the packing buffers of MatMul for ", a.shape(),
        " x ", b.shape());
  }
  return Status::OK();
}
// --8<-- [end:gemm_orientation]

}  // namespace

StatusOr<Tensor> MatMul(const Tensor& a, const Tensor& b, bool transpose_a,
                        bool transpose_b) {
  TF_RETURN_IF_ERROR(CheckMatMulOperands(a, b));
  if (a.dtype() == DT_BOOL) {
    return errors::InvalidArgument("MatMul has no kernel for dtype bool");
  }
  TF_ASSIGN_OR_RETURN(MatMulSizes sizes,
                      MatMulSizesOf(a, b, transpose_a, transpose_b));
  const int64_t m = sizes.m, n = sizes.n, k = sizes.k;
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(a.dtype(), TensorShape({m, n})));
  // Eigen's own choices stand where its expression would not reach its GEMM
  // either: an empty product, a matrix-vector product (m or n is 1), and a
  // tiny one (sizes summing under 20, Eigen's threshold), which it computes
  // element by element.
  const bool gemm = m > 1 && n > 1 && k > 0 && m + n + k >= 20;
  Status status;
  SwitchDType(a.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (gemm) {
        status = GemmMatMul<T>(a, b, transpose_a, transpose_b, &out);
        return;
      }
    }
    if constexpr (!std::is_same_v<T, bool>) {
      MatMulKernel<T>(a, b, transpose_a, transpose_b, &out);
    }
  });
  TF_RETURN_IF_ERROR(status);
  return out;
}

void SetNumThreads(int n) {
  // The driver above and the other kernels that split their work read
  // Eigen's setting (intra_op.h); Eigen's own GEMM, which the products it
  // does not take still reach, parallelises with OpenMP. Both settings
  // must agree.
  omp_set_num_threads(n < 1 ? 1 : n);
  Eigen::setNbThreads(n < 1 ? 1 : n);
}

int GetNumThreads() { return Eigen::nbThreads(); }

}  // namespace minitf::kernels
