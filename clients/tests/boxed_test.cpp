// Boxed<T>, the record's optional parts kept on the heap, behaves as std::optional<T> does
// for everything a record's reader or writer does with it.
#include "loiter/clients/boxed.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "loiter/clients/record.hpp"

namespace loiter::clients {
namespace {

struct Part {
  std::string name;
  int count = 0;
  bool operator==(const Part&) const = default;
};

// Empty by default, filled by emplace() or by assignment, emptied by reset() or nullopt.
TEST(Boxed, FillsAndEmptiesAsAnOptional) {
  Boxed<Part> box;
  EXPECT_FALSE(box);
  EXPECT_EQ(box, std::nullopt);
  box.emplace().count = 3;
  ASSERT_TRUE(box.has_value());
  EXPECT_EQ(box->count, 3);
  box = Part{.name = "a", .count = 1};
  EXPECT_EQ((*box).name, "a");
  box = std::nullopt;
  EXPECT_FALSE(box);
  box = std::optional<Part>(Part{.name = "b"});
  EXPECT_EQ(box.value().name, "b");
  box.reset();
  EXPECT_THROW(box.value(), std::bad_optional_access);
}

// A copy owns its own value (a copied record never shares its parts), and boxes compare by
// their values.
TEST(Boxed, CopiesAreDeepAndCompareByValue) {
  Boxed<Part> box = Part{.name = "a", .count = 1};
  Boxed<Part> copy = box;
  EXPECT_EQ(copy, box);
  copy->count = 2;
  EXPECT_EQ(box->count, 1);
  EXPECT_FALSE(copy == box);
  EXPECT_FALSE(Boxed<Part>{} == box);
  EXPECT_EQ(Boxed<Part>{}, Boxed<Part>{});
}

// A silent connection's record carries its TLS, HTTP/2, HTTP/3 and reader-pause parts as four
// pointers, not as ~500 bytes of empty optionals.
TEST(Boxed, KeepsTheRecordsRarelyFilledPartsSmall) {
  EXPECT_EQ(sizeof(Boxed<TlsRecord>), sizeof(void*));
  EXPECT_EQ(sizeof(Boxed<H3Record>), sizeof(void*));
  EXPECT_LE(sizeof(ConnectionRecord), 264u);
}

}  // namespace
}  // namespace loiter::clients
