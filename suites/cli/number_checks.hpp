// Checks of numeric options that read as sentences in --help and in their refusals: "a
// positive number up to 1000000", "a number ≥ 0", "between 0 and 1". Each refuses what is
// not a finite number (nan, inf, text) and names the value; CLI11 puts the option's name
// in front ("--load-rate: nan is not a positive number up to 10000000").
#pragma once

#include <CLI/Error.hpp>
#include <CLI/Validators.hpp>
#include <chrono>
#include <optional>

namespace loiter::cli {

// value > 0, and <= `most` when given.
CLI::Validator positive_number(std::optional<double> most = std::nullopt);
// value >= 0, and <= `most` when given.
CLI::Validator non_negative_number(std::optional<double> most = std::nullopt);
// low <= value <= high.
CLI::Validator number_between(double low, double high);

// An option's seconds (already checked) as a duration.
inline std::chrono::nanoseconds seconds_given(double s) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(s));
}

}  // namespace loiter::cli
