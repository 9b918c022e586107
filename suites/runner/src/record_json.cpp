// Connection records as JSON and back: every field of the plain record, no judgement; what
// the run directory keeps (records/<scenario>.jsonl) and what a client process sends its parent.
#include "loiter/suites/runner/record_json.hpp"

#include <fmt/format.h>

#include <boost/json.hpp>
#include <cmath>
#include <mutex>
#include <set>
#include <stdexcept>

#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites {

namespace json = boost::json;

namespace {

json::value maybe_seconds(const std::optional<clients::Duration>& d) {
  if (!d) return nullptr;
  return in_seconds(*d);
}

json::array responses_to_json(const std::vector<clients::Response>& responses) {
  json::array out;
  for (const auto& r : responses) {
    json::array fields;
    for (const auto& [name, value] : r.fields)
      fields.push_back(json::array{json::string(name), json::string(value)});
    out.push_back(json::object{{"status", r.status},
                               {"reason", r.reason},
                               {"fields", std::move(fields)},
                               {"started", in_seconds(r.started)},
                               {"complete", maybe_seconds(r.complete)},
                               {"body_bytes", r.body_bytes}});
  }
  return out;
}

json::value pause_to_json(const clients::Boxed<clients::ReadPause>& pause) {
  if (!pause) return nullptr;
  return json::object{
      {"from", in_seconds(pause->from)},
      {"until", in_seconds(pause->until)},
      {"filled", in_seconds(pause->filled)},
      {"unsent", pause->unsent ? json::value(*pause->unsent) : json::value(nullptr)},
      {"ended_while_paused", pause->ended_while_paused}};
}

// A cleartext connection's record has no "tls" (null).
json::value tls_to_json(const clients::Boxed<clients::TlsRecord>& tls) {
  if (!tls) return nullptr;
  return json::object{{"handshake_done", maybe_seconds(tls->handshake_done)},
                      {"handshake_sent", tls->handshake_sent},
                      {"handshake_received", tls->handshake_received},
                      {"version", tls->version},
                      {"alpn", tls->alpn},
                      {"alert", tls->alert ? json::value(*tls->alert) : json::value(nullptr)}};
}

// An HTTP/1.1 connection's record has no "h2" (null).
json::value h2_to_json(const clients::Boxed<clients::H2Record>& h2) {
  if (!h2) return nullptr;
  json::value goaway = nullptr;
  if (h2->goaway) {
    goaway = json::object{{"at", in_seconds(h2->goaway->at)},
                          {"last_stream", h2->goaway->last_stream},
                          {"code", h2->goaway->code},
                          {"frames_sent", h2->goaway->frames_sent}};
  }
  json::array resets;
  for (const auto& reset : h2->resets) {
    resets.push_back(json::array{in_seconds(reset.at), reset.stream, reset.code});
  }
  json::array latencies;  // h2-control: each request's, from its intended send time
  for (const auto& latency : h2->latencies) latencies.push_back(in_seconds(latency));
  return json::object{{"server_settings", maybe_seconds(h2->server_settings)},
                      {"settings_ack", maybe_seconds(h2->settings_ack)},
                      {"goaway", std::move(goaway)},
                      {"resets", std::move(resets)},
                      {"reset_count", h2->reset_count},
                      {"frames_sent", h2->frames_sent},
                      {"frames_received", h2->frames_received},
                      {"window_updates", h2->window_updates},
                      {"latencies", std::move(latencies)}};
}

}  // namespace

