// Parses the responses a connection receives, in order, with Beast's parser: the status
// line and fields of each, and where each one ends (Content-Length, chunked, or the close),
// so a keep-alive client knows when a response is whole. Body bytes are counted, not kept.
// A connection that receives nothing owns no parser and no buffer.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/record.hpp"

namespace loiter::clients {

class ResponseReader {
 public:
  ResponseReader();
  ~ResponseReader();
  ResponseReader(ResponseReader&&) noexcept;
  ResponseReader& operator=(ResponseReader&&) noexcept;

  // Feeds bytes that arrived at `at` (since connect), in arrival order. Appends a Response
  // to `responses` once its header is parsed and completes it once its body has ended.
  void feed(std::string_view bytes, Duration at, std::vector<Response>& responses);
  // The server closed cleanly: a response whose body runs to the close is now whole.
  void feed_eof(Duration at, std::vector<Response>& responses);
  // True once the bytes turned out not to be HTTP (or a head was too large); later bytes
  // are then only counted by the connection.
  bool failed() const { return failed_; }

 private:
  class Parser;
  static constexpr std::size_t kMaxHead = 16 * 1024;

  std::size_t put(std::string_view bytes, Duration at, std::vector<Response>& responses);

  std::unique_ptr<Parser> parser_;  // only while a response is arriving
  std::string pending_;             // bytes Beast has not consumed yet (a partial head)
  bool failed_ = false;
};

}  // namespace loiter::clients
