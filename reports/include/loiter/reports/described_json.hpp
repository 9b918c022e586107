// JSON of plain structs described with Boost.Describe (BOOST_DESCRIBE_STRUCT): each member
// under its own name, in the order the description lists them; durations as seconds (a
// double), other numbers as people read them (a whole one as an integer, NaN and infinity as
// null), an empty optional (or Boxed) as null, vectors as arrays, a map of strings as an
// object (a map of whole numbers as an object keyed by their digits), a path as its text.
// What a type needs beyond that is a Codec specialization: an enum's words (EnumWords), a
// pair written as [at, bytes]; a member written otherwise than its type has a form (kForms:
// nanoseconds where the type's default is seconds); a member written only when set
// (kWhenSet, or every optional of a struct that kLeavesOutNone), under another key (kKey) or
// among its struct's own keys (kInline) is named so, and a struct with a key of its own has
// an Amend. Reading is the inverse: an optional or a vector a document
// lacks reads empty (documents from before it existed), any other member missing, or one of
// the wrong type, throws ReadError naming where it is ("sides[0].steps[2]: missing key
// 'rate'"). What a document says of its structs beyond their description, and the forms
// documents share, are described_forms.hpp's; the codec's own traits described_detail.hpp's.
#pragma once

#include <boost/describe/members.hpp>
#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "loiter/reports/described_detail.hpp"
#include "loiter/reports/described_forms.hpp"

namespace loiter::reports::described {

template <class T>
json::value write(const T& value) {
  if constexpr (requires { Codec<T>::write(value); }) {
    return Codec<T>::write(value);
  } else if constexpr (detail::kIsDuration<T>) {
    return std::chrono::duration<double>(value).count();
  } else if constexpr (detail::Optional<T>) {
    return value.has_value() ? write(*value) : json::value(nullptr);
  } else if constexpr (detail::kIsVector<T>) {
    json::array out;
    out.reserve(value.size());
    for (const auto& item : value) out.push_back(write(item));
    return out;
  } else if constexpr (detail::kIsTextMap<T>) {
    json::object out;
    for (const auto& [key, item] : value) out[key] = write(item);
    return out;
  } else if constexpr (detail::kIsNumberMap<T>) {
    json::object out;
    for (const auto& [key, item] : value) out[std::to_string(key)] = write(item);
    return out;
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(value)) return nullptr;  // JSON has no NaN or infinity
    if (std::trunc(value) == value && std::fabs(value) < 9.0e15) {
      return static_cast<std::int64_t>(value);  // a count reads as one: 11, not 1.1E1
    }
    return value;
  } else if constexpr (detail::Described<T> && kAsArray<T>) {
    json::array out;
    boost::mp11::mp_for_each<detail::Members<T>>(
        [&](auto member) { out.push_back(write(value.*member.pointer)); });
    return out;
  } else if constexpr (detail::Described<T>) {
    json::object out;
    boost::mp11::mp_for_each<detail::Members<T>>([&](auto member) {
      constexpr auto kPointer = decltype(member)::pointer;
      const auto& item = value.*kPointer;
      using Item = std::remove_cvref_t<decltype(item)>;
      if constexpr (kLeavesOutNone<T> && detail::Optional<Item>) {
        if (!item.has_value()) return;
      }
      if constexpr (detail::listed<kPointer>(kWhenSet<T>)) {
        if (item == Item{}) return;
      }
      if constexpr (detail::listed<kPointer>(kInline<T>)) {
        auto inner = write(item);
        for (auto& [key, field] : inner.as_object()) out[key] = std::move(field);
      } else {
        out[detail::key_of<T, kPointer>(member.name)] = detail::write_member<T, kPointer>(item);
      }
    });
    if constexpr (requires { Amend<T>::write(value, out); }) Amend<T>::write(value, out);
    return out;
  } else {
    return json::value_from(value);
  }
}

