#include "minitf/graph/op_def.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "minitf/graph/replaceable_function.h"

namespace minitf {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
    s.remove_prefix(1);
  }
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
    s.remove_suffix(1);
  }
  return s;
}

bool IsIdentifier(std::string_view s) {
  if (s.empty() ||
      !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) {
    return false;
  }
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// The spellings of types in op specs, as TensorFlow writes them.
std::optional<DType> TypeFromSpec(std::string_view s) {
  if (s == "float") return DT_FLOAT;
  if (s == "double") return DT_DOUBLE;
  if (s == "int32") return DT_INT32;
  if (s == "int64") return DT_INT64;
  if (s == "bool") return DT_BOOL;
  return std::nullopt;
}

// "name: rest" -> {name, rest}.
StatusOr<std::pair<std::string, std::string>> SplitSpec(std::string_view spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string_view::npos) {
    return errors::InvalidArgument("Spec '", spec, "' has no ':'");
  }
  const std::string_view name = Trim(spec.substr(0, colon));
  if (!IsIdentifier(name)) {
    return errors::InvalidArgument("Spec '", spec, "' has an invalid name '",
                                   name, "'");
  }
  return std::make_pair(std::string(name),
                        std::string(Trim(spec.substr(colon + 1))));
}

// "a: T", "x: float", "values: N * T", "ref: Ref(T)".
StatusOr<ArgDef> ParseArg(std::string_view spec) {
  TF_ASSIGN_OR_RETURN(auto parts, SplitSpec(spec));
  ArgDef arg;
  arg.name = parts.first;
  std::string_view type = parts.second;
  if (type.starts_with("Ref(") && type.ends_with(")")) {
    arg.is_ref = true;
    type = Trim(type.substr(4, type.size() - 5));
  }
  if (const size_t star = type.find('*'); star != std::string_view::npos) {
    arg.number_attr = std::string(Trim(type.substr(0, star)));
    type = Trim(type.substr(star + 1));
    if (!IsIdentifier(arg.number_attr)) {
      return errors::InvalidArgument("Spec '", spec, "' has a bad list length");
    }
  }
  if (auto fixed = TypeFromSpec(type)) {
    arg.type = *fixed;
  } else if (IsIdentifier(type)) {
    arg.type_attr = std::string(type);
  } else {
    return errors::InvalidArgument("Spec '", spec, "' has a bad type '", type,
                                   "'");
  }
  return arg;
}

StatusOr<AttrValue> ParseDefault(const AttrDef& attr, std::string_view text) {
  if (attr.type == "bool") {
    if (text == "true") return AttrValue(true);
    if (text == "false") return AttrValue(false);
  } else if (attr.type == "int") {
    char* end = nullptr;
    const std::string s(text);
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && *end == '\0') return AttrValue(int64_t{v});
  } else if (attr.type == "float") {
    char* end = nullptr;
    const std::string s(text);
    const float v = std::strtof(s.c_str(), &end);
    if (!s.empty() && *end == '\0') return AttrValue(v);
  } else if (attr.type == "type") {
    if (auto t = TypeFromSpec(text)) return AttrValue(*t);
  } else if (attr.type == "shape") {
    if (text == "<unknown>") return AttrValue(TensorShape::UnknownRank());
  } else if (attr.type == "string") {
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
      return AttrValue(std::string(text.substr(1, text.size() - 2)));
    }
  } else if (attr.type == "list(int)" && text == "[]") {
    return AttrValue(std::vector<int64_t>{});
  } else if (attr.type == "list(string)" && text == "[]") {
    return AttrValue(std::vector<std::string>{});
  }
  return errors::InvalidArgument("Attr '", attr.name, "' of type ", attr.type,
                                 " has a bad default '", text, "'");
}

