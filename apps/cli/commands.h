// The `chatty` subcommands; each returns the process exit code and throws
// chatty::Error for anything the user can fix.
#pragma once

#include <string>
#include <vector>

namespace chatty::cli {

int cmd_run(const std::vector<std::string>& args);
int cmd_convert(const std::vector<std::string>& args);
int cmd_generate(const std::vector<std::string>& args);
int cmd_info(const std::vector<std::string>& args);
int cmd_topo(const std::vector<std::string>& args);

}  // namespace chatty::cli
