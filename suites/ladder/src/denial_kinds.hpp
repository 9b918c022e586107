// The kinds a denial ladder holds, per protocol, and what each needs of the target (a
// health, echo or large path). Private to the ladder room.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/kinds.hpp"
#include "loiter/fixtures/target/target.hpp"

namespace loiter::suites::ladder {

// What a held kind needs of the target: nothing beyond its health path, an echo path (a
// body it sends), or a large response (one it reads slowly or not at all).
enum class Needs { health, echo, large };

struct HeldKind {
  std::string_view name;
  Needs needs;
  bool by_default;
};

// The kinds a denial ladder can hold over HTTP/1.1 (and TLS): each stalls one place a
// server waits (the connection's first byte, the head, the body, the reader, the next
// request), and none ends by itself while held.
inline constexpr std::array kHttp1Kinds{
    HeldKind{"silent", Needs::health, true},
    HeldKind{"partial-header", Needs::health, true},
    HeldKind{"header-trickle", Needs::health, true},
    HeldKind{"header-lines", Needs::health, true},
    HeldKind{"partial-body", Needs::echo, true},
    HeldKind{"body-trickle", Needs::echo, true},
    HeldKind{"slow-reader", Needs::large, true},
    HeldKind{"idle-keepalive", Needs::health, true},
    HeldKind{"keepalive-partial", Needs::health, false},
};
// Over TLS also the handshake's stalls.
inline constexpr std::array kTlsKinds{
    HeldKind{"tls-record-header", Needs::health, false},
    HeldKind{"tls-half-hello", Needs::health, false},
    HeldKind{"tls-hello-trickle", Needs::health, false},
    HeldKind{"tls-handshake-silent", Needs::health, false},
};
// Over HTTP/2 (h2c, or h2 over TLS): a connection's preface and SETTINGS, an idle session,
// a header block never ended, a body trickled, a window never (or barely) opened.
inline constexpr std::array kH2Kinds{
    HeldKind{"h2-headers-no-end", Needs::health, true},
    HeldKind{"h2-zero-window", Needs::large, true},
    HeldKind{"h2-idle", Needs::health, true},
    HeldKind{"h2-partial-preface", Needs::health, false},
    HeldKind{"h2-no-settings-ack", Needs::health, false},
    HeldKind{"h2-data-trickle", Needs::echo, false},
    HeldKind{"h2-window-trickle", Needs::large, false},
};
// Over HTTP/3 (QUIC): a request stream stalled in its HEADERS or trickling them, or a window
// never opened, each on a connection kept alive by a PING every 500 ms, so a connection the
// server forgets ends (no answer) and is replaced. h3-idle and h3-initial-stall probe once
// and would count a connection forgotten after its probe as held: not held here.
inline constexpr std::array kH3Kinds{
    HeldKind{"h3-headers-stall", Needs::health, true},
    HeldKind{"h3-headers-trickle", Needs::health, true},
    HeldKind{"h3-zero-window", Needs::large, true},
    HeldKind{"h3-data-trickle", Needs::echo, false},
};

// The response a held stream's window keeps back, where the target sizes it by the request:
// far more than any initial stream window.
inline constexpr std::size_t kLargeStreamBytes = 1 << 20;

// The kinds held over a protocol ("http1", "tls", "h2c", "h2"), in order.
std::vector<HeldKind> kinds_over(std::string_view protocol);
// The target's path the kind needs; nullopt: the target declares none.
const std::optional<std::string>& path_needed(const fixtures::Target& target, Needs needs);
// "an echo path (paths.echo)", ...
std::string_view needs_word(Needs needs);
// The kind `name` over `protocol`, if it holds there.
std::optional<HeldKind> held_kind(std::string_view name, std::string_view protocol);
// The settings the kind is spawned with on `target`: its path.
clients::KindSettings settings_for(const HeldKind& kind, const fixtures::Target& target);

}  // namespace loiter::suites::ladder
