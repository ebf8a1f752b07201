// The chapter's timeline of a GPU's streams: one run of
//   y = softmax(matmul(x, W) + b)     on /gpu:0, x fed, y fetched
// as the GPU device (src/minitf/gpu/gpu_device.h) orders it. The host thread
// of the executor queues a copy of x on the host-to-device stream, the three
// kernels on the compute stream and a copy of y on the device-to-host
// stream; two events order them (GpuDeviceContext::OrderedCopy): "copied",
// recorded after the copy in and waited for by the compute stream, and
// "produced", recorded on the compute stream and waited for by the copy out.
// The first panel is a real GPU, where the host only queues kernels; the
// second an emulated GPU, where the host waits for each kernel (its CPU
// fallback kernels read device memory directly, which must be up to date).
//
// The picture is a schematic of that order, drawn from the fixed example
// below: its durations are made up to be legible, not measured.
//   draw_streams [<file.svg>]
// Without a file it writes streams.svg in the temporary folder.
#include <cstdio>
#include <string>
#include <vector>

#include "svg.h"

namespace {

using draw::Svg;

// The rows of a panel, top to bottom.
enum Row { kHost, kCompute, kHostToDevice, kDeviceToHost, kDeviceToDevice };
constexpr const char* kRowNames[] = {
    "host (executor)", "compute stream", "host-to-device stream",
    "device-to-host stream", "device-to-device stream"};
constexpr int kRows = 5;

// What a span of a row does.
enum Kind { kQueue, kWait, kKernel, kCopy };

struct Span {
  Row row;
  double start, end;  // time units of the schematic
  Kind kind;
  const char* label;
};

// An event: recorded at (from_row, t_from), waited for at (to_row, t_to).
struct Event {
  Row from_row;
  double t_from;
  Row to_row;
  double t_to;
  const char* label;
};

struct Panel {
  const char* title;
  std::vector<Span> spans;
  std::vector<Event> events;
};

// A real GPU: the host queues and moves on; the streams keep the order.
Panel RealGpu() {
  return {"a real GPU: the host queues work; events order the streams",
          {
              {kHost, 0, 1.4, kQueue, "copy x"},
              {kHost, 1.4, 4.4, kWait, "waits for the copy"},
              {kHost, 4.4, 5.6, kQueue, "MatMul"},
              {kHost, 5.6, 6.8, kQueue, "Add"},
              {kHost, 6.8, 8.2, kQueue, "Softmax"},
              {kHost, 8.2, 9.4, kQueue, "copy y"},
              {kHost, 9.4, 13.2, kWait, "waits for the copy"},
              {kHostToDevice, 1.4, 4.2, kCopy, "copy x in"},
              {kCompute, 5.6, 9.2, kKernel, "MatMul"},
              {kCompute, 9.2, 10.2, kKernel, "Add"},
              {kCompute, 10.2, 11.6, kKernel, "Softmax"},
              {kDeviceToHost, 11.7, 13, kCopy, "copy y out"},
          },
          {
              {kHostToDevice, 4.2, kCompute, 5.6, "copied"},
              {kCompute, 11.6, kDeviceToHost, 11.7, "produced"},
          }};
}

// An emulated GPU: the same order, and the host waits for every kernel.
Panel EmulatedGpu() {
  return {"an emulated GPU: the same order, and the host waits for each kernel",
          {
              {kHost, 0, 1.4, kQueue, "copy x"},
              {kHost, 1.4, 4.4, kWait, "waits"},
              {kHost, 4.4, 5.6, kQueue, "MatMul"},
              {kHost, 5.6, 9.4, kWait, "waits"},
              {kHost, 9.4, 10.6, kQueue, "Add"},
              {kHost, 10.6, 11.8, kWait, "waits"},
              {kHost, 11.8, 13.2, kQueue, "Softmax"},
              {kHost, 13.2, 14.6, kWait, "waits"},
              {kHost, 14.6, 16, kQueue, "copy y"},
              {kHost, 16, 17.5, kWait, "waits"},
              {kHostToDevice, 1.4, 4.2, kCopy, "copy x in"},
              {kCompute, 5.6, 9.2, kKernel, "MatMul"},
              {kCompute, 10.6, 11.6, kKernel, "Add"},
              {kCompute, 13, 14.4, kKernel, "Softmax"},
              {kDeviceToHost, 16.1, 17.3, kCopy, "copy y out"},
          },
          {
              {kHostToDevice, 4.2, kCompute, 5.6, "copied"},
              {kCompute, 14.4, kDeviceToHost, 16.1, "produced"},
          }};
}

// The picture is read at a page's width (about 700 px in a 1280 px window),
// so it is drawn not much wider, with no label under 12 px.
constexpr double kUnit = 40;  // pixels per time unit
constexpr double kSpan = 18;  // time units on the axis
constexpr int kLabelWidth = 160, kLeft = 20, kRowHeight = 30;
constexpr int kPanelHeight = kRows * kRowHeight + 60;

void DrawPanel(Svg& svg, const Panel& panel, double top) {
  const double x0 = kLeft + kLabelWidth;
  svg.Text(kLeft, top + 16, panel.title, "font-weight=\"bold\"");
  const double rows_top = top + 30;
  for (int r = 0; r < kRows; ++r) {
    const double y = rows_top + r * kRowHeight;
    svg.Text(kLeft, y + 19, kRowNames[r], "font-size=\"12\"");
    svg.Line(x0, y + kRowHeight / 2.0, x0 + kSpan * kUnit, y + kRowHeight / 2.0,
             "#ccc", 1);
  }
  for (const Span& s : panel.spans) {
    const double x = x0 + s.start * kUnit, w = (s.end - s.start) * kUnit;
    const double y = rows_top + s.row * kRowHeight + 4;
    const double h = kRowHeight - 8;
    switch (s.kind) {
      case kQueue:
        svg.Rect(x, y, w, h, "#b6d7a8", "#38761d");
        break;
      case kWait:
        svg.Rect(x, y + 6, w, h - 12, "#eee", "#999",
                 "stroke-dasharray=\"3 2\"");
        break;
      case kKernel:
        svg.Rect(x, y, w, h, "#f6b26b", "#b45f06");
        break;
      case kCopy:
        svg.Rect(x, y, w, h, "#9fc5e8", "#0b5394");
        break;
    }
    svg.Text(x + 3, y + h / 2 + 4, s.label, "font-size=\"12\"");
  }
  for (const Event& e : panel.events) {
    const double xa = x0 + e.t_from * kUnit, xb = x0 + e.t_to * kUnit;
    const double ya = rows_top + e.from_row * kRowHeight + kRowHeight / 2.0;
    const double yb = rows_top + e.to_row * kRowHeight + kRowHeight / 2.0;
    svg.Arrow(xa, ya, xb, yb + (yb > ya ? -8 : 8), "#c00");
    svg.Text((xa + xb) / 2 + 6, (ya + yb) / 2 + 4,
             std::string("event \"") + e.label + "\"",
             "font-size=\"12\" fill=\"#c00\"");
  }
  svg.Arrow(x0, top + kPanelHeight - 18, x0 + kSpan * kUnit,
            top + kPanelHeight - 18, "#333");
  svg.Text(x0 + kSpan * kUnit - 190, top + kPanelHeight - 24,
           "time (schematic, not to scale)", "font-size=\"12\" fill=\"#555\"");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = draw::OutputPath(argc, argv, "streams.svg");
  // The right margin takes the labels that run past the axis's end.
  const double width = kLeft + kLabelWidth + kSpan * kUnit + 60;
  Svg svg(static_cast<int>(width), 2 * kPanelHeight + 70);
  svg.Text(kLeft, 22,
           "One run of y = softmax(matmul(x, W) + b) on /gpu:0: x fed, y "
           "fetched",
           "font-weight=\"bold\" font-size=\"15\"");
  svg.Text(kLeft, 42,
           "green: the host queues work; orange: kernels; blue: copies; "
           "grey, dashed: the host waits; red: events",
           "font-size=\"12\" fill=\"#444\"");
  DrawPanel(svg, RealGpu(), 55);
  DrawPanel(svg, EmulatedGpu(), 55 + kPanelHeight);
  if (!draw::WriteFile("draw_streams", path, svg.Finish())) return 1;
  return 0;
}
