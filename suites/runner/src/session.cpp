// The session's server: started or taken as it runs, probed, sampled, stopped.
#include "loiter/suites/runner/session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "loiter/fixtures/probe/sampler.hpp"
#include "loiter/suites/runner/interrupt.hpp"

namespace loiter::suites {

namespace {

std::optional<fixtures::Probe> running_probe(const RunningSide& running) {
  if (!running.pid) return std::nullopt;
  auto probe = running.endpoint ? fixtures::Probe(*running.pid, *running.endpoint)
               : running.port   ? fixtures::Probe(*running.pid, *running.port)
                                : fixtures::Probe(*running.pid);
  if (running.udp_port) probe = probe.with_udp(*running.udp_port);
  return probe;
}

}  // namespace

ServerSession::ServerSession(SessionPlan plan) : running_(std::move(plan.running)) {
  if (plan.start) {
    if (!plan.start_options.cancelled) plan.start_options.cancelled = [] { return interrupted(); };
    sut_ = std::make_unique<fixtures::ServerUnderTest>(*plan.start, std::move(plan.start_options));
    probe_.emplace(sut_->probe());
  } else {
    probe_ = running_probe(running_);
  }
  if (probe_ && plan.fd_types) probe_ = probe_->with_fd_types();
}

ServerSession::~ServerSession() = default;

std::optional<fixtures::TcpEndpoint> ServerSession::endpoint() const {
  return sut_ ? std::optional(sut_->endpoint()) : running_.endpoint;
}

std::optional<pid_t> ServerSession::pid() const {
  return sut_ ? std::optional(sut_->pid()) : running_.pid;
}

fixtures::Provenance ServerSession::provenance(const fixtures::Target& target) const {
  if (sut_) return fixtures::gather_provenance(*sut_);
  return fixtures::gather_provenance(target, running_.pid.value_or(0));
}

std::optional<std::string> ServerSession::exit_description() const {
  if (sut_) return sut_->exit_description();
  if (probe_ && probe_->tree().empty()) {
    return fmt::format("pid {} is gone (no process of it runs)", *running_.pid);
  }
  return std::nullopt;
}

void ServerSession::begin_sampling(std::chrono::milliseconds period,
                                   std::chrono::milliseconds tcp_period) {
  if (probe_ && !sampler_) {
    sampler_ = std::make_unique<fixtures::Sampler>(*probe_, period, tcp_period);
  }
}

std::vector<fixtures::TimedSample> ServerSession::samples_so_far() const {
  return sampler_ ? sampler_->so_far() : std::vector<fixtures::TimedSample>{};
}

std::vector<fixtures::TimedSample> ServerSession::end_sampling() {
  if (!sampler_) return {};
  auto timeline = sampler_->stop();
  sampler_.reset();
  return timeline;
}

std::optional<SessionStop> ServerSession::stop() {
  sampler_.reset();
  if (!sut_) return std::nullopt;
  SessionStop stopped{.how = sut_->stop(), .leftovers = sut_->leftovers()};
  return stopped;
}

TimelinePeaks peaks_of(const std::vector<fixtures::TimedSample>& timeline) {
  TimelinePeaks peaks;
  for (const auto& s : timeline) {
    peaks.fds = std::max(peaks.fds, s.sample.fds);
    peaks.rss_mib = std::max(peaks.rss_mib, static_cast<double>(s.sample.rss_kib) / 1024);
  }
  return peaks;
}

}  // namespace loiter::suites
