// minitf's side of the checkpoint oracle (checkpoint_oracle.py), which
// compares it with TensorFlow's readers and writers:
//
//   checkpoint_oracle_helper dump PREFIX
//       every tensor of checkpoint PREFIX as minitf reads it, one a line:
//       "name dtype dims hex-of-the-bytes"
//   checkpoint_oracle_helper evaluate META PREFIX
//       import_meta_graph(META), restore PREFIX, and print seed 003's test
//       accuracy ("Softmax:0" against the labels, fed to "Placeholder:0"
//       and "Placeholder_1:0") as "accuracy 0.8123"
//   checkpoint_oracle_helper events DIR
//       a FileWriter in DIR with the graph, and three steps of a scalar
//       "loss" (1.5, 0.75, 0.375) and a histogram "weights" of variable "w"
//
// Exit status 1, with the error's name and text, when minitf refuses a file.
#include <minitf/minitf.h>

#include <cstdio>
#include <string>

namespace tf = minitf;

namespace {

int Dump(const std::string& prefix) {
  std::vector<tf::train::NamedTensor> tensors;
  tf::errors::ThrowIfError(tf::train::ReadBundle(prefix, &tensors));
  for (const auto& [name, t] : tensors) {
    std::printf("%s %s %s ", name.c_str(),
                std::string(tf::DataTypeString(t.dtype())).c_str(),
                t.shape().DebugString().c_str());
    const auto* bytes = static_cast<const unsigned char*>(t.raw_data());
    const size_t n = t.NumElements() * tf::DataTypeSize(t.dtype());
    for (size_t i = 0; i < n; ++i) std::printf("%02x", bytes[i]);
    std::printf("\n");
  }
  return 0;
}

int Evaluate(const std::string& meta, const std::string& prefix) {
  auto mnist = tf::datasets::mnist::read_data_sets(
      tf::datasets::mnist::default_data_dir(), /*one_hot=*/true);
  std::shared_ptr<tf::train::Saver> saver = tf::train::import_meta_graph(meta);
  tf::Graph* g = tf::get_default_graph();
  const tf::Output x =
      tf::errors::ValueOrThrow(g->GetTensorByName("Placeholder:0"));
  const tf::Output y_ =
      tf::errors::ValueOrThrow(g->GetTensorByName("Placeholder_1:0"));
  const tf::Output y =
      tf::errors::ValueOrThrow(g->GetTensorByName("Softmax:0"));
  auto predicted = tf::argmax(y, 1);
  auto correct = tf::equal(predicted, tf::argmax(y_, 1));
  auto accuracy = tf::reduce_mean(tf::cast(correct, tf::float32));
  tf::Session sess;
  saver->restore(sess, prefix);
  const tf::Tensor acc =
      sess.run(accuracy, {{x, mnist.test.images()}, {y_, mnist.test.labels()}});
  std::printf("accuracy %.4f\n", acc.scalar<float>());
  return 0;
}

int Events(const std::string& dir) {
  auto loss = tf::placeholder(tf::float32, {}, "loss_value");
  auto w = tf::Variable(tf::Tensor({0.5f, -1.f, 2.f, 3.5f}), "w");
  tf::summary::scalar("loss", loss);
  tf::summary::histogram("weights", w);
  auto merged = tf::summary::merge_all();
  tf::Session sess;
  sess.run(tf::global_variables_initializer());
  tf::summary::FileWriter writer(dir, sess.graph());
  float value = 1.5f;
  for (int step = 1; step <= 3; ++step, value /= 2) {
    writer.add_summary(sess.run(merged, {{loss, tf::Tensor(value)}}), step);
  }
  writer.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "dump" && argc == 3) return Dump(argv[2]);
  if (mode == "evaluate" && argc == 4) return Evaluate(argv[2], argv[3]);
  if (mode == "events" && argc == 3) return Events(argv[2]);
  std::fprintf(stderr,
               "Usage: checkpoint_oracle_helper dump PREFIX | evaluate META "
               "PREFIX | events DIR\n");
  return 2;
} catch (const tf::errors::OpError& e) {
  std::printf("%s\n", e.status().ToString().c_str());
  return 1;
}
