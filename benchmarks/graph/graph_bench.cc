// What a Session costs on top of the kernels it runs.
//
// Two questions, each answered against a peer measured in the same process:
//   - per-op overhead: a chain of 1,000 tiny adds on 1-element tensors, run
//     through Session::run on a cached plan, in microseconds per op, against
//     the same 1,000 adds called eagerly (layer 1);
//   - a big op: a 1024x1024 matmul run through a Session against the kernel
//     called directly.
// benchmarks/graph/compare.sh times TensorFlow's Session and PyTorch's eager
// dispatch on the same chain and hands their figures in with --peer, so that
// one table holds all four engines and the ratios. Each figure is the median
// over several runs, each the best of many repetitions. The tables go through
// minitf::bench::Results: printed, and written to
// $MINITF_RESULTS_DIR/graph_bench.md when that is set.
//
// Usage: graph_bench [--quick] [--runs N] [--peer 'LABEL=US,US,...']...
//                    [--peer-note TEXT]... [--command TEXT]
//   --quick: fewer repetitions, one run (a smoke test)
//   --runs N: how many runs each figure is the median of (default 5)
//   --peer: another engine's microseconds per op on the same chain, one
//           figure per run of it (compare.sh)
//   --peer-note: a sentence a peer says of its run (TensorFlow's count of
//           the Add nodes it ran), written under the table
//   --command: the command to record in the results instead of this one
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "minitf/graph/api.h"
#include "minitf/tensor/api.h"
#include "results.h"
#include "timing.h"

namespace tf = minitf;

namespace {

using tf::bench::BestSeconds;
using tf::bench::DoNotOptimize;
using tf::bench::Fixed;
using tf::bench::Median;
using tf::bench::MedianRange;

constexpr int kChain = 1000;

struct Peer {
  std::string label;       // e.g. "TensorFlow 2.21.0, sess.run(y, feeds)"
  std::vector<double> us;  // microseconds per op, one figure per run
};

struct Options {
  bool quick = false;
  int runs = 5;
  std::vector<Peer> peers;
  std::string command;  // empty: this program's own command line
  std::vector<std::string> peer_notes;  // what a peer says of its run
};

// Microseconds per op of the chain, one figure per run, for minitf's Session
// and for the same adds called eagerly.
struct TinyOps {
  std::vector<double> session_us, eager_us, ratio;
  float result = 0;
};

TinyOps BenchTinyOps(const Options& opt) {
  TinyOps out;
  // --8<-- [start:tiny_chain]
  // y = ((x + 1) + 1) + ... : 1,000 Add nodes, each on a 1-element tensor, so
  // the time is almost all per-op overhead.
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Output x = tf::placeholder(tf::float32, {1}, "x");
  tf::Output one = tf::constant({1.f}, {1}, "one");
  tf::Output y = x;
  for (int i = 0; i < kChain; ++i) y = tf::add(y, one);
  tf::Session sess;
  const tf::Tensor x_value = tf::Tensor::FromVector<float>({0.f}, {1}).value();
  tf::Tensor result = sess.run(y, {{x, x_value}});  // Plans and caches.
  const int reps = opt.quick ? 20 : 200;
  auto session_seconds = [&] {
    return BestSeconds(reps, [&] {
      tf::Tensor r = sess.run(y, {{x, x_value}});  // Reuses the plan.
      DoNotOptimize(r.data<float>()[0]);
    });
  };
  // --8<-- [end:tiny_chain]
  const tf::Tensor one_value =
      tf::Tensor::FromVector<float>({1.f}, {1}).value();
  auto eager_seconds = [&] {
    return BestSeconds(reps, [&] {
      tf::Tensor v = x_value;
      for (int i = 0; i < kChain; ++i) v = tf::eager::add(v, one_value);
      DoNotOptimize(v.data<float>()[0]);
    });
  };
  for (int run = 0; run < opt.runs; ++run) {
    const double t_session = session_seconds();
    const double t_eager = eager_seconds();
    out.session_us.push_back(t_session * 1e6 / kChain);
    out.eager_us.push_back(t_eager * 1e6 / kChain);
    out.ratio.push_back(t_session / t_eager);
  }
  out.result = result.data<float>()[0];
  return out;
}

void ReportTinyOps(const Options& opt, const TinyOps& tiny,
                   tf::bench::Results& results) {
  const double session = Median(tiny.session_us);
  results.Table(
      "Per-op cost: a chain of 1,000 adds on 1-element tensors, "
      "one thread",
      {"engine, how the chain runs", "µs per op",
       "time / minitf Session::run"});
  results.Row({"minitf, `Session::run` on its cached plan",
               MedianRange(tiny.session_us, 3), "1"});
  std::vector<double> eager_ratio;
  for (double r : tiny.ratio) eager_ratio.push_back(1 / r);
  results.Row({"minitf, `tf::eager::add` called 1,000 times (chapter 1)",
               MedianRange(tiny.eager_us, 3), MedianRange(eager_ratio, 2)});
  for (const Peer& peer : opt.peers) {
    results.Row({peer.label, MedianRange(peer.us, 3),
                 Fixed(Median(peer.us) / session, 2)});
  }
  results.Note(
      "The last column: an engine's time per op over minitf's "
      "`Session::run`, so 2 means half as fast. The chain's result is " +
      Fixed(tiny.result, 0) + " (expected " + std::to_string(kChain) + ").");
  for (const std::string& note : opt.peer_notes) results.Note(note);
  if (opt.peers.empty()) {
    results.Note(
        "TensorFlow and PyTorch add their rows when the benchmark runs "
        "through `benchmarks/graph/compare.sh` with the peers of "
        "`scripts/peers.sh` installed.");
  }
}

void BenchMatMul(const Options& opt, tf::bench::Results& results) {
  constexpr int64_t n = 1024;
  tf::Tensor a(tf::float32, tf::TensorShape({n, n}));
  tf::Tensor b(tf::float32, tf::TensorShape({n, n}));
  a.flat<float>().setConstant(0.5f);
  b.flat<float>().setConstant(0.25f);
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Output pa = tf::placeholder(tf::float32, {n, n}, "a");
  tf::Output pb = tf::placeholder(tf::float32, {n, n}, "b");
  tf::Output c = tf::matmul(pa, pb);
  tf::Session sess;
  sess.run(c, {{pa, a}, {pb, b}});
  const int reps = opt.quick ? 3 : 10;
  std::vector<double> kernel_ms, session_ms, ratio;
  for (int run = 0; run < opt.runs; ++run) {
    // Interleaved, so that a change of clock speed hits both alike.
    const double t_kernel = BestSeconds(reps, [&] {
      auto r = tf::kernels::MatMul(a, b);
      DoNotOptimize(r->data<float>()[0]);
    });
    const double t_session = BestSeconds(reps, [&] {
      tf::Tensor r = sess.run(c, {{pa, a}, {pb, b}});
      DoNotOptimize(r.data<float>()[0]);
    });
    kernel_ms.push_back(t_kernel * 1e3);
    session_ms.push_back(t_session * 1e3);
    ratio.push_back(t_session / t_kernel);
  }
  results.Table("A big op: matmul 1024² float32, " +
                    std::to_string(tf::kernels::GetNumThreads()) +
                    " thread, through a Session and alone",
                {"how it runs", "ms", "time / kernel alone"});
  results.Row(
      {"`kernels::MatMul` called directly", Fixed(Median(kernel_ms), 2), "1"});
  results.Row({"`Session::run` of a graph with one MatMul node",
               Fixed(Median(session_ms), 2), MedianRange(ratio, 3)});
}

// "LABEL=1.0,2.0" -> a Peer; false when the text is not of that form.
bool ParsePeer(const std::string& text, Peer* peer) {
  const size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0) return false;
  peer->label = text.substr(0, eq);
  std::string rest = text.substr(eq + 1);
  size_t pos = 0;
  while (pos <= rest.size()) {
    const size_t comma = std::min(rest.find(',', pos), rest.size());
    const std::string figure = rest.substr(pos, comma - pos);
    char* end = nullptr;
    const double us = std::strtod(figure.c_str(), &end);
    if (figure.empty() || *end != '\0' || !(us > 0)) return false;
    peer->us.push_back(us);
    pos = comma + 1;
  }
  return !peer->us.empty();
}

