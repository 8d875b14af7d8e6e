#include "apps/cli/flag_scope.h"

#include "apps/cli/help.h"
#include "runtime/base/status.h"

namespace chatty::cli {

std::mutex& FlagScope::mutex() {
  static std::mutex m;
  return m;
}

FlagScope::FlagScope(const std::string& command, const std::vector<std::string>& args) : lock_(mutex()) {
  std::vector<std::string> words = {"chatty", command};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  const int argc = int(argv.size());
  for (const std::string& err : {unknown_flag_error(argc, argv.data()), bad_flag_value_error(argc, argv.data()),
                                 inapplicable_flag_error(command, argc, argv.data())})
    if (!err.empty()) throw UsageError(err);
  for (const std::string& a : args) {
    const size_t eq = a.find('=');
    const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const std::string value = eq == std::string::npos ? "true" : a.substr(eq + 1);
    if (gflags::SetCommandLineOption(name.c_str(), value.c_str()).empty())
      throw UsageError("--" + name + "=" + value + ": not a value this option takes");
  }
}

std::vector<std::string> bool_flag_names() {
  std::vector<gflags::CommandLineFlagInfo> all;
  gflags::GetAllFlags(&all);
  std::vector<std::string> names;
  for (const auto& f : all)
    if (f.type == "bool") names.push_back(f.name);
  return names;
}

}  // namespace chatty::cli
