// judge(): the connections driven and each closure expectation, then the other checks
// (checks.hpp) in order. A pure function of plain data.
#include "loiter/suites/judge/judge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <functional>
#include <iterator>
#include <map>

#include "checks.hpp"
#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites {

namespace checks {

// A finding of `code` about the observed scenario; its figures are set by the caller.
reports::Finding finding(const Observation& o, const char* code, reports::FindingClass klass,
                         std::string subject) {
  return {.code = code, .scenario = o.scenario, .klass = klass, .subject = std::move(subject)};
}

std::vector<const clients::ConnectionRecord*> of_kind(const Observation& o,
                                                      const std::string& kind) {
  std::vector<const clients::ConnectionRecord*> chosen;
  for (const auto& r : o.connections) {
    if (kind.empty() || r.kind == kind) chosen.push_back(&r);
  }
  return chosen;
}

reports::Since finding_since(Since since) {
  switch (since) {
    case Since::connect:
      return reports::Since::connect;
    case Since::first_send:
      return reports::Since::request_head;
    case Since::last_response:
      return reports::Since::last_response;
    case Since::second_send:
      return reports::Since::second_request_head;
    case Since::handshake:
      return reports::Since::handshake;
    case Since::quiet:
      return reports::Since::quiet;
    case Since::stream_open:
      return reports::Since::stream_open;
    case Since::stream_headers:
      return reports::Since::stream_headers;
    case Since::stream_request:
      return reports::Since::stream_request;
    case Since::first_initial:
      return reports::Since::first_initial;
  }
  return reports::Since::none;
}

}  // namespace checks

