# Writes a C++ source that returns every topology/data/*.json as a string,
# so `--topology=NAME` works from any directory.
file(GLOB files "${SRC}/topology/data/*.json")
list(SORT files)
set(body "")
foreach(f ${files})
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} text)
  string(APPEND body "      {\"${name}\", R\"CHATTYJSON(${text})CHATTYJSON\"},\n")
endforeach()
file(WRITE "${OUT}.tmp" "// Generated from topology/data/*.json by topology/embed.cmake.\n#include <string>\n#include <utility>\n#include <vector>\n\nnamespace chatty::topo {\n\nconst std::vector<std::pair<std::string, std::string>>& embedded_topologies() {\n  static const std::vector<std::pair<std::string, std::string>> all = {\n${body}  };\n  return all;\n}\n\n}  // namespace chatty::topo\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
