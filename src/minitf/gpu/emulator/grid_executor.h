// How the emulator runs a grid: its blocks are independent (CUDA promises no
// order among them and no way for one to wait for another), so host threads
// take them one at a time from a shared counter, each block whole on one host
// thread (block_runner.h). The thread that launched takes blocks too; a pool
// of helper threads, started once, takes the rest, so a launch costs no
// thread creation. A kernel whose blocks must run one at a time
// (KernelLaunch::serial_blocks) runs on the launching thread alone.
//
//   KernelLaunch launch = ...;        // launch.h fills it in
//   run_grid(launch);                 // every block has run when it returns
//   // blocks 0..n-1 in order of the counter, x fastest:
//   //   block (b % grid.x, b / grid.x % grid.y, b / (grid.x * grid.y))
//   // helpers: Options::host_threads - 1 (0: one per CPU core)
#pragma once

#include "minitf/gpu/emulator/block_runner.h"

namespace minitf::gpu::emulator {

/// Runs every block of `launch` and returns when all have finished.
/// Thread-safe: launches from several host threads (streams) may overlap; a
/// launch that finds the helpers busy runs its blocks on its own thread.
void run_grid(const KernelLaunch& launch);

}  // namespace minitf::gpu::emulator
