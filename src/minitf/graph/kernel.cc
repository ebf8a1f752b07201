#include "minitf/graph/kernel.h"

#include <algorithm>

#include "minitf/graph/replaceable_function.h"

namespace minitf {

KernelRegistry* KernelRegistry::Global() {
  static KernelRegistry* const registry = new KernelRegistry;
  return registry;
}

Status KernelRegistry::Register(std::string op_type, std::string device_type,
                                KernelFactory factory, std::vector<DType> types,
                                int priority) {
  std::lock_guard<std::mutex> lock(mu_);
  auto key = std::make_pair(std::move(op_type), std::move(device_type));
  Prioritized<Entry>& entries = factories_[key];
  if (!entries.Add(priority, Entry{std::move(factory), std::move(types)})
           .ok()) {
    return errors::AlreadyExists(
        "A kernel for '", key.first, "' on ", key.second,
        priority == 0 ? std::string() : StrCat(" with priority ", priority),
        " is already registered");
  }
  return Status::OK();
}

Status KernelRegistry::Unregister(const std::string& op_type,
                                  const std::string& device_type,
                                  int priority) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = factories_.find(std::make_pair(op_type, device_type));
  if (it == factories_.end() || !it->second.Remove(priority)) {
    return errors::NotFound("No kernel for '", op_type, "' on ", device_type,
                            " with priority ", priority, " is registered");
  }
  if (it->second.empty()) factories_.erase(it);
  return Status::OK();
}

Status KernelRegistry::RegisterAlias(std::string op_type,
                                     std::string device_type,
                                     std::string kernel_device_type,
                                     std::vector<DType> types) {
  if (device_type == kernel_device_type) {
    return errors::InvalidArgument("A kernel alias for '", op_type, "' on ",
                                   device_type, " names its own device type");
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto key = std::make_pair(std::move(op_type), std::move(device_type));
  if (aliases_.count(key) != 0) {
    return errors::AlreadyExists("A kernel alias for '", key.first, "' on ",
                                 key.second, " is already registered");
  }
  aliases_.emplace(std::move(key),
                   Alias{std::move(kernel_device_type), std::move(types)});
  return Status::OK();
}

namespace {

// False when `types` is not empty and names no dtype of the node's attr "T".
bool TypeAllowed(const std::vector<DType>& types, const Node* node) {
  if (node == nullptr || types.empty()) return true;
  auto t = node->attrs().find("T");
  return t == node->attrs().end() || !t->second.holds<DType>() ||
         std::find(types.begin(), types.end(), t->second.get<DType>()) !=
             types.end();
}

}  // namespace

// The factory of the highest-priority entry whose dtype constraint admits
// `node` (every entry admits no node), or nullptr with `*attr_mismatch` set
// when the constraints excluded them all.
const KernelFactory* KernelRegistry::Allowed(const Prioritized<Entry>& entries,
                                             const Node* node,
                                             bool* attr_mismatch) {
  for (const auto& [priority, entry] : entries.entries()) {
    if (TypeAllowed(entry.types, node)) return &entry.factory;
  }
  *attr_mismatch = true;
  return nullptr;
}

const KernelFactory* KernelRegistry::FindLocked(std::string_view op_type,
                                                std::string_view device_type,
                                                const Node* node,
                                                bool* attr_mismatch) const {
  *attr_mismatch = false;
  const auto key =
      std::make_pair(std::string(op_type), std::string(device_type));
  if (auto it = factories_.find(key); it != factories_.end()) {
    return Allowed(it->second, node, attr_mismatch);
  }
  auto alias = aliases_.find(key);
  if (alias == aliases_.end()) return nullptr;
  auto target = factories_.find(
      std::make_pair(key.first, alias->second.kernel_device_type));
  if (target == factories_.end()) return nullptr;
  if (!TypeAllowed(alias->second.types, node)) {
    *attr_mismatch = true;
    return nullptr;
  }
  return Allowed(target->second, node, attr_mismatch);
}

bool KernelRegistry::HasKernel(std::string_view op_type,
                               std::string_view device_type) const {
  std::lock_guard<std::mutex> lock(mu_);
  bool attr_mismatch;
  return FindLocked(op_type, device_type, nullptr, &attr_mismatch) != nullptr;
}

bool KernelRegistry::HasKernelForNode(const Node& node,
                                      std::string_view device_type) const {
  std::lock_guard<std::mutex> lock(mu_);
  bool attr_mismatch;
  return FindLocked(node.type_string(), device_type, &node, &attr_mismatch) !=
         nullptr;
}

StatusOr<std::unique_ptr<OpKernel>> KernelRegistry::CreateKernel(
    const Node& node, const std::string& device_type) const {
  KernelFactory factory;
  {
    std::lock_guard<std::mutex> lock(mu_);
    bool attr_mismatch;
    const KernelFactory* found =
        FindLocked(node.type_string(), device_type, &node, &attr_mismatch);
    if (found == nullptr) {
      std::string message = StrCat(
          "No registered '", node.type_string(), "' OpKernel for ", device_type,
          " devices compatible with node {{node ", node.name(), "}}");
      if (attr_mismatch) {
        message += StrCat(
            "\n\t (OpKernel was found, but attributes didn't match) "
            "Requested Attributes: T=",
            node.attrs().find("T")->second.DebugString());
      }
      return errors::NotFound(message);
    }
    factory = *found;
  }
  // The kernel is told the device type it runs on, not the one it was
  // registered for, so that an aliased kernel knows where it is.
  return factory(OpKernelConstruction(&node, device_type));
}

bool KernelRegistry::IsAliased(const Node& node,
                               std::string_view device_type) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto key = std::make_pair(node.type_string(), std::string(device_type));
  return factories_.count(key) == 0 && aliases_.count(key) != 0;
}

std::vector<std::string> KernelRegistry::DeviceTypesFor(
    std::string_view op_type) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& [key, factory] : factories_) {
    if (key.first == op_type) out.push_back(key.second);
  }
  for (const auto& [key, alias] : aliases_) {
    bool attr_mismatch;
    if (key.first == op_type &&
        FindLocked(key.first, key.second, nullptr, &attr_mismatch) != nullptr) {
      out.push_back(key.second);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace internal {
KernelRegistration::KernelRegistration(std::string op_type,
                                       std::string device_type,
                                       KernelFactory factory,
                                       std::vector<DType> types, int priority) {
  CheckRegistration(KernelRegistry::Global()->Register(
                        std::move(op_type), std::move(device_type),
                        std::move(factory), std::move(types), priority),
                    "kernel");
}

KernelAliasRegistration::KernelAliasRegistration(std::string op_type,
                                                 std::string device_type,
                                                 std::string kernel_device_type,
                                                 std::vector<DType> types) {
  CheckRegistration(KernelRegistry::Global()->RegisterAlias(
                        std::move(op_type), std::move(device_type),
                        std::move(kernel_device_type), std::move(types)),
                    "kernel");
}
}  // namespace internal

}  // namespace minitf
