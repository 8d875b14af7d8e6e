#include "runtime/engine_options.h"

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

}  // namespace chatty
