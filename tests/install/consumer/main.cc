// A program built against an installed minitf (see CMakeLists.txt): seed
// 001's matmul, and one gradient descent step on a variable; with layer 7,
// the matmul again on a gRPC server in this process.
//
// Nothing in this file names the ops, kernels and gradient functions it
// needs: each registers itself from a static initialiser in its layer's
// library. The package links those libraries whole, so they are all there;
// were one dropped by the linker, building or running the graph would fail
// with the error that names what is missing, and this program with it.
#include <minitf/minitf.h>

#include <exception>
#include <iostream>

namespace tf = minitf;

int main() {
  try {
    // Seed 001: the MatMul op and its CPU kernel (layers 1 and 2).
    auto a = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
    auto b = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
    auto c = tf::matmul(a, b);

    // loss = w^2, so d loss/dw = 2w: Square's gradient function and the
    // ApplyGradientDescent kernel (layer 3). From w = 3 with a learning
    // rate of 0.25, one step gives w = 3 - 0.25 * 6 = 1.5.
    auto w = tf::Variable(3.0f, "w");
    auto loss = tf::square(w);
    tf::train::GradientDescentOptimizer optimizer(/*learning_rate=*/0.25);
    auto train_op = optimizer.minimize(loss);

    // With layer 4 linked, the placement log (printed by the first run)
    // shows that its devices registered themselves.
    tf::Session sess(tf::ConfigProto{.log_device_placement = true});
    tf::Tensor product = sess.run(c);
    std::cout << "c =\n" << product << "\n";
    sess.run(tf::global_variables_initializer());
    sess.run(train_op);
    tf::Tensor stepped = sess.run(w);
    std::cout << "w after one step: " << stepped << "\n";
#ifdef MINITF_CONSUMER_DISTRIBUTED
    // Layer 7: a one-task cluster on a port the system picks, and a session
    // that runs the graph there over gRPC.
    tf::train::Server server = tf::train::Server::create_local_server();
    tf::Session remote(tf::SessionOptions{.target = server.target()});
    std::cout << "c on " << server.target().substr(0, 16) << ":\n"
              << remote.run(c) << "\n";
#endif
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
