#include "loiter/clients/response_reader.hpp"

#include <algorithm>
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>

namespace loiter::clients {

namespace http = boost::beast::http;

std::optional<Response> ResponseReader::feed(std::string_view bytes) {
  if (done_) return std::nullopt;
  pending_.append(bytes.substr(0, std::min(bytes.size(), kMaxHead - pending_.size())));
  // Beast consumes nothing until the whole header is present, so pending_ holds it all.
  boost::beast::error_code ec;
  parser_.put(boost::asio::buffer(pending_), ec);
  if (ec == http::error::need_more && pending_.size() < kMaxHead) return std::nullopt;
  done_ = true;
  pending_.clear();
  pending_.shrink_to_fit();
  if (!parser_.is_header_done()) return std::nullopt;  // not HTTP, or a head too large
  const auto& message = parser_.get();
  Response response{
      .status = message.result_int(), .reason = std::string(message.reason()), .fields = {}};
  for (const auto& field : message) {
    response.fields.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  return response;
}

}  // namespace loiter::clients
