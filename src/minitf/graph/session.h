// Session: where a graph is run.
//
// A graph only describes a computation; a Session runs it. `sess.run(c)`
// asks for the value of c: the session works out which nodes c needs, feeds
// the placeholders from the feed dict, runs their kernels in order and
// returns the fetched tensors. A session is also where state lives between
// runs (the variables of chapter 3), so two sessions on one graph do not
// share it.
//
// There are two levels, as in TensorFlow. SessionInterface is the core: it
// speaks in tensor and op names and returns a Status, so that chapter 7's
// remote session can forward a run over the network unchanged. Which
// implementation a program gets is chosen by the target string through a
// registry of session factories ("" = in this process, "grpc://..." =
// remote), so later chapters add sessions without touching this layer.
// tf::Session is the user-facing class that seed programs call: it takes
// Outputs and Operations, and throws typed errors as TensorFlow's Python
// session raises them.
//
// For a reader outside the program (the oracle tests, which compare a seed
// program's graph with TensorFlow's), a tf::Session writes its graph when the
// environment variable MINITF_DUMP_GRAPHDEF names a folder: the binary
// GraphDef to <folder>/session_<k>.pb, k counting the process's sessions from
// 0, before each run that finds the graph grown since the last write. The
// program prints nothing more. (TensorFlow's own TF_DUMP_GRAPH_PREFIX does
// the like for the graphs of its optimization passes.)
//
//   tf::Session sess;                             // sess = tf.Session()
//   std::cout << sess.run(c);                     // [[22. 28.]\n [49. 64.]]
//   auto r = sess.run({train_op, loss}, {{x, {1.f, 2.f}}, {y, {3.f, 4.f}}});
//   tf::InteractiveSession isess;                 // then: c.eval()
#pragma once

#include <atomic>
#include <concepts>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "minitf/graph/config.h"
#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

struct RunMetadata;  // run_metadata.h

// ---------------------------------------------------------------------------
// The core: names in, Status out.

/// tensorflow::Session. Fetch names are tensor names ("c:0"; "c" means
/// "c:0"); target names are op names, run for their effects only.
class SessionInterface {
 public:
  virtual ~SessionInterface() = default;

  /// Runs the graph: `feeds` replace tensors, `fetch_names` are computed and
  /// returned in `outputs` in order, `target_names` are run and return
  /// nothing. A fed value of another dtype is converted as TensorFlow's
  /// Python converts it (feed_value.h). Errors: NotFound for an unknown
  /// name, InvalidArgument for a fed value of the wrong shape, an integer
  /// scalar its tensor's dtype cannot hold, or an unfed placeholder, and any
  /// kernel's error with the node appended. Thread safety: implementations
  /// allow concurrent Run calls.
  virtual Status Run(const std::vector<std::pair<std::string, Tensor>>& feeds,
                     const std::vector<std::string>& fetch_names,
                     const std::vector<std::string>& target_names,
                     std::vector<Tensor>* outputs) = 0;

  /// Run with per-run options (config.h); `run_metadata` (may be null)
  /// receives what they ask for: step stats for a trace, the graphs each
  /// device ran (run_metadata.h). This default, for sessions that cannot
  /// trace (chapter 2's), runs as Run does and leaves `run_metadata` as it
  /// is; chapter 4's session overrides it.
  virtual Status Run(const RunOptions& run_options,
                     const std::vector<std::pair<std::string, Tensor>>& feeds,
                     const std::vector<std::string>& fetch_names,
                     const std::vector<std::string>& target_names,
                     std::vector<Tensor>* outputs, RunMetadata* run_metadata);

  /// Frees the session's state; later Runs fail with FailedPrecondition
  /// ("Session has been closed."). Closing twice is fine.
  virtual Status Close() = 0;
};

/// Makes sessions for the targets it accepts. Factories are registered once,
/// by name, with a priority: NewSession uses the highest-priority factory
/// that accepts the options, so a later chapter can take over the target ""
/// by registering a better local session above this chapter's.
class SessionFactory {
 public:
  virtual ~SessionFactory() = default;
  virtual bool AcceptsOptions(const SessionOptions& options) const = 0;
  /// REQUIRES: AcceptsOptions(options); graph is not null.
  virtual StatusOr<std::unique_ptr<SessionInterface>> NewSession(
      const SessionOptions& options, std::shared_ptr<Graph> graph) = 0;

  /// AlreadyExists when `name` is taken. Thread safety: safe at any time.
  static Status Register(const std::string& name, int priority,
                         std::unique_ptr<SessionFactory> factory);
  /// The chosen factory; NotFound in TensorFlow's words when none accepts:
  /// "No session factory registered for the given session options: {target:
  /// \"grpc://x\"} Registered factories are {LOCAL_SESSION}."
  static StatusOr<SessionFactory*> GetFactory(const SessionOptions& options);
};

