#include "runtime/engine_options.h"

#include <utility>

#include "runtime/status.h"

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
constexpr std::pair<Comm, const char*> kComms[] = {
    {Comm::kAuto, "auto"}, {Comm::kHost, "host"}, {Comm::kHostRead, "host_read"}, {Comm::kHostView, "host_view"},
    {Comm::kUva, "uva"},   {Comm::kP2p, "p2p"},   {Comm::kNccl, "nccl"}};
}  // namespace

Comm parse_comm(const std::string& s) {
  std::string all;
  for (auto [c, name] : kComms) {
    if (s == name) return c;
    all += all.empty() ? name : std::string(", ") + name;
  }
  throw Error("unknown --comm '" + s + "' (" + all + ")");
}

const char* comm_name(Comm c) {
  for (auto [k, name] : kComms)
    if (k == c) return name;
  return "?";
}

Exchange parse_exchange(const std::string& s) {
  if (s == "auto") return Exchange::kAuto;
  if (s == "broadcast") return Exchange::kBroadcast;
  if (s == "peer") return Exchange::kPeer;
  throw Error("unknown --exchange '" + s + "' (auto, broadcast or peer)");
}

const char* exchange_name(Exchange e) {
  switch (e) {
    case Exchange::kBroadcast: return "broadcast";
    case Exchange::kPeer: return "peer";
    default: return "auto";
  }
}

GpuLb parse_gpu_lb(const std::string& s) {
  if (s == "twc") return GpuLb::kTwc;
  if (s == "lb") return GpuLb::kLb;
  throw Error("--gpu_lb must be twc or lb (got '" + s + "')");
}

const char* gpu_lb_name(GpuLb lb) { return lb == GpuLb::kLb ? "lb" : "twc"; }

const char* backend_name(Backend b) { return b == Backend::kCuda ? "cuda" : "cpu"; }

}  // namespace chatty
