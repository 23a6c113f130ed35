// summary.json rendering: ProfileSummary (summary.hpp) as pretty JSON in schema-v2 field order,
// nullable fields written as null.
//
//   const jolt::ProfileSummary s = jolt::summarize(profile);
//   const std::string text = jolt::sinks::summary_to_json(s);
//   jolt::write_file_atomically(ctx.run_dir + "/summary.json", text);
//
// Pure function; thread-safe.
#pragma once
#include <optional>
#include <string>

#include <jolt/summary.hpp>

namespace jolt::sinks {

std::string summary_to_json(const ProfileSummary& summary);

// `git rev-parse --short HEAD` run in the current directory; nullopt when git or the repo is
// absent.
std::optional<std::string> git_short_rev();

}  // namespace jolt::sinks
