// The timeline both open-loop generators pace by (see load_schedule.hpp): set from the
// options, taken request by request, capped per millisecond and woken on the tick's grid.
#include "load_schedule.hpp"

#include <fmt/format.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "loiter/clients/transport/targets.hpp"

namespace loiter::clients::load_detail {

void check_options(const LoadOptions& options) {
  if (!options.allow_non_loopback) require_loopback(options.server, options.allowed_remote);
  if (!(options.rate >= 0.0) || !std::isfinite(options.rate)) {
    throw std::invalid_argument(fmt::format("load rate must be >= 0, not {}", options.rate));
  }
  if (options.connections == 0) throw std::invalid_argument("load needs at least one connection");
  if (options.tick < Duration::zero()) throw std::invalid_argument("load tick must be >= 0");
  if (options.share.parts == 0 || options.share.part >= options.share.parts) {
    throw std::invalid_argument(fmt::format("a load share is part 0 … parts-1, not {} of {}",
                                            options.share.part, options.share.parts));
  }
  const auto& churn = options.churn;
  const double shares[] = {churn.fresh, churn.server_close, churn.abort};
  double sum = 0.0;
  for (const double share : shares) {
    if (!(share >= 0.0 && share <= 1.0)) {
      throw std::invalid_argument(fmt::format("a churn share must be in [0, 1], not {}", share));
    }
    sum += share;
  }
  if (sum > 1.0 + 1e-9) {
    throw std::invalid_argument(fmt::format("the churn shares add up to {} (> 1)", sum));
  }
}

Schedule::Schedule(Executor executor, const LoadOptions& o, LoadResult& result)
    : options(o), out(result), pacer(executor), waker(executor) {
  epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd < 0) {
    throw std::runtime_error(fmt::format("load: epoll_create1: {}", std::strerror(errno)));
  }
  const double span = std::chrono::duration<double>(options.duration).count();
  out = LoadResult{};
  out.started = options.start;
  closed_loop = options.rate == 0.0;
  ns_per_request = closed_loop ? 0.0 : 1e9 / options.rate;
  const double share_rate = options.rate / static_cast<double>(options.share.parts);
  burst_cap =
      closed_loop ? 0 : static_cast<std::uint32_t>(std::max(1.0, std::ceil(share_rate / 500)));
  end = closed_loop ? 0 : static_cast<std::uint64_t>(std::floor(options.rate * span));
  next = closed_loop ? 0 : options.share.part;
  out.requested = share_below(end);
  schedule_end = options.start + options.duration;
  send_until = schedule_end + options.send_grace;
  give_up = send_until + options.request_timeout + 5s;
  first_window_end = options.start + options.edge_window;
  last_window_start = schedule_end - options.edge_window;
  watch_every = std::clamp<Duration>(options.request_timeout / 20, Duration(1ms), Duration(50ms));
  next_watch = options.start;
  next_retry = kNever;
  seconds.resize(static_cast<std::size_t>(std::max(1.0, std::ceil(span))));
}

Schedule::~Schedule() {
  if (waker.is_open()) waker.release();
  if (epoll_fd >= 0) ::close(epoll_fd);
}

void Schedule::ask_stop_early() {
  if (stopped || !options.stop_early || !options.stop_early()) return;
  stopped = true;
  if (!closed_loop) end = next;  // the schedule ends here
}

std::optional<Clock::time_point> Schedule::next_due(Clock::time_point now) const {
  if (stopped || now >= send_until) return std::nullopt;
  if (closed_loop) return now < schedule_end ? std::optional(now) : std::nullopt;
  if (next >= end) return std::nullopt;
  return due(next);
}

std::optional<Ticket> Schedule::take_due(Clock::time_point now) {
  const auto at = next_due(now);
  if (!at || *at > now) return std::nullopt;
  const auto index = next;
  next += closed_loop ? 1 : options.share.parts;
  return Ticket{index, *at};
}

bool Schedule::over_burst_cap() {
  const auto now = Clock::now();
  if (burst_cap == 0 || now < options.start) return false;
  const auto ms = (now - options.start) / 1ms;
  if (ms != send_ms || sends_this_ms < burst_cap) return false;
  burst_wait = options.start + std::chrono::milliseconds(ms + 1);
  return true;
}

Clock::time_point Schedule::paced(Clock::time_point at) const {
  return std::max(on_tick(at), burst_wait);
}

Clock::time_point Schedule::on_tick(Clock::time_point at) const {
  if (options.tick <= Duration::zero() || at == kNever) return at;
  const auto ticks = (at - options.start + options.tick - 1ns) / options.tick;
  return options.start + std::max<Duration::rep>(0, ticks) * options.tick;
}

}  // namespace loiter::clients::load_detail
