// The flood family over HTTP/3: one bounded QUIC or HTTP/3 flood at a time (h3/floods.hpp)
// next to an h3-control client on a connection of its own (flood_plan.hpp). Only for an [h3]
// target that declares [h3.flood] with the kind; never in the default catalogue run (`loiter
// check --family flood`, or a flood scenario named; asked for on an [h3] target without the
// declaration, the run is refused: asked_flood_problem).
// Two sorts of kind. A flood whose RFC tells the server to close, or that costs it work per
// frame it may refuse (rapid reset, connection IDs, a QPACK bomb, blocked streams), must be
// ended within the declared frames: a CONNECTION_CLOSE or stateless reset, or its stream credit
// withheld (a QPACK bomb: each bomb refused will do too). A flood the server owes answers to,
// or may buffer within its own limits (PATH_CHALLENGE, PING, encoder instructions, data out of
// order), need not be ended: its memory must stay within the declared RSS. Every kind: a
// CONNECTION_CLOSE the server does send carries a code its RFC names (below), and the control
// client's GETs are answered 200 within the p99 bound.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "flood_plan.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace scenarios_flood_h3 {  // named: unity batches put other files' helpers beside these

using Options = clients::H3FloodOptions;
using Kind = flood_plan::FloodKind<Options>;

// Transport codes (RFC 9000 20.1) and HTTP/3 ones (RFC 9114 8.1, RFC 9204 6).
constexpr QuicCode kFlowControlError{.code = 0x03};
constexpr QuicCode kConnectionIdLimitError{.code = 0x09};
constexpr QuicCode kProtocolViolation{.code = 0x0a};
constexpr QuicCode kCryptoBufferExceeded{.code = 0x0d};
constexpr QuicCode kH3NoError{.code = 0x100, .application = true};
constexpr QuicCode kH3ExcessiveLoad{.code = 0x107, .application = true};
constexpr QuicCode kH3RequestRejected{.code = 0x10b, .application = true};
constexpr QuicCode kQpackDecompressionFailed{.code = 0x200, .application = true};
constexpr QuicCode kQpackEncoderStreamError{.code = 0x201, .application = true};

// A kind's rules: the server closes (if it closes) with one of `codes`; it must end the flood
// where clients::h3_flood_must_end says so (the one list the survey reads too), else it may
// let it run, its RSS bounded.
std::function<void(FloodExpectation&)> closing_with(std::vector<QuicCode> codes,
                                                    bool refusals_end = false) {
  return [codes = std::move(codes), refusals_end](FloodExpectation& e) {
    e.must_end = clients::h3_flood_must_end(e.kind);
    e.refusals_end = refusals_end;
    e.close_codes = codes;
  };
}

flood_plan::FloodFamily<Options> family() {
  return {.section = "h3.flood",
          .need_protocol = kit::need_h3,
          .bound = [](const fixtures::Target& t) -> const fixtures::FloodBound* {
            return t.h3 && t.h3->flood ? &*t.h3->flood : nullptr;
          },
          .control_kind = clients::kH3Control,
          .control = clients::spawn_h3_control,
          .options =
              [](const DriveContext& c) {
                Options options;
                options.h3 = h3_family::h3_options(c);  // its UDP port, SNI and health path
                return options;
              }};
}

// A server shedding load says so (RFC 9114 8.1): H3_EXCESSIVE_LOAD, or it rejects the
// request (H3_REQUEST_REJECTED) or goes away gracefully (H3_NO_ERROR).
std::vector<QuicCode> load_shedding() { return {kH3ExcessiveLoad, kH3RequestRejected, kH3NoError}; }

