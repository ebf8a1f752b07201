// The chapter's picture of version 3 of the teaching GEMM
// (src/minitf/gpu/kernels/gemm/v3_shared_tiles.cuh): how its grid of blocks
// and each block's threads map onto c = a b, and which tiles of a and b one
// block loads into shared memory at one step along k. The matrices are
// small and not multiples of the tile (m = 100, n = 76, k = 88, TILE = 32),
// so the picture also shows the blocks that hang over the edge of c.
//   draw_gemm_tiles [<file.svg>]
// Without a file it writes gemm_tiles.svg in the temporary folder.
#include <cstdio>
#include <string>
#include <vector>

#include "svg.h"

namespace {

constexpr int kM = 100, kN = 76, kK = 88, kTile = 32;
constexpr int kScale = 3;  // pixels per matrix element
// The block and the step along k the picture follows, and one thread of it.
constexpr int kBlockX = 1, kBlockY = 2, kStep = 1, kThreadX = 5, kThreadY = 20;

// Where each matrix's element (0, 0) is drawn: b above c, a to its left.
constexpr int kAx = 70, kBx = kAx + kK * kScale + 50;
constexpr int kBy = 50, kAy = kBy + kK * kScale + 50;

using draw::Svg;

}  // namespace

int main(int argc, char** argv) {
  const std::string path = draw::OutputPath(argc, argv, "gemm_tiles.svg");
  const int grid_x = (kN + kTile - 1) / kTile,
            grid_y = (kM + kTile - 1) / kTile;
  const int tiles_k = (kK + kTile - 1) / kTile;
  const int t = kTile * kScale;  // a tile, in pixels
  // The legend's lines go under the matrices, so that the picture is about
  // a page wide (it is read at about 700 px in a 1280 px window).
  const std::vector<std::string> legend = {
      "grid = (ceil(n/32), ceil(m/32)) = (3, 4) blocks; labels: (blockIdx.x, "
      "blockIdx.y)",
      "block = 32 x 32 threads, one per element",
      "block (1,2) computes rows 64..95, cols 32..63",
      "thread (x=5, y=20) of it: c[84, 37] (dark)",
      "",
      "each step p0 = 0, 32, 64 along k, the block loads a_tile and b_tile",
      "into shared memory, one element per thread, then each thread adds",
      "32 products: its row of a_tile times its column of b_tile.",
      "",
      "grey: the grid past the edge of c; dashed: tile parts past the edge",
      "of a or b. Threads there load zeros and compute no element, but",
      "still reach every __syncthreads().",
  };
  const double legend_y = kAy + grid_y * t + 54;
  Svg svg(kBx + grid_x * t + 40, legend_y + legend.size() * 18);
  const std::string dashed = "stroke-dasharray=\"4 3\"";

  // The three matrices.
  svg.Rect(kAx, kAy, kK * kScale, kM * kScale, "#eef3fb", "#345");
  svg.Rect(kBx, kBy, kN * kScale, kK * kScale, "#eef3fb", "#345");
  svg.Rect(kBx, kAy, kN * kScale, kM * kScale, "#eef3fb", "#345");
  svg.Text(kAx, kAy - 8, "a: [m=100, k=88]", "font-weight=\"bold\"");
  svg.Text(kBx, kBy - 8, "b: [k=88, n=76]", "font-weight=\"bold\"");
  svg.Text(kBx, kAy + grid_y * t + 20, "c: [m=100, n=76]",
           "font-weight=\"bold\"");
  svg.Text(kAx, kBy + 10, "Version 3: shared-memory tiles",
           "font-weight=\"bold\" font-size=\"15\"");
  double title_y = kBy + 32;
  for (const char* line : {"TILE = 32: the grid of blocks over c,",
                           "one block's threads, and the tiles",
                           "of a and b it loads at one step"}) {
    svg.Text(kAx, title_y, line);
    title_y += 18;
  }

  // The grid over c: one block per tile, rounded up past the edges.
  for (int by = 0; by < grid_y; ++by) {
    for (int bx = 0; bx < grid_x; ++bx) {
      const bool chosen = bx == kBlockX && by == kBlockY;
      svg.Rect(kBx + bx * t, kAy + by * t, t, t, chosen ? "#f6b26b" : "none",
               "#345", chosen ? "" : dashed);
      char label[32];
      std::snprintf(label, sizeof label, "(%d,%d)", bx, by);
      svg.Text(kBx + bx * t + 4, kAy + by * t + 14, label,
               "font-size=\"11\" fill=\"#345\"");
    }
  }
  // The part of the grid outside c: threads with no element of c.
  svg.Rect(kBx + kN * kScale, kAy, grid_x * t - kN * kScale, grid_y * t, "#ccc",
           "none", "fill-opacity=\"0.5\"");
  svg.Rect(kBx, kAy + kM * kScale, kN * kScale, grid_y * t - kM * kScale,
           "#ccc", "none", "fill-opacity=\"0.5\"");

  // The chosen block's threads: one per element of its tile.
  const double cx = kBx + kBlockX * t, cy = kAy + kBlockY * t;
  for (int i = 1; i < kTile; ++i) {
    svg.Line(cx + i * kScale, cy, cx + i * kScale, cy + t, "#c77c2a", 0.3);
    svg.Line(cx, cy + i * kScale, cx + t, cy + i * kScale, "#c77c2a", 0.3);
  }
  svg.Rect(cx + kThreadX * kScale, cy + kThreadY * kScale, kScale, kScale,
           "#900", "none");

  // Its strips of a and b, the tiles along k, and the tiles of this step.
  svg.Rect(kAx, cy, kK * kScale, t, "#fce5cd", "#c77c2a");
  svg.Rect(cx, kBy, t, kK * kScale, "#fce5cd", "#c77c2a");
  for (int s = 0; s < tiles_k; ++s) {
    const bool now = s == kStep;
    svg.Rect(kAx + s * t, cy, t, t, now ? "#f6b26b" : "none", "#c77c2a",
             now ? "" : dashed);
    svg.Rect(cx, kBy + s * t, t, t, now ? "#f6b26b" : "none", "#c77c2a",
             now ? "" : dashed);
  }
  // The chosen thread's row of a_tile and column of b_tile.
  svg.Rect(kAx + kStep * t, cy + kThreadY * kScale, t, kScale, "#900", "none");
  svg.Rect(cx + kThreadX * kScale, kBy + kStep * t, kScale, t, "#900", "none");
  svg.Text(kAx + kStep * t, cy - 6, "a_tile at p0 = 32", "fill=\"#874\"");
  svg.Text(cx + t + 6, kBy + kStep * t + 14, "b_tile at p0 = 32",
           "fill=\"#874\"");

  // The legend.
  double ly = legend_y;
  for (const std::string& line : legend) {
    svg.Text(kAx, ly, line);
    ly += 18;
  }

  if (!draw::WriteFile("draw_gemm_tiles", path, svg.Finish())) return 1;
  return 0;
}
