// What the open-loop generators (HTTP/1.1 and HTTP/2) count while they run (per request, per
// second, per ms of sends, the edge windows) and the result it leaves when the pool is done.
#include <algorithm>
#include <cmath>
#include <utility>

#include "load_schedule.hpp"

namespace loiter::clients::load_detail {

void note_sent(Schedule& run, const Ticket& ticket, Clock::time_point sent) {
  ++run.out.dispatched;
  ++run.second_of(ticket.due).dispatched;
  run.out.max_send_lag = std::max(run.out.max_send_lag, Duration(sent - ticket.due));
  const auto ms = std::max<Duration::rep>(0, (sent - run.options.start) / 1ms);
  if (ms > run.send_ms) {
    run.send_ms = ms;
    run.sends_this_ms = 0;
  }
  run.most_sends_in_one_ms = std::max(run.most_sends_in_one_ms, ++run.sends_this_ms);
}

void note_response(Schedule& run, const Ticket& ticket, Clock::time_point sent,
                   Clock::time_point done, unsigned status) {
  auto& second = run.second_of(ticket.due);
  const auto latency = done - ticket.due;
  run.out.from_intended.record(latency);
  run.out.from_sent.record(done - sent);
  second.from_intended.record(latency);
  // edge_window 0: the first window ends at start, the last begins at schedule_end (empty).
  if (ticket.due < run.first_window_end) run.out.first_window.record(latency);
  if (ticket.due >= run.last_window_start && ticket.due < run.schedule_end) {
    run.out.last_window.record(latency);
  }
  if (status >= 200 && status < 300) {
    ++run.out.succeeded;
    ++second.succeeded;
  } else {
    ++run.out.non_2xx[status];
    ++second.failed;
  }
}

namespace {

// The index of the first request due at or after `offset` from the start (at most
// requested): estimated from the rate, then settled on Run::due itself, so it agrees with
// how every request's second is found.
std::uint64_t first_due_at(const Schedule& run, Duration offset) {
  const auto requested = run.end;
  auto i = static_cast<std::uint64_t>(
      std::min(static_cast<double>(requested),
               std::ceil(static_cast<double>(offset.count()) / run.ns_per_request)));
  while (i > 0 && run.due(i - 1) - run.options.start >= offset) --i;  // a step or two
  while (i < requested && run.due(i) - run.options.start < offset) ++i;
  return i;
}

}  // namespace

void finish(Schedule& run) {
  auto& out = run.out;
  out.ended = Clock::now();
  out.requested = run.closed_loop ? out.dispatched : run.share_below(run.end);
  out.stopped_early = run.stopped;
  out.scheduled = run.options.duration;
  if (run.stopped) {
    out.scheduled = run.closed_loop ? Duration(out.ended - run.options.start)
                                    : Duration(run.due(run.end) - run.options.start);
    const auto seconds = std::max<Duration::rep>(1, (out.scheduled + 999ms) / 1s);
    run.seconds.resize(std::min(run.seconds.size(), static_cast<std::size_t>(seconds)));
  }
  out.max_sends_in_one_ms = run.most_sends_in_one_ms;
  out.seconds.assign(run.seconds.size(), {});
  for (std::size_t k = 0; k < run.seconds.size(); ++k) {
    auto& tally = run.seconds[k];
    out.seconds[k] = {.dispatched = tally.dispatched,
                      .succeeded = tally.succeeded,
                      .failed = tally.failed,
                      .p50 = tally.from_intended.percentile(50),
                      .p99 = tally.from_intended.percentile(99),
                      .max = tally.from_intended.max(),
                      .latency = std::move(tally.from_intended)};
  }
  out.client = run.cost.finish(out.seconds);
  if (run.closed_loop) {
    for (auto& s : out.seconds) s.requested = s.dispatched;
  } else {
    // Second k holds the requests from the first due at k s to the first due at k + 1 s
    // (the last second takes the rest): one index found a second, not a pass over them all.
    std::uint64_t from = 0;
    for (std::size_t k = 0; k < out.seconds.size(); ++k) {
      const bool last = k + 1 == out.seconds.size();
      const std::uint64_t to = last ? run.end : first_due_at(run, Duration(1s) * (k + 1));
      out.seconds[k].requested = run.share_below(to) - run.share_below(from);
      from = to;
    }
  }
}

}  // namespace loiter::clients::load_detail
