// `jolt-run report [RUN_DIR|latest]`: a run's summary.json as an 80-column console report, or
// `--json` for scripts. Exit 0 when printed, 1 when the summary cannot be found or read, 2 on
// usage errors.
#include <boost/program_options.hpp>
#include <iostream>
#include <string>

#include "commands/report/report.hpp"
#include "jolt/core/command.hpp"
#include "jolt/core/run_directory.hpp"
#include "jolt/host/summary_file.hpp"

namespace jolt::core {
namespace {

namespace po = boost::program_options;

int run_report(int argc, char** argv) {
  std::string out_dir;
  std::size_t top = kDefaultReportTop;
  po::options_description visible(
      "jolt-run report: a run's stages, top spans, dark time and counters, from its summary.json\n"
      "usage: jolt-run report [RUN_DIR | SUMMARY_JSON | latest] [options]\n"
      "(no argument or `latest`: the most recently started run that has a latest_* link\n"
      "under --out-dir)\noptions");
  visible.add_options()("help,h", "show this help")(
      "out-dir", po::value(&out_dir)->default_value("benchmark-runs"),
      "folder of run directories, for `latest`")(
      "top", po::value(&top)->default_value(kDefaultReportTop),
      "how many spans to list by self and by total time")("json", "print the report as JSON");
  po::options_description all;
  all.add(visible).add_options()("run", po::value<std::string>());
  po::positional_options_description pos;
  pos.add("run", 1);
  po::variables_map vm;
  try {
    parse_options(argc, argv, all, vm, &pos);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "jolt-run report: " << e.what() << "\n" << visible;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << visible;
    return 0;
  }
  if (top == 0) {
    std::cerr << "jolt-run report: --top 0: give at least 1\n";
    return 2;
  }
  const std::string arg = vm.count("run") ? vm["run"].as<std::string>() : "latest";
  try {
    const std::string path = resolve_summary_path(arg, out_dir);
    warn_if_unfinished_run("report", path);
    const rapidjson::Document summary = host::load_summary(path);
    const RunReport report = report_from_summary_json(summary, path, top);
    std::cout << (vm.count("json") ? render_report_json(report) : render_report_text(report));
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "jolt-run report: error: " << e.what() << "\n";
    return 1;
  }
}

const CommandRegistration kReg{"report", "print a run's stages, top spans and counters",
                               &run_report};

}  // namespace
}  // namespace jolt::core
