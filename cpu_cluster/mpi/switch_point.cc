// The RDMA thesis's small/large switch point for mpi_ring, measured between two
// ranks and cached per cluster. The ring transport sends a pair's records
// under the switch point as one two-sided message; larger ones go as
// one-sided puts into the ring, a flush, the head word (an accumulate) and
// a flush. Either way a notice word announces the path, so it is left out
// of both. The probe times, per size, a round trip of each path as the
// transport runs it - a message of the records against put, flush, flag
// accumulate and flush - with the receiver waiting for what the path
// delivers and answering with a byte, and the switch point is the
// smallest size from which the one-sided path is the faster.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cpu_cluster/cluster.h"
#include "cpu_cluster/mpi/mpi_util.h"
#include "cpu_cluster/mpi/window_ops.h"
#include "runtime/base/cache_dir.h"
#include "runtime/base/json_value.h"
#include "runtime/base/status.h"

namespace chatty {
namespace {

using mpi::check_mpi;

constexpr size_t kSizes[] = {256, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20};
constexpr size_t kLargest = 1 << 20;
constexpr int kTag = 7001;

// Seconds per round trip of `reps` rounds of `round`, the best of three tries.
template <typename F>
double best_round_trip(int reps, F round) {
  double best = 1e30;
  for (int t = 0; t < 3; ++t) {
    const double t0 = MPI_Wtime();
    for (int r = 0; r < reps; ++r) round(r);
    best = std::min(best, (MPI_Wtime() - t0) / reps);
  }
  return best;
}

struct Probe {
  std::vector<double> two_sided, one_sided;  // seconds per round trip, per kSizes entry
};

// Ranks `a` (the sender) and `b` time both paths; every rank (`comm` is
// the ranks' communicator's copy) takes part in making and freeing the window, which
// is shared as the transport's are where they are (window_ops.h).
Probe measure(MPI_Comm comm, int me, int a, int b) {
  void* base = nullptr;
  MPI_Win win;
  mpi::allocate_window(kLargest + 64, 1, &base, &win);
  mpi::WindowOps ops(win);
  std::memset(base, 0, kLargest + 64);
  check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, win), "MPI_Win_lock_all");
  MPI_Barrier(comm);
  Probe p;
  std::vector<std::byte> buf(kLargest);
  char ack = 0;
  auto* flag = static_cast<uint64_t*>(base);
  for (size_t size : kSizes) {
    const int reps = int(std::clamp<size_t>((size_t(8) << 20) / size, 8, 200));
    double two = 0, one = 0;
    if (me == a) {
      two = best_round_trip(reps, [&](int) {
        MPI_Send(buf.data(), int(size), MPI_BYTE, b, kTag, comm);
        MPI_Recv(&ack, 1, MPI_CHAR, b, kTag, comm, MPI_STATUS_IGNORE);
      });
      uint64_t round = 0;
      one = best_round_trip(reps, [&](int) {
        ++round;
        ops.put(b, 64, buf.data(), size);
        ops.flush(b);
        ops.replace(b, 0, round);
        ops.flush(b);
        MPI_Recv(&ack, 1, MPI_CHAR, b, kTag, comm, MPI_STATUS_IGNORE);
      });
    } else if (me == b) {
      for (int t = 0; t < 3 * reps; ++t) {
        MPI_Recv(buf.data(), int(size), MPI_BYTE, a, kTag, comm, MPI_STATUS_IGNORE);
        MPI_Send(&ack, 1, MPI_CHAR, a, kTag, comm);
      }
      for (uint64_t round = 1; round <= uint64_t(3 * reps); ++round) {
        // A poll drives MPI's progress, or some one-sided components never land the put.
        int any = 0;
        while (std::atomic_ref<uint64_t>(*flag).load(std::memory_order_acquire) != round) {
          MPI_Win_sync(win);
          MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &any, MPI_STATUS_IGNORE);
        }
        MPI_Send(&ack, 1, MPI_CHAR, a, kTag, comm);
      }
    }
    p.two_sided.push_back(two), p.one_sided.push_back(one);
  }
  // The ranks outside the pair wait here, yielding their cores: MPICH
  // busy-polls in a blocking collective, and with more ranks than cores
  // their polling would slow the pair's round trips by orders of magnitude.
  MPI_Request done;
  check_mpi(MPI_Ibarrier(comm, &done), "MPI_Ibarrier");
  for (int finished = 0; !finished;) {
    check_mpi(MPI_Test(&done, &finished, MPI_STATUS_IGNORE), "MPI_Test");
    if (!finished && me != a && me != b) usleep(500);
  }
  check_mpi(MPI_Win_unlock_all(win), "MPI_Win_unlock_all");
  check_mpi(MPI_Win_free(&win), "MPI_Win_free");
  return p;
}

