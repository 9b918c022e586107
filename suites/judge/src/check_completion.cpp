// Connections that must not be cut (streams, slow readers, held connections), and
// held-capacity's premise: every connection held at once.
#include <algorithm>
#include <map>
#include <ranges>

#include "checks.hpp"
#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites::checks {

namespace {

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
  const auto whole = whole_responses_with(r, c.status);
  if (whole < c.responses) return true;
  // Over HTTP/2 a connection holds several exchanges: one whole response does not show the
  // others were not cut. Every stream the client asked for must be answered whole, and a
  // stream the server reset (RST_STREAM) was cut.
  if (r.h2 && (r.h2->reset_count > 0 || whole < r.requests)) return true;
  return c.client_ends && r.ending != Ending::client_close;
}

// When a connection was cut: its end; over HTTP/2, where the connection outlives a stream
// the server cut, the server's first RST_STREAM; over HTTP/3 its first RESET_STREAM or
// STOP_SENDING (the client closes after it).
Duration cut_at(const ConnectionRecord& r) {
  if (r.h2 && !r.h2->resets.empty()) return r.h2->resets.front().at;
  if (r.h3 && !r.h3->stream_ends.empty()) return r.h3->stream_ends.front().at;
  return r.ended_at;
}

// A slow reader's record keeps its reads: when its last response bytes arrived (the last
// read that took more than the one before it); nothing for another kind.
std::optional<Duration> last_bytes(const ConnectionRecord& r) {
  std::optional<Duration> last;
  std::size_t before = 0;
  for (const auto& read : r.progress) {
    if (read.bytes > before) last = read.at;
    before = std::max(before, read.bytes);
  }
  return last;
}

// The cut readers were still reading: each kept records of its reads, and the median time
// from its last bytes to the cut is within what the exchange had to outlast (they made
// progress well inside any send deadline that might have cut them). That median, else nothing.
std::optional<double> reading_until_cut(const std::vector<const ConnectionRecord*>& records,
                                        const CompletionExpectation& c) {
  std::vector<Duration> gaps;
  for (const auto* r : records) {
    const auto last = last_bytes(*r);
    if (!last) return std::nullopt;
    gaps.push_back(std::max(Duration{}, cut_at(*r) - *last));
  }
  std::ranges::sort(gaps);
  const auto gap = gaps[gaps.size() / 2];
  if (gap >= c.outlives) return std::nullopt;
  return in_seconds(gap);
}

// `records` (all ending alike) were cut: when, at the median, against what they had to
// outlive, and what they had to get (whole responses, or the client's own close; over
// HTTP/2 one for every stream the client asked for).
Finding cut_off(const Observation& o, const CompletionExpectation& c,
                const std::vector<const ConnectionRecord*>& records, std::size_t of) {
  std::vector<Duration> at;
  for (const auto* r : records) at.push_back(cut_at(*r));
  std::ranges::sort(at);
  auto f = finding(o, codes::kCutOff, FindingClass::deadline, c.kind);
  f.count = records.size();
  f.of = of;
  f.measured = in_seconds(at[at.size() / 2]);
  f.bound = in_seconds(c.outlives);
  f.unit = "s";
  f.ending = ending_words(*records.front(), clients::ending_of(*records.front()));
  if (!c.client_ends) {
    const auto& first = *records.front();
    f.responses = first.h2 ? std::max(c.responses, first.requests) : c.responses;
    f.status = c.status;
  }
  f.read_gap = reading_until_cut(records, c);
  return f;
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

// Time with connections in the accept queue and none taken from it that is surely a cap, not
// a slow accept loop (which drains the queue as it goes: the reference server's slow-accept,
// one every 2 ms, takes 100 in this time), however long the sampler's intervals: on a
// starved machine they stretch to 300 ms and more, and a cap held for ~0.7 s then spanned
// fewer than two of them (a clean clone's ctest, 2026-12-07: "a slow accept loop" for the
// reference server's accept-cap).
constexpr auto kAcceptStall = std::chrono::milliseconds(200);

// What the server's side shows of connections answered late (sampled TCP states): the
// listener's accept queue at its longest and its backlog; how long connections waited there
// while the server took none (between two samples the queue did not shrink and the server's
// FDs did not grow: a cap, not a slow loop, which drains it as it goes), counted where it
// adds up to two of the timeline's sampling intervals (one interval of no change can be a
// slow loop caught between two accepts) or to kAcceptStall, whichever is shorter; the FDs it
// held.
void add_accept_queue(const Observation& o, Finding& f) {
  const fixtures::TimedSample* previous = nullptr;
  Duration stalled{};
  std::vector<Duration> intervals;
  for (const auto& s : o.timeline) {
    if (!s.sample.tcp) continue;
    const auto& tcp = *s.sample.tcp;
    if (!f.accept_queue || tcp.accept_queue > *f.accept_queue) {
      f.accept_queue = tcp.accept_queue;
      f.backlog = tcp.backlog;
    }
    if (previous != nullptr && previous->sample.tcp->accept_queue > 0 && tcp.accept_queue > 0 &&
        tcp.accept_queue >= previous->sample.tcp->accept_queue &&
        s.sample.fds <= previous->sample.fds) {
      stalled += std::chrono::duration_cast<Duration>(s.at - previous->at);
    }
    if (previous != nullptr) {
      intervals.push_back(std::chrono::duration_cast<Duration>(s.at - previous->at));
    }
    previous = &s;
  }
  if (!f.accept_queue) return;
  std::ranges::sort(intervals);
  const auto interval = intervals.empty() ? Duration{} : intervals[intervals.size() / 2];
  const Duration enough = std::min<Duration>(2 * interval, kAcceptStall);
  f.accept_stalled = stalled >= enough ? in_seconds(stalled) : 0.0;
  f.baseline = o.fds.baseline;
  f.peak = o.fds.peak;
}

}  // namespace

