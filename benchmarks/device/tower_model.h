// The model the chapter 4 benchmarks plan: towers of dense layers on
// virtual GPUs, scaled up to about 10,000 nodes.
//
// Each tower is 8 dense layers, each layer a variable (VariableV2, its
// initial value, its Assign and its read) and the math on it, with a
// gradient-descent update per variable; two towers in three are pinned to a
// virtual GPU, the third left to the placer, and their sum is pinned to the
// CPU. That gives the placer every kind of work it has (colocation groups
// by reference edges and by `_class`, device requests, unconstrained ops,
// generators for the second pass), and the partitioner a cut per tower.
//
//   tf::Graph graph;
//   std::vector<tf::Operation> train_ops;
//   tf::Output loss = tf::bench::BuildTowerModel(&graph, 2, &train_ops);
#pragma once

#include <string>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/variables.h"

namespace minitf::bench {

inline constexpr int kTowerModelNodes = 10000;

// --8<-- [start:graph]
// Adds towers until the graph has at least kTowerModelNodes nodes: on GPU:0,
// on GPU:1 ... on GPU:gpus-1, then one that asks for no device, and again.
// Returns the sum of the towers' losses; the update ops of every tower go to
// `train_ops` when it is not null. With `on_cpus`, the towers ask for CPU:1
// ... CPU:gpus instead (the devices TensorFlow's CPU-only build can make).
inline Output BuildTowerModel(Graph* graph, int gpus,
                              std::vector<Operation>* train_ops = nullptr,
                              bool on_cpus = false) {
  graph_scope use(*graph);
  Output x = placeholder(float32, {1, 4}, "x");
  std::vector<Output> towers;
  for (int t = 0; graph->num_nodes() < kTowerModelNodes; ++t) {
    const int slot = t % (gpus + 1);
    const std::string tower_device = on_cpus
                                         ? "/cpu:" + std::to_string(slot + 1)
                                         : "/gpu:" + std::to_string(slot);
    device_scope on_gpu(slot < gpus ? tower_device : "");
    name_scope tower("tower_" + std::to_string(t));
    Output h = x;
    std::vector<Variable> weights;
    for (int layer = 0; layer < 8; ++layer) {
      weights.emplace_back(constant({0.1f}, {4, 4}), "w");
      h = nn::relu(matmul(h, weights.back().value()));
    }
    Output loss = reduce_sum(square(h));
    Operation train =
        train::GradientDescentOptimizer(0.01).minimize(loss, nullptr, weights);
    if (train_ops != nullptr) train_ops->push_back(train);
    towers.push_back(loss);
  }
  device_scope on_cpu("/cpu:0");
  return add_n(towers, "total_loss");
}
// --8<-- [end:graph]

}  // namespace minitf::bench
