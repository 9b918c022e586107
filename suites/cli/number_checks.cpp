// Numeric option checks whose words are plain numbers (never DBL_MAX's 309 digits, never an
// exponent) and which refuse nan and inf.
#include "number_checks.hpp"

#include <fmt/format.h>

#include <CLI/TypeTools.hpp>
#include <cmath>
#include <functional>
#include <string>

#include "loiter/reports/number_text.hpp"

namespace loiter::cli {

namespace {

using reports::plain_number;

// `description` is what a valid value is ("a number ≥ 0"); `fits` says whether a finite
// value is one.
CLI::Validator number_check(std::string description, std::function<bool(double)> fits) {
  return CLI::Validator(
      [description, fits](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || !fits(value)) {
          return fmt::format("'{}' is not {}", text, description);
        }
        return {};
      },
      description);
}

std::string up_to(std::optional<double> most) {
  return most ? " up to " + plain_number(*most) : "";
}

}  // namespace

CLI::Validator positive_number(std::optional<double> most) {
  return number_check("a positive number" + up_to(most),
                      [most](double v) { return v > 0 && (!most || v <= *most); });
}

CLI::Validator non_negative_number(std::optional<double> most) {
  return number_check("a number ≥ 0" + up_to(most),
                      [most](double v) { return v >= 0 && (!most || v <= *most); });
}

CLI::Validator number_between(double low, double high) {
  return number_check(fmt::format("a number between {} and {}", plain_number(low),
                                  plain_number(high)),
                      [low, high](double v) { return v >= low && v <= high; });
}

}  // namespace loiter::cli
