#include "loiter/suites/judge/judge.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <map>

#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/judge/load_figures.hpp"

namespace loiter::suites {

namespace {

using clients::ConnectionRecord;
using clients::Ending;

std::string_view describe(Since since) {
  switch (since) {
    case Since::connect:
      return "connect";
    case Since::first_send:
      return "the request head";
    case Since::last_response:
      return "the last response";
  }
  return "?";
}

bool ended_by_server(const ConnectionRecord& r) {
  return r.ending == Ending::close || r.ending == Ending::reset;
}

using Predicate = std::function<bool(const ConnectionRecord&)>;

std::vector<const ConnectionRecord*> select(const Observation& o, const Predicate& keep) {
  std::vector<const ConnectionRecord*> chosen;
  for (const auto& record : o.connections) {
    if (keep(record)) chosen.push_back(&record);
  }
  return chosen;
}

// Which limit a connect error points at, when it points at one.
std::string_view limit_behind(std::string_view error) {
  if (error.find("Too many open files") != std::string_view::npos) {
    return " (the client's RLIMIT_NOFILE)";
  }
  if (error.find("Cannot assign requested address") != std::string_view::npos) {
    return " (the client's ephemeral ports)";
  }
  if (error.find("refused") != std::string_view::npos ||
      error.find("timed out") != std::string_view::npos ||
      error.find("reset") != std::string_view::npos) {
    return " (the server: listen backlog full or its own FD limit; see its log)";
  }
  return "";
}

void check_connections(const Observation& o, const Expectations& e, Verdict& v) {
  if (o.server_exit) v.findings.push_back("the server " + *o.server_exit + " during the scenario");
  if (o.connections.size() != e.connections) {
    v.findings.push_back(fmt::format("{} connections were driven, {} expected",
                                     o.connections.size(), e.connections));
  }
  std::map<std::string, std::size_t> failed;  // by error
  for (const auto& r : o.connections) {
    if (r.ending == Ending::connect_failed) ++failed[r.error];
  }
  for (const auto& [error, count] : failed) {
    v.findings.push_back(fmt::format("{}/{} connections could not connect: {}{}", count,
                                     o.connections.size(), error, limit_behind(error)));
  }
}

// The connections one closure expectation is about, and how findings name them.
struct Subset {
  std::vector<const ConnectionRecord*> records;
  std::string prefix;  // "silent: " for one kind of a mix; empty for every connection
};

Subset subset_for(const Observation& o, const ClosureExpectation& c) {
  if (c.kind.empty()) return {select(o, [](auto&) { return true; }), ""};
  return {select(o, [&](auto& r) { return r.kind == c.kind; }), c.kind + ": "};
}

void check_still_open(const Subset& s, const Expectations& e, const ClosureExpectation& c,
                      Verdict& v) {
  const auto open =
      std::ranges::count_if(s.records, [](auto* r) { return r->ending == Ending::open; });
  if (open == 0) return;
  v.findings.push_back(fmt::format(
      "{}{}/{} connections still open at {:.3f} s after connect (deadline {:.3f} s from {})",
      s.prefix, open, s.records.size(), in_seconds(e.patience), in_seconds(c.deadline),
      describe(c.since)));
}

void check_window(const Subset& s, const ClosureExpectation& c, Verdict& v) {
  const std::size_t total = s.records.size();
  std::vector<const ConnectionRecord*> unmeasurable;
  std::vector<Duration> early, late;
  for (const auto* r : s.records) {
    if (!ended_by_server(*r)) continue;
    const auto from = deadline_origin(*r, c.since);
    if (!from) {
      unmeasurable.push_back(r);
      continue;
    }
    const auto lasted = r->ended_at - *from;
    if (lasted < c.deadline - c.slack) early.push_back(lasted);
    if (lasted > c.deadline + c.slack) late.push_back(lasted);
  }
  const auto window = fmt::format("deadline {:.3f} s ± {:.3f} s from {}", in_seconds(c.deadline),
                                  in_seconds(c.slack), describe(c.since));
  if (!unmeasurable.empty()) {
    v.findings.push_back(fmt::format("{}{}/{} connections ended ({}) before {} it is measured from",
                                     s.prefix, unmeasurable.size(), total,
                                     clients::ending_label(*unmeasurable.front()),
                                     describe(c.since)));
  }
  if (!early.empty()) {
    v.findings.push_back(
        fmt::format("{}{}/{} connections closed early, before {:.3f} s (earliest "
                    "{:.3f} s; {})",
                    s.prefix, early.size(), total, in_seconds(c.deadline - c.slack),
                    in_seconds(std::ranges::min(early)), window));
  }
  if (!late.empty()) {
    v.findings.push_back(
        fmt::format("{}{}/{} connections closed late, after {:.3f} s (latest "
                    "{:.3f} s; {})",
                    s.prefix, late.size(), total, in_seconds(c.deadline + c.slack),
                    in_seconds(std::ranges::max(late)), window));
  }
}

void check_endings(const Subset& s, const ClosureExpectation& c, Verdict& v) {
  std::map<std::string, std::size_t> unexpected;
  for (const auto* record : s.records) {
    if (!ended_by_server(*record)) continue;
    const auto label = clients::ending_label(*record);
    if (std::ranges::find(c.endings, label) == c.endings.end()) ++unexpected[label];
  }
  for (const auto& [label, count] : unexpected) {
    v.findings.push_back(fmt::format("{}{}/{} connections ended as {}, expected {}", s.prefix,
                                     count, s.records.size(), label, fmt::join(c.endings, " or ")));
  }
}

void check_closure(const Observation& o, const Expectations& e, const ClosureExpectation& c,
                   Verdict& v) {
  const auto subset = subset_for(o, c);
  check_still_open(subset, e, c, v);
  check_window(subset, c, v);
  check_endings(subset, c, v);
}

std::size_t whole_responses_with(const ConnectionRecord& r, unsigned status) {
  return static_cast<std::size_t>(std::ranges::count_if(r.responses, [status](auto& response) {
    return response.complete && response.status == status;
  }));
}

// Where a connection that was not cut ended its exchange: its last whole response, or,
// when the client ends it, the client's own close.
std::optional<Duration> exchange_end(const ConnectionRecord& r, const CompletionExpectation& c) {
  if (c.client_ends) return r.client_closed;
  if (const auto* last = r.last_complete_response()) return last->complete;
  return std::nullopt;
}

bool was_cut(const ConnectionRecord& r, const CompletionExpectation& c) {
  if (whole_responses_with(r, c.status) < c.responses) return true;
  return c.client_ends && r.ending != Ending::client_close;
}

void check_completion(const Observation& o, const CompletionExpectation& c, Verdict& v) {
  std::map<std::string, std::vector<const ConnectionRecord*>> cut;  // by ending label
  std::optional<Duration> shortest;
  for (const auto& r : o.connections) {
    if (r.ending == Ending::connect_failed) continue;  // reported already
    if (was_cut(r, c)) {
      cut[clients::ending_label(r)].push_back(&r);
    } else if (const auto end = exchange_end(r, c)) {
      shortest = std::min(shortest.value_or(*end), *end);
    }
  }
  const auto what = c.client_ends
                        ? fmt::format("ended by the server before the client closed it")
                        : fmt::format("fewer than {} whole {} response(s)", c.responses, c.status);
  for (const auto& [label, records] : cut) {
    std::vector<Duration> at;
    for (const auto* r : records) at.push_back(r->ended_at);
    std::ranges::sort(at);
    v.findings.push_back(fmt::format(
        "{}/{} connections were cut off: {}, ended as {} (median {:.3f} s after connect; it "
        "must outlive {:.3f} s)",
        records.size(), o.connections.size(), what, label, in_seconds(at[at.size() / 2]),
        in_seconds(c.outlives)));
  }
  if (shortest && *shortest < c.outlives) {
    v.findings.push_back(fmt::format(
        "an exchange completed after only {:.3f} s, within the {:.3f} s it must outlive: "
        "the scenario proves nothing (lengthen the target's path)",
        in_seconds(*shortest), in_seconds(c.outlives)));
  }
}

// The most connections open at the same moment (as the client saw them: connected, though
// perhaps not yet accepted), each from its connect to its end (the
// client's close, or the ending it observed). Sorted sweep: O(n log n).
std::size_t most_open_at_once(const std::vector<ConnectionRecord>& records) {
  std::vector<std::pair<clients::Clock::time_point, int>> events;  // (time, +1 open / -1 end)
  for (const auto& r : records) {
    if (r.ending == Ending::connect_failed) continue;
    const auto end = std::max(r.client_closed, r.ended_at);
    events.emplace_back(r.connected(), +1);
    events.emplace_back(r.connected() + end, -1);
  }
  std::ranges::sort(events);  // an end sorts before an open at the same instant
  std::size_t open = 0, most = 0;
  for (const auto& [at, change] : events) {
    open = change > 0 ? open + 1 : open - 1;
    most = std::max(most, open);
  }
  return most;
}

// held-capacity's premise: the re-check runs while every connection is held. Judged on the
// connections that answered both requests (the cut ones are findings of their own).
void check_held_at_once(const Observation& o, Verdict& v) {
  std::vector<clients::Clock::time_point> connects, first_answers, rechecks;
  for (const auto& r : o.connections) {
    if (r.responses.size() < 2 || !r.responses[0].complete || r.sends.size() < 2) continue;
    connects.push_back(r.connected());
    first_answers.push_back(r.connected() + *r.responses[0].complete);
    rechecks.push_back(r.connected() + r.sends[1].at);
  }
  if (first_answers.empty()) return;
  const auto first_recheck = std::ranges::min(rechecks);
  const auto after = [&](auto t) { return t > first_recheck; };
  const auto late = std::ranges::count_if(first_answers, after);
  if (late == 0) return;
  // Connected in time but answered late: the server's doing. Connected late: the opening's.
  const auto connected_late = std::ranges::count_if(connects, after);
  const auto why =
      connected_late == 0
          ? fmt::format(
                "all had connected before it: the server answered their first request "
                "late (a slow accept loop, or slow first requests)")
          : fmt::format(
                "{} connected only after it, and at most {} of {} were connected at the "
                "same time: the fleet opened slower than planned; ask fewer connections, "
                "or declare a longer idle deadline (--idle-timeout) for a slower opening",
                connected_late, most_open_at_once(o.connections), o.connections.size());
  v.findings.push_back(fmt::format(
      "not every connection was held at once: {}/{} answered their first request only after "
      "the first re-check was sent (the last {:.3f} s after it); {}",
      late, first_answers.size(), in_seconds(std::ranges::max(first_answers) - first_recheck),
      why));
}

// "404×3, reset×2": what the regular requests that did not succeed got instead.
std::string failures_of(const clients::LoadResult& load) {
  std::vector<std::string> parts;
  for (const auto& [status, count] : load.non_2xx)
    parts.push_back(fmt::format("{}×{}", status, count));
  for (const auto& [error, count] : load.errors)
    parts.push_back(fmt::format("{}×{}", error, count));
  return fmt::format("{}", fmt::join(parts, ", "));
}

void check_regular_traffic(const clients::LoadResult& load, const LoadExpectation& e, Verdict& v) {
  if (load.dispatched == 0) {
    v.findings.push_back("no regular request was dispatched");
    return;
  }
  if (load.succeeded < load.dispatched) {
    v.findings.push_back(fmt::format("{}/{} dispatched regular requests were not answered 2xx: {}",
                                     load.dispatched - load.succeeded, load.dispatched,
                                     failures_of(load)));
  }
  const auto p99 = load.from_intended.percentile(99.0);
  if (e.p99 && p99 > *e.p99) {
    v.findings.push_back(fmt::format(
        "regular p99 {:.2f} ms (from intended send time) exceeds the target's bound {:.2f} ms",
        in_ms(p99), in_ms(*e.p99)));
  }
}

void check_load(const Observation& o, const LoadExpectation& e, Verdict& v) {
  if (!o.load) {
    v.findings.push_back("the scenario expects regular traffic but none ran");
    return;
  }
  check_regular_traffic(o.load->result, e, v);
  const auto figures = load_figures(o);
  if (figures->all_waiting_closed && *figures->all_waiting_closed > figures->load_lasted) {
    v.findings.push_back(fmt::format(
        "the last waiting connection was closed {:.3f} s after the load started, after the "
        "load ended ({:.3f} s): lengthen the load to judge FDs during it",
        in_seconds(*figures->all_waiting_closed), in_seconds(figures->load_lasted)));
  }
  const std::size_t limit = o.fds.baseline + e.pool;
  if (figures->fds_during && *figures->fds_during > limit) {
    v.findings.push_back(fmt::format(
        "FDs while the load still ran came back only to {}, not to baseline {} + {} regular "
        "connections: {} held",
        *figures->fds_during, o.fds.baseline, e.pool, *figures->fds_during - limit));
  }
}

void check_fds(const FdObservation& fds, const Expectations& e, Verdict& v) {
  if (fds.recovered) return;
  const std::size_t limit = fds.baseline + e.fds_after;
  v.findings.push_back(fmt::format("FDs {}→{}, not back to {} within {:.3f} s: {} left",
                                   fds.baseline, fds.peak, limit, in_seconds(e.recovery),
                                   fds.after > limit ? fds.after - limit : 0));
}

// When connections failed and one server process held about as many FDs as it may, the
// limit, not the server's logic, is the likely cause: say so.
void explain_server_limit(const FdObservation& fds, Verdict& v) {
  constexpr std::size_t kNearLimit = 16;
  if (v.findings.empty() || !fds.server_limit) return;
  if (fds.peak_in_one_process + kNearLimit < *fds.server_limit) return;
  v.findings.push_back(
      fmt::format("a server process held {} FDs, at its RLIMIT_NOFILE of {}: that limit stopped it",
                  fds.peak_in_one_process, *fds.server_limit));
}

void check_close_wait(const Observation& o, const Expectations& e, Verdict& v) {
  if (!e.no_server_close_wait || o.timeline.empty()) return;
  const auto& tcp = o.timeline.back().sample.tcp;
  if (!tcp) return;  // no TCP counts: FDs alone judge it
  const auto stuck = tcp->server.of(fixtures::TcpState::close_wait);
  if (stuck == 0) return;
  v.findings.push_back(fmt::format(
      "{} server-side sockets still in CLOSE_WAIT at the end: the client's FIN arrived and the "
      "server never closed them",
      stuck));
}

}  // namespace

std::optional<Duration> deadline_origin(const ConnectionRecord& r, Since since) {
  switch (since) {
    case Since::connect:
      return Duration{};
    case Since::first_send:
      if (r.sends.empty()) return std::nullopt;
      return r.sends.front().at;
    case Since::last_response:
      if (const auto* response = r.last_complete_response()) return response->complete;
      return std::nullopt;
  }
  return std::nullopt;
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
  if (const auto& load = expectations.load) check_load(observation, *load, verdict);
  if (const auto& completion = expectations.completion) {
    check_completion(observation, *completion, verdict);
    if (completion->held_at_once) check_held_at_once(observation, verdict);
  }
  check_fds(observation.fds, expectations, verdict);
  check_close_wait(observation, expectations, verdict);
  explain_server_limit(observation.fds, verdict);
  verdict.passed = verdict.findings.empty();
  return verdict;
}

}  // namespace loiter::suites
