// The matrix rendered from stored runs alone: the run directories named (a server's run
// directory, or a matrix directory holding them), each report.json read back through
// reports' reader, then the Markdown table and matrix.html. Shared by `loiter matrix` and
// `loiter report --matrix`, so both show the same table for the same runs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace loiter::cli {

// Each directory holding a report.json as itself; any other, its subdirectories that hold
// one, by name (a matrix's run directories are named in the order they ran). Throws
// std::runtime_error naming a directory that holds no run.
std::vector<std::filesystem::path> matrix_run_directories(
    const std::vector<std::filesystem::path>& named);

// Reads every run's report.json, writes the page to `html_path` and returns the Markdown.
// Throws std::runtime_error naming a report that cannot be read, or the page unwritten.
std::string render_matrix(const std::vector<std::filesystem::path>& run_directories,
                          const std::filesystem::path& html_path);

// JUnit XML of the runs (a testsuite each), read back from their report.json the same way;
// each run directory named absolute, as `check --junit` names it.
std::string matrix_junit(const std::vector<std::filesystem::path>& run_directories);

}  // namespace loiter::cli
