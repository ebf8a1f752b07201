// The public API of layer 3 (training), as included by <minitf/minitf.h>.
//
// Training: variables (their ops, kernels and the tf::Variable class),
// tf::gradients with its gradient registry and checker (gradients/), the
// optimizers and their update ops (optimizers/, ops/, kernels/),
// tf::train::Saver with TensorFlow's checkpoint format and meta graphs
// (saver/), the summaries TensorBoard reads (summary/), the MNIST input of
// TensorFlow's tutorials: IDX files, read_data_sets, next_batch (data/), and
// the CRC32C checksum and TFRecord framing that guard its files.
//
//   auto w = tf::Variable(0.0f, "weight");
//   tf::Session sess;
//   sess.run(tf::global_variables_initializer());
//   auto mnist = tf::datasets::mnist::read_data_sets(
//       tf::datasets::mnist::default_data_dir(), /*one_hot=*/true);
//   auto [xs, ys] = mnist.train.next_batch(100);      // [100,784], [100,10]
//   tf::summary::FileWriter writer("/tmp/logs", sess.graph());
#pragma once

#include "minitf/train/crc32c.h"
#include "minitf/train/data/idx.h"
#include "minitf/train/data/mnist.h"
#include "minitf/train/gradients/gradient_checker.h"
#include "minitf/train/gradients/gradients.h"
#include "minitf/train/ops/grad_ops.h"
#include "minitf/train/ops/state_ops.h"
#include "minitf/train/ops/training_ops.h"
#include "minitf/train/optimizers/adam.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/optimizers/momentum.h"
#include "minitf/train/optimizers/optimizer.h"
#include "minitf/train/optimizers/rmsprop.h"
#include "minitf/train/saver/atomic_file.h"
#include "minitf/train/saver/meta_graph.h"
#include "minitf/train/saver/saver.h"
#include "minitf/train/saver/table.h"
#include "minitf/train/saver/tensor_bundle.h"
#include "minitf/train/summary/file_writer.h"
#include "minitf/train/summary/histogram.h"
#include "minitf/train/summary/summary_ops.h"
#include "minitf/train/tfrecord.h"
#include "minitf/train/var.h"
#include "minitf/train/variables.h"
