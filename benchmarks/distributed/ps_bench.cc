// What the parameter server's transfers cost, against raw gRPC.
//
// In one process: a ps task and a worker task (tf::train::Server on
// loopback), and a raw gRPC server whose generic service answers "Pull" with
// N bytes served straight from a buffer (no copy) and "Push" by taking N
// bytes. For a float variable of 4 MiB and of 64 MiB on the ps:
//   pull  a session on the worker runs identity(v) on the worker, as a
//         target, so v's bytes cross ps -> worker (RecvTensor) and go no
//         further;
//   push  a session on the worker runs v.assign(w) with w on the worker,
//         so w's bytes cross worker -> ps, where v takes the buffer;
// each against the raw call that moves the same bytes. Neither step
// computes anything: what is timed is the transfer and the step around it.
// Then the latency of RunStep on a trivial graph (one Const) against a raw
// round trip of 0 bytes. Each is run `reps` times, the runs of a size taken
// in turn; times are the median run, "ratio" is raw time / minitf time of
// the medians (1.0: as fast as raw gRPC) and "best" the same of the fastest
// runs, which single lucky runs decide. The same two steps in one process (no
// transfer) are timed beside them: a step without the wire. "faults" and "raw
// flt" are the process's page faults per run of each.
//
// The tables are printed, and written to $MINITF_RESULTS_DIR/ps_bench.md
// when that is set (benchmarks/tensor/results.h): chapter 7 includes them.
//
//   ps_bench [--reps=21] [--mib=4 --mib=64]   (the sizes; these by default)
#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <minitf/minitf.h>
#include <sys/resource.h>

#include <algorithm>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "distributed_testing.h"
#include "results.h"
#include "timing.h"

namespace tf = minitf;

namespace {

// The raw peer: "/raw/Pull" answers with the number of bytes the request's
// 8 bytes ask for, from a static buffer; "/raw/Push" answers with nothing.
class RawService : public grpc::CallbackGenericService {
 public:
  explicit RawService(size_t max_bytes) : payload_(max_bytes, 'x') {}

  grpc::ServerGenericBidiReactor* CreateReactor(
      grpc::GenericCallbackServerContext* ctx) override {
    return new Reactor(ctx->method() == "/raw/Pull", payload_);
  }

 private:
  class Reactor : public grpc::ServerGenericBidiReactor {
   public:
    Reactor(bool pull, const std::string& payload)
        : pull_(pull), payload_(payload) {
      StartRead(&request_);
    }
    void OnReadDone(bool ok) override {
      if (!ok) return Finish(grpc::Status::OK);
      if (pull_) {
        std::vector<grpc::Slice> slices;
        (void)request_.Dump(&slices);
        uint64_t n = 0;
        std::memcpy(&n, slices.at(0).begin(), sizeof(n));
        grpc::Slice body(payload_.data(), n, grpc::Slice::STATIC_SLICE);
        response_ = grpc::ByteBuffer(&body, 1);
      } else {
        grpc::Slice nothing("", 0);
        response_ = grpc::ByteBuffer(&nothing, 1);
      }
      StartWriteAndFinish(&response_, grpc::WriteOptions(), grpc::Status::OK);
    }
    void OnDone() override { delete this; }