json::value record_to_json(const clients::ConnectionRecord& r, clients::Clock::time_point origin) {
  json::array sends;
  for (const auto& send : r.sends) sends.push_back(json::array{in_seconds(send.at), send.bytes});
  json::array progress;
  for (const auto& p : r.progress) progress.push_back(json::array{in_seconds(p.at), p.bytes});
  return json::object{{"kind", r.kind},
                      {"source", r.source},
                      {"connect_start", r.connect_start == clients::Clock::time_point{}
                                            ? json::value(nullptr)  // its slot never came
                                            : json::value(in_seconds(r.connect_start - origin))},
                      {"connect_took", in_seconds(r.connect_took)},
                      {"sends", std::move(sends)},
                      {"requests", r.requests},
                      {"first_byte", maybe_seconds(r.first_byte)},
                      {"bytes_received", r.bytes_received},
                      {"responses", responses_to_json(r.responses)},
                      {"progress", std::move(progress)},
                      {"pause", pause_to_json(r.pause)},
                      {"tls", tls_to_json(r.tls)},
                      {"h2", h2_to_json(r.h2)},
                      {"ending", clients::to_string(r.ending)},
                      {"ending_label", clients::ending_label(r)},
                      {"ended_at", in_seconds(r.ended_at)},
                      {"client_closed", in_seconds(r.client_closed)},
                      {"error", r.error},
                      {"errno", r.error_number}};
}

