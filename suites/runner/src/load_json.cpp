// The regular traffic's result as JSON and back (a shard's load.json), and the merge of two
// shards' results. LoadResult and LoadSecond are described here in the file's order and go
// through the codec (reports/described_json.hpp): spans and moments as integer nanoseconds
// (moments on the run's origin), histograms as their parts.
#include "loiter/suites/runner/load_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/describe/class.hpp>
#include <boost/json.hpp>
#include <stdexcept>
#include <string>

#include "loiter/reports/described_json.hpp"

namespace loiter::suites::load_file {

// A latency histogram as load.json keeps it: LatencyHistogram::Parts, in ns; buckets as
// [index, count].
struct Histogram {
  std::uint64_t highest_ns = 0;
  std::vector<std::pair<std::size_t, std::uint64_t>> buckets;
  std::uint64_t clamped = 0, min_ns = 0, max_ns = 0;
  double sum_ns = 0;  // a double, always (kForms)
};
BOOST_DESCRIBE_STRUCT(Histogram, (), (highest_ns, buckets, clamped, min_ns, max_ns, sum_ns))

// p50/p99/max of a second, read from its histogram.
void summarize(clients::LoadSecond& s) {
  s.p50 = s.latency.percentile(50);
  s.p99 = s.latency.percentile(99);
  s.max = s.latency.max();
}

}  // namespace loiter::suites::load_file

namespace loiter::clients {

// Its p50, p99 and max are not kept: they are read again from its latency.
BOOST_DESCRIBE_STRUCT(LoadSecond, (),
                      (requested, dispatched, succeeded, failed, latency, client_cpu_s))
BOOST_DESCRIBE_STRUCT(ClientCost, (), (wall_s, busy, cpu_s))
BOOST_DESCRIBE_STRUCT(LoadResult::Datagrams, (), (sent, received, bytes_sent, bytes_received))
BOOST_DESCRIBE_STRUCT(LoadResult, (),
                      (requested, dispatched, succeeded, aborted, fresh_closed, server_closed,
                       close_kept, replaced, non_2xx, errors, goaways, closes, datagrams,
                       from_intended, from_sent,
                       max_send_lag, max_sends_in_one_ms, connections_opened, started, ended,
                       seconds, scheduled, stopped_early, first_window, last_window, client))

}  // namespace loiter::clients

namespace loiter::reports::described {

using clients::LoadResult;
using Ns = Nanoseconds<clients::Duration>;
using MomentNs = Nanoseconds<clients::Clock::time_point>;  // on the origin, once shifted

template <>
inline constexpr auto kForms<suites::load_file::Histogram> =
    std::tuple(As<&suites::load_file::Histogram::sum_ns, Float>{});

template <>
struct Codec<clients::LatencyHistogram> {
  static json::value write(const clients::LatencyHistogram& h) {
    auto parts = h.parts();
    return described::write(suites::load_file::Histogram{.highest_ns = parts.highest,
                                                         .buckets = std::move(parts.buckets),
                                                         .clamped = parts.clamped,
                                                         .min_ns = parts.min,
                                                         .max_ns = parts.max,
                                                         .sum_ns = parts.sum});
  }
  static clients::LatencyHistogram read(const json::value& json) {
    auto file = described::read<suites::load_file::Histogram>(json);
    return clients::LatencyHistogram::from_parts({.highest = file.highest_ns,
                                                  .buckets = std::move(file.buckets),
                                                  .clamped = file.clamped,
                                                  .min = file.min_ns,
                                                  .max = file.max_ns,
                                                  .sum = file.sum_ns});
  }
};

template <>
struct Amend<clients::LoadSecond> {
  static void read(const json::object&, clients::LoadSecond& s) { suites::load_file::summarize(s); }
};

template <>
inline constexpr auto kAddedLater<LoadResult> = std::tuple(&LoadResult::goaways,
                                                           &LoadResult::close_kept);
// The client's own cost: written where the engine measured it (documents from before it, and
// shards' golden bytes, have none). An HTTP/3 load's QUIC closes: where some came.
template <>
inline constexpr auto kWhenSet<LoadResult> =
    std::tuple(&LoadResult::client, &LoadResult::closes, &LoadResult::datagrams);
template <>
inline constexpr auto kWhenSet<clients::LoadSecond> = std::tuple(&clients::LoadSecond::client_cpu_s);
template <>
inline constexpr auto kForms<clients::ClientCost> =
    std::tuple(As<&clients::ClientCost::wall_s, Float>{}, As<&clients::ClientCost::busy, Float>{},
               As<&clients::ClientCost::cpu_s, Float>{});
template <>
inline constexpr auto kForms<clients::LoadSecond> =
    std::tuple(As<&clients::LoadSecond::client_cpu_s, Float>{});
// max_send_lag_ns, started_ns, ended_ns, scheduled_ns.
template <>
inline constexpr auto kForms<LoadResult> = std::tuple(As<&LoadResult::max_send_lag, Ns>{},
                                                      As<&LoadResult::started, MomentNs>{},
                                                      As<&LoadResult::ended, MomentNs>{},
                                                      As<&LoadResult::scheduled, Ns>{});

}  // namespace loiter::reports::described

