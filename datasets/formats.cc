#include "datasets/formats.h"

#include <sstream>

#include "datasets/cgr_format.h"
#include "datasets/load.h"
#include "datasets/second_reading.h"
#include "datasets/text_formats.h"
#include "datasets/text_source.h"

namespace chatty {

namespace {

bool starts(std::string_view line, std::string_view with) { return line.substr(0, with.size()) == with; }

// KONECT's out.NAME files open with "% sym", "% asym" or "% bip".
Sniff sniff_edge_list(std::string_view line) {
  for (std::string_view konect : {"% sym ", "% asym ", "% bip "})
    if (starts(line, konect)) return Sniff::kThis;
  return Sniff::kNot;
}

// A problem line names DIMACS; 'c' lines are its comments.
Sniff sniff_dimacs(std::string_view line) {
  if (starts(line, "p ") || starts(line, "p\t")) return Sniff::kThis;
  if (line[0] == 'c' && (line.size() == 1 || line[1] == ' ' || line[1] == '\t')) return Sniff::kComment;
  return Sniff::kNot;
}

Sniff sniff_matrix_market(std::string_view line) { return starts(line, "%%matrixmarket") ? Sniff::kThis : Sniff::kNot; }

template <Graph (*Load)(TextSource&, const LoadOptions&, LoadInfo&)>
Graph read_text(const std::string&, std::unique_ptr<TextSource>& src, const LoadOptions& opt, LoadInfo& info) {
  return Load(*src, opt, info);
}

std::string write_edge_list_as(const Graph& g, const std::string& path, const std::string& ext, const VertexIds& ids) {
  const EdgeListStyle style = ext == "el"    ? EdgeListStyle::kGapEl
                              : ext == "wel" ? EdgeListStyle::kGapWel
                              : ext == "csv" ? EdgeListStyle::kCsv
                                             : EdgeListStyle::kSnap;
  return write_edge_list(g, path, style, ids);
}

// DIMACS and Matrix Market number vertices 1..n whatever the input called
// them: the note says so where the input's ids were others.
template <std::string (*Write)(const Graph&, const std::string&)>
std::string write_one_based(const Graph& g, const std::string& path, const std::string&, const VertexIds& ids) {
  std::string note = Write(g, path);
  if (ids.scheme != IdScheme::kOccurring) return note;
  return (note.empty() ? "" : note + "; ") +
         "the input's ids are not kept: DIMACS and Matrix Market number vertices 1.." +
         std::to_string(g.num_vertices());
}

const FormatSpec kEdgeList{
    .name = "el",
    .aliases = "txt snap edges wel",
    .extensions = "txt el wel edges snap tsv csv",
    .title = "edge list",
    .article = "an edge list",
    .sniff = sniff_edge_list,
    .ids =
        "the ids that occur (SNAP, KONECT, plain text); positions 0..max for GAP's .el/.wel and files that "
        "open with a vertex count",
    .read = read_text<load_edge_list>,
    .read_again = reread_edge_list,
    .write = write_edge_list_as,
};

const FormatSpec kDimacs{
    .name = "gr",
    .aliases = "dimacs",
    .extensions = "gr",
    .title = "DIMACS",
    .article = "a DIMACS file",
    .sniff = sniff_dimacs,
    .ids = "1..N",
    .read = read_text<load_dimacs>,
    .read_again = reread_dimacs,
    .write = write_one_based<write_dimacs>,
};

const FormatSpec kMatrixMarket{
    .name = "mtx",
    .extensions = "mtx",
    .title = "Matrix Market",
    .article = "a Matrix Market file",
    .sniff = sniff_matrix_market,
    .ids = "1..N",
    .read = read_text<load_matrix_market>,
    .read_again = reread_matrix_market,
    .write = write_one_based<write_matrix_market>,
};

const FormatSpec kMetis{
    .name = "metis",
    .aliases = "graph",
    .extensions = "graph metis",
    .title = "METIS",
    .article = "a METIS file",
    .ids = "1..N",
    .read = read_text<load_metis>,
    .read_again = reread_metis,
};

const FormatSpec kCgr{
    .name = "cgr",
    .extensions = "cgr",
    .title = "cgr",
    .article = "a .cgr file",
    .magic = kCgrMagic,
    .ids = "as the file it was converted from",
    .read = load_cgr,
    .write =
        [](const Graph& g, const std::string& path, const std::string&, const VertexIds& ids) {
          write_cgr(g, path, ids);
          return std::string();
        },
};

std::vector<std::string> words(const char* s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

}  // namespace

const std::vector<Format>& formats() {
  static const std::vector<Format> table = {&kEdgeList, &kDimacs, &kMatrixMarket, &kMetis, &kCgr};
  return table;
}

std::string format_names(bool written) {
  std::vector<std::string> names;
  for (Format f : formats())
    if (!written || f->write) names.push_back(f->name);
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return s;
}

std::string format_extensions(bool written) {
  std::string s;
  for (Format f : formats())
    if (!written || f->write)
      for (const std::string& e : words(f->extensions)) s += (s.empty() ? "." : " .") + e;
  return s;
}

Format find_format_named(const std::string& name) {
  for (Format f : formats()) {
    if (name == f->name) return f;
    for (const std::string& a : words(f->aliases))
      if (name == a) return f;
  }
  return nullptr;
}

Format find_format_of_extension(const std::string& ext) {
  for (Format f : formats())
    for (const std::string& e : words(f->extensions))
      if (ext == e) return f;
  return nullptr;
}

SniffResult sniff_line(std::string_view line) {
  SniffResult r;
  for (Format f : formats()) {
    if (!f->sniff) continue;
    const Sniff s = f->sniff(line);
    if (s == Sniff::kThis) return {f, false};
    if (s == Sniff::kComment) r.comment = true;
  }
  return r;
}

}  // namespace chatty
