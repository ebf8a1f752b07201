// The public API of layer 4 (devices), as included by <minitf/minitf.h>.
//
// Chapter 4 is being written; so far this layer holds the foundations of
// placement: DeviceSpec, which parses, prints and merges device names and
// makes nested tf::device_scope blocks merge field by field; the devices
// themselves (the CPU's ThreadPoolDevice and virtual GPUs), each with an
// allocator that counts and caps its memory and a DeviceContext for copies
// between memories; the device factories that create them from a
// ConfigProto; DeviceMgr and DeviceSet, the views a session and a placer
// take of them; tf::device_lib::list_local_devices(); and the placer, which
// assigns every node a device through colocation groups, with
// log_device_placement's lines and soft placement. On top of them, the
// DirectSession that `tf::Session` now is: it cuts a placed graph into one
// graph per device joined by _Send/_Recv pairs that meet in a rendezvous,
// runs the parts at once with parallel executors, and traces a run for a
// Chrome-trace timeline.
//
//   std::cout << tf::device_lib::list_local_devices(
//       tf::ConfigProto{.gpu_options = {.virtual_gpus = 2}});
//   { tf::device_scope on_worker("/job:worker");
//     tf::device_scope on_gpu("/gpu:0");
//     auto c = tf::matmul(a, b); }    // device "/job:worker/device:GPU:0"
//   tf::DeviceSpec::from_string("/gpu:x");   // throws InvalidArgumentError
#pragma once

#include "minitf/device/async_op_kernel.h"
#include "minitf/device/device.h"
#include "minitf/device/device_allocator.h"
#include "minitf/device/device_attributes.h"
#include "minitf/device/device_context.h"
#include "minitf/device/device_factory.h"
#include "minitf/device/device_lib.h"
#include "minitf/device/device_mgr.h"
#include "minitf/device/device_set.h"
#include "minitf/device/device_spec.h"
#include "minitf/device/direct_session.h"
#include "minitf/device/gpu_visibility.h"
#include "minitf/device/graph_partition.h"
#include "minitf/device/intra_process_rendezvous.h"
#include "minitf/device/parallel_executor.h"
#include "minitf/device/placer.h"
#include "minitf/device/rendezvous.h"
#include "minitf/device/sendrecv_ops.h"
#include "minitf/device/step_stats_collector.h"
#include "minitf/device/subgraph.h"
#include "minitf/device/threadpool_device.h"
#include "minitf/device/timeline.h"
#include "minitf/device/tracking_allocator.h"
#include "minitf/device/virtual_gpu_device.h"
