// Folded-stacks text rendering and snapshot file naming.
#include "folded_text.hpp"

namespace jolt::heap {

std::string render_folded(const std::vector<FoldedStack>& stacks) {
  std::string out;
  for (const FoldedStack& s : stacks) {
    for (char c : s.stack) out += (c == '\n' || c == '\r') ? ' ' : c;
    out += ' ';
    out += std::to_string(s.bytes);
    out += '\n';
  }
  return out;
}

std::string folded_file_name(const std::string& label) {
  std::string name;
  for (char c : label) {
    const auto u = static_cast<unsigned char>(c);
    name += (c == '/' || u < 0x20 || u == 0x7f) ? '_' : c;
  }
  if (name.empty() || name.front() == '.') name.insert(name.begin(), '_');
  return name + ".folded";
}

}  // namespace jolt::heap
