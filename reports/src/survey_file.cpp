// survey.json on disk: indented for people and diffs, read back from a file or directory, and
// told apart from a run's report.json.
#include <fmt/format.h>

#include <boost/json.hpp>
#include <sstream>

#include "json_file.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/reports/survey_json.hpp"

namespace loiter::reports {

namespace {

constexpr std::string_view kSurveyFile = "survey.json";
constexpr std::string_view kSchemaFamily = "loiter-survey/";

std::filesystem::path survey_file(const std::filesystem::path& path) {
  return std::filesystem::is_directory(path) ? path / kSurveyFile : path;
}

}  // namespace

std::string survey_text(const Survey& survey) {
  std::ostringstream out;
  write_pretty(to_json(survey), out);
  return out.str();
}

Survey read_survey(const std::filesystem::path& path) {
  const auto file = survey_file(path);
  const auto document = read_json_file(file);
  try {
    return survey_from_json(document);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", file.string(), e.what()));
  }
}

bool is_survey(const std::filesystem::path& path) {
  try {
    const auto file = survey_file(path);
    if (!std::filesystem::is_regular_file(file)) return false;
    const auto document = read_json_file(file);
    const auto* schema =
        document.is_object() ? document.get_object().if_contains("schema") : nullptr;
    return schema != nullptr && schema->is_string() &&
           std::string_view(schema->get_string()).starts_with(kSchemaFamily);
  } catch (const std::exception&) {
    return false;  // unreadable, not JSON, or not there: not a survey
  }
}

}  // namespace loiter::reports
