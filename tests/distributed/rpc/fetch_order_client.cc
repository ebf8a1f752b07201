// A client that runs several fetches, in every order, with mixed dtypes and
// repeats, on a server's master (minitf's or TensorFlow's), and compares
// each answer with the same run in a local session. Prints one line per
// run and "all N runs agree" at the end; exits 1 at the first difference,
// naming the run and the fetch.
//
//   fetch_order_client grpc://localhost:2222
#include <minitf/minitf.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace tf = minitf;

namespace {

std::string Str(const tf::Tensor& t) {
  std::ostringstream s;
  s << tf::DataTypeString(t.dtype()) << " " << t;
  return s.str();
}

std::string Names(const std::vector<tf::Output>& fetches) {
  std::string names;
  for (const tf::Output& f : fetches)
    names += (names.empty() ? "" : ", ") + f.name();
  return "{" + names + "}";
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc != 2) {
    std::fprintf(stderr, "Usage: fetch_order_client grpc://host:port\n");
    return 2;
  }
  // Tensors that differ in shape and dtype, so that a value in another's
  // place cannot pass for it.
  tf::Output one = tf::constant(tf::Tensor({1.f}), "one");
  tf::Output two = tf::constant(tf::Tensor({2.f, 2.f}), "two");
  tf::Output three = tf::multiply(tf::constant(tf::Tensor({1.f, 1.f, 1.f})),
                                  tf::constant(3.f), "three");
  tf::Output pair = tf::matmul(tf::constant(tf::Tensor({{1.0, 2.0}})),
                               tf::constant(tf::Tensor({{3.0}, {4.0}})), false,
                               false, "pair");
  tf::Output count = tf::constant(tf::Tensor({7, 8, 9, 10}), "count");

  std::vector<std::vector<tf::Output>> runs;
  for (std::vector<tf::Output> set :
       {std::vector<tf::Output>{one, two, three},
        std::vector<tf::Output>{count, one, pair}}) {
    std::vector<int> order = {0, 1, 2};
    do {
      runs.push_back({set[order[0]], set[order[1]], set[order[2]]});
    } while (std::next_permutation(order.begin(), order.end()));
  }
  runs.push_back({pair, pair});
  runs.push_back({three, one, three});
  runs.push_back({count, pair, count, one});

  tf::SessionOptions options;
  options.target = argv[1];
  options.config.operation_timeout_in_ms = 30000;
  tf::Session remote(options);
  tf::Session local;
  for (const std::vector<tf::Output>& fetches : runs) {
    std::vector<tf::Fetch> asked(fetches.begin(), fetches.end());
    std::vector<tf::Tensor> got = remote.run(asked);
    std::vector<tf::Tensor> want = local.run(asked);
    if (got.size() != want.size()) {
      std::cout << Names(fetches) << ": " << got.size() << " values for "
                << want.size() << " fetches\n";
      return 1;
    }
    for (size_t i = 0; i < got.size(); ++i) {
      if (Str(got[i]) != Str(want[i])) {
        std::cout << Names(fetches) << ": fetch " << i << " ("
                  << fetches[i].name() << ") is " << Str(got[i])
                  << ", expected " << Str(want[i]) << "\n";
        return 1;
      }
    }
    std::cout << Names(fetches) << ": as asked\n";
  }
  std::cout << "all " << runs.size() << " runs agree\n";
  return 0;
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
