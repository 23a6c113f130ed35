// Artifact validation behind `jolt-run validate`: a chrome trace.json checked against the rules
// Perfetto's JSON importer applies, a summary.json against the checked-in JSON Schema (embedded
// at build time) plus semantic checks. The file kind is detected from the content.
//
//   jolt::validate::Report r = jolt::validate::validate_file("benchmark-runs/latest_x/trace.json");
//   if (!r.ok()) for (const auto& e : r.errors) std::cerr << e << '\n';
//   std::cout << jolt::validate::format_report("trace.json", r);
//
// Pure functions of their input; thread-safe.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace jolt::validate {

enum class FileKind { kUnknown, kChromeTrace, kSummary };

struct Report {
  FileKind kind = FileKind::kUnknown;
  std::vector<std::string> errors;    // each names the event index / JSON pointer and the rule
  std::vector<std::string> warnings;  // accepted by Perfetto but probably unintended
  // Trace statistics (chrome traces only).
  std::size_t events = 0, spans = 0, instants = 0, counter_events = 0, threads = 0;
  bool ok() const { return kind != FileKind::kUnknown && errors.empty(); }
};

// Checks a chrome trace: container (bare array or {"traceEvents": [...]}), required fields per
// phase, B/E balance and strict nesting per (pid, tid), non-decreasing ts per thread, counter
// args numeric, metadata names and args.
Report validate_chrome_trace(std::string_view json_text);

// Checks a summary.json against `schema_text` (the embedded schema when empty) and semantics:
// schema_version 2 (an older version is reported as such, without the schema) / taxonomy_version 2,
// root label, dark <= wall, self <= total, heap totals.
Report validate_summary(std::string_view json_text, std::string_view schema_text = {});

// Detects the kind from the parsed content and dispatches.
Report validate_text(std::string_view json_text, std::string_view schema_text = {});
// Reads `path` once (an unreadable file is reported as an error naming it); a file longer than
// max_bytes is refused with an error naming the bound, without reading past it.
inline constexpr std::size_t kDefaultMaxInputBytes = std::size_t{1} << 30;
Report validate_file(const std::string& path, std::string_view schema_text = {},
                     std::size_t max_bytes = kDefaultMaxInputBytes);

// Human-readable report: kind, verdict, statistics, errors and warnings (first 50 of each).
std::string format_report(const std::string& path, const Report& report);

// The text of schema/summary.schema.json compiled into the binary.
std::string_view embedded_summary_schema();

}  // namespace jolt::validate
