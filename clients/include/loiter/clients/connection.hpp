// A client connection under observation: its socket and its record. Every client behaviour
// is a short coroutine over these steps: connect, send, observe until the server ends it.
// Nothing here throws for what the server does; a reset, an EOF, a 408 are data.
#pragma once

#include <string_view>

#include "loiter/clients/asio.hpp"
#include "loiter/clients/record.hpp"
#include "loiter/clients/response_reader.hpp"

namespace loiter::clients {

class Connection {
 public:
  Connection(const asio::any_io_executor& executor, std::string_view kind);

  // Connects from `source` (port chosen by the kernel) to `target`. False if it did not
  // connect within `timeout`; the record then ends as connect_failed with the reason.
  awaitable<bool> connect(tcp::endpoint target, asio::ip::address source, Duration timeout);

  // Sends all of `bytes` and records when. False if the server has already ended the
  // connection; observe_until_closed() then records how.
  awaitable<bool> send(std::string_view bytes);

  // Keeps a read outstanding until the server closes or resets the connection, or until
  // `patience` has passed since connect. Then closes the client's end.
  awaitable<void> observe_until_closed(Duration patience);

  ConnectionRecord take_record() { return std::move(record_); }
  const ConnectionRecord& record() const { return record_; }

 private:
  awaitable<boost::system::error_code> read_until_error();
  void end(Ending ending, const boost::system::error_code& ec);
  Duration since_connect() const;

  tcp::socket socket_;
  ConnectionRecord record_;
  ResponseReader reader_;
};

}  // namespace loiter::clients
