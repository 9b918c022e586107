// What is installed of a target's server on this machine, asked before any run: whether its
// program is there, and the version it says it is (the matrix's row heading).
#pragma once

#include <optional>
#include <string>

#include "loiter/fixtures/target/target.hpp"

namespace loiter::suites {

// The server's program when it is not installed (not executable where named, not on PATH);
// nullopt when it is.
std::optional<std::string> missing_program(const fixtures::Target& target);

// The first non-empty line the target's version command prints (on stdout, else on stderr)
// within 5 s, run by fixtures' process layer and stopped with its whole tree; the target's
// description when it declares no version command. Never throws: "(version command failed)"
// when it cannot be run, "(no version printed)" when it prints nothing.
std::string target_version(const fixtures::Target& target);

}  // namespace loiter::suites
