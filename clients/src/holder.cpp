#include "loiter/clients/holder.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <exception>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "loiter/clients/cost_span.hpp"
#include "loiter/clients/pinning.hpp"

namespace loiter::clients {

namespace {

// A connection still held: its record, and how many of its sends are counted already (so a
// look adds only the new ones, not every send of every connection again).
struct Live {
  ConnectionRecord* record = nullptr;
  std::size_t counted = 0;
};

// Each connection's patience reaches past the hold's end by this much: a connection is
// ended by the holder's stop, never by its own patience while the hold lasts.
constexpr Duration kPatiencePast = std::chrono::seconds(2);
constexpr std::size_t kMostOpenedPerHeld = 20;

// Connected: its TCP connect done, or over QUIC (whose record has no connect: connect_took 0
// from its first Initial) its handshake.
bool connected(const ConnectionRecord& record) {
  if (record.ending == Ending::connect_failed) return false;
  return record.connect_took > Duration::zero() || (record.h3 && record.h3->handshake_done);
}

}  // namespace

struct Holder::State {
  HolderPlan plan;
  std::size_t most_opened = 0;
  // Every generation's records, kept for the holder's life: a parked connection refers to its
  // record until the io_context goes (declared before it, so destroyed after it).
  std::deque<std::vector<ConnectionRecord>> generations;
  std::vector<Live> live;
  HolderFigures figures;  // the io thread's
  std::uint64_t bytes_counted = 0;

  mutable std::mutex mutex;
  mutable std::condition_variable looked;  // each look's figures published
  HolderFigures published;

  std::unique_ptr<asio::io_context> io = std::make_unique<asio::io_context>(1);
  std::thread thread;
  std::exception_ptr error;
  std::atomic<double> busy{0};
  bool stopped = false;

  // A generation of `count` connections from now, each from a source of its own.
  void spawn(std::size_t count) {
    auto fleet = plan.fleet;
    const auto now = Clock::now();
    fleet.count = count;
    fleet.source_offset = plan.fleet.source_offset + static_cast<std::size_t>(figures.opened);
    if (figures.opened > 0) fleet.pacing.start = now;
    fleet.patience = std::max<Duration>(plan.until - now, Duration::zero()) + kPatiencePast;
    auto& out = generations.emplace_back();
    plan.kind->spawn(*io, fleet, plan.settings, out);
    for (auto& record : out) live.push_back({.record = &record});
    figures.opened += count;
  }

  // Counts what ended since the last look, replaces it (until the hold's end or its bound),
  // and publishes the figures.
  void look() {
    std::size_t ended = 0, open = 0;
    std::erase_if(live, [&](Live& entry) {
      auto& record = *entry.record;
      for (; entry.counted < record.sends.size(); ++entry.counted) {
        bytes_counted += record.sends[entry.counted].bytes;
      }
      if (record.ending == Ending::open) {
        if (connected(record)) ++open;
        return false;
      }
      ++ended;
      if (!connected(record)) ++figures.connect_failures;
      return true;
    });
    figures.ended += ended;
    figures.open = open;
    const auto now = Clock::now();
    if (!figures.reached && open >= plan.fleet.count) figures.reached = now;
    if (ended > 0 && now < plan.until) {
      const auto room = most_opened - std::min<std::uint64_t>(most_opened, figures.opened);
      const auto count = std::min<std::uint64_t>(ended, room);
      if (count < ended) figures.exhausted = true;
      if (count > 0) {
        figures.reopened += count;
        spawn(static_cast<std::size_t>(count));
      }
    }
    figures.bytes_sent = bytes_counted;
    {
      const std::lock_guard lock(mutex);
      figures.open_low = std::min(published.open_low, open);
      published = figures;
    }
    looked.notify_all();
  }

  awaitable<void> watch() {
    Timer timer(co_await asio::this_coro::executor);
    while (true) {
      timer.expires_after(plan.look);
      co_await timer.async_wait(as_values);
      look();
    }
  }
};

Holder::Holder(HolderPlan plan) : state_(std::make_unique<State>()) {
  if (plan.kind == nullptr) throw std::invalid_argument("a holder needs a client kind");
  if (plan.fleet.count == 0) throw std::invalid_argument("a holder holds at least one connection");
  require_spawnable(plan.fleet);
  auto& state = *state_;
  state.most_opened =
      plan.most_opened != 0 ? plan.most_opened : kMostOpenedPerHeld * plan.fleet.count;
  state.plan = std::move(plan);
  state.spawn(state.plan.fleet.count);
  asio::co_spawn(*state.io, state.watch(), rethrow_error);
  state.thread = std::thread([&state] {
    try {
      pin_this_thread(state.plan.cpus);
      const CostSpan span;
      state.io->run();
      state.busy = span.until_now().busy;
    } catch (...) {
      state.error = std::current_exception();
    }
  });
}

Holder::~Holder() {
  try {
    stop();
  } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor reports nothing
  }
}

HolderFigures Holder::figures() const {
  const std::lock_guard lock(state_->mutex);
  return state_->published;
}

HolderFigures Holder::wait_for_open(std::size_t count, Clock::time_point deadline,
                                    const std::function<bool()>& cancelled) const {
  std::unique_lock lock(state_->mutex);
  state_->looked.wait_until(lock, deadline, [&] {
    return state_->published.open >= count || (cancelled && cancelled());
  });
  return state_->published;
}

void Holder::mark_low() {
  const std::lock_guard lock(state_->mutex);
  state_->published.open_low = state_->published.open;
}

void Holder::stop() {
  auto& state = *state_;
  if (state.stopped) return;
  state.stopped = true;
  state.io->stop();
  if (state.thread.joinable()) state.thread.join();
  busy_ = state.busy;
  state.io.reset();  // closes every connection still held; the records stay
  if (state.error) std::rethrow_exception(state.error);
}

}  // namespace loiter::clients