int Usage() {
  std::fprintf(stderr,
               "usage: graph_bench [--quick] [--runs N] "
               "[--peer 'LABEL=US,US,...']... [--peer-note TEXT]... "
               "[--command TEXT]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  bool runs_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--quick") {
      opt.quick = true;
    } else if (arg == "--runs" && has_value) {
      opt.runs = std::atoi(argv[++i]);
      runs_given = true;
    } else if (arg == "--peer" && has_value) {
      Peer peer;
      if (!ParsePeer(argv[++i], &peer)) {
        std::fprintf(stderr, "graph_bench: --peer '%s' is not LABEL=US,...\n",
                     argv[i]);
        return 2;
      }
      opt.peers.push_back(std::move(peer));
    } else if (arg == "--command" && has_value) {
      opt.command = argv[++i];
    } else if (arg == "--peer-note" && has_value) {
      opt.peer_notes.push_back(argv[++i]);
    } else {
      return Usage();
    }
  }
  if (opt.quick && !runs_given) opt.runs = 1;
  if (opt.runs < 1) return Usage();
  // The command a reader runs again: compare.sh's, when it ran this program.
  std::vector<char*> shown(argv, argv + argc);
  if (!opt.command.empty()) shown = {opt.command.data()};
  tf::bench::Results results("graph_bench", static_cast<int>(shown.size()),
                             shown.data());
  tf::kernels::SetNumThreads(1);
  const TinyOps tiny = BenchTinyOps(opt);
  ReportTinyOps(opt, tiny, results);
  BenchMatMul(opt, results);
  results.Note(opt.runs == 1
                   ? std::string("Each figure: one run, the best of many "
                                 "repetitions.")
                   : "Each figure: the median over " +
                         std::to_string(opt.runs) +
                         " runs, each the best of many repetitions; in "
                         "brackets, the lowest and highest run.");
  return results.Finish();
}
