// Tensor: a typed, shaped, reference-counted array.
//
// A Tensor is three things: a dtype, a fully defined shape, and a shared
// Buffer holding NumElements() values in row-major order. Copying a Tensor
// copies a pointer, not the data: both copies see the same bytes (that is how
// reshape, feeds and fetches stay cheap). DeepCopy() makes independent bytes.
// Kernels read and write the data through Eigen maps (flat<T>(), matrix<T>()),
// so the arithmetic is Eigen's vectorised code over minitf's buffers.
//
//   tf::Tensor a({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});   // float32, shape [2,3]
//   tf::Tensor b = a;                   // shares a's buffer
//   tf::Tensor c = a.DeepCopy();        // its own buffer
//   a.flat<float>()(0) = 10.f;          // b sees 10, c still 1
//   std::cout << a;                     // [[10.  2.  3.]\n [ 4.  5.  6.]]
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "minitf/tensor/allocator.h"
#include "minitf/tensor/dtype.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor_shape.h"

namespace minitf {

// --8<-- [start:buffer]
/// A block of bytes from an Allocator, freed when the last Tensor that
/// refers to it goes away. Immutable in size; its bytes are mutable.
class Buffer {
  struct InlineData {};  // A key that only Create() can name.

 public:
  /// Allocates `num_bytes` on its own; on failure data() is null.
  Buffer(Allocator* allocator, size_t num_bytes);
  /// A shared buffer of `num_bytes`, or nullptr when out of memory. When the
  /// CPU can address the allocator's memory, the shared pointer's reference
  /// counts, this object and the data all live in one block from it: one
  /// allocation per tensor instead of three.
  static std::shared_ptr<Buffer> Create(Allocator* allocator, size_t num_bytes);
  /// For Create() only: a buffer over `data`, which lies in the block that
  /// holds this object and is freed with it.
  Buffer(InlineData, Allocator* allocator, void* data, size_t num_bytes)
      : allocator_(allocator),
        data_(data),
        size_(num_bytes),
        owns_data_(false) {}
  ~Buffer() {
    if (owns_data_ && data_ != nullptr) allocator_->DeallocateRaw(data_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const { return data_; }
  size_t size() const { return size_; }
  Allocator* allocator() const { return allocator_; }

 private:
  Allocator* const allocator_;
  void* const data_;
  const size_t size_;
  const bool owns_data_;  // false when data_ shares this object's block
};
// --8<-- [end:buffer]

/// Invariants: an initialized tensor has a valid dtype, a fully defined shape
/// and a buffer of exactly NumElements() * DataTypeSize(dtype) bytes. A
/// default-constructed tensor is uninitialized (dtype DT_INVALID, no buffer).
///
/// Thread safety: const methods are safe from many threads; writing the same
/// buffer from two threads at once is the caller's race to avoid.
class Tensor {
 public:
  /// An uninitialized tensor; IsInitialized() is false.
  Tensor() = default;

  /// A tensor of the given dtype and shape from the calling thread's default
  /// allocator (allocator.h): CPU memory, unless a ScopedDefaultAllocator
  /// says otherwise. Its values are not initialized, as in TensorFlow:
  /// kernels write every element.
  /// REQUIRES: a valid dtype, a fully defined, validated shape, and memory
  /// to spare: a refused allocation aborts. For sizes from a user, and in a
  /// kernel, whose device's memory may be full, use Allocate(), which checks
  /// and returns a Status.
  Tensor(DType dtype, const TensorShape& shape);
  Tensor(Allocator* allocator, DType dtype, const TensorShape& shape);

  /// Checks `dtype` and `shape` and allocates from `allocator`, by default
  /// the calling thread's default allocator; the error names what was
  /// wrong. When the allocator refuses, ResourceExhausted: "OOM when
  /// allocating tensor with shape[2,3] and type float on <allocator name>".
  static StatusOr<Tensor> Allocate(DType dtype, const TensorShape& shape,
                                   Allocator* allocator = DefaultAllocator());

  // --8<-- [start:literals]
  /// The literal constructors take their bytes from the default allocator,
  /// as Tensor(dtype, shape) does, and abort as it does when it is full.
  /// A scalar: tf::Tensor(3.f) is a float32 tensor of shape [].
  template <TensorElement T>
  Tensor(T value);  // NOLINT: implicit, so a scalar can be fed where a tensor
                    // is expected.

  /// Nested lists, as tf.constant([[1., 2.], [3., 4.]]): the nesting gives the
  /// shape and the element type the dtype. Rows of different lengths throw
  /// InvalidArgumentError naming the ragged row.
  template <TensorElement T>
  Tensor(std::initializer_list<T> values);
  template <TensorElement T>
  Tensor(std::initializer_list<std::initializer_list<T>> values);
  template <TensorElement T>
  Tensor(std::initializer_list<std::initializer_list<std::initializer_list<T>>>
             values);
  template <TensorElement T>
  Tensor(std::initializer_list<
         std::initializer_list<std::initializer_list<std::initializer_list<T>>>>
             values);

  /// TensorFlow's tf.constant(value, shape=...) rules for a flat list: one
  /// value fills the whole shape; exactly num_elements values are laid out in
  /// row-major order; any other count is InvalidArgument naming both sizes.
  template <TensorElement T>
  static StatusOr<Tensor> FromVector(const std::vector<T>& values,
                                     const TensorShape& shape);
  // --8<-- [end:literals]

  bool IsInitialized() const { return buffer_ != nullptr; }
  DType dtype() const { return dtype_; }
  const TensorShape& shape() const { return shape_; }
  int dims() const { return shape_.dims(); }
  int64_t dim_size(int i) const { return shape_.dim_size(i); }
  int64_t NumElements() const { return num_elements_; }
  size_t TotalBytes() const { return buffer_ ? buffer_->size() : 0; }
  /// The allocator that owns the buffer (nullptr when uninitialized).
  Allocator* allocator() const {
    return buffer_ ? buffer_->allocator() : nullptr;
  }

  /// True when both tensors view the same bytes.
  bool SharesBufferWith(const Tensor& other) const {
    return buffer_ != nullptr && buffer_ == other.buffer_;
  }
  /// How many tensors view this one's buffer (0 when uninitialized). Exact
  /// only when the caller rules out other threads copying those tensors, as
  /// a variable's kernels do under its lock before updating it in place.
  int64_t BufferRefCount() const { return buffer_ ? buffer_.use_count() : 0; }
  /// A tensor with its own copy of the bytes.
  Tensor DeepCopy() const;
  /// The same bytes under another shape with the same number of elements
  /// (O(1): this is what tf.reshape does). InvalidArgument otherwise.
  StatusOr<Tensor> Reshaped(const TensorShape& shape) const;

  /// Raw element access. REQUIRES: IsInitialized(), dtype() matches T and the
  /// buffer is host accessible; a mismatch is minitf's bug and aborts.
  template <TensorElement T>
  T* data() {
    CheckAccess(DataTypeToEnum<T>::value);
    return static_cast<T*>(buffer_->data());
  }
  template <TensorElement T>
  const T* data() const {
    CheckAccess(DataTypeToEnum<T>::value);
    return static_cast<const T*>(buffer_->data());
  }

  /// The buffer's TotalBytes() bytes, untyped, as TensorFlow's
  /// tensor_data(): for code that moves bytes without reading them as
  /// elements, such as copies between devices. REQUIRES: IsInitialized()
  /// and a host-accessible buffer.
  void* raw_data() {
    CheckRawAccess();
    return buffer_->data();
  }
  const void* raw_data() const {
    CheckRawAccess();
    return buffer_->data();
  }

  /// The buffer's address in whatever memory its allocator manages, the
  /// host's or a device's (TensorFlow's DMAHelper::base): what a GPU kernel
  /// or a copy engine is handed. The CPU may read through it only where the
  /// allocator is HostAccessible(). REQUIRES: IsInitialized().
  void* device_data() {
    MINITF_CHECK(IsInitialized());
    return buffer_->data();
  }
  const void* device_data() const {
    MINITF_CHECK(IsInitialized());
    return buffer_->data();
  }

  // --8<-- [start:eigen_views]
  /// Every element as a 1-D Eigen array (row-major order), for elementwise
  /// kernels: out.flat<float>() = x.flat<float>().exp();
  template <TensorElement T>
  using FlatMap =
      Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>, Eigen::Aligned64>;
  template <TensorElement T>
  using ConstFlatMap =
      Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>, Eigen::Aligned64>;
  template <TensorElement T>
  FlatMap<T> flat() {
    return FlatMap<T>(data<T>(), NumElements());
  }
  template <TensorElement T>
  ConstFlatMap<T> flat() const {
    return ConstFlatMap<T>(data<T>(), NumElements());
  }

  /// A rank-2 tensor as a row-major Eigen matrix, for matmul.
  template <TensorElement T>
  using MatrixMap = Eigen::Map<
      Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>,
      Eigen::Aligned64>;
  template <TensorElement T>
  using ConstMatrixMap = Eigen::Map<
      const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>,
      Eigen::Aligned64>;
  /// REQUIRES: dims() == 2.
  template <TensorElement T>
  MatrixMap<T> matrix() {
    CheckRank(2);
    return MatrixMap<T>(data<T>(), dim_size(0), dim_size(1));
  }
  template <TensorElement T>
  ConstMatrixMap<T> matrix() const {
    CheckRank(2);
    return ConstMatrixMap<T>(data<T>(), dim_size(0), dim_size(1));
  }
  // --8<-- [end:eigen_views]

  /// The single value of a one-element tensor. REQUIRES: NumElements() == 1.
  template <TensorElement T>
  T& scalar() {
    MINITF_CHECK(NumElements() == 1);
    return *data<T>();
  }
  template <TensorElement T>
  const T& scalar() const {
    MINITF_CHECK(NumElements() == 1);
    return *data<T>();
  }

  /// A copy of the elements in row-major order; handy in tests.
  template <TensorElement T>
  std::vector<T> ToVector() const {
    const T* p = data<T>();
    return std::vector<T>(p, p + NumElements());
  }

  /// The values as NumPy prints them (and so TensorFlow's sess.run results):
  /// "[[22. 28.]\n [49. 64.]]". Also what operator<< writes.
  std::string ToString() const;
  /// "Tensor<type: float shape: [2,2] values: [[22. 28.]...]>", for logs.
  std::string DebugString() const;

 private:
  void CheckAccess(DType requested) const;
  void CheckRawAccess() const;
  void CheckRank(int rank) const { MINITF_CHECK(dims() == rank); }
  template <TensorElement T>
  static Tensor FromNested(const std::vector<T>& flat,
                           std::vector<int64_t> dims);

  DType dtype_ = DT_INVALID;
  TensorShape shape_;
  int64_t num_elements_ = 0;
  std::shared_ptr<Buffer> buffer_;
};

std::ostream& operator<<(std::ostream& os, const Tensor& tensor);

// ---------------------------------------------------------------------------
// Implementation of the templated constructors.

namespace internal {

// Appends the values of a nested initializer list to `flat` and records the
// size of each nesting level in `dims`; a row whose length differs from the
// first row's at the same level is reported in `error`.
template <typename T>
void Flatten(const T& value, int /*level*/, std::vector<T>* flat,
             std::vector<int64_t>*, std::string*) {
  flat->push_back(value);
}
template <typename T, typename U>
void Flatten(const std::initializer_list<U>& list, int level,
             std::vector<T>* flat, std::vector<int64_t>* dims,
             std::string* error) {
  const auto n = static_cast<int64_t>(list.size());
  if (static_cast<int>(dims->size()) <= level) {
    dims->push_back(n);
  } else if ((*dims)[level] != n && error->empty()) {
    *error = StrCat(
        "Can't convert a non-rectangular nested list to a Tensor: a list at "
        "depth ",
        level, " has ", n, " elements where the first has ", (*dims)[level]);
  }
  for (const U& item : list) Flatten<T>(item, level + 1, flat, dims, error);
}

}  // namespace internal

template <TensorElement T>
Tensor::Tensor(T value) : Tensor(DataTypeToEnum<T>::value, TensorShape()) {
  *data<T>() = value;
}

template <TensorElement T>
Tensor Tensor::FromNested(const std::vector<T>& flat,
                          std::vector<int64_t> dims) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape(std::move(dims)));
  std::copy(flat.begin(), flat.end(), t.data<T>());
  return t;
}

#define MINITF_NESTED_CONSTRUCTOR(ListType, depth)                       \
  template <TensorElement T>                                             \
  Tensor::Tensor(ListType values) {                                      \
    std::vector<T> flat;                                                 \
    std::vector<int64_t> dims;                                           \
    std::string error;                                                   \
    internal::Flatten<T>(values, 0, &flat, &dims, &error);               \
    if (!error.empty()) throw errors::InvalidArgumentError(error);       \
    dims.resize(depth, 0); /* an empty inner list has no deeper level */ \
    *this = FromNested<T>(flat, std::move(dims));                        \
  }
MINITF_NESTED_CONSTRUCTOR(std::initializer_list<T>, 1)
MINITF_NESTED_CONSTRUCTOR(std::initializer_list<std::initializer_list<T>>, 2)
MINITF_NESTED_CONSTRUCTOR(
    std::initializer_list<std::initializer_list<std::initializer_list<T>>>, 3)
MINITF_NESTED_CONSTRUCTOR(
    std::initializer_list<
        std::initializer_list<std::initializer_list<std::initializer_list<T>>>>,
    4)
#undef MINITF_NESTED_CONSTRUCTOR

template <TensorElement T>
StatusOr<Tensor> Tensor::FromVector(const std::vector<T>& values,
                                    const TensorShape& shape) {
  TF_ASSIGN_OR_RETURN(Tensor t, Allocate(DataTypeToEnum<T>::value, shape));
  const auto n = static_cast<int64_t>(values.size());
  if (n == 1) {
    std::fill_n(t.data<T>(), t.NumElements(), values[0]);
  } else if (n == t.NumElements()) {
    std::copy(values.begin(), values.end(), t.data<T>());
  } else if (n > t.NumElements()) {
    return errors::InvalidArgument(
        "Too many elements provided. Needed at most ", t.NumElements(),
        ", but received ", n);
  } else {
    return errors::InvalidArgument(
        "Too few elements provided for shape ", shape, ". Needed ",
        t.NumElements(), " (or a single value to fill it), but received ", n);
  }
  return t;
}

}  // namespace minitf
