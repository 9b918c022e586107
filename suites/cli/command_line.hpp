// The `loiter` command line as a function: main's whole work, and what the tests of hostile
// inputs run in a forked child instead of starting the executable a thousand times.
#pragma once

namespace loiter::cli {

// Parses argv, runs the command it names and returns its exit code (exit_codes.hpp): 2 for a
// bad input, said on stderr, as for any error a command throws (error_exit.hpp).
int run_command_line(int argc, char** argv);

}  // namespace loiter::cli
