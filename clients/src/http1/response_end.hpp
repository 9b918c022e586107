// Finds where one HTTP/1.1 response ends and keeps only its status and whether the
// connection stays open: a Beast basic_parser whose callbacks store nothing else, so the
// load generator reads each response without allocating. Body bytes are skipped.
#pragma once

#include <boost/beast/http/basic_parser.hpp>
#include <cstdint>

namespace loiter::clients {

class ResponseEnd : public boost::beast::http::basic_parser<false> {
 public:
  ResponseEnd() {
    body_limit(boost::none);
    eager(true);
  }
  unsigned status() const { return status_; }

 private:
  using error_code = boost::beast::error_code;
  using string_view = boost::beast::string_view;

  void on_request_impl(boost::beast::http::verb, string_view, string_view, int,
                       error_code&) override {}
  void on_response_impl(int code, string_view, int, error_code&) override {
    status_ = static_cast<unsigned>(code);
  }
  void on_field_impl(boost::beast::http::field, string_view, string_view, error_code&) override {}
  void on_header_impl(error_code&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>&, error_code&) override {}
  std::size_t on_body_impl(string_view body, error_code&) override { return body.size(); }
  void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, string_view body, error_code&) override {
    return body.size();
  }
  void on_finish_impl(error_code&) override {}

  unsigned status_ = 0;
};

}  // namespace loiter::clients
