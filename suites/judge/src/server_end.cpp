// How the server ended what a closure is about: the connection, or over HTTP/2 the stream
// the client stalled (a RST_STREAM or an answer ends it before any close), and the words a
// finding adds to an HTTP/2 ending: the GOAWAY's code, or its absence.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>

#include "checks.hpp"

namespace loiter::suites {

// Over HTTP/2 a server ends a connection with its GOAWAY (RFC 9113 6.8); the close that
// follows may wait for the client to close first (Go's and Caddy's wait 1 s). A connection
// the server did close is timed from its GOAWAY; one left open after it is still open.
Duration server_ended_at(const clients::ConnectionRecord& r) {
  if (r.h2 && r.h2->goaway && checks::ended_by_server(r)) {
    return std::min(r.h2->goaway->at, r.ended_at);
  }
  return r.ended_at;
}

}  // namespace loiter::suites

namespace loiter::suites::checks {

namespace {

ServerEnd connection_end(const ConnectionRecord& r) {
  return {.by_server = ended_by_server(r),
          .open = r.ending == Ending::open,
          .at = server_ended_at(r),
          .label = clients::ending_of(r)};
}

// The first of the stream's endings the server chose; the connection's when it chose none.
ServerEnd stream_end(const ConnectionRecord& r) {
  std::optional<ServerEnd> first;
  const auto consider = [&first](Duration at, clients::EndingLabel label) {
    if (!first || at < first->at) first = ServerEnd{.by_server = true, .at = at, .label = label};
  };
  for (const auto& response : r.responses) {
    if (!response.complete) continue;
    consider(*response.complete, clients::ends::stream_answered(response.status));
    break;
  }
  if (r.h2 && !r.h2->resets.empty()) consider(r.h2->resets.front().at, clients::ends::stream_reset);
  // HTTP/3: RESET_STREAM or STOP_SENDING on the stalled stream.
  if (r.h3 && !r.h3->stream_ends.empty()) {
    consider(r.h3->stream_ends.front().at, clients::ends::stream_reset);
  }
  if (ended_by_server(r)) consider(server_ended_at(r), clients::ending_of(r));
  if (first) return *first;
  return connection_end(r);
}

}  // namespace

ServerEnd server_end(const ConnectionRecord& r, bool stream) {
  return stream ? stream_end(r) : connection_end(r);
}

// HTTP/3: the server's stream frames, CONNECTION_CLOSE or stateless reset, in words. A
// stream the server reset (or stopped) is the server's act and leads, with its code; a kind
// closes the connection itself once its stream was ended, which is said as what followed, not
// as the ending: "rst-stream (the server's RESET_STREAM H3_REQUEST_CANCELLED, then the
// client's close)".
std::string h3_words(const ConnectionRecord& r, clients::EndingLabel label) {
  std::vector<std::string> facts;
  if (!r.h3->stream_ends.empty()) {
    const auto& end = r.h3->stream_ends.front();
    facts.push_back(fmt::format("the server's {} {}",
                                end.stop_sending ? "STOP_SENDING" : "RESET_STREAM",
                                clients::h3_error_name(end.code)));
    if (!ended_by_server(r)) label = clients::ends::stream_reset;
  }
  if (const auto& close = r.h3->close) {
    facts.push_back(fmt::format("CONNECTION_CLOSE {}",
                                clients::h3_error_name(close->code, close->application)));
  } else if (r.h3->stateless_reset) {
    facts.emplace_back("stateless reset");
  } else if (r.ending == Ending::gone && !r.h3->probes.empty()) {
    facts.push_back(fmt::format("no answer to a probe at {:.3f} s",
                                std::chrono::duration<double>(r.h3->probes.back().at).count()));
  }
  if (facts.empty()) return to_string(label);
  const auto followed = !r.h3->stream_ends.empty() && r.ending == Ending::client_close
                            ? std::string(", then the client's close")
                            : std::string();
  return fmt::format("{} ({}{})", to_string(label), fmt::join(facts, "; "), followed);
}

std::string ending_words(const ConnectionRecord& r, const clients::EndingLabel& label) {
  if (r.h3) return h3_words(r, label);
  if (!r.h2) return to_string(label);
  std::vector<std::string> facts;
  if (const auto& goaway = r.h2->goaway) {
    facts.push_back(fmt::format("GOAWAY {}, last stream {}", clients::h2_error_name(goaway->code),
                                goaway->last_stream));
  } else if (ended_by_server(r)) {
    facts.emplace_back("without GOAWAY");
  }
  if (!r.h2->resets.empty()) {
    facts.push_back(
        fmt::format("RST_STREAM {}", clients::h2_error_name(r.h2->resets.front().code)));
  }
  if (facts.empty()) return to_string(label);
  return fmt::format("{} ({})", to_string(label), fmt::join(facts, "; "));
}

}  // namespace loiter::suites::checks

namespace loiter::suites {

std::optional<Duration> server_end_time(const clients::ConnectionRecord& record, bool stream) {
  const auto end = checks::server_end(record, stream);
  if (!end.by_server) return std::nullopt;
  return end.at;
}

std::optional<clients::EndingLabel> server_end_label(const clients::ConnectionRecord& record,
                                                     bool stream) {
  const auto end = checks::server_end(record, stream);
  if (!end.by_server) return std::nullopt;
  return end.label;
}

}  // namespace loiter::suites
