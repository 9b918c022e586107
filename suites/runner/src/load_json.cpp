// The regular traffic's result as JSON and back (a shard's load.json), and the merge of two
// shards' results. The file's form is a described struct (LoadFile) the codec writes:
// times as integer nanoseconds (moments on the run's origin), histograms as their parts.
#include "loiter/suites/runner/load_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/describe/class.hpp>
#include <boost/json.hpp>
#include <stdexcept>
#include <string>

#include "loiter/reports/described_json.hpp"

namespace loiter::suites {

namespace json = boost::json;
namespace described = reports::described;

namespace {

using clients::Duration;
using clients::LatencyHistogram;

// A latency histogram as load.json keeps it: LatencyHistogram::Parts, in ns; buckets as
// [index, count].
struct HistogramFile {
  std::uint64_t highest_ns = 0;
  std::vector<std::pair<std::size_t, std::uint64_t>> buckets;
  std::uint64_t clamped = 0, min_ns = 0, max_ns = 0;
  described::AsDouble sum_ns;
};
BOOST_DESCRIBE_STRUCT(HistogramFile, (), (highest_ns, buckets, clamped, min_ns, max_ns, sum_ns))

struct LoadSecondFile {
  std::uint64_t requested = 0, dispatched = 0, succeeded = 0, failed = 0;
  HistogramFile latency;
};
BOOST_DESCRIBE_STRUCT(LoadSecondFile, (), (requested, dispatched, succeeded, failed, latency))

struct LoadFile {
  std::uint64_t requested = 0, dispatched = 0, succeeded = 0, aborted = 0, fresh_closed = 0,
                server_closed = 0, replaced = 0;
  std::map<unsigned, std::uint64_t> non_2xx;
  std::map<std::string, std::uint64_t> errors;
  std::optional<std::map<std::string, std::uint64_t>> goaways;  // older files lack it
  HistogramFile from_intended, from_sent;
  std::int64_t max_send_lag_ns = 0;
  std::uint64_t max_sends_in_one_ms = 0, connections_opened = 0;
  std::int64_t started_ns = 0, ended_ns = 0;  // on the run's origin
  std::vector<LoadSecondFile> seconds;
  std::int64_t scheduled_ns = 0;
  bool stopped_early = false;
  HistogramFile first_window, last_window;
};
BOOST_DESCRIBE_STRUCT(LoadFile, (),
                      (requested, dispatched, succeeded, aborted, fresh_closed, server_closed,
                       replaced, non_2xx, errors, goaways, from_intended, from_sent,
                       max_send_lag_ns, max_sends_in_one_ms, connections_opened, started_ns,
                       ended_ns, seconds, scheduled_ns, stopped_early, first_window, last_window))

std::int64_t ns(Duration d) { return static_cast<std::int64_t>(d.count()); }

HistogramFile histogram_file(const LatencyHistogram& h) {
  auto parts = h.parts();
  return {.highest_ns = parts.highest,
          .buckets = std::move(parts.buckets),
          .clamped = parts.clamped,
          .min_ns = parts.min,
          .max_ns = parts.max,
          .sum_ns = {parts.sum}};
}

LatencyHistogram histogram_of(HistogramFile file) {
  return LatencyHistogram::from_parts({.highest = file.highest_ns,
                                       .buckets = std::move(file.buckets),
                                       .clamped = file.clamped,
                                       .min = file.min_ns,
                                       .max = file.max_ns,
                                       .sum = file.sum_ns.value});
}

// p50/p99/max of a second, read from its histogram.
void summarize(clients::LoadSecond& s) {
  s.p50 = s.latency.percentile(50);
  s.p99 = s.latency.percentile(99);
  s.max = s.latency.max();
}

}  // namespace

json::value load_to_json(const clients::LoadResult& r, clients::Clock::time_point origin) {
  LoadFile file{.requested = r.requested,
                .dispatched = r.dispatched,
                .succeeded = r.succeeded,
                .aborted = r.aborted,
                .fresh_closed = r.fresh_closed,
                .server_closed = r.server_closed,
                .replaced = r.replaced,
                .non_2xx = r.non_2xx,
                .errors = r.errors,
                .goaways = r.goaways,
                .from_intended = histogram_file(r.from_intended),
                .from_sent = histogram_file(r.from_sent),
                .max_send_lag_ns = ns(r.max_send_lag),
                .max_sends_in_one_ms = r.max_sends_in_one_ms,
                .connections_opened = r.connections_opened,
                .started_ns = ns(r.started - origin),
                .ended_ns = ns(r.ended - origin),
                .seconds = {},
                .scheduled_ns = ns(r.scheduled),
                .stopped_early = r.stopped_early,
                .first_window = histogram_file(r.first_window),
                .last_window = histogram_file(r.last_window)};
  for (const auto& s : r.seconds) {
    file.seconds.push_back({.requested = s.requested,
                            .dispatched = s.dispatched,
                            .succeeded = s.succeeded,
                            .failed = s.failed,
                            .latency = histogram_file(s.latency)});
  }
  return described::write(file);
}

clients::LoadResult load_from_json(const json::value& v, clients::Clock::time_point origin) {
  LoadFile file;
  try {
    file = described::read<LoadFile>(v);
  } catch (const std::exception& e) {  // a ReadError, or a bucket that is no [index, count]
    throw std::invalid_argument(fmt::format("a load result cannot be read: {}", e.what()));
  }
  clients::LoadResult r{.requested = file.requested,
                        .dispatched = file.dispatched,
                        .succeeded = file.succeeded,
                        .aborted = file.aborted,
                        .fresh_closed = file.fresh_closed,
                        .server_closed = file.server_closed,
                        .replaced = file.replaced,
                        .goaways = file.goaways.value_or(std::map<std::string, std::uint64_t>{}),
                        .non_2xx = std::move(file.non_2xx),
                        .errors = std::move(file.errors),
                        .from_intended = histogram_of(std::move(file.from_intended)),
                        .from_sent = histogram_of(std::move(file.from_sent)),
                        .max_send_lag = Duration(file.max_send_lag_ns),
                        .max_sends_in_one_ms = file.max_sends_in_one_ms,
                        .connections_opened = file.connections_opened,
                        .started = origin + Duration(file.started_ns),
                        .ended = origin + Duration(file.ended_ns),
                        .seconds = {},
                        .scheduled = Duration(file.scheduled_ns),
                        .stopped_early = file.stopped_early,
                        .first_window = histogram_of(std::move(file.first_window)),
                        .last_window = histogram_of(std::move(file.last_window))};
  for (auto& s : file.seconds) {
    r.seconds.push_back({.requested = s.requested,
                         .dispatched = s.dispatched,
                         .succeeded = s.succeeded,
                         .failed = s.failed,
                         .latency = histogram_of(std::move(s.latency))});
    summarize(r.seconds.back());
  }
  return r;
}

void merge_load(clients::LoadResult& sum, const clients::LoadResult& part) {
  sum.requested += part.requested;
  sum.dispatched += part.dispatched;
  sum.succeeded += part.succeeded;
  sum.aborted += part.aborted;
  sum.fresh_closed += part.fresh_closed;
  sum.server_closed += part.server_closed;
  sum.replaced += part.replaced;
  for (const auto& [status, n] : part.non_2xx) sum.non_2xx[status] += n;
  for (const auto& [error, n] : part.errors) sum.errors[error] += n;
  for (const auto& [code, n] : part.goaways) sum.goaways[code] += n;
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
    summarize(s);
  }
  sum.scheduled = std::max(sum.scheduled, part.scheduled);
  sum.stopped_early = sum.stopped_early || part.stopped_early;
  sum.first_window.merge(part.first_window);
  sum.last_window.merge(part.last_window);
}

}  // namespace loiter::suites
