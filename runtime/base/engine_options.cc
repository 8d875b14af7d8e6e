#include "runtime/base/engine_options.h"

#include <cstdlib>
#include <utility>

#include "runtime/base/status.h"

namespace chatty {

Direction parse_direction(const std::string& s) {
  if (s == "auto") return Direction::kAuto;
  if (s == "push") return Direction::kPush;
  if (s == "pull") return Direction::kPull;
  throw Error("unknown --direction '" + s + "' (auto, push or pull)");
}

const char* direction_name(Direction d) {
  switch (d) {
    case Direction::kPush: return "push";
    case Direction::kPull: return "pull";
    default: return "auto";
  }
}

namespace {
constexpr std::pair<GpuGather, const char*> kGpuGathers[] = {{GpuGather::kGroups, "groups"},
                                                             {GpuGather::kBinned, "binned"},
                                                             {GpuGather::kTiled, "tiled"},
                                                             {GpuGather::kStreamed, "streamed"}};
constexpr std::pair<CpuGather, const char*> kCpuGathers[] = {
    {CpuGather::kAuto, "auto"}, {CpuGather::kRows, "rows"}, {CpuGather::kTiles, "tiles"}};
constexpr std::pair<GpuLb, const char*> kGpuLbs[] = {
    {GpuLb::kTwc, "twc"}, {GpuLb::kLb, "lb"}, {GpuLb::kSplit, "split"}};
constexpr std::pair<GpuBucketMin, const char*> kGpuBucketMins[] = {{GpuBucketMin::kThread, "thread"},
                                                                   {GpuBucketMin::kWarp, "warp"}};
constexpr std::pair<GpuTc, const char*> kGpuTcs[] = {{GpuTc::kRows, "rows"}, {GpuTc::kEntries, "entries"}};
constexpr std::pair<BcScale, const char*> kBcScales[] = {
    {BcScale::kOrdered, "ordered"}, {BcScale::kPairs, "pairs"}, {BcScale::kNormalized, "normalized"}};
constexpr std::pair<DistanceMeasure, const char*> kDistanceMeasures[] = {
    {DistanceMeasure::kCloseness, "closeness"},
    {DistanceMeasure::kHarmonic, "harmonic"},
    {DistanceMeasure::kEccentricity, "eccentricity"}};
constexpr std::pair<Similarity, const char*> kSimilarities[] = {
    {Similarity::kJaccard, "jaccard"}, {Similarity::kOverlap, "overlap"}, {Similarity::kSorensen, "sorensen"}};
constexpr std::pair<Net, const char*> kNets[] = {{Net::kAuto, "auto"}, {Net::kMpi, "mpi"}, {Net::kVerbs, "verbs"}};
constexpr std::pair<Exchange, const char*> kExchanges[] = {
    {Exchange::kAuto, "auto"}, {Exchange::kBroadcast, "broadcast"}, {Exchange::kPeer, "peer"}};
constexpr std::pair<Messages, const char*> kMessages[] = {
    {Messages::kAuto, "auto"}, {Messages::kSendAll, "sendall"}, {Messages::kPerEdge, "per_edge"}};

// The choice named `s` in `table`; else an error listing the names.
template <typename E, size_t N>
E parse_named(const std::pair<E, const char*> (&table)[N], const char* flag, const std::string& s) {
  std::string all;
  for (auto [e, name] : table) {
    if (s == name) return e;
    all += all.empty() ? name : std::string(", ") + name;
  }
  throw Error("unknown --" + std::string(flag) + " '" + s + "' (" + all + ")");
}

template <typename E, size_t N>
const char* name_in(const std::pair<E, const char*> (&table)[N], E e) {
  for (auto [k, name] : table)
    if (k == e) return name;
  return "?";
}
}  // namespace

Exchange parse_exchange(const std::string& s) { return parse_named(kExchanges, "exchange", s); }
const char* exchange_name(Exchange e) { return name_in(kExchanges, e); }
Messages parse_messages(const std::string& s) { return parse_named(kMessages, "messages", s); }
const char* messages_name(Messages m) { return name_in(kMessages, m); }
Net parse_net(const std::string& s) { return parse_named(kNets, "net", s); }
const char* net_name(Net n) { return name_in(kNets, n); }
GpuGather parse_gpu_gather(const std::string& s) { return parse_named(kGpuGathers, "gpu_gather", s); }
const char* gpu_gather_name(GpuGather g) { return name_in(kGpuGathers, g); }
CpuGather parse_cpu_gather(const std::string& s) { return parse_named(kCpuGathers, "cpu_gather", s); }
const char* cpu_gather_name(CpuGather g) { return name_in(kCpuGathers, g); }

GpuLb parse_gpu_lb(const std::string& s) { return parse_named(kGpuLbs, "gpu_lb", s); }
const char* gpu_lb_name(GpuLb lb) { return name_in(kGpuLbs, lb); }
GpuBucketMin parse_gpu_bucket_min(const std::string& s) { return parse_named(kGpuBucketMins, "gpu_bucket_min", s); }
const char* gpu_bucket_min_name(GpuBucketMin b) { return name_in(kGpuBucketMins, b); }
GpuTc parse_gpu_tc(const std::string& s) { return parse_named(kGpuTcs, "gpu_tc", s); }
const char* gpu_tc_name(GpuTc t) { return name_in(kGpuTcs, t); }
BcScale parse_bc_scale(const std::string& s) { return parse_named(kBcScales, "bc_scale", s); }
const char* bc_scale_name(BcScale s) { return name_in(kBcScales, s); }
Similarity parse_similarity(const std::string& s) { return parse_named(kSimilarities, "similarity", s); }
const char* similarity_name(Similarity s) { return name_in(kSimilarities, s); }

DistanceMeasure parse_distance_measure(const std::string& s) {
  return parse_named(kDistanceMeasures, "distance_measure", s);
}

Straggler parse_straggler(const std::string& s) {
  if (s.empty()) return {};
  const auto number = [&](const char* begin, const char* end, long max) {
    char* stop = nullptr;
    const long x = begin == end ? -1 : std::strtol(begin, &stop, 10);
    if (x < 0 || x > max || stop != end || *begin == '-' || *begin == '+')
      throw Error("--straggler must be DEVICE:MICROSECONDS or FIRST-LAST:MICROSECONDS (got '" + s + "')");
    return x;
  };
  const size_t colon = s.find(':'), dash = s.find('-');
  if (colon == std::string::npos) number(nullptr, nullptr, 0);  // throws
  const char* c = s.c_str();
  const size_t devices_end = dash < colon ? dash : colon;
  Straggler out;
  out.first = int(number(c, c + devices_end, 1 << 20));
  out.last = dash < colon ? int(number(c + dash + 1, c + colon, 1 << 20)) : out.first;
  out.pause_us = uint32_t(number(c + colon + 1, c + s.size(), 10'000'000));
  if (out.last < out.first) throw Error("--straggler: the last device is before the first (got '" + s + "')");
  return out;
}

void check_straggler(const Straggler& s, int devices) {
  if (s.pause_us == 0 || s.last < devices) return;
  throw Error("--straggler names device " + std::to_string(s.last) + ", but the run has " + std::to_string(devices) +
              " devices (0.." + std::to_string(devices - 1) + ")");
}

const char* backend_name(Backend b) { return b == Backend::kCuda ? "cuda" : "cpu"; }

}  // namespace chatty
