// Writes the fuzzers' seed corpora, fuzz/corpus/<fuzzer>/<seed>: valid
// inputs of every entry point, made by the engine's own code as its tests
// make them (graphs, IDX and event files, the requests a master sends its
// workers, recorded from a real step). libFuzzer mutates these; an empty
// corpus would have it find the formats' structure by chance.
//
//   build/fuzz/fuzz/write_corpus fuzz/corpus
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "minitf/distributed/runtime/master.h"
#include "minitf/distributed/runtime/proto_convert.h"
#include "minitf/distributed/runtime/rpc/tensor_coding.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/graph/scope.h"
#include "minitf/minitf.h"
#include "minitf/train/proto/event.pb.h"
#include "minitf/train/saver/saver.h"
#include "minitf/train/saver/tensor_bundle.h"
#include "minitf/train/tfrecord.h"
#include "service_fuzzing.h"

namespace tf = minitf;
namespace fs = std::filesystem;

namespace {

fs::path root;

void Write(const std::string& fuzzer, const std::string& seed,
           const std::string& bytes) {
  fs::create_directories(root / fuzzer);
  std::ofstream(root / fuzzer / seed, std::ios::binary) << bytes;
}

void Check(const tf::Status& s) {
  if (!s.ok()) {
    std::cerr << "write_corpus: " << s << "\n";
    std::exit(1);
  }
}

// An IDX file of unsigned bytes: magic, big-endian dims, then the values.
std::string Idx(uint32_t magic, const std::vector<uint32_t>& dims) {
  std::string out;
  auto put = [&](uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out += char(v >> shift);
  };
  put(magic);
  size_t n = 1;
  for (uint32_t d : dims) put(d), n *= d;
  for (size_t i = 0; i < n; ++i) out += char(i * 37);
  return out;
}

std::string Gzip(const std::string& bytes) {
  z_stream z{};
  deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
               Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, bytes.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// The bytes a ByteBuffer holds, joined.
std::string Joined(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  (void)buffer.Dump(&slices);
  std::string out;
  for (const grpc::Slice& s : slices) {
    out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  return out;
}

// Seed 000's linear regression and seed 002's softmax regression, each
// with its gradient descent step, as chapter 3 builds them.
tf::GraphDef TrainingGraph(bool softmax) {
  tf::Graph g;
  {
    tf::graph_scope use(g);
    tf::Output loss;
    if (softmax) {
      auto x = tf::placeholder(tf::DT_FLOAT, {tf::None, 4});
      auto w = tf::Variable(tf::zeros({4, 3}));
      auto b = tf::Variable(tf::zeros({3}));
      auto y = tf::nn::softmax(tf::matmul(x, w) + b);
      auto labels = tf::placeholder(tf::DT_FLOAT, {tf::None, 3});
      loss = tf::reduce_mean(
          -tf::reduce_sum(labels * tf::log(y), std::vector<int>{1}));
    } else {
      auto w = tf::Variable(0.0f, "weight");
      auto b = tf::Variable(0.0f, "bias");
      auto x = tf::placeholder(tf::DT_FLOAT, {tf::None});
      auto out = tf::placeholder(tf::DT_FLOAT, {tf::None});
      loss = tf::reduce_mean(tf::square(w * x + b - out));
    }
    tf::train::GradientDescentOptimizer(0.1).minimize(loss);
  }
  return tf::as_graph_def(g);
}

void Graphs() {
  const std::vector<std::pair<std::string, tf::GraphDef>> graphs = {
      {"session_graph", tf::fuzzing::SessionGraph()},
      {"linear_regression", TrainingGraph(false)},
      {"softmax_regression", TrainingGraph(true)}};
  for (const auto& [name, def] : graphs) {
    const std::string bytes = *tf::SerializeGraphDef(def);
    Write("graph_def", name, bytes);
    Write("graph_def_text", name, tf::GraphDefToText(def));
    tf::proto::Event event;  // as FileWriter.add_graph writes it
    event.set_graph_def(bytes);
    Write("tfrecord", "graph_event_" + name,
          tf::EncodeTFRecord(event.SerializeAsString()));
  }
}

void DataFiles() {
  const std::string images = Idx(0x00000803, {2, 4, 4});
  const std::string labels = Idx(0x00000801, {2});
  Write("idx", "images", images);
  Write("idx", "labels", labels);
  Write("gzip_idx", "images.gz", Gzip(images));
  Write("gzip_idx", "labels.gz", Gzip(labels));
  Write("gzip_idx", "labels", labels);
  std::string events;
  tf::proto::Event version;
  version.set_file_version("brain.Event:2");
  events += tf::EncodeTFRecord(version.SerializeAsString());
  for (int step = 0; step < 3; ++step) {
    tf::proto::Event event;
    event.set_step(step);
    event.set_wall_time(1.5e9 + step);
    tf::proto::Summary::Value* v = event.mutable_summary()->add_value();
    v->set_tag("loss");
    v->set_simple_value(1.f / (step + 1));
    events += tf::EncodeTFRecord(event.SerializeAsString());
  }
  Write("tfrecord", "events", events);
}

// A checkpoint as the checkpoint_reader fuzzer takes it: the index's
// length in four little-endian bytes, the index, then the data file.
void Checkpoints() {
  const std::vector<std::pair<std::string, std::vector<tf::train::NamedTensor>>>
      checkpoints = {
          {"linear_regression",
           {{"weight", tf::Tensor(0.25f)}, {"bias", tf::Tensor(-1.5f)}}},
          {"softmax_regression",
           {{"Variable", tf::Tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}})},
            {"Variable_1", tf::Tensor({0.1f, 0.2f, 0.3f})},
            {"global_step", tf::Tensor(int64_t{1000})}}},
          {"empty", {}}};
  for (const auto& [name, tensors] : checkpoints) {
    const tf::train::BundleBytes bundle = tf::train::EncodeBundle({tensors});
    std::string bytes;
    for (int shift = 0; shift < 32; shift += 8)
      bytes += char(bundle.index.size() >> shift);
    Write("checkpoint_reader", name, bytes + bundle.index + bundle.data[0]);
  }
  tf::train::CheckpointState state;
  state.model_checkpoint_path = "model.ckpt-200";
  state.all_model_checkpoint_paths = {"model.ckpt-100", "model.ckpt-200"};
  Write("checkpoint_state", "two_kept",
        tf::train::CheckpointStateToText(state));
  Write("checkpoint_state", "with_timestamps",
        tf::train::CheckpointStateToText(state) +
            "all_model_checkpoint_timestamps: 1.7e9\n"
            "last_preserved_timestamp: 1.6e9\n");
}

