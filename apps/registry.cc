#include "apps/registry.h"

#include "runtime/base/status.h"

namespace chatty {

extern const AppSpec kBfsApp, kSsspApp, kPageRankApp, kWccApp, kKcoreApp, kTcApp, kBcApp;

namespace {

const AppSpec* const kApps[] = {&kBfsApp, &kSsspApp, &kPageRankApp, &kWccApp, &kKcoreApp, &kTcApp, &kBcApp};

}  // namespace

const AppSpec& app_spec(App app) {
  for (const AppSpec* a : kApps)
    if (a->id == app) return *a;
  throw Error("app " + std::to_string(int(app)) + " is not registered");
}

const std::vector<App>& all_apps() {
  static const std::vector<App> apps = [] {
    std::vector<App> v;
    for (const AppSpec* a : kApps) v.push_back(a->id);
    return v;
  }();
  return apps;
}

App parse_app(const std::string& name) {
  for (const AppSpec* a : kApps)
    if (name == a->name || name == a->alias) return a->id;
  throw Error("unknown app '" + name + "' (" + app_names() + ")");
}

const char* app_name(App app) { return app_spec(app).name; }

std::string app_names() {
  std::string s;
  for (const AppSpec* a : kApps) s += (s.empty() ? "" : ", ") + std::string(a->name);
  return s;
}

}  // namespace chatty
