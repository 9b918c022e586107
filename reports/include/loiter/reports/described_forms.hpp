// What a document's structs say to the described codec (described_json.hpp) beyond their
// description: the customization points (Codec, kForms, kAsArray, kLeavesOutNone,
// kWhenSet, kAddedLater, kInline, kKey, Amend), the error a read throws (ReadError, with where
// it is), and the forms several documents share (EnumWords, Float, Nanoseconds, FloatSeconds, a
// path as its text).
#pragma once

#include <boost/json.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

namespace loiter::reports::described {

namespace json = boost::json;

// Specialize with `static json::value write(const T&)` and `static T read(const json::value&)`
// for a type written otherwise.
template <class T>
struct Codec;

// A member its document writes in a form of its own rather than its type's (a span as whole
// nanoseconds where the codec's is seconds): `Form` has `static json::value write(const V&)`
// and `static V read(const json::value&)`, V the member's type or, for an optional member,
// what it holds (none is null, as ever), and may have `static constexpr const char* kSuffix`,
// which its key adds to the member's name ("_ns": max_send_lag_ns).
template <auto kMember, class Form>
struct As {
  static constexpr auto member = kMember;
  using form = Form;
};

// Specialize for a described struct as a tuple of its members' forms:
// std::tuple(As<&LoadResult::started, Nanoseconds<Clock::time_point>>{}, ...).
template <class T>
inline constexpr auto kForms = std::tuple();

// Specialize as true for a described struct written as an array of its members, in order.
template <class T>
inline constexpr bool kAsArray = false;

// Specialize as true for a described struct whose empty optionals are left out of its object,
// not written null (files that always left them out: a sample without TCP states).
template <class T>
inline constexpr bool kLeavesOutNone = false;

// Members of a described struct written only when set: left out while they hold their
// type's empty value (T{}: "", [], null, false, an enum's first), read as it when absent.
// Specialize as a tuple of member pointers: std::tuple(&Finding::since, &Finding::limit).
template <class T>
inline constexpr auto kWhenSet = std::tuple();

// Members of a described struct always written that documents from before them lack: read
// as their empty value when absent. A tuple of member pointers, as kWhenSet.
template <class T>
inline constexpr auto kAddedLater = std::tuple();

// Members of a described struct written among its own keys rather than as an object under
// theirs (a plan's parameters beside its name), and read from them. A tuple of member
// pointers, as kWhenSet.
template <class T>
inline constexpr auto kInline = std::tuple();

// The key of a member whose name is not its key: specialize for its pointer,
// kKey<&Finding::klass> = "class".
template <auto kMember>
inline constexpr const char* kKey = nullptr;

// Specialize for a described struct that is a little more than its members, with either or
// both of `static void write(const T&, json::object&)`: what is written after its members
// (a key said from them), and `static void read(const json::object&, T&)`: what is checked
// or completed once they are read. A ReadError either throws is said where the struct is.
template <class T>
struct Amend;

// What cannot be read, and where: `path` from the document's top ("sides[0].steps[2]"),
// `problem` in words ("missing key 'rate'"); what() joins them.
class ReadError : public std::invalid_argument {
 public:
  ReadError(std::string path, std::string problem)
      : std::invalid_argument(path.empty() ? problem : path + ": " + problem),
        path_(std::move(path)),
        problem_(std::move(problem)) {}
  const std::string& path() const { return path_; }
  const std::string& problem() const { return problem_; }
  // The same problem one step further out: under member `key`, or at index `i` of an array.
  ReadError under(std::string_view key) const { return {joined(std::string(key)), problem_}; }
  ReadError at(std::size_t i) const { return {joined("[" + std::to_string(i) + "]"), problem_}; }

 private:
  // `outer` then this path: "sides" and "[0].steps" make "sides[0].steps".
  std::string joined(std::string outer) const {
    return outer + (path_.empty() || path_.front() == '[' ? "" : ".") + path_;
  }
  std::string path_, problem_;
};

// A Codec for an enum written as its word (to_string), read back from any of `kValues`'
// words; another word is refused with the words it may be.
template <class E, const auto& kValues>
struct EnumWords {
  static json::value write(const E& value) { return json::string(to_string(value)); }
  static E read(const json::value& json) {
    if (!json.is_string()) throw ReadError("", "must be a word");
    const std::string_view said = json.get_string();
    std::string known;
    for (const auto value : kValues) {
      if (said == to_string(value)) return value;
      known += (known.empty() ? "'" : ", '") + std::string(to_string(value)) + "'";
    }
    throw ReadError("", "is '" + std::string(said) + "', not one of " + known);
  }
};

template <class T>
json::value write(const T& value);
template <class T>
T read(const json::value& json);

// Forms of a member (As). A double written as Boost.JSON writes any double (1E0, 4E2, 5E-2),
// never as the whole number it may be: the files that said their numbers so before this
// codec (shard.json, load.json) keep their bytes, and a plan's hash with them.
struct Float {
  static json::value write(double number) { return number; }
  static double read(const json::value& json) { return described::read<double>(json); }
};

// A span (a std::chrono::duration) or a moment (a time_point: since its clock's epoch) as
// whole nanoseconds, under the member's name and "_ns".
template <class T>
struct Nanoseconds {
  static constexpr const char* kSuffix = "_ns";
  static json::value write(const T& value) {
    return static_cast<std::int64_t>(std::chrono::nanoseconds(since_epoch(value)).count());
  }
  static T read(const json::value& json) {
    const std::chrono::nanoseconds ns(described::read<std::int64_t>(json));
    if constexpr (requires { typename T::clock; }) {
      return T(std::chrono::duration_cast<typename T::duration>(ns));
    } else {
      return std::chrono::duration_cast<T>(ns);
    }
  }

 private:
  static auto since_epoch(const T& value) {
    if constexpr (requires { value.time_since_epoch(); }) {
      return value.time_since_epoch();
    } else {
      return value;
    }
  }
};

// A span as seconds, always a double (1.8E3), under the member's name and "_s".
template <class Duration>
struct FloatSeconds {
  static constexpr const char* kSuffix = "_s";
  static json::value write(const Duration& span) {
    return std::chrono::duration<double>(span).count();
  }
  static Duration read(const json::value& json) {
    return std::chrono::duration_cast<Duration>(
        std::chrono::duration<double>(described::read<double>(json)));
  }
};

// A path as its text.
template <>
struct Codec<std::filesystem::path> {
  static json::value write(const std::filesystem::path& path) {
    return json::string(path.string());
  }
  static std::filesystem::path read(const json::value& json) {
    return described::read<std::string>(json);
  }
};

}  // namespace loiter::reports::described
