// The survey's flood phase over HTTP/3 (`loiter survey --floods` on an [h3] target): each of
// the eight h3 floods (clients/h3/floods.hpp) on one connection, up to its own bound of
// frames within 5 s, read as when and how the server ended it.
#include <fmt/format.h>

#include "loiter/clients/h3/floods.hpp"
#include "probe_kit.hpp"
#include "probes.hpp"

namespace loiter::suites::survey {

namespace h3_floods {

using Spawn = void (*)(clients::asio::io_context&, const clients::H3FloodOptions&, Records&);

struct Flood {
  std::string_view kind;
  std::string_view title;
  Spawn spawn;
};

constexpr Flood kFloods[] = {
    {clients::kH3RapidReset, "HEADERS then RESET_STREAM, stream after stream",
     &clients::spawn_h3_rapid_reset},
    {clients::kH3ConnectionIdFlood, "NEW_CONNECTION_ID retiring every earlier one, ACKs withheld",
     &clients::spawn_h3_connection_id_flood},
    {clients::kH3PathChallengeFlood, "PATH_CHALLENGE frames, ACKs withheld",
     &clients::spawn_h3_path_challenge_flood},
    {clients::kH3QpackBomb, "field sections decoding past the server's limit",
     &clients::spawn_h3_qpack_bomb},
    {clients::kH3QpackBlocked, "streams blocked on inserts that never come",
     &clients::spawn_h3_qpack_blocked},
    {clients::kH3EncoderStreamFlood, "encoder-stream inserts without end",
     &clients::spawn_h3_encoder_stream_flood},
    {clients::kH3OutOfOrder, "CRYPTO and STREAM data at high offsets",
     &clients::spawn_h3_out_of_order},
    {clients::kH3PingFlood, "PING frames, ACKs withheld", &clients::spawn_h3_ping_flood},
};

}  // namespace h3_floods

std::vector<Probe> h3_flood_probes(const ProbeContext& context) {
  std::vector<Probe> probes;
  for (const auto& flood : h3_floods::kFloods) {
    MeasureHead head{
        .id = std::string(flood.kind),
        .title = std::string(flood.title),
        .kind = std::string(flood.kind),
        .from = "connect",
        .interval = fmt::format("up to {} frames within 5 s", clients::kH3FloodFrames)};
    clients::H3FloodOptions options;
    options.h3.fleet = context.fleet;
    options.h3.fleet.count = 1;
    options.h3.path = context.request.health;
    options.duration = std::chrono::seconds(5);
    // Its handshake, its 5 s, then 4 s for the server's close to come.
    options.h3.fleet.patience =
        context.fleet.connect_timeout + options.duration + std::chrono::seconds(4);
    auto p = probe(head);
    p.spawn = spawner(options, flood.spawn);
    p.read = [head, slack = context.slack](const Records& records, const ServerSide&) {
      return read_h3_flood(head, records, clients::kH3FloodFrames, slack);
    };
    probes.push_back(std::move(p));
  }
  return probes;
}

}  // namespace loiter::suites::survey
