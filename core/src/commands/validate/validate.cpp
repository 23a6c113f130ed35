// `jolt-run validate FILE...`: checks trace.json / summary.json artifacts and prints a report;
// exit 0 when every file is valid, 1 when one is invalid, 2 on usage errors.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include <jolt/core/command.hpp>

#include "trace_validator.hpp"

namespace {

namespace po = boost::program_options;

int run_validate(int argc, char** argv) {
  po::options_description visible("Usage: jolt-run validate [--schema FILE] FILE...\nOptions");
  visible.add_options()("help,h", "show this help")(
      "schema", po::value<std::string>(), "summary JSON Schema to use instead of the one built in")(
      "quiet,q", "print only invalid files")(
      "max-bytes", po::value<std::size_t>()->default_value(jolt::validate::kDefaultMaxInputBytes),
      "refuse files larger than this many bytes");
  po::options_description all;
  all.add(visible).add_options()("file", po::value<std::vector<std::string>>());
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  try {
    jolt::core::parse_options(argc, argv, all, vm, &pos);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "jolt-run validate: " << e.what() << "\n" << visible;
    return 2;
  }
  if (vm.count("help")) {
    std::cout
        << visible
        << "\nThe kind is detected from the content: a JSON array or {\"traceEvents\": ...} is a\n"
           "chrome trace, an object with schema_version is a summary.json.\n";
    return 0;
  }
  if (!vm.count("file")) {
    std::cerr << "jolt-run validate: no FILE given (e.g. "
                 "benchmark-runs/latest_modular_fibonacci_16/trace.json)\n"
              << visible;
    return 2;
  }
  std::string schema;
  const std::size_t max_bytes = vm["max-bytes"].as<std::size_t>();
  if (vm.count("schema")) {
    const std::string& path = vm["schema"].as<std::string>();
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "jolt-run validate: cannot read schema " << path << '\n';
      return 2;
    }
    constexpr std::size_t kMaxSchemaBytes = std::size_t{16} << 20;
    std::string text(kMaxSchemaBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxSchemaBytes) {
      std::cerr << "jolt-run validate: schema " << path << " is larger than " << kMaxSchemaBytes
                << " bytes; is it really a JSON Schema?\n";
      return 2;
    }
    schema = std::move(text);
  }
  const bool quiet = vm.count("quiet") != 0;
  int rc = 0;
  for (const std::string& path : vm["file"].as<std::vector<std::string>>()) {
    const jolt::validate::Report r = jolt::validate::validate_file(path, schema, max_bytes);
    if (!r.ok()) rc = 1;
    if (!quiet || !r.ok())
      (r.ok() ? std::cout : std::cerr) << jolt::validate::format_report(path, r);
  }
  return rc;
}

const jolt::core::CommandRegistration kReg{"validate", "check a trace.json or summary.json",
                                           &run_validate};

}  // namespace
