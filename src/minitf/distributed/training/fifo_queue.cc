#include "minitf/distributed/training/fifo_queue.h"

#include <cstring>
#include <limits>
#include <utility>

#include "minitf/device/executor/async_op_kernel.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/op_def.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/resource_op_kernel.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

// TensorFlow's ops (tensorflow/core/ops/data_flow_ops.cc), one component
// per element (see the header).
MINITF_REGISTER_OP("FIFOQueueV2")
    .Output("handle: Ref(int32)")
    .Attr("component_types: list(type)")
    .Attr("shapes: list(shape)")
    .Attr("capacity: int = -1")
    .Attr("container: string = \"\"")
    .Attr("shared_name: string = \"\"")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, TensorShape({}));
      return Status::OK();
    });

MINITF_REGISTER_OP("QueueEnqueueV2")
    .Input("handle: Ref(int32)")
    .Input("components: Tcomponents")
    .Attr("Tcomponents: type")
    .Attr("timeout_ms: int = -1")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

MINITF_REGISTER_OP("QueueEnqueueManyV2")
    .Input("handle: Ref(int32)")
    .Input("components: Tcomponents")
    .Attr("Tcomponents: type")
    .Attr("timeout_ms: int = -1")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

MINITF_REGISTER_OP("QueueDequeueV2")
    .Input("handle: Ref(int32)")
    .Output("components: component_types")
    .Attr("component_types: type")
    .Attr("timeout_ms: int = -1")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, TensorShape::UnknownRank());
      return Status::OK();
    });

MINITF_REGISTER_OP("QueueCloseV2")
    .Input("handle: Ref(int32)")
    .Attr("cancel_pending_enqueues: bool = false")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

MINITF_REGISTER_OP("QueueSizeV2")
    .Input("handle: Ref(int32)")
    .Output("size: int32")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, TensorShape({}));
      return Status::OK();
    });

// What a queue is, from its node's attrs: the Spec of ResourceOpKernel
// (resource_op_kernel.h), which writes the lookup and the kernels' bases.
struct QueueSpec {
  using Resource = FifoQueueResource;
  static constexpr const char* kOp = "FIFOQueueV2";
  static constexpr const char* kWhat = "queue";

  ResourcePlace place;
  DType dtype = DT_INVALID;
  TensorShape shape = TensorShape::UnknownRank();
  int32_t capacity = std::numeric_limits<int32_t>::max();

  static StatusOr<QueueSpec> FromAttrs(const AttrMap& attrs,
                                       ResourcePlace place) {
    QueueSpec spec;
    spec.place = std::move(place);
    TF_ASSIGN_OR_RETURN(auto types,
                        GetAttr<std::vector<DType>>(attrs, "component_types"));
    TF_ASSIGN_OR_RETURN(auto shapes,
                        GetAttr<std::vector<TensorShape>>(attrs, "shapes"));
    if (types.size() != 1 || shapes.size() > 1) {
      return errors::Unimplemented(
          "FIFOQueue '", spec.place.name,
          "': minitf's queues hold one component per element, not ",
          types.size());
    }
    spec.dtype = types[0];
    if (!shapes.empty()) spec.shape = shapes[0];
    TF_ASSIGN_OR_RETURN(int64_t capacity, GetAttr<int64_t>(attrs, "capacity"));
    // TensorFlow's rule: a negative capacity is the largest int32.
    if (capacity >= 0 && capacity < spec.capacity) {
      spec.capacity = static_cast<int32_t>(capacity);
    }
    return spec;
  }
  std::shared_ptr<FifoQueueResource> Create() const {
    return std::make_shared<FifoQueueResource>(place.name, dtype, shape,
                                               capacity);
  }
};

// FIFOQueueV2: a queue opened again by a node with the same shared_name
// must agree with it.
class FIFOQueueOp : public ResourceOpKernel<QueueSpec> {
 public:
  using ResourceOpKernel::ResourceOpKernel;

 protected:
  Status VerifyResource(const QueueSpec& spec,
                        const FifoQueueResource& queue) const override {
    return queue.MatchesSpec(spec.dtype, spec.shape, spec.capacity);
  }
};

