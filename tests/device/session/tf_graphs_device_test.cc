// Seed 000's second program, with the model under tf.device, node for node
// against TensorFlow's graph (tests/train/testdata/tf_graphs/, written by
// tools/dump_tf_graphs.py): the requested devices as this chapter's device
// layer writes them ("/device:cpu:0" becomes "/device:CPU:0"), the
// gradients with none, the updates colocated with their variables.
#include <gtest/gtest.h>

#include "../train/tf_graph_text.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/variables.h"

namespace minitf {
namespace {

TEST(TfGraphsDeviceTest, Seed000WithDevices) {
  Graph g;
  graph_scope use(g);
  Variable w, b;
  Output x, out, y;
  {
    device_scope on_cpu("/device:cpu:0");
    w = Variable(0.0f, "weight");
    b = Variable(0.0f, "bias");
    x = placeholder(DT_FLOAT, {None});
    out = placeholder(DT_FLOAT, {None});
    y = w * x + b;
  }
  auto loss = reduce_mean(square(y - out));
  train::GradientDescentOptimizer optimizer(0.01);
  optimizer.minimize(loss);
  tf_graphs::ExpectSameNodes(g, "seed_000_device");
}

}  // namespace
}  // namespace minitf