std::vector<Kind> kinds() {
  return {
      {clients::kH3RapidReset, "rapid-reset",
       "end a rapid-reset flood over HTTP/3 (HEADERS then RESET_STREAM on each new request "
       "stream, CVE-2023-44487) within its declared frames, by its close or by withholding "
       "stream credit, while still serving a control client",
       clients::spawn_h3_rapid_reset, closing_with(load_shedding())},
      {clients::kH3ConnectionIdFlood, "connection-id",
       "end a NEW_CONNECTION_ID flood that retires every earlier ID and acknowledges nothing "
       "(CVE-2024-22189) within its declared frames, with CONNECTION_ID_LIMIT_ERROR or "
       "PROTOCOL_VIOLATION (RFC 9000 5.1.2), while still serving a control client",
       clients::spawn_h3_connection_id_flood,
       closing_with({kConnectionIdLimitError, kProtocolViolation})},
      {clients::kH3PathChallengeFlood, "path-challenge",
       "keep its memory within its declared RSS under a PATH_CHALLENGE flood whose "
       "PATH_RESPONSEs are never acknowledged (CVE-2023-49295, RFC 9000 8.2), while still "
       "serving a control client",
       clients::spawn_h3_path_challenge_flood, closing_with({kH3ExcessiveLoad, kH3NoError})},
      {clients::kH3QpackBomb, "qpack-bomb",
       "refuse field sections larger than its SETTINGS_MAX_FIELD_SECTION_SIZE (RFC 9114 4.2.2), "
       "each one or the connection within its declared frames, while still serving a control "
       "client",
       clients::spawn_h3_qpack_bomb, closing_with(load_shedding(), /*refusals_end=*/true)},
      {clients::kH3QpackBlocked, "qpack-blocked",
       "close with QPACK_DECOMPRESSION_FAILED once more streams are blocked than its "
       "SETTINGS_QPACK_BLOCKED_STREAMS (RFC 9204 2.1.2), within its declared frames, while "
       "still serving a control client",
       clients::spawn_h3_qpack_blocked, closing_with({kQpackDecompressionFailed})},
      {clients::kH3EncoderStreamFlood, "encoder-stream",
       "keep its memory within its declared RSS under an encoder stream of inserts without "
       "end, each evicting the one before, while still serving a control client",
       clients::spawn_h3_encoder_stream_flood,
       closing_with({kQpackEncoderStreamError, kH3ExcessiveLoad, kH3NoError})},
      {clients::kH3OutOfOrder, "out-of-order",
       "keep its memory within its declared RSS under CRYPTO and STREAM data that never "
       "starts (RFC 9000 7.5: such CRYPTO data may be dropped, or the connection closed with "
       "CRYPTO_BUFFER_EXCEEDED), while still serving a control client",
       clients::spawn_h3_out_of_order, closing_with({kCryptoBufferExceeded, kFlowControlError})},
      {clients::kH3PingFlood, "ping",
       "keep its memory within its declared RSS under a PING flood whose ACKs are never "
       "acknowledged, while still serving a control client",
       clients::spawn_h3_ping_flood, closing_with({kH3ExcessiveLoad, kH3NoError})},
  };
}

}  // namespace scenarios_flood_h3

std::vector<Scenario> flood_h3_scenarios() {
  const auto family = scenarios_flood_h3::family();
  std::vector<Scenario> scenarios;
  for (const auto& kind : scenarios_flood_h3::kinds()) {
    scenarios.push_back(flood_plan::flood_scenario(family, kind));
  }
  return scenarios;
}

std::optional<std::string> asked_flood_problem(const std::vector<std::string>& ids,
                                               const std::vector<std::string>& families,
                                               const fixtures::Target& target) {
  if (!target.h3) return std::nullopt;
  const auto all = scenarios_flood_h3::kinds();
  const bool by_family = std::ranges::find(families, "flood") != families.end();
  std::vector<std::string_view> asked;  // by id
  for (const auto& kind : all) {
    if (std::ranges::find(ids, kind.id) != ids.end()) asked.push_back(kind.id);
  }
  if (asked.empty() && !by_family) return std::nullopt;
  if (!target.h3->flood) {
    const auto what = asked.empty() ? std::string("--family flood asks for the HTTP/3 floods")
                                    : fmt::format("--scenario {} asks for an HTTP/3 flood",
                                                  fmt::join(asked, ", --scenario "));
    return fmt::format(
        "{}: key 'h3.flood': {}, but the target declares no [h3.flood]: say what the server "
        "promises against them (frames, rss, p99, kinds) in an [h3.flood] table, or leave the "
        "floods out",
        target.source, what);
  }
  const auto& declared = target.h3->flood->kinds;
  for (const auto& kind : all) {
    if (std::ranges::find(asked, kind.id) == asked.end()) continue;
    if (std::ranges::find(declared, kind.name) != declared.end()) continue;
    return fmt::format(
        "{}: key 'h3.flood.kinds': --scenario {} asks for the flood \"{}\", which the target's "
        "[h3.flood] kinds leave out (it lists {}): add it, or leave the scenario out",
        target.source, kind.id, kind.name, fmt::join(declared, ", "));
  }
  return std::nullopt;
}

}  // namespace loiter::suites
