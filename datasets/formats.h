// Every input format in one table: its --format names, its extensions, the
// rule by which its content names it, how its ids name vertices, its
// reader, its second reader (--validate's independent parser) and its
// writer. `--format`, the extensions, sniffing, loading, `convert`, the
// help's lists and --validate all look a format up here. A new format is
// its file (reader, writer, second reader) plus one row in formats.cc.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/graph/vertex_ids.h"

namespace chatty {

class TextSource;
struct LoadOptions;
struct LoadInfo;
class SecondReader;  // datasets/second_reading.h

// What a line of a file's head says about a format (sniff).
enum class Sniff { kNot, kThis, kComment };

struct FormatSpec {
  const char* name = "";        // --format's name ("el"), and the first in lists
  const char* aliases = "";     // other --format names, space-separated
  const char* extensions = "";  // file extensions, space-separated, lower case, no dot
  const char* title = "";       // for the graph line and --json ("edge list")
  const char* article = "";     // for messages ("an edge list")
  // What the first bytes of a binary format are (null: a text format).
  const char* magic = nullptr;
  // A text format's rule on one line of the head (lower case, leading blanks
  // dropped): kThis where the line names this format, kComment where the
  // format would skip it; null where content never names it.
  Sniff (*sniff)(std::string_view line) = nullptr;
  const char* ids = "";  // how its ids name vertices, for the help
  // Reads `src`, whose bytes it may take (`src` may be reset: a mapped file
  // used in place), from the input `what`.
  Graph (*read)(const std::string& what, std::unique_ptr<TextSource>& src, const LoadOptions& opt,
                LoadInfo& info) = nullptr;
  void (*read_again)(SecondReader& r) = nullptr;  // null: not read twice
  // Writes g to `path` (`ext`: the extension asked for, for formats with
  // styles); a note for the user where part of g is not written. Null:
  // the format is not written.
  std::string (*write)(const Graph& g, const std::string& path, const std::string& ext, const VertexIds& ids) = nullptr;
};

// A format: its row (null: auto, decided by content and extension).
using Format = const FormatSpec*;

const std::vector<Format>& formats();  // in the table's order
// "el, gr, mtx, metis or cgr": the --format names (the writable ones only
// with `written`).
std::string format_names(bool written = false);
// ".txt .el ...": every extension (those of the written formats only with
// `written`), for the help.
std::string format_extensions(bool written = false);
// The row whose name or alias is `name`; null for auto or "".
Format find_format_named(const std::string& name);
// The row whose extension is `ext` (lower case, no dot); null when none.
Format find_format_of_extension(const std::string& ext);
// What `line` of a file's head says: the format that claims it, else
// whether some format would skip it as a comment.
struct SniffResult {
  Format format = nullptr;
  bool comment = false;
};
SniffResult sniff_line(std::string_view line);

}  // namespace chatty
