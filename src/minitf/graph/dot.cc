#include "minitf/graph/dot.h"

#include <fstream>
#include <map>
#include <memory>
#include <vector>

namespace minitf {
namespace {

// Light colours that black text reads well on (ColorBrewer's "Paired" and
// "Pastel1"); devices past the last reuse them in turn.
constexpr const char* kDeviceColors[] = {
    "#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6",
    "#ffff99", "#fbb4ae", "#ccebc5", "#decbe4", "#fed9a6",
};

// A DOT string literal's body: quotes and backslashes escaped.
std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string Quote(const std::string& s) { return "\"" + Escape(s) + "\""; }

std::string EdgeText(const Output& out, DotOptions::EdgeLabel kind) {
  std::string text;
  if (kind == DotOptions::EdgeLabel::kDType) {
    text = DataTypePythonName(out.dtype());
  } else if (kind == DotOptions::EdgeLabel::kShape) {
    const TensorShape& shape = out.shape();
    if (shape.unknown_rank()) {
      text = DataTypePythonName(out.dtype());
    } else if (shape.dims() == 0) {
      text = "scalar";
    } else {
      for (int i = 0; i < shape.dims(); ++i) {
        if (i > 0) text += "\u00d7";  // The multiplication sign, ×.
        const int64_t d = shape.dim_size(i);
        text += d < 0 ? "?" : std::to_string(d);
      }
    }
  }
  // An edge from a second output says which output it is.
  if (out.index() > 0) {
    text = std::to_string(out.index()) + (text.empty() ? "" : ": ") + text;
  }
  return text;
}

// The name scopes as a tree, each holding the nodes directly inside it.
struct ScopeTree {
  std::string name;  // The last component: "tower_0".
  std::vector<const Node*> nodes;
  std::vector<std::unique_ptr<ScopeTree>> children;  // In order of first use.
  std::map<std::string, ScopeTree*> by_name;

  ScopeTree* Child(const std::string& child) {
    auto it = by_name.find(child);
    if (it != by_name.end()) return it->second;
    children.push_back(std::make_unique<ScopeTree>());
    children.back()->name = child;
    by_name[child] = children.back().get();
    return children.back().get();
  }
};

class DotWriter {
 public:
  DotWriter(const Graph& graph, const DotOptions& options)
      : graph_(graph), options_(options) {}

  std::string Write() {
    out_ += "digraph " + Quote(options_.graph_name) + " {\n";
    out_ += "  node [shape=ellipse, fontname=\"Helvetica\"];\n";
    out_ += "  edge [fontname=\"Helvetica\", fontsize=10];\n";
    ScopeTree root;
    for (const Node* n : graph_.nodes()) {
      ScopeTree* scope = &root;
      if (options_.cluster_scopes) {
        const std::string& name = n->name();
        size_t start = 0;
        for (size_t slash = name.find('/'); slash != std::string::npos;
             slash = name.find('/', start)) {
          scope = scope->Child(name.substr(start, slash - start));
          start = slash + 1;
        }
      }
      scope->nodes.push_back(n);
    }
    WriteScope(root, 1);
    WriteEdges();
    if (options_.color_by_device) WriteLegend();
    out_ += "}\n";
    return out_;
  }

 private:
  std::string Indent(int depth) const { return std::string(2 * depth, ' '); }

  void WriteScope(const ScopeTree& scope, int depth) {
    for (const Node* n : scope.nodes) WriteNode(*n, depth);
    for (const auto& child : scope.children) {
      out_ += Indent(depth) + "subgraph cluster_" +
              std::to_string(next_cluster_++) + " {\n";
      out_ += Indent(depth + 1) + "label=" + Quote(child->name) + ";\n";
      WriteScope(*child, depth + 1);
      out_ += Indent(depth) + "}\n";
    }
  }

  void WriteNode(const Node& n, int depth) {
    std::string name = n.name();
    if (options_.cluster_scopes) name = name.substr(name.rfind('/') + 1);
    std::string label = Escape(name) + "\\n" + Escape(n.type_string());
    std::string attrs;
    if (n.IsConstant()) attrs += ", shape=box";
    if (n.IsPlaceholder()) attrs += ", shape=invhouse";
    if (options_.color_by_device) {
      const std::string& device = n.assigned_device().empty()
                                      ? n.requested_device()
                                      : n.assigned_device();
      if (!device.empty()) {
        if (options_.label_devices) label += "\\n" + Escape(device);
        attrs += ", style=filled, fillcolor=\"" + DeviceColor(device) + "\"";
      }
    }
    out_ += Indent(depth) + Quote(n.name()) + " [label=\"" + label + "\"" +
            attrs + "];\n";
  }

  void WriteEdges() {
    for (const Node* n : graph_.nodes()) {
      for (const Output& in : n->inputs()) {
        out_ += "  " + Quote(in.node()->name()) + " -> " + Quote(n->name());
        const std::string text = EdgeText(in, options_.edge_label);
        if (!text.empty()) out_ += " [label=" + Quote(text) + "]";
        out_ += ";\n";
      }
      for (const Node* c : n->control_inputs()) {
        out_ += "  " + Quote(c->name()) + " -> " + Quote(n->name()) +
                " [style=dashed];\n";
      }
    }
  }

  // One box per device, in the order the devices were first met, one under
  // the other (joined by invisible edges), so that long device names do not
  // make the picture wide. Names starting with '_' cannot be op names, so
  // they never clash with nodes.
  void WriteLegend() {
    if (devices_.empty()) return;
    out_ += "  subgraph cluster_devices {\n";
    out_ += "    label=\"devices\";\n";
    for (size_t i = 0; i < devices_.size(); ++i) {
      out_ += "    \"_device_" + std::to_string(i) +
              "\" [label=" + Quote(devices_[i]) +
              ", shape=box, style=filled, fillcolor=\"" +
              DeviceColor(devices_[i]) + "\"];\n";
    }
    for (size_t i = 1; i < devices_.size(); ++i) {
      out_ += "    \"_device_" + std::to_string(i - 1) + "\" -> \"_device_" +
              std::to_string(i) + "\" [style=invis];\n";
    }
    out_ += "  }\n";
  }

  std::string DeviceColor(const std::string& device) {
    size_t i = 0;
    while (i < devices_.size() && devices_[i] != device) ++i;
    if (i == devices_.size()) devices_.push_back(device);
    return DotDeviceColor(i);
  }

  const Graph& graph_;
  const DotOptions& options_;
  std::string out_;
  int next_cluster_ = 0;
  std::vector<std::string> devices_;
};

}  // namespace

std::string ToDot(const Graph& graph, const DotOptions& options) {
  return DotWriter(graph, options).Write();
}

std::string DotDeviceColor(size_t index) {
  return kDeviceColors[index % std::size(kDeviceColors)];
}

Status WriteDot(const Graph& graph, const std::string& path,
                const DotOptions& options) {
  std::ofstream file(path, std::ios::trunc);
  file << ToDot(graph, options);
  file.close();
  if (!file) return errors::Unknown("Cannot write DOT file '", path, "'");
  return Status::OK();
}

}  // namespace minitf
