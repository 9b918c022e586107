// The exit codes of every `loiter` command (README: "Exit codes").
#pragma once

namespace loiter::cli {

inline constexpr int kPassed = 0, kFailed = 1, kUsage = 2, kInfrastructure = 3, kInterrupted = 130;

}  // namespace loiter::cli
