// The matrix from stored run directories: found, read back, rendered.
#include "matrix_render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "loiter/reports/rendered.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/reports/junit.hpp"
#include "loiter/reports/matrix.hpp"
#include "loiter/suites/document/run_directory.hpp"

namespace loiter::cli {

namespace fs = std::filesystem;

std::vector<fs::path> matrix_run_directories(const std::vector<fs::path>& named) {
  std::vector<fs::path> runs;
  for (const auto& dir : named) {
    if (fs::exists(dir / "report.json")) {
      runs.push_back(dir);
      continue;
    }
    if (!fs::is_directory(dir))
      throw std::runtime_error(fmt::format("{}: no such directory", dir.string()));
    std::vector<fs::path> inside;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.is_directory() && fs::exists(entry.path() / "report.json")) {
        inside.push_back(entry.path());
      }
    }
    if (inside.empty()) {
      throw std::runtime_error(fmt::format(
          "{}: neither a run directory (no report.json) nor a matrix directory holding one",
          dir.string()));
    }
    std::ranges::sort(inside);
    runs.insert(runs.end(), inside.begin(), inside.end());
  }
  return runs;
}

namespace {

std::vector<reports::MatrixRun> read_runs(const std::vector<fs::path>& run_directories) {
  std::vector<reports::MatrixRun> runs;
  for (const auto& dir : run_directories) runs.push_back({reports::read_run_report(dir), dir});
  return runs;
}

}  // namespace

std::string matrix_junit(const std::vector<fs::path>& run_directories) {
  auto runs = read_runs(run_directories);
  for (auto& run : runs) run.directory = fs::absolute(run.directory);  // as check writes it
  return reports::rendered(runs, reports::Format::junit);
}

std::string render_matrix(const std::vector<fs::path>& run_directories, const fs::path& html_path) {
  const auto runs = read_runs(run_directories);
  const auto matrix = reports::build_matrix(runs);
  std::ostringstream html;
  reports::render_matrix_html(matrix, html_path, html);
  suites::write_file(html_path, html.str());
  return reports::matrix_markdown(matrix);
}

}  // namespace loiter::cli
