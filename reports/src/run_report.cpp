#include "loiter/reports/run_report.hpp"

#include <array>

namespace loiter::reports {

namespace {
constexpr std::array<std::pair<Status, std::string_view>, 4> kNames{{
    {Status::pass, "pass"},
    {Status::fail, "fail"},
    {Status::skip, "skip"},
    {Status::error, "error"},
}};
}  // namespace

std::string_view to_string(Status status) {
  for (const auto& [s, name] : kNames) {
    if (s == status) return name;
  }
  return "unknown";
}

std::optional<Status> status_from_string(std::string_view text) {
  for (const auto& [s, name] : kNames) {
    if (name == text) return s;
  }
  return std::nullopt;
}

}  // namespace loiter::reports
