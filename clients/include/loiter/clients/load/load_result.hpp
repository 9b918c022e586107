// What the open-loop load generator measured: plain data, no Asio.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "loiter/clients/load/latency_histogram.hpp"
#include "loiter/clients/record.hpp"

namespace loiter::clients {

// One second of the run, by intended send time (second k = requests due in [k, k+1) s).
struct LoadSecond {
  std::uint64_t requested = 0, dispatched = 0, succeeded = 0, failed = 0;
  Duration p50{}, p99{}, max{};  // latency from intended send time
  // The second's latencies themselves, from which p50/p99/max were read: shards of one run
  // merge their seconds by adding these, never by combining percentiles.
  LatencyHistogram latency;
  // loiter's own process CPU during this second of the schedule (every thread: the load's, the
  // sampler's, any waiting clients'), s; the pool's opening counts in the first, the drain
  // after the schedule in the last. Shards add theirs.
  double client_cpu_s = 0;
};

// What the client spent over a span of the run, measured on the thread that ran it (the
// load's, as the engine measures it; the waiting connections', over a scenario's drive).
struct ClientCost {
  double wall_s = 0;  // the span's wall time
  double busy = 0;    // that thread's time on a CPU or waiting for one, over wall_s
  double cpu_s = 0;   // loiter's whole process's CPU over the same span
  double cores() const { return wall_s > 0 ? cpu_s / wall_s : 0; }
  bool operator==(const ClientCost&) const = default;
};

// A load thread that wanted a CPU at least this share of its wall time could not keep its own
// schedule: latency it measured is the client's as much as the server's ("client limit").
inline constexpr double kClientBusy = 0.85;

struct LoadResult {
  std::uint64_t requested = 0;   // due on the timeline within duration (closed loop: = dispatched)
  std::uint64_t dispatched = 0;  // actually written to a socket
  std::uint64_t succeeded = 0;   // 2xx, whole response
  // Churn (LoadOptions::churn): requests the client reset on purpose once their answer had
  // begun (dispatched, neither succeeded nor failed), and the connections each share made.
  std::uint64_t aborted = 0;
  std::uint64_t fresh_closed = 0;   // fresh connections the client closed after their answer
  std::uint64_t server_closed = 0;  // connections the server closed after "Connection: close"
  // Requests that asked "Connection: close" whose connection the server did not close with
  // its answer: the answer did not say "Connection: close" and no FIN came with it, or the
  // announced FIN never came within request_timeout. The client closed it at once (awaiting
  // a FIN that was not announced would hold the request's slot). RFC 9112 9.6: a server that
  // receives "close" must close after its answer, and should say so in it.
  std::uint64_t close_kept = 0;
  std::uint64_t replaced = 0;  // kept-alive connections closed by the client after N requests
  // HTTP/2 (LoadProtocol::h2): the GOAWAYs the server sent, by error name ("NO_ERROR", ...).
  std::map<std::string, std::uint64_t> goaways;
  // HTTP/3 (LoadProtocol::h3): how the server ended QUIC connections, by the CONNECTION_CLOSE's
  // code name ("H3_NO_ERROR", "NO_ERROR", ...), "stateless reset", or "idle timeout" (neither
  // side heard the other for the smaller of their idle timeouts).
  std::map<std::string, std::uint64_t> closes;
  // HTTP/3: the UDP datagrams and their bytes the pool sent and received (every QUIC packet:
  // handshakes, requests, answers, ACKs); zero over TCP.
  struct Datagrams {
    std::uint64_t sent = 0, received = 0, bytes_sent = 0, bytes_received = 0;
    bool operator==(const Datagrams&) const = default;
  } datagrams;
  std::map<unsigned, std::uint64_t> non_2xx;  // status -> count
  std::map<std::string, std::uint64_t>
      errors;                      // "reset", "closed", "timeout", "connect-failed", ...
  LatencyHistogram from_intended;  // coordinated-omission-free latency (every whole response)
  LatencyHistogram from_sent;      // from the actual write
  Duration max_send_lag{};         // largest actual-minus-intended send time
  std::uint64_t max_sends_in_one_ms = 0;  // burstiness of actual sends (1 ms buckets)
  std::uint64_t connections_opened = 0;   // pool connections, including reconnects after errors
  Clock::time_point started{}, ended{};   // t0 and when the last outstanding request finished
  std::vector<LoadSecond> seconds;
  // The schedule's span: the duration, or, stopped early (LoadOptions::stop_early), up to
  // the first request it did not take.
  Duration scheduled{};
  bool stopped_early = false;
  // Latency from intended of the requests due in the schedule's first and last edge_window
  // (empty unless LoadOptions::edge_window was set): a soak compares the two.
  LatencyHistogram first_window, last_window;
  ClientCost client;  // the client's own cost (a shard merge: busy at most, CPU summed)
  bool keeping_up() const { return dispatched == requested; }
  // Dispatched requests that had to end in a whole 2xx answer (the aborted ones excepted).
  std::uint64_t owed() const { return dispatched - aborted; }
};

}  // namespace loiter::clients
