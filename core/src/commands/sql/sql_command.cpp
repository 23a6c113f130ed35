// `jolt-run sql [RUN_DIR|latest] "QUERY"`: one read-only SQL statement on a run's trace.db (built
// from its trace.json when the run had no sqlite sink; see sql.hpp), printed as an aligned table,
// CSV or JSON. Exit 0 when printed, 1 when the run, its trace or the query fails (nothing is
// written into the run directory then), 2 on usage errors.
#include <boost/filesystem.hpp>
#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "commands/sql/sql.hpp"
#include "jolt/core/command.hpp"
#include "jolt/core/run_directory.hpp"

namespace jolt::core {
namespace {

namespace po = boost::program_options;

int run_sql(int argc, char** argv) {
  std::string out_dir;
  po::options_description visible(
      "jolt-run sql: a SQL query on a run's trace (trace.db; tables slice, thread, thread_track,\n"
      "counter_track, counter, args, process, metadata, named as Perfetto's trace_processor\n"
      "names them)\n"
      "usage: jolt-run sql [RUN_DIR | latest] \"QUERY\" [options]\n"
      "e.g.   jolt-run sql latest \"SELECT name, COUNT(*) AS n, SUM(dur)/1e9 AS total_s FROM "
      "slice\n"
      "         GROUP BY name ORDER BY total_s DESC LIMIT 15\"\n"
      "(no RUN_DIR or `latest`: the most recently started run that has a latest_* link under\n"
      "--out-dir. A run without trace.db gets one built from its trace.json, kept in the run\n"
      "directory only when the query succeeds)\noptions");
  visible.add_options()("help,h", "show this help")(
      "out-dir", po::value(&out_dir)->default_value("benchmark-runs"),
      "folder of run directories, for `latest`")("csv", "print CSV (header line, RFC 4180)")(
      "json", "print a JSON array of one object per row");
  po::options_description all;
  all.add(visible).add_options()("positional", po::value<std::vector<std::string>>());
  po::positional_options_description pos;
  pos.add("positional", -1);
  po::variables_map vm;
  try {
    parse_options(argc, argv, all, vm, &pos);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "jolt-run sql: " << e.what() << "\n" << visible;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << visible;
    return 0;
  }
  const std::vector<std::string> args = vm.count("positional")
                                            ? vm["positional"].as<std::vector<std::string>>()
                                            : std::vector<std::string>{};
  if (args.empty() || args.size() > 2) {
    std::cerr << "jolt-run sql: expected [RUN_DIR | latest] \"QUERY\" (got " << args.size()
              << " arguments; quote the query)\n";
    return 2;
  }
  if (args.size() == 1 && (args[0] == "latest" || boost::filesystem::is_directory(args[0]))) {
    std::cerr << "jolt-run sql: '" << args[0]
              << "' is a run, not a query: pass the query after it, e.g. jolt-run sql " << args[0]
              << " \"SELECT COUNT(*) FROM slice\"\n";
    return 2;
  }
  if (vm.count("csv") && vm.count("json")) {
    std::cerr << "jolt-run sql: --csv and --json exclude each other; pick one\n";
    return 2;
  }
  const std::string run_arg = args.size() == 2 ? args[0] : "latest";
  const std::string& query = args.back();
  try {
    const std::string run_dir = resolve_run_directory(run_arg, out_dir);
    warn_if_unfinished_run("sql", run_dir);
    TraceDb db = open_trace_db(run_dir);
    const QueryResult result = run_query(db.path(), query);
    db.keep();
    if (!db.note().empty()) std::cerr << "jolt-run sql: " << db.note() << "\n";
    std::cout << (vm.count("csv")    ? render_csv(result)
                  : vm.count("json") ? render_json(result)
                                     : render_table(result));
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "jolt-run sql: error: " << e.what() << "\n";
    return 1;
  }
}

const CommandRegistration kSql{"sql", "run a SQL query on a run's trace (trace.db)", &run_sql};

}  // namespace
}  // namespace jolt::core
