// Console logging setup (spdlog): --log-level wins, else env JOLT_LOG (like RUST_LOG), else info.
#pragma once
#include <string>

namespace jolt::core {
// Throws std::invalid_argument naming the bad level and the accepted ones.
void configure_logging(const std::string& level_flag);
}  // namespace jolt::core