template <class T>
T read(const json::value& json) {
  if constexpr (requires { Codec<T>::read(json); }) {
    return Codec<T>::read(json);
  } else if constexpr (detail::kIsDuration<T>) {
    return std::chrono::round<T>(std::chrono::duration<double>(read<double>(json)));
  } else if constexpr (detail::Optional<T>) {
    T out{};
    if (!json.is_null()) out = read<std::remove_cvref_t<decltype(*out)>>(json);
    return out;
  } else if constexpr (detail::kIsVector<T>) {
    if (!json.is_array()) throw ReadError("", "must be an array");
    T out;
    for (const auto& item : json.get_array()) {
      out.push_back(detail::read_at<typename T::value_type>(item, out.size()));
    }
    return out;
  } else if constexpr (detail::kIsTextMap<T> || detail::kIsNumberMap<T>) {
    if (!json.is_object()) throw ReadError("", "must be an object");
    T out;
    for (const auto& [key, item] : json.get_object()) {
      try {
        out[detail::map_key<typename T::key_type>(key)] = read<typename T::mapped_type>(item);
      } catch (const ReadError& e) {
        throw e.under("'" + std::string(key) + "'");
      }
    }
    return out;
  } else if constexpr (detail::Described<T> && kAsArray<T>) {
    if (!json.is_array()) throw ReadError("", "must be an array");
    T out{};
    const auto& array = json.get_array();
    std::size_t i = 0;
    boost::mp11::mp_for_each<detail::Members<T>>([&](auto member) {
      using Member = std::remove_cvref_t<decltype(out.*member.pointer)>;
      if (i >= array.size()) throw ReadError("", "too few items");
      out.*member.pointer = detail::read_at<Member>(array[i], i);
      ++i;
    });
    return out;
  } else if constexpr (detail::Described<T>) {
    if (!json.is_object()) throw ReadError("", "must be an object");
    T out{};
    const auto& object = json.get_object();
    boost::mp11::mp_for_each<detail::Members<T>>([&](auto member) {
      constexpr auto kPointer = decltype(member)::pointer;
      using Member = std::remove_cvref_t<decltype(out.*kPointer)>;
      if constexpr (detail::listed<kPointer>(kInline<T>)) {
        out.*kPointer = read<Member>(json);  // its keys are among this struct's own
        return;
      }
      const std::string key = detail::key_of<T, kPointer>(member.name);
      const auto* field = object.if_contains(key);
      if (field == nullptr) {
        if constexpr (detail::Optional<Member> || detail::kIsVector<Member> ||
                      detail::listed<kPointer>(kWhenSet<T>) ||
                      detail::listed<kPointer>(kAddedLater<T>)) {
          return;
        }
        throw ReadError("", "missing key '" + std::string(key) + "'");
      }
      try {
        out.*kPointer = detail::read_member<T, kPointer, Member>(*field);
      } catch (const ReadError& e) {
        // The member's own value names its key; what is wrong inside a struct is under it.
        if (e.path().empty() && !detail::nests<Member>()) {
          throw ReadError("", "key '" + std::string(key) + "' " + e.problem());
        }
        throw e.under(key);
      }
    });
    if constexpr (requires { Amend<T>::read(object, out); }) Amend<T>::read(object, out);
    return out;
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!json.is_string()) throw ReadError("", "must be a string");
    return std::string(json.get_string());
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!json.is_bool()) throw ReadError("", "must be true or false");
    return json.get_bool();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!json.is_number()) throw ReadError("", "must be a number");
    return json.to_number<T>();
  } else if constexpr (std::is_integral_v<T>) {
    // A whole number in range, however Boost.JSON stored it (an integral double: 2.0 is 2).
    boost::system::error_code error;
    const auto n = json.is_number() ? json.to_number<T>(error) : T{};
    if (!json.is_number() || error) {
      throw ReadError(
          "", std::is_signed_v<T> ? "must be a whole number" : "must be a whole number, 0 or more");
    }
    return n;
  } else {
    return json::value_to<T>(json);
  }
}

// A whole document of schema `schema` ("loiter-survey/1"), called `what` ("survey") in what
// it throws: std::runtime_error for another schema or none, or for what cannot be read
// ("survey: measures[1]: missing key 'agreed'").
template <class T>
T read_document(const json::value& document, std::string_view what, std::string_view schema) {
  const auto* object = document.if_object();
  const auto* said = object ? object->if_contains("schema") : nullptr;
  if (said == nullptr || !said->is_string()) {
    throw std::runtime_error(std::string(what) + ": missing key 'schema'");
  }
  if (said->get_string() != schema) {
    throw std::runtime_error(std::string(what) + ": schema '" + std::string(said->get_string()) +
                             "' is not one this loiter reads ('" + std::string(schema) + "')");
  }
  try {
    return read<T>(document);
  } catch (const ReadError& e) {
    throw std::runtime_error(std::string(what) + ": " + e.what());
  }
}

}  // namespace loiter::reports::described
