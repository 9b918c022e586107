// The hostile-input test's tables: each subcommand's base command (refused by its last
// check, so that no value under test starts a server), the hostile values of each option's
// type and of particular options, and the command line that gives one option one value.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.hpp"
#include "help_options.hpp"

namespace loiter::suites::testing::hostile_inputs {

namespace fs = std::filesystem;

// The paths the values name, in the test's temporary directory.
struct Paths {
  fs::path dir;   // an empty directory
  fs::path file;  // a regular file: nothing can be made under it
  fs::path root;  // where the runs' own directories go
};

Paths make_paths(const TempDir& tmp);

// A subcommand's base: the options and positionals (in --help's order) that make it a
// command its last check refuses; the option under test replaces its own entry and drops
// those it excludes.
struct Command {
  std::string name;
  std::vector<std::pair<std::string, std::vector<std::string>>> base;
  std::map<std::string, std::vector<std::string>> drops;
};

// The base commands of every subcommand, with `p`'s paths.
std::vector<Command> commands(const Paths& p);
// Throws std::invalid_argument when `name` has none.
const Command& command_named(const std::vector<Command>& all, const std::string& name);

// Values refused by every numeric option, each with a message naming the option.
extern const std::vector<std::string> kNotANumber;

// The hostile values of `option`: those of its type (a number, a text, a flag's) and its own.
std::vector<std::string> values_for(const HelpOption& option, const Paths& p);

// `loiter COMMAND` with the base's options, `name` given `value` (its own entry replaced,
// those it excludes dropped), then the positionals after "--" (so that "-1" is a value).
std::vector<std::string> argv_of(const Command& command, const std::string& name,
                                 const std::string& value);

}  // namespace loiter::suites::testing::hostile_inputs
