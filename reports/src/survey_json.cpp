// survey.json: the survey document as JSON (schema in reports/SCHEMA.md), and back: its
// structs described, the codec (described_json.hpp) does the rest.
#include "loiter/reports/survey_json.hpp"

#include <boost/describe/class.hpp>

#include "loiter/reports/described_json.hpp"

template <>
struct loiter::reports::described::Codec<loiter::reports::SurveyProtocol>
    : EnumWords<SurveyProtocol, kSurveyProtocols> {};

namespace loiter::reports {

BOOST_DESCRIBE_STRUCT(Spread, (), (min, median, max))
BOOST_DESCRIBE_STRUCT(EndingCount, (), (ending, count))
BOOST_DESCRIBE_STRUCT(SurveyMeasure, (),
                      (id, title, kind, from, interval, connections, agreed, seconds, ending,
                       endings, extends, runs_from, exposure, note, not_measured))
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
