#include "loiter/clients/http1/response_reader.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <cstdint>

namespace loiter::clients {

namespace http = boost::beast::http;
using boost::beast::error_code;

namespace {

// A Beast body that counts its bytes and keeps none of them.
struct CountingBody {
  using value_type = std::size_t;

  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(http::header<isRequest, Fields>&, value_type& count) : count_(count) {}
    void init(const boost::optional<std::uint64_t>&, error_code& ec) {
      count_ = 0;
      ec = {};
    }
    template <class ConstBufferSequence>
    std::size_t put(const ConstBufferSequence& buffers, error_code& ec) {
      const std::size_t n = boost::asio::buffer_size(buffers);
      count_ += n;
      ec = {};
      return n;
    }
    void finish(error_code& ec) { ec = {}; }

   private:
    value_type& count_;
  };
};

Response head_of(const http::response_parser<CountingBody>& parser, Duration started) {
  const auto& message = parser.get();
  Response response{.status = message.result_int(),
                    .reason = std::string(message.reason()),
                    .fields = {},
                    .started = started};
  for (const auto& field : message) response.fields.add(field.name_string(), field.value());
  response.fields.shrink_to_fit();  // kept as long as the connection is held
  return response;
}

}  // namespace

class ResponseReader::Parser {
 public:
  explicit Parser(Duration started) : started_(started) {
    parser_.header_limit(static_cast<std::uint32_t>(kMaxHead));
    parser_.body_limit(boost::none);  // large responses are the point of some clients
    parser_.eager(true);
    parser_.get().body() = 0;  // a size_t body starts uninitialised
  }
  http::response_parser<CountingBody> parser_;
  Duration started_;
  bool announced_ = false;
};

ResponseReader::ResponseReader() = default;
ResponseReader::~ResponseReader() = default;
ResponseReader::ResponseReader(ResponseReader&&) noexcept = default;
ResponseReader& ResponseReader::operator=(ResponseReader&&) noexcept = default;

// Puts bytes into the current parser (made on a response's first byte); returns how many
// Beast consumed. Announces the head once parsed and completes the response once done.
std::size_t ResponseReader::put(std::string_view bytes, Duration at,
                                std::vector<Response>& responses) {
  if (!parser_) parser_ = std::make_unique<Parser>(at);
  auto& p = parser_->parser_;
  error_code ec;
  const std::size_t used = p.put(boost::asio::buffer(bytes.data(), bytes.size()), ec);
  if (ec && ec != http::error::need_more) {
    failed_ = true;
    return bytes.size();
  }
  if (p.is_header_done() && !parser_->announced_) {
    responses.push_back(head_of(p, parser_->started_));
    parser_->announced_ = true;
  }
  if (parser_->announced_) responses.back().body_bytes = p.get().body();
  if (p.is_done()) {
    responses.back().complete = at;
    parser_.reset();
  }
  return used;
}

void ResponseReader::feed(std::string_view bytes, Duration at, std::vector<Response>& responses) {
  if (failed_) return;
  std::string_view rest = bytes;
  if (!pending_.empty()) {
    pending_.append(bytes);
    rest = pending_;
  }
  // Each turn consumes bytes or stops for more: bounded by the bytes given.
  while (!rest.empty() && !failed_) {
    const std::size_t used = put(rest, at, responses);
    if (used == 0) break;  // Beast wants more (a partial head or chunk line)
    rest.remove_prefix(used);
  }
  if (failed_ || rest.empty()) {
    pending_.clear();
  } else if (rest.size() > kMaxHead) {
    failed_ = true;  // not a head Beast will ever take
    pending_.clear();
  } else {
    pending_.assign(rest);  // rest may point into pending_: assign copes with overlap
  }
  if (pending_.empty()) pending_.shrink_to_fit();
}

void ResponseReader::feed_eof(Duration at, std::vector<Response>& responses) {
  if (failed_ || !parser_ || !parser_->announced_) return;
  error_code ec;
  parser_->parser_.put_eof(ec);
  if (!ec && parser_->parser_.is_done()) responses.back().complete = at;
  parser_.reset();
}

}  // namespace loiter::clients