namespace loiter::suites {

namespace json = boost::json;
namespace described = reports::described;

json::value load_to_json(const clients::LoadResult& r, clients::Clock::time_point origin) {
  auto on_origin = r;  // its moments as spans from the origin's
  on_origin.started = clients::Clock::time_point(r.started - origin);
  on_origin.ended = clients::Clock::time_point(r.ended - origin);
  return described::write(on_origin);
}

clients::LoadResult load_from_json(const json::value& v, clients::Clock::time_point origin) {
  clients::LoadResult r;
  try {
    r = described::read<clients::LoadResult>(v);
  } catch (const std::exception& e) {  // a ReadError, or a bucket that is no [index, count]
    throw std::invalid_argument(fmt::format("a load result cannot be read: {}", e.what()));
  }
  r.started = origin + r.started.time_since_epoch();
  r.ended = origin + r.ended.time_since_epoch();
  return r;
}

void merge_load(clients::LoadResult& sum, const clients::LoadResult& part) {
  sum.requested += part.requested;
  sum.dispatched += part.dispatched;
  sum.succeeded += part.succeeded;
  sum.aborted += part.aborted;
  sum.fresh_closed += part.fresh_closed;
  sum.server_closed += part.server_closed;
  sum.close_kept += part.close_kept;
  sum.replaced += part.replaced;
  for (const auto& [status, n] : part.non_2xx) sum.non_2xx[status] += n;
  for (const auto& [error, n] : part.errors) sum.errors[error] += n;
  for (const auto& [code, n] : part.goaways) sum.goaways[code] += n;
  for (const auto& [code, n] : part.closes) sum.closes[code] += n;
  sum.datagrams.sent += part.datagrams.sent;
  sum.datagrams.received += part.datagrams.received;
  sum.datagrams.bytes_sent += part.datagrams.bytes_sent;
  sum.datagrams.bytes_received += part.datagrams.bytes_received;
  sum.from_intended.merge(part.from_intended);
  sum.from_sent.merge(part.from_sent);
  sum.max_send_lag = std::max(sum.max_send_lag, part.max_send_lag);
  sum.max_sends_in_one_ms = std::max(sum.max_sends_in_one_ms, part.max_sends_in_one_ms);
  sum.connections_opened += part.connections_opened;
  sum.started = std::min(sum.started, part.started);
  sum.ended = std::max(sum.ended, part.ended);
  if (part.seconds.size() > sum.seconds.size()) sum.seconds.resize(part.seconds.size());
  for (std::size_t k = 0; k < part.seconds.size(); ++k) {
    auto& s = sum.seconds[k];
    const auto& p = part.seconds[k];
    s.requested += p.requested;
    s.dispatched += p.dispatched;
    s.succeeded += p.succeeded;
    s.failed += p.failed;
    s.latency.merge(p.latency);
    s.client_cpu_s += p.client_cpu_s;
    load_file::summarize(s);
  }
  sum.scheduled = std::max(sum.scheduled, part.scheduled);
  sum.stopped_early = sum.stopped_early || part.stopped_early;
  sum.first_window.merge(part.first_window);
  sum.last_window.merge(part.last_window);
  // Each shard's load thread is its own: the busiest one speaks for the run; CPU adds up.
  sum.client.wall_s = std::max(sum.client.wall_s, part.client.wall_s);
  sum.client.busy = std::max(sum.client.busy, part.client.busy);
  sum.client.cpu_s += part.client.cpu_s;
}

}  // namespace loiter::suites