void check_completion(const Observation& o, const CompletionExpectation& c, Verdict& v) {
  std::map<std::string, std::vector<const ConnectionRecord*>> cut;  // by ending label
  std::optional<Duration> shortest;
  std::size_t of = 0;  // connections of the kind
  for (const auto& r : o.connections) {
    if (!c.kind.empty() && r.kind != c.kind) continue;
    ++of;
    if (r.ending == Ending::connect_failed) continue;  // reported already
    if (was_cut(r, c)) {
      cut[clients::ending_label(r)].push_back(&r);
    } else if (const auto end = exchange_end(r, c)) {
      shortest = std::min(shortest.value_or(*end), *end);
    }
  }
  for (const auto& [label, records] : cut) v.findings.push_back(cut_off(o, c, records, of));
  if (shortest && *shortest < c.outlives) {
    auto f = finding(o, codes::kProvesNothing, FindingClass::infrastructure, c.kind);
    f.measured = in_seconds(*shortest);
    f.bound = in_seconds(c.outlives);
    f.unit = "s";
    v.findings.push_back(std::move(f));
  }
}

// held-capacity's premise: the re-check runs while every connection is held. Judged on the
// connections that answered both requests (the cut ones are findings of their own).
void check_held_at_once(const Observation& o, Verdict& v) {
  std::vector<clients::Clock::time_point> connects, first_answers, rechecks;
  for (const auto& r : o.connections) {
    if (r.responses.size() < 2 || !r.responses[0].complete || r.sends.size() < 2) continue;
    // The re-check is the last send before its answer began: over HTTP/2 the client's
    // SETTINGS and PING acknowledgements are sends of their own, around the first answer and
    // during the hold.
    const auto recheck = std::ranges::find_if(r.sends | std::views::reverse, [&](const auto& s) {
      return s.at <= r.responses[1].started;
    });
    if (recheck == (r.sends | std::views::reverse).end()) continue;
    connects.push_back(r.connected());
    first_answers.push_back(r.connected() + *r.responses[0].complete);
    rechecks.push_back(r.connected() + recheck->at);
  }
  if (first_answers.empty()) return;
  const auto first_recheck = std::ranges::min(rechecks);
  const auto after = [&](auto t) { return t > first_recheck; };
  const auto late = std::ranges::count_if(first_answers, after);
  if (late == 0) return;
  auto f = finding(o, codes::kNotHeldAtOnce, FindingClass::capacity);
  f.count = static_cast<std::size_t>(late);
  f.of = first_answers.size();
  f.measured = in_seconds(std::ranges::max(first_answers) - first_recheck);
  f.unit = "s";
  // Connected late: the opening's doing. Connected in time but answered late: the server's.
  // A run can hold both (a client slowed by a busy machine beside a capped server), and then
  // the finding names both: those that connected in time tell the server's cause whatever
  // the opening did.
  f.connected_late = static_cast<std::size_t>(std::ranges::count_if(connects, after));
  if (*f.connected_late > 0) {
    f.most_at_once = most_open_at_once(o.connections);
    f.connections = o.connections.size();
  }
  if (*f.count > *f.connected_late && o.server_sampled) add_accept_queue(o, f);
  if (o.fleet_cost) name_client_limit(*o.fleet_cost, f);
  v.findings.push_back(std::move(f));
}

}  // namespace loiter::suites::checks
