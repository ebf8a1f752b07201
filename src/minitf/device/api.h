// The public API of layer 4 (devices), as included by <minitf/minitf.h>.
//
// Where a graph runs. The layer keeps its pieces in rooms by role:
//   devices/    the devices (the CPU's ThreadPoolDevice, virtual GPUs),
//               their factories, DeviceMgr and DeviceSet, device_lib;
//   memory/     the allocator that owns a device's memory and the one that
//               counts and caps it;
//   placement/  DeviceSpec (device names, and the field-by-field merge of
//               nested tf::device_scope blocks) and the placer with its
//               colocation groups, log_device_placement and soft placement;
//   partition/  the cut of a placed graph into one graph per device, joined
//               by _Send/_Recv pairs that meet in a rendezvous;
//   executor/   the parallel executor that runs each part, and asynchronous
//               kernels;
//   session/    the DirectSession that `tf::Session` is from this layer on:
//               the client graph of a run, its optimized graph, and a
//               traced run's step stats and Chrome-trace timeline.
//
//   std::cout << tf::device_lib::list_local_devices(
//       tf::ConfigProto{.gpu_options = {.virtual_gpus = 2}});
//   { tf::device_scope on_worker("/job:worker");
//     tf::device_scope on_gpu("/gpu:0");
//     auto c = tf::matmul(a, b); }    // device "/job:worker/device:GPU:0"
//   tf::DeviceSpec::from_string("/gpu:x");   // throws InvalidArgumentError
#pragma once

#include "minitf/device/devices/device.h"
#include "minitf/device/devices/device_attributes.h"
#include "minitf/device/devices/device_context.h"
#include "minitf/device/devices/device_factory.h"
#include "minitf/device/devices/device_lib.h"
#include "minitf/device/devices/device_mgr.h"
#include "minitf/device/devices/device_set.h"
#include "minitf/device/devices/gpu_visibility.h"
#include "minitf/device/devices/threadpool_device.h"
#include "minitf/device/devices/virtual_gpu_device.h"
#include "minitf/device/executor/async_op_kernel.h"
#include "minitf/device/executor/parallel_executor.h"
#include "minitf/device/memory/device_allocator.h"
#include "minitf/device/memory/tracking_allocator.h"
#include "minitf/device/partition/graph_partition.h"
#include "minitf/device/partition/intra_process_rendezvous.h"
#include "minitf/device/partition/rendezvous.h"
#include "minitf/device/partition/sendrecv_ops.h"
#include "minitf/device/placement/device_spec.h"
#include "minitf/device/placement/placer.h"
#include "minitf/device/session/direct_session.h"
#include "minitf/device/session/step_stats_collector.h"
#include "minitf/device/session/subgraph.h"
#include "minitf/device/session/timeline.h"