// The base of enqueue and dequeue: both must check the op's element type
// against the queue's and find the queue before they use it, so that is
// done here, and each kernel's own part starts from a queue it may use.
class QueueAccessOp : public AsyncOpKernel, ResourceHandleOp<QueueSpec> {
 public:
  // `type_attr` names the attr that holds the op's element type;
  // `is_output` is true for an op that gives elements out.
  QueueAccessOp(const OpKernelConstruction& c, const char* type_attr,
                bool is_output)
      : AsyncOpKernel(c),
        ResourceHandleOp(c),
        type_(c.GetAttr<DType>(type_attr).value()),
        is_output_(is_output) {}
  void ComputeAsync(OpKernelContext* ctx, StatusCallback done) final {
    Status s = CheckSignature(type_, "int32_ref", is_output_);
    if (!s.ok()) return done(s);
    StatusOr<std::shared_ptr<FifoQueueResource>> queue = GetResource(ctx);
    if (!queue.ok()) return done(queue.status());
    ComputeOnQueue(ctx, queue->get(), std::move(done));
  }

 protected:
  virtual void ComputeOnQueue(OpKernelContext* ctx, FifoQueueResource* queue,
                              StatusCallback done) = 0;

 private:
  const DType type_;
  const bool is_output_;
};

template <bool kMany>
class EnqueueOp : public QueueAccessOp {
 public:
  explicit EnqueueOp(const OpKernelConstruction& c)
      : QueueAccessOp(c, "Tcomponents", /*is_output=*/false) {}

 protected:
  void ComputeOnQueue(OpKernelContext* ctx, FifoQueueResource* queue,
                      StatusCallback done) override {
    queue->Enqueue(ctx, ctx->input(1), kMany, std::move(done));
  }
};

// --8<-- [start:dequeue_kernel]
class DequeueOp : public QueueAccessOp {
 public:
  explicit DequeueOp(const OpKernelConstruction& c)
      : QueueAccessOp(c, "component_types", /*is_output=*/true) {}

 protected:
  void ComputeOnQueue(OpKernelContext* ctx, FifoQueueResource* queue,
                      StatusCallback done) override {
    // Returns at once; `done` runs when an element is here (from the
    // enqueuer's thread) or the queue is closed.
    queue->Dequeue(ctx, [ctx, done](const Status& st, const Tensor& t) {
      if (st.ok()) ctx->set_output(0, t);
      done(st);
    });
  }
};
// --8<-- [end:dequeue_kernel]

class CloseOp : public OpKernel, ResourceHandleOp<QueueSpec> {
 public:
  explicit CloseOp(const OpKernelConstruction& c)
      : OpKernel(c),
        ResourceHandleOp(c),
        cancel_(c.GetAttr<bool>("cancel_pending_enqueues").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(auto queue, GetResource(ctx));
    queue->Close(cancel_);
    return Status::OK();
  }

 private:
  const bool cancel_;
};

class SizeOp : public OpKernel, ResourceHandleOp<QueueSpec> {
 public:
  explicit SizeOp(const OpKernelConstruction& c)
      : OpKernel(c), ResourceHandleOp(c) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(auto queue, GetResource(ctx));
    ctx->set_output(0, Tensor(queue->Size()));
    return Status::OK();
  }
};

MINITF_REGISTER_KERNEL("FIFOQueueV2", DEVICE_CPU, FIFOQueueOp);
MINITF_REGISTER_KERNEL("QueueEnqueueV2", DEVICE_CPU, EnqueueOp<false>);
MINITF_REGISTER_KERNEL("QueueEnqueueManyV2", DEVICE_CPU, EnqueueOp<true>);
MINITF_REGISTER_KERNEL("QueueDequeueV2", DEVICE_CPU, DequeueOp);
MINITF_REGISTER_KERNEL("QueueCloseV2", DEVICE_CPU, CloseOp);
MINITF_REGISTER_KERNEL("QueueSizeV2", DEVICE_CPU, SizeOp);

// Row i of `batch` as a tensor of its own.
Tensor Row(const Tensor& batch, int64_t i) {
  std::vector<int64_t> dims(batch.shape().dim_sizes().begin() + 1,
                            batch.shape().dim_sizes().end());
  Tensor row(batch.dtype(), TensorShape(dims));
  const size_t bytes = row.TotalBytes();
  if (bytes > 0) {
    std::memcpy(row.raw_data(),
                static_cast<const char*>(batch.raw_data()) + i * bytes, bytes);
  }
  return row;
}

}  // namespace

std::string FifoQueueResource::DebugString() const {
  return "FIFOQueue '" + name_ + "'";
}

