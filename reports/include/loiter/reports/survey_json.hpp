// survey.json: the canonical, versioned machine format of a Survey (reports/SCHEMA.md,
// "survey.json (loiter-survey/1)"), and telling a survey from a run on disk.
#pragma once

#include <boost/json/value.hpp>
#include <filesystem>
#include <string>

#include "loiter/reports/survey.hpp"

namespace loiter::reports {

boost::json::value to_json(const Survey& survey);

// Throws std::runtime_error naming the key that is missing or malformed (and the measure it
// is in), or a schema this version of loiter does not read.
Survey survey_from_json(const boost::json::value& document);

// survey.json as written to disk (pretty, as write_pretty writes it).
std::string survey_text(const Survey& survey);

// Reads a survey.json, or the survey.json of a directory. Throws std::runtime_error naming
// the file and what is wrong.
Survey read_survey(const std::filesystem::path& path);

// Whether `path` is a survey: a file, or a directory's survey.json, that is a JSON object
// whose "schema" starts with "loiter-survey/". False for a run (report.json), for anything
// unreadable and for what does not exist; never throws.
bool is_survey(const std::filesystem::path& path);

}  // namespace loiter::reports
