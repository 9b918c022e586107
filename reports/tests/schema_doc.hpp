// What reports/SCHEMA.md documents, read from its tables, and how it differs from what the
// writers write. Test support for the reports and document tests: SCHEMA.md is the
// contract, and a key written but not documented (or documented but never written) fails.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace loiter::reports::testing {

// A documented name; "<...>" stands for any text ("closure-<kind>", "server <STATE>").
struct Documented {
  std::string name;
  bool optional = false;  // marked *optional* in its row: need not be written
};

struct DocumentedGroup {
  Documented group;
  std::string unit;
  std::vector<Documented> values;  // optional as its group
};

struct SchemaDoc {
  // The key tables of report.json, by the bold title above each: "Report", "Scenario", ...
  std::map<std::string, std::vector<Documented>> keys;
  // The key tables of survey.json (under the heading "survey.json (loiter-survey/1)"), by
  // title: "Survey", "SurveyMeasure", "Spread", "EndingCount".
  std::map<std::string, std::vector<Documented>> survey_keys;
  // The key tables of ladder.json (under the heading "ladder.json (loiter-ladder/1)"), by
  // title: "Ladder", "LadderSide", "LadderStep", "LadderTrial", "PairedFigure".
  std::map<std::string, std::vector<Documented>> ladder_keys;
  // The key tables of denial.json (under the heading "denial.json (loiter-denial/1)"), by
  // title: "Denial", "DenialSide", "DenialKind", "DenialStep", "DenialComparison".
  std::map<std::string, std::vector<Documented>> denial_keys;
  std::vector<DocumentedGroup> groups;  // the table whose first column is `group`
  std::vector<Documented> plots;        // the table whose first column is `id`
};

// The SCHEMA.md of this source tree.
std::string schema_markdown();
// Throws std::runtime_error when a table it expects is missing.
SchemaDoc parse_schema(std::string_view markdown);

// Whether `name` fits `pattern`, where "<...>" in the pattern stands for any non-empty text.
bool fits(std::string_view pattern, std::string_view name);

// What is written but not documented, and what is documented (not optional) but not
// written; one line each, naming `what` ("Scenario key", "plot id").
std::vector<std::string> differences(std::string_view what,
                                     const std::vector<Documented>& documented,
                                     const std::set<std::string>& written);

// Figure groups as written: by name, the units and value names seen.
struct WrittenGroup {
  std::set<std::string> units;
  std::set<std::string> values;
};
std::vector<std::string> group_differences(const SchemaDoc& doc,
                                           const std::map<std::string, WrittenGroup>& written);

}  // namespace loiter::reports::testing