Status FifoQueueResource::MatchesSpec(DType dtype, const TensorShape& shape,
                                      int32_t capacity) const {
  if (capacity != capacity_) {
    return errors::InvalidArgument("Shared queue '", name_, "' has capacity ",
                                   capacity_, " but requested capacity was ",
                                   capacity);
  }
  if (dtype != dtype_) {
    return errors::InvalidArgument(
        "Shared queue '", name_, "' has component types ",
        DataTypeString(dtype_), " but requested component types were ",
        DataTypeString(dtype));
  }
  if (shape.unknown_rank() != shape_.unknown_rank() ||
      (!shape.unknown_rank() && shape != shape_)) {
    return errors::InvalidArgument(
        "Shared queue '", name_, "' has component shapes ",
        ShapeErrorString(shape_), " but requested component shapes were ",
        ShapeErrorString(shape));
  }
  return Status::OK();
}

Status FifoQueueResource::ClosedError(int64_t requested) const {
  return errors::OutOfRange("FIFOQueue '", name_,
                            "' is closed and has insufficient elements "
                            "(requested ",
                            requested, ", current size ", elements_.size(),
                            ")");
}

void FifoQueueResource::Enqueue(OpKernelContext* ctx, const Tensor& value,
                                bool many, StatusCallback done) {
  // Each element must have the queue's shape; a batch is [n] + that shape.
  std::vector<Tensor> items;
  bool shape_ok = true;
  if (many) {
    shape_ok = value.dims() >= 1;
    if (shape_ok) {
      std::vector<int64_t> row(value.shape().dim_sizes().begin() + 1,
                               value.shape().dim_sizes().end());
      shape_ok = shape_.IsCompatibleWith(TensorShape(row));
    }
  } else {
    shape_ok = shape_.IsCompatibleWith(value.shape());
  }
  if (!shape_ok) {
    std::string expected = ShapeErrorString(shape_);
    if (many && !shape_.unknown_rank()) {
      // [n] + the element's shape, as TensorFlow prints the expectation.
      std::vector<int64_t> dims = {value.dims() >= 1 ? value.dim_size(0) : -1};
      dims.insert(dims.end(), shape_.dim_sizes().begin(),
                  shape_.dim_sizes().end());
      expected = ShapeErrorString(TensorShape(dims));
    }
    return done(errors::InvalidArgument(
        "Shape mismatch in tuple component 0. Expected ", expected, ", got ",
        ShapeErrorString(value.shape())));
  }
  uint64_t id = 0;
  bool closed_now = false;
  if (many) {
    for (int64_t i = 0; i < value.dim_size(0); ++i) {
      items.push_back(Row(value, i));
    }
  } else {
    items.push_back(value);
  }
  auto [held_done, registered] = HoldDoneUntilRegistered(std::move(done));
  done = std::move(held_done);
  DeferredCalls calls;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) {
      calls.push_back(
          [done, s = errors::Cancelled("FIFOQueue '", name_, "' is closed.")] {
            done(s);
          });
      closed_now = true;
    } else {
      // The attempt appends what fits, and finishes once all is in.
      auto pending =
          std::make_shared<std::deque<Tensor>>(items.begin(), items.end());
      id = enqueuers_.Add(
          [this, pending, done](DeferredCalls* out) {
            while (!pending->empty() &&
                   elements_.size() < static_cast<size_t>(capacity_)) {
              elements_.push_back(std::move(pending->front()));
              pending->pop_front();
            }
            if (!pending->empty()) return false;
            out->push_back([done] { done(Status::OK()); });
            return true;
          },
          done);
      FlushLocked(&calls);
    }
  }
  RunDeferred(&calls);
  if (!closed_now) CancelOnAbort(ctx, &enqueuers_, id, "enqueue");
  registered();
}

// --8<-- [start:dequeue]
void FifoQueueResource::Dequeue(
    OpKernelContext* ctx,
    std::function<void(const Status&, const Tensor&)> done) {
  auto [held_done, registered] = HoldDoneUntilRegistered(std::move(done));
  done = std::move(held_done);
  DeferredCalls calls;
  uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = dequeuers_.Add(
        [this, done](DeferredCalls* out) {
          if (!elements_.empty()) {
            out->push_back([done, t = std::move(elements_.front())] {
              done(Status::OK(), t);
            });
            elements_.pop_front();
            return true;
          }
          if (!closed_) return false;  // wait for an enqueue or a close
          out->push_back([done, s = ClosedError(1)] { done(s, Tensor()); });
          return true;
        },
        [done](const Status& s) { done(s, Tensor()); });
    FlushLocked(&calls);
  }
  RunDeferred(&calls);
  CancelOnAbort(ctx, &dequeuers_, id, "dequeue");
  registered();
}
// --8<-- [end:dequeue]