void Names() {
  const char* specs[] = {"/job:worker/replica:0/task:1/device:GPU:0",
                         "/job:ps/task:0",
                         "/gpu:1",
                         "/device:CPU:*",
                         "gpu:*",
                         "/cpu:0",
                         ""};
  int i = 0;
  for (const char* s : specs)
    Write("device_spec", "spec_" + std::to_string(i++), s);
  Write("tf_config", "dense",
        R"({"cluster": {"ps": ["localhost:2222"], "worker": ["localhost:2223",)"
        R"( "localhost:2224"]}, "task": {"type": "worker", "index": 1}})");
  Write("tf_config", "sparse",
        R"({"cluster": {"chief": ["c:1"], "worker": {"1": "w1:2222"}},)"
        R"( "task": {"type": "chief", "index": 0}, "rpc_layer": "grpc"})");
  Write("tf_config", "no_task", R"({"cluster": {"ps": ["p:1"]}})");
  tf::train::ClusterSpec dense(
      {{"ps", {"ps0:2222"}}, {"worker", {"w0:2222", "w1:2222"}}});
  tf::train::ClusterSpec sparse({{"worker", {{1, "w1:2222"}, {3, "w3:2222"}}}});
  Write("cluster_def", "dense",
        tf::ClusterSpecToProto(dense).SerializeAsString());
  Write("cluster_def", "sparse",
        tf::ClusterSpecToProto(sparse).SerializeAsString());
}

void RecvTensorResponses() {
  // The first byte of an input is where the fuzzer cuts it into slices.
  auto encode = [](const tf::Tensor& t, bool dead) {
    grpc::ByteBuffer bytes;
    Check(tf::EncodeRecvTensorResponse(t, dead, &bytes));
    return std::string(1, '\x05') + Joined(bytes);
  };
  Write("recv_tensor_response", "small",
        encode(tf::Tensor({1.f, 2.f, 3.f}), false));
  tf::Tensor large(tf::DT_FLOAT, tf::TensorShape({300}));
  Write("recv_tensor_response", "large", encode(large, false));
  Write("recv_tensor_response", "dead", encode(tf::Tensor(), true));
  tf::proto::RecvTensorResponse plain;  // protobuf's own field order
  Check(
      tf::TensorToProto(tf::Tensor({{1, 2}, {3, 4}}), plain.mutable_tensor()));
  Write("recv_tensor_response", "plain",
        std::string(1, '\x03') + plain.SerializeAsString());
}

