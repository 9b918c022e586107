// The described codec's own traits and helpers (described_json.hpp's detail): what kind of
// value a type is, a member's key and form (kKey, kForms), an item read where it is.
#pragma once

#include <boost/describe/members.hpp>
#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>
#include <charconv>
#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "loiter/reports/described_forms.hpp"

namespace loiter::reports::described {

namespace detail {

template <class T>
inline constexpr bool kIsDuration = false;
template <class Rep, class Period>
inline constexpr bool kIsDuration<std::chrono::duration<Rep, Period>> = true;

template <class T>
inline constexpr bool kIsVector = false;
template <class T, class A>
inline constexpr bool kIsVector<std::vector<T, A>> = true;

template <class T>
inline constexpr bool kIsTextMap = false;
template <class T>
inline constexpr bool kIsTextMap<std::map<std::string, T>> = true;

// A map keyed by whole numbers (HTTP statuses): an object keyed by their digits, in order.
template <class T>
inline constexpr bool kIsNumberMap = false;
template <class K, class T>
requires std::is_integral_v<K>
inline constexpr bool kIsNumberMap<std::map<K, T>> = true;

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

// Whether `kMember` is one of `members` (kWhenSet, kAddedLater): pointers to any members.
template <auto kMember, class Tuple>
constexpr bool listed(const Tuple& members) {
  return std::apply(
      [](auto... listed_member) {
        return (false || ... || [&] {
          if constexpr (std::is_same_v<decltype(listed_member), decltype(kMember)>) {
            return listed_member == kMember;
          } else {
            return false;
          }
        }());
      },
      members);
}

// A member whose value is a struct of its own (or an optional one): what is wrong inside it
// is said under its name, not as its key's problem.
template <class T>
constexpr bool nests() {
  if constexpr (Described<T>) {
    return true;
  } else if constexpr (Optional<T>) {
    return Described<std::remove_cvref_t<decltype(*std::declval<T&>())>>;
  } else {
    return false;
  }
}

// read<V> of an array's item `i`, what is wrong in it said at [i].
template <class V>
V read_at(const json::value& item, std::size_t i) {
  try {
    return read<V>(item);
  } catch (const ReadError& e) {
    throw e.at(i);
  }
}

// A map's key from an object's: the text, or the whole number it must be.
template <class K>
K map_key(std::string_view key) {
  if constexpr (std::is_integral_v<K>) {
    K number{};
    const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), number);
    if (error != std::errc() || end != key.data() + key.size()) {
      throw ReadError("", "a key that is not a whole number");
    }
    return number;
  } else {
    return K(key);
  }
}

// The form kForms<T> gives member kMember (its As<...>::form), or void.
template <class T, auto kMember>
struct FormOf {
  template <class Entry>
  static constexpr bool names() {
    if constexpr (std::is_same_v<std::remove_cv_t<decltype(Entry::member)>, decltype(kMember)>) {
      return Entry::member == kMember;
    } else {
      return false;
    }
  }
  template <class Entry>
  using Named = boost::mp11::mp_bool<names<Entry>()>;
  using Entries = std::remove_cvref_t<decltype(kForms<T>)>;
  using At = boost::mp11::mp_find_if<Entries, Named>;
  using type = boost::mp11::mp_eval_if_c<At::value == boost::mp11::mp_size<Entries>::value, void,
                                         boost::mp11::mp_at, Entries, At>;
};
template <class T, auto kMember>
using Form = typename FormOf<T, kMember>::type::form;

// A member's key: kKey, else its name (and its form's suffix).
template <class T, auto kMember>
std::string key_of(const char* name) {
  if constexpr (kKey<kMember> != nullptr) {
    return kKey<kMember>;
  } else if constexpr (requires { Form<T, kMember>::kSuffix; }) {
    return std::string(name) + Form<T, kMember>::kSuffix;
  } else {
    return name;
  }
}

// A member's value in its form (an optional one's by what it holds), else by its type.
template <class T, auto kMember, class M>
json::value write_member(const M& item) {
  if constexpr (std::is_void_v<typename FormOf<T, kMember>::type>) {
    return write(item);
  } else if constexpr (Optional<M>) {
    return item.has_value() ? Form<T, kMember>::write(*item) : json::value(nullptr);
  } else {
    return Form<T, kMember>::write(item);
  }
}

template <class T, auto kMember, class M>
M read_member(const json::value& json) {
  if constexpr (std::is_void_v<typename FormOf<T, kMember>::type>) {
    return read<M>(json);
  } else if constexpr (Optional<M>) {
    return json.is_null() ? M{} : M(Form<T, kMember>::read(json));
  } else {
    return Form<T, kMember>::read(json);
  }
}

}  // namespace detail

}  // namespace loiter::reports::described
