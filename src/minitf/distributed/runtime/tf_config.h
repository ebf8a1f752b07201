// TF_CONFIG: a task's place in the cluster, from its environment.
//
// A cluster manager (Kubernetes, a launcher script) starts the same program
// once per task and tells each which one it is in the environment variable
// TF_CONFIG, a JSON object:
//
//   {"cluster": {"ps": ["localhost:2222"],
//                "worker": ["localhost:2223", "localhost:2224"]},
//    "task": {"type": "worker", "index": 1}}
//
// A job's tasks are a list or an object from task index to address (JSON
// keys are strings: {"1": "localhost:2224"}). TensorFlow reads it in
// TFConfigClusterResolver and checks it against the task types its training
// loops know (ValidateClusterSpec below); minitf reads it the same way.
//
//   std::optional<tf::train::TFConfig> c =
//   tf::train::TFConfigFromEnvironment(); if (c) tf::train::Server
//   server(c->cluster, c->task_type, c->task_index);
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "minitf/distributed/runtime/cluster_spec.h"

namespace minitf::train {

/// What TF_CONFIG says.
struct TFConfig {
  /// "cluster"; empty when absent.
  ClusterSpec cluster = {};
  /// "task"."type"; empty when absent (TensorFlow's None).
  std::string task_type = "";
  /// "task"."index"; absent when TF_CONFIG gives none.
  std::optional<int> task_index = std::nullopt;
  /// "rpc_layer": the protocol of the task's address; "grpc" when absent.
  std::string rpc_layer = "grpc";
};

/// Reads a TF_CONFIG value and checks it with ValidateClusterSpec (when it
/// names a task type). Throws InvalidArgumentError for JSON that does not
/// parse or does not have TF_CONFIG's shape, in TensorFlow's words where
/// TensorFlow has some: "The tasks for job 'worker' must be a list or a
/// dictionary from integers to strings.", "invalid literal for int() with
/// base 10: 'x'".
TFConfig ParseTFConfig(std::string_view json);

/// ParseTFConfig of the environment variable TF_CONFIG, or nullopt when it
/// is unset or empty.
std::optional<TFConfig> TFConfigFromEnvironment();

/// TensorFlow's check of a cluster for its distributed training loops
/// (multi_worker_util._validate_cluster_spec), with its ValueErrors as
/// InvalidArgumentError:
/// - every job is "chief", "worker", "evaluator" or "ps";
/// - task_type is one of them or empty, and is a job of the cluster
///   (except "evaluator", which may run outside it);
/// - "There must be at most one 'chief' job." (one task), and the same for
///   'evaluator';
/// - task_index is below the job's number of tasks.
void ValidateClusterSpec(const ClusterSpec& cluster,
                         const std::string& task_type, int task_index);

}  // namespace minitf::train
