// The h3 floods' spawn functions (h3/floods.hpp). Being written: each throws until its
// client lands.
#include <stdexcept>

#include "loiter/clients/h3/floods.hpp"

namespace loiter::clients {

namespace {
[[noreturn]] void not_yet(std::string_view kind) {
  throw std::logic_error(std::string(kind) + ": not built yet");
}
}  // namespace

void spawn_h3_rapid_reset(asio::io_context&, const H3FloodOptions&, std::vector<ConnectionRecord>&) { not_yet(kH3RapidReset); }
void spawn_h3_connection_id_flood(asio::io_context&, const H3FloodOptions&, std::vector<ConnectionRecord>&) { not_yet(kH3ConnectionIdFlood); }
void spawn_h3_path_challenge_flood(asio::io_context&, const H3FloodOptions&, std::vector<ConnectionRecord>&) { not_yet(kH3PathChallengeFlood); }
void spawn_h3_qpack_bomb(asio::io_context&, const H3FloodOptions&, std::vector<ConnectionRecord>&) { not_yet(kH3QpackBomb); }
void spawn_h3_qpack_blocked(asio::io_context&, const H3FloodOptions&, std::vector<ConnectionRecord>&) { not_yet(kH3QpackBlocked); }
void spawn_h3_encoder_stream_flood(asio::io_context&, const H3FloodOptions&, std::vector<ConnectionRecord>&) { not_yet(kH3EncoderStreamFlood); }
void spawn_h3_out_of_order(asio::io_context&, const H3FloodOptions&, std::vector<ConnectionRecord>&) { not_yet(kH3OutOfOrder); }
void spawn_h3_ping_flood(asio::io_context&, const H3FloodOptions&, std::vector<ConnectionRecord>&) { not_yet(kH3PingFlood); }
void spawn_h3_control(asio::io_context&, const H3FloodOptions&, std::vector<ConnectionRecord>&) { not_yet(kH3Control); }

}  // namespace loiter::clients
