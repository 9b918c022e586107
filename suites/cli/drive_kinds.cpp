// The client kinds of `loiter drive`, each spawned with its own defaults and the shared
// settings from the command line.
#include "drive_kinds.hpp"

#include <map>
#include <string_view>
#include <type_traits>

#include "loiter/clients/h2/stalls.hpp"
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
#include "loiter/clients/transport/tls.hpp"

namespace loiter::cli {

namespace {

// A kind's spawn function, and which of the optional settings it takes.
struct Kind {
  SpawnKind spawn;
  bool paced = false;
  bool pauses = false;
  bool has_path = false;
};

template <typename Options>
constexpr bool kPaced = requires(Options options) {
  options.interval;
};
template <typename Options>
constexpr bool kPauses = requires(Options options) {
  options.pause;
};
template <typename Options>
constexpr bool kHasPath = requires(Options options) {
  options.path;
};
template <typename Options>
constexpr bool kSendsOwnHello = requires(Options options) {
  options.hello_settings;
};
template <typename Options>
constexpr bool kSetsReceiveBuffer = requires(Options options) {
  options.receive_buffer;
};

// `path` with "{bytes}" replaced by the size of a response that cannot fit in the kernel's
// buffers, for a client whose receive buffer is asked as `receive_buffer` (0: the default).
std::string with_stalling_size(std::string path, int receive_buffer) {
  constexpr std::string_view kBytes = "{bytes}";
  const auto at = path.find(kBytes);
  if (at == std::string::npos) return path;
  const auto bytes = clients::stalling_response_bytes(clients::kernel_buffers(receive_buffer));
  return path.replace(at, kBytes.size(), std::to_string(bytes));
}

// The optional settings a kind takes, on its options.
template <typename Options>
void apply_optional(const DriveSettings& settings, Options& options) {
  if constexpr (kPaced<Options>) {
    if (settings.interval) options.interval = *settings.interval;
  }
  if constexpr (kPauses<Options>) {
    if (settings.pause) options.pause = *settings.pause;
  }
  if constexpr (kHasPath<Options>) {
    int receive_buffer = 0;
    if constexpr (kSetsReceiveBuffer<Options>) receive_buffer = options.receive_buffer;
    if (!settings.path.empty()) options.path = with_stalling_size(settings.path, receive_buffer);
  }
}

// Each kind with its own defaults, and the settings every kind shares.
template <typename Options>
Kind kind(void (*spawn)(clients::asio::io_context&, const Options&,
                        std::vector<clients::ConnectionRecord>&)) {
  auto spawn_kind = [spawn](clients::asio::io_context& io, const DriveSettings& settings,
                            std::vector<clients::ConnectionRecord>& out) {
    Options options;
    options.fleet.target = settings.target;
    options.fleet.count = settings.count;
    options.fleet.patience = settings.patience;
    options.fleet.pacing = {.start = clients::Clock::now(), .per_second = settings.rate};
    options.fleet.tls = settings.tls;
    if constexpr (kSendsOwnHello<Options>) {
      // The raw hello offers what --alpn and --sni say (with --tls), else the defaults.
      if (settings.tls) options.hello_settings = settings.tls->settings();
    }
    if constexpr (std::is_same_v<Options, clients::H2Options>) {
      // Paths the h2 kinds need, as over HTTP/1.1 (body-trickle, slow-reader); --path sets
      // the one a kind requests.
      options.echo_path = settings.path.empty() ? "/echo" : settings.path;
      options.large_path = settings.path.empty() ? "/large" : settings.path;
    }
    apply_optional(settings, options);
    spawn(io, options, out);
  };
  return {.spawn = spawn_kind,
          .paced = kPaced<Options>,
          .pauses = kPauses<Options>,
          .has_path = kHasPath<Options>};
}

const std::map<std::string, Kind>& kinds() {
  static const std::map<std::string, Kind> table{
      {std::string(clients::kSilent), kind(clients::spawn_silent)},
      {std::string(clients::kPartialHeader), kind(clients::spawn_partial_header)},
      {std::string(clients::kHeaderTrickle), kind(clients::spawn_header_trickle)},
      {std::string(clients::kPartialBody), kind(clients::spawn_partial_body)},
      {std::string(clients::kBodyTrickle), kind(clients::spawn_body_trickle)},
      {std::string(clients::kIdleKeepalive), kind(clients::spawn_idle_keepalive)},
      {std::string(clients::kKeepaliveReuse), kind(clients::spawn_keepalive_reuse)},
      {std::string(clients::kRstAbort), kind(clients::spawn_rst_abort)},
      {std::string(clients::kFinClose), kind(clients::spawn_fin_close)},
      {std::string(clients::kSlowReader), kind(clients::spawn_slow_reader)},
      {std::string(clients::kHeaderLines), kind(clients::spawn_header_lines)},
      {std::string(clients::kKeepalivePartial), kind(clients::spawn_keepalive_partial)},
      // Its own defaults: GET /large, read 64 KiB, read nothing for 4 s, read the rest.
      {std::string(clients::kReaderPause), kind(clients::spawn_reader_pause)},
      // A real ClientHello cut short, or trickled; a handshake and then nothing (--tls).
      {std::string(clients::kTlsRecordHeader), kind(clients::spawn_tls_record_header)},
      {std::string(clients::kTlsHalfHello), kind(clients::spawn_tls_half_hello)},
      {std::string(clients::kTlsHelloTrickle), kind(clients::spawn_tls_hello_trickle)},
      {std::string(clients::kTlsHandshakeSilent), kind(clients::spawn_tls_handshake_silent)},
      // HTTP/2 with prior knowledge (h2c), or over --tls with --alpn h2.
      {std::string(clients::kH2PartialPreface), kind(clients::spawn_h2_partial_preface)},
      {std::string(clients::kH2NoSettingsAck), kind(clients::spawn_h2_no_settings_ack)},
      {std::string(clients::kH2Idle), kind(clients::spawn_h2_idle)},
      {std::string(clients::kH2HeadersNoEnd), kind(clients::spawn_h2_headers_no_end)},
      {std::string(clients::kH2DataTrickle), kind(clients::spawn_h2_data_trickle)},
      {std::string(clients::kH2ZeroWindow), kind(clients::spawn_h2_zero_window)},
      {std::string(clients::kH2WindowTrickle), kind(clients::spawn_h2_window_trickle)},
      {std::string(clients::kH2StreamReuse), kind(clients::spawn_h2_stream_reuse)},
  };
  return table;
}

}  // namespace

const SpawnKind* find_kind(const std::string& name) {
  const auto it = kinds().find(name);
  return it == kinds().end() ? nullptr : &it->second.spawn;
}

bool is_paced(const std::string& name) {
  const auto it = kinds().find(name);
  return it != kinds().end() && it->second.paced;
}

bool takes_pause(const std::string& name) {
  const auto it = kinds().find(name);
  return it != kinds().end() && it->second.pauses;
}

bool takes_path(const std::string& name) {
  const auto it = kinds().find(name);
  return it != kinds().end() && it->second.has_path;
}

std::string kinds_that(bool (*takes)(const std::string&)) {
  std::string names;
  for (const auto& [name, kind] : kinds()) {
    if (takes(name)) names += (names.empty() ? "" : ", ") + name;
  }
  return names;
}

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (const auto& [name, spawn] : kinds()) names.push_back(name);
  return names;
}

}  // namespace loiter::cli
