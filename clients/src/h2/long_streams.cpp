// h2-long-response, h2-stream and h2-slow-reader: HTTP/1.1's must-not-cut exchanges as one
// h2 stream each (stream 1), beside the connection's other streams. Over HTTP/2 a server
// keeps its deadlines per stream (nginx arms client_header_timeout and send_timeout on each),
// so a long stream is not the connection: every beside_every the client opens another
// stream (GET path), as a browser keeps using a connection while a download runs, and each
// must be answered while the long one goes on. The long stream is whole at END_STREAM, or
// the record's RST_STREAM for stream 1 says it was cut; the connection is then left to the
// server (its idle deadline) until patience runs out.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/h2/stalls.hpp"
#include "steps.hpp"

namespace loiter::clients {

namespace {

constexpr std::uint32_t kLongStream = 1;

// The server reset the long stream (its RST_STREAM, among the kept first ones).
bool long_stream_reset(const ConnectionRecord& record) {
  return std::ranges::any_of(record.h2->resets,
                             [](const H2Reset& reset) { return reset.stream == kLongStream; });
}

// What the long stream's reader does at each of its steps: nothing (read at once), or open
// the stream's and the connection's windows by window_increment (h2-slow-reader).
struct LongStreamPlan {
  h2::Frames opening;
  Duration step{};            // between the reader's steps
  std::uint32_t increment{};  // 0: no window to open
};

// Every step: the long stream's window opened a little (if it is paced), and every
// beside_every a GET of path on the next stream; the steps end once every stream asked for is
// whole, the long one is reset, the connection ends, beside_most GETs are out or `until`.
// Returns the streams asked for, or nothing once there is nothing more to read (all whole, or
// the connection ended or failed).
awaitable<std::optional<std::size_t>> run_beside(Connection& connection, h2::Encoder& encoder,
                                                 const H2Options& options,
                                                 const LongStreamPlan& plan,
                                                 ConnectionRecord& record,
                                                 Clock::time_point until) {
  std::size_t asked = 1;  // the long stream
  std::uint32_t next_stream = kLongStream + 2;
  const auto start = Clock::now();
  auto next_beside = start + options.beside_every;
  auto next_step = plan.increment > 0 ? start + plan.step : Clock::time_point::max();
  // Each turn sends at least one frame and the turns are paced: bounded by `until` and by
  // beside_most plus the steps that fit before `until`.
  while (true) {
    const auto at = std::min({next_beside, next_step, until});
    if (at >= until) break;
    const Wait wait = co_await connection.read_until(at, asked);
    if (wait != Wait::deadline) co_return std::nullopt;
    if (long_stream_reset(record)) break;
    h2::Frames frames;
    bool completes = false;
    if (at == next_step) {
      frames.add(h2::window_update(kLongStream, plan.increment))
          .add(h2::window_update(0, plan.increment));
      next_step += plan.step;
    }
    if (at == next_beside) {
      next_beside += options.beside_every;
      if (asked - 1 < options.beside_most) {
        frames.add(h2::request(encoder, options, next_stream, "GET", options.path, true));
        // A beside stream's own window: its short answer must not wait for the long one's.
        if (plan.increment > 0) {
          frames.add(h2::window_update(next_stream, h2::kDefaultWindow))
              .add(h2::window_update(0, h2::kDefaultWindow));
        }
        next_stream += 2;
        ++asked;
        completes = true;
      } else if (plan.increment == 0) {
        break;  // nothing more to send: the last reads below
      }
    }
    if (frames.count == 0) continue;
    if (!co_await h2::send_frames(connection, record, frames, until, completes)) {
      co_return std::nullopt;
    }
  }
  co_return asked;
}

awaitable<void> long_stream_connection(Shared<H2Options> options, Slot slot, std::string_view kind,
                                       LongStreamPlan plan, std::string_view path) {
  auto connection = connection_for(co_await asio::this_coro::executor, *options, slot, kind);
  if (!co_await h2::connect_h2(connection, *options, slot)) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  h2::Encoder encoder;  // one per connection: the server mirrors its dynamic table
  plan.opening.add(h2::request(encoder, *options, kLongStream, "GET", path, true));
  if (co_await h2::send_frames(connection, slot.record, plan.opening, until, true)) {
    const auto asked = co_await run_beside(connection, encoder, *options, plan, slot.record, until);
    // The beside streams still owed (the long one too, unless reset) get the rest of
    // patience; then the connection is the server's to end.
    if (asked) {
      const auto owed = *asked - (long_stream_reset(slot.record) ? 1 : 0);
      co_await connection.read_until(until, owed);
    }
  }
  Connection::hold_until_closed(std::move(connection), until);
}

awaitable<void> h2_long_response_connection(Shared<H2Options> options, Slot slot) {
  const LongStreamPlan plan{.opening = h2::opening()};
  co_await long_stream_connection(options, std::move(slot), kH2LongResponse, plan,
                                  options->long_path);
}

awaitable<void> h2_stream_connection(Shared<H2Options> options, Slot slot) {
  const LongStreamPlan plan{.opening = h2::opening()};
  co_await long_stream_connection(options, std::move(slot), kH2Stream, plan, options->long_path);
}

awaitable<void> h2_slow_reader_connection(Shared<H2Options> options, Slot slot) {
  const LongStreamPlan plan{.opening = h2::opening(/*window_shut=*/true),
                            .step = options->interval,
                            .increment = static_cast<std::uint32_t>(options->window_increment)};
  co_await long_stream_connection(options, std::move(slot), kH2SlowReader, plan,
                                  options->large_path);
}

void require_long_path(const std::string& path, std::string_view kind, std::string_view what) {
  if (path.empty()) {
    throw std::invalid_argument(std::string(kind) + " needs " + std::string(what));
  }
}

}  // namespace

void spawn_h2_long_response(asio::io_context& io, const H2Options& options,
                            std::vector<ConnectionRecord>& out) {
  require_long_path(options.long_path, kH2LongResponse, "a slow handler's path (long_path)");
  spawn_kind(io, options, &h2_long_response_connection, out);
}

void spawn_h2_stream(asio::io_context& io, const H2Options& options,
                     std::vector<ConnectionRecord>& out) {
  require_long_path(options.long_path, kH2Stream, "a streamed response's path (long_path)");
  spawn_kind(io, options, &h2_stream_connection, out);
}

void spawn_h2_slow_reader(asio::io_context& io, const H2Options& options,
                          std::vector<ConnectionRecord>& out) {
  require_long_path(options.large_path, kH2SlowReader, "a large response's path (large_path)");
  spawn_kind(io, options, &h2_slow_reader_connection, out);
}

}  // namespace loiter::clients
