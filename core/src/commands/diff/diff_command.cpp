// `jolt-run diff A B`: two runs, or two sets of repeated runs, compared metric by metric from
// their summary.json files; or two CSV files of the csv sink (modular_timings.csv), compared by
// prove time per (workload, scale) pair (see diff.hpp for the verdicts). Exit 0 when printed, 1
// when a file cannot be read or --fail-on-regression trips, 2 on usage errors.
#include <algorithm>
#include <boost/algorithm/string.hpp>
#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "commands/diff/diff.hpp"
#include "jolt/core/command.hpp"
#include "jolt/core/run_directory.hpp"
#include "jolt/host/summary_file.hpp"

namespace jolt::core {
namespace {

namespace po = boost::program_options;

int run_diff(int argc, char** argv) {
  std::string a_arg, b_arg;
  std::size_t top = 10;
  double fail_pct = -1;
  po::options_description visible(
      "jolt-run diff: compare two runs (or two sets of repeated runs) stage by stage, or two\n"
      "timing CSVs pair by pair\n"
      "usage: jolt-run diff A B [options]\n"
      "A and B: a run directory or a summary.json, or a comma-separated list of them (repeated\n"
      "runs of one side); with 4 or more runs per side each metric gets a rank-test verdict.\n"
      "Or both CSV files (modular_timings.csv, e.g. one per build; a comma-separated list is\n"
      "one side): each (workload, scale) pair's prove time is compared, its rows on a side\n"
      "being its repeated runs\n"
      "options");
  visible.add_options()("help,h", "show this help")(
      "top", po::value(&top)->default_value(10),
      "how many span labels to compare (largest total time on either side; not for CSVs)")(
      "markdown", "print a Markdown table")(
      "fail-on-regression", po::value(&fail_pct),
      "exit 1 when the prove time of B is more than PCT percent above A's (and, with repeats, "
      "the rank test agrees); for CSVs, of any pair");
  po::options_description all;
  all.add(visible).add_options()("a", po::value(&a_arg))("b", po::value(&b_arg));
  po::positional_options_description pos;
  pos.add("a", 1).add("b", 1);
  po::variables_map vm;
  try {
    parse_options(argc, argv, all, vm, &pos);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "jolt-run diff: " << e.what() << "\n" << visible << "\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << visible << "\n";
    return 0;
  }
  if (a_arg.empty() || b_arg.empty()) {
    std::cerr << "jolt-run diff: two sides are needed: jolt-run diff A B\n";
    return 2;
  }
  if (vm.count("fail-on-regression") && !(fail_pct >= 0)) {
    std::cerr << "jolt-run diff: --fail-on-regression " << fail_pct
              << ": expected a percentage, 0 or more (e.g. 5 for +5 %)\n";
    return 2;
  }
  auto paths_of = [](const std::string& arg) {
    std::vector<std::string> paths;
    boost::split(paths, arg, boost::is_any_of(","));
    paths.erase(std::remove(paths.begin(), paths.end(), std::string()), paths.end());
    return paths;
  };
  const std::vector<std::string> a_paths = paths_of(a_arg), b_paths = paths_of(b_arg);
  for (const auto* paths : {&a_paths, &b_paths})
    for (std::size_t i = 0; i < paths->size(); ++i)
      if (std::find(paths->begin(), paths->begin() + static_cast<std::ptrdiff_t>(i), (*paths)[i]) !=
          paths->begin() + static_cast<std::ptrdiff_t>(i)) {
        std::cerr << "jolt-run diff: " << (*paths)[i] << " is listed twice on side "
                  << (paths == &a_paths ? "A" : "B") << "; a run counts once\n";
        return 2;
      }
  std::size_t csvs = 0;
  for (const auto* paths : {&a_paths, &b_paths})
    csvs += static_cast<std::size_t>(std::count_if(paths->begin(), paths->end(), is_csv_path));
  if (csvs != 0 && csvs != a_paths.size() + b_paths.size()) {
    std::cerr << "jolt-run diff: A and B mix CSV files with runs: compare two CSVs "
                 "(modular_timings.csv) or two sets of runs (run directories, summary.json)\n";
    return 2;
  }
  try {
    if (csvs != 0) {
      const CsvDiffReport d =
          diff_csv(load_csv_side(a_paths), a_arg, load_csv_side(b_paths), b_arg);
      std::cout << (vm.count("markdown") ? render_csv_diff_markdown(d) : render_csv_diff_text(d));
      if (fail_pct >= 0) {
        const std::vector<const PairDiff*> bad = regressed_pairs(d, fail_pct);
        if (!bad.empty()) {
          std::string names;
          for (const PairDiff* p : bad)
            names += (names.empty() ? "" : ", ") + p->workload + " 2^" + std::to_string(p->scale);
          std::cerr << "jolt-run diff: prove time regressed by more than " << fail_pct << "% for "
                    << names << "\n";
          return 1;
        }
      }
      return 0;
    }
    for (const auto* side : {&a_paths, &b_paths})
      for (const std::string& p : *side) warn_if_unfinished_run("diff", p);
    const DiffReport d = diff_runs(load_side(a_paths), load_side(b_paths), top);
    std::cout << (vm.count("markdown") ? render_diff_markdown(d) : render_diff_text(d));
    if (fail_pct >= 0 && regressed(d, fail_pct)) {
      std::cerr << "jolt-run diff: prove time regressed by more than " << fail_pct << "%\n";
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "jolt-run diff: error: " << e.what() << "\n";
    return 1;
  }
}

const CommandRegistration kDiff{"diff", "compare two runs or two sets of runs, stage by stage",
                                &run_diff};

}  // namespace
}  // namespace jolt::core
