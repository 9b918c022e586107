// The canonical run document: plain data every reporter reads. It is the interface of
// reports/: console, JSON (and later HTML and compare) take a RunReport, never a live run,
// so a stored run can be rendered again without running anything.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loiter::reports {

inline constexpr std::string_view kSchema = "loiter-run/1";

enum class Status { pass, fail, skip, error };
std::string_view to_string(Status status);
std::optional<Status> status_from_string(std::string_view text);

// A few related figures shown together: "closure min/median/max 1.000/1.002/1.004 s".
// A value is nullopt where it could not be measured (no connection closed, say).
struct FigureGroup {
  std::string name;
  std::string unit;  // "s", "" for counts
  std::vector<std::pair<std::string, std::optional<double>>> values;
};

struct ScenarioReport {
  std::string id;
  Status status = Status::pass;
  std::string note;                   // why skipped, or the harness error
  std::vector<std::string> findings;  // what failed and by how much
  std::vector<FigureGroup> figures;
};

struct RunReport {
  std::string loiter_version;
  std::string target;
  std::string started_at;  // UTC, ISO 8601
  std::vector<ScenarioReport> scenarios;
};

}  // namespace loiter::reports
