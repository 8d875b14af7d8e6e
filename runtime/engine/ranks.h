// What the engine needs of the ranks a run spans, handed to it as one
// object, as it is handed the Fabric: where this process stands, the
// collectives it agrees by (a maximum, a barrier, an error, the gather and
// sum of results), the means between ranks (a fabric, exposed memory for
// migration, a transport), and the watch's hooks. The engine includes
// nothing of the inter-node layer: cpu_cluster/ implements this over MPI
// (cluster_ranks()), and one_process() is the run of a single process,
// where every collective is the identity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "comm/fabric.h"
#include "comm/transport.h"
#include "runtime/base/engine_options.h"
#include "runtime/base/rank_place.h"
#include "runtime/migration/exposed_memory.h"

namespace chatty {

// What a transport between ranks is asked to carry (make_cluster_transport
// in cpu_cluster/cluster.h says what each field does).
struct RankTransportAsk {
  Comm comm = Comm::kAuto;
  Net net = Net::kAuto;
  size_t slot_records = 0;  // records a device may send a peer in a superstep
  size_t item_bytes = 0;    // one record
  size_t ring_bytes = size_t(2) << 20;
  size_t batch_bytes = size_t(64) << 10;
  size_t small_bytes = size_t(32) << 10;
  int lanes = 1;
  size_t put_cap = size_t(1) << 30;
};

// The ask of a run's options on a graph of n vertices, records of
// `item_bytes` through `lanes` rings: a slot holds what a device sends in a
// superstep, each vertex once or WCC's description (a word of bits per 32
// vertices and two headers).
inline RankTransportAsk transport_ask(const EngineOptions& opt, size_t n, size_t item_bytes, int lanes) {
  return {.comm = opt.comm,
          .net = opt.net,
          .slot_records = n + n / 32 + 2,
          .item_bytes = item_bytes,
          .ring_bytes = opt.ring_bytes,
          .batch_bytes = opt.batch_bytes,
          .small_bytes = opt.small_bytes,
          .lanes = lanes,
          .put_cap = opt.put_window_bytes};
}

class Ranks {
 public:
  virtual ~Ranks() = default;

  // This process's place for a run whose process drives `devices` devices.
  virtual ClusterPlace place(int devices) const = 0;
  // Whether this process is a rank of a launch (mpirun, srun), even of one.
  virtual bool is_cluster() const = 0;
  // This rank's index among the ranks of its node (0 when none says).
  virtual int node_rank() const = 0;

  // Collectives: every rank calls them, in the same order.
  virtual double max(double value) = 0;
  virtual void barrier() = 0;
  // The error of the lowest rank that has one ("rank R: " first unless every
  // rank had it), the same on every rank; "" when none has.
  virtual std::string agree_error(const std::string& mine) = 0;
  // Rank 0 receives every rank's block [begin[r], begin[r + 1]) of `values`.
  virtual void gather(void* values, size_t item_bytes, const uint64_t* begin) = 0;
  // Element-wise sums over every rank, in place on each.
  virtual void sum(uint64_t* values, size_t n) = 0;
  virtual void sum(double* values, size_t n) = 0;

  // The run's MPI operations ([target rank * kMpiOps + op]), counted from
  // the last reset; empty for one process.
  virtual void reset_ops() = 0;
  virtual std::vector<uint64_t> ops() = 0;

  // The watch over the ranks: what a rank is doing, for the line that names
  // a rank that stops answering, and its deadline (0: none).
  virtual void note_share() = 0;    // a whole-graph app's share begins
  virtual void note_results() = 0;  // the run is over: results are gathered
  virtual double watch_seconds() = 0;
  // An owner took back blocks that a device of `thief_rank` did not finish.
  virtual void taken_back(int thief_rank) = 0;
  // Seconds the first claim of another rank's blocks pauses (a test's fault
  // injection); 0 when none.
  virtual double fault_thief_stall_s() = 0;
  // Ends the whole job after an error only this rank met (end_job), and
  // this process with it.
  [[noreturn]] void abort(int code) {
    end_job(code);
    std::_Exit(code);
  }

  // The means between ranks. make_fabric and exposed are collectives (they
  // allocate windows); exposed's memory lives until the process exits.
  virtual std::unique_ptr<Fabric> make_fabric(Net net, int devices) = 0;
  virtual ExposedMemory& exposed(const ClusterPlace& place, const std::vector<size_t>& bytes) = 0;
  virtual std::unique_ptr<Transport> make_transport(const ClusterPlace& place, const RankTransportAsk& ask) = 0;

 protected:
  virtual void end_job(int code) = 0;
};

// The ranks of a process that runs alone.
Ranks& one_process();

}  // namespace chatty