   private:
    bool pull_;
    const std::string& payload_;
    grpc::ByteBuffer request_, response_;
  };
  std::string payload_;
};

// The two steps on a float variable v of `bytes`, built in their own graph:
// pull runs identity(v) where the worker is, so v's bytes cross ps ->
// worker; push runs v.assign(w) with w on the worker, so the bytes cross
// worker -> ps. Both are targets, as a training step runs its train_op:
// fetching a value would send the bytes on to the client. Empty device
// names put both variables in one process.
struct Steps {
  Steps(size_t bytes, const std::string& ps, const std::string& worker) {
    const int64_t n = static_cast<int64_t>(bytes / sizeof(float));
    const std::string mib = std::to_string(bytes >> 20);
    tf::graph_scope use(graph);
    tf::Variable v;
    {
      tf::device_scope on(ps);
      // A name per size: the ps keeps its variables across sessions.
      v = tf::Variable(tf::zeros({n}), "v_" + mib);
    }
    tf::device_scope on(worker);
    pull = tf::identity(v.value()).op();
    tf::Variable w(tf::ones({n}), "w_" + mib);
    push = v.assign(w.value()).op();
    init = tf::global_variables_initializer();
  }
  tf::Graph graph;
  tf::Operation pull;
  tf::Operation push;
  tf::Operation init;
};

// What Interleaved measures of one function.
struct Timing {
  std::vector<double> seconds;  // one per round
  // Page faults of the process per run, all threads together: the pages a
  // run touches for the first time (fresh memory the system maps and zeroes).
  double faults = 0;

