// `loiter ladder --held`: the denial ladder. Chooses the targets as the rate ladder does,
// runs suites/ladder's denial steps, and shows and stores the document (denial.json,
// denial.html, the console, JUnit on request).
#include <fmt/format.h>

#include <charconv>
#include <iostream>
#include <sstream>

#include "exit_codes.hpp"
#include "ladder.hpp"
#include "loiter/reports/denial_render.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/ladder/denial_run.hpp"
#include "loiter/suites/runner/files.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "number_checks.hpp"
#include "refusals.hpp"

namespace loiter::cli {

namespace {

constexpr double kDenialP99Ms = 200;  // the bound when the target promises no load_p99
constexpr std::size_t kDenialPool = 16;

// "100,1000,10000" -> {100, 1000, 10000}: whole counts; their order is checked by the run's
// own check (rising), so it names the whole list.
std::vector<std::size_t> held_steps(const std::string& text) {
  std::vector<std::size_t> steps;
  std::string_view rest = text;
  while (true) {
    const auto item = rest.substr(0, rest.find(','));
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (ec != std::errc() || end != item.data() + item.size() || value == 0) {
      throw std::invalid_argument(fmt::format(
          "--held: '{}' is not a whole number of connections (a list: 100,1000,10000)", item));
    }
    steps.push_back(value);
    if (item.size() == rest.size()) break;
    rest.remove_prefix(item.size() + 1);
  }
  return steps;
}

}  // namespace

int run_denial_command(const LadderOptions& options) {
  suites::ladder::DenialRequest request;
  std::optional<suites::RunDirectory> directory;
  refusing([&] {
    request.sides = ladder_sides(options);
    request.held = held_steps(options.held);
    request.kinds = options.kinds;
    request.rate = options.rate;
    request.ramp = options.ramp;
    request.connections = options.connections != 0 ? options.connections : kDenialPool;
    try {
      request.least_2xx_share = tolerance_from(options.least_2xx);
    } catch (const std::invalid_argument&) {
      request.least_2xx_share = 0;
    }
    if (request.least_2xx_share <= 0) {
      throw std::invalid_argument(fmt::format(
          "--least-2xx: '{}' is not a share above 0 and under 100%, such as 99% or 0.99",
          options.least_2xx));
    }
    suites::ladder::check_denial_request(request);
    directory.emplace(run_directory_for(options, request.sides, "denial"));
  });
  request.duration = seconds_given(options.duration > 0 ? options.duration : 5);
  set_run_fields(request, options, kDenialP99Ms);
  const auto denial = suites::ladder::run_denial(request);
  reports::render_console(denial, std::cout);
  const auto json = reports::denial_text(denial);
  suites::write_file(directory->path() / "denial.json", json);
  std::ostringstream html;
  reports::render_html(denial, html);
  suites::write_file(directory->path() / "denial.html", html.str());
  if (!options.json_path.empty()) suites::write_file(options.json_path, json);
  if (!options.junit_path.empty()) {
    std::ostringstream junit;
    reports::render_junit(denial, junit);
    suites::write_file(options.junit_path, junit.str());
  }
  std::cout << fmt::format("run directory: {}\n", directory->path().string());
  if (denial.interrupted) return kInterrupted;
  return reports::candidate_denied_sooner(denial) ? kFailed : kPassed;
}

}  // namespace loiter::cli
