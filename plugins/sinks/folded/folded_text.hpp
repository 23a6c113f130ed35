// The folded-stacks text format of one heap snapshot: "root;child;leaf BYTES" per line,
// exact bytes, the format flamegraph tools and summary.json's heap section read.
//
//   std::string text = jolt::heap::render_folded(snapshot.stacks);
//   std::string name = jolt::heap::folded_file_name("Stage1Batch_prepared");  // "...folded"
//
// Pure functions; thread-safe.
#pragma once
#include <string>
#include <vector>

#include <jolt/profile.hpp>

namespace jolt::heap {

// One line per stack, in the given order, each ending in '\n'. Line breaks inside frame names
// become spaces so every line stays one record.
std::string render_folded(const std::vector<FoldedStack>& stacks);

// "{label}.folded", with characters that cannot be in one file name ('/', NUL, control
// characters) replaced by '_' and a leading '.' escaped, so a label never leaves the run dir.
std::string folded_file_name(const std::string& label);

}  // namespace jolt::heap