void FifoQueueResource::FlushLocked(DeferredCalls* calls) {
  // A dequeue makes room for an enqueue, an enqueue brings an element for
  // a dequeue: go on until neither list moves.
  size_t before = 0;
  do {
    before = calls->size();
    dequeuers_.Run(calls);
    enqueuers_.Run(calls);
  } while (calls->size() != before);
}

void FifoQueueResource::CancelOnAbort(OpKernelContext* ctx, WaitList* list,
                                      uint64_t id, const std::string& what) {
  // Cancelled in TensorFlow's words ("Dequeue operation was cancelled").
  std::string text = what == "dequeue" ? "Dequeue" : "Enqueue";
  CancelWithStep(
      ctx, what + "/" + name_,
      [self = shared_from_this(), list, id,
       text = std::move(text)](const Status&) {
        DeferredCalls cancelled;
        {
          std::lock_guard<std::mutex> lock(self->mu_);
          list->Cancel(id, errors::Cancelled(text, " operation was cancelled"),
                       &cancelled);
        }
        RunDeferred(&cancelled);
      });
}

void FifoQueueResource::Close(bool cancel_pending_enqueues) {
  DeferredCalls calls;
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    if (cancel_pending_enqueues) {
      enqueuers_.CancelAll(
          errors::Cancelled("FIFOQueue '", name_, "' is closed."), &calls);
    }
    FlushLocked(&calls);
  }
  RunDeferred(&calls);
}

int32_t FifoQueueResource::Size() {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int32_t>(elements_.size());
}

// --8<-- [start:builder]
FIFOQueue::FIFOQueue(int64_t capacity, const std::vector<DType>& dtypes,
                     const std::vector<TensorShape>& shapes,
                     const std::string& shared_name, const std::string& name) {
  if (dtypes.size() != 1 || shapes.size() > 1) {
    errors::ThrowIfError(errors::Unimplemented(
        "FIFOQueue: minitf's queues hold one component per element"));
  }
  dtype_ = dtypes[0];
  handle_ = ops::AddOp(NodeBuilder("FIFOQueueV2", name)
                           .Attr("component_types", dtypes)
                           .Attr("shapes", shapes)
                           .Attr("capacity", capacity)
                           .Attr("shared_name", shared_name),
                       {});
  name_ = handle_.node()->name();
}
// --8<-- [end:builder]

Output FIFOQueue::Converted(Output x) const {
  if (x.dtype() != dtype_) {
    errors::ThrowIfError(errors::InvalidArgument(
        "Expected ", DataTypePythonName(dtype_), ", got ", x.name(),
        " of type ", DataTypePythonName(x.dtype()), " instead."));
  }
  return x;
}

Operation FIFOQueue::enqueue(Output x, const std::string& name) {
  x = Converted(x);
  return Operation(ops::AddNode(
      NodeBuilder("QueueEnqueueV2", name.empty() ? name_ + "_enqueue" : name)
          .Input(handle_)
          .Input(x)
          .Attr("Tcomponents", dtype_),
      {handle_, x}));
}

Operation FIFOQueue::enqueue_many(Output x, const std::string& name) {
  x = Converted(x);
  return Operation(
      ops::AddNode(NodeBuilder("QueueEnqueueManyV2",
                               name.empty() ? name_ + "_EnqueueMany" : name)
                       .Input(handle_)
                       .Input(x)
                       .Attr("Tcomponents", dtype_),
                   {handle_, x}));
}

Output FIFOQueue::dequeue(const std::string& name) {
  return ops::AddOp(
      NodeBuilder("QueueDequeueV2", name.empty() ? name_ + "_Dequeue" : name)
          .Input(handle_)
          .Attr("component_types", dtype_),
      {handle_});
}

Operation FIFOQueue::close(bool cancel_pending_enqueues,
                           const std::string& name) {
  return Operation(ops::AddNode(
      NodeBuilder("QueueCloseV2", name.empty() ? name_ + "_Close" : name)
          .Input(handle_)
          .Attr("cancel_pending_enqueues", cancel_pending_enqueues),
      {handle_}));
}

Output FIFOQueue::size(const std::string& name) {
  return ops::AddOp(
      NodeBuilder("QueueSizeV2", name.empty() ? name_ + "_Size" : name)
          .Input(handle_),
      {handle_});
}

}  // namespace minitf