/// The factory of session class S for the target "" (this process): S's
/// static Create(options, graph), returning `StatusOr<std::unique_ptr<S>>`,
/// makes each session. Chapter 2's LocalSession and chapter 4's
/// DirectSession are registered this way, at different priorities.
template <typename S>
class InProcessSessionFactory : public SessionFactory {
 public:
  bool AcceptsOptions(const SessionOptions& options) const override {
    return options.target.empty();
  }
  StatusOr<std::unique_ptr<SessionInterface>> NewSession(
      const SessionOptions& options, std::shared_ptr<Graph> graph) override {
    TF_ASSIGN_OR_RETURN(std::unique_ptr<S> session,
                        S::Create(options, std::move(graph)));
    return std::unique_ptr<SessionInterface>(std::move(session));
  }
};

/// A session for `options` on `graph` (shared: the session keeps it alive).
StatusOr<std::unique_ptr<SessionInterface>> NewSession(
    const SessionOptions& options, std::shared_ptr<Graph> graph);
/// The same on a graph the caller keeps alive for the session's lifetime.
StatusOr<std::unique_ptr<SessionInterface>> NewSession(
    const SessionOptions& options, Graph* graph);

namespace internal {
struct SessionFactoryRegistration {
  SessionFactoryRegistration(const std::string& name, int priority,
                             std::unique_ptr<SessionFactory> factory);
};
}  // namespace internal

/// Registers factory class F (default-constructible) at static
/// initialisation.
#define MINITF_REGISTER_SESSION_FACTORY(name, priority, F) \
  MINITF_REGISTER_SESSION_FACTORY_UNIQ(__COUNTER__, name, priority, F)
#define MINITF_REGISTER_SESSION_FACTORY_UNIQ(ctr, name, priority, F) \
  MINITF_REGISTER_SESSION_FACTORY_UNIQ2(ctr, name, priority, F)
#define MINITF_REGISTER_SESSION_FACTORY_UNIQ2(ctr, name, priority, F) \
  static const ::minitf::internal::SessionFactoryRegistration         \
      minitf_session_factory_##ctr                                    \
      [[maybe_unused]] (name, priority, std::make_unique<F>())

// ---------------------------------------------------------------------------
// The user-facing API: Outputs in, tensors out, typed errors thrown.

/// A feed_dict key: a graph tensor, or its name ("x:0"). Anything that
/// converts to an Output (chapter 3's Variable) converts to a FeedKey.
class FeedKey {
 public:
  FeedKey(Output tensor) : tensor_(tensor) {}  // NOLINT: implicit by design
  FeedKey(std::string name) : name_(std::move(name)) {}  // NOLINT
  FeedKey(const char* name) : name_(name) {}             // NOLINT
  template <typename T>
  requires(std::convertible_to<const T&, Output> && !std::same_as<T, Output>)
      FeedKey(const T& t)
      : FeedKey(static_cast<Output>(t)) {}  // NOLINT

  /// The tensor, when the key was one (else !valid()).
  const Output& tensor() const { return tensor_; }
  /// The tensor's name: "x:0".
  std::string name() const { return tensor_.valid() ? tensor_.name() : name_; }

 private:
  Output tensor_;
  std::string name_;
};

/// A handle that is fetched as another tensor than the one it stands for in
/// an op's inputs, as Python's _as_graph_element says: a Variable (chapter 3)
/// computes with its read but is fetched as its VariableV2's output.
template <typename T>
concept HasGraphElement = requires(const T& t) {
  { t.as_graph_element() } -> std::convertible_to<Output>;
};

/// The tensor that fetching `t` fetches.
template <typename T>
requires std::convertible_to<const T&, Output> Output
FetchedTensor(const T& t) {
  if constexpr (HasGraphElement<T>) {
    return t.as_graph_element();
  } else {
    return static_cast<Output>(t);
  }
}

/// What one fetch asks for: a tensor's value, or that an op run. A string
/// with a ':' names a tensor ("c:0"), one without names an op ("train"), as
/// Python's sess.run reads strings.
class Fetch {
 public:
  Fetch(Output tensor) : tensor_(tensor) {}  // NOLINT: implicit by design
  Fetch(Operation op) : op_(op) {}           // NOLINT
  Fetch(std::string name) : name_(std::move(name)) {}  // NOLINT
  Fetch(const char* name) : name_(name) {}             // NOLINT
  template <typename T>
  requires(std::convertible_to<const T&, Output> && !std::same_as<T, Output>)
      Fetch(const T& t)
      : Fetch(FetchedTensor(t)) {}  // NOLINT

  /// True when this fetch runs an op and returns no value.
  bool is_op() const;
  /// The tensor's name ("c:0") or the op's name ("c").
  std::string name() const;
  /// The graph element, when the fetch was one (for the same-graph check).
  const Output& tensor() const { return tensor_; }
  const Operation& op() const { return op_; }

