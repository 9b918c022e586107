// The survey document: what `loiter survey` measured a server to do with stalled clients,
// as plain data. It is the interface between measuring (suites/survey) and everything that
// reads a survey: the console table, survey.html, survey.json, the drafted target file
// (--write) and the comparison of two surveys (`loiter compare`). Nothing here measures.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loiter::reports {

inline constexpr std::string_view kSurveySchema = "loiter-survey/1";

// What the survey spoke: HTTP/1.1 in cleartext or over TLS, HTTP/2 (h2c, or h2 over TLS:
// Survey::tls says which), or HTTP/3 over QUIC (TLS 1.3 inside; Survey::tls is false). In
// survey.json by its word: "http1", "tls", "h2", "h3".
enum class SurveyProtocol { http1, tls, h2, h3 };
inline constexpr std::array kSurveyProtocols{SurveyProtocol::http1, SurveyProtocol::tls,
                                             SurveyProtocol::h2, SurveyProtocol::h3};
std::string_view to_string(SurveyProtocol protocol);

// A measured time over the probe's connections that agreed, seconds.
struct Spread {
  double min = 0;
  double median = 0;
  double max = 0;
  bool operator==(const Spread&) const = default;
};

// How a probe's connection ended. In survey.json by its word: the server's ending ("close",
// "reset", "alert", "gone"), alone, after a response it sent unasked ("408+close") or after its
// GOAWAY ("goaway+close"); "goaway" (a GOAWAY, the connection left open after it);
// "rst-stream" (the server reset the probe's stream); "answered" (a slow reader read its
// response whole); "open" (still open when the probe's wait ran out); "connect-failed",
// "client-abort", "client-close"; "" where nothing was measured.
struct SurveyEnding {
  enum class Way : std::uint8_t {
    none,
    close,
    reset,
    alert,
    gone,
    goaway,
    rst_stream,
    answered,
    open,
    connect_failed,
    client_abort,
    client_close,
  };
  Way way = Way::none;
  unsigned status = 0;        // the server's ending: the response it sent first, unasked; 0: none
  bool after_goaway = false;  // the server's ending: its GOAWAY came first

  // close, reset, alert or gone: the server ended the connection, whatever came first.
  bool by_server() const;
  // by_server(), or the server ended the probe's stream (rst-stream).
  bool by_server_or_stream() const;
  bool operator==(const SurveyEnding&) const = default;
};
std::string to_string(const SurveyEnding& ending);
std::ostream& operator<<(std::ostream& out, const SurveyEnding& ending);  // to_string's word
// The ending `word` says ("408+close"); nullopt for a word no ending has.
std::optional<SurveyEnding> survey_ending_of(std::string_view word);
// The words survey_ending_of() reads, for an error that refuses another.
std::string_view survey_ending_words();

// What a target file's on_header_timeout or on_body_timeout promises that an ending keeps:
// "408" for 408+close or 408+reset, "close" for close or reset; none for any other.
enum class TimeoutAnswer { none, respond_408, close };
TimeoutAnswer answer_of(const SurveyEnding& ending);
std::string_view to_string(TimeoutAnswer answer);  // "408", "close"; "" for none

// Where a measure's deadline runs from: idle-reused "connect" or "last-response"; next-head
// "first-byte", "last-response", "never" (a second head has no deadline of its own) or
// "other"; tls-header-from "connect", "handshake" or "other". For h2-idle and a flood, how the
// server ended the connection: by a GOAWAY, in survey.json its code's name ("NO_ERROR"), or
// "none" (without one). "" for any other measure.
struct RunsFrom {
  enum class Origin : std::uint8_t {
    none,
    connect,
    last_response,
    first_byte,
    handshake,
    never,
    other,
    goaway,
    no_goaway,
  };
  Origin origin = Origin::none;
  std::string goaway_code;  // Origin::goaway: its code's name ("NO_ERROR", "error 0x1f")
  bool operator==(const RunsFrom&) const = default;
};
std::string to_string(const RunsFrom& runs_from);
std::ostream& operator<<(std::ostream& out, const RunsFrom& runs_from);  // to_string's word
// What `word` says ("last-response", "NO_ERROR"); nullopt for a word that is neither one of
// the origins' nor a GOAWAY code's name (capitals, digits and '_', or "error 0x" and hex).
std::optional<RunsFrom> runs_from_of(std::string_view word);
std::string_view runs_from_words();  // the words runs_from_of() reads

// How many of a probe's connections ended one way.
struct EndingCount {
  SurveyEnding ending;
  std::size_t count = 0;
  bool operator==(const EndingCount&) const = default;
};

