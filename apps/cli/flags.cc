#include "apps/cli/flags.h"

#define CHATTY_DEFINE_FLAG(type, name, value, scope, help) DEFINE_##type(name, value, help);
CHATTY_RUN_OPTIONS(CHATTY_DEFINE_FLAG)
#undef CHATTY_DEFINE_FLAG

namespace chatty::cli {

job::RunOptions options_from_flags() {
  job::RunOptions o;
#define CHATTY_READ_FLAG(type, name, value, scope, help) \
  o.name = FLAGS_##name;                                 \
  if (!gflags::GetCommandLineFlagInfoOrDie(#name).is_default) o.given.insert(#name);
  CHATTY_RUN_OPTIONS(CHATTY_READ_FLAG)
#undef CHATTY_READ_FLAG
  return o;
}

}  // namespace chatty::cli