  double Best() const {
    return *std::min_element(seconds.begin(), seconds.end());
  }
  double Median() const {
    std::vector<double> sorted = seconds;
    std::sort(sorted.begin(), sorted.end());
    return sorted[sorted.size() / 2];
  }
};

int64_t MinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// The timings of each of `fns` over `reps` rounds that run every one once in
// turn: a load on the machine that comes and goes slows them alike, so their
// ratios stay fair.
std::vector<Timing> Interleaved(int reps,
                                const std::vector<std::function<void()>>& fns) {
  std::vector<Timing> out(fns.size());
  for (int r = 0; r < reps; ++r) {
    for (size_t i = 0; i < fns.size(); ++i) {
      const int64_t faults = MinorFaults();
      out[i].seconds.push_back(tf::bench::BestSeconds(1, fns[i]));
      out[i].faults += static_cast<double>(MinorFaults() - faults) / reps;
    }
  }
  return out;
}

// One raw unary call, waited for; a failure ends the benchmark.
void RawCall(grpc::GenericStub& stub, const char* method,
             const grpc::ByteBuffer& request) {
  grpc::ClientContext context;
  grpc::ByteBuffer response;
  grpc::Status status = minitf::testing::GenericUnaryCall(
      stub, &context, method, request, &response);
  if (!status.ok()) {
    std::fprintf(stderr, "raw call failed: %s\n",
                 status.error_message().c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 21;
  const size_t kMiB = size_t{1} << 20;
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--reps=", 7) == 0) reps = std::atoi(argv[i] + 7);
    if (std::strncmp(argv[i], "--mib=", 6) == 0) {
      sizes.push_back(std::strtoul(argv[i] + 6, nullptr, 10) * kMiB);
    }
  }
  if (sizes.empty()) sizes = {4 * kMiB, 64 * kMiB};
  std::sort(sizes.begin(), sizes.end());

  // The raw peer.
  RawService raw_service(sizes.back());
  grpc::ServerBuilder builder;
  int raw_port = 0;
  builder.AddListeningPort("localhost:0", grpc::InsecureServerCredentials(),
                           &raw_port);
  builder.SetMaxMessageSize(INT_MAX);
  builder.RegisterCallbackGenericService(&raw_service);
  auto raw_server = builder.BuildAndStart();
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(INT_MAX);
  args.SetMaxSendMessageSize(INT_MAX);
  grpc::GenericStub raw(
      grpc::CreateCustomChannel("localhost:" + std::to_string(raw_port),
                                grpc::InsecureChannelCredentials(), args));

  // The cluster.
  std::ostringstream log;
  tf::train::ClusterSpec cluster(
      {{"ps", {"localhost:" + std::to_string(minitf::testing::FreePort())}},
       {"worker",
        {"localhost:" + std::to_string(minitf::testing::FreePort())}}});
  tf::train::Server ps(cluster, "ps", 0, {}, {.log_stream = &log});
  tf::train::Server worker(cluster, "worker", 0, {}, {.log_stream = &log});

  tf::bench::Results results("ps_bench", argc, argv);
  results.Table(
      "A variable pulled from and pushed to the ps, against raw gRPC "
      "moving the same bytes (median of " +
          std::to_string(reps) + " runs each, taken in turn)",
      {"transfer", "MiB", "minitf ms", "same step, one process, ms",
       "raw gRPC ms", "raw / minitf", "page faults per run (minitf / raw)"});
  for (size_t bytes : sizes) {
    // The steps on the cluster, and the same steps in one process: the
    // time of their arithmetic and of a step, without a transfer.
    Steps steps(bytes, "/job:ps/task:0", "/job:worker/task:0");
    tf::Session sess(tf::SessionOptions{.target = worker.target()},
                     &steps.graph);
    Steps local_steps(bytes, "", "");
    tf::Session local(tf::SessionOptions{}, &local_steps.graph);
    for (auto [session, s] :
         {std::pair{&sess, &steps}, std::pair{&local, &local_steps}}) {
      session->run(s->init);
      session->run(s->pull);  // plans and registers once
      session->run(s->push);
    }
    uint64_t size = bytes;
    grpc::Slice ask(&size, sizeof(size));
    grpc::ByteBuffer pull_request(&ask, 1);
    std::string push_bytes(bytes, 'y');
    grpc::Slice body(push_bytes.data(), bytes, grpc::Slice::STATIC_SLICE);
    grpc::ByteBuffer push_request(&body, 1);
    RawCall(raw, "/raw/Pull", pull_request);
    const std::vector<Timing> t =
        Interleaved(reps, {[&] { sess.run(steps.pull); },  //
                           [&] { local.run(local_steps.pull); },
                           [&] { RawCall(raw, "/raw/Pull", pull_request); },
                           [&] { sess.run(steps.push); },  //
                           [&] { local.run(local_steps.push); },
                           [&] { RawCall(raw, "/raw/Push", push_request); }});
    for (int i : {0, 3}) {
      results.Row({i == 0 ? "pull (ps → worker)" : "push (worker → ps)",
                   std::to_string(bytes / kMiB),
                   tf::bench::Fixed(t[i].Median() * 1e3, 2),
                   tf::bench::Fixed(t[i + 1].Median() * 1e3, 2),
                   tf::bench::Fixed(t[i + 2].Median() * 1e3, 2),
                   tf::bench::Fixed(t[i + 2].Median() / t[i].Median(), 2),
                   tf::bench::Fixed(t[i].faults, 0) + " / " +
                       tf::bench::Fixed(t[i + 2].faults, 0)});
    }
  }

  // Latency: a trivial step against a raw round trip of nothing.
  tf::Graph g;
  tf::graph_scope use(g);
  tf::Output c = tf::constant(tf::Tensor(1.f));
  tf::Session sess(tf::SessionOptions{.target = worker.target()}, &g);
  sess.run(c);
  const int calls = 200;
  const double step = tf::bench::BestSeconds(reps,
                                             [&] {
                                               for (int i = 0; i < calls; ++i)
                                                 sess.run(c);
                                             }) /
                      calls;
  grpc::ByteBuffer empty;
  {
    grpc::Slice none("", 0);
    empty = grpc::ByteBuffer(&none, 1);
  }
  const double round_trip =
      tf::bench::BestSeconds(reps,
                             [&] {
                               for (int i = 0; i < calls; ++i) {
                                 RawCall(raw, "/raw/Push", empty);
                               }
                             }) /
      calls;
  results.Note(
      "raw / minitf: the raw call's median time over minitf's (1.00: as fast "
      "as raw gRPC). Neither step computes: the one-process column is the "
      "step without the wire.");
  results.Table("A trivial step against a raw round trip (best of " +
                    std::to_string(reps) + " rounds of " +
                    std::to_string(calls) + " calls)",
                {"call", "µs"});
  results.Row({"`RunStep` of one `Const`, session on the worker's own server",
               tf::bench::Fixed(step * 1e6, 1)});
  results.Row({"raw gRPC round trip of 0 bytes",
               tf::bench::Fixed(round_trip * 1e6, 1)});
  raw_server->Shutdown();
  return results.Finish();
}
