// Names of endings, as reports and findings print them; the packed header fields.
#include "loiter/clients/record.hpp"

#include <fmt/format.h>

#include <array>
#include <ostream>

namespace loiter::clients {

void Fields::add(std::string_view name, std::string_view value) {
  packed_.append(name).push_back('\0');
  packed_.append(value).push_back('\0');
}

std::size_t Fields::size() const { return static_cast<std::size_t>(std::distance(begin(), end())); }

Fields::Field Fields::iterator::operator*() const {
  const auto name_end = rest_.find('\0');
  const auto value_end = rest_.find('\0', name_end + 1);
  return {rest_.substr(0, name_end), rest_.substr(name_end + 1, value_end - name_end - 1)};
}

Fields::iterator& Fields::iterator::operator++() {
  const auto name_end = rest_.find('\0');
  rest_.remove_prefix(rest_.find('\0', name_end + 1) + 1);
  return *this;
}

Fields::iterator Fields::iterator::operator++(int) {
  auto before = *this;
  ++*this;
  return before;
}

std::string h2_error_name(std::uint32_t code) {
  static constexpr std::array<std::string_view, 14> kNames = {"NO_ERROR",
                                                              "PROTOCOL_ERROR",
                                                              "INTERNAL_ERROR",
                                                              "FLOW_CONTROL_ERROR",
                                                              "SETTINGS_TIMEOUT",
                                                              "STREAM_CLOSED",
                                                              "FRAME_SIZE_ERROR",
                                                              "REFUSED_STREAM",
                                                              "CANCEL",
                                                              "COMPRESSION_ERROR",
                                                              "CONNECT_ERROR",
                                                              "ENHANCE_YOUR_CALM",
                                                              "INADEQUATE_SECURITY",
                                                              "HTTP_1_1_REQUIRED"};
  if (code < kNames.size()) return std::string(kNames[code]);
  return fmt::format("error 0x{:x}", code);
}

std::string h3_error_name(std::uint64_t code, bool application) {
  if (!application) {
    static constexpr std::array<std::string_view, 17> kTransport = {"NO_ERROR",
                                                                    "INTERNAL_ERROR",
                                                                    "CONNECTION_REFUSED",
                                                                    "FLOW_CONTROL_ERROR",
                                                                    "STREAM_LIMIT_ERROR",
                                                                    "STREAM_STATE_ERROR",
                                                                    "FINAL_SIZE_ERROR",
                                                                    "FRAME_ENCODING_ERROR",
                                                                    "TRANSPORT_PARAMETER_ERROR",
                                                                    "CONNECTION_ID_LIMIT_ERROR",
                                                                    "PROTOCOL_VIOLATION",
                                                                    "INVALID_TOKEN",
                                                                    "APPLICATION_ERROR",
                                                                    "CRYPTO_BUFFER_EXCEEDED",
                                                                    "KEY_UPDATE_ERROR",
                                                                    "AEAD_LIMIT_REACHED",
                                                                    "NO_VIABLE_PATH"};
    if (code < kTransport.size()) return std::string(kTransport[code]);
    if (code >= 0x100 && code <= 0x1ff) return fmt::format("CRYPTO_ERROR 0x{:x}", code);
    return fmt::format("error 0x{:x}", code);
  }
  static constexpr std::array<std::string_view, 17> kH3 = {"H3_NO_ERROR",
                                                           "H3_GENERAL_PROTOCOL_ERROR",
                                                           "H3_INTERNAL_ERROR",
                                                           "H3_STREAM_CREATION_ERROR",
                                                           "H3_CLOSED_CRITICAL_STREAM",
                                                           "H3_FRAME_UNEXPECTED",
                                                           "H3_FRAME_ERROR",
                                                           "H3_EXCESSIVE_LOAD",
                                                           "H3_ID_ERROR",
                                                           "H3_SETTINGS_ERROR",
                                                           "H3_MISSING_SETTINGS",
                                                           "H3_REQUEST_REJECTED",
                                                           "H3_REQUEST_CANCELLED",
                                                           "H3_REQUEST_INCOMPLETE",
                                                           "H3_MESSAGE_ERROR",
                                                           "H3_CONNECT_ERROR",
                                                           "H3_VERSION_FALLBACK"};
  if (code >= 0x100 && code < 0x100 + kH3.size()) return std::string(kH3[code - 0x100]);
  if (code == 0x200) return "QPACK_DECOMPRESSION_FAILED";
  if (code == 0x201) return "QPACK_ENCODER_STREAM_ERROR";
  if (code == 0x202) return "QPACK_DECODER_STREAM_ERROR";
  return fmt::format("error 0x{:x}", code);
}

std::string_view to_string(Ending ending) {
  switch (ending) {
    case Ending::close:
      return "close";
    case Ending::reset:
      return "reset";
    case Ending::open:
      return "open";
    case Ending::connect_failed:
      return "connect-failed";
    case Ending::client_abort:
      return "client-abort";
    case Ending::client_close:
      return "client-close";
    case Ending::alert:
      return "alert";
    case Ending::gone:
      return "gone";
  }
  return "unknown";
}

const Response* ConnectionRecord::unsolicited_response() const {
  if (responses.size() <= requests) return nullptr;
  return &responses.back();
}

const Response* ConnectionRecord::last_complete_response() const {
  for (auto it = responses.rbegin(); it != responses.rend(); ++it) {
    if (it->complete) return &*it;
  }
  return nullptr;
}

std::size_t complete_responses(const ConnectionRecord& record) {
  std::size_t whole = 0;
  for (const auto& response : record.responses) whole += response.complete.has_value();
  return whole;
}

EndingLabel ending_of(const ConnectionRecord& record) {
  const bool by_server = record.ending == Ending::close || record.ending == Ending::reset ||
                         record.ending == Ending::alert || record.ending == Ending::gone;
  // Over HTTP/2 the server's GOAWAY names its ending (its code is in the record).
  if (by_server && record.h2 && record.h2->goaway && record.h2->goaway->at <= record.ended_at) {
    return ends::goaway(record.ending);
  }
  if (const Response* response = record.unsolicited_response(); by_server && response) {
    return ends::with_status(response->status, record.ending);
  }
  return ends::of(record.ending);
}

std::string to_string(const EndingLabel& label) {
  switch (label.stream) {
    case EndingLabel::Stream::answered:
      return std::to_string(label.status);
    case EndingLabel::Stream::reset:
      return "rst-stream";
    case EndingLabel::Stream::none:
      break;
  }
  if (label.goaway) return fmt::format("goaway+{}", to_string(label.ending));
  if (label.status != 0) return fmt::format("{}+{}", label.status, to_string(label.ending));
  return std::string(to_string(label.ending));
}

std::ostream& operator<<(std::ostream& out, const EndingLabel& label) {
  return out << to_string(label);
}

std::string ending_label(const ConnectionRecord& record) { return to_string(ending_of(record)); }

}  // namespace loiter::clients
