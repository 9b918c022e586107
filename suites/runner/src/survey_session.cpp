// The survey in its session: the request completed from a started server's target, the
// server sampled while it is surveyed, its descriptors waited for afterwards.
#include "loiter/suites/runner/survey_session.hpp"

#include <algorithm>

#include "loiter/fixtures/probe/probe.hpp"
#include "loiter/fixtures/server_under_test.hpp"

namespace loiter::suites {

namespace {

// How long the server's descriptors may take to come back once the probes are done.
constexpr auto kFdsBackWithin = std::chrono::seconds(5);

// What the target says of the server loiter started for it.
void describe_started(SurveyRequest& request, const fixtures::ServerUnderTest& server) {
  const auto& target = server.target();
  request.target = target.name;
  request.host = server.host();
  request.port = server.port();
  request.tls = target.tls.has_value();
  request.h2 = target.h2.has_value();
  request.health = target.paths.health.value_or("/");
  request.echo = target.paths.echo.value_or("");
  request.large = target.paths.large.value_or("");
  if (target.tls) {
    request.alpn = target.tls->alpn;
    request.server_name = target.tls->server_name;
  }
  if (target.h3) {  // an [h3] target is surveyed over HTTP/3, on its UDP port
    request.h3 = true;
    request.port = fixtures::h3_port(target, server.port());
    request.server_name = target.h3->server_name;
  }
}

}  // namespace

reports::Survey survey_server(SurveyRequest request, const SurveyServer& server) {
  SessionPlan plan{.start = server.start,
                   .start_options = {.log_dir = server.log_dir},
                   .running = {.pid = server.pid}};
  ServerSession session(std::move(plan));
  if (const auto* started = session.server()) describe_started(request, *started);
  const auto* probe = session.probe();
  if (probe == nullptr) return run_survey(request);
  const auto before = probe->sample();
  session.begin_sampling();
  auto survey = run_survey(request);
  const auto peaks = peaks_of(session.end_sampling());
  reports::SurveyServer side{.pid = static_cast<int>(probe->root()),
                             .fds_before = before.fds,
                             .fds_peak = peaks.fds,
                             .rss_before_mib = static_cast<double>(before.rss_kib) / 1024,
                             .rss_peak_mib = peaks.rss_mib};
  const auto back = fixtures::wait_for_fds_at_most(
      *probe, before.fds, std::chrono::milliseconds(300),
      std::chrono::duration_cast<std::chrono::milliseconds>(kFdsBackWithin));
  side.fds_after = back.last_fds;
  side.fds_back = back.recovered;
  survey.server = side;
  session.stop();
  return survey;
}

}  // namespace loiter::suites