// One probe's answer: a few connections of one client kind, each timed from its own origin.
// Measure ids are stable (compare and --write look them up):
//   header-silent        a connection that sends nothing (over TLS: no ClientHello), from connect
//   header-partial       a request head stopped halfway, from connect
//   header-bytes         the head trickled a byte at a time (interval below header-partial)
//   header-lines         the head trickled a whole header line at a time
//   body-partial         a body stopped halfway, from the end of the head
//   body-trickle         the body trickled a byte at a time, from the end of the head
//   idle                 a kept-alive connection left idle, from the last response
//   idle-reused          the same connection reused at intervals below `idle`: from connect?
//   next-head            a second head stopped halfway, from its first byte
//   send-stopped         a reader that stops reading a large response, from when the writes stalled
//   send-slow            a reader that reads slowly but steadily, from the request
//   tls-handshake        a ClientHello stopped halfway, from connect
//   tls-hello-trickle    the ClientHello trickled a byte at a time
//   tls-header-from      a head stopped halfway after a handshake begun late, from connect
//   h2-preface           the connection preface stopped partway, from connect
//   h2-settings-ack      the server's SETTINGS never acknowledged, from connect
//   h2-idle              an idle connection after one answered stream, from that answer
//   h2-headers-no-end    a HEADERS frame whose header block never ends, from connect
//   h2-rapid-reset, h2-continuation-flood, h2-settings-flood, h2-ping-flood
//                        (--floods) each flood on one connection: when the server ended it
// Over HTTP/2, body-partial, body-trickle and send-stopped are a stream's (h2-data-trickle,
// h2-zero-window), timed from its HEADERS. Over HTTP/3 (QUIC):
//   h3-handshake         a first Initial carrying half a ClientHello: a second Initial at a
//                        time of its own per connection asks whether the server still holds it,
//                        from that first Initial (a bracket: `seconds` min is the latest time
//                        it was held, max the earliest it was gone, median between)
//   h3-idle              a connection left quiet after its handshake: a PING per connection at
//                        a time of its own, from the client's last packet (a bracket, as
//                        h3-handshake; or the server's CONNECTION_CLOSE, timed); `advertised`
//                        is the server's max_idle_timeout
//   h3-header            a request stream whose HEADERS frame stops halfway, from its open
//   h3-header-trickle    that HEADERS frame a byte at a time (interval below h3-header's time)
//   h3-body              a POST's HEADERS whose body never comes, from its HEADERS
//   h3-send              a GET whose stream window is never opened, from the request
//   h3-control-close     the client's control stream closed (FIN): how the server ended the
//                        connection (RFC 9114 6.2.1: H3_CLOSED_CRITICAL_STREAM), from the
//                        handshake's end
struct SurveyMeasure {
  std::string id;         // one of the ids above
  std::string title;      // "a silent connection": what was probed, for a person
  std::string kind;       // the client kind used ("silent", "header-trickle", ...)
  std::string from;       // what `seconds` runs from: "connect", "end of head", ...
  std::string interval;   // a paced probe: its pace ("a byte every 0.90 s"); empty otherwise
  std::size_t connections = 0;  // probed
  // The connections the figure stands for: those that ended the most common way (`ending`),
  // and where it is a time, within the probe's slack of the median.
  std::size_t agreed = 0;
  // The time to the server's ending over the agreeing connections; nullopt where they were
  // still open when the wait ran out ("none within 120 s": a result, not an error).
  std::optional<Spread> seconds;
  SurveyEnding ending;               // the agreeing connections' ending
  std::vector<EndingCount> endings;  // every ending seen, most common first
  // A progress probe: whether the progress extended the deadline its stalled twin met
  // (header-bytes against header-partial, ...); nullopt: not a progress probe, or nothing
  // to compare against.
  std::optional<bool> extends;
  RunsFrom runs_from;    // where its deadline runs from, or its GOAWAY (RunsFrom)
  // h3-idle: the max_idle_timeout the server advertised, s (0: it disabled its idle timeout);
  // nullopt for any other measure, or where no handshake was done.
  std::optional<double> advertised;
  std::string exposure;  // what it exposes, for a person: "a byte every 1.90 s holds ..."
  std::string note;      // anything else a reader needs ("the listener held them in SYN_RECV")
  // Why nothing was measured ("no echo path: give --echo PATH"); the rest is empty then.
  std::string not_measured;
  bool operator==(const SurveyMeasure&) const = default;
};

// The server's processes (the one loiter started, or --pid's tree): descriptors and memory
// before the first probe, at their peak, and once the probes' connections were gone.
struct SurveyServer {
  int pid = 0;
  std::size_t fds_before = 0;
  std::size_t fds_peak = 0;
  std::size_t fds_after = 0;
  bool fds_back = true;  // back to fds_before within the wait after the last probe
  double rss_before_mib = 0;
  double rss_peak_mib = 0;
  bool operator==(const SurveyServer&) const = default;
};

struct Survey {
  std::string schema = std::string(kSurveySchema);
  std::string loiter_version;
  std::string target;       // the target's name, or the --connect endpoint's text
  std::string endpoint;     // "127.0.0.1:8080"
  SurveyProtocol protocol = SurveyProtocol::http1;
  bool tls = false;
  std::string started;      // UTC, "2026-12-03T11:00:00Z"
  double duration = 0;      // seconds the whole survey took
  std::size_t connections = 0;  // per probe
  double max_wait = 0;      // the cap on every wait, seconds
  double slack = 0;         // how far apart two times may be and still agree, seconds
  std::vector<SurveyMeasure> measures;  // in the order they are shown
  std::optional<SurveyServer> server;   // nullopt: --connect without --pid
  std::vector<std::string> problems;    // what went wrong around the survey (not the server)
  bool interrupted = false;             // stopped by the user: the measures are partial
  bool operator==(const Survey&) const = default;
};

// The measure with this id, or nullptr.
const SurveyMeasure* find_measure(const Survey& survey, std::string_view id);

}  // namespace loiter::reports
