// chattygraph._core: the engine's graphs and runs for the Python package
// (python/chattygraph wraps them in the public API).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <chrono>
#include <future>
#include <optional>

#include "api/csr_input.h"
#include "api/run_call.h"
#include "apps/job/run_options.h"
#include "apps/registry.h"
#include "py_graph.h"
#include "run_worker.h"
#include "runtime/base/interrupt.h"
#include "runtime/base/json_value.h"
#include "runtime/base/status.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace chatty::py {
namespace {

using chattygraph::detail::CsrArrays;

template <typename T>
using In1d = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
template <typename T>
using Out1d = nb::ndarray<nb::numpy, T, nb::ndim<1>>;

// A NumPy array owning `v`'s storage (moved, not copied).
template <typename T>
Out1d<T> to_numpy(std::vector<T>&& v) {
  auto* held = new std::vector<T>(std::move(v));
  nb::capsule owner(held, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return Out1d<T>(held->data(), {held->size()}, owner);
}

// Keeps a Python object alive from C++ (edges viewed in place); released
// with the GIL held, whichever thread drops the last reference.
std::shared_ptr<const void> keep_alive(nb::handle h) {
  h.inc_ref();
  return std::shared_ptr<const void>(h.ptr(), [](const void* p) {
    nb::gil_scoped_acquire gil;
    Py_DECREF(static_cast<PyObject*>(const_cast<void*>(p)));
  });
}

PyGraph load(const std::string& what, const std::vector<std::string>& args, bool weights) {
  PyGraph g;
  {
    const job::RunOptions o = job::parse_options(args, job::OptionScope::kInput);
    LoadOptions opt = as_usage([&] { return job::load_options(o); });
    opt.weights = weights ? WeightUse::kNeeded : WeightUse::kIgnored;
    nb::gil_scoped_release unlocked;
    g.g = load_graph(what, opt, &g.info);
    g.read_with = opt;
  }
  g.name = what;
  g.path = what;
  return g;
}

// indptr, indices, weights: uint64, uint32, uint32 (the Python side converts
// other dtypes, copying only then). ids: the input id of each vertex, or
// empty for positions 0..n-1.
nb::tuple from_csr(nb::object owner, In1d<uint64_t> indptr, In1d<uint32_t> indices, nb::object weights, bool directed,
                   In1d<uint64_t> ids, const std::string& name) {
  CHATTY_CHECK(indptr.shape(0) >= 1, "indptr must have n + 1 entries (n >= 0)");
  CsrArrays a;
  a.indptr = indptr.data();
  a.indices = indices.data();
  a.n = indptr.shape(0) - 1;
  a.m = indices.shape(0);
  CHATTY_CHECK(a.n < (size_t(1) << 32) - 1, "at most 2^32 - 2 vertices");
  if (!weights.is_none()) {
    auto w = nb::cast<In1d<uint32_t>>(weights);
    CHATTY_CHECK(w.shape(0) == a.m, "weights must have one entry per index");
    a.weights = w.data();
  }
  a.keeper = keep_alive(owner);
  PyGraph g;
  bool copied = false, sym = true;
  {
    nb::gil_scoped_release unlocked;
    chattygraph::detail::check_csr(a);
    g.g = chattygraph::detail::graph_from_csr(a, directed, &copied);  // unsorted rows are copied and sorted, once
    if (!directed) {
      CsrArrays sorted = a;
      sorted.indptr = g.g.out().offsets.data(), sorted.indices = g.g.out().targets.data();
      sym = chattygraph::detail::symmetric(sorted);
    }
  }
  if (!sym) return nb::make_tuple(nb::none(), false);
  if (ids.shape(0) > 0) {
    CHATTY_CHECK(ids.shape(0) == a.n, "ids must have one entry per vertex");
    g.info.ids.scheme = IdScheme::kOccurring;
    g.info.ids.original.assign(ids.data(), ids.data() + a.n);
  }
  g.info.format = "arrays";
  g.info.direction_reason = directed ? "directed=True" : "directed=False";
  g.name = name;
  return nb::make_tuple(nb::cast(std::move(g)), copied);
}

PyGraph from_edges(In1d<uint32_t> src, In1d<uint32_t> dst, nb::object weights, size_t n, bool directed, bool dedupe,
                   bool drop_self_loops, In1d<uint64_t> ids, const std::string& name) {
  EdgeList e;
  e.src.assign(src.data(), src.data() + src.shape(0));
  e.dst.assign(dst.data(), dst.data() + dst.shape(0));
  if (!weights.is_none()) {
    auto w = nb::cast<In1d<uint32_t>>(weights);
    e.weight.assign(w.data(), w.data() + w.shape(0));
  }
  std::vector<uint64_t> id(ids.data(), ids.data() + ids.shape(0));
  nb::gil_scoped_release unlocked;
  return chattygraph::detail::held_from_edges(std::move(e), n, directed, dedupe, drop_self_loops, std::move(id), name);
}

nb::object ids_of(nb::handle self, const PyGraph& g) {
  const vid_t n = g.g.num_vertices();
  if (g.info.ids.scheme == IdScheme::kOccurring)
    return nb::cast(Out1d<const uint64_t>(g.info.ids.original.data(), {size_t(n)}, self));
  std::vector<uint64_t> v(n);
  for (vid_t i = 0; i < n; ++i) v[i] = g.info.ids.of(i);
  return nb::cast(to_numpy(std::move(v)));
}

nb::tuple csr_of(nb::handle self, const PyGraph& g) {
  const Csr& c = g.g.out();
  nb::object w = nb::none();
  if (!c.weights.empty()) w = nb::cast(Out1d<const uint32_t>(c.weights.data(), {c.weights.size()}, self));
  return nb::make_tuple(Out1d<const uint64_t>(c.offsets.data(), {c.offsets.size()}, self),
                        Out1d<const uint32_t>(c.targets.data(), {c.targets.size()}, self), w);
}

// A JSON value as Python's: dicts, lists, ints (exact, past 2^53 too),
// floats, strings, bools and None.
nb::object to_python(const JsonValue& v) {
  switch (v.kind()) {
    case JsonValue::Kind::kNull: return nb::none();
    case JsonValue::Kind::kBool: return nb::bool_(v.as_bool());
    case JsonValue::Kind::kNumber:
      if (!v.is_integer()) return nb::float_(v.as_number());
      return v.negative() ? nb::steal(PyLong_FromLongLong(-static_cast<long long>(v.magnitude())))
                          : nb::steal(PyLong_FromUnsignedLongLong(v.magnitude()));
    case JsonValue::Kind::kString: return nb::str(v.as_string().c_str(), v.as_string().size());
    case JsonValue::Kind::kArray: {
      nb::list l;
      for (const JsonValue& x : v.items()) l.append(to_python(x));
      return l;
    }
    case JsonValue::Kind::kObject: {
      nb::dict d;
      for (const auto& [key, x] : v.members()) d[nb::str(key.c_str(), key.size())] = to_python(x);
      return d;
    }
  }
  return nb::none();
}

// Runs on this thread's worker with the GIL released; polls for Ctrl-C meanwhile.
nb::tuple run(const std::string& app, const PyGraph& g, const std::vector<std::string>& args,
              std::optional<int> communicator) {
  chattygraph::detail::RunCall c;
  {
    nb::gil_scoped_release unlocked;
    std::atomic<bool> stop{false};  // this run's: Ctrl-C stops it, not another thread's
    std::future<chattygraph::detail::RunCall> running =
        RunWorker::of_this_thread().submit<chattygraph::detail::RunCall>(
            [&] { return chattygraph::detail::run_on(app, g, args, &stop, communicator); });
    bool interrupted = false;
    while (running.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
      if (interrupted) continue;
      nb::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) {  // the signal's exception stays set for below
        interrupted = true;
        stop.store(true, std::memory_order_relaxed);
      }
    }
    c = running.get();
    if (interrupted) {
      nb::gil_scoped_acquire gil;
      throw nb::python_error();
    }
  }
  switch (c.kind) {
    case chattygraph::detail::RunCall::Kind::kUsage: throw UsageError(c.error);
    case chattygraph::detail::RunCall::Kind::kMemory: throw std::bad_alloc();
    case chattygraph::detail::RunCall::Kind::kInterrupted:
      PyErr_SetString(PyExc_KeyboardInterrupt, c.error.c_str());
      throw nb::python_error();
    case chattygraph::detail::RunCall::Kind::kError: throw Error(c.error);
    case chattygraph::detail::RunCall::Kind::kNone: break;
  }
  AppOutput& out = c.job.result;
  const Values kind = app_spec(out.app).values;
  nb::object pairs = nb::none();
  if (app_spec(out.app).per_pair) {  // the pairs as one flat array, u0 v0 u1 v1 ...
    std::vector<uint32_t> flat;
    flat.reserve(2 * out.pairs.size());
    for (const auto& [u, v] : out.pairs) flat.push_back(u), flat.push_back(v);
    pairs = nb::cast(to_numpy(std::move(flat)));
    if (kind == Values::kReals) out.ranks.clear();
  }
  nb::object values = app_spec(out.app).per_pair && kind == Values::kReals ? nb::cast(to_numpy(std::move(out.scores)))
                      : kind == Values::kReals                             ? nb::cast(to_numpy(std::move(out.ranks)))
                      : kind == Values::kCounts                            ? nb::cast(to_numpy(std::move(out.counts)))
                                                                           : nb::cast(to_numpy(std::move(out.ints)));
  nb::object second = out.second.empty() ? nb::none() : nb::cast(to_numpy(std::move(out.second)));
  nb::object levels = nb::none();
  if (!out.levels.empty()) {  // every level's labels as one flat array, level after level
    std::vector<uint32_t> flat;
    flat.reserve(out.levels.size() * out.ints.size());
    for (const std::vector<uint32_t>& level : out.levels) flat.insert(flat.end(), level.begin(), level.end());
    levels = nb::cast(to_numpy(std::move(flat)));
  }
  return nb::make_tuple(values, to_python(c.job.report), c.job.exit_code, second, pairs, levels);
}

// The registry's entries as Python sees them: chattygraph makes a function
// of each, and the NetworkX backend its list.
nb::list app_list() {
  nb::list v;
  for (App a : all_apps()) {
    nb::dict d;
    d["name"] = a->name;
    d["python_name"] = a->python_name;
    d["doc"] = a->python_doc;
    d["networkx"] = a->networkx;
    d["needs_source"] = a->needs_source;
    d["sources_at_once"] = a->sources_at_once;
    d["values"] = a->values == Values::kReals ? "reals" : a->values == Values::kCounts ? "counts" : "ints";
    d["double"] = a->python_double;
    d["second"] = a->second ? nb::cast(std::string(a->second)) : nb::none();
    d["unreached"] = a->unreached;
    d["per_pair"] = a->per_pair;
    d["names_vertices"] = a->relabel != nullptr;
    v.append(d);
  }
  return v;
}

}  // namespace
}  // namespace chatty::py

