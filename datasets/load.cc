#include "datasets/load.h"

#include <algorithm>

#include "datasets/cgr_format.h"
#include "datasets/generators.h"
#include "datasets/text_formats.h"
#include "runtime/status.h"

namespace chatty {
namespace {

std::string extension(const std::string& path) {
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

}  // namespace

Graph load_graph_unchecked(const std::string& what, const LoadOptions& opt);

Format parse_format(const std::string& name) {
  if (name == "auto" || name.empty()) return Format::kAuto;
  if (name == "el" || name == "txt" || name == "snap" || name == "edges" || name == "wel") return Format::kEdgeList;
  if (name == "gr" || name == "dimacs") return Format::kDimacs;
  if (name == "mtx") return Format::kMatrixMarket;
  if (name == "cgr") return Format::kCgr;
  throw Error("unknown format '" + name + "' (use auto, el, gr, mtx or cgr)");
}

Format format_of_path(const std::string& path) {
  const std::string ext = extension(path);
  if (ext == "txt" || ext == "el" || ext == "wel" || ext == "edges" || ext == "snap") return Format::kEdgeList;
  if (ext == "gr") return Format::kDimacs;
  if (ext == "mtx") return Format::kMatrixMarket;
  if (ext == "cgr") return Format::kCgr;
  throw Error(path + ": unknown format '" + (ext.empty() ? "(no extension)" : "." + ext) +
              "' (extensions .txt .el .wel .edges .snap .gr .mtx .cgr, or --format=el|gr|mtx|cgr)");
}

Graph symmetrized(const Graph& g) {
  const Csr& c = g.out();
  std::vector<EdgeList> lists(1);
  EdgeList& el = lists[0];
  const vid_t n = c.num_vertices();
  el.src.resize(c.num_edges());
  el.dst.assign(c.targets.begin(), c.targets.end());
  if (g.weighted()) el.weight.assign(c.weights.begin(), c.weights.end());
#pragma omp parallel for schedule(dynamic, 1024)
  for (vid_t u = 0; u < n; ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) el.src[e] = u;
  BuildOptions opt;
  opt.symmetrize = true;
  return build_graph(std::move(lists), n, g.weighted(), opt);
}

Graph load_graph(const std::string& what, const LoadOptions& opt) {
  try {
    return load_graph_unchecked(what, opt);
  } catch (const Error& e) {
    // Errors from building the graph (memory) do not know the input's name.
    const std::string msg = e.what();
    if (msg.rfind(what, 0) == 0 || msg.find(what) != std::string::npos) throw;
    throw Error(what + ": " + msg);
  }
}

Graph load_graph_unchecked(const std::string& what, const LoadOptions& opt) {
  if (is_graph_spec(what)) return generate_graph(parse_graph_spec(what), opt.seed);
  Format f = opt.format == Format::kAuto ? format_of_path(what) : opt.format;
  Graph g;
  switch (f) {
    case Format::kEdgeList: g = load_edge_list(what, opt.build); break;
    case Format::kDimacs: g = load_dimacs(what, opt.build); break;
    case Format::kMatrixMarket: g = load_matrix_market(what, opt.build); break;
    case Format::kCgr:
      g = read_cgr(what);
      if (opt.build.symmetrize && g.directed()) g = symmetrized(g);
      break;
    case Format::kAuto: break;
  }
  CHATTY_CHECK(g.num_edges() > 0, what + ": empty graph: no edges left after loading");
  return g;
}

void save_graph(const Graph& g, const std::string& path, Format format) {
  Format f = format == Format::kAuto ? format_of_path(path) : format;
  switch (f) {
    case Format::kEdgeList: write_edge_list(g, path); break;
    case Format::kDimacs: write_dimacs(g, path); break;
    case Format::kMatrixMarket: write_matrix_market(g, path); break;
    case Format::kCgr: write_cgr(g, path); break;
    case Format::kAuto: break;
  }
}

}  // namespace chatty
