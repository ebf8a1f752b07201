#include "minitf/graph/session.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>

#include "minitf/graph/graph_def.h"
#include "minitf/graph/replaceable_function.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"

namespace minitf {

Status SessionInterface::Run(
    const RunOptions&, const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names, std::vector<Tensor>* outputs,
    RunMetadata*) {
  return Run(feeds, fetch_names, target_names, outputs);
}

// --- The factory registry -------------------------------------------------

namespace {

struct FactoryEntry {
  int priority;
  std::unique_ptr<SessionFactory> factory;
};

struct FactoryRegistry {
  std::mutex mu;
  std::map<std::string, FactoryEntry> factories;  // By name.
};

FactoryRegistry& Factories() {
  static FactoryRegistry* const registry = new FactoryRegistry;
  return *registry;
}

}  // namespace

Status SessionFactory::Register(const std::string& name, int priority,
                                std::unique_ptr<SessionFactory> factory) {
  FactoryRegistry& r = Factories();
  std::lock_guard<std::mutex> lock(r.mu);
  if (!r.factories.emplace(name, FactoryEntry{priority, std::move(factory)})
           .second) {
    return errors::AlreadyExists("A session factory named ", name,
                                 " is already registered");
  }
  return Status::OK();
}

StatusOr<SessionFactory*> SessionFactory::GetFactory(
    const SessionOptions& options) {
  FactoryRegistry& r = Factories();
  std::lock_guard<std::mutex> lock(r.mu);
  const FactoryEntry* best = nullptr;
  for (const auto& [name, entry] : r.factories) {
    if (!entry.factory->AcceptsOptions(options)) continue;
    if (best == nullptr || entry.priority > best->priority) best = &entry;
  }
  if (best != nullptr) return best->factory.get();
  std::string names;
  for (const auto& [name, entry] : r.factories) {
    names += (names.empty() ? "" : ", ") + name;
  }
  return errors::NotFound(
      "No session factory registered for the given session options: "
      "{target: \"",
      options.target, "\"} Registered factories are {", names, "}.");
}

StatusOr<std::unique_ptr<SessionInterface>> NewSession(
    const SessionOptions& options, std::shared_ptr<Graph> graph) {
  MINITF_CHECK(graph != nullptr);
  TF_ASSIGN_OR_RETURN(SessionFactory * factory,
                      SessionFactory::GetFactory(options));
  return factory->NewSession(options, std::move(graph));
}

StatusOr<std::unique_ptr<SessionInterface>> NewSession(
    const SessionOptions& options, Graph* graph) {
  return NewSession(options, std::shared_ptr<Graph>(graph, [](Graph*) {}));
}

namespace internal {
SessionFactoryRegistration::SessionFactoryRegistration(
    const std::string& name, int priority,
    std::unique_ptr<SessionFactory> factory) {
  CheckRegistration(
      SessionFactory::Register(name, priority, std::move(factory)),
      "session factory");
}
}  // namespace internal

// --- Fetches ----------------------------------------------------------------

bool Fetch::is_op() const {
  if (tensor_.valid()) return false;
  if (op_.valid()) return true;
  return name_.find(':') == std::string::npos;
}

std::string Fetch::name() const {
  if (tensor_.valid()) return tensor_.name();
  if (op_.valid()) return op_.name();
  return name_;
}

// --- Session ----------------------------------------------------------------

Session::Session(const ConfigProto& config)
    : Session(SessionOptions{.target = "", .config = config}) {}

namespace {

std::atomic<int> num_sessions{0};

std::string GraphDefDumpFolder() {
  const char* env = std::getenv("MINITF_DUMP_GRAPHDEF");
  return env != nullptr ? env : "";
}

}  // namespace

Session::Session(const SessionOptions& options, Graph* graph)
    : graph_(shared_graph(graph != nullptr ? graph : get_default_graph())),
      dump_folder_(GraphDefDumpFolder()),
      dump_index_(num_sessions++) {
  impl_ = errors::ValueOrThrow(NewSession(options, graph_));
}

void Session::MaybeDumpGraphDef() {
  if (dump_folder_.empty()) return;
  // Nodes are only ever added, so a count that grew means a changed graph.
  // Two runs at once write the same bytes at worst; the mutex keeps the
  // file whole.
  const int nodes = graph_->num_nodes();
  if (dumped_nodes_.exchange(nodes) == nodes) return;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  errors::ThrowIfError(WriteGraphDef(
      *graph_, StrCat(dump_folder_, "/session_", dump_index_, ".pb")));
}

Session::~Session() {
  // A destructor has no one to report a failure to.
  if (!closed_) impl_->Close().ok();
}

void Session::CheckOpen() const {
  if (closed_) {
    throw errors::FailedPreconditionError("Attempted to use a closed Session.");
  }
}

void Session::close() {
  if (closed_) return;
  closed_ = true;
  errors::ThrowIfError(impl_->Close());
}

Tensor Session::run(const Output& fetch, const FeedDict& feeds) {
  return run(std::vector<Fetch>{fetch}, feeds)[0];
}

Tensor Session::RunName(const std::string& name, const FeedDict& feeds) {
  return run(std::vector<Fetch>{Fetch(name)}, feeds)[0];
}

void Session::run(const Operation& target, const FeedDict& feeds) {
  run(std::vector<Fetch>{}, feeds, {target});
}

namespace {

// TensorFlow Python's complaint about a graph element from another graph.
std::string NotInGraph(const std::string& what) {
  return what + " is not an element of this graph.";
}

std::string Describe(const Output& t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

}  // namespace

std::vector<Tensor> Session::run(const std::vector<Fetch>& fetches,
                                 const FeedDict& feeds,
                                 const std::vector<Operation>& targets) {
  return RunInternal(fetches, feeds, targets, RunOptions(), nullptr);
}

std::vector<Tensor> Session::run(const std::vector<Fetch>& fetches,
                                 const FeedDict& feeds,
                                 const RunOptions& options,
                                 RunMetadata* run_metadata) {
  return RunInternal(fetches, feeds, {}, options, run_metadata);
}

std::vector<Tensor> Session::RunInternal(const std::vector<Fetch>& fetches,
                                         const FeedDict& feeds,
                                         const std::vector<Operation>& targets,
                                         const RunOptions& options,
                                         RunMetadata* run_metadata) {
  CheckOpen();
  std::vector<std::pair<std::string, Tensor>> feed_names;
  feed_names.reserve(feeds.size());
  for (const auto& [key, value] : feeds) {
    if (key.tensor().valid() && key.tensor().graph() != graph()) {
      throw errors::InvalidArgumentError(
          "Cannot interpret feed_dict key as Tensor: " +
          NotInGraph("Tensor " + Describe(key.tensor())));
    }
    feed_names.emplace_back(key.name(), value);
  }
  // Tensors are fetched by name; ops become targets whose slot stays empty.
  std::vector<std::string> fetch_names;
  std::vector<std::string> target_names;
  std::vector<int> fetch_index(fetches.size(), -1);
  for (size_t i = 0; i < fetches.size(); ++i) {
    const Fetch& f = fetches[i];
    Graph* g = f.tensor().valid() ? f.tensor().graph()
               : f.op().valid()   ? f.op().graph()
                                  : graph();
    if (g != graph()) {
      const std::string what = f.tensor().valid()
                                   ? "Tensor " + Describe(f.tensor())
                                   : "Operation name: \"" + f.name() + "\"";
      throw errors::InvalidArgumentError("Fetch argument " + f.name() +
                                         " cannot be interpreted as a " +
                                         (f.is_op() ? "Operation" : "Tensor") +
                                         ". (" + NotInGraph(what) + ")");
    }
    if (f.is_op()) {
      target_names.push_back(f.name());
    } else {
      fetch_index[i] = static_cast<int>(fetch_names.size());
      fetch_names.push_back(f.name());
    }
  }
  for (const Operation& op : targets) {
    if (!op.valid()) {
      throw errors::InvalidArgumentError(
          "Fetch argument None has invalid type: an empty Operation");
    }
    if (op.graph() != graph()) {
      throw errors::InvalidArgumentError(
          "Fetch argument " + op.name() +
          " cannot be interpreted as an Operation. (" +
          NotInGraph("Operation name: \"" + op.name() + "\"") + ")");
    }
    target_names.push_back(op.name());
  }
  MaybeDumpGraphDef();
  std::vector<Tensor> outputs;
  errors::ThrowIfError(impl_->Run(options, feed_names, fetch_names,
                                  target_names, &outputs, run_metadata));
  std::vector<Tensor> results(fetches.size());
  for (size_t i = 0; i < fetches.size(); ++i) {
    if (fetch_index[i] >= 0) results[i] = std::move(outputs[fetch_index[i]]);
  }
  return results;
}

// --- Default sessions -------------------------------------------------------

namespace {

std::vector<Session*>& DefaultSessions() {
  thread_local std::vector<Session*> stack;
  return stack;
}

void RemoveDefault(Session* session) {
  std::vector<Session*>& stack = DefaultSessions();
  auto it = std::find(stack.rbegin(), stack.rend(), session);
  if (it != stack.rend()) stack.erase(std::next(it).base());
}

}  // namespace

Session* get_default_session() {
  const std::vector<Session*>& stack = DefaultSessions();
  return stack.empty() ? nullptr : stack.back();
}

session_scope::session_scope(Session& session) : session_(&session) {
  DefaultSessions().push_back(session_);
}
session_scope::~session_scope() { RemoveDefault(session_); }

InteractiveSession::InteractiveSession(const ConfigProto& config)
    : Session(config), installed_(true) {
  DefaultSessions().push_back(this);
}

InteractiveSession::InteractiveSession(const SessionOptions& options,
                                       Graph* graph)
    : Session(options, graph), installed_(true) {
  DefaultSessions().push_back(this);
}

InteractiveSession::~InteractiveSession() {
  if (installed_) RemoveDefault(this);
}

void InteractiveSession::close() {
  if (installed_) RemoveDefault(this);
  installed_ = false;
  Session::close();
}

// --- Output::eval and Operation::run ----------------------------------------

Tensor Output::eval() const { return eval(FeedDict{}); }

Tensor Output::eval(const FeedDict& feeds) const {
  if (!valid()) {
    throw errors::InvalidArgumentError(
        "Cannot evaluate an empty Output: it names no node");
  }
  Session* session = get_default_session();
  if (session == nullptr) {
    throw errors::FailedPreconditionError(
        "Cannot evaluate tensor using `eval()`: No default session is "
        "registered. Use `with sess.as_default()` or pass an explicit session "
        "to `eval(session=sess)`");
  }
  if (session->graph() != graph()) {
    throw errors::InvalidArgumentError(
        "Cannot use the given session to evaluate tensor: the tensor's graph "
        "is different from the session's graph.");
  }
  return session->run(*this, feeds);
}

void Operation::run() const { run(FeedDict{}); }

void Operation::run(const FeedDict& feeds) const {
  if (!valid()) {
    throw errors::InvalidArgumentError(
        "Cannot run an empty Operation: it names no node");
  }
  Session* session = get_default_session();
  if (session == nullptr) {
    throw errors::FailedPreconditionError(
        "Cannot execute operation using `run()`: No default session is "
        "registered. Use `with sess.as_default():` or pass an explicit "
        "session to `run(session=sess)`");
  }
  if (session->graph() != graph()) {
    throw errors::InvalidArgumentError(
        "Cannot use the given session to execute operation: the operation's "
        "graph is different from the session's graph.");
  }
  session->run(*this, feeds);
}

}  // namespace minitf
