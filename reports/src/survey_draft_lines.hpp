// The lines of a drafted target file (survey_target.cpp): each key under its comment, a table
// of them, the comment on top; what the surveyed file held kept where nothing replaces it.
// Private to reports.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "loiter/reports/survey_target.hpp"
#include "survey_draft_keys.hpp"
#include "toml_text.hpp"

namespace loiter::reports::draft {

// What the drafted file is drafted from, and the surveyed file's text where there was one.
struct Drafting {
  const Survey& survey;
  const DraftHead& head;
  std::string date;
  std::vector<KeyDraft> keys;
};

// `text` ending with a newline.
std::string with_newline(std::string_view text);
// "# text\n".
std::string comment_line(std::string_view text);
// A TOML basic string, quoted and escaped.
std::string toml_string(std::string_view text);

// The comment on top of a drafted file: what it was drafted from, and that it is measured,
// not promised.
std::string top_comment(const Drafting& d);

// One key's lines: its comment and the key; or the surveyed file's entry `old`, kept, where
// nothing was measured or the file uses the key as a placeholder; else the comment alone.
std::string key_lines(const Drafting& d, const KeyDraft& key, const toml_text::Item* old);

// [deadlines] or [promises], drafted whole from `old` (nullptr: the file had none): the old
// table's keys the survey does not measure (load_p99) are kept.
std::string drafted_table(const Drafting& d, std::string_view name, const toml_text::Table* old);

// The lines of every key of `table` ("tls", "h2") with nothing to keep: a connect-only file's.
std::string keyed_lines(const Drafting& d, std::string_view table);

}  // namespace loiter::reports::draft