namespace {

clients::Duration from_seconds(const json::value& v) {
  return clients::Duration(std::llround(v.to_number<double>() * 1e9));
}

std::optional<clients::Duration> maybe_from_seconds(const json::value& v) {
  if (v.is_null()) return std::nullopt;
  return from_seconds(v);
}

std::size_t count_of(const json::value& v) { return v.to_number<std::size_t>(); }

// The clients' kinds are static strings; a kind read back is kept as long as they are.
std::string_view interned_kind(std::string_view kind) {
  static std::mutex mutex;
  static std::set<std::string, std::less<>> kinds;
  const std::scoped_lock lock(mutex);
  auto it = kinds.find(kind);
  if (it == kinds.end()) it = kinds.emplace(kind).first;
  return *it;
}

clients::Ending ending_from(std::string_view text) {
  using clients::Ending;
  for (const auto ending : {Ending::close, Ending::reset, Ending::open, Ending::connect_failed,
                            Ending::client_abort, Ending::client_close, Ending::alert}) {
    if (clients::to_string(ending) == text) return ending;
  }
  throw std::invalid_argument(fmt::format("unknown ending '{}'", text));
}

clients::Response response_from(const json::object& o) {
  clients::Response r{.status = o.at("status").to_number<unsigned>(),
                      .reason = std::string(o.at("reason").as_string()),
                      .fields = {},
                      .started = from_seconds(o.at("started")),
                      .complete = maybe_from_seconds(o.at("complete")),
                      .body_bytes = count_of(o.at("body_bytes"))};
  for (const auto& field : o.at("fields").as_array()) {
    const auto& pair = field.as_array();
    r.fields.add(pair.at(0).as_string(), pair.at(1).as_string());
  }
  return r;
}

// A record written before pauses were recorded has no "pause": none.
std::optional<clients::ReadPause> pause_from(const json::object& o) {
  const auto* pause = o.if_contains("pause");
  if (pause == nullptr || pause->is_null()) return std::nullopt;
  const auto& p = pause->as_object();
  const auto& unsent = p.at("unsent");
  return clients::ReadPause{
      .from = from_seconds(p.at("from")),
      .until = from_seconds(p.at("until")),
      .filled = from_seconds(p.at("filled")),
      .unsent = unsent.is_null() ? std::nullopt : std::optional<std::size_t>(count_of(unsent)),
      .ended_while_paused = p.at("ended_while_paused").as_bool()};
}

// A record written before TLS was recorded, or a cleartext one, has no "tls": none.
std::optional<clients::TlsRecord> tls_from(const json::object& o) {
  const auto* tls = o.if_contains("tls");
  if (tls == nullptr || tls->is_null()) return std::nullopt;
  const auto& t = tls->as_object();
  const auto& alert = t.at("alert");
  return clients::TlsRecord{.handshake_done = maybe_from_seconds(t.at("handshake_done")),
                            .handshake_sent = count_of(t.at("handshake_sent")),
                            .handshake_received = count_of(t.at("handshake_received")),
                            .version = std::string(t.at("version").as_string()),
                            .alpn = std::string(t.at("alpn").as_string()),
                            .alert = alert.is_null()
                                         ? std::nullopt
                                         : std::optional<unsigned>(alert.to_number<unsigned>())};
}

// A record written before HTTP/2 was recorded, or an HTTP/1.1 one, has no "h2": none.
std::optional<clients::H2Record> h2_from(const json::object& o) {
  const auto* h2 = o.if_contains("h2");
  if (h2 == nullptr || h2->is_null()) return std::nullopt;
  const auto& h = h2->as_object();
  clients::H2Record r{.server_settings = maybe_from_seconds(h.at("server_settings")),
                      .settings_ack = maybe_from_seconds(h.at("settings_ack")),
                      .reset_count = count_of(h.at("reset_count")),
                      .frames_sent = count_of(h.at("frames_sent")),
                      .frames_received = count_of(h.at("frames_received")),
                      .window_updates = count_of(h.at("window_updates"))};
  if (const auto& goaway = h.at("goaway"); !goaway.is_null()) {
    const auto& g = goaway.as_object();
    r.goaway = clients::H2Goaway{.at = from_seconds(g.at("at")),
                                 .last_stream = g.at("last_stream").to_number<std::uint32_t>(),
                                 .code = g.at("code").to_number<std::uint32_t>(),
                                 .frames_sent = count_of(g.at("frames_sent"))};
  }
  for (const auto& reset : h.at("resets").as_array()) {
    r.resets.push_back({.at = from_seconds(reset.at(0)),
                        .stream = reset.at(1).to_number<std::uint32_t>(),
                        .code = reset.at(2).to_number<std::uint32_t>()});
  }
  if (const auto* latencies = h.if_contains("latencies")) {  // absent in older documents
    for (const auto& latency : latencies->as_array()) r.latencies.push_back(from_seconds(latency));
  }
  return r;
}

clients::ConnectionRecord record_from(const json::object& o, clients::Clock::time_point origin) {
  clients::ConnectionRecord r;
  r.kind = interned_kind(o.at("kind").as_string());
  r.source = std::string(o.at("source").as_string());
  const auto& start = o.at("connect_start");
  if (!start.is_null()) r.connect_start = origin + from_seconds(start);  // else: never came
  r.connect_took = from_seconds(o.at("connect_took"));
  for (const auto& send : o.at("sends").as_array()) {
    r.sends.push_back({.at = from_seconds(send.at(0)), .bytes = count_of(send.at(1))});
  }
  r.requests = count_of(o.at("requests"));
  r.first_byte = maybe_from_seconds(o.at("first_byte"));
  r.bytes_received = count_of(o.at("bytes_received"));
  for (const auto& response : o.at("responses").as_array()) {
    r.responses.push_back(response_from(response.as_object()));
  }
  for (const auto& p : o.at("progress").as_array()) {
    r.progress.push_back({.at = from_seconds(p.at(0)), .bytes = count_of(p.at(1))});
  }
  r.pause = pause_from(o);
  r.tls = tls_from(o);
  r.h2 = h2_from(o);
  r.ending = ending_from(o.at("ending").as_string());
  r.ended_at = from_seconds(o.at("ended_at"));
  r.client_closed = from_seconds(o.at("client_closed"));
  r.error = std::string(o.at("error").as_string());
  if (const auto* number = o.if_contains("errno")) r.error_number = json::value_to<int>(*number);
  return r;
}

}  // namespace

clients::ConnectionRecord record_from_json(const json::value& v,
                                           clients::Clock::time_point origin) {
  try {
    return record_from(v.as_object(), origin);
  } catch (const std::exception& e) {  // a missing field, one of the wrong type, an ending
    throw std::invalid_argument(fmt::format("a connection record cannot be read: {}", e.what()));
  }
}

}  // namespace loiter::suites
