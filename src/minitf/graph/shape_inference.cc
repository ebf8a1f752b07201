#include "minitf/graph/shape_inference.h"

#include <algorithm>

namespace minitf {

InferenceContext::InferenceContext(const AttrMap* attrs,
                                   std::vector<TensorShape> inputs,
                                   std::vector<DType> input_types,
                                   std::vector<const Tensor*> input_tensors,
                                   int num_outputs)
    : attrs_(attrs),
      inputs_(std::move(inputs)),
      input_types_(std::move(input_types)),
      input_tensors_(std::move(input_tensors)),
      outputs_(num_outputs, TensorShape::UnknownRank()) {}

Status InferenceContext::WithRank(const TensorShape& shape, int rank,
                                  TensorShape* out) {
  if (shape.unknown_rank()) {
    *out = TensorShape(std::vector<int64_t>(rank, None));
    return Status::OK();
  }
  if (shape.dims() != rank) {
    return errors::InvalidArgument("Shape must be rank ", rank, " but is rank ",
                                   shape.dims());
  }
  *out = shape;
  return Status::OK();
}

Status InferenceContext::WithRankAtMost(const TensorShape& shape, int rank) {
  if (!shape.unknown_rank() && shape.dims() > rank) {
    return errors::InvalidArgument("Shape must be at most rank ", rank,
                                   " but is rank ", shape.dims());
  }
  return Status::OK();
}

Status InferenceContext::WithRankAtLeast(const TensorShape& shape, int rank) {
  if (!shape.unknown_rank() && shape.dims() < rank) {
    return errors::InvalidArgument("Shape must be at least rank ", rank,
                                   " but is rank ", shape.dims());
  }
  return Status::OK();
}

Status InferenceContext::Merge(int64_t a, int64_t b, int64_t* out) {
  if (a >= 0 && b >= 0 && a != b) {
    return errors::InvalidArgument("Dimensions must be equal, but are ", a,
                                   " and ", b);
  }
  *out = a >= 0 ? a : b;
  return Status::OK();
}

Status InferenceContext::MergeShapes(const TensorShape& a, const TensorShape& b,
                                     TensorShape* out) {
  if (a.unknown_rank()) {
    *out = b;
    return Status::OK();
  }
  if (b.unknown_rank()) {
    *out = a;
    return Status::OK();
  }
  if (a.dims() != b.dims()) {
    return errors::InvalidArgument("Shapes must be equal rank, but are ",
                                   a.dims(), " and ", b.dims());
  }
  std::vector<int64_t> dims(a.dims());
  for (int i = 0; i < a.dims(); ++i) {
    if (!Merge(a.dim_size(i), b.dim_size(i), &dims[i]).ok()) {
      return errors::InvalidArgument(
          "Dimension ", i, " in both shapes must be equal, but are ",
          a.dim_size(i), " and ", b.dim_size(i), ". Shapes are ",
          ShapeErrorString(a), " and ", ShapeErrorString(b), ".");
    }
  }
  *out = TensorShape(std::move(dims));
  return Status::OK();
}

// --8<-- [start:broadcast_shapes]
Status InferenceContext::BroadcastShapes(const TensorShape& a,
                                         const TensorShape& b,
                                         TensorShape* out) {
  if (a.unknown_rank() || b.unknown_rank()) {
    *out = TensorShape::UnknownRank();
    return Status::OK();
  }
  // Align from the right; a missing dimension counts as 1.
  const int rank = std::max(a.dims(), b.dims());
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    const int ia = a.dims() - rank + i;
    const int ib = b.dims() - rank + i;
    const int64_t da = ia >= 0 ? a.dim_size(ia) : 1;
    const int64_t db = ib >= 0 ? b.dim_size(ib) : 1;
    if (da == 1) {
      dims[i] = db;
    } else if (db == 1) {
      dims[i] = da;
    } else if (da == None || db == None) {
      // One unknown, the other known and not 1: the known one must win
      // (the unknown one can only be 1 or equal); two unknowns stay unknown.
      dims[i] = da == None ? db : da;
    } else if (da != db) {
      return errors::InvalidArgument("Dimensions must be equal, but are ", da,
                                     " and ", db);
    } else {
      dims[i] = da;
    }
  }
  *out = TensorShape(std::move(dims));
  return Status::OK();
}
// --8<-- [end:broadcast_shapes]

Status InferenceContext::MakeShapeFromInput(int input, TensorShape* out) const {
  const Tensor* t = input_tensor(input);
  if (t == nullptr) {
    // Unknown values; a known length still gives the rank.
    const TensorShape& s = inputs_[input];
    if (!s.unknown_rank() && s.dims() == 1 && s.dim_size(0) >= 0) {
      *out = TensorShape(std::vector<int64_t>(s.dim_size(0), None));
    } else {
      *out = TensorShape::UnknownRank();
    }
    return Status::OK();
  }
  if (t->dims() > 1) {
    return errors::InvalidArgument("Shape must be at most rank 1 but is rank ",
                                   t->dims());
  }
  std::vector<int64_t> dims;
  if (t->dtype() == DT_INT32) {
    for (int32_t d : t->ToVector<int32_t>()) dims.push_back(d);
  } else if (t->dtype() == DT_INT64) {
    dims = t->ToVector<int64_t>();
  } else {
    return errors::InvalidArgument(
        "Input ", input, " must be int32 or int64 to give a shape, not ",
        DataTypeString(t->dtype()));
  }
  for (int64_t& d : dims) {
    if (d < -1) {
      return errors::InvalidArgument("Dimension ", d, " must be >= -1");
    }
  }
  *out = TensorShape(std::move(dims));
  return Status::OK();
}

namespace shape_fns {

Status UnchangedShape(InferenceContext* c) {
  c->set_output(0, c->input(0));
  return Status::OK();
}

Status BroadcastBinaryOp(InferenceContext* c) {
  TensorShape out;
  TF_RETURN_IF_ERROR(
      InferenceContext::BroadcastShapes(c->input(0), c->input(1), &out));
  c->set_output(0, std::move(out));
  return Status::OK();
}

Status UnknownShape(InferenceContext* c) {
  for (int i = 0; i < c->num_outputs(); ++i) {
    c->set_output(i, TensorShape::UnknownRank());
  }
  return Status::OK();
}

Status ScalarShape(InferenceContext* c) {
  c->set_output(0, TensorShape({}));
  return Status::OK();
}

Status NoOutputs(InferenceContext*) { return Status::OK(); }

}  // namespace shape_fns

StatusOr<std::vector<int64_t>> IndexValues(const Tensor& t) {
  if (t.dims() > 1) {
    return errors::InvalidArgument("Shape must be at most rank 1 but is rank ",
                                   t.dims());
  }
  if (t.dtype() == DT_INT32) {
    std::vector<int64_t> out;
    for (int32_t v : t.ToVector<int32_t>()) out.push_back(v);
    return out;
  }
  if (t.dtype() == DT_INT64) return t.ToVector<int64_t>();
  return errors::InvalidArgument(
      "Expected an int32 or int64 index tensor, not ",
      DataTypePythonName(t.dtype()));
}

std::string ShapeErrorString(const TensorShape& shape) {
  return shape.unknown_rank() ? "?" : shape.DebugString();
}

}  // namespace minitf
