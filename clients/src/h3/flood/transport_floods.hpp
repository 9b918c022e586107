// The h3 flood kinds (h3/floods.hpp), each a FloodConnection saying which frames come next:
// QUIC's own frames here (transport_floods.cpp), QPACK's in qpack_floods.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "h3/flood/flood_connection.hpp"

namespace loiter::clients::h3 {

#define LOITER_FLOOD_KIND(Name)                                                              \
 public:                                                                                     \
  Name(Executor executor, std::shared_ptr<const H3FloodOptions> flood, std::size_t index,    \
       ConnectionRecord& record);                                                            \
                                                                                             \
 protected:                                                                                  \
  bool add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) override;

class RapidReset : public FloodConnection {
  LOITER_FLOOD_KIND(RapidReset)
 private:
  std::string headers_;  // the GET's HEADERS frame, the same on every stream
};

class ConnectionIdFlood : public FloodConnection {
  LOITER_FLOOD_KIND(ConnectionIdFlood)
 private:
  std::uint64_t next_sequence_ = 0;
};

class PathChallengeFlood : public FloodConnection {
  LOITER_FLOOD_KIND(PathChallengeFlood)
};

class OutOfOrder : public FloodConnection {
  LOITER_FLOOD_KIND(OutOfOrder)
 private:
  bool stream_turn_ = true;
  std::uint64_t crypto_sent_ = 0;
};

class PingFlood : public FloodConnection {
  LOITER_FLOOD_KIND(PingFlood)
};

// QPACK (qpack_floods.cpp): each opens what it needs in open_flood().
class QpackBomb : public FloodConnection {
  LOITER_FLOOD_KIND(QpackBomb)
  void open_flood() override;

 private:
  std::string headers_;  // the bomb's HEADERS frame, the same on every stream
};

class QpackBlocked : public FloodConnection {
  LOITER_FLOOD_KIND(QpackBlocked)
 private:
  std::string headers_;
};

class EncoderStreamFlood : public FloodConnection {
  LOITER_FLOOD_KIND(EncoderStreamFlood)
  void open_flood() override;

 private:
  std::int64_t encoder_ = -1;
  std::string insert_;  // one Insert With Literal Name as large as the table
};

#undef LOITER_FLOOD_KIND

}  // namespace loiter::clients::h3
