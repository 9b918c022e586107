// Reading and writing report.json's values: keys that name themselves when missing, and
// numbers written the way people read them (counts as integers, no NaN). Private to reports/.
#pragma once

#include <fmt/format.h>

#include <boost/json.hpp>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace loiter::reports::json_access {

namespace json = boost::json;

inline json::value number(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return nullptr;  // JSON has no NaN or infinity
  // Counts are written as integers ("fds": 11, not 1.1E1).
  if (std::trunc(*value) == *value && std::fabs(*value) < 9.0e15) {
    return static_cast<std::int64_t>(*value);
  }
  return *value;
}

inline const json::value& field(const json::object& object, std::string_view key,
                                std::string_view where) {
  const auto* value = object.if_contains(key);
  if (value == nullptr) throw std::runtime_error(fmt::format("{}: missing key '{}'", where, key));
  return *value;
}

inline const json::object& object_of(const json::value& value, std::string_view where) {
  if (!value.is_object()) throw std::runtime_error(fmt::format("{}: not a JSON object", where));
  return value.get_object();
}

inline const json::array& array(const json::object& object, std::string_view key,
                                std::string_view where) {
  const auto& value = field(object, key, where);
  if (!value.is_array()) {
    throw std::runtime_error(fmt::format("{}: key '{}' must be an array", where, key));
  }
  return value.get_array();
}

inline std::string text(const json::object& object, std::string_view key, std::string_view where) {
  const auto& value = field(object, key, where);
  if (!value.is_string()) {
    throw std::runtime_error(fmt::format("{}: key '{}' must be a string", where, key));
  }
  return std::string(value.get_string());
}

inline std::optional<double> maybe_number(const json::value& value, std::string_view where) {
  if (value.is_null()) return std::nullopt;
  if (!value.is_number()) throw std::runtime_error(fmt::format("{}: not a number", where));
  return value.to_number<double>();
}

inline double real(const json::value& value, std::string_view where) {
  const auto parsed = maybe_number(value, where);
  if (!parsed) throw std::runtime_error(fmt::format("{}: null where a number is needed", where));
  return *parsed;
}

// A whole number, 0 or more, however Boost.JSON stored it (int64 or uint64).
inline std::uint64_t count(const json::value& value, std::string_view where) {
  if (value.is_uint64()) return value.get_uint64();
  if (value.is_int64() && value.get_int64() >= 0) {
    return static_cast<std::uint64_t>(value.get_int64());
  }
  throw std::runtime_error(fmt::format("{} must be a whole number, 0 or more", where));
}

// The keys of a document's objects, each naming itself when it is missing or of another type.
inline std::uint64_t count_of(const json::object& object, std::string_view key,
                              std::string_view where) {
  return count(field(object, key, where), fmt::format("{}: key '{}'", where, key));
}

inline double decimal_of(const json::object& object, std::string_view key,
                         std::string_view where) {
  return real(field(object, key, where), fmt::format("{}: key '{}'", where, key));
}

inline bool bool_of(const json::object& object, std::string_view key, std::string_view where) {
  const auto& value = field(object, key, where);
  if (!value.is_bool()) {
    throw std::runtime_error(fmt::format("{}: key '{}' must be true or false", where, key));
  }
  return value.get_bool();
}

}  // namespace loiter::reports::json_access