// "transpose_a: bool = false", "T: {float, double}", "N: int >= 1".
StatusOr<AttrDef> ParseAttr(std::string_view spec) {
  TF_ASSIGN_OR_RETURN(auto parts, SplitSpec(spec));
  AttrDef attr;
  attr.name = parts.first;
  std::string_view rest = parts.second;
  std::string_view default_text;
  if (const size_t eq = rest.find('=');
      eq != std::string_view::npos && (eq == 0 || rest[eq - 1] != '>')) {
    default_text = Trim(rest.substr(eq + 1));
    rest = Trim(rest.substr(0, eq));
  }
  if (!rest.empty() && rest.front() == '{') {
    if (rest.back() != '}') {
      return errors::InvalidArgument("Spec '", spec,
                                     "' has an unclosed type list");
    }
    attr.type = "type";
    std::string_view list = rest.substr(1, rest.size() - 2);
    while (!list.empty()) {
      const size_t comma = list.find(',');
      const std::string_view item = Trim(list.substr(0, comma));
      auto t = TypeFromSpec(item);
      if (!t)
        return errors::InvalidArgument("Spec '", spec, "' names type ", item);
      attr.allowed_types.push_back(*t);
      list = comma == std::string_view::npos ? std::string_view()
                                             : list.substr(comma + 1);
    }
  } else if (const size_t ge = rest.find(">="); ge != std::string_view::npos) {
    attr.type = std::string(Trim(rest.substr(0, ge)));
    // The builder reads a minimum as an int: only an int attr may have one.
    if (attr.type != "int") {
      return errors::InvalidArgument("Spec '", spec,
                                     "' gives a minimum to a non-int attr");
    }
    attr.minimum = std::atoll(std::string(Trim(rest.substr(ge + 2))).c_str());
  } else {
    attr.type = std::string(rest);
  }
  static const char* const kKinds[] = {
      "string",     "int",         "float",        "bool",
      "type",       "shape",       "tensor",       "list(int)",
      "list(type)", "list(shape)", "list(string)", "list(float)"};
  if (std::find(std::begin(kKinds), std::end(kKinds), attr.type) ==
      std::end(kKinds)) {
    return errors::InvalidArgument("Spec '", spec, "' has unknown attr type '",
                                   attr.type, "'");
  }
  if (!default_text.empty()) {
    TF_ASSIGN_OR_RETURN(attr.default_value, ParseDefault(attr, default_text));
  }
  return attr;
}

}  // namespace

const AttrDef* OpDef::FindAttr(std::string_view attr) const {
  for (const AttrDef& a : attrs) {
    if (a.name == attr) return &a;
  }
  return nullptr;
}

Status CheckAttrKind(const AttrDef& def, std::string_view given) {
  if (given.empty()) {
    return errors::InvalidArgument(
        "AttrValue missing value with expected "
        "type '",
        def.type, "' for attr '", def.name, "'");
  }
  if (given != def.type) {
    return errors::InvalidArgument("AttrValue had value with type '", given,
                                   "' when '", def.type,
                                   "' expected for attr '", def.name, "'");
  }
  return Status::OK();
}

OpDefBuilder::OpDefBuilder(std::string op_name) {
  def_.name = std::move(op_name);
}

OpDefBuilder& OpDefBuilder::Input(std::string_view spec) {
  input_specs_.emplace_back(spec);
  return *this;
}
OpDefBuilder& OpDefBuilder::Output(std::string_view spec) {
  output_specs_.emplace_back(spec);
  return *this;
}
OpDefBuilder& OpDefBuilder::Attr(std::string_view spec) {
  attr_specs_.emplace_back(spec);
  return *this;
}
OpDefBuilder& OpDefBuilder::SetIsStateful() {
  def_.is_stateful = true;
  return *this;
}
OpDefBuilder& OpDefBuilder::SetAllowsUninitializedInput() {
  def_.allows_uninitialized_input = true;
  return *this;
}
OpDefBuilder& OpDefBuilder::SetMayOutputUninitialized() {
  def_.may_output_uninitialized = true;
  return *this;
}
OpDefBuilder& OpDefBuilder::SetShapeFn(ShapeFn fn) {
  def_.shape_fn = std::move(fn);
  return *this;
}

