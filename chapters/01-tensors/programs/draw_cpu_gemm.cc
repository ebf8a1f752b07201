// The picture at the top of chapter 1, part 2: how the packed GEMM
// (src/minitf/tensor/kernels/gemm/v4_packing.h) cuts one block of c = a b.
// A block of a (kMc rows by kc steps of depth) is packed into slivers of
// kMr rows, a block of b (kc by kNc columns) into slivers of kNr columns,
// and the micro-kernel computes one kMr x kNr tile of c from one sliver of
// each, in vector registers, one depth step at a time. The sizes come from
// Tile<float> and Blocking<float>, so the picture shows the tile of the
// machine that builds it (AVX-512: 10 x 32; AVX2: 6 x 16).
//   draw_cpu_gemm [<file.svg>]
// Without a file it writes cpu_gemm.svg in the temporary folder.
#include <algorithm>
#include <string>
#include <vector>

#include "minitf/tensor/kernels/gemm/v4_packing.h"
#include "svg.h"

namespace {

namespace gemm = minitf::kernels::gemm;
using Tile = gemm::Tile<float>;
using Blocking = gemm::Blocking<float>;
using draw::Svg;

constexpr int kMr = Tile::kMr, kNr = Tile::kNr;
constexpr int kRowPx = 3;         // a row of a and c, in pixels
constexpr int kSliverColPx = 44;  // a sliver of b (kNr columns), in pixels
constexpr int kDepthPx = 200;     // the block's depth kc, in pixels
constexpr int kSliversShown = 8;  // slivers of b drawn before the "..."
// The sliver of a, the sliver of b and the depth step the picture follows.
constexpr int kSliverA = 3, kSliverB = 2;
constexpr double kStep = 0.45;  // of the depth

std::string KiB(double bytes) {
  return bytes >= 1 << 20 ? std::to_string(int(bytes / (1 << 20))) + " MiB"
                          : std::to_string(int(bytes / 1024)) + " KiB";
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = draw::OutputPath(argc, argv, "cpu_gemm.svg");
  const int slivers_a = Blocking::kMc / kMr;
  const int mc_px = Blocking::kMc * kRowPx, mr_px = kMr * kRowPx;
  const int nc_px = kSliversShown * kSliverColPx;
  // b above c, a to c's left, the legend under c.
  const int ax = 60, bx = ax + kDepthPx + 40, by = 58;
  const int ay = by + kDepthPx + 30;
  // Lines short enough that, scaled to the page's width, the text stays
  // legible.
  const std::string packets = std::to_string(Tile::kNrPackets);
  const std::string fmas = std::to_string(kMr * Tile::kNrPackets);
  const std::vector<std::string> legend = {
      "packed a: kMc x kc = " + std::to_string(Blocking::kMc) + " x " +
          std::to_string(Blocking::kKc) + " floats (" +
          KiB(4.0 * Blocking::kMc * Blocking::kKc) +
          ", in the L2), in slivers of kMr = " + std::to_string(kMr) + " rows;",
      "packed b: kc x kNc = " + std::to_string(Blocking::kKc) + " x " +
          std::to_string(Blocking::kNc) + " floats (" +
          KiB(4.0 * Blocking::kKc * Blocking::kNc) +
          ", in the L3), in slivers of kNr = " + std::to_string(kNr),
      "columns (" + KiB(4.0 * Blocking::kKc * kNr) +
          " each); each sliver is stored one depth step after another "
          "(the arrows)",
      "the micro-kernel keeps one kMr x kNr tile of c (dark) in " + fmas +
          " vector registers,",
      "from one sliver of a and one of b; at each depth step p (the black "
      "lines), kMr values",
      "of a, each broadcast, times kNr values of b (" + packets +
          " packets): " + fmas + " fused multiply-adds",
      "loops, outermost first: columns of b by kNc, depth by kc (pack b), "
      "rows of a by kMc",
      "(pack a), then slivers of b, slivers of a, and the micro-kernel's kc "
      "steps",
  };
  const int legend_y = ay + mc_px + 44;
  Svg svg(bx + nc_px + 70, legend_y + static_cast<int>(legend.size()) * 19 + 8);
  const std::string bold = "font-weight=\"bold\"";
  svg.Text(ax, 26,
           "One block of c = a b in the packed GEMM (float, tile " +
               std::to_string(kMr) + " x " + std::to_string(kNr) + ")",
           bold + " font-size=\"16\"");

  // Packed a: slivers of kMr rows, one highlighted, its depth order drawn.
  svg.Text(ax, ay - 10, "packed a", bold);
  for (int s = 0; s < slivers_a; ++s) {
    const bool on = s == kSliverA;
    svg.Rect(ax, ay + s * mr_px, kDepthPx, mr_px, on ? "#f6c58f" : "#fbe8d3",
             "#b86a1d", "stroke-width=\"0.8\"");
  }
  const double sa_y = ay + kSliverA * mr_px;
  for (int p = 0; p < 5; ++p) {  // kMr values of a depth step, then the next
    const double x = ax + 12 + p * 14;
    svg.Arrow(x, sa_y + 3, x, sa_y + mr_px - 3, "#7a3e0a");
    if (p < 4)
      svg.Line(x, sa_y + mr_px - 3, x + 14, sa_y + 3, "#7a3e0a", 0.6,
               "stroke-dasharray=\"2 2\"");
  }
  svg.Text(ax - 52, sa_y + mr_px - 4, "kMr", "font-size=\"12\"");
  svg.Text(ax + kDepthPx / 2 - 8, ay + mc_px + 18, "kc");
  svg.Text(ax - 52, ay + mc_px / 2, "kMc", "font-size=\"12\"");

  // Packed b: slivers of kNr columns, the first kSliversShown drawn.
  svg.Text(bx, by - 10, "packed b", bold);
  for (int s = 0; s < kSliversShown; ++s) {
    const bool on = s == kSliverB;
    svg.Rect(bx + s * kSliverColPx, by, kSliverColPx, kDepthPx,
             on ? "#9cc3e8" : "#dbe8f7", "#2f5d8a", "stroke-width=\"0.8\"");
  }
  const double sb_x = bx + kSliverB * kSliverColPx;
  for (int p = 0; p < 5; ++p) {  // kNr values of a depth step, then the next
    const double y = by + 12 + p * 12;
    svg.Arrow(sb_x + 3, y, sb_x + kSliverColPx - 3, y, "#173a5e");
  }
  svg.Text(bx + nc_px + 8, by + kDepthPx / 2, "kc");
  svg.Text(sb_x + 8, by + kDepthPx + 16, "kNr", "font-size=\"12\"");
  svg.Text(bx + nc_px + 8, by + 14,
           "... " + std::to_string(Blocking::kNc / kNr) + " in all",
           "font-size=\"12\"");

  // The block of c, cut into kMr x kNr tiles; the one being computed dark.
  for (int s = 0; s < slivers_a; ++s) {
    for (int t = 0; t < kSliversShown; ++t) {
      const bool on = s == kSliverA && t == kSliverB;
      svg.Rect(bx + t * kSliverColPx, ay + s * mr_px, kSliverColPx, mr_px,
               on ? "#2e7d4f" : "#e3f1e7", "#2e7d4f", "stroke-width=\"0.6\"");
    }
  }
  svg.Text(bx + nc_px + 8, ay + mc_px / 2, "c", bold);
  // Depth step p: a column of a's sliver, a row of b's, meeting in the tile.
  const double px = ax + kStep * kDepthPx, py = by + kStep * kDepthPx;
  svg.Line(px, sa_y, px, sa_y + mr_px, "#222", 2);
  svg.Line(sb_x, py, sb_x + kSliverColPx, py, "#222", 2);
  svg.Arrow(px, sa_y + mr_px / 2.0, bx + kSliverB * kSliverColPx - 4,
            sa_y + mr_px / 2.0, "#555", "stroke-dasharray=\"4 3\"");
  svg.Arrow(sb_x + kSliverColPx / 2.0, py, sb_x + kSliverColPx / 2.0, sa_y - 4,
            "#555", "stroke-dasharray=\"4 3\"");
  svg.Text(px - 4, sa_y - 6, "p", "font-size=\"12\"");
  svg.Text(sb_x - 12, py + 4, "p", "font-size=\"12\"");

  for (size_t i = 0; i < legend.size(); ++i)
    svg.Text(ax, legend_y + i * 19, legend[i]);
  return draw::WriteFile("draw_cpu_gemm", path, svg.Finish()) ? 0 : 1;
}