namespace {

using namespace checks;  // the checks, and the names they use (checks.hpp)

using Predicate = std::function<bool(const ConnectionRecord&)>;

std::vector<const ConnectionRecord*> select(const Observation& o, const Predicate& keep) {
  std::vector<const ConnectionRecord*> chosen;
  for (const auto& record : o.connections) {
    if (keep(record)) chosen.push_back(&record);
  }
  return chosen;
}

// Which limit a connect error (its errno) points at, when it points at one.
reports::ConnectLimit limit_behind(int error_number) {
  using reports::ConnectLimit;
  switch (error_number) {
    case EMFILE:
    case ENFILE:
      return ConnectLimit::client_nofile;
    case EADDRNOTAVAIL:
      return ConnectLimit::client_ports;
    case ECONNREFUSED:
    case ETIMEDOUT:
    case ECONNRESET:
      return ConnectLimit::server;  // listen backlog full or its own FD limit
    default:
      return ConnectLimit::none;
  }
}

// When the samples first saw the server gone (no process left, or none with a descriptor: a
// dead child not yet reaped), from the first connection's start: nullopt when nothing was
// sampled or no connection started.
std::optional<Duration> seen_gone_at(const Observation& o) {
  std::optional<clients::Clock::time_point> start;
  for (const auto& r : o.connections) {
    if (r.connect_start == clients::Clock::time_point{}) continue;
    start = std::min(start.value_or(r.connect_start), r.connect_start);
  }
  if (!start) return std::nullopt;
  for (const auto& s : o.timeline) {
    if (s.at < *start || (s.sample.processes > 0 && s.sample.fds > 0)) continue;
    return std::chrono::duration_cast<Duration>(s.at - *start);
  }
  return std::nullopt;
}

void check_connections(const Observation& o, const Expectations& e, Verdict& v) {
  // A server that died under the scenario failed it: the server's finding, not loiter's (one
  // that never started is a harness error before any judging).
  if (o.server_exit) {
    auto f = finding(o, codes::kServerExited, FindingClass::crash);
    f.error = *o.server_exit;
    if (const auto at = seen_gone_at(o)) {
      f.measured = in_seconds(*at);
      f.unit = "s";
    }
    v.findings.push_back(std::move(f));
  }
  if (!o.leftovers.empty()) {
    auto f = finding(o, codes::kLeftoverProcess, FindingClass::infrastructure);
    f.count = o.leftovers.size();
    for (const auto& p : o.leftovers)
      f.processes.push_back(std::to_string(p.pid) + " " + p.command);
    v.findings.push_back(std::move(f));
  }
  if (o.connections.size() != e.connections) {
    auto f = finding(o, codes::kDrivenCount, FindingClass::infrastructure);
    f.count = o.connections.size();
    f.of = e.connections;
    v.findings.push_back(std::move(f));
  }
  std::map<std::pair<std::string, int>, std::size_t> failed;  // by error and errno
  for (const auto& r : o.connections) {
    if (r.ending == Ending::connect_failed) ++failed[{r.error, r.error_number}];
  }
  for (const auto& [error, count] : failed) {
    auto f = finding(o, codes::kConnectFailed, FindingClass::capacity);
    f.count = count;
    f.of = o.connections.size();
    f.error = error.first;
    // Refused by a server that had died: its death says why (server-exited), not a limit.
    f.limit = o.server_exit && error.second == ECONNREFUSED ? reports::ConnectLimit::none
                                                            : limit_behind(error.second);
    v.findings.push_back(std::move(f));
  }
}

// The connections one closure expectation is about, and the finding they start from.
struct Subset {
  std::vector<const ConnectionRecord*> records;
  Finding about;  // scenario, subject ("silent" for one kind of a mix), of, since
};

Subset subset_for(const Observation& o, const ClosureExpectation& c) {
  Subset s{.records = c.kind.empty() ? select(o, [](auto&) { return true; })
                                     : select(o, [&](auto& r) { return r.kind == c.kind; }),
           .about = finding(o, "", FindingClass::deadline, c.kind)};
  s.about.of = s.records.size();
  s.about.since = finding_since(c.since);
  s.about.deadline_key = c.key;
  return s;
}

// A finding about `s`'s connections: `count` of them.
Finding about(const Subset& s, const char* code, std::size_t count,
              FindingClass klass = FindingClass::deadline) {
  auto f = s.about;
  f.code = code;
  f.klass = klass;
  f.count = count;
  return f;
}

// A deadline named by its key is worded from its own origin: the least any of `open` stayed
// open from there (each until the client stopped watching); nullopt without an origin.
std::optional<Duration> stayed_open(const std::vector<const ConnectionRecord*>& open, Since since) {
  std::optional<Duration> least;
  for (const auto* r : open) {
    const auto from = deadline_origin(*r, since);
    if (!from) continue;
    least = std::min(least.value_or(r->ended_at - *from), r->ended_at - *from);
  }
  return least;
}

void check_still_open(const Subset& s, const Expectations& e, const ClosureExpectation& c,
                      Verdict& v) {
  std::vector<const ConnectionRecord*> open;
  std::ranges::copy_if(s.records, std::back_inserter(open),
                       [&c](auto* r) { return server_end(*r, c.stream).open; });
  if (open.empty()) return;
  auto f = about(s, codes::kStillOpen, open.size());
  f.measured = in_seconds(e.patience);
  f.bound = in_seconds(c.deadline);
  f.unit = "s";
  if (!c.key.empty()) f.measured = in_seconds(stayed_open(open, c.since).value_or(e.patience));
  if (!c.stream) name_unasked_answer(open, c.since, f);
  v.findings.push_back(std::move(f));
}

// `count` connections closed outside [deadline - slack, deadline + slack]: the most extreme
// of them at `extreme`, past the window's `edge`.
Finding outside_window(const Subset& s, const ClosureExpectation& c, const char* code,
                       std::size_t count, Duration extreme, Duration edge) {
  auto f = about(s, code, count);
  f.measured = in_seconds(extreme);
  f.bound = in_seconds(edge);
  f.unit = "s";
  f.deadline = in_seconds(c.deadline);
  f.slack = in_seconds(c.slack);
  f.deadline_name = c.name;
  return f;
}

// The latest a server's clock for a deadline from connect can have started: it runs from the
// server's accept, which the client does not see. Over TLS the server answered the hello after
// it accepted, so by the handshake's completion at the latest: a server whose one thread works
// through a backlog of handshakes accepts late, and keeps its deadline from there (nginx's
// client_header_timeout from its accept). Elsewhere the origin itself.
Duration latest_origin(const ConnectionRecord& r, Since since, Duration origin) {
  if (since == Since::connect && r.tls && r.tls->handshake_done) return *r.tls->handshake_done;
  return origin;
}

// Early before the deadline less its slack from the origin, late past the deadline and its
// slack from the latest the server can have started it (latest_origin).
void check_window(const Subset& s, const ClosureExpectation& c,
                  const std::vector<fixtures::TimedSample>& timeline, Verdict& v) {
  std::vector<const ConnectionRecord*> unmeasurable;
  std::vector<Duration> early, late;
  std::vector<std::pair<const ConnectionRecord*, Duration>> late_ends;  // since connect
  std::vector<Duration> early_since_connect;  // when the early ones closed, from connect
  for (const auto* r : s.records) {
    const auto end = server_end(*r, c.stream);
    if (!end.by_server) continue;
    const auto from = deadline_origin(*r, c.since);
    if (!from) {
      unmeasurable.push_back(r);
      continue;
    }
    const auto lasted = end.at - *from;
    if (lasted < c.deadline - c.slack) {
      early.push_back(lasted);
      early_since_connect.push_back(end.at);
    }
    if (end.at - latest_origin(*r, c.since, *from) > c.deadline + c.slack) {
      late.push_back(lasted);
      late_ends.emplace_back(r, end.at);
    }
  }
  if (!unmeasurable.empty()) {
    auto f = about(s, codes::kEndedBeforeOrigin, unmeasurable.size());
    const auto& first = *unmeasurable.front();
    f.ending = ending_words(first, server_end(first, c.stream).label);
    v.findings.push_back(std::move(f));
  }
  if (!early.empty()) {
    auto f = outside_window(s, c, codes::kClosedEarly, early.size(), std::ranges::min(early),
                            c.deadline - c.slack);
    f.after_connect = at_deadline_from_connect(early_since_connect, c);
    v.findings.push_back(std::move(f));
  }
  if (!late.empty()) {
    auto f = outside_window(s, c, codes::kClosedLate, late.size(), std::ranges::max(late),
                            c.deadline + c.slack);
    if (c.since == Since::connect) checks::name_late_accept(late_ends, c, timeline, f);
    v.findings.push_back(std::move(f));
  }
}

void check_endings(const Subset& s, const ClosureExpectation& c, Verdict& v) {
  // By label (in its words' order): how many, and the words of the first (an HTTP/2 one
  // names its frames).
  std::map<std::string, std::pair<std::size_t, std::string>> unexpected;
  for (const auto* record : s.records) {
    const auto end = server_end(*record, c.stream);
    if (!end.by_server) continue;
    if (std::ranges::find(c.endings, end.label) != c.endings.end()) continue;
    auto& [count, words] = unexpected[to_string(end.label)];
    if (count++ == 0) words = ending_words(*record, end.label);
  }
  for (const auto& [label, seen] : unexpected) {
    auto f = about(s, codes::kWrongEnding, seen.first, FindingClass::answer);
    f.since = reports::Since::none;
    f.ending = seen.second;
    for (const auto& allowed : c.endings) f.expected_endings.push_back(to_string(allowed));
    v.findings.push_back(std::move(f));
  }
}

void check_closure(const Observation& o, const Expectations& e, const ClosureExpectation& c,
                   Verdict& v) {
  const auto subset = subset_for(o, c);
  check_still_open(subset, e, c, v);
  check_window(subset, c, o.timeline, v);
  checks::check_progress(subset.records, c, subset.about, o.timeline, v);
  check_endings(subset, c, v);
}

}  // namespace