void MasterRequests() {
  Write("master_create_session", "session_graph",
        tf::fuzzing::CreateSessionRequest().SerializeAsString());
  {
    // What a client sends after adding z = identity(y): the new node only.
    tf::Graph graph;
    Check(tf::ImportGraphDef(tf::fuzzing::SessionGraph(), &graph));
    const int before = graph.num_nodes();
    {
      tf::graph_scope use(graph);
      tf::identity(tf::Output(graph.FindNode("y"), 0), "z");
    }
    tf::GraphDef all;
    Check(tf::ToGraphDef(graph, &all));
    tf::proto::ExtendSessionRequest r;
    for (int i = before; i < all.node_size(); ++i)
      *r.mutable_graph_def()->add_node() = all.node(i);
    tf::fuzzing::Session session;  // its first graph version
    r.set_current_graph_version(1);
    Write("master_extend_session", "add_z", r.SerializeAsString());
  }
  tf::proto::RunStepRequest step;
  tf::proto::NamedTensorProto* x = step.add_feed();
  x->set_name("x:0");
  Check(tf::TensorToProto(tf::Tensor({1.f, 2.f}), x->mutable_tensor()));
  step.add_fetch("y:0");
  Write("master_run_step", "feed_x_fetch_y", step.SerializeAsString());
  step.add_fetch("y:0");
  step.add_target("y");
  Write("master_run_step", "fetch_twice_and_target", step.SerializeAsString());
  tf::proto::RunStepRequest taken;
  taken.add_fetch("taken:0");  // waits for the queue: the operation timeout
  Write("master_run_step", "empty_queue", taken.SerializeAsString());
  Write("master_close_session", "fresh",
        tf::proto::CloseSessionRequest().SerializeAsString());
  Write("master_list_devices", "empty",
        tf::proto::ListDevicesRequest().SerializeAsString());
  tf::proto::ResetRequest reset;
  Write("master_reset", "all", reset.SerializeAsString());
  reset.add_container("c");
  reset.add_device_filters("/job:localhost");
  Write("master_reset", "container", reset.SerializeAsString());
}

void WorkerRequests() {
  const tf::fuzzing::WorkerRequests& r = tf::fuzzing::RecordedWorkerRequests();
  Write("worker_get_status", "empty",
        tf::proto::GetStatusRequest().SerializeAsString());
  Write("worker_create_worker_session", "recorded",
        r.create_worker_session.SerializeAsString());
  Write("worker_register_graph", "recorded",
        r.register_graph.SerializeAsString());
  tf::proto::RunGraphRequest run = r.run_graph;  // keys as the seeds spell them
  for (tf::proto::NamedTensorProto& sent : *run.mutable_send()) {
    sent.set_name(tf::fuzzing::MarkedKey(sent.name()));
  }
  for (std::string& key : *run.mutable_recv_key())
    key = tf::fuzzing::MarkedKey(key);
  Write("worker_run_graph", "recorded", run.SerializeAsString());
  tf::proto::CleanupGraphRequest cleanup;  // step 0: the fuzzer's own step
  Write("worker_cleanup_graph", "recorded_step", cleanup.SerializeAsString());
  cleanup.set_step_id(r.cleanup_graph.step_id() + 1);
  Write("worker_cleanup_graph", "another_step", cleanup.SerializeAsString());
  Write("worker_deregister_graph", "fresh",
        tf::proto::DeregisterGraphRequest().SerializeAsString());
  tf::proto::RecvTensorRequest recv;  // step 0: the fuzzer's own step
  recv.set_rendezvous_key(tf::fuzzing::MarkedKey(r.y_key));
  Write("worker_recv_tensor", "y_of_recorded_step", recv.SerializeAsString());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_corpus <corpus dir>\n";
    return 2;
  }
  root = argv[1];
  Graphs();
  DataFiles();
  Checkpoints();
  Names();
  RecvTensorResponses();
  MasterRequests();
  WorkerRequests();
  std::cout << "write_corpus: wrote " << root << "\n";
  return 0;
}
