// The chapter's picture of CUDA's execution model: how a grid of blocks of
// threads maps onto a matrix, one thread per element, as a 2-D kernel
// computes its coordinates
//   col = blockIdx.x * blockDim.x + threadIdx.x
//   row = blockIdx.y * blockDim.y + threadIdx.y
// The matrix is small and its sides are not multiples of the block
// (m = 20 rows, n = 44 columns, blocks of 16 x 8 threads), so the grid hangs
// over its edges; one block shows its four warps, and one thread the element
// it computes.
//   draw_cuda_grid [<file.svg>]
// Without a file it writes cuda_grid.svg in the temporary folder.
#include <cstdio>
#include <string>

#include "svg.h"

namespace {

constexpr int kM = 20, kN = 44;           // the matrix: [m, n], row-major
constexpr int kBlockX = 16, kBlockY = 8;  // blockDim
constexpr int kWarp = 32;
constexpr int kScale = 12;  // pixels per element
// The block the picture opens, and one thread of it.
constexpr int kPickX = 1, kPickY = 1, kThreadX = 5, kThreadY = 3;

constexpr int kLeft = 64, kTop = 88;  // where element [0, 0] is drawn

using draw::Svg;

// printf into a string, for the picture's labels.
template <class... Args>
std::string Format(const char* format, Args... args) {
  char buf[160];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = draw::OutputPath(argc, argv, "cuda_grid.svg");
  const int grid_x = (kN + kBlockX - 1) / kBlockX;
  const int grid_y = (kM + kBlockY - 1) / kBlockY;
  const int bw = kBlockX * kScale, bh = kBlockY * kScale;  // a block, in px
  // The legend goes under the grid, so that the picture is about a page
  // wide (it is read at about 700 px in a 1280 px window).
  const int legend_x = kLeft, legend_y = kTop + grid_y * bh + 40;
  Svg svg(kLeft + grid_x * bw + 30, legend_y + 15 * 18 + 16);

  svg.Text(kLeft, 24, "A grid of blocks of threads over a matrix",
           "font-weight=\"bold\" font-size=\"15\"");
  svg.Text(kLeft, 44,
           Format("x: [m=%d, n=%d], one thread per element;", kM, kN));
  svg.Text(kLeft, 62,
           Format("block = dim3(%d, %d), grid = dim3(ceil(n/%d), ceil(m/%d)) "
                  "= dim3(%d, %d)",
                  kBlockX, kBlockY, kBlockX, kBlockY, grid_x, grid_y));

  // The blocks, in two alternating colours, each labelled with blockIdx.
  const char* colours[] = {"#dbe8f7", "#fde9d2"};
  for (int by = 0; by < grid_y; ++by) {
    for (int bx = 0; bx < grid_x; ++bx) {
      const bool picked = bx == kPickX && by == kPickY;
      svg.Rect(kLeft + bx * bw, kTop + by * bh, bw, bh,
               picked ? "#f6b26b" : colours[(bx + by) % 2], "#345",
               "stroke-width=\"1.5\"");
      svg.Text(kLeft + bx * bw + 4, kTop + by * bh + 13,
               Format("block (%d,%d)", bx, by),
               "font-size=\"11\" fill=\"#234\"");
    }
  }
  // The matrix's elements: a light grid of cells inside its edges.
  for (int c = 1; c < kN; ++c) {
    svg.Line(kLeft + c * kScale, kTop, kLeft + c * kScale, kTop + kM * kScale,
             "#9ab", 0.3);
  }
  for (int r = 1; r < kM; ++r) {
    svg.Line(kLeft, kTop + r * kScale, kLeft + kN * kScale, kTop + r * kScale,
             "#9ab", 0.3);
  }
  // The grid past the edge of the matrix: threads with no element.
  svg.Rect(kLeft + kN * kScale, kTop, grid_x * bw - kN * kScale, grid_y * bh,
           "#bbb", "none", "fill-opacity=\"0.6\"");
  svg.Rect(kLeft, kTop + kM * kScale, kN * kScale, grid_y * bh - kM * kScale,
           "#bbb", "none", "fill-opacity=\"0.6\"");
  svg.Rect(kLeft, kTop, kN * kScale, kM * kScale, "none", "#123",
           "stroke-width=\"2\"");

  // The picked block's warps: 32 consecutive threads, x fastest, which with
  // blockDim.x = 16 is two rows of the block.
  const int px = kLeft + kPickX * bw, py = kTop + kPickY * bh;
  const int rows_per_warp = kWarp / kBlockX;
  for (int w = 0; w < kBlockX * kBlockY / kWarp; ++w) {
    svg.Rect(px + 1, py + w * rows_per_warp * kScale + 1, bw - 2,
             rows_per_warp * kScale - 2, "none", "#8a3b00",
             "stroke-dasharray=\"3 2\"");
    svg.Text(px + bw - 44, py + (w + 1) * rows_per_warp * kScale - 7,
             Format("warp %d", w), "font-size=\"11\" fill=\"#5a2700\"");
  }
  // The picked thread and its element.
  const int col = kPickX * kBlockX + kThreadX;
  const int row = kPickY * kBlockY + kThreadY;
  svg.Rect(kLeft + col * kScale, kTop + row * kScale, kScale, kScale, "#900",
           "none");
  svg.Arrow(legend_x + 330, legend_y - 14, kLeft + col * kScale + kScale / 2,
            kTop + (row + 1) * kScale + 2, "#900");

  // Axis labels.
  svg.Text(kLeft, kTop - 6, "col = 0", "font-size=\"11\"");
  svg.Text(kLeft + kN * kScale - 40, kTop - 6, Format("col = %d", kN - 1),
           "font-size=\"11\"");
  svg.Text(kLeft - 50, kTop + 10, "row = 0", "font-size=\"11\"");
  svg.Text(kLeft - 50, kTop + kM * kScale - 2, Format("row = %d", kM - 1),
           "font-size=\"11\"");

  // The legend: the index arithmetic for the picked thread, then the rules.
  const int linear = kThreadY * kBlockX + kThreadX;
  double ly = legend_y;
  const std::string mono = "font-family=\"monospace\" font-size=\"12\"";
  svg.Text(legend_x, ly,
           Format("thread (x=%d, y=%d) of block (%d,%d):", kThreadX, kThreadY,
                  kPickX, kPickY),
           "font-weight=\"bold\"");
  ly += 20;
  for (const std::string& line : {
           Format("col = blockIdx.x*blockDim.x + threadIdx.x = %d*%d+%d = %d",
                  kPickX, kBlockX, kThreadX, col),
           Format("row = blockIdx.y*blockDim.y + threadIdx.y = %d*%d+%d = %d",
                  kPickY, kBlockY, kThreadY, row),
           std::string("if (row &lt; m &amp;&amp; col &lt; n)"),
           Format("  y[row * n + col] = f(x[row * n + col]);  // x[%d, %d]",
                  row, col),
       }) {
    svg.Text(legend_x, ly, line, mono);
    ly += 18;
  }
  ly += 10;
  for (const std::string& line : {
           Format("its linear index in the block is y*%d + x = %d:", kBlockX,
                  linear),
           Format("warp %d, lane %d. A warp is 32 threads in that order,",
                  linear / kWarp, linear % kWarp),
           Format("so with blockDim.x = %d it is %d rows of the block.",
                  kBlockX, rows_per_warp),
           Format("Warp %d of block (%d,%d) reads columns %d..%d of",
                  linear / kWarp, kPickX, kPickY, kPickX * kBlockX,
                  kPickX * kBlockX + kBlockX - 1),
           Format("rows %d and %d: two runs of %d neighbouring floats",
                  kPickY * kBlockY + linear / kWarp * rows_per_warp,
                  kPickY * kBlockY + linear / kWarp * rows_per_warp + 1,
                  kBlockX),
           std::string("(64 bytes each), fetched together: coalesced."),
           std::string(""),
           Format("grey: the %d x %d grid of threads is larger than",
                  grid_x * kBlockX, grid_y * kBlockY),
           std::string("the matrix; those threads fail the test and"),
           std::string("do nothing. Blocks run in any order, on any SM."),
       }) {
    svg.Text(legend_x, ly, line);
    ly += 18;
  }

  if (!draw::WriteFile("draw_cuda_grid", path, svg.Finish())) return 1;
  return 0;
}
