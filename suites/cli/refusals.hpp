// Inputs refused before anything starts (exit 2): what only the file system or the process
// table can tell, checked before a server is spawned or a client connects.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

namespace loiter::cli {

// Why `OPTION PATH` (--json, --junit) cannot be written at the end of the run, or nullopt
// when it can: a directory, a missing or unwritable directory, an unwritable file, or a
// path inside another run's directory (whose report.json is that run's document). Probing
// leaves an existing file unchanged and creates none.
std::optional<std::string> output_path_problem(std::string_view option, const std::string& path);

// Why `--pid PID` names no process to sample, or nullopt when it does.
std::optional<std::string> pid_problem(pid_t pid);

}  // namespace loiter::cli
