// A benchmark's results, as the book shows them: Markdown tables with the
// machine, the commit and the command that produced them.
//
// Every figure a chapter quotes comes from a benchmark's own output, never
// from a person typing it. A benchmark collects its tables in a Results; at
// the end, Results prints them, and when the environment variable
// MINITF_RESULTS_DIR names a folder, also writes them there as <name>.md, the
// file the chapter includes (`--8<-- "results/<name>.md"`).
// scripts/record_results.sh runs every benchmark the book quotes that way.
//
//   minitf::bench::Results results("tensor_bench", argc, argv);
//   results.Table("Matrix product, float32", {"size", "GFLOP/s"});
//   results.Row({"1024", minitf::bench::Fixed(58.2, 1)});
//   results.Note("GFLOP/s: 2·n³ floating-point operations a second.");
//   return results.Finish();  // 0, or 1 when the file cannot be written
#pragma once

#include <sys/utsname.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace minitf::bench {

/// `value` with `digits` digits after the point.
inline std::string Fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", digits, value);
  return text;
}

/// The CPU's model name, as /proc/cpuinfo gives it ("unknown CPU" elsewhere).
inline std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon != std::string::npos && colon + 2 <= line.size()) {
      return line.substr(colon + 2);
    }
  }
  return "unknown CPU";
}

/// Invariants: every row has as many cells as its table has columns.
/// Not thread-safe: one thread fills it.
class Results {
 public:
  /// name: the results file's stem (lowercase, digits, '_'); argc/argv: the
  /// command line, recorded so that a reader can run it again.
  /// With MINITF_ISA_LIMIT=avx2 in the environment (scripts/common.sh,
  /// avx2_env), the file is <name>_avx2.md and its first line says that the
  /// figures are limited to AVX2.
  Results(std::string name, int argc, char** argv)
      : name_(std::move(name)), isa_limit_(IsaLimit()) {
    if (!isa_limit_.empty()) name_ += "_" + isa_limit_;
    for (int i = 0; i < argc; ++i) {
      std::string arg = argv[i];
      // The program's path as typed from the repository root.
      if (i == 0) {
        const size_t build = arg.find("/build/");
        if (build != std::string::npos) arg = arg.substr(build + 1);
      }
      command_ += (i ? " " : "") + arg;
    }
  }

  /// Starts a table: a caption (bold, above it) and its column heads.
  void Table(std::string caption, std::vector<std::string> columns) {
    tables_.push_back({std::move(caption), std::move(columns), {}, {}});
  }

  /// A row of the current table. REQUIRES: Table() was called, and cells
  /// has one entry per column.
  void Row(std::vector<std::string> cells) {
    if (tables_.empty() || cells.size() != tables_.back().columns.size()) {
      std::cerr << "results: a row of " << cells.size()
                << " cells does not fit its table\n";
      std::abort();  // a bug of the benchmark itself
    }
    tables_.back().rows.push_back(std::move(cells));
  }

  /// A line under the current table: what a column means, a unit, a bound.
  void Note(std::string text) {
    if (tables_.empty()) Table("", {});
    tables_.back().notes.push_back(std::move(text));
  }

  /// The tables as Markdown, after one line that says where, when, at which
  /// commit and how they were measured.
  std::string Markdown() const {
    std::ostringstream out;
    out << "*Measured on " << CpuModel() << " (" << Cores() << " cores, "
        << KernelName() << "), " << Today();
    if (const std::string commit = Commit(); !commit.empty()) {
      out << ", at commit " << commit;
    }
    out << ", with `" << command_ << "`";
    if (isa_limit_ == "avx2") {
      out << ", as a CPU without AVX-512 runs it: minitf built for x86-64-v3 "
             "(AVX2 and FMA), the peers' and libraries' CPU dispatch limited "
             "to AVX2";
    }
    out << ".*\n";
    for (const TableData& t : tables_) {
      out << "\n";
      if (!t.caption.empty()) out << "**" << t.caption << "**\n\n";
      if (!t.columns.empty()) {
        out << "|";
        for (const std::string& c : t.columns) out << " " << c << " |";
        out << "\n|";
        for (size_t i = 0; i < t.columns.size(); ++i) {
          out << (i == 0 ? "---|" : "---:|");
        }
        out << "\n";
        for (const auto& row : t.rows) {
          out << "|";
          for (const std::string& cell : row) out << " " << cell << " |";
          out << "\n";
        }
      }
      if (!t.notes.empty()) out << "\n";
      for (const std::string& n : t.notes) out << n << "\n";
    }
    return out.str();
  }

  /// Prints the tables; writes $MINITF_RESULTS_DIR/<name>.md when that is
  /// set. Returns the program's exit code: 1 when the file cannot be
  /// written (and says why), else 0.
  int Finish() const {
    const std::string text = Markdown();
    std::cout << "\n" << text << std::flush;
    const char* dir = std::getenv("MINITF_RESULTS_DIR");
    if (dir == nullptr || *dir == '\0') return 0;
    if (const std::string wrong = IsaLimitError(); !wrong.empty()) {
      std::cerr << "results: not written: " << wrong << "\n";
      return 1;
    }
    const std::string path = std::string(dir) + "/" + name_ + ".md";
    std::ofstream file(path);
    file << text;
    file.close();
    if (!file) {
      std::cerr << "results: cannot write " << path << "\n";
      return 1;
    }
    std::cout << "results: wrote " << path << "\n";
    return 0;
  }

 private:
  struct TableData {
    std::string caption;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> notes;
  };

  static unsigned Cores() { return std::thread::hardware_concurrency(); }

  static std::string IsaLimit() {
    const char* limit = std::getenv("MINITF_ISA_LIMIT");
    return limit == nullptr ? "" : limit;
  }

  /// Why the figures cannot carry the limit asked for; empty when they can.
  std::string IsaLimitError() const {
    if (isa_limit_.empty()) return "";
    if (isa_limit_ != "avx2") {
      return "MINITF_ISA_LIMIT is '" + isa_limit_ + "'; the one known is avx2";
    }
#ifdef __AVX512F__
    return "MINITF_ISA_LIMIT=avx2, but this program was built with AVX-512; "
           "build it in build/avx2 (scripts/common.sh, avx2_build)";
#else
    return "";
#endif
  }

  static std::string KernelName() {
    utsname u;
    if (uname(&u) != 0) return "unknown OS";
    return std::string(u.sysname) + " " + u.machine;
  }

  /// The commit of the code measured, from MINITF_COMMIT, which
  /// scripts/record_results.sh and scripts/gpu_check.sh set (results_commit
  /// in scripts/common.sh: 12 hex digits, then " + uncommitted changes" where
  /// the tree differed from it). Empty when it is not set: the file then
  /// records no commit, and `scripts/record_results.sh --check` lists it.
  static std::string Commit() {
    const char* commit = std::getenv("MINITF_COMMIT");
    return commit == nullptr ? "" : commit;
  }

  static std::string Today() {
    const std::time_t now = std::time(nullptr);
    std::tm utc;
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof(text), "%Y-%m-%d", &utc);
    return text;
  }

  std::string name_;
  std::string isa_limit_;  // MINITF_ISA_LIMIT: "avx2", or empty
  std::string command_;
  std::vector<TableData> tables_;
};

}  // namespace minitf::bench
