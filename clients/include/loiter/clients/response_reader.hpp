// Parses the status line and header fields of the first response a connection receives,
// with Beast's parser, from bytes fed as they arrive. Body bytes are counted, not kept.
#pragma once

#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "loiter/clients/record.hpp"

namespace loiter::clients {

class ResponseReader {
 public:
  // Feeds bytes in arrival order. Returns the response once its header is complete (once).
  std::optional<Response> feed(std::string_view bytes);
  // True once the header was parsed or the bytes turned out not to be HTTP.
  bool done() const { return done_; }

 private:
  static constexpr std::size_t kMaxHead = 16 * 1024;
  boost::beast::http::response_parser<boost::beast::http::empty_body> parser_;
  std::string pending_;
  bool done_ = false;
};

}  // namespace loiter::clients
