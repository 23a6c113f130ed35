// render_flame_svg (flame_svg.hpp): folded stacks -> frame tree -> one <g> per frame.
#include "flame_svg.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "folded_text.hpp"

namespace jolt::heap {
namespace {

constexpr double kWidth = 1200;  // drawing width in px
constexpr double kMargin = 10;
constexpr double kRowHeight = 17;
constexpr double kHeaderHeight = 44;
constexpr double kCharWidth = 6.6;  // average glyph width of 11 px monospace text

struct Frame {
  std::string name;
  std::uint64_t bytes = 0;  // inclusive
  std::map<std::string, std::unique_ptr<Frame>> children;
};

std::string escape_xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 allows no control characters but tab, newline and carriage return.
        out += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
    }
  }
  return out;
}

std::string with_commas(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string human_bytes(std::uint64_t n) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(n);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), u == 0 ? "%.0f %s" : "%.2f %s", v, units[u]);
  return buf;
}

std::string fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", v);
  return buf;
}

// A warm colour from the frame name, so one frame keeps its colour across charts.
std::string colour_for(const std::string& name) {
  std::uint32_t h = 2166136261u;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  const int r = 205 + static_cast<int>(h % 50);
  const int g = 80 + static_cast<int>((h >> 8) % 130);
  const int b = 40 + static_cast<int>((h >> 16) % 50);
  char buf[16];
  std::snprintf(buf, sizeof(buf), "#%02x%02x%02x", r, g, b);
  return buf;
}

std::vector<std::string> split_frames(const std::string& stack) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = stack.find(';', start);
    out.push_back(stack.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

std::size_t depth_of(const Frame& f) {
  std::size_t d = 0;
  for (const auto& [_, c] : f.children) d = std::max(d, depth_of(*c));
  return d + 1;
}

struct Drawing {
  std::string out;
  double scale = 0;   // px per byte
  double bottom = 0;  // y of the root row
  std::uint64_t total = 0;
};

void draw(Drawing& d, const Frame& f, const std::string& path, double x, std::size_t level) {
  const double w = static_cast<double>(f.bytes) * d.scale;
  const double y = d.bottom - static_cast<double>(level) * kRowHeight;
  const double share =
      d.total == 0 ? 0 : 100.0 * static_cast<double>(f.bytes) / static_cast<double>(d.total);
  d.out += "<g data-bytes=\"" + std::to_string(f.bytes) + "\" data-depth=\"" +
           std::to_string(level) + "\"><title>" + escape_xml(path) + "\n" + with_commas(f.bytes) +
           " bytes (" + human_bytes(f.bytes) + ", " + fixed(share) + " %)</title><rect x=\"" +
           fixed(x) + "\" y=\"" + fixed(y) + "\" width=\"" + fixed(std::max(w, 0.0)) +
           "\" height=\"" + fixed(kRowHeight - 1) + "\" fill=\"" +
           (level == 0 ? std::string("#c8c8c8") : colour_for(f.name)) + "\"/>";
  const std::size_t fits = w > 8 ? static_cast<std::size_t>((w - 6) / kCharWidth) : 0;
  if (fits >= 3) {
    // "name (size)" when it fits, else the name, cut short with ".." when even that does not.
    std::string label = f.name + " (" + human_bytes(f.bytes) + ")";
    if (label.size() > fits) label = f.name;
    if (label.size() > fits) label = label.substr(0, fits - 2) + "..";
    d.out += "<text x=\"" + fixed(x + 3) + "\" y=\"" + fixed(y + kRowHeight - 5) + "\">" +
             escape_xml(label) + "</text>";
  }
  d.out += "</g>\n";
  // Children left to right, largest first.
  std::vector<const Frame*> kids;
  for (const auto& [_, c] : f.children) kids.push_back(c.get());
  std::stable_sort(kids.begin(), kids.end(),
                   [](const Frame* a, const Frame* b) { return a->bytes > b->bytes; });
  double cx = x;
  for (const Frame* c : kids) {
    draw(d, *c, level == 0 ? c->name : path + ";" + c->name, cx, level + 1);
    cx += static_cast<double>(c->bytes) * d.scale;
  }
}

}  // namespace

std::string render_flame_svg(const std::string& title, const std::vector<FoldedStack>& stacks) {
  Frame root;
  root.name = "all";
  for (const FoldedStack& s : stacks) {
    if (s.bytes == 0) continue;
    root.bytes += s.bytes;
    Frame* at = &root;
    for (const std::string& name : split_frames(s.stack)) {
      auto& child = at->children[name];
      if (!child) {
        child = std::make_unique<Frame>();
        child->name = name;
      }
      child->bytes += s.bytes;
      at = child.get();
    }
  }
  const std::size_t rows = depth_of(root);
  const double height = kHeaderHeight + static_cast<double>(rows) * kRowHeight + kMargin;
  Drawing d;
  d.total = root.bytes;
  d.scale = root.bytes == 0 ? 0 : (kWidth - 2 * kMargin) / static_cast<double>(root.bytes);
  d.bottom = height - kMargin - kRowHeight;
  d.out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
      "version=\"1.1\" width=\"" +
      fixed(kWidth) + "\" height=\"" + fixed(height) + "\" viewBox=\"0 0 " + fixed(kWidth) + " " +
      fixed(height) + "\" data-total-bytes=\"" + std::to_string(root.bytes) + "\">\n";
  d.out +=
      "<style>text{font:11px monospace;fill:#000;pointer-events:none}"
      "g:hover rect{stroke:#000;stroke-width:1}.h{font:15px sans-serif}"
      ".s{font:12px sans-serif;fill:#555}</style>\n"
      "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#fafafa\"/>\n";
  d.out += "<text class=\"h\" x=\"" + fixed(kMargin) +
           "\" y=\"20\">Heap flame chart: " + escape_xml(title) + "</text>\n";
  d.out += "<text class=\"s\" x=\"" + fixed(kMargin) + "\" y=\"36\">" + with_commas(root.bytes) +
           " bytes (" + human_bytes(root.bytes) +
           ") exact, from the heap visitor; width = bytes, hover a box for its path</text>\n";
  draw(d, root, "all", kMargin, 0);
  d.out += "</svg>\n";
  return d.out;
}

std::string flame_svg_file_name(const std::string& label) {
  std::string name = folded_file_name(label);
  return name.substr(0, name.size() - std::string(".folded").size()) + ".svg";
}

}  // namespace jolt::heap
