// spdlog configuration from --log-level / JOLT_LOG / RUST_LOG.
#include "jolt/core/logging.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <stdexcept>

namespace jolt::core {

void configure_logging(const std::string& level_flag) {
  std::string level = level_flag;
  const char* source = "--log-level";
  if (level.empty()) {
    const char* env = std::getenv("JOLT_LOG");
    level = env ? env : "info";
    source = env ? "JOLT_LOG" : "default";
    // The original's variable, as the seed's commands set it (RUST_LOG=debug ... profile): used
    // when it is one plain level; a Rust filter list ("jolt_core=debug,info") is not ours to read.
    const char* rust = std::getenv("RUST_LOG");
    if (!env && rust) {
      const std::string r = rust;
      for (const char* name : {"trace", "debug", "info", "warn", "error", "off"})
        if (r == name) {
          level = r;
          source = "RUST_LOG";
        }
    }
  }
  auto parsed = spdlog::level::from_str(level);
  if (parsed == spdlog::level::off && level != "off")
    throw std::invalid_argument(std::string(source) + " '" + level +
                                "' is not a log level; use trace, debug, info, warn, error or off");
  auto logger = spdlog::get("jolt-run");
  if (!logger) logger = spdlog::stderr_color_mt("jolt-run");
  logger->set_pattern("[%H:%M:%S.%e %^%l%$] %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(parsed);
}

}  // namespace jolt::core
