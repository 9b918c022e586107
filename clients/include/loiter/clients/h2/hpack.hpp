// HPACK header blocks (RFC 7541) through nghttp2's deflater and inflater: one encoder and
// one decoder per connection, since each keeps a dynamic table the peer mirrors.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loiter::clients::h2 {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

class Encoder {
 public:
  Encoder();
  ~Encoder();
  Encoder(Encoder&&) noexcept;
  Encoder& operator=(Encoder&&) noexcept;

  // The block for `headers`, in order (pseudo-headers first). Throws std::runtime_error if
  // nghttp2 refuses.
  std::string encode(const HeaderList& headers);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

class Decoder {
 public:
  Decoder();
  ~Decoder();
  Decoder(Decoder&&) noexcept;
  Decoder& operator=(Decoder&&) noexcept;

  // The fields of one whole header block; nullopt if it does not decode (the connection's
  // table is then unusable: a COMPRESSION_ERROR).
  std::optional<HeaderList> decode(std::string_view block);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// A request's fields: :method, :scheme, :authority, :path, then `extra`.
HeaderList request_headers(std::string_view method, std::string_view path,
                           std::string_view authority, bool tls, const HeaderList& extra = {});

}  // namespace loiter::clients::h2
