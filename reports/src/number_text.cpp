// Fixed notation with a number of significant digits, trailing zeros dropped.
#include "loiter/reports/number_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace loiter::reports {

namespace {

constexpr int kMostDecimals = 9;

}  // namespace

std::string plain_number(double value, int significant) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::clamp(significant - 1 - exponent, 0, kMostDecimals);
  auto text = fmt::format("{:.{}f}", value, decimals);
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

std::string signed_number(double value, int significant) {
  auto text = plain_number(value, significant);
  return text.front() == '-' || text == "nan" ? text : "+" + text;
}

std::string grouped_number(double value, int significant) {
  auto text = plain_number(value, significant);
  const auto first = text.find_first_of("0123456789");
  if (first == std::string::npos) return text;  // nan, inf
  const auto end = std::min(text.find('.'), text.size());
  std::string grouped = text.substr(0, first);
  for (auto at = first; at < end; ++at) {
    if (at > first && (end - at) % 3 == 0) grouped += ',';
    grouped += text[at];
  }
  return grouped + text.substr(end);
}

}  // namespace loiter::reports
