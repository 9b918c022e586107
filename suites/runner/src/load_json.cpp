// The regular traffic's result as JSON and back (a shard's load.json), and the merge of two
// shards' results.
#include "loiter/suites/runner/load_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/json.hpp>
#include <stdexcept>
#include <string>

namespace loiter::suites {

namespace json = boost::json;

namespace {

using clients::Duration;
using clients::LatencyHistogram;

std::int64_t ns(Duration d) { return static_cast<std::int64_t>(d.count()); }

json::value histogram_to_json(const LatencyHistogram& h) {
  const auto parts = h.parts();
  json::array buckets;
  for (const auto& [index, count] : parts.buckets) buckets.push_back(json::array{index, count});
  return json::object{{"highest_ns", parts.highest}, {"buckets", std::move(buckets)},
                      {"clamped", parts.clamped},    {"min_ns", parts.min},
                      {"max_ns", parts.max},         {"sum_ns", parts.sum}};
}

LatencyHistogram histogram_from(const json::value& v) {
  const auto& o = v.as_object();
  LatencyHistogram::Parts parts{.highest = json::value_to<std::uint64_t>(o.at("highest_ns")),
                                .buckets = {},
                                .clamped = json::value_to<std::uint64_t>(o.at("clamped")),
                                .min = json::value_to<std::uint64_t>(o.at("min_ns")),
                                .max = json::value_to<std::uint64_t>(o.at("max_ns")),
                                .sum = json::value_to<double>(o.at("sum_ns"))};
  for (const auto& b : o.at("buckets").as_array()) {
    parts.buckets.emplace_back(json::value_to<std::size_t>(b.at(0)),
                               json::value_to<std::uint64_t>(b.at(1)));
  }
  return LatencyHistogram::from_parts(parts);
}

template <typename Key>
json::object counts_to_json(const std::map<Key, std::uint64_t>& counts) {
  json::object o;
  for (const auto& [key, count] : counts) o[fmt::format("{}", key)] = count;
  return o;
}

json::value second_to_json(const clients::LoadSecond& s) {
  return json::object{{"requested", s.requested},
                      {"dispatched", s.dispatched},
                      {"succeeded", s.succeeded},
                      {"failed", s.failed},
                      {"latency", histogram_to_json(s.latency)}};
}

// p50/p99/max of a second, read from its histogram.
void summarize(clients::LoadSecond& s) {
  s.p50 = s.latency.percentile(50);
  s.p99 = s.latency.percentile(99);
  s.max = s.latency.max();
}

clients::LoadSecond second_from(const json::value& v) {
  const auto& o = v.as_object();
  clients::LoadSecond s{.requested = json::value_to<std::uint64_t>(o.at("requested")),
                        .dispatched = json::value_to<std::uint64_t>(o.at("dispatched")),
                        .succeeded = json::value_to<std::uint64_t>(o.at("succeeded")),
                        .failed = json::value_to<std::uint64_t>(o.at("failed")),
                        .latency = histogram_from(o.at("latency"))};
  summarize(s);
  return s;
}

}  // namespace

json::value load_to_json(const clients::LoadResult& r, clients::Clock::time_point origin) {
  json::array seconds;
  for (const auto& s : r.seconds) seconds.push_back(second_to_json(s));
  return json::object{{"requested", r.requested},
                      {"dispatched", r.dispatched},
                      {"succeeded", r.succeeded},
                      {"aborted", r.aborted},
                      {"fresh_closed", r.fresh_closed},
                      {"server_closed", r.server_closed},
                      {"replaced", r.replaced},
                      {"non_2xx", counts_to_json(r.non_2xx)},
                      {"errors", counts_to_json(r.errors)},
                      {"goaways", counts_to_json(r.goaways)},
                      {"from_intended", histogram_to_json(r.from_intended)},
                      {"from_sent", histogram_to_json(r.from_sent)},
                      {"max_send_lag_ns", ns(r.max_send_lag)},
                      {"max_sends_in_one_ms", r.max_sends_in_one_ms},
                      {"connections_opened", r.connections_opened},
                      {"started_ns", ns(r.started - origin)},
                      {"ended_ns", ns(r.ended - origin)},
                      {"seconds", std::move(seconds)},
                      {"scheduled_ns", ns(r.scheduled)},
                      {"stopped_early", r.stopped_early},
                      {"first_window", histogram_to_json(r.first_window)},
                      {"last_window", histogram_to_json(r.last_window)}};
}

clients::LoadResult load_from_json(const json::value& v, clients::Clock::time_point origin) {
  try {
    const auto& o = v.as_object();
    const auto count = [&](const char* key) { return json::value_to<std::uint64_t>(o.at(key)); };
    const auto span = [&](const char* key) {
      return Duration(json::value_to<std::int64_t>(o.at(key)));
    };
    clients::LoadResult r;
    r.requested = count("requested");
    r.dispatched = count("dispatched");
    r.succeeded = count("succeeded");
    r.aborted = count("aborted");
    r.fresh_closed = count("fresh_closed");
    r.server_closed = count("server_closed");
    r.replaced = count("replaced");
    for (const auto& [status, n] : o.at("non_2xx").as_object()) {
      r.non_2xx[static_cast<unsigned>(std::stoul(std::string(status)))] =
          json::value_to<std::uint64_t>(n);
    }
    for (const auto& [error, n] : o.at("errors").as_object()) {
      r.errors[std::string(error)] = json::value_to<std::uint64_t>(n);
    }
    if (const auto* goaways = o.if_contains("goaways")) {  // HTTP/2 load only; older files lack it
      for (const auto& [code, n] : goaways->as_object()) {
        r.goaways[std::string(code)] = json::value_to<std::uint64_t>(n);
      }
    }
    r.from_intended = histogram_from(o.at("from_intended"));
    r.from_sent = histogram_from(o.at("from_sent"));
    r.max_send_lag = span("max_send_lag_ns");
    r.max_sends_in_one_ms = count("max_sends_in_one_ms");
    r.connections_opened = count("connections_opened");
    r.started = origin + span("started_ns");
    r.ended = origin + span("ended_ns");
    for (const auto& s : o.at("seconds").as_array()) r.seconds.push_back(second_from(s));
    r.scheduled = span("scheduled_ns");
    r.stopped_early = o.at("stopped_early").as_bool();
    r.first_window = histogram_from(o.at("first_window"));
    r.last_window = histogram_from(o.at("last_window"));
    return r;
  } catch (const std::exception& e) {
    throw std::invalid_argument(fmt::format("a load result cannot be read: {}", e.what()));
  }
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
