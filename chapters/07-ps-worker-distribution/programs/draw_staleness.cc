// The chapter's histogram of staleness in asynchronous training.
//
// seed_distributed --staleness_dir=DIR makes each worker fetch, with every
// training step, global_step as the step read W and b and as its own update
// left it; worker i writes the pairs to DIR/staleness_worker_<i>.txt. The
// difference less one is the step's staleness: how many updates of other
// workers reached the ps between the step's read of the variables and its
// write, i.e. how old the parameters its gradient was computed from were
// when the gradient was applied. This program counts the steps of each
// staleness, prints the table and draws it as a histogram, one colour per
// worker, stacked; one panel per run, on one staleness axis, so that runs
// with different numbers of workers compare.
//   draw_staleness <file.svg> <dir> [<dir> ...]
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "svg.h"

namespace {

// Staleness -> number of steps, one map per worker, by worker index.
using Histograms = std::map<int, std::map<int64_t, int64_t>>;

// Reads every DIR/staleness_worker_<i>.txt; false (with a message) when a
// file has a line that is not two numbers, or there is no file.
bool ReadHistograms(const std::filesystem::path& dir, Histograms* out) {
  const std::string prefix = "staleness_worker_";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix) || !name.ends_with(".txt")) continue;
    const int worker = std::stoi(name.substr(prefix.size()));
    std::map<int64_t, int64_t>& counts = (*out)[worker];
    std::ifstream in(entry.path());
    int64_t read = 0, written = 0;
    while (in >> read >> written) ++counts[written - read - 1];
    if (!in.eof()) {
      std::cerr << "draw_staleness: " << entry.path()
                << " has a line that is not two global steps\n";
      return false;
    }
  }
  if (out->empty()) {
    std::cerr << "draw_staleness: no " << prefix << "<i>.txt in " << dir
              << "\n";
    return false;
  }
  return true;
}

// The steps of each staleness, all workers together.
std::map<int64_t, int64_t> Totals(const Histograms& histograms) {
  std::map<int64_t, int64_t> total;
  for (const auto& [worker, counts] : histograms) {
    for (const auto& [s, n] : counts) total[s] += n;
  }
  return total;
}

constexpr double kLeft = 70, kPanelTop = 70, kPlotH = 220, kPanelH = 320;
const char* const kColors[] = {"#2b6cd9", "#d9822b", "#3a9d5d", "#9d3a8c"};

// One run's histogram, its columns lo..hi, `bar` wide each, at height `top`.
void DrawPanel(draw::Svg& svg, double top, const Histograms& histograms,
               int64_t lo, int64_t hi, double bar) {
  const std::map<int64_t, int64_t> total = Totals(histograms);
  int64_t steps = 0, sum = 0, tallest = 1;
  for (const auto& [s, n] : total) {
    steps += n;
    sum += s * n;
    tallest = std::max(tallest, n);
  }
  const int64_t columns = hi - lo + 1;
  char mean[32];
  std::snprintf(mean, sizeof mean, "%.2f",
                steps > 0 ? static_cast<double>(sum) / steps : 0.0);
  svg.Text(kLeft, top + 20,
           std::to_string(histograms.size()) + " workers: " +
               std::to_string(steps) + " updates, mean staleness " + mean,
           "font-weight=\"bold\" font-size=\"12\"");
  const double plot_top = top + kPanelTop - 30;
  const double base = plot_top + kPlotH;
  svg.Line(kLeft, base, kLeft + columns * bar, base, "#333", 1);
  svg.Line(kLeft, plot_top, kLeft, base, "#333", 1);
  // Four gridlines on the count axis.
  for (int g = 1; g <= 4; ++g) {
    const double y = base - kPlotH * g / 4;
    svg.Line(kLeft, y, kLeft + columns * bar, y, "#e4e4e4", 1);
    svg.Text(8, y + 4, std::to_string(tallest * g / 4),
             "font-size=\"11\" fill=\"#555\"");
  }
  for (int64_t s = lo; s <= hi; ++s) {
    const double x = kLeft + (s - lo) * bar;
    double y = base;
    int color = 0;
    for (const auto& [worker, counts] : histograms) {
      const auto it = counts.find(s);
      const int64_t n = it == counts.end() ? 0 : it->second;
      const double h = kPlotH * n / static_cast<double>(tallest);
      if (n > 0) {
        svg.Rect(x + 1, y - h, bar - 2, h, kColors[color % 4], "none");
      }
      y -= h;
      ++color;
    }
    const auto all = total.find(s);
    if (all != total.end() && columns <= 24) {
      svg.Text(x + bar / 2 - 8, y - 4, std::to_string(all->second),
               "font-size=\"11\" fill=\"#333\"");
    }
    if (columns <= 24 || (s - lo) % 5 == 0) {
      svg.Text(x + bar / 2 - 4, base + 16, std::to_string(s),
               "font-size=\"11\"");
    }
  }
  svg.Text(kLeft, base + 34, "staleness (updates)", "font-size=\"12\"");
  int color = 0;
  for (const auto& [worker, counts] : histograms) {
    const double x = kLeft + columns * bar + 20;
    const double y = plot_top + 18 * color;
    svg.Rect(x, y, 12, 12, kColors[color % 4], "none");
    svg.Text(x + 18, y + 11, "worker " + std::to_string(worker),
             "font-size=\"12\"");
    ++color;
  }
}

