// Draws a scalar's curve from an event file, as TensorBoard's Scalars tab
// does: the raw values faint, and over them the same values smoothed by an
// exponential moving average (TensorBoard's smoothing slider, here 0.6).
// It reads the file as TensorBoard would, record by record through the
// TFRecord reader, each record an Event protobuf, keeping the summary values
// whose tag matches; the chapter's loss curve is its output for mlp's logs.
//   plot_loss [<log folder or event file> [<out.svg> [<tag>]]]
// Without arguments it reads mlp's default folder and writes loss.svg there;
// the tag is "loss" unless given.
#include <minitf/minitf.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace tf = minitf;
namespace fs = std::filesystem;

namespace {

// The newest events.out.tfevents.* file of a folder (the names start with
// the creation time in seconds), or `path` itself when it is a file.
std::string EventFile(const std::string& path) {
  if (!fs::is_directory(path)) return path;
  std::string newest;
  for (const auto& entry : fs::directory_iterator(path)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("events.out.tfevents.") &&
        entry.path().string() > newest) {
      newest = entry.path().string();
    }
  }
  if (newest.empty()) {
    throw tf::errors::NotFoundError("no events.out.tfevents.* file in " + path);
  }
  return newest;
}

// --8<-- [start:read_events]
// Every (step, value) of the scalar `tag` in the event file, in file order.
std::vector<std::pair<int64_t, float>> ReadScalars(const std::string& file,
                                                   const std::string& tag) {
  tf::TFRecordReader reader;
  tf::errors::ThrowIfError(reader.Open(file));
  std::vector<std::pair<int64_t, float>> points;
  std::string record;
  while (true) {
    tf::Status s = reader.ReadRecord(&record);
    if (tf::errors::IsOutOfRange(s)) break;  // the clean end of the file
    tf::errors::ThrowIfError(s);
    tf::proto::Event event;
    if (!event.ParseFromString(record)) {
      throw tf::errors::DataLossError(file + ": a record is not an Event");
    }
    if (!event.has_summary()) continue;  // the version record, the graph
    for (const auto& value : event.summary().value()) {
      if (value.tag() == tag && value.has_simple_value()) {
        points.emplace_back(event.step(), value.simple_value());
      }
    }
  }
  return points;
}
// --8<-- [end:read_events]

// An SVG line chart of `points` with axes, five ticks a side and the
// smoothed curve on top.
std::string Plot(const std::vector<std::pair<int64_t, float>>& points,
                 const std::string& tag) {
  const double width = 640, height = 360, left = 60, right = 20, top = 30,
               bottom = 40;
  double x_max = 1, y_min = points[0].second, y_max = points[0].second;
  for (const auto& [step, value] : points) {
    x_max = std::max(x_max, static_cast<double>(step));
    y_min = std::min<double>(y_min, value);
    y_max = std::max<double>(y_max, value);
  }
  y_min = std::min(0.0, y_min);
  if (y_max == y_min) y_max = y_min + 1;
  auto px = [&](double x) { return left + x / x_max * (width - left - right); };
  auto py = [&](double y) {
    return height - bottom -
           (y - y_min) / (y_max - y_min) * (height - top - bottom);
  };
  auto polyline = [&](const std::vector<double>& ys, const char* style) {
    std::string s =
        "<polyline fill=\"none\" " + std::string(style) + " points=\"";
    char buf[64];
    for (size_t i = 0; i < ys.size(); ++i) {
      std::snprintf(buf, sizeof buf, "%.1f,%.1f ", px(points[i].first),
                    py(ys[i]));
      s += buf;
    }
    return s + "\"/>\n";
  };
  std::vector<double> raw, smooth;
  double ema = points[0].second;
  for (const auto& [step, value] : points) {
    raw.push_back(value);
    ema = 0.6 * ema + 0.4 * value;
    smooth.push_back(ema);
  }
  char buf[256];
  std::string svg;
  std::snprintf(
      buf, sizeof buf,
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
      "height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
      width, height);
  svg += buf;
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  std::snprintf(buf, sizeof buf, "<text x=\"%.0f\" y=\"18\">%s</text>\n", left,
                tag.c_str());
  svg += buf;
  for (int i = 0; i <= 5; ++i) {
    const double x = x_max * i / 5, y = y_min + (y_max - y_min) * i / 5;
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                  "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                  "text-anchor=\"end\">%.2f</text>\n",
                  left, py(y), width - right, py(y), left - 6, py(y) + 4, y);
    svg += buf;
    std::snprintf(
        buf, sizeof buf,
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n",
        px(x), height - bottom + 16, x);
    svg += buf;
  }
  std::snprintf(
      buf, sizeof buf,
      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">step</text>\n",
      (left + width - right) / 2, height - 6);
  svg += buf;
  svg += polyline(raw, "stroke=\"#f4a582\" stroke-width=\"1\"");
  svg += polyline(smooth, "stroke=\"#ca0020\" stroke-width=\"2\"");
  return svg + "</svg>\n";
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string logs =
      argc > 1 ? argv[1]
               : (fs::temp_directory_path() / "minitf-mlp-logs").string();
  const std::string out =
      argc > 2 ? argv[2] : (fs::path(logs) / "loss.svg").string();
  const std::string tag = argc > 3 ? argv[3] : "loss";
  const std::string file = EventFile(logs);
  const auto points = ReadScalars(file, tag);
  if (points.empty()) {
    throw tf::errors::NotFoundError("no scalar '" + tag + "' in " + file);
  }
  std::ofstream(out) << Plot(points, tag);
  std::cout << "read " << points.size() << " values of '" << tag << "' from "
            << file << "; wrote " << out << "\n";
  return 0;
} catch (const tf::errors::OpError& e) {
  // A missing or damaged file ends the program with the error's name and
  // text, as Python prints an uncaught tf.errors exception.
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
