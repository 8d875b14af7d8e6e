// What the component apps (WCC, SCC) share: every vertex labelled by the
// least vertex id of its component.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apps/registry.h"
#include "apps/validate.h"
#include "runtime/host/host_operators.h"

namespace chatty {

// A label is the least id of its class: no vertex is labelled above its
// own id, and every label's vertex is labelled by itself. Fails at the
// first vertex that breaks it, in the input's ids; passes otherwise.
Validation check_least_labels(const AppOutput& out, const char* what);

// An operator program's labels of every vertex where one process computes
// them all: compute() on rank 0; zeros on the others, which the engine's
// sum over the ranks leaves as rank 0's. The others' run says "rank 0
// computes the <what>".
template <typename Compute>
std::vector<uint64_t> labels_on_rank_zero(host::HostOperators& h, size_t n, const char* what, Compute&& compute) {
  if (h.share().rank != 0) {
    std::string note = "rank 0 computes the ";
    h.note(note.append(what));
    return std::vector<uint64_t>(n, 0);
  }
  const std::vector<uint32_t> labels = compute();
  return std::vector<uint64_t>(labels.begin(), labels.end());
}

// A component's label is its least vertex id, which relabelling changes.
void relabel_least_ids(AppOutput& out, const std::vector<vid_t>& old_of_new);

// "N components, the largest M vertices (P %)" and {"components", "largest"};
// classes_* name the classes otherwise ("community": "N communities", ...).
std::string classes_text(const AppOutput& out, const char* one, const char* many);
JsonValue classes_json(const AppOutput& out, const char* many);
// The communities' summary with the modularity and the levels the run
// reports in its figures (Louvain, Leiden).
std::string modularity_text(const AppOutput& out);
JsonValue modularity_json(const AppOutput& out);
inline std::string components_text(const AppOutput& out) { return classes_text(out, "component", "components"); }
inline JsonValue components_json(const AppOutput& out) { return classes_json(out, "components"); }

}  // namespace chatty
