// The picture at the top of chapter 5: who runs a kernel and which memory
// each of them sees. A grid of blocks, each block on one streaming
// multiprocessor (SM) in warps of 32 threads; every thread has registers
// of its own, the threads of a block share its shared memory, and every
// thread of every block (and the host, through cudaMemcpy) reaches global
// memory. The limits written on it are CUDA's for the GPUs of the course
// (compute capability 8.0 and 9.0); the emulator refuses a launch past the
// same block size and shared memory (src/minitf/gpu/emulator/runtime_api.cc).
//   draw_cuda_memory [<file.svg>]
// Without a file it writes cuda_memory.svg in the temporary folder.
#include <cstdio>
#include <iterator>
#include <string>

#include "svg.h"

namespace {

constexpr int kBlocks = 2;        // blocks drawn in the grid
constexpr int kWarpsShown = 2;    // warps drawn in each block
constexpr int kThreadsShown = 8;  // threads drawn in each warp
constexpr int kWarp = 32;         // threads in a warp
constexpr int kMaxBlockThreads = 1024;
constexpr int kSharedKiB = 48;      // per block, without opting in to more
constexpr int kMaxRegisters = 255;  // 32-bit registers, per thread

constexpr int kLeft = 30, kTop = 80;
constexpr int kBlockW = 250, kBlockH = 180, kGap = 22;
constexpr int kThreadPx = 24;

using draw::Svg;

const std::string kBold = "font-weight=\"bold\"";

// One block: its warps of threads, each thread with its registers, and the
// shared memory under them.
void DrawBlock(Svg& svg, int b, int x, int y) {
  svg.Rect(x, y, kBlockW, kBlockH, "#fdf3e3", "#b86a1d",
           "stroke-width=\"1.5\" rx=\"6\"");
  svg.Text(x + 8, y + 18, "block (" + std::to_string(b) + ",0) on one SM",
           kBold + " font-size=\"13\"");
  for (int w = 0; w < kWarpsShown; ++w) {
    const int wy = y + 28 + w * 48;
    svg.Rect(x + 8, wy, kBlockW - 16, 40, "none", "#8a3b00",
             "stroke-dasharray=\"3 2\"");
    svg.Text(x + 12, wy + 12,
             "warp " + std::to_string(w) + ": threads " +
                 std::to_string(w * kWarp) + ".." +
                 std::to_string(w * kWarp + kWarp - 1),
             "font-size=\"11\" fill=\"#5a2700\"");
    for (int t = 0; t < kThreadsShown; ++t) {
      const int tx = x + 12 + t * (kThreadPx + 3);
      svg.Rect(tx, wy + 16, kThreadPx, 20, "#ffffff", "#555");
      svg.Rect(tx + 5, wy + 21, kThreadPx - 10, 10, "#c9e6c9", "#2e7d4f");
    }
    svg.Text(x + 12 + kThreadsShown * (kThreadPx + 3), wy + 31, "...",
             "font-size=\"12\"");
  }
  svg.Rect(x + 8, y + kBlockH - 50, kBlockW - 16, 40, "#e6dcf5", "#6b4fa0",
           "rx=\"4\"");
  svg.Text(x + 16, y + kBlockH - 25, "shared memory of this block",
           "font-size=\"12\" fill=\"#3d2a66\"");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = draw::OutputPath(argc, argv, "cuda_memory.svg");
  const int grid_w = kBlocks * kBlockW + (kBlocks - 1) * kGap;
  const int global_y = kTop + kBlockH + 60;
  const int legend_y = global_y + 98;
  Svg svg(kLeft * 2 + grid_w, legend_y + 7 * 19 + 10);

  svg.Text(kLeft, 24, "A kernel's launch: a grid of blocks of warps of threads",
           kBold + " font-size=\"16\"");
  svg.Text(kLeft, 44,
           "and the memory each of them sees (green: a thread's registers;",
           "font-size=\"12\" fill=\"#444\"");
  svg.Text(kLeft, 60, "purple: a block's shared memory; grey: global memory)",
           "font-size=\"12\" fill=\"#444\"");
  svg.Rect(kLeft - 10, kTop - 8, grid_w + 20, kBlockH + 16, "none", "#345",
           "stroke-dasharray=\"6 4\"");
  svg.Text(kLeft, kTop + kBlockH + 24, "the grid (gridDim blocks)",
           "font-size=\"12\" fill=\"#345\"");
  for (int b = 0; b < kBlocks; ++b) {
    const int x = kLeft + b * (kBlockW + kGap);
    DrawBlock(svg, b, x, kTop);
    svg.Arrow(x + kBlockW / 2.0, kTop + kBlockH, x + kBlockW / 2.0,
              global_y - 2, "#333");
  }
  svg.Rect(kLeft, global_y, grid_w, 44, "#e4e4e4", "#666", "rx=\"4\"");
  svg.Text(kLeft + 12, global_y + 18,
           "global memory: the GPU's own memory, read and written",
           "font-size=\"12\"");
  svg.Text(kLeft + 12, global_y + 35,
           "by every thread of every block and launch", "font-size=\"12\"");
  svg.Arrow(kLeft + grid_w - 40, global_y + 64, kLeft + grid_w - 40,
            global_y + 46, "#333");
  svg.Text(kLeft + grid_w - 300, global_y + 64,
           "the host copies in and out (cudaMemcpy)", "font-size=\"12\"");

  // Lines short enough that, scaled to the page's width, the text stays
  // legible.
  const std::string rules[] = {
      "registers: one thread's own, the fastest (up to " +
          std::to_string(kMaxRegisters) + " a thread)",
      "shared memory: the threads of one block, up to " +
          std::to_string(kSharedKiB) + " KiB a block;",
      "    they meet at __syncthreads()",
      "warps: " + std::to_string(kWarp) +
          " consecutive threads of a block, issued together",
      "a block: up to " + std::to_string(kMaxBlockThreads) +
          " threads, all on one SM at once;",
      "    blocks run in any order",
      "global memory: everything; kernels hand each other their results "
      "there",
  };
  const int rows = static_cast<int>(std::size(rules));
  for (int i = 0; i < rows; ++i)
    svg.Text(kLeft, legend_y + i * 19, rules[i], "font-size=\"13\"");
  return draw::WriteFile("draw_cuda_memory", path, svg.Finish()) ? 0 : 1;
}
