// The helpers and the sentences of findings that finding.cpp's table of codes uses, by
// family: a connection's ending against its deadline (finding_endings.cpp), the server's
// resources, its regular traffic and floods (finding_resources.cpp). Private to reports.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "loiter/reports/finding.hpp"

namespace loiter::reports::finding_words {

// "silent: " for one kind of a mix; nothing for every connection.
inline std::string of_subject(const Finding& f) {
  return f.subject.empty() ? "" : f.subject + ": ";
}

// "3/4": how many, out of how many.
inline std::string ratio(const Finding& f) {
  return fmt::format("{}/{}", f.count.value_or(0), f.of.value_or(0));
}

inline double measured(const Finding& f) { return f.measured.value_or(0); }
inline double bound(const Finding& f) { return f.bound.value_or(0); }

// A count carried as a number: "44".
inline std::string whole(double value) { return fmt::format("{:.0f}", value); }
// A finding made while loiter's own thread was short of CPU: "" when it was not. A latency
// finding is the load thread's; connections not held at once, the fleet's.
inline std::string client_limit(const Finding& f) {
  if (!f.client_busy) return {};
  if (f.code == codes::kNotHeldAtOnce) {
    return fmt::format(
        "; a client limit: the thread of loiter's that drove these connections wanted a CPU "
        "{:.0f}% of the run, so their lateness is loiter's as much as the server's (fewer "
        "connections, or give loiter a core of its own)",
        *f.client_busy * 100);
  }
  return fmt::format(
      "; a client limit: loiter's load thread wanted a CPU {:.0f}% of the load's wall time, so "
      "{} loiter's as much as the server's (lower --load-rate, or give loiter a core of its own)",
      *f.client_busy * 100, f.code == codes::kNon2xx ? "these timeouts are" : "this latency is");
}

// What a finding's since and limit say in its sentence: "the last response", " (the
// client's RLIMIT_NOFILE)".
std::string_view since_words(Since since);
std::string_view limit_words(ConnectLimit limit);

// A deadline named by the target's key, with the value it declares: "[h3] header = 2.000 s".
inline std::string key_words(const Finding& f, double value) {
  return fmt::format("{} = {:.3f} s", f.deadline_key, value);
}
// What an HTTP/3 deadline's finding counts: a request stream's deadline, streams; the
// others, connections.
inline std::string_view counted(const Finding& f) {
  const bool stream = f.since == Since::stream_open || f.since == Since::stream_headers ||
                      f.since == Since::stream_request;
  return stream ? "streams" : "connections";
}

// A connection's ending against its deadline.
std::string still_open(const Finding& f);
std::string ended_before_origin(const Finding& f);
std::string closed_outside(const Finding& f, std::string_view how, std::string_view extreme);
std::string probe_unanswered(const Finding& f);
std::string probe_answered(const Finding& f);
std::string idle_advertised(const Finding& f);
std::string amplification(const Finding& f);
std::string wrong_ending(const Finding& f);
std::string cut_off(const Finding& f);
std::string not_held_at_once(const Finding& f);
std::string outlived_by_progress(const Finding& f);

// finding_udp.cpp: what the server's UDP socket dropped meanwhile, after any code's
// sentence: "" where the finding holds no such figure.
std::string udp_drops_words(const Finding& f);

// The server's death, its resources, its regular traffic, the floods.
std::string server_exited(const Finding& f);
std::string non_2xx(const Finding& f);
std::string leftovers(const Finding& f);
std::string fds_not_recovered(const Finding& f);
std::string slope_over_bound(const Finding& f);
std::string fds_during_load(const Finding& f);
std::string flood_not_ended(const Finding& f);
std::string flood_over_frames(const Finding& f);
std::string flood_goaway_code(const Finding& f);
std::string flood_close_code(const Finding& f);
std::string control_unanswered(const Finding& f);

}  // namespace loiter::reports::finding_words
