// A heap snapshot's folded stacks as a self-contained SVG flame chart: one box per frame, its
// width proportional to the exact bytes under it, roots at the bottom, each box labelled (when
// wide enough) and carrying a hover <title> with the frame's path and exact bytes. No script,
// no external resources: any SVG viewer or browser shows it.
//
//   std::string svg = jolt::heap::render_flame_svg("Stage2Batch_prepared", snapshot.stacks);
//   std::string name = jolt::heap::flame_svg_file_name("Stage2Batch_prepared");  // "....svg"
//
// Every box has data-bytes (its inclusive bytes); the root box "all" has the snapshot total,
// which equals the sum of the .folded file's byte counts. Pure functions; thread-safe.
#pragma once
#include <string>
#include <vector>

#include <jolt/profile.hpp>

namespace jolt::heap {

std::string render_flame_svg(const std::string& title, const std::vector<FoldedStack>& stacks);

// folded_file_name(label) with ".svg" in place of ".folded".
std::string flame_svg_file_name(const std::string& label);

}  // namespace jolt::heap
