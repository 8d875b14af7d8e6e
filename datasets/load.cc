#include "datasets/load.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "datasets/file_compressor.h"
#include "datasets/generators.h"
#include "datasets/text_formats.h"
#include "datasets/text_source.h"
#include "runtime/base/replace_file.h"
#include "runtime/base/status.h"

namespace chatty {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string extension(const std::string& path) {
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return lower(path.substr(dot + 1));
}

const char* format_name(Format f) { return f ? f->article : "auto"; }

// The format a file's first bytes say it is (a binary format's magic, a
// text format's line: formats.h's sniff), or null when they do not say (an
// edge list's lines are only numbers and comments).
Format format_of_content(const TextBlock& b) {
  const size_t n = std::min<size_t>(b.size, 1 << 16);
  for (Format f : formats())
    if (f->magic && n >= std::strlen(f->magic) && std::memcmp(b.data, f->magic, std::strlen(f->magic)) == 0) return f;
  size_t pos = 0;
  while (pos < n) {
    size_t end = pos;
    while (end < n && b.data[end] != '\n') ++end;
    std::string line = lower(std::string(b.data + pos, end - pos));
    pos = end + 1;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    const SniffResult said = sniff_line(std::string_view(line).substr(first));
    if (said.format) return said.format;
    if (!said.comment) return nullptr;
  }
  return nullptr;
}

// Whether the first line that is not a comment holds two to four numbers,
// as every edge list's lines do.
bool looks_like_edge_list(const TextBlock& b) {
  size_t pos = 0;
  const size_t n = std::min<size_t>(b.size, 1 << 16);
  while (pos < n) {
    size_t end = pos;
    while (end < n && b.data[end] != '\n') ++end;
    const std::string line(b.data + pos, end - pos);
    pos = end + 1;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#' || line[first] == '%') continue;
    int fields = 0;
    for (size_t k = first; k < line.size();) {
      const size_t e = std::min(line.find_first_of(" \t\r,", k), line.size());
      if (line.find_first_not_of("0123456789.-+eE", k) < e) return false;
      ++fields;
      k = std::min(line.find_first_not_of(" \t\r,", e), line.size());
    }
    return fields >= 2 && fields <= 4;
  }
  return false;
}

// --format wins when the content does not contradict it, the content wins
// over the extension, and an unknown extension is an error unless the
// content says what it is.
Format resolve_format(const std::string& what, const TextSource& src, Format asked) {
  const Format content = format_of_content(src.first());
  if (asked) {
    CHATTY_CHECK(!content || content == asked,
                 what + ": the content is " + format_name(content) + " but --format names " + format_name(asked));
    return asked;
  }
  if (content) return content;
  if (what == "-") return find_format_named("el");
  try {
    return format_of_path(without_compression_suffix(what));
  } catch (const Error&) {
    // A name without an extension ("web-Google", "graph.gz"), or compressed
    // data under any name: lines of numbers are an edge list. An unknown
    // extension stays an error (it may name a format this does not read).
    const bool nameless = extension(without_compression_suffix(what)).empty();
    if ((nameless || src.compression() != Compression::kNone) && looks_like_edge_list(src.first()))
      return find_format_named("el");
    throw;
  }
}

Graph load_file(const std::string& what, const LoadOptions& opt, LoadInfo& info) {
  auto src = TextSource::open(what);
  info.compression = compression_name(src->compression());
  const Format f = resolve_format(what, *src, opt.format);
  return f->read(what, src, opt, info);
}

// The data folder of datasets/fetch.py: $CHATTY_DATA, else
// ~/.cache/chattygraph/datasets.
std::string data_dir() {
  if (const char* d = std::getenv("CHATTY_DATA"); d && *d) return d;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.cache/chattygraph/datasets";
}

// A bare name that is no file: the .cgr fetch.py made for it, or "".
std::string catalogued(const std::string& what) {
  if (what.find('/') != std::string::npos || what == "-" || std::ifstream(what).good()) return {};
  std::ifstream index(data_dir() + "/index.txt");
  std::string name, path;
  while (index >> name >> path)
    if (name == what) return path;
  return {};
}

}  // namespace

Graph load_graph_unchecked(const std::string& what, const LoadOptions& opt, LoadInfo& info);

IdChoice parse_id_choice(const std::string& s) {
  if (s == "auto") return IdChoice::kAuto;
  if (s == "positions") return IdChoice::kPositions;
  if (s == "occurring") return IdChoice::kOccurring;
  throw Error("unknown --ids '" + s + "' (auto, positions or occurring)");
}

Format parse_format(const std::string& name) {
  if (name == "auto" || name.empty()) return nullptr;
  if (Format f = find_format_named(name)) return f;
  throw Error("unknown format '" + name + "' (use auto, " + format_names() + ")");
}

Format format_of_path(const std::string& path) {
  const std::string ext = extension(path);
  if (Format f = find_format_of_extension(ext)) return f;
  throw Error(path + ": unknown format '" + (ext.empty() ? "(no extension)" : "." + ext) + "' (extensions " +
              format_extensions() + ", optionally .gz .zst .bz2, or --format=" + format_names() + ")");
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

Graph load_graph(const std::string& what, const LoadOptions& opt, LoadInfo* info) {
  LoadInfo local;
  LoadInfo& i = info ? *info : local;
  i = LoadInfo{};
  try {
    return load_graph_unchecked(what, opt, i);
  } catch (const Error& e) {
    // Errors from building the graph (memory) do not know the input's name.
    const std::string msg = e.what();
    const std::string name = what == "-" ? "standard input" : what;
    if (msg.find(name) != std::string::npos) throw;
    throw Error(name + ": " + msg);
  }
}

Graph load_graph_unchecked(const std::string& what, const LoadOptions& opt, LoadInfo& info) {
  Graph g;
  if (is_graph_spec(what)) {
    g = generate_graph(parse_graph_spec(what), opt.seed);
    info.format = "generator";
    info.direction_reason = "generated";
  } else if (const std::string path = catalogued(what); !path.empty()) {
    g = load_file(path, opt, info);
    info.format += " (data set " + what + ")";
  } else {
    g = load_file(what, opt, info);
  }
  CHATTY_CHECK(g.num_edges() > 0,
               (what == "-" ? std::string("standard input") : what) + ": empty graph: no edges left after loading");
  return g;
}

namespace {

std::string save_graph_to(const Graph& g, const std::string& path, const std::string& ext, Format f,
                          const VertexIds& ids) {
  CHATTY_CHECK(f->write, path + ": writing " + f->title + " is not supported (write " + format_extensions(true) + ")");
  return f->write(g, path, ext, ids);
}

}  // namespace

std::string save_graph(const Graph& g, const std::string& path, Format format, const VertexIds& ids) {
  // "g.el.gz": a .el, gzip-compressed.
  const Compression z = compression_of_name(path);
  const std::string plain = without_compression_suffix(path);
  const std::string ext = extension(plain);
  const Format f = format ? format : format_of_path(plain);
  CHATTY_CHECK(z == Compression::kNone || !f->magic,
               path + ": a .cgr is mapped in place and cannot be compressed (write .cgr)");
  std::string note;
  write_replacing(path, [&](const std::string& tmp) {
    if (z == Compression::kNone) {
      note = save_graph_to(g, tmp, ext, f, ids);
      return;
    }
    const std::string text = tmp + ".text";
    try {
      note = save_graph_to(g, text, ext, f, ids);
      compress_file(text, tmp, z);
    } catch (const Error&) {
      std::remove(text.c_str());
      throw;
    }
    std::remove(text.c_str());
  });
  return note;
}

}  // namespace chatty