// The smallest size from which the one-sided path is faster at every
// larger size; past the largest measured when it never is.
size_t switch_from(const Probe& p) {
  size_t at = 2 * kLargest;
  for (size_t i = std::size(kSizes); i-- > 0;) {
    if (p.one_sided[i] >= p.two_sided[i]) break;
    at = kSizes[i];
  }
  return at;
}

// The hosts of every rank, gathered to all: "host:ranks,..." in host order,
// and the first rank on another host than rank 0's (else rank 1).
std::pair<std::string, int> hosts_and_partner(MPI_Comm comm, int ranks) {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  std::vector<char> all(size_t(ranks) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm);
  std::map<std::string, int> count;
  int partner = 0;
  const std::string first(&all[0]);
  for (int r = 0; r < ranks; ++r) {
    const std::string h(&all[size_t(r) * MPI_MAX_PROCESSOR_NAME]);
    ++count[h];
    if (!partner && h != first) partner = r;
  }
  if (!partner) partner = 1;
  std::string s;
  for (const auto& [h, n] : count) s += (s.empty() ? "" : ",") + h + ":" + std::to_string(n);
  return {s, partner};
}

std::string fingerprint(const std::string& hosts) {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(lib, &len);
  std::string version(lib, size_t(len));
  version = version.substr(0, version.find_first_of("\n,"));
  const char* osc = std::getenv("OMPI_MCA_osc");
  // The probe's paths are part of the key: a point measured for other
  // paths is measured again.
  return std::string("paths 3; windows ") + (cluster_windows_shared() ? "shared" : "mpi") + "; " + version + "; osc " +
         (osc && *osc ? osc : "default") + "; " + hosts;
}

// The cache's entries by key; an unreadable or malformed file reads as
// none, and is measured again and rewritten.
JsonValue read_cache(const std::string& path) {
  std::ifstream f(path);
  if (!f) return JsonValue::object();
  std::stringstream text;
  text << f.rdbuf();
  try {
    JsonValue j = parse_json(text.str());
    if (j.is_object()) return j;
  } catch (const Error&) {
  }
  return JsonValue::object();
}

}  // namespace

SwitchPoint cluster_switch_point(bool measure_again) {
  const ClusterPlace* place = cluster();
  if (!place || place->ranks < 2) return {size_t(32) << 10, "one rank: no pair to measure"};
  MPI_Comm comm;
  check_mpi(MPI_Comm_dup(mpi::ranks_comm(), &comm), "MPI_Comm_dup");
  const int me = place->rank;
  const auto [hosts, partner] = hosts_and_partner(comm, place->ranks);
  const std::string key = fingerprint(hosts), path = cache_file("cluster_switch.json");
  // Rank 0 reads the cache and tells the others whether to measure.
  uint64_t cached = 0;
  if (me == 0 && !measure_again) {
    const JsonValue j = read_cache(path);
    const JsonValue* entry = j.find(key);
    const JsonValue* small = entry ? entry->find("small_bytes") : nullptr;
    const double bytes = small && small->is_number() ? small->as_number() : -1;
    if (bytes >= 0 && bytes < 0x1p60 && bytes == std::floor(bytes)) cached = uint64_t(bytes) + 1;
  }
  check_mpi(MPI_Bcast(&cached, 1, MPI_UINT64_T, 0, comm), "MPI_Bcast");
  if (cached) {
    MPI_Comm_free(&comm);
    return {size_t(cached - 1), "cached in " + path};
  }
  const Probe p = measure(comm, me, 0, partner);
  uint64_t bytes = me == 0 ? switch_from(p) : 0;
  check_mpi(MPI_Bcast(&bytes, 1, MPI_UINT64_T, 0, comm), "MPI_Bcast");
  MPI_Comm_free(&comm);
  std::string how = "measured between ranks 0 and " + std::to_string(partner);
  if (me == 0) {
    JsonValue j = read_cache(path);
    JsonValue entry = JsonValue::object();
    entry.set("small_bytes", bytes);
    entry.set("sizes", JsonValue::array_of(std::vector<size_t>(std::begin(kSizes), std::end(kSizes))));
    JsonValue two_sided = JsonValue::array(), one_sided = JsonValue::array();
    for (size_t i = 0; i < p.two_sided.size(); ++i) {
      two_sided.push(p.two_sided[i] * 1e6);
      one_sided.push(p.one_sided[i] * 1e6);
    }
    entry.set("two_sided_us", std::move(two_sided));
    entry.set("one_sided_us", std::move(one_sided));
    j.set(key, std::move(entry));
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    const std::string tmp = path + "." + std::to_string(getpid());
    if (std::ofstream f(tmp); f << j.dump(2) << "\n") {
      std::filesystem::rename(tmp, path, ec);
      if (!ec) how += ", cached in " + path;
    }
  }
  return {size_t(bytes), how};
}

}  // namespace chatty
