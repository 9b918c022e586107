// survey.json: the survey document as JSON (schema in reports/SCHEMA.md), and back: its
// structs described, the codec (described_json.hpp) does the rest.
#include "loiter/reports/survey_json.hpp"

#include <boost/describe/class.hpp>

#include "loiter/reports/described_json.hpp"

namespace loiter::reports::described {

template <>
struct Codec<SurveyProtocol> : EnumWords<SurveyProtocol, kSurveyProtocols> {};

namespace {

// A value read from its word by `of`; another word is refused with `words`, those it may be.
template <class T>
T read_word(const json::value& json, std::optional<T> (*of)(std::string_view),
            std::string_view words) {
  if (!json.is_string()) throw ReadError("", "must be a word");
  const std::string_view said = json.get_string();
  if (auto value = of(said)) return *value;
  throw ReadError("", "is '" + std::string(said) + "', not one of " + std::string(words));
}

}  // namespace

// An ending, and where a deadline runs from, by their words (survey.hpp).
template <>
struct Codec<SurveyEnding> {
  static json::value write(const SurveyEnding& ending) { return json::string(to_string(ending)); }
  static SurveyEnding read(const json::value& json) {
    return read_word(json, survey_ending_of, survey_ending_words());
  }
};

template <>
struct Codec<RunsFrom> {
  static json::value write(const RunsFrom& runs_from) { return json::string(to_string(runs_from)); }
  static RunsFrom read(const json::value& json) {
    return read_word(json, runs_from_of, runs_from_words());
  }
};

}  // namespace loiter::reports::described

namespace loiter::reports {

BOOST_DESCRIBE_STRUCT(Spread, (), (min, median, max))
BOOST_DESCRIBE_STRUCT(EndingCount, (), (ending, count))
BOOST_DESCRIBE_STRUCT(SurveyMeasure, (),
                      (id, title, kind, from, interval, connections, agreed, seconds, ending,
                       endings, extends, runs_from, advertised, exposure, note,
                       not_measured))
BOOST_DESCRIBE_STRUCT(SurveyServer, (),
                      (pid, fds_before, fds_peak, fds_after, fds_back, rss_before_mib,
                       rss_peak_mib))
BOOST_DESCRIBE_STRUCT(Survey, (),
                      (schema, loiter_version, target, endpoint, protocol, tls, started, duration,
                       connections, max_wait, slack, measures, server, problems, interrupted))

boost::json::value to_json(const Survey& survey) { return described::write(survey); }

Survey survey_from_json(const boost::json::value& document) {
  return described::read_document<Survey>(document, "survey", kSurveySchema);
}

}  // namespace loiter::reports