 private:
  Output tensor_;
  Operation op_;
  std::string name_;
};

// FeedDict, the Python layer's feed_dict ({{x, {1.f, 2.f}}, {"y:0", 3.f}}),
// is declared in graph.h, since Output::eval takes one.

/// tf.Session.
///
/// Invariants: graph() is the graph every run uses and outlives the session
/// (it is shared when it was the thread's own default graph); after close()
/// every run throws.
///
/// Thread safety: run may be called from many threads at once; close must
/// not race with runs.
class Session {
 public:
  /// tf.Session(config=config): on the default graph, in this process.
  explicit Session(const ConfigProto& config = {});
  /// tf.Session(target, graph, config). A null graph means the default
  /// graph. Throws NotFoundError when no factory accepts options.target.
  explicit Session(const SessionOptions& options, Graph* graph = nullptr);
  virtual ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  /// The value of one tensor.
  Tensor run(const Output& fetch, const FeedDict& feeds = {});
  /// The value of a handle fetched as another tensor (a Variable).
  template <HasGraphElement T>
  Tensor run(const T& fetch, const FeedDict& feeds = {}) {
    return run(FetchedTensor(fetch), feeds);
  }
  /// By name: "c:0" returns that tensor; "c" runs op c and returns an
  /// uninitialized Tensor, as Python returns None. (A template for
  /// std::string only, so that `run({"a:0", "b:0"})` is not read as a string
  /// built from two iterators.)
  template <typename S>
  requires std::same_as<S, std::string> Tensor run(const S& name,
                                                   const FeedDict& feeds = {}) {
    return RunName(name, feeds);
  }
  Tensor run(const char* name, const FeedDict& feeds = {}) {
    return RunName(name, feeds);
  }
  /// Runs an op for its effects.
  void run(const Operation& target, const FeedDict& feeds = {});
  /// sess.run([train_op, loss, w], feed_dict): one result per fetch, an
  /// uninitialized Tensor for each op; `targets` run too, returning nothing.
  std::vector<Tensor> run(const std::vector<Fetch>& fetches,
                          const FeedDict& feeds = {},
                          const std::vector<Operation>& targets = {});
  /// sess.run(fetches, feed_dict, options=options, run_metadata=metadata):
  /// a traced run fills `run_metadata` (may be null).
  std::vector<Tensor> run(const std::vector<Fetch>& fetches,
                          const FeedDict& feeds, const RunOptions& options,
                          RunMetadata* run_metadata);

  /// Frees the session's resources; later runs throw FailedPreconditionError
  /// "Attempted to use a closed Session.". Closing twice is fine.
  virtual void close();
  bool closed() const { return closed_; }

  Graph* graph() const { return graph_.get(); }
  /// The core session, for code that works with names and Status.
  SessionInterface* core() const { return impl_.get(); }

 private:
  Tensor RunName(const std::string& name, const FeedDict& feeds);
  std::vector<Tensor> RunInternal(const std::vector<Fetch>& fetches,
                                  const FeedDict& feeds,
                                  const std::vector<Operation>& targets,
                                  const RunOptions& options,
                                  RunMetadata* run_metadata);
  void CheckOpen() const;
  // Writes the graph where MINITF_DUMP_GRAPHDEF asks (see the top of this
  // file), when it has nodes not yet written.
  void MaybeDumpGraphDef();

  std::shared_ptr<Graph> graph_;
  std::unique_ptr<SessionInterface> impl_;
  bool closed_ = false;
  // MaybeDumpGraphDef's state: MINITF_DUMP_GRAPHDEF as this session found
  // it, the session's number among the process's sessions, and the graph's
  // node count at the last write.
  std::string dump_folder_;
  int dump_index_;
  std::atomic<int> dumped_nodes_{0};
};

/// tf.InteractiveSession: a Session that makes itself the thread's default
/// session until it is closed or destroyed, so that `c.eval()` and
/// `op.run()` work without naming it, as in a notebook.
class InteractiveSession : public Session {
 public:
  explicit InteractiveSession(const ConfigProto& config = {});
  explicit InteractiveSession(const SessionOptions& options,
                              Graph* graph = nullptr);
  ~InteractiveSession() override;
  void close() override;

 private:
  bool installed_ = false;
};

/// The thread's default session: the innermost session_scope's or
/// InteractiveSession's, or nullptr.
Session* get_default_session();

/// `with sess.as_default():`: makes `session` the default for eval() and
/// run() inside the C++ scope.
class session_scope {
 public:
  explicit session_scope(Session& session);
  ~session_scope();
  session_scope(const session_scope&) = delete;
  session_scope& operator=(const session_scope&) = delete;

 private:
  Session* session_;
};

}  // namespace minitf
