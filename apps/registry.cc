#include "apps/registry.h"

#include "runtime/base/status.h"

namespace chatty {

// CHATTY_APPS, from the build: CHATTY_APP(folder) for every apps/<folder>/app.cc.
#define CHATTY_APP(folder) extern const AppSpec app_##folder;
CHATTY_APPS
#undef CHATTY_APP

const std::vector<App>& all_apps() {
#define CHATTY_APP(folder) &app_##folder,
  static const std::vector<App> apps = {CHATTY_APPS};
#undef CHATTY_APP
  return apps;
}

App parse_app(const std::string& name) {
  for (App a : all_apps())
    if (name == a->name || (*a->alias && name == a->alias)) return a;
  throw Error("unknown app '" + name + "' (" + app_names() + ")");
}

std::string app_names() {
  std::string s;
  for (App a : all_apps()) s += (s.empty() ? "" : ", ") + std::string(a->name);
  return s;
}

}  // namespace chatty
