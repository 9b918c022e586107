// The sentences of findings about a connection's ending against its deadline: still open,
// closed early or late, cut off, outlived by progress, not held at once, and HTTP/3's probes.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "finding_words.hpp"

namespace loiter::reports::finding_words {

// "100/100 connections still open when the client stopped watching, 4.000 s after connect
// (deadline 2.000 s from the request head): the server had not ended them by then"; with
// the response the server sent unasked: "... were answered 408 2.000 s after the request head
// (deadline 2.000 s from it) but still open when ...: the server sent its 408 and never
// closed".
// Named by the target's key (HTTP/3), from the deadline's own origin: "1/50 streams stayed
// open 6.100 s from the stream's open, past [h3] header = 2.000 s: the server had not ended
// them when the client stopped watching".
std::string still_open(const Finding& f) {
  if (!f.deadline_key.empty()) {
    return fmt::format(
        "{}{} {} stayed open {:.3f} s from {}, past {}: the server had not ended them when the "
        "client stopped watching",
        of_subject(f), ratio(f), counted(f), measured(f), since_words(f.since),
        key_words(f, bound(f)));
  }
  if (f.status && f.answered_at) {
    return fmt::format(
        "{}{} connections were answered {} {:.3f} s after {} (deadline {:.3f} s from it) but "
        "still open when the client stopped watching, {:.3f} s after connect: the server sent "
        "its {} and never closed",
        of_subject(f), ratio(f), *f.status, *f.answered_at, since_words(f.since), bound(f),
        measured(f), *f.status);
  }
  return fmt::format(
      "{}{} connections still open when the client stopped watching, {:.3f} s after connect "
      "(deadline {:.3f} s from {}): the server had not ended them by then, and what it did "
      "later loiter did not see",
      of_subject(f), ratio(f), measured(f), bound(f), since_words(f.since));
}

std::string ended_before_origin(const Finding& f) {
  return fmt::format("{}{} connections ended ({}) before {}, the moment their deadline runs from",
                     of_subject(f), ratio(f), f.ending, since_words(f.since));
}

// "closed early, before 0.750 s (earliest 0.100 s; deadline 1.000 s ± 0.250 s from connect)";
// with a named deadline, the cause first: "closed early, 1.000 s after the last response
// (before 1.750 s): the idle deadline runs from the last response (2.000 s ± 0.250 s)"; one
// whose closes all came at the deadline counted from connect says so: "..., 0.996 s after the
// last response (before 1.750 s) but 2.003 s after connect: at the idle deadline (2.000 s ±
// 0.250 s) counted from connect, where it runs from the last response".
std::string closed_outside(const Finding& f, std::string_view how, std::string_view extreme) {
  // Named by the target's key (HTTP/3): "3/50 streams ended late, 2.600 s after the stream's
  // open (after 2.250 s): past [h3] header = 2.000 s ± 0.250 s from the stream's open".
  if (!f.deadline_key.empty()) {
    return fmt::format(
        "{}{} {} ended {}, {:.3f} s after {} ({} {:.3f} s): {} {} ± {:.3f} s from {}",
        of_subject(f), ratio(f), counted(f), how, measured(f), since_words(f.since), extreme,
        bound(f), extreme == "after" ? "past" : "before", key_words(f, f.deadline.value_or(0)),
        f.slack.value_or(0), since_words(f.since));
  }
  if (!f.deadline_name.empty() && f.after_connect && f.since != Since::connect) {
    return fmt::format(
        "{}{} connections closed {}, {:.3f} s after {} ({} {:.3f} s) but {:.3f} s after "
        "connect: at the {} deadline ({:.3f} s ± {:.3f} s) counted from connect, where it runs "
        "from {}",
        of_subject(f), ratio(f), how, measured(f), since_words(f.since), extreme, bound(f),
        *f.after_connect, f.deadline_name, f.deadline.value_or(0), f.slack.value_or(0),
        since_words(f.since));
  }
  if (!f.deadline_name.empty()) {
    return fmt::format(
        "{}{} connections closed {}, {:.3f} s after {} ({} {:.3f} s): the {} deadline runs "
        "from {} ({:.3f} s ± {:.3f} s)",
        of_subject(f), ratio(f), how, measured(f), since_words(f.since), extreme, bound(f),
        f.deadline_name, since_words(f.since), f.deadline.value_or(0), f.slack.value_or(0));
  }
  const auto words = fmt::format(
      "{}{} connections closed {} {:.3f} s ({} {:.3f} s; deadline {:.3f} s ± {:.3f} s from {})",
      of_subject(f), ratio(f), how, bound(f), extreme, measured(f), f.deadline.value_or(0),
      f.slack.value_or(0), since_words(f.since));
  if (!f.accept_waited) return words;
  return fmt::format(
      "{}: for {} of them the server's accept queue still held connections (up to {} of "
      "backlog {}) a deadline before they closed, so a deadline the server starts at its accept "
      "ran late from connect (a slow accept loop, or one that stops at a connection limit)",
      words, *f.accept_waited, f.accept_queue.value_or(0), f.backlog.value_or(0));
}

// HTTP/3: a probe before the deadline found the connection gone, or one after it found it
// still held; each names the key that declares the deadline where the finding has it.
std::string probe_unanswered(const Finding& f) {
  if (!f.deadline_key.empty()) {
    return fmt::format(
        "{}{} connections no longer answered a probe sent {:.3f} s after {}, before the "
        "window of {} ± {:.3f} s opened ({:.3f} s): the server dropped them early",
        of_subject(f), ratio(f), measured(f), since_words(f.since),
        key_words(f, f.deadline.value_or(0)), f.slack.value_or(0), bound(f));
  }
  return fmt::format(
      "{}{} connections no longer answered a probe sent {:.3f} s after {}, before the {} "
      "deadline's window opened ({:.3f} s; deadline {:.3f} s ± {:.3f} s): the server dropped "
      "them early",
      of_subject(f), ratio(f), measured(f), since_words(f.since), f.deadline_name, bound(f),
      f.deadline.value_or(0), f.slack.value_or(0));
}

std::string probe_answered(const Finding& f) {
  if (!f.deadline_key.empty()) {
    return fmt::format(
        "{}{} connections still answered a probe sent {:.3f} s after {}, past {}: the server "
        "still held them",
        of_subject(f), ratio(f), measured(f), since_words(f.since), key_words(f, bound(f)));
  }
  return fmt::format(
      "{}{} connections still answered a probe sent {:.3f} s after {}, past the {} deadline "
      "({:.3f} s): the server still held them",
      of_subject(f), ratio(f), measured(f), since_words(f.since), f.deadline_name, bound(f));
}

std::string idle_advertised(const Finding& f) {
  const auto advertised =
      measured(f) == 0 ? std::string("0 (no idle timeout)") : fmt::format("{:.3f} s", measured(f));
  return fmt::format(
      "{}{} connections were told max_idle_timeout {} by the server, which promises {:.3f} s",
      of_subject(f), ratio(f), advertised, bound(f));
}

std::string amplification(const Finding& f) {
  return fmt::format(
      "{}{} connections got more than {:.0f}x the bytes they sent before their address was "
      "validated: at most {:.2f}x (RFC 9000 8.1 allows three)",
      of_subject(f), ratio(f), bound(f), measured(f));
}

std::string wrong_ending(const Finding& f) {
  return fmt::format("{}{} connections ended as {}, expected {}", of_subject(f), ratio(f), f.ending,
                     fmt::join(f.expected_endings, " or "));
}

// "1/2 connections were cut off before 1 whole 200 response(s) came, ended as close at the
// median 4.000 s after connect: the exchange, meant to outlast the 2.000 s deadline, must not
// be cut"; readers still reading when cut (read_gap) are named as such: "100/100 slow but
// steady readers were cut off ... while still reading (their last bytes 0.200 s before the
// cut): a reader that keeps making progress must not be cut, ...".
std::string cut_off(const Finding& f) {
  const auto what = f.responses ? fmt::format("before {} whole {} response(s) came", *f.responses,
                                              f.status.value_or(200))
                                : std::string("by the server before the client closed it");
  if (f.read_gap) {
    const auto reading = *f.read_gap < 0.0005
                             ? std::string("bytes still arriving up to the cut")
                             : fmt::format("their last bytes {:.3f} s before the cut", *f.read_gap);
    return fmt::format(
        "{}{} slow but steady readers were cut off {}, ended as {} at the median {:.3f} s after "
        "connect while still reading ({}): a reader that keeps making progress must not be "
        "cut, however far past the {:.3f} s deadline its response runs",
        of_subject(f), ratio(f), what, f.ending, measured(f), reading, bound(f));
  }
  // A bound of 0: nothing to outlast but the client's own requests (keepalive-reuse).
  const auto outlast =
      bound(f) > 0 ? fmt::format("exchange, meant to outlast the {:.3f} s deadline,", bound(f))
                   : std::string("exchange");
  return fmt::format(
      "{}{} connections were cut off {}, ended as {} at the median {:.3f} s after connect: the "
      "{} must not be cut",
      of_subject(f), ratio(f), what, f.ending, measured(f), outlast);
}

namespace {

// Why connections that had connected before the first re-check were answered after it, as
// the server's accept queue showed it: a cap (connections waited there while the server took
// none of them, its FDs flat), a slow accept loop (it drained the queue, slowly), or late first
// answers to connections it had accepted (the queue stayed empty); without TCP samples, either.
// `who` names them: "all had connected before it", or "12 of them had connected before it".
std::string answered_late(const Finding& f, const std::string& who) {
  if (!f.accept_queue) {
    return fmt::format(
        "{}: the server answered their first request late (a slow accept loop, or slow first "
        "requests)",
        who);
  }
  if (*f.accept_queue == 0) {
    return fmt::format(
        "{}, and none waited in the server's accept queue: it accepted them at once but "
        "answered their first request late (slow first requests)",
        who);
  }
  const auto baseline = f.baseline.value_or(0), peak = f.peak.value_or(0);
  const auto held = peak > baseline ? peak - baseline : 0;
  if (f.accept_stalled.value_or(0) > 0) {
    return fmt::format(
        "{}, but up to {} waited in the server's accept queue (backlog {}), where for {:.1f} s "
        "it took none of them, while it held about {} connections (its FDs {}→{}): the server "
        "stops accepting at about {} open connections (a worker or connection limit, as nginx's "
        "worker_connections or Apache's MaxRequestWorkers)",
        who, *f.accept_queue, f.backlog.value_or(0), *f.accept_stalled, held, baseline, peak,
        held);
  }
  return fmt::format(
      "{}, but up to {} waited in the server's accept queue (backlog {}), which it kept taking "
      "from, slowly (its FDs {}→{}): a slow accept loop",
      who, *f.accept_queue, f.backlog.value_or(0), baseline, peak);
}

}  // namespace

std::string not_held_at_once(const Finding& f) {
  const auto late = f.connected_late.value_or(0);
  auto why = late == 0 ? answered_late(f, "all had connected before it")
                       : fmt::format(
                             "{} connected only after it, and at most {} of {} were connected at "
                             "the same time: the fleet opened slower than planned; ask fewer "
                             "connections, or declare a longer idle deadline (--idle-timeout) "
                             "for a slower opening",
                             late, f.most_at_once.value_or(0), f.connections.value_or(0));
  // Some connected late, others in time and were still answered late: the server's cause too.
  if (late > 0 && f.count.value_or(0) > late) {
    why += "; and " + answered_late(f, fmt::format("{} of them had connected before it",
                                                   *f.count - late));
  }
  return fmt::format(
      "not every connection was held at once: {} answered their first request only after the "
      "first re-check was sent (the last {:.3f} s after it); {}{}",
      ratio(f), measured(f), why, client_limit(f));
}

// "3/4 connections outlived the 1.000 s deadline from connect while header lines kept
// arriving: up to 3 header lines by the deadline, the last at 1.900 s after connect"; named by
// the target's key (HTTP/3): "50/50 streams stayed open past [h3] header = 2.000 s from the
// stream's open while header bytes kept arriving: up to 5 header bytes by the deadline, the
// last 9.000 s after the stream's open: the deadline was extended by progress (or the server
// keeps none: a stall without progress tells which)". A server with no deadline at all (Caddy
// over HTTP/3) outlives a trickle too, so the sentence does not claim more than that.
std::string outlived_by_progress(const Finding& f) {
  if (!f.deadline_key.empty()) {
    return fmt::format(
        "{}{} {} stayed open past {} from {} while {}s kept arriving: up to {} {}s by the "
        "deadline, the last {:.3f} s after {}: the deadline was extended by progress (or the "
        "server keeps none: a stall without progress tells which)",
        of_subject(f), ratio(f), counted(f), key_words(f, bound(f)), since_words(f.since),
        f.progress, f.progress_by_deadline.value_or(0), f.progress, measured(f),
        since_words(f.since));
  }
  return fmt::format(
      "{}{} connections outlived the {:.3f} s deadline from {} while {}s kept arriving: up to {} "
      "{}s by the deadline, the last at {:.3f} s after {}",
      of_subject(f), ratio(f), bound(f), since_words(f.since), f.progress,
      f.progress_by_deadline.value_or(0), f.progress, measured(f), since_words(f.since));
}

}  // namespace loiter::reports::finding_words
