// A survey's values in words.
#include "survey_words.hpp"

#include <fmt/format.h>

#include "loiter/reports/number_text.hpp"

namespace loiter::reports::survey_words {

namespace {

std::string protocol_text(const Survey& survey) {
  switch (survey.protocol) {
    case SurveyProtocol::http1:
      return "HTTP/1.1";
    case SurveyProtocol::tls:
      return "HTTP/1.1 over TLS";
    case SurveyProtocol::h2:
      return survey.tls ? "HTTP/2 over TLS (h2)" : "HTTP/2 (h2c)";
    case SurveyProtocol::h3:
      return "HTTP/3 over QUIC";
  }
  return std::string(to_string(survey.protocol));
}

std::string seconds_text(double seconds) { return plain_number(seconds, 4) + " s"; }

// What `runs_from` says, by the measure it belongs to (survey.hpp).
std::string runs_from_text(const SurveyMeasure& m) {
  using Origin = RunsFrom::Origin;
  const auto origin = m.runs_from.origin;
  const auto from = to_string(m.runs_from);
  if (m.id == "idle-reused") {
    return origin == Origin::connect
               ? "the idle deadline runs from connect, not from the last response"
               : fmt::format("the idle deadline runs from {}",
                             origin == Origin::last_response ? "the last response" : from);
  }
  if (m.id == "next-head") {
    if (origin == Origin::never) return "a second head has no deadline of its own";
    return fmt::format("a second head's deadline runs from {}",
                       origin == Origin::first_byte      ? "its first byte"
                       : origin == Origin::last_response ? "the last response"
                                                         : from);
  }
  if (m.id == "tls-header-from") {
    return fmt::format("the header deadline runs from {}",
                       origin == Origin::handshake ? "the handshake's end" : from);
  }
  if (m.id == "h2-idle") {
    return origin == Origin::no_goaway ? "closed without a GOAWAY" : fmt::format("GOAWAY {}", from);
  }
  return fmt::format("runs from {}", from);
}

}  // namespace

std::string title(const Survey& survey) {
  if (survey.target == survey.endpoint) {  // a running server named by its address
    return fmt::format("loiter {} survey of {} over {}", survey.loiter_version, survey.endpoint,
                       protocol_text(survey));
  }
  return fmt::format("loiter {} survey of {} at {} over {}", survey.loiter_version, survey.target,
                     survey.endpoint, protocol_text(survey));
}

std::string settings(const Survey& survey) {
  return fmt::format("{} connection{} per probe, max wait {}, slack {}, took {}",
                     survey.connections, survey.connections == 1 ? "" : "s",
                     seconds_text(survey.max_wait), seconds_text(survey.slack),
                     seconds_text(survey.duration));
}

std::string server(const SurveyServer& s) {
  return fmt::format("server pid {}: FDs {} before, {} at peak, {} after ({}); RSS {} MiB "
                     "before, {} MiB at peak",
                     s.pid, s.fds_before, s.fds_peak, s.fds_after,
                     s.fds_back ? "back" : "not back within 5 s", plain_number(s.rss_before_mib, 3),
                     plain_number(s.rss_peak_mib, 3));
}

std::string behaviour(const SurveyMeasure& m) {
  return m.interval.empty() ? m.title : fmt::format("{}, {}", m.title, m.interval);
}

std::string time(const SurveyMeasure& m, double max_wait) {
  if (!m.not_measured.empty()) return {};
  if (!m.seconds) return fmt::format("none within {}", seconds_text(max_wait));
  const auto median = fmt::format("{:.2f} s", m.seconds->median);
  return m.from.empty() ? median : fmt::format("{} from {}", median, m.from);
}

std::string spread(const SurveyMeasure& m) {
  if (!m.seconds) return "-";
  return fmt::format("{:.3f}/{:.3f}/{:.3f} s", m.seconds->min, m.seconds->median, m.seconds->max);
}

std::string agreement(const SurveyMeasure& m) {
  return fmt::format("{}/{}", m.agreed, m.connections);
}

std::string not_measured(const SurveyMeasure& m) {
  return fmt::format("not measured: {}", m.not_measured);
}

std::vector<std::string> facts(const SurveyMeasure& m) {
  std::vector<std::string> out;
  if (m.extends) {
    out.push_back(*m.extends ? "progress extends the deadline"
                             : "progress does not extend the deadline");
  }
  if (m.runs_from.origin != RunsFrom::Origin::none) out.push_back(runs_from_text(m));
  if (m.advertised) {
    out.push_back(*m.advertised == 0
                      ? std::string("max_idle_timeout advertised: 0 (no idle timeout)")
                      : fmt::format("max_idle_timeout advertised: {}", seconds_text(*m.advertised)));
  }
  if (m.endings.size() > 1) {
    std::string text = "endings:";
    for (const auto& e : m.endings) {
      text += fmt::format("{} {} {}", text.back() == ':' ? "" : ",", to_string(e.ending), e.count);
    }
    out.push_back(text);
  }
  return out;
}

}  // namespace loiter::reports::survey_words
