// The catalogue's tests look scenarios and their expectations up by id.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/suites/catalogue/scenario.hpp"

namespace loiter::suites::testing {

// The scenario `id`; throws std::invalid_argument for an id the catalogue does not have.
inline const Scenario& scenario(std::string_view id) {
  const auto* found = find_scenario(id);
  if (found == nullptr) throw std::invalid_argument(std::string(id));
  return *found;
}

// What `id` expects of `target` with 10 connections, at time scale 1.
inline Expectations expect(std::string_view id, const fixtures::Target& target) {
  return scenario(id).expect(target, timing(1.0), {.count = 10});
}

// The closure `id` expects of `target`; throws std::logic_error when it expects none.
inline ClosureExpectation closure_of(std::string_view id, const fixtures::Target& target) {
  const auto expected = expect(id, target);
  if (!expected.closure) throw std::logic_error(std::string(id) + " expects no closure");
  return *expected.closure;
}

// The endings a closure allows, in words ("close", "408+close"), in its order.
inline std::vector<std::string> words(const std::vector<clients::EndingLabel>& endings) {
  std::vector<std::string> out;
  for (const auto& label : endings) out.push_back(to_string(label));
  return out;
}

}  // namespace loiter::suites::testing
