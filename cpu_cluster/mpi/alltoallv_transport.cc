// The two-sided baseline: each superstep the rank's first device thread
// packs what every local device sends to each rank, exchanges the sizes
// with MPI_Alltoall and the records with MPI_Alltoallv, and unpacks them
// into the receivers' slots. Devices of one rank copy to each other
// directly. A block in the packed stream is (sender, receiver, count)
// followed by count records.
#include <cstring>
#include <vector>

#include "comm/transport_table.h"
#include "cpu_cluster/mpi/mpi_util.h"
#include "cpu_cluster/mpi/transports.h"

namespace chatty::mpi {
namespace {

struct BlockHead {
  uint32_t from, to;
  uint64_t count;
};

class AlltoallvTransport : public Transport {
 public:
  AlltoallvTransport(const ClusterPlace& place, size_t item_bytes)
      : place_(place), item_bytes_(item_bytes), meeting_(place.local) {}

  const char* name() const override { return comm_name(Comm::kMpiAlltoallv); }
  bool can_connect(int, int) const override { return true; }
  bool receiver_driven() const override { return true; }

  void exchange(Mailboxes& mb, int d, int parity) override {
    for (int to = place_.first(); to < place_.first() + place_.local; ++to)
      if (to != d) {
        const Slot& s = mb.outgoing(d, parity, to);
        mb.recv(parity, to, d).assign(s.data, s.count, item_bytes_);
      }
    std::string failed;
    meeting_.meet(d, [&] {
      try {
        exchange_between_ranks(mb, parity);
      } catch (const std::exception& e) {
        failed = e.what();
      }
    });
    CHATTY_CHECK(failed.empty(), failed);
  }

 private:
  void exchange_between_ranks(Mailboxes& mb, int parity) {
    const int R = place_.ranks, D = place_.devices();
    std::vector<std::vector<std::byte>> out(static_cast<size_t>(R));
    for (int from = place_.first(); from < place_.first() + place_.local; ++from)
      for (int to = 0; to < D; ++to) {
        const int rank = place_.rank_of(to);
        if (rank == place_.rank) continue;
        const Slot& s = mb.outgoing(from, parity, to);
        const BlockHead h{uint32_t(from), uint32_t(to), s.count};
        std::vector<std::byte>& b = out[size_t(rank)];
        const auto* head = reinterpret_cast<const std::byte*>(&h);
        b.insert(b.end(), head, head + sizeof h);
        b.insert(b.end(), s.data, s.data + s.count * item_bytes_);
      }
    std::vector<int> send_bytes(static_cast<size_t>(R), 0), recv_bytes(static_cast<size_t>(R), 0);
    std::vector<int> send_at(static_cast<size_t>(R), 0), recv_at(static_cast<size_t>(R), 0);
    std::vector<std::byte> send;
    for (int r = 0; r < R; ++r) {
      send_at[size_t(r)] = int(send.size());
      send_bytes[size_t(r)] = int(out[size_t(r)].size());
      send.insert(send.end(), out[size_t(r)].begin(), out[size_t(r)].end());
    }
    count_op(MpiOp::kCollective, place_.rank, 2);  // the sizes, then the records
    check_mpi(MPI_Alltoall(send_bytes.data(), 1, MPI_INT, recv_bytes.data(), 1, MPI_INT, mpi::ranks_comm()),
              "MPI_Alltoall");
    size_t total = 0;
    for (int r = 0; r < R; ++r) recv_at[size_t(r)] = int(total), total += size_t(recv_bytes[size_t(r)]);
    std::vector<std::byte> recv(total);
    check_mpi(MPI_Alltoallv(send.data(), send_bytes.data(), send_at.data(), MPI_BYTE, recv.data(), recv_bytes.data(),
                            recv_at.data(), MPI_BYTE, mpi::ranks_comm()),
              "MPI_Alltoallv");
    for (size_t at = 0; at < total;) {
      BlockHead h;
      std::memcpy(&h, recv.data() + at, sizeof h);
      at += sizeof h;
      mb.recv(parity, int(h.to), int(h.from)).assign(recv.data() + at, h.count, item_bytes_);
      at += h.count * item_bytes_;
    }
  }

  const ClusterPlace place_;
  const size_t item_bytes_;
  RankMeeting meeting_;
};

}  // namespace

std::unique_ptr<Transport> make_alltoallv_transport(const ClusterPlace& place, size_t item_bytes) {
  return std::make_unique<AlltoallvTransport>(place, item_bytes);
}

}  // namespace chatty::mpi
