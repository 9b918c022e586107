// SCHEMA.md's tables read as data: key tables under a bold title, the figure groups, the
// plot ids; and the two-way comparison with what is written.
#include "schema_doc.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace loiter::reports::testing {

namespace {

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return std::string(text.substr(first, last - first + 1));
}

// The cells of a table row; "\|" inside a cell is not a separator.
std::vector<std::string> cells(std::string_view row) {
  std::vector<std::string> out;
  std::string cell;
  for (std::size_t i = 1; i < row.size(); ++i) {  // row[0] is the leading '|'
    if (row[i] == '|' && row[i - 1] != '\\') {
      out.push_back(trimmed(cell));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return out;
}

// The `quoted` names of a cell, in order.
std::vector<std::string> ticked(std::string_view cell) {
  std::vector<std::string> names;
  for (auto open = cell.find('`'); open != std::string_view::npos;) {
    const auto close = cell.find('`', open + 1);
    if (close == std::string_view::npos) break;
    names.emplace_back(cell.substr(open + 1, close - open - 1));
    open = cell.find('`', close + 1);
  }
  return names;
}

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The headings of survey.json's, ladder.json's and denial.json's sections: their key tables
// are survey_keys, ladder_keys and denial_keys.
constexpr std::string_view kSurveySection = "survey.json";
constexpr std::string_view kLadderSection = "ladder.json";
constexpr std::string_view kDenialSection = "denial.json";

// Adds one data row of a table whose first header cell is `kind`, in the section (## heading)
// `section`.
void add_row(SchemaDoc& doc, const std::string& section, const std::string& kind,
             const std::string& title, const std::vector<std::string>& row, bool optional) {
  const auto names = ticked(row.at(0));
  if (kind == "key") {
    auto& keys = section.starts_with(kSurveySection)   ? doc.survey_keys
                 : section.starts_with(kLadderSection) ? doc.ladder_keys
                 : section.starts_with(kDenialSection) ? doc.denial_keys
                                                       : doc.keys;
    for (const auto& name : names) keys[title].push_back({name, optional});
  } else if (kind == "group") {
    DocumentedGroup group{.group = {names.at(0), optional}, .unit = row.at(1), .values = {}};
    std::erase(group.unit, '`');
    for (const auto& value : ticked(row.at(2))) group.values.push_back({value, optional});
    doc.groups.push_back(std::move(group));
  } else if (kind == "id") {
    for (const auto& name : names) doc.plots.push_back({name, optional});
  }
}

}  // namespace

std::string schema_markdown() {
  std::ifstream in(LOITER_SCHEMA_MD);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", LOITER_SCHEMA_MD));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

SchemaDoc parse_schema(std::string_view markdown) {
  SchemaDoc doc;
  const auto lines = lines_of(markdown);
  std::string section, title;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& line = lines[i];
    if (line.starts_with("## ")) section = line.substr(3);
    if (line.starts_with("**")) title = line.substr(2, line.find("**", 2) - 2);
    const bool table =
        line.starts_with("|") && i + 1 < lines.size() && lines[i + 1].starts_with("|--");
    if (!table) continue;
    const auto kind = cells(line).at(0);
    for (i += 2; i < lines.size() && lines[i].starts_with("|"); ++i) {
      add_row(doc, section, kind, title, cells(lines[i]),
              lines[i].find("*optional*") != std::string::npos);
    }
  }
  for (const char* needed :
       {"Report", "Scenario", "FigureGroup", "Value", "Plot", "Series", "Mark"}) {
    if (!doc.keys.contains(needed)) {
      throw std::runtime_error(fmt::format("SCHEMA.md has no key table under **{}**", needed));
    }
  }
  for (const char* needed : {"Survey", "SurveyMeasure", "Spread", "EndingCount"}) {
    if (!doc.survey_keys.contains(needed)) {
      throw std::runtime_error(fmt::format(
          "SCHEMA.md has no key table under **{}** in its section {}", needed, kSurveySection));
    }
  }
  for (const char* needed : {"Ladder", "LadderSide", "LadderStep", "LadderTrial", "PairedFigure"}) {
    if (!doc.ladder_keys.contains(needed)) {
      throw std::runtime_error(fmt::format(
          "SCHEMA.md has no key table under **{}** in its section {}", needed, kLadderSection));
    }
  }
  for (const char* needed :
       {"Denial", "DenialSide", "DenialKind", "DenialStep", "DenialComparison"}) {
    if (!doc.denial_keys.contains(needed)) {
      throw std::runtime_error(fmt::format(
          "SCHEMA.md has no key table under **{}** in its section {}", needed, kDenialSection));
    }
  }
  if (doc.groups.empty() || doc.plots.empty()) {
    throw std::runtime_error("SCHEMA.md has no figure-group table or no plot-id table");
  }
  return doc;
}

bool fits(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return name.empty();
  const auto close = pattern.find('>');
  if (pattern.front() == '<' && close != std::string_view::npos) {
    for (std::size_t k = 1; k <= name.size(); ++k) {
      if (fits(pattern.substr(close + 1), name.substr(k))) return true;
    }
    return false;
  }
  return !name.empty() && name.front() == pattern.front() &&
         fits(pattern.substr(1), name.substr(1));
}

std::vector<std::string> differences(std::string_view what,
                                     const std::vector<Documented>& documented,
                                     const std::set<std::string>& written) {
  std::vector<std::string> problems;
  for (const auto& name : written) {
    const auto known =
        std::ranges::any_of(documented, [&](const auto& d) { return fits(d.name, name); });
    if (!known)
      problems.push_back(fmt::format("{} '{}' is written but not in SCHEMA.md", what, name));
  }
  for (const auto& d : documented) {
    if (d.optional) continue;
    const auto seen =
        std::ranges::any_of(written, [&](const auto& name) { return fits(d.name, name); });
    if (!seen)
      problems.push_back(fmt::format("{} '{}' is in SCHEMA.md but never written", what, d.name));
  }
  return problems;
}

std::vector<std::string> group_differences(const SchemaDoc& doc,
                                           const std::map<std::string, WrittenGroup>& written) {
  std::vector<std::string> problems;
  for (const auto& [name, group] : written) {
    const auto found =
        std::ranges::find_if(doc.groups, [&](const auto& d) { return fits(d.group.name, name); });
    if (found == doc.groups.end()) {
      problems.push_back(fmt::format("figure group '{}' is written but not in SCHEMA.md", name));
      continue;
    }
    for (const auto& unit : group.units) {
      if (unit != found->unit) {
        problems.push_back(fmt::format("figure group '{}' is written in '{}', SCHEMA.md says '{}'",
                                       name, unit, found->unit));
      }
    }
    auto more =
        differences(fmt::format("figure group '{}': value", name), found->values, group.values);
    problems.insert(problems.end(), more.begin(), more.end());
  }
  for (const auto& d : doc.groups) {
    const auto seen =
        std::ranges::any_of(written, [&](const auto& w) { return fits(d.group.name, w.first); });
    if (!seen && !d.group.optional) {
      problems.push_back(
          fmt::format("figure group '{}' is in SCHEMA.md but never written", d.group.name));
    }
  }
  return problems;
}

}  // namespace loiter::reports::testing
