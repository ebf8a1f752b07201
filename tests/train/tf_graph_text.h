// Prints a GraphDef one node a line, as tools/dump_tf_graphs.py prints
// TensorFlow's, and compares it with the lists that script wrote to
// tests/train/testdata/tf_graphs/ (MINITF_TF_GRAPHS_DIR):
//
//   name = Op(input, input:1, ^control) @device attr=value ...
//
// Shared by chapter 3's tests (tf_graphs_test.cc) and chapter 4's
// (tests/device/session/tf_graphs_device_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "minitf/graph/graph_def.h"
#include "minitf/graph/proto_convert.h"

namespace minitf::tf_graphs {

// NumPy's names: float32, float64, int32, int64, bool.
inline std::string DTypeName(int proto_dtype) {
  const DType t = DTypeFromProto(proto_dtype).value();
  if (t == DT_FLOAT) return "float32";
  if (t == DT_DOUBLE) return "float64";
  return std::string(DataTypeString(t));
}

inline std::string Printf(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

inline std::string ShapeText(const proto::TensorShapeProto& shape) {
  if (shape.unknown_rank()) return "<unknown>";
  std::string s = "[";
  for (int i = 0; i < shape.dim_size(); ++i) {
    const int64_t d = shape.dim(i).size();
    if (i > 0) s += ',';
    s += d < 0 ? std::string("?") : std::to_string(d);
  }
  return s + "]";
}

inline std::string TensorText(const proto::TensorProto& proto) {
  const Tensor t = TensorFromProto(proto).value();
  std::string s = DTypeName(proto.dtype()) + "[";
  for (int i = 0; i < t.dims(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(t.dim_size(i));
  }
  s += "]";
  if (t.NumElements() > 64) return s;
  s += "{";
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    if (i > 0) s += ",";
    switch (t.dtype()) {
      case DT_FLOAT:
        s += Printf("%.9g", t.data<float>()[i]);
        break;
      case DT_DOUBLE:
        s += Printf("%.17g", t.data<double>()[i]);
        break;
      case DT_INT32:
        s += std::to_string(t.data<int32_t>()[i]);
        break;
      case DT_INT64:
        s += std::to_string(t.data<int64_t>()[i]);
        break;
      case DT_BOOL:
        s += t.data<bool>()[i] ? "true" : "false";
        break;
      default:
        s += "?";
    }
  }
  return s + "}";
}

inline std::string AttrText(const proto::AttrValue& v) {
  switch (v.value_case()) {
    case proto::AttrValue::kType:
      return DTypeName(v.type());
    case proto::AttrValue::kB:
      return v.b() ? "true" : "false";
    case proto::AttrValue::kI:
      return std::to_string(v.i());
    case proto::AttrValue::kF:
      return Printf("%.9g", v.f());
    case proto::AttrValue::kS:
      return "\"" + v.s() + "\"";
    case proto::AttrValue::kShape:
      return ShapeText(v.shape());
    case proto::AttrValue::kTensor:
      return TensorText(v.tensor());
    case proto::AttrValue::kList: {
      std::vector<std::string> items;
      for (const auto& s : v.list().s()) items.push_back("\"" + s + "\"");
      for (int64_t i : v.list().i()) items.push_back(std::to_string(i));
      for (float f : v.list().f()) items.push_back(Printf("%.9g", f));
      for (int t : v.list().type()) items.push_back(DTypeName(t));
      for (const auto& s : v.list().shape()) items.push_back(ShapeText(s));
      std::string out = "[";
      for (size_t i = 0; i < items.size(); ++i)
        out += (i ? "," : "") + items[i];
      return out + "]";
    }
    default:
      return "<none>";
  }
}

// TensorFlow writes a node's control inputs sorted by name.
inline std::string NodeText(const NodeDef& node) {
  std::vector<std::string> data, control;
  for (const std::string& in : node.input()) {
    (in[0] == '^' ? control : data).push_back(in);
  }
  std::sort(control.begin(), control.end());
  data.insert(data.end(), control.begin(), control.end());
  std::string line = node.name() + " = " + node.op() + "(";
  for (size_t i = 0; i < data.size(); ++i) line += (i ? ", " : "") + data[i];
  line += ")";
  if (!node.device().empty()) line += " @" + node.device();
  std::vector<std::string> keys;
  for (const auto& [key, unused] : node.attr()) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  for (const std::string& key : keys) {
    line += " " + key + "=" + AttrText(node.attr().at(key));
  }
  return line;
}

inline std::vector<std::string> Lines(const Graph& graph) {
  std::vector<std::string> lines;
  const GraphDef graph_def = ToGraphDef(graph).value();
  for (const NodeDef& node : graph_def.node()) {
    lines.push_back(NodeText(node));
  }
  return lines;
}

inline std::vector<std::string> Expected(const std::string& graph_name) {
  std::ifstream in(std::string(MINITF_TF_GRAPHS_DIR) + "/" + graph_name +
                   ".txt");
  EXPECT_TRUE(in.good()) << "no expected list for " << graph_name;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  return lines;
}

// The lines from the node named `from` on ("" for all of them).
inline std::vector<std::string> From(std::vector<std::string> lines,
                                     const std::string& from) {
  if (from.empty()) return lines;
  auto it = std::find_if(lines.begin(), lines.end(), [&](const std::string& l) {
    return l.rfind(from + " = ", 0) == 0;
  });
  EXPECT_NE(it, lines.end()) << "no node " << from;
  return std::vector<std::string>(it, lines.end());
}

// Every line (from the node named `from` on, when given), with the first
// difference named: a missing, extra or changed node shows as itself and
// TensorFlow's line at the same place.
inline void ExpectSameNodes(const Graph& graph, const std::string& graph_name,
                            const std::string& from = "") {
  const std::vector<std::string> want = From(Expected(graph_name), from);
  const std::vector<std::string> got = From(Lines(graph), from);
  std::ostringstream all;
  for (const std::string& line : got) all << line << "\n";
  const size_t n = std::max(want.size(), got.size());
  for (size_t i = 0; i < n; ++i) {
    const std::string w = i < want.size() ? want[i] : "<none>";
    const std::string g = i < got.size() ? got[i] : "<none>";
    if (w != g) {
      ADD_FAILURE() << graph_name << ": node " << i << " differs\n"
                    << "  TensorFlow: " << w << "\n"
                    << "  minitf:     " << g << "\nminitf's graph:\n"
                    << all.str();
      return;
    }
  }
}

}  // namespace minitf::tf_graphs
