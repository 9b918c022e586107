// The exit codes of every command. A command returns its verdict's code (0, 1, 130); an
// error it throws is mapped once (error_exit.hpp): a bad input (a Refusal, refusals.hpp; any
// std::invalid_argument; a target file's error) 2, anything else (fixtures::HarnessError, a
// file that cannot be written) 3.
#pragma once

namespace loiter::cli {

inline constexpr int kPassed = 0, kFailed = 1, kUsage = 2, kInfrastructure = 3, kInterrupted = 130;

}  // namespace loiter::cli
