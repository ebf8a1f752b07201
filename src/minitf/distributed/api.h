// The public API of layer 7 (distribution over processes), as included by
// <minitf/minitf.h>.
//
// The cluster and its servers: tf::train::ClusterSpec, in its dense and
// sparse forms; the TF_CONFIG reader with TensorFlow's checks;
// tf::train::Server, a gRPC server per task with TensorFlow's master and
// worker services, speaking TensorFlow's messages (runtime/proto/), so that
// its wire format is TensorFlow's; tf::train::replica_device_setter, which
// puts a replicated model's variables on the ps tasks and the rest on the
// worker. Synchronous training: tf::ConditionalAccumulator, the FIFO queue
// and tf::train::QueueRunner, tf::train::SyncReplicasOptimizer. Surviving
// faults: tf::train::Coordinator, the SessionRunHook interface and
// tf::train::MonitoredTrainingSession with its hooks.
// The messages' generated headers are not part of this API: a program that
// speaks to a server directly includes them itself (see the tests).
//
// Its folders: runtime/ holds the master and the worker, which reach each
// other through WorkerInterface and a client through MasterInterface and
// name no transport; runtime/rpc/ is the gRPC transport behind those seams
// (the services, the remote worker and master, the server, the session on a
// grpc:// target, the tensor's wire coding); training/ is what synchronous
// and fault-tolerant training build on top.
//
//   tf::train::ClusterSpec cluster({{"ps", {"localhost:2222"}},
//                                   {"worker", {"localhost:2223",
//                                               "localhost:2224"}}});
//   tf::train::Server server(cluster, "ps", 0);
//   server.join();
//
//   // In a worker task: the variables on the ps job, the rest here.
//   tf::device_scope replicas(tf::train::replica_device_setter(
//       {.worker_device = "/job:worker/task:0", .cluster = cluster}));
#pragma once

#include "minitf/distributed/runtime/cluster_spec.h"
#include "minitf/distributed/runtime/server.h"
#include "minitf/distributed/runtime/tf_config.h"
#include "minitf/distributed/training/basic_session_run_hooks.h"
#include "minitf/distributed/training/conditional_accumulator.h"
#include "minitf/distributed/training/coordinator.h"
#include "minitf/distributed/training/fifo_queue.h"
#include "minitf/distributed/training/monitored_session.h"
#include "minitf/distributed/training/queue_runner.h"
#include "minitf/distributed/training/replica_device_setter.h"
#include "minitf/distributed/training/session_run_hook.h"
#include "minitf/distributed/training/sync_replicas_optimizer.h"
