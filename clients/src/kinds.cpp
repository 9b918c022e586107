#include "loiter/clients/kinds.hpp"

#include <algorithm>
#include <array>

#include "loiter/clients/h2/stalls.hpp"
#include "loiter/clients/h3/stalls.hpp"
#include "loiter/clients/http1/body_trickle.hpp"
#include "loiter/clients/http1/fin_close.hpp"
#include "loiter/clients/http1/header_lines.hpp"
#include "loiter/clients/http1/header_trickle.hpp"
#include "loiter/clients/http1/idle_keepalive.hpp"
#include "loiter/clients/http1/keepalive_partial.hpp"
#include "loiter/clients/http1/keepalive_reuse.hpp"
#include "loiter/clients/http1/partial_body.hpp"
#include "loiter/clients/http1/partial_header.hpp"
#include "loiter/clients/http1/reader_pause.hpp"
#include "loiter/clients/http1/rst_abort.hpp"
#include "loiter/clients/http1/silent.hpp"
#include "loiter/clients/http1/slow_reader.hpp"
#include "loiter/clients/tls/tls_stall.hpp"
#include "loiter/clients/transport/buffers.hpp"

namespace loiter::clients {

namespace {

// `path` with "{bytes}" replaced by the size of a response that cannot fit in the kernel's
// buffers, for a client whose receive buffer is asked as `receive_buffer` (0: the default).
std::string with_stalling_size(std::string path, int receive_buffer) {
  constexpr std::string_view kBytes = "{bytes}";
  const auto at = path.find(kBytes);
  if (at == std::string::npos) return path;
  const auto bytes = stalling_response_bytes(kernel_buffers(receive_buffer));
  return path.replace(at, kBytes.size(), std::to_string(bytes));
}

// The fields of a kind's options that KindSettings set; null: the kind takes no such setting.
template <typename Options>
struct Takes {
  Duration Options::*interval = nullptr;
  Duration Options::*pause = nullptr;
  std::string Options::*path = nullptr;
  int Options::*receive_buffer = nullptr;  // what "{bytes}" in the path is sized for
};

template <typename Options>
using Spawn = void (*)(asio::io_context&, const Options&, std::vector<ConnectionRecord>&);

// A kind's options from its defaults, the fleet and the settings it takes.
template <typename Options>
Options options_of(const FleetSpec& fleet, const KindSettings& settings,
                   const Takes<Options>& takes) {
  Options options;
  options.fleet = fleet;
  if (takes.interval && settings.interval) options.*takes.interval = *settings.interval;
  if (takes.pause && settings.pause) options.*takes.pause = *settings.pause;
  if (takes.path && !settings.path.empty()) {
    const int receive_buffer = takes.receive_buffer ? options.*takes.receive_buffer : 0;
    options.*takes.path = with_stalling_size(settings.path, receive_buffer);
  }
  return options;
}

// The h2 kinds' paths by name, as over HTTP/1.1 (body-trickle, slow-reader); a path given
// sets the one a kind requests.
void name_h2_paths(H2Options& options, const KindSettings& settings) {
  options.echo_path = settings.path.empty() ? "/echo" : settings.path;
  options.large_path = settings.path.empty() ? "/large" : settings.path;
}

// The long h2 streams' paths: a path given is the long exchange, else the reference server's
// (a slow handler, a stream, a large response); the short streams beside it ask /health.
void name_h2_long_paths(H2Options& options, const KindSettings& settings) {
  options.path = "/health";
  options.long_path = settings.path.empty() ? "/long" : settings.path;
  options.large_path = settings.path.empty() ? "/large" : settings.path;
}

// The raw hello offers what the fleet's TLS offers (ALPN, SNI), else the defaults.
void hello_from_fleet(TlsStallOptions& options, const KindSettings&) {
  if (options.fleet.tls) options.hello_settings = options.fleet.tls->settings();
}

template <typename Options, Spawn<Options> spawn, Takes<Options> takes = Takes<Options>{},
          void (*finish)(Options&, const KindSettings&) = nullptr>
void spawn_named(asio::io_context& io, const FleetSpec& fleet, const KindSettings& settings,
                 std::vector<ConnectionRecord>& out) {
  auto options = options_of(fleet, settings, takes);
  if constexpr (finish != nullptr) finish(options, settings);
  spawn(io, options, out);
}

template <typename Options, Spawn<Options> spawn, Takes<Options> takes = Takes<Options>{},
          void (*finish)(Options&, const KindSettings&) = nullptr>
constexpr ClientKind kind(std::string_view name) {
  return {.name = name,
          .spawn = spawn_named<Options, spawn, takes, finish>,
          .paced = takes.interval != nullptr,
          .pauses = takes.pause != nullptr,
          .has_path = takes.path != nullptr};
}

using HT = HeaderTrickleOptions;
using HL = HeaderLinesOptions;
using BT = BodyTrickleOptions;
using SR = SlowReaderOptions;
using RP = ReaderPauseOptions;
using KP = KeepalivePartialOptions;
constexpr Takes<H2Options> kH2Takes{.interval = &H2Options::interval, .path = &H2Options::path};

template <Spawn<H2Options> spawn>
constexpr ClientKind h2_kind(std::string_view name) {
  return kind<H2Options, spawn, kH2Takes, name_h2_paths>(name);
}

template <Spawn<TlsStallOptions> spawn>
constexpr ClientKind tls_kind(std::string_view name) {
  return kind<TlsStallOptions, spawn,
              Takes<TlsStallOptions>{.interval = &TlsStallOptions::interval}, hello_from_fleet>(
      name);
}

template <typename Options, Spawn<Options> spawn>
constexpr ClientKind with_path(std::string_view name) {
  return kind<Options, spawn, Takes<Options>{.path = &Options::path}>(name);
}

// A kind that completes a TLS handshake, so runs only over TLS.
constexpr ClientKind over_tls(ClientKind kind) {
  kind.needs_tls = true;
  return kind;
}

// HTTP/3 (QUIC v1 on UDP, its own TLS 1.3): the fleet's target is the server's UDP port and
// its TLS is not used. A pause given is when the kind's probe goes (h3-idle, h3-initial-stall:
// after the client's last packet); a path given is the one the kind stalls or waits on, else
// the reference server's (/echo, /large, /long, /health).
enum class H3Path { none, path, echo, large, long_exchange };

template <Spawn<H3Options> spawn, H3Path path>
void spawn_h3_named(asio::io_context& io, const FleetSpec& fleet, const KindSettings& settings,
                    std::vector<ConnectionRecord>& out) {
  H3Options options;
  options.fleet = fleet;
  options.fleet.tls = nullptr;
  if (settings.interval) options.interval = *settings.interval;
  if (settings.pause) options.probe_after = *settings.pause;
  const auto given = [&](std::string fallback) {
    return settings.path.empty() ? fallback : settings.path;
  };
  if constexpr (path == H3Path::path) options.path = given(options.path);
  if constexpr (path == H3Path::echo) options.echo_path = given("/echo");
  if constexpr (path == H3Path::large) options.large_path = given("/large");
  if constexpr (path == H3Path::long_exchange) options.long_path = given("/long");
  spawn(io, options, out);
}

template <Spawn<H3Options> spawn, H3Path path = H3Path::none>
constexpr ClientKind h3_kind(std::string_view name, bool paced = false, bool pauses = false) {
  return {.name = name,
          .spawn = spawn_h3_named<spawn, path>,
          .paced = paced,
          .pauses = pauses,
          .has_path = path != H3Path::none,
          .quic = true};
}

}  // namespace

std::span<const ClientKind> client_kinds() {
  static const auto table = [] {
    std::array<ClientKind, 40> kinds{
        kind<SilentOptions, spawn_silent>(kSilent),
        with_path<PartialHeaderOptions, spawn_partial_header>(kPartialHeader),
        kind<HT, spawn_header_trickle, Takes<HT>{.interval = &HT::interval, .path = &HT::path}>(
            kHeaderTrickle),
        with_path<PartialBodyOptions, spawn_partial_body>(kPartialBody),
        kind<BT, spawn_body_trickle, Takes<BT>{.interval = &BT::interval, .path = &BT::path}>(
            kBodyTrickle),
        with_path<IdleKeepaliveOptions, spawn_idle_keepalive>(kIdleKeepalive),
        with_path<KeepaliveReuseOptions, spawn_keepalive_reuse>(kKeepaliveReuse),
        with_path<RstAbortOptions, spawn_rst_abort>(kRstAbort),
        with_path<FinCloseOptions, spawn_fin_close>(kFinClose),
        kind<SR, spawn_slow_reader,
             Takes<SR>{.interval = &SR::interval,
                       .path = &SR::path,
                       .receive_buffer = &SR::receive_buffer}>(kSlowReader),
        kind<HL, spawn_header_lines, Takes<HL>{.interval = &HL::interval, .path = &HL::path}>(
            kHeaderLines),
        kind<KP, spawn_keepalive_partial, Takes<KP>{.pause = &KP::pause, .path = &KP::path}>(
            kKeepalivePartial),
        // Its own defaults: GET /large, read 64 KiB, read nothing for 4 s, read the rest.
        kind<RP, spawn_reader_pause,
             Takes<RP>{
                 .pause = &RP::pause, .path = &RP::path, .receive_buffer = &RP::receive_buffer}>(
            kReaderPause),
        // A real ClientHello cut short, or trickled; a handshake and then nothing (over TLS).
        tls_kind<spawn_tls_record_header>(kTlsRecordHeader),
        tls_kind<spawn_tls_half_hello>(kTlsHalfHello),
        tls_kind<spawn_tls_hello_trickle>(kTlsHelloTrickle),
        over_tls(tls_kind<spawn_tls_handshake_silent>(kTlsHandshakeSilent)),
        // The handshake begun `pause` after connect, then half a head (over TLS).
        over_tls(kind<TlsStallOptions, spawn_tls_late_head,
                      Takes<TlsStallOptions>{.pause = &TlsStallOptions::delay,
                                             .path = &TlsStallOptions::path}>(kTlsLateHead)),
        // HTTP/2 with prior knowledge (h2c), or over TLS with ALPN h2.
        h2_kind<spawn_h2_partial_preface>(kH2PartialPreface),
        h2_kind<spawn_h2_no_settings_ack>(kH2NoSettingsAck),
        h2_kind<spawn_h2_idle>(kH2Idle),
        h2_kind<spawn_h2_headers_no_end>(kH2HeadersNoEnd),
        h2_kind<spawn_h2_data_trickle>(kH2DataTrickle),
        h2_kind<spawn_h2_zero_window>(kH2ZeroWindow),
        h2_kind<spawn_h2_window_trickle>(kH2WindowTrickle),
        h2_kind<spawn_h2_stream_reuse>(kH2StreamReuse),
        // A long stream beside short ones; its path given is the long exchange.
        kind<H2Options, spawn_h2_long_response, kH2Takes, name_h2_long_paths>(kH2LongResponse),
        kind<H2Options, spawn_h2_stream, kH2Takes, name_h2_long_paths>(kH2Stream),
        kind<H2Options, spawn_h2_slow_reader, kH2Takes, name_h2_long_paths>(kH2SlowReader),
        // HTTP/3: a half Initial and a whole one, then silence (made by hand); the rest on a
        // QUIC connection whose handshake is done.
        h3_kind<spawn_h3_initial_stall>(kH3InitialStall, false, true),
        h3_kind<spawn_h3_amplification>(kH3Amplification),
        h3_kind<spawn_h3_idle>(kH3Idle, false, true),
        h3_kind<spawn_h3_headers_stall, H3Path::path>(kH3HeadersStall),
        h3_kind<spawn_h3_headers_trickle, H3Path::path>(kH3HeadersTrickle, true),
        h3_kind<spawn_h3_data_trickle, H3Path::echo>(kH3DataTrickle, true),
        h3_kind<spawn_h3_zero_window, H3Path::large>(kH3ZeroWindow),
        h3_kind<spawn_h3_window_trickle, H3Path::large>(kH3WindowTrickle, true),
        h3_kind<spawn_h3_control_close>(kH3ControlClose),
        h3_kind<spawn_h3_long_response, H3Path::long_exchange>(kH3LongResponse),
        h3_kind<spawn_h3_stream, H3Path::long_exchange>(kH3Stream),
    };
    std::ranges::sort(kinds, {}, &ClientKind::name);
    return kinds;
  }();
  return table;
}

const ClientKind* find_client_kind(std::string_view name) {
  const auto kinds = client_kinds();
  const auto it = std::ranges::find(kinds, name, &ClientKind::name);
  return it == kinds.end() ? nullptr : &*it;
}

}  // namespace loiter::clients
