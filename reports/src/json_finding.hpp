// report.json's findings as the described codec (described_json.hpp) writes and reads them:
// {"code", "class", "scenario", "subject", "count", "of", "measured", "bound", "unit", then
// the details a code uses (only those set), then "text", the sentence}. Private to reports/.
#pragma once

#include <boost/describe/class.hpp>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "loiter/reports/described_json.hpp"
#include "loiter/reports/run_report.hpp"

namespace loiter::reports {

// In the document's key order. The sentence is not among them: "text" is written from the
// data, and read back only where this loiter cannot word it (Amend<Finding>).
BOOST_DESCRIBE_STRUCT(Finding, (),
                      (code, klass, scenario, subject, count, of, measured, bound, unit, since,
                       deadline, slack, ending, expected_endings, responses, status, error, limit,
                       baseline, peak, pool, connected_late, most_at_once, connections,
                       accept_queue, backlog, accept_stalled, accept_waited, explanation, processes,
                       progress, progress_by_deadline, deadline_name, deadline_key, descriptor,
                       before, failures, answered_at, after_connect, read_gap, client_busy,
                       udp_drops, udp_rcvbuf_errors))

// A loiter-run/2 finding: a sentence with no code ("text"), its class guessed from the
// scenario's status (an error is the harness's; any other failure, a deadline's).
Finding finding_from_sentence(std::string sentence, std::string_view scenario, Status status);

}  // namespace loiter::reports

namespace loiter::reports::described {

template <>
inline constexpr const char* kKey<&Finding::klass> = "class";

// The details: each only where its code uses it.
template <>
inline constexpr auto kWhenSet<Finding> = std::tuple(
    &Finding::since, &Finding::deadline, &Finding::slack, &Finding::ending,
    &Finding::expected_endings, &Finding::responses, &Finding::status, &Finding::error,
    &Finding::limit, &Finding::baseline, &Finding::peak, &Finding::pool, &Finding::connected_late,
    &Finding::most_at_once, &Finding::connections, &Finding::accept_queue, &Finding::backlog,
    &Finding::accept_stalled, &Finding::accept_waited, &Finding::explanation, &Finding::processes,
    &Finding::progress, &Finding::progress_by_deadline, &Finding::deadline_name,
    &Finding::deadline_key, &Finding::descriptor, &Finding::before, &Finding::failures,
    &Finding::answered_at, &Finding::after_connect, &Finding::read_gap, &Finding::client_busy,
    &Finding::udp_drops, &Finding::udp_rcvbuf_errors);

template <>
struct Codec<FindingClass> : EnumWords<FindingClass, kFindingClasses> {};

template <>
struct Codec<Since> : EnumWords<Since, kSinces> {};

// What a connect error points at, by its word ("client-ports"); a word this loiter does not
// know (a newer loiter's) reads as none, and the sentence leaves the limit out.
template <>
struct Codec<ConnectLimit> {
  static json::value write(const ConnectLimit& limit);
  static ConnectLimit read(const json::value& json);
};

// A finding's failures by what they were, in their order: {"503": 7, "reset": 3}.
template <>
struct Codec<std::vector<std::pair<std::string, std::size_t>>> {
  using Failures = std::vector<std::pair<std::string, std::size_t>>;
  static json::value write(const Failures& failures);
  static Failures read(const json::value& json);
};

// "text": the sentence every reporter shows, written beside the data.
template <>
struct Amend<Finding> {
  static void write(const Finding& finding, json::object& out);
  static void read(const json::object& object, Finding& finding);
};

}  // namespace loiter::reports::described
