// The connection record's parts as Boost.Describe sees them: what record_json.cpp writes
// and reads member by member (reports/described_json.hpp), each under its own name.
// Private to the runner.
#pragma once

#include <array>
#include <boost/describe/class.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>

#include "loiter/clients/record.hpp"
#include "loiter/reports/described_json.hpp"

namespace loiter::clients {

BOOST_DESCRIBE_STRUCT(Send, (), (at, bytes))
BOOST_DESCRIBE_STRUCT(Progress, (), (at, bytes))
BOOST_DESCRIBE_STRUCT(Response, (), (status, reason, fields, started, complete, body_bytes))
BOOST_DESCRIBE_STRUCT(ReadPause, (), (from, until, filled, unsent, ended_while_paused))
BOOST_DESCRIBE_STRUCT(TlsRecord, (),
                      (handshake_done, handshake_sent, handshake_received, version, alpn, alert))
BOOST_DESCRIBE_STRUCT(H2Goaway, (), (at, last_stream, code, frames_sent))
BOOST_DESCRIBE_STRUCT(H2Reset, (), (at, stream, code))
BOOST_DESCRIBE_STRUCT(H2Record, (),
                      (server_settings, settings_ack, goaway, resets, reset_count, frames_sent,
                       frames_received, window_updates, latencies))
BOOST_DESCRIBE_STRUCT(H3Close, (), (at, code, application, reason))
BOOST_DESCRIBE_STRUCT(H3StreamEnd, (), (at, stream, code, stop_sending))
BOOST_DESCRIBE_STRUCT(H3Probe, (), (at, answered))
BOOST_DESCRIBE_STRUCT(H3Record, (),
                      (handshake_done, alpn, idle_advertised, server_settings, last_heard,
                       last_sent, close, stateless_reset, stream_ends, probes, remembered,
                       pings_sent, datagrams_sent, datagrams_received, bytes_sent, bytes_received,
                       unvalidated_received, unvalidated_sent, frames_sent, frames_at_close,
                       streams_opened, streams_refused, streams_answered, credit_stalled,
                       acks_withheld, retire_frames_received, path_responses_received,
                       latencies))
// All but its kind and connect_start (on the scenario's origin: RecordHead, before it), and
// its ending_label and errno (after it; "errno" is a macro's name, no member's): record_json.cpp
// writes those around it.
BOOST_DESCRIBE_STRUCT(ConnectionRecord, (),
                      (source, connect_took, sends, requests, first_byte, bytes_received, responses,
                       progress, pause, tls, h2, h3, ending, ended_at, client_closed, error))

}  // namespace loiter::clients

namespace loiter::suites::record_file {

// A record's first keys: its kind, and its connect_start on the scenario's origin (none: its
// slot never came).
struct RecordHead {
  std::string kind;
  std::optional<clients::Duration> connect_start;
};
BOOST_DESCRIBE_STRUCT(RecordHead, (), (kind, connect_start))

}  // namespace loiter::suites::record_file

namespace loiter::reports::described {

// [at, bytes] and [at, stream, code]: pairs and triples, as arrays.
template <>
inline constexpr bool kAsArray<clients::Send> = true;
template <>
inline constexpr bool kAsArray<clients::Progress> = true;
template <>
inline constexpr bool kAsArray<clients::H2Reset> = true;
template <>
inline constexpr bool kAsArray<clients::H3Probe> = true;

// The h3 floods' counts (h3/floods.hpp): written only where set, in a flood's or the
// h3-control client's record (every other h3 record leaves them out); records from before
// them lack them.
template <>
inline constexpr auto kWhenSet<clients::H3Record> = std::tuple(
    &clients::H3Record::frames_sent, &clients::H3Record::frames_at_close,
    &clients::H3Record::streams_opened, &clients::H3Record::streams_refused,
    &clients::H3Record::streams_answered, &clients::H3Record::credit_stalled,
    &clients::H3Record::acks_withheld, &clients::H3Record::retire_frames_received,
    &clients::H3Record::path_responses_received, &clients::H3Record::latencies);

// What a second Initial found: "unknown", "remembered", "forgotten", "silent".
template <>
struct Codec<clients::H3Remembered> {
  static constexpr std::array<std::string_view, 4> kWords = {"unknown", "remembered", "forgotten",
                                                             "silent"};
  static json::value write(clients::H3Remembered value) {
    return json::string(kWords.at(static_cast<std::size_t>(value)));
  }
  static clients::H3Remembered read(const json::value& json) {
    const auto text = json.as_string();
    for (std::size_t i = 0; i < kWords.size(); ++i) {
      if (kWords[i] == text) return static_cast<clients::H3Remembered>(i);
    }
    throw std::invalid_argument("unknown answer '" + std::string(text) + "'");
  }
};

// A response's header fields as [name, value] pairs, in arrival order.
template <>
struct Codec<clients::Fields> {
  static json::value write(const clients::Fields& fields) {
    json::array out;
    for (const auto& [name, value] : fields) {
      out.push_back(json::array{json::string(name), json::string(value)});
    }
    return out;
  }
  static clients::Fields read(const json::value& json) {
    clients::Fields fields;
    for (const auto& field : json.as_array()) {
      const auto& pair = field.as_array();
      fields.add(pair.at(0).as_string(), pair.at(1).as_string());
    }
    return fields;
  }
};

// An ending in its words: "close", "connect-failed", ...
template <>
struct Codec<clients::Ending> {
  static json::value write(clients::Ending ending) { return json::string(to_string(ending)); }
  static clients::Ending read(const json::value& json) {
    using clients::Ending;
    const auto text = json.as_string();
    for (const auto ending :
         {Ending::close, Ending::reset, Ending::open, Ending::connect_failed, Ending::client_abort,
          Ending::client_close, Ending::alert, Ending::gone}) {
      if (to_string(ending) == text) return ending;
    }
    throw std::invalid_argument("unknown ending '" + std::string(text) + "'");
  }
};

}  // namespace loiter::reports::described