std::optional<Duration> deadline_origin(const ConnectionRecord& r, Since since) {
  switch (since) {
    case Since::connect:
      return Duration{};
    case Since::first_initial:
      return Duration{};
    case Since::first_send:
    case Since::stream_open:
    case Since::stream_headers:
    case Since::stream_request:
      if (r.sends.empty()) return std::nullopt;
      return r.sends.front().at;
    case Since::last_response:
      if (const auto* response = r.last_complete_response()) return response->complete;
      return std::nullopt;
    case Since::second_send:
      if (r.sends.size() < 2) return std::nullopt;
      return r.sends[1].at;
    case Since::handshake:
      if (r.h3) return r.h3->handshake_done;
      if (!r.tls) return std::nullopt;
      return r.tls->handshake_done;
    case Since::quiet:
      if (!r.h3) return std::nullopt;
      return r.h3->last_sent;
  }
  return std::nullopt;
}

std::vector<std::string> server_side_checks() {
  return {
      fmt::format("FDs back to baseline ({}, {})", codes::kFdsNotRecovered, codes::kFdsDuringLoad),
      fmt::format("no socket left in CLOSE_WAIT ({})", codes::kCloseWait),
      fmt::format("RSS bound ({})", codes::kRssOverBound),
      fmt::format("soak drift and recovery ({}, {})", codes::kSlopeOverBound,
                  codes::kNotBackToBaseline),
      fmt::format("server still running ({})", codes::kServerExited),
      fmt::format("the kernel's view of open connections ({})", codes::kKernelView)};
}

Verdict judge(const Observation& observation, const Expectations& expectations) {
  Verdict verdict;
  check_connections(observation, expectations, verdict);
  if (const auto& closure = expectations.closure) {
    check_closure(observation, expectations, *closure, verdict);
  }
  for (const auto& closure : expectations.kind_closures) {
    check_closure(observation, expectations, closure, verdict);
  }
  if (const auto& load = expectations.load) checks::check_load(observation, *load, verdict);
  if (const auto& completion = expectations.completion) {
    checks::check_completion(observation, *completion, verdict);
    if (completion->held_at_once) checks::check_held_at_once(observation, verdict);
  }
  for (const auto& completion : expectations.kind_completions) {
    checks::check_completion(observation, completion, verdict);
  }
  if (const auto& cut = expectations.cut) checks::check_cut(observation, *cut, verdict);
  if (const auto& flood = expectations.flood) checks::check_flood(observation, *flood, verdict);
  if (const auto& h3 = expectations.h3) checks::check_h3(observation, *h3, verdict);
  for (const auto& h3 : expectations.kind_h3) checks::check_h3(observation, h3, verdict);
  if (const auto& bytes = expectations.stall_bytes) {
    checks::check_stall_bytes(observation, *bytes, verdict);
  }
  // The soak's figures once, for its checks and then its explanations of the FD findings
  // (no load: check_load says so).
  const auto soak = expectations.soak ? soak_figures(observation) : std::nullopt;
  if (soak) checks::check_soak(observation, *soak, *expectations.soak, verdict);
  checks::check_fds(observation, expectations, verdict);
  if (soak) checks::explain_soak_fds(observation, *soak, verdict);
  checks::check_close_wait(observation, expectations, verdict);
  checks::explain_server_limit(observation, verdict);
  checks::name_udp_drops(observation, verdict);
  verdict.passed = verdict.findings.empty();
  return verdict;
}

}  // namespace loiter::suites
