// JSON of plain structs described with Boost.Describe (BOOST_DESCRIBE_STRUCT): each member
// under its own name, durations as seconds (a double), an empty optional (or Boxed) as
// null, vectors as arrays. What a member needs beyond that is a Codec specialization: an
// enum's words ("connect-failed"), a pair written as [at, bytes]. Reading is the inverse:
// an optional or a vector a document lacks reads empty (documents from before it existed),
// any other member missing, or one of the wrong type, throws std::invalid_argument naming it.
#pragma once

#include <boost/describe/members.hpp>
#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace loiter::reports::described {

namespace json = boost::json;

// Specialize with `static json::value write(const T&)` and `static T read(const json::value&)`
// for a type written otherwise.
template <class T>
struct Codec;

// Specialize as true for a described struct written as an array of its members, in order.
template <class T>
inline constexpr bool kAsArray = false;

template <class T>
json::value write(const T& value);
template <class T>
T read(const json::value& json);

namespace detail {

template <class T>
inline constexpr bool kIsDuration = false;
template <class Rep, class Period>
inline constexpr bool kIsDuration<std::chrono::duration<Rep, Period>> = true;

template <class T>
inline constexpr bool kIsVector = false;
template <class T, class A>
inline constexpr bool kIsVector<std::vector<T, A>> = true;

// std::optional, or anything as it (clients::Boxed): a value, or none.
template <class T>
concept Optional = requires(T t) {
  { t.has_value() } -> std::same_as<bool>;
  *t;
  t.reset();
};

template <class T>
concept Described = boost::describe::has_describe_members<T>::value;

template <class T>
using Members = boost::describe::describe_members<T, boost::describe::mod_public>;

}  // namespace detail

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
  } else if constexpr (detail::Described<T> && kAsArray<T>) {
    json::array out;
    boost::mp11::mp_for_each<detail::Members<T>>(
        [&](auto member) { out.push_back(write(value.*member.pointer)); });
    return out;
  } else if constexpr (detail::Described<T>) {
    json::object out;
    boost::mp11::mp_for_each<detail::Members<T>>(
        [&](auto member) { out[member.name] = write(value.*member.pointer); });
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
    return std::chrono::round<T>(std::chrono::duration<double>(json.to_number<double>()));
  } else if constexpr (detail::Optional<T>) {
    T out{};
    if (!json.is_null()) out = read<std::remove_cvref_t<decltype(*out)>>(json);
    return out;
  } else if constexpr (detail::kIsVector<T>) {
    T out;
    for (const auto& item : json.as_array()) out.push_back(read<typename T::value_type>(item));
    return out;
  } else if constexpr (detail::Described<T> && kAsArray<T>) {
    T out{};
    const auto& array = json.as_array();
    std::size_t i = 0;
    boost::mp11::mp_for_each<detail::Members<T>>([&](auto member) {
      out.*member.pointer = read<std::remove_cvref_t<decltype(out.*member.pointer)>>(array.at(i++));
    });
    return out;
  } else if constexpr (detail::Described<T>) {
    T out{};
    const auto& object = json.as_object();
    boost::mp11::mp_for_each<detail::Members<T>>([&](auto member) {
      using Member = std::remove_cvref_t<decltype(out.*member.pointer)>;
      const auto* field = object.if_contains(member.name);
      if (field == nullptr) {
        if constexpr (detail::Optional<Member> || detail::kIsVector<Member>) return;
        throw std::invalid_argument(std::string("no \"") + member.name + "\"");
      }
      try {
        out.*member.pointer = read<Member>(*field);
      } catch (const std::invalid_argument&) {
        throw;
      } catch (const std::exception& e) {  // a value of another kind
        throw std::invalid_argument(std::string("\"") + member.name + "\": " + e.what());
      }
    });
    return out;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return std::string(json.as_string());
  } else if constexpr (std::is_same_v<T, bool>) {
    return json.as_bool();
  } else if constexpr (std::is_arithmetic_v<T>) {
    return json.to_number<T>();  // an integral double (2.0) reads as 2
  } else {
    return json::value_to<T>(json);
  }
}

}  // namespace loiter::reports::described