StatusOr<OpDef> OpDefBuilder::Finalize() const {
  OpDef def = def_;
  for (const std::string& spec : attr_specs_) {
    TF_ASSIGN_OR_RETURN(AttrDef attr, ParseAttr(spec));
    def.attrs.push_back(std::move(attr));
  }
  for (const std::string& spec : input_specs_) {
    TF_ASSIGN_OR_RETURN(ArgDef arg, ParseArg(spec));
    def.inputs.push_back(std::move(arg));
  }
  for (const std::string& spec : output_specs_) {
    TF_ASSIGN_OR_RETURN(ArgDef arg, ParseArg(spec));
    def.outputs.push_back(std::move(arg));
  }
  // Every attr an argument names must be declared with the right kind:
  // `attr` (none when empty) must be an attr of type `kind`, "a type" or
  // "an int" in the error.
  auto check = [&](const ArgDef& arg, const std::string& attr,
                   std::string_view kind, std::string_view a_kind) -> Status {
    if (attr.empty()) return Status::OK();
    const AttrDef* a = def.FindAttr(attr);
    if (a != nullptr && a->type == kind) return Status::OK();
    return errors::InvalidArgument("Op ", def.name, ": argument '", arg.name,
                                   "' needs ", a_kind, " attr '", attr, "'");
  };
  for (const std::vector<ArgDef>* args : {&def.inputs, &def.outputs}) {
    for (const ArgDef& arg : *args) {
      TF_RETURN_IF_ERROR(check(arg, arg.type_attr, "type", "a type"));
      TF_RETURN_IF_ERROR(check(arg, arg.number_attr, "int", "an int"));
    }
  }
  return def;
}

OpRegistry* OpRegistry::Global() {
  static OpRegistry* const registry = new OpRegistry;
  return registry;
}

Status OpRegistry::Register(OpDef def) {
  std::lock_guard<std::mutex> lock(mu_);
  if (ops_.count(def.name) != 0) {
    return errors::AlreadyExists("Op with name ", def.name,
                                 " is already registered");
  }
  std::string name = def.name;
  Prioritized<ShapeFn>& fns = shape_fns_[name];
  MINITF_CHECK(fns.Add(0, std::move(def.shape_fn)).ok());
  ops_.emplace(name, std::make_unique<OpDef>(std::move(def)));
  UpdateShapeFnLocked(name);
  return Status::OK();
}

Status OpRegistry::RegisterShapeFn(const std::string& op_type, ShapeFn fn,
                                   int priority) {
  if (priority <= 0) {
    return errors::InvalidArgument(
        "A shape function registered apart from op '", op_type,
        "' needs a priority above 0 (its OpDef's own), not ", priority);
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (!shape_fns_[op_type].Add(priority, std::move(fn)).ok()) {
    return errors::AlreadyExists("A shape function for '", op_type,
                                 "' with priority ", priority,
                                 " is already registered");
  }
  UpdateShapeFnLocked(op_type);
  return Status::OK();
}

Status OpRegistry::UnregisterShapeFn(const std::string& op_type, int priority) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = shape_fns_.find(op_type);
  if (priority <= 0 || it == shape_fns_.end() || !it->second.Remove(priority)) {
    return errors::NotFound("No shape function for '", op_type,
                            "' with priority ", priority, " is registered");
  }
  UpdateShapeFnLocked(op_type);
  return Status::OK();
}

void OpRegistry::UpdateShapeFnLocked(const std::string& op_type) {
  auto op = ops_.find(op_type);
  if (op == ops_.end()) return;
  op->second->shape_fn = *shape_fns_[op_type].Best();
}

StatusOr<const OpDef*> OpRegistry::LookUp(std::string_view op_type) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = ops_.find(op_type);
  if (it == ops_.end()) {
    return errors::NotFound("Op type not registered '", op_type,
                            "' in binary running on this machine.");
  }
  return static_cast<const OpDef*>(it->second.get());
}

std::vector<std::string> OpRegistry::ListOps() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> names;
  for (const auto& [name, def] : ops_) names.push_back(name);
  return names;
}

namespace internal {
void RegisterShapeFnOrDie(const std::string& op_type, ShapeFn fn,
                          int priority) {
  CheckRegistration(
      OpRegistry::Global()->RegisterShapeFn(op_type, std::move(fn), priority),
      "shape function");
}

OpDefRegistration::OpDefRegistration(const OpDefBuilder& builder) {
  StatusOr<OpDef> def = builder.Finalize();
  Status s = def.ok() ? OpRegistry::Global()->Register(std::move(def).value())
                      : def.status();
  CheckRegistration(s, "op");
}
}  // namespace internal

}  // namespace minitf
