// Boxed<T>: an optional T kept on the heap. It reads and writes like std::optional<T>
// (empty or one value, `if (box)`, `box->field`, `*box`, emplace(), reset(), comparison,
// a deep copy), but costs 8 bytes where it is empty. The connection record holds what only a
// few client kinds fill (a reader's pause, a TLS handshake, HTTP/2 frames) in boxes, so a
// held silent connection's record does not carry ~300 bytes of empty optionals.
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace loiter::clients {

template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(std::nullopt_t) {}  // NOLINT: implicit, as std::optional's
  Boxed(T value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT: implicit
  Boxed(std::optional<T> value) {                                    // NOLINT: implicit
    if (value) value_ = std::make_unique<T>(std::move(*value));
  }
  Boxed(const Boxed& other) : value_(other ? std::make_unique<T>(*other) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) value_ = other ? std::make_unique<T>(*other) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  ~Boxed() = default;

  template <typename... Args>
  T& emplace(Args&&... args) {
    value_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *value_;
  }
  void reset() { value_.reset(); }

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }
  T& value() {
    if (!value_) throw std::bad_optional_access();
    return *value_;
  }
  const T& value() const {
    if (!value_) throw std::bad_optional_access();
    return *value_;
  }
  std::optional<T> optional() const { return value_ ? std::optional<T>(*value_) : std::nullopt; }

  // Equal when both are empty, or both hold equal values (as std::optional).
  friend bool operator==(const Boxed& a, const Boxed& b) {
    if (!a || !b) return !a && !b;
    return *a == *b;
  }
  friend bool operator==(const Boxed& a, std::nullopt_t) { return !a; }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace loiter::clients
