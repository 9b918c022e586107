// The h3 flood kinds (h3/floods.hpp), each a FloodConnection saying which frames come next:
// QUIC's own frames here (transport_floods.cpp), QPACK's in qpack_floods.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "h3/flood/flood_connection.hpp"

namespace loiter::clients::h3 {

class RapidReset : public FloodConnection {
 public:
  RapidReset(Executor executor, std::shared_ptr<const H3FloodOptions> flood, std::size_t index,
             ConnectionRecord& record);

 protected:
  bool add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) override;

 private:
  std::string headers_;  // the GET's HEADERS frame, the same on every stream
};

class ConnectionIdFlood : public FloodConnection {
 public:
  ConnectionIdFlood(Executor executor, std::shared_ptr<const H3FloodOptions> flood,
                    std::size_t index, ConnectionRecord& record);

 protected:
  bool add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) override;

 private:
  std::uint64_t next_sequence_ = 0;
};

class PathChallengeFlood : public FloodConnection {
 public:
  PathChallengeFlood(Executor executor, std::shared_ptr<const H3FloodOptions> flood,
                     std::size_t index, ConnectionRecord& record);

 protected:
  bool add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) override;
};

class OutOfOrder : public FloodConnection {
 public:
  OutOfOrder(Executor executor, std::shared_ptr<const H3FloodOptions> flood, std::size_t index,
             ConnectionRecord& record);

 protected:
  bool add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) override;

 private:
  bool stream_turn_ = true;
  std::uint64_t crypto_sent_ = 0;
};

class PingFlood : public FloodConnection {
 public:
  PingFlood(Executor executor, std::shared_ptr<const H3FloodOptions> flood, std::size_t index,
            ConnectionRecord& record);

 protected:
  bool add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) override;
};

// QPACK (qpack_floods.cpp): each opens what it needs in open_flood().
class QpackBomb : public FloodConnection {
 public:
  QpackBomb(Executor executor, std::shared_ptr<const H3FloodOptions> flood, std::size_t index,
            ConnectionRecord& record);

 protected:
  bool add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) override;
  void open_flood() override;

 private:
  std::string headers_;  // the bomb's HEADERS frame, the same on every stream
};

class QpackBlocked : public FloodConnection {
 public:
  QpackBlocked(Executor executor, std::shared_ptr<const H3FloodOptions> flood, std::size_t index,
               ConnectionRecord& record);

 protected:
  bool add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) override;

 private:
  std::string headers_;
};

class EncoderStreamFlood : public FloodConnection {
 public:
  EncoderStreamFlood(Executor executor, std::shared_ptr<const H3FloodOptions> flood,
                     std::size_t index, ConnectionRecord& record);

 protected:
  bool add_flood_frames(quic::Bytes& payload, std::size_t room, std::size_t& added) override;
  void open_flood() override;

 private:
  std::int64_t encoder_ = -1;
  std::string insert_;  // one Insert With Literal Name as large as the table
};

}  // namespace loiter::clients::h3
