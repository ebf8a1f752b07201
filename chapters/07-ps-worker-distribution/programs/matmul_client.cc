// Seed 001's matmul on a server: a client of any server that speaks
// TensorFlow's master service, minitf's or TensorFlow's own.
//
//   matmul_client grpc://localhost:2222
//
// prints [[22. 28.]
//  [49. 64.]], or the error's name and text (exit 1).
#include <minitf/minitf.h>

#include <cstdio>
#include <iostream>

namespace tf = minitf;

int main(int argc, char** argv) try {
  if (argc != 2) {
    std::fprintf(stderr, "Usage: matmul_client grpc://host:port\n");
    return 2;
  }
  // --8<-- [start:client]
  auto a = tf::constant(tf::Tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}));
  auto b = tf::constant(tf::Tensor({{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}}));
  auto c = tf::matmul(a, b);
  tf::SessionOptions options;
  options.target = argv[1];
  options.config.operation_timeout_in_ms = 30000;
  tf::Session sess(options);
  std::cout << sess.run(c) << "\n";
  // --8<-- [end:client]
  return 0;
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
