// What a command's --help (CLI11's) lists: its options, its positionals, its subcommands;
// so that a test covers an option added later without being told.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace loiter::suites::testing {

struct HelpOption {
  std::string name;  // "--count", or a positional's ("RUN", "shards")
  std::string type;  // "TEXT", "FLOAT", "INT", "UINT"; empty for a flag
  bool positional = false;
};

// The options and positionals of the "Options:" and "Positionals:" sections, --help left
// out.
std::vector<HelpOption> help_options(std::string_view help);

// The names of the "Subcommands:" section.
std::vector<std::string> help_subcommands(std::string_view help);

}  // namespace loiter::suites::testing
