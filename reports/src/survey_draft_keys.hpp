// What a survey says of each key a drafted target file can hold: a measured value, a
// measured none (the key is left out, and a comment says why), or nothing measured. Plain
// data, one entry per key, in the order the file lists them. Private to survey_target.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "loiter/reports/survey.hpp"

namespace loiter::reports::draft {

struct KeyDraft {
  enum class State { measured, none, unmeasured };
  std::string table;  // "deadlines", "promises", "tls", "h2", "h3"
  std::string key;    // "header"
  State state = State::unmeasured;
  std::string value;  // measured: the value as TOML ("2", "true", "\"408\"")
  std::string why;    // one comment line (without "# "): what was measured, or why nothing was
};

// Every key of [deadlines] and [promises] a survey can measure, then [tls]'s (survey.tls) and
// [h2]'s (`h2`), each with what the survey says of it; `date` goes into the comments. A survey
// over HTTP/3 drafts [h3]'s keys alone.
std::vector<KeyDraft> draft_keys(const Survey& survey, std::string_view date, bool h2);

// "{deadlines.header}": how a target file uses the key as a placeholder.
std::string placeholder(const KeyDraft& key);

}  // namespace loiter::reports::draft
