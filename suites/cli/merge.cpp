// `loiter merge`: its options, its refusals, and what it prints and writes: the summary of
// the shards, why a run is incomplete, the merged run's directory (with shards.json) and
// report. Reading, merging and judging are merge_run's (the document library).
#include "merge.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "finish.hpp"
#include "loiter/suites/document/merge_run.hpp"
#include "loiter/suites/document/report.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/document/run_head.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "number_checks.hpp"
#include "refusals.hpp"

namespace loiter::cli {

namespace {

namespace fs = std::filesystem;

// The verdict's lines on stdout, and why on stderr too (as every exit 3 says).
int incomplete(const std::string& what, const std::vector<std::string>& problems) {
  fmt::print("INCOMPLETE  {}: not judged\n", what);
  for (const auto& p : problems) fmt::print("  - {}\n", p);
  std::fflush(stdout);
  std::cerr << fmt::format("loiter: {}: incomplete, not judged: {}{}\n", what,
                           problems.empty() ? std::string("no reason given") : problems.front(),
                           problems.size() > 1 ? fmt::format(" (and {} more)", problems.size() - 1)
                                               : std::string());
  return kInfrastructure;
}

// One line: which run the shards are of, and how late the latest started.
void print_shards(const suites::ShardsRead& read, double tolerance_s) {
  const auto& check = read.check;
  const auto& first = read.shards.front().header;
  fmt::print("{} shards of {} against {} (plan {}), started {}; latest start {:.3f} s late "
             "(shard {}), tolerance {:.3f} s\n",
             read.shards.size(), first.plan.scenario, first.plan.server, first.plan_hash,
             suites::format_utc(first.start_at), suites::in_seconds(check.worst_lag),
             check.worst_lag_shard, tolerance_s);
}

}  // namespace

void add_merge_options(CLI::App& command, MergeOptions& options) {
  command.add_option("shards", options.shards, "the shard directories (one for each of the K)")
      ->required();
  command.add_option("--observe", options.observe,
                     "what `loiter observe` wrote on the server's machine over the run")
      ->required();
  command.add_option("--runs", options.runs_root, "where the merged run directory is made")
      ->capture_default_str();
  command
      .add_option("--start-tolerance", options.start_tolerance,
                  "seconds a shard may start its clients late against the shared start")
      ->check(number_between(0, 3600))
      ->capture_default_str();
  command.add_option("--json", options.json_path, "also write the run document (report.json) here");
  command.add_option("--junit", options.junit_path, "also write a JUnit XML report here");
  command.footer(
      "Examples:\n"
      "  loiter merge runs/20261202T100000Z-nginx-shard-*-of-4 --observe runs/server\n"
      "\nExit codes: 0 passed, 1 failed, 2 a bad input, 3 incomplete (a shard missing, killed,\n"
      "failed or late; the server not watched over the whole run): never a pass.");
}

int run_merge(const MergeOptions& options) {
  refusing([&] {  // before any shard is read (exit 2)
    for (const auto& dir : options.shards) {
      if (!fs::is_directory(dir)) throw Refusal(dir + " is not a shard directory");
    }
    for (const auto& [option, path] :
         {std::pair{"--json", options.json_path}, std::pair{"--junit", options.junit_path}}) {
      if (auto problem = output_path_problem(option, path)) throw Refusal(*problem);
    }
  });
  const auto tolerance = std::chrono::duration_cast<clients::Duration>(
      std::chrono::duration<double>(options.start_tolerance));
  auto read = suites::read_shards({options.shards.begin(), options.shards.end()}, tolerance);
  if (!read.unreadable.empty()) return incomplete("shards unreadable", read.unreadable);
  print_shards(read, options.start_tolerance);
  const auto& first = read.shards.front().header;
  if (!read.check.problems.empty()) return incomplete(first.plan.scenario, read.check.problems);
  // A target file that changed, an unknown scenario, a watch that cannot be read (exit 2).
  const auto basis = refusing([&] { return suites::merge_basis(first.plan, options.observe); });
  const auto merged = suites::merge_run(std::move(read), basis);
  if (!merged.problems.empty()) return incomplete(std::string(basis.scenario->id), merged.problems);
  suites::RunDirectory directory(options.runs_root, basis.target.name);
  directory.add_scenario(merged.result);
  suites::write_file(directory.path() / "shards.json", merged.shards_json);
  auto report =
      suites::run_head(LOITER_VERSION, basis.target, suites::format_utc(merged.start_at));
  report.scenarios.push_back(suites::to_report(merged.result));
  return finish_run(report, directory, {.json = options.json_path, .junit = options.junit_path});
}

}  // namespace loiter::cli
