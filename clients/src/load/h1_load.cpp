// The HTTP/1.1 exchange's pool: its requests built once, each request due by now given to a
// free connection (a churn request to a connection of its own), and the deadlines and
// connect retries of the connections that carry one.
#include <fmt/format.h>

#include "h1_load_run.hpp"
#include "loiter/clients/http1/requests.hpp"

namespace loiter::clients::load_detail {

namespace {

std::string build_request(const LoadOptions& o, std::string_view path, bool connection_close) {
  const std::string host = fmt::format("{}:{}", o.server.address().to_string(), o.server.port());
  std::string bytes = request_head({.method = o.method,
                                    .path = path,
                                    .host = host,
                                    .content_length = o.body.size(),
                                    .connection_close = connection_close});
  return bytes + o.body;
}

}  // namespace

void H1Run::open_pool() {
  for (auto& conn : conns) open_link(*conn);
}

// Deadlines and connect retries of the connections carrying a ticket.
void H1Run::watch(Clock::time_point now) {
  for (auto& c : conns) {
    H1Conn& conn = *c;
    if (!conn.ticket) {  // opened ahead of the schedule, maybe not yet
      if (conn.deadline <= now) expire(conn);
      continue;
    }
    if (conn.retry_at <= now) {
      if (now >= send_until) {
        release(*this, conn);  // too late: stays requested, not dispatched
        continue;
      }
      open_link(conn);
    } else if (conn.deadline <= now) {
      expire(conn);
    }
    if (conn.ticket) next_retry = std::min(next_retry, conn.retry_at);
  }
}

// Gives every request due by `now` to a free connection, within the burst cap.
void H1Run::dispatch(Clock::time_point now) {
  while (!free.empty()) {  // bounded by the free connections
    if (over_burst_cap()) return;
    const auto ticket = take_due(now);
    if (!ticket) return;
    H1Conn& conn = *free.front();
    free.pop_front();
    ++busy;
    conn.ticket = ticket;
    conn.kind = churn ? request_kind(options.churn, ticket->index) : RequestKind::pooled;
    if (conn.kind != RequestKind::pooled) park(*this, conn);
    if (conn.state == LinkState::closed) {
      open_link(conn);
    } else if (conn.phase == H1Phase::idle) {
      start_exchange(*this, conn);
    }  // else still being opened ahead of the schedule: its request goes once it is
  }
}

void H1Run::close_all() {
  for (auto& conn : conns) {
    if (conn->parked) unpark(*this, *conn);
    close_conn(*this, *conn);
  }
}

std::shared_ptr<Engine> make_h1_load(Executor executor, const LoadOptions& o, LoadResult& out) {
  auto run = std::make_shared<H1Run>(executor, o, out);
  const auto& churn = o.churn;
  run->churn = churn.any();
  run->request = build_request(o, o.path, false);
  run->close_request = build_request(o, o.path, true);
  run->abort_request =
      build_request(o, churn.abort_path.empty() ? o.path : churn.abort_path, false);
  run->head = o.method == "HEAD";
  for (std::size_t i = 0; i < o.connections; ++i) {
    run->conns.push_back(std::make_unique<H1Conn>());
    run->free.push_back(run->conns.back().get());
  }
  return run;
}

}  // namespace loiter::clients::load_detail
