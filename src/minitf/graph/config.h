// ConfigProto and SessionOptions: how a session is asked to behave.
//
// TensorFlow 1.x passes a session its configuration as a protocol buffer,
// tf.ConfigProto, and a target ("" for this process, "grpc://host:port" for a
// server). Here they are plain structs whose fields keep TensorFlow's names
// and order, so C++20 designated initializers read like Python keywords. This
// chapter only stores them and hands them to the session; what the device
// options mean (soft placement, the placement log, GPU memory) is chapter 4's.
// Three fields are minitf's own (GPUOptions::virtual_gpus, their memory
// limit and emulate_gpu_kernels): they ask for virtual GPUs on machines
// without one, and say which kernels those run. RunOptions,
// TensorFlow's per-run options (a trace, a timeout), is here too, as it is
// in TensorFlow's config.proto.
//
//   tf::Session sess(tf::ConfigProto{.allow_soft_placement = true,
//                                    .log_device_placement = true});
//   tf::SessionOptions options{.target = "grpc://localhost:2222"};
//   options.config.device_count["GPU"] = 0;
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace minitf {

/// tf.GPUOptions: how a session may use the GPUs it sees (chapter 5).
struct GPUOptions {
  /// Comma-separated GPU ids this process may use, e.g. "0,1"; "" means all.
  std::string visible_device_list = "";
  /// Grow the GPU memory pool on demand rather than taking it all at start.
  bool allow_growth = false;
  /// The share of each GPU's memory to take, in (0, 1]; 0 means the default.
  double per_process_gpu_memory_fraction = 0.0;
  /// minitf's own, not TensorFlow's: how many virtual GPUs to create, for
  /// machines without one (chapter 4). A virtual GPU is a device of type
  /// "GPU" with a memory space of its own, carved from CPU memory and
  /// reached only through explicit copies, that runs the CPU kernels. 0
  /// means: as many as the environment variable MINITF_VIRTUAL_GPUS says
  /// (none when it is unset). visible_device_list, CUDA_VISIBLE_DEVICES and
  /// device_count["GPU"] select among them as among real GPUs.
  int virtual_gpus = 0;
  /// The memory limit of each virtual GPU in MiB; 0 means the default
  /// (1024 MiB). An allocation past it fails as an out-of-memory GPU does.
  int64_t virtual_gpu_memory_limit_mb = 0;
  /// minitf's own: run the kernels of virtual GPUs as chapter 5's CUDA
  /// kernels on its CPU emulator of CUDA ("emulated GPUs"), instead of
  /// chapter 4's CPU kernels; the environment variable
  /// MINITF_EMULATE_GPU_KERNELS=1 does the same. Needs chapter 5's layer.
  bool emulate_gpu_kernels = false;
};

/// tf.RewriterConfig: which of the session's graph rewrites
/// (graph_rewrite.h) run. Of TensorFlow's many toggles, the one of the
/// rewrite this engine has.
struct RewriterConfig {
  enum Toggle { DEFAULT = 0, ON = 1, OFF = 2 };
  /// The remapper: MatMul -> BiasAdd [-> Relu] as one _FusedMatMul node.
  /// DEFAULT is on, as in TensorFlow.
  Toggle remapping = DEFAULT;
};

/// tf.GraphOptions: how a session treats the graph before it runs it.
struct GraphOptions {
  RewriterConfig rewrite_options = {};
};

/// tf.ConfigProto. Fields are in TensorFlow's order, so that designated
/// initializers (which must follow declaration order) compile; every field
/// has an initializer, so that leaving some out draws no compiler warning.
struct ConfigProto {
  /// Place an op on a device that has a kernel for it when the requested
  /// device has none or does not exist (chapter 4).
  bool allow_soft_placement = false;
  /// Print the device each node was placed on when a graph is first run.
  bool log_device_placement = false;
  /// The most devices of each type to create: {{"GPU", 0}} hides the GPUs.
  std::map<std::string, int> device_count = {};
  /// Threads for work inside one op, and for running independent ops at
  /// once; 0 lets the runtime choose. The local executor of this chapter
  /// runs one op at a time and ignores both.
  int intra_op_parallelism_threads = 0;
  int inter_op_parallelism_threads = 0;
  /// The devices a session on a cluster may use, as device specs
  /// ("/job:ps", "/job:worker/task:1"): its master waits for, and places
  /// on, only the tasks and devices one of them matches (chapter 7). Empty:
  /// every task of the cluster. A session in this process ignores them.
  std::vector<std::string> device_filters = {};
  GPUOptions gpu_options = {};
  GraphOptions graph_options = {};
  /// The deadline, in milliseconds, of an op that blocks until other ops
  /// arrive (chapter 6's NCCL all-reduce waits for its other participants):
  /// past it the op fails with DeadlineExceeded. 0 lets each such op use its
  /// own default. TensorFlow also makes it the default of
  /// RunOptions::timeout_in_ms; minitf's steps keep that option alone.
  int64_t operation_timeout_in_ms = 0;
};

/// tf.RunOptions: how one run should behave. Fields in TensorFlow's order.
struct RunOptions {
  enum TraceLevel {
    NO_TRACE = 0,
    SOFTWARE_TRACE = 1,
    HARDWARE_TRACE = 2,
    FULL_TRACE = 3,
  };
  /// What to record in RunMetadata::step_stats (run_metadata.h). Chapter
  /// 4's session times every node at any level above NO_TRACE; chapter 2's
  /// session records nothing.
  TraceLevel trace_level = NO_TRACE;
  /// Give up on a run that takes longer, with DeadlineExceeded; 0 waits for
  /// ever.
  int64_t timeout_in_ms = 0;
  /// Return the graph each device ran in RunMetadata::partition_graphs.
  bool output_partition_graphs = false;
};

/// tensorflow::SessionOptions: where the session runs and how.
struct SessionOptions {
  /// "" for a session in this process; "grpc://host:port" for a server
  /// (chapter 7). Picks the session factory (session.h).
  std::string target = "";
  ConfigProto config = {};
};

}  // namespace minitf
