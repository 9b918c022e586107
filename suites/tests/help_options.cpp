// CLI11's help text read back: a section title ("Options:") opens a list of lines, each
// "  NAME TYPE[:CHECK][=DEFAULT] ... description", a blank line closes it.
#include "help_options.hpp"

#include <cctype>
#include <sstream>

namespace loiter::suites::testing {

namespace {

// The lines of the section `title`, its entries only (an entry starts with two spaces and a
// non-space; its wrapped description is indented further).
std::vector<std::string> section(std::string_view help, std::string_view title) {
  std::istringstream in{std::string(help)};
  std::vector<std::string> lines;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line == title) {
      inside = true;
    } else if (inside && line.empty()) {
      break;
    } else if (inside && line.size() > 2 && line.starts_with("  ") && line[2] != ' ') {
      lines.push_back(line);
    }
  }
  return lines;
}

// "UINT" of "UINT:INT in [1 - 19000]=100"; empty unless it is an upper-case type word.
std::string type_of(const std::string& word) {
  const auto type = word.substr(0, word.find_first_of(":="));
  if (type.empty()) return {};
  for (const char c : type) {
    if (!std::isupper(static_cast<unsigned char>(c))) return {};
  }
  return type;
}

}  // namespace

std::vector<HelpOption> help_options(std::string_view help) {
  std::vector<HelpOption> options;
  for (const auto* title : {"Positionals:", "Options:"}) {
    for (const auto& line : section(help, title)) {
      std::istringstream words(line);
      std::string name, second;
      words >> name >> second;
      if (const auto comma = name.rfind(','); comma != std::string::npos) {
        name = name.substr(comma + 1);  // "-h,--help": the long name
      }
      if (name == "--help") continue;
      options.push_back({.name = name,
                         .type = type_of(second),
                         .positional = std::string_view(title) == "Positionals:"});
    }
  }
  return options;
}

std::vector<std::string> help_subcommands(std::string_view help) {
  std::vector<std::string> names;
  for (const auto& line : section(help, "Subcommands:")) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    names.push_back(name);
  }
  return names;
}

}  // namespace loiter::suites::testing
