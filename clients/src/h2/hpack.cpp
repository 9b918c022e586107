// HPACK through nghttp2's deflater and inflater (nghttp2_hd_deflate_*, nghttp2_hd_inflate_*).
#include "loiter/clients/h2/hpack.hpp"

#include <nghttp2/nghttp2.h>

#include <stdexcept>

#include <fmt/format.h>

namespace loiter::clients::h2 {

struct Encoder::State {
  nghttp2_hd_deflater* deflater = nullptr;
  ~State() { nghttp2_hd_deflate_del(deflater); }
};

struct Decoder::State {
  nghttp2_hd_inflater* inflater = nullptr;
  ~State() { nghttp2_hd_inflate_del(inflater); }
};

Encoder::Encoder() : state_(std::make_unique<State>()) {
  if (const int rv = nghttp2_hd_deflate_new(&state_->deflater, 4096); rv != 0) {
    throw std::runtime_error(fmt::format("HPACK: no deflater: {}", nghttp2_strerror(rv)));
  }
}
Encoder::~Encoder() = default;
Encoder::Encoder(Encoder&&) noexcept = default;
Encoder& Encoder::operator=(Encoder&&) noexcept = default;

std::string Encoder::encode(const HeaderList& headers) {
  std::vector<nghttp2_nv> fields;
  fields.reserve(headers.size());
  for (const auto& [name, value] : headers) {
    fields.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                      reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())),
                      name.size(), value.size(), NGHTTP2_NV_FLAG_NONE});
  }
  std::string block(nghttp2_hd_deflate_bound(state_->deflater, fields.data(), fields.size()), '\0');
  const auto n = nghttp2_hd_deflate_hd(state_->deflater, reinterpret_cast<std::uint8_t*>(block.data()),
                                       block.size(), fields.data(), fields.size());
  if (n < 0) {
    throw std::runtime_error(
        fmt::format("HPACK: {} fields not encoded: {}", fields.size(),
                    nghttp2_strerror(static_cast<int>(n))));
  }
  block.resize(static_cast<std::size_t>(n));
  return block;
}

Decoder::Decoder() : state_(std::make_unique<State>()) {
  if (const int rv = nghttp2_hd_inflate_new(&state_->inflater); rv != 0) {
    throw std::runtime_error(fmt::format("HPACK: no inflater: {}", nghttp2_strerror(rv)));
  }
}
Decoder::~Decoder() = default;
Decoder::Decoder(Decoder&&) noexcept = default;
Decoder& Decoder::operator=(Decoder&&) noexcept = default;

std::optional<HeaderList> Decoder::decode(std::string_view block) {
  HeaderList fields;
  const auto* in = reinterpret_cast<const std::uint8_t*>(block.data());
  std::size_t left = block.size();
  // Each turn consumes input or emits a field: bounded by the block's size.
  for (;;) {
    nghttp2_nv field;
    int flags = 0;
    const auto n = nghttp2_hd_inflate_hd2(state_->inflater, &field, &flags, in, left, 1);
    if (n < 0) return std::nullopt;
    in += n;
    left -= static_cast<std::size_t>(n);
    if (flags & NGHTTP2_HD_INFLATE_EMIT) {
      fields.emplace_back(std::string(reinterpret_cast<const char*>(field.name), field.namelen),
                          std::string(reinterpret_cast<const char*>(field.value), field.valuelen));
    }
    if (flags & NGHTTP2_HD_INFLATE_FINAL) {
      nghttp2_hd_inflate_end_headers(state_->inflater);
      return fields;
    }
    if (n == 0 && !(flags & NGHTTP2_HD_INFLATE_EMIT)) return std::nullopt;  // truncated
  }
}

HeaderList request_headers(std::string_view method, std::string_view path,
                           std::string_view authority, bool tls, const HeaderList& extra) {
  HeaderList fields{{":method", std::string(method)},
                    {":scheme", tls ? "https" : "http"},
                    {":authority", std::string(authority)},
                    {":path", std::string(path)}};
  fields.insert(fields.end(), extra.begin(), extra.end());
  return fields;
}

}  // namespace loiter::clients::h2
