// The few SVG shapes the course's pictures are drawn with: rectangles,
// lines, arrows and text, in pixels, on a white page. The pictures are drawn
// by small programs at docs build time (scripts/build_docs.sh), so the
// numbers in them come from the same constants as the text that explains
// them; chapter 1's part 2 and chapters 5 to 7 draw with it, and so does
// towers_bench's timeline.
// It sits beside results.h and timing.h, the other helpers every chapter's
// programs and benchmarks share.
//
//   Svg svg(400, 200);
//   svg.Rect(10, 10, 100, 50, "#eef3fb", "#345");
//   svg.Text(14, 30, "block (0,0)");
//   WriteFile("draw_grid", OutputPath(argc, argv, "grid.svg"), svg.Finish());
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace draw {

class Svg {
 public:
  Svg(int width, int height) {
    out_ += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
            std::to_string(width) + "\" height=\"" + std::to_string(height) +
            "\" viewBox=\"0 0 " + std::to_string(width) + " " +
            std::to_string(height) +
            "\" font-family=\"sans-serif\" font-size=\"13\">\n"
            "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" "
            "refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
            "orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" "
            "fill=\"#333\"/></marker></defs>\n"
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  }
  /// A rectangle; `extra` is more SVG attributes.
  void Rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& stroke, const std::string& extra = "") {
    out_ += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" +
            Num(w) + "\" height=\"" + Num(h) + "\" fill=\"" + fill +
            "\" stroke=\"" + stroke + "\" " + extra + "/>\n";
  }
  void Line(double x1, double y1, double x2, double y2,
            const std::string& stroke, double width,
            const std::string& extra = "") {
    out_ += "<line x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" +
            Num(x2) + "\" y2=\"" + Num(y2) + "\" stroke=\"" + stroke +
            "\" stroke-width=\"" + Num(width) + "\" " + extra + "/>\n";
  }
  /// A line with an arrow head at (x2, y2).
  void Arrow(double x1, double y1, double x2, double y2,
             const std::string& stroke, const std::string& extra = "") {
    Line(x1, y1, x2, y2, stroke, 1.2, "marker-end=\"url(#arrow)\" " + extra);
  }
  /// Text whose baseline starts at (x, y). `text` must be XML-safe.
  void Text(double x, double y, const std::string& text,
            const std::string& extra = "") {
    out_ += "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" " + extra + ">" +
            text + "</text>\n";
  }
  std::string Finish() const { return out_ + "</svg>\n"; }

 private:
  static std::string Num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }
  std::string out_;
};

/// Where a drawing program writes its picture: the file its command line
/// names, or `name` in the temporary folder when it names none.
inline std::string OutputPath(int argc, char** argv, const char* name) {
  return argc > 1 ? argv[1]
                  : (std::filesystem::temp_directory_path() / name).string();
}

/// Writes `text` to `path` and says so on stdout; false (and a message on
/// stderr naming `program`) when it cannot.
inline bool WriteFile(const char* program, const std::string& path,
                      const std::string& text) {
  std::ofstream file(path);
  file << text;
  if (!file) {
    std::cerr << program << ": cannot write " << path << "\n";
    return false;
  }
  std::cout << "wrote " << path << "\n";
  return true;
}

}  // namespace draw
