// The survey document's values by their words in survey.json, and a measure by its id.
#include "loiter/reports/survey.hpp"

#include <algorithm>
#include <charconv>
#include <ostream>

#include "word_table.hpp"

namespace loiter::reports {

namespace {

using Way = SurveyEnding::Way;
using Origin = RunsFrom::Origin;

// Each way an ending may be, by its word.
constexpr word_table::Table<Way, 12> kWays{{
    {Way::none, ""},
    {Way::close, "close"},
    {Way::reset, "reset"},
    {Way::alert, "alert"},
    {Way::gone, "gone"},
    {Way::goaway, "goaway"},
    {Way::rst_stream, "rst-stream"},
    {Way::answered, "answered"},
    {Way::open, "open"},
    {Way::connect_failed, "connect-failed"},
    {Way::client_abort, "client-abort"},
    {Way::client_close, "client-close"},
}};

// Each origin but a GOAWAY's (its code's name), by its word.
constexpr word_table::Table<Origin, 8> kOrigins{{
    {Origin::none, ""},
    {Origin::connect, "connect"},
    {Origin::last_response, "last-response"},
    {Origin::first_byte, "first-byte"},
    {Origin::handshake, "handshake"},
    {Origin::never, "never"},
    {Origin::other, "other"},
    {Origin::no_goaway, "none"},
}};

// A name clients::h2_error_name gives a GOAWAY's code: "NO_ERROR", or "error 0x1f".
bool goaway_code_name(std::string_view word) {
  const auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  if (word.starts_with("error 0x") && word.size() > 8) {
    return std::ranges::all_of(word.substr(8), hex);
  }
  const auto capital = [](char c) { return (c >= 'A' && c <= 'Z') || c == '_'; };
  return !word.empty() && capital(word.front()) &&
         std::ranges::all_of(word, [&](char c) { return capital(c) || (c >= '0' && c <= '9'); });
}

}  // namespace

std::string_view to_string(SurveyProtocol protocol) {
  constexpr std::array<std::string_view, kSurveyProtocols.size()> kWords{"http1", "tls", "h2",
                                                                          "h3"};
  return kWords[static_cast<std::size_t>(protocol)];  // in the enum's order
}

bool SurveyEnding::by_server() const {
  return way == Way::close || way == Way::reset || way == Way::alert || way == Way::gone;
}

bool SurveyEnding::by_server_or_stream() const { return by_server() || way == Way::rst_stream; }

std::string to_string(const SurveyEnding& ending) {
  const auto way = std::string(word_table::word_of(kWays, ending.way));
  if (ending.after_goaway) return "goaway+" + way;
  if (ending.status != 0) return std::to_string(ending.status) + "+" + way;
  return way;
}

std::ostream& operator<<(std::ostream& out, const SurveyEnding& ending) {
  return out << to_string(ending);
}

std::optional<SurveyEnding> survey_ending_of(std::string_view word) {
  const auto plus = word.find('+');
  const auto way = word_table::value_of(kWays, word.substr(plus == word.npos ? 0 : plus + 1));
  if (!way) return std::nullopt;
  SurveyEnding ending{.way = *way};
  if (plus == word.npos) return ending;
  const auto first = word.substr(0, plus);
  if (first == word_table::word_of(kWays, Way::goaway)) {
    ending.after_goaway = true;
  } else {
    const auto [end, error] =
        std::from_chars(first.data(), first.data() + first.size(), ending.status);
    if (error != std::errc() || end != first.data() + first.size()) return std::nullopt;
  }
  // Only a server's ending has something before it (a GOAWAY only before the connection's
  // end), and each is written one way ("408", not "0408").
  if (!ending.by_server_or_stream() || (ending.after_goaway && !ending.by_server()) ||
      to_string(ending) != word) {
    return std::nullopt;
  }
  return ending;
}

std::string_view survey_ending_words() {
  return "'close', 'reset', 'alert' or 'gone' (after a status or 'goaway' and '+': "
         "'408+close'), 'goaway', 'rst-stream' (after a status and '+': '408+rst-stream'), 'answered', 'open', 'connect-failed', "
         "'client-abort', 'client-close' or ''";
}

TimeoutAnswer answer_of(const SurveyEnding& ending) {
  if (ending.after_goaway || (ending.way != Way::close && ending.way != Way::reset)) {
    return TimeoutAnswer::none;
  }
  if (ending.status == 408) return TimeoutAnswer::respond_408;
  return ending.status == 0 ? TimeoutAnswer::close : TimeoutAnswer::none;
}

std::string_view to_string(TimeoutAnswer answer) {
  constexpr word_table::Table<TimeoutAnswer, 2> kAnswers{{
      {TimeoutAnswer::respond_408, "408"},
      {TimeoutAnswer::close, "close"},
  }};
  return word_table::word_of(kAnswers, answer);
}

std::string to_string(const RunsFrom& runs_from) {
  if (runs_from.origin == Origin::goaway) return runs_from.goaway_code;
  return std::string(word_table::word_of(kOrigins, runs_from.origin));
}

std::ostream& operator<<(std::ostream& out, const RunsFrom& runs_from) {
  return out << to_string(runs_from);
}

std::optional<RunsFrom> runs_from_of(std::string_view word) {
  if (const auto origin = word_table::value_of(kOrigins, word)) return RunsFrom{.origin = *origin};
  if (!goaway_code_name(word)) return std::nullopt;
  return RunsFrom{.origin = Origin::goaway, .goaway_code = std::string(word)};
}

std::string_view runs_from_words() {
  return "'connect', 'last-response', 'first-byte', 'handshake', 'never', 'other', 'none', "
         "a GOAWAY code's name ('NO_ERROR') or ''";
}

const SurveyMeasure* find_measure(const Survey& survey, std::string_view id) {
  const auto it = std::ranges::find(survey.measures, id, &SurveyMeasure::id);
  return it == survey.measures.end() ? nullptr : &*it;
}

}  // namespace loiter::reports
