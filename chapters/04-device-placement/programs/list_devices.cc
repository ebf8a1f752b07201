// Seed 000's first look at the hardware, line by line:
//
//   from tensorflow.python.client import device_lib
//   print(device_lib.list_local_devices())
//
// On a machine without a GPU that lists the CPU alone, unless the
// environment variable MINITF_VIRTUAL_GPUS asks for virtual GPUs. The
// program then lists the devices a session asking for two virtual GPUs
// would get, to show what they look like.
#include <minitf/minitf.h>

#include <iostream>

namespace tf = minitf;

int main() {
  try {
    // --8<-- [start:seed]
    std::cout << tf::device_lib::list_local_devices() << "\n";
    // --8<-- [end:seed]

    // --8<-- [start:virtual]
    tf::ConfigProto config{.gpu_options = {.virtual_gpus = 2}};
    std::cout << "\nWith two virtual GPUs:\n"
              << tf::device_lib::list_local_devices(config) << "\n";
    // --8<-- [end:virtual]
  } catch (const tf::errors::OpError& e) {
    // A bad MINITF_VIRTUAL_GPUS or CUDA_VISIBLE_DEVICES, for instance.
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