std::string Draw(const std::vector<Histograms>& runs, int64_t lo, int64_t hi) {
  const int64_t columns = hi - lo + 1;
  const double bar = std::clamp(480.0 / columns, 8.0, 96.0);
  const double width = std::max(640.0, kLeft + columns * bar + 180);
  const double height = 60 + runs.size() * kPanelH;
  draw::Svg svg(static_cast<int>(width), static_cast<int>(height));
  svg.Text(kLeft, 22, "Staleness in seed 003's asynchronous training (1 ps)",
           "font-weight=\"bold\"");
  svg.Text(kLeft, 40,
           "steps by staleness: updates by other workers between a step's "
           "read of W, b and its write",
           "font-size=\"12\" fill=\"#555\"");
  for (size_t i = 0; i < runs.size(); ++i) {
    DrawPanel(svg, 50 + i * kPanelH, runs[i], lo, hi, bar);
  }
  return svg.Finish();
}

// Prints a run's table: steps by staleness and worker.
void PrintTable(const std::string& dir, const Histograms& histograms,
                int64_t lo, int64_t hi) {
  std::cout << dir << ":\n";
  std::printf("staleness");
  for (const auto& [worker, counts] : histograms) {
    std::printf("  worker %d", worker);
  }
  std::printf("  all\n");
  int64_t steps = 0, sum = 0;
  for (int64_t s = lo; s <= hi; ++s) {
    int64_t all = 0;
    std::printf("%9lld", static_cast<long long>(s));
    for (const auto& [worker, counts] : histograms) {
      const auto it = counts.find(s);
      const int64_t n = it == counts.end() ? 0 : it->second;
      all += n;
      std::printf("  %8lld", static_cast<long long>(n));
    }
    std::printf("  %4lld\n", static_cast<long long>(all));
    steps += all;
    sum += s * all;
  }
  std::printf("%lld steps, mean staleness %.2f\n",
              static_cast<long long>(steps),
              steps > 0 ? static_cast<double>(sum) / steps : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: draw_staleness <file.svg> <dir> [<dir> ...]\n";
    return 2;
  }
  std::vector<Histograms> runs(argc - 2);
  int64_t lo = 0, hi = 0;
  for (int i = 2; i < argc; ++i) {
    if (!ReadHistograms(argv[i], &runs[i - 2])) return 1;
    for (const auto& [s, n] : Totals(runs[i - 2])) {
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
  }
  for (int i = 2; i < argc; ++i) PrintTable(argv[i], runs[i - 2], lo, hi);
  return draw::WriteFile("draw_staleness", argv[1], Draw(runs, lo, hi)) ? 0 : 1;
}
