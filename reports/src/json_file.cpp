// A JSON document read from a file.
#include "json_file.hpp"

#include <fmt/format.h>

#include <boost/json.hpp>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace loiter::reports {

boost::json::value read_json_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", file.string()));
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code error;
  auto document = boost::json::parse(text.str(), error);
  if (error) {
    throw std::runtime_error(fmt::format("{}: not JSON: {}", file.string(), error.message()));
  }
  return document;
}

}  // namespace loiter::reports
