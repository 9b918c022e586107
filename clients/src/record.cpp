// Names of endings, as reports and findings print them.
#include "loiter/clients/record.hpp"

#include <fmt/format.h>

namespace loiter::clients {

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

std::string ending_label(const ConnectionRecord& record) {
  const bool by_server = record.ending == Ending::close || record.ending == Ending::reset;
  if (const Response* response = record.unsolicited_response(); by_server && response) {
    return fmt::format("{}+{}", response->status, to_string(record.ending));
  }
  return std::string(to_string(record.ending));
}

}  // namespace loiter::clients