NB_MODULE(_core, m) {
  using namespace chatty;
  using namespace chatty::py;
  m.doc() = "ChattyGraph's engine (use the chattygraph package, not this module)";
  // Anything the user can fix is a ValueError; the CLI's option messages
  // are UsageError, a ValueError too.
  static nb::exception<Error> error(m, "ChattyError", PyExc_ValueError);
  static nb::exception<UsageError> usage(m, "UsageError", error.ptr());

  nb::class_<PyGraph>(m, "CoreGraph")
      .def_prop_ro("n", [](const PyGraph& g) { return size_t(g.g.num_vertices()); })
      .def_prop_ro("m", [](const PyGraph& g) { return size_t(g.g.num_edges()); })
      .def_prop_ro("directed", [](const PyGraph& g) { return g.g.directed(); })
      .def_prop_ro("weighted", [](const PyGraph& g) { return g.g.weighted(); })
      .def_prop_ro("name", [](const PyGraph& g) { return g.name; })
      .def_prop_ro("format", [](const PyGraph& g) { return g.info.format; })
      .def_prop_ro("compression", [](const PyGraph& g) { return g.info.compression; })
      .def_prop_ro("direction_reason", [](const PyGraph& g) { return g.info.direction_reason; })
      .def_prop_ro("id_scheme", [](const PyGraph& g) { return std::string(g.info.ids.name()); })
      .def("ids", [](nb::handle self) { return ids_of(self, nb::cast<const PyGraph&>(self)); })
      .def("csr", [](nb::handle self) { return csr_of(self, nb::cast<const PyGraph&>(self)); })
      .def("save", [](const PyGraph& g, const std::string& path) {
        nb::gil_scoped_release unlocked;
        return save_graph(g.g, path, Format(nullptr), g.info.ids);
      });

  m.def("load", &load, "what"_a, "args"_a, "weights"_a);
  m.def("from_csr", &from_csr, "owner"_a, "indptr"_a, "indices"_a, "weights"_a.none(), "directed"_a, "ids"_a, "name"_a);
  m.def("from_edges", &from_edges, "src"_a, "dst"_a, "weights"_a.none(), "n"_a, "directed"_a, "dedupe"_a,
        "drop_self_loops"_a, "ids"_a, "name"_a);
  m.def("run", &run, "app"_a, "graph"_a, "args"_a, "communicator"_a.none());
  m.def("apps", &app_list);
  m.def("bool_flags", [] {
    std::vector<std::string> names;
    for (const job::OptionInfo& o : job::run_option_table())
      if (std::string(o.type) == "bool") names.push_back(o.name);
    return names;
  });
}
