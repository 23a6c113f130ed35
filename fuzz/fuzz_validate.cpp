// libFuzzer: `jolt-run validate` on arbitrary text — kind detection, the chrome-trace checks and
// the summary checks (embedded schema), and the summary checks under the input used as --schema.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "trace_validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const jolt::validate::Report r = jolt::validate::validate_text(text);
  if (!r.ok() && r.errors.empty() && r.kind != jolt::validate::FileKind::kUnknown) std::abort();
  (void)jolt::validate::format_report("fuzz", r);
  (void)jolt::validate::validate_chrome_trace(text);
  (void)jolt::validate::validate_summary(
      R"({"schema_version": 3, "spans": {}, "run": {"scale_log2": 12, "trace_length": 300, "padded_scale_log2": 9, "proof_size_bytes": 5, "verified": true}})",
      text);
  return 0;
}
