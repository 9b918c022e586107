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
  }
  return "unknown";
}

std::string ending_label(const ConnectionRecord& record) {
  const bool closed = record.ending == Ending::close || record.ending == Ending::reset;
  if (closed && record.response) {
    return fmt::format("{}+{}", record.response->status, to_string(record.ending));
  }
  return std::string(to_string(record.ending));
}

}  // namespace loiter::clients
