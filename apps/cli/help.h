// Help a person can read: `chatty help [COMMAND]`, `chatty COMMAND --help`
// or `-h` print what the command does, its flags and examples (exit 0);
// a misspelled flag or command gets the nearest name ("did you mean").
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace chatty::cli {

// The general help, or one command's; false for an unknown command.
bool print_help(const std::string& command);

// Commands `chatty` knows.
const std::vector<std::string>& command_names();

// An error line for the first argument naming a flag gflags does not know
// ("" when every one is known). Checked before gflags parses, which would
// print its own message.
std::string unknown_flag_error(int argc, char** argv);

// The value given for --`name` (`--name=v`, or gflags' `--name v`), read
// as gflags would before it parses; nullopt where the flag is absent.
std::optional<std::string> given_flag(int argc, char** argv, const std::string& name);

// An error line for the first flag whose value is not of its type (a word
// for a number, a fraction for a count), "" when all parse. Checked before
// gflags parses, which would print a line per bad value and exit.
std::string bad_flag_value_error(int argc, char** argv);

// An error line for the first flag given that `command` does not take
// (`convert --validate`, `topo --graph`), "" when all apply; one rule for
// every command, from the flags its help lists.
std::string inapplicable_flag_error(const std::string& command, int argc, char** argv);

// "unknown command 'X'" with the nearest command.
std::string unknown_command_error(const std::string& command);

}  // namespace chatty::cli
