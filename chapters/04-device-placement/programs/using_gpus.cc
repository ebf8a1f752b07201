// Seed 001, TensorFlow's "Using GPUs", every snippet in order. The first:
//
//   a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
//   b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
//   c = tf.matmul(a, b)
//   sess = tf.Session(config=tf.ConfigProto(log_device_placement=True))
//   print sess.run(c)
//
// and the others change where a, b and c are made:
//   1. Logging device placement: the above. No op asks for a device, so all
//      three go to the best one, GPU:0.
//   2. Manual device placement: a and b under `with tf.device('/cpu:0'):`,
//      so MatMul alone goes to GPU:0.
//   3. Using a single GPU on a multi-GPU system: all three under
//      `with tf.device('/gpu:2'):`; an InvalidArgumentError where there is
//      no GPU:2.
//   4. The same in a session with allow_soft_placement=True, which takes
//      the best device left (GPU:0) where there is no GPU:2.
//   5. Using multiple GPUs: a MatMul tower under /gpu:2 and one under
//      /gpu:3, summed with tf.add_n under /cpu:0.
// Each runs on a fresh graph, under a heading.
//
// The GPUs are virtual: the number given on the command line goes to every
// session as ConfigProto gpu_options.virtual_gpus (0 leaves it to the
// environment variable MINITF_VIRTUAL_GPUS, as that option does). Where
// TensorFlow raises, the program prints the error as Python prints it and
// goes on to the next snippet. After the towers it prints the bytes that
// Send/Recv moved between each pair of devices.
// Usage: using_gpus [NUM_GPUS]   (default 4; from 0 to 64)
#include <minitf/minitf.h>

#include <charconv>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string_view>
#include <vector>

namespace tf = minitf;

namespace {

// Runs one snippet of the seed on a fresh graph, under a heading. An
// InvalidArgumentError, which TensorFlow raises for a device that does not
// exist, is printed as the seed shows it, and the program goes on: the
// TensorFlow 0.x of the seed kept the code's name, "Invalid argument: ", at
// the head of the message, which later versions drop.
void Snippet(const char* heading, const std::function<void()>& body) {
  static bool first = true;
  std::cout << (first ? "" : "\n") << "=== " << heading << " ===\n";
  first = false;
  tf::reset_default_graph();
  try {
    body();
  } catch (const tf::errors::InvalidArgumentError& e) {
    std::cout << "InvalidArgumentError: Invalid argument: " << e.what() << "\n";
  }
}

// What Send/Recv moved in the session's runs, by (sender, receiver): every
// value that crossed, and the bytes copied from one device's memory to
// another's. The fetch counts as the CPU's transfer to itself (the client).
void PrintTransfers(const tf::Session& sess) {
  const auto* direct = dynamic_cast<const tf::DirectSession*>(sess.core());
  if (direct == nullptr) return;
  std::cout << "Bytes moved by Send/Recv:\n";
  for (const auto& [pair, record] : direct->GetTransferStats()) {
    std::cout << "  " << pair.first << " -> " << pair.second << ": "
              << record.tensors << " tensor(s), " << record.bytes << " bytes, "
              << record.bytes_copied << " copied\n";
  }
}

// The GPU count of the command line: a whole number from 0 to the most
// virtual GPUs a session may ask for; -1 for anything else.
int ParseGpuCount(std::string_view text) {
  int count = -1;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), count);
  if (ec != std::errc() || end != text.data() + text.size() || count < 0 ||
      count > tf::kMaxVirtualGpus) {
    return -1;
  }
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  int num_gpus = 4;
  if (argc == 2) num_gpus = ParseGpuCount(argv[1]);
  if (argc > 2 || num_gpus < 0) {
    if (argc == 2) {
      std::fprintf(stderr,
                   "using_gpus: NUM_GPUS must be a whole number from 0 to "
                   "%d, got '%s'\n",
                   tf::kMaxVirtualGpus, argv[1]);
    }
    std::fputs("usage: using_gpus [NUM_GPUS]   (virtual GPUs; default 4)\n",
               stderr);
    return 2;
  }
  const tf::GPUOptions gpus{.virtual_gpus = num_gpus};

  try {
    // --8<-- [start:seed]
    Snippet("Logging device placement", [&] {
      // --8<-- [start:log_placement]
      // Creates a graph.
      auto a = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
      auto b = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
      auto c = tf::matmul(a, b);
      // Creates a session with log_device_placement set to True.
      tf::Session sess(
          tf::ConfigProto{.log_device_placement = true, .gpu_options = gpus});
      // Runs the op.
      std::cout << sess.run(c) << "\n";
      // --8<-- [end:log_placement]
    });

    Snippet("Manual device placement", [&] {
      // --8<-- [start:manual]
      // Creates a graph.
      tf::Output a, b;
      {
        tf::device_scope on_cpu("/cpu:0");
        a = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
        b = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
      }
      auto c = tf::matmul(a, b);
      // Creates a session with log_device_placement set to True.
      tf::Session sess(
          tf::ConfigProto{.log_device_placement = true, .gpu_options = gpus});
      // Runs the op.
      std::cout << sess.run(c) << "\n";
      // --8<-- [end:manual]
    });

    Snippet("Using a single GPU on a multi-GPU system", [&] {
      // --8<-- [start:single_gpu]
      // Creates a graph.
      tf::Output c;
      {
        tf::device_scope on_gpu("/gpu:2");
        auto a = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
        auto b = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
        c = tf::matmul(a, b);
      }
      // Creates a session with log_device_placement set to True.
      tf::Session sess(
          tf::ConfigProto{.log_device_placement = true, .gpu_options = gpus});
      // Runs the op.
      std::cout << sess.run(c) << "\n";
      // --8<-- [end:single_gpu]
    });

    Snippet("The same with allow_soft_placement", [&] {
      // --8<-- [start:soft_placement]
      // Creates a graph.
      tf::Output c;
      {
        tf::device_scope on_gpu("/gpu:2");
        auto a = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
        auto b = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
        c = tf::matmul(a, b);
      }
      // Creates a session with allow_soft_placement and log_device_placement
      // set to True.
      tf::Session sess(tf::ConfigProto{.allow_soft_placement = true,
                                       .log_device_placement = true,
                                       .gpu_options = gpus});
      // Runs the op.
      std::cout << sess.run(c) << "\n";
      // --8<-- [end:soft_placement]
    });

    Snippet("Using multiple GPUs", [&] {
      // --8<-- [start:towers]
      // Creates a graph.
      std::vector<tf::Output> c;
      for (const char* d : {"/gpu:2", "/gpu:3"}) {
        tf::device_scope on(d);
        auto a = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
        auto b = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2});
        c.push_back(tf::matmul(a, b));
      }
      tf::Output sum;
      {
        tf::device_scope on_cpu("/cpu:0");
        sum = tf::add_n(c);
      }
      // Creates a session with log_device_placement set to True.
      tf::Session sess(
          tf::ConfigProto{.log_device_placement = true, .gpu_options = gpus});
      // Runs the op.
      std::cout << sess.run(sum) << "\n";
      // --8<-- [end:towers]
      PrintTransfers(sess);
    });
    // --8<-- [end:seed]
  } catch (const tf::errors::OpError& e) {
    // Not the seed's: a bad MINITF_VIRTUAL_GPUS or CUDA_VISIBLE_DEVICES.
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
