// Heap flame charts (plugins/sinks/folded/flame_svg.hpp): well-formed SVG whose byte totals equal
// the .folded files', written by the folded sink next to each .folded with svg=on.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <jolt/atomic_file.hpp>
#include <regex>

#include "flame_svg.hpp"
#include "folded_text.hpp"
#include "heap_test_support.hpp"

namespace fs = std::filesystem;
using namespace heap_test;

namespace {

// Exit status of a stdlib-only XML parse of `path` (0: well-formed).
int xml_parse_status(const std::string& path) {
  const std::string cmd =
      "/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' '" +
      path + "'";
  return std::system(cmd.c_str());
}

struct SvgTotals {
  std::uint64_t root = 0;       // data-total-bytes of <svg>
  std::uint64_t all_box = 0;    // the depth-0 box
  std::uint64_t depth_one = 0;  // sum of the root frames' boxes
  std::size_t boxes = 0;
};

SvgTotals totals_of(const std::string& svg) {
  SvgTotals t;
  const std::regex total("data-total-bytes=\"([0-9]+)\"");
  std::smatch m;
  if (std::regex_search(svg, m, total)) t.root = std::stoull(m[1]);
  const std::regex box("<g data-bytes=\"([0-9]+)\" data-depth=\"([0-9]+)\">");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), box); it != std::sregex_iterator();
       ++it) {
    ++t.boxes;
    const std::uint64_t bytes = std::stoull((*it)[1]);
    if ((*it)[2] == "0") t.all_box = bytes;
    if ((*it)[2] == "1") t.depth_one += bytes;
  }
  return t;
}

std::uint64_t folded_total(const std::string& text) {
  std::uint64_t sum = 0;
  for (const auto& [_, bytes] : roots_of_folded(text)) sum += bytes;
  return sum;
}

}  // namespace

TEST_CASE("a flame chart is well-formed XML, escapes frame names and keeps exact bytes") {
  const std::string dir = fresh_dir("flame_svg");
  const std::vector<jolt::FoldedStack> stacks = {{"Table<Fr>;rows & \"cols\"", 1000},
                                                 {"Table<Fr>;index", 24},
                                                 {"Plain", 3},
                                                 {"Zero;leaf", 0},
                                                 {"Table<Fr>;index", 6}};  // repeated stack: summed
  const std::string svg = jolt::heap::render_flame_svg("Label <with> & 'quotes'", stacks);
  const std::string path = dir + "/chart.svg";
  REQUIRE(jolt::write_file_atomically(path, svg).ok);
  CHECK(xml_parse_status(path) == 0);
  const SvgTotals t = totals_of(svg);
  CHECK(t.root == 1033);
  CHECK(t.all_box == 1033);
  CHECK(t.depth_one == 1033);
  CHECK(t.boxes == 5);  // all, Table<Fr>, rows & "cols", index, Plain (the zero stack is dropped)
  CHECK(svg.find("Table&lt;Fr&gt;;rows &amp; &quot;cols&quot;\n1,000 bytes") != std::string::npos);
  CHECK(svg.find("Table&lt;Fr&gt;;index\n30 bytes") != std::string::npos);
  CHECK(svg.find("Label &lt;with&gt; &amp; &apos;quotes&apos;") != std::string::npos);
  CHECK(jolt::heap::flame_svg_file_name("Stage2Batch_prepared") == "Stage2Batch_prepared.svg");
  CHECK(jolt::heap::flame_svg_file_name("../x") == "_.._x.svg");
  // The XML check itself fails on a broken document.
  REQUIRE(jolt::write_file_atomically(dir + "/broken.svg", svg.substr(0, svg.size() / 2)).ok);
  CHECK(xml_parse_status(dir + "/broken.svg") != 0);
}

TEST_CASE("folded sink svg=on: one flame chart per snapshot, totals equal the .folded totals") {
  const std::string dir = fresh_dir("flame_sink");
  const jolt::Profile p = synthetic_profile(dir);
  LoadedFoldedSink sink;
  REQUIRE(sink.configure({{"svg", "on"}}).ok);
  REQUIRE(sink.write(p).ok);
  for (const char* label : {"Stage1Batch_prepared", "Stage2Batch_prepared"}) {
    INFO(label);
    const std::string svg_path = dir + "/" + label + ".svg";
    REQUIRE(fs::exists(svg_path));
    CHECK(xml_parse_status(svg_path) == 0);
    const std::uint64_t expected = folded_total(read_file(dir + "/" + label + ".folded"));
    const SvgTotals t = totals_of(read_file(svg_path));
    CHECK(expected > 0);
    CHECK(t.root == expected);
    CHECK(t.depth_one == expected);
  }
}

TEST_CASE("folded sink: without svg=on no chart; bad options are named") {
  const std::string dir = fresh_dir("flame_off");
  const jolt::Profile p = synthetic_profile(dir);
  LoadedFoldedSink sink;
  REQUIRE(sink.write(p).ok);
  CHECK(fs::exists(dir + "/Stage1Batch_prepared.folded"));
  CHECK_FALSE(fs::exists(dir + "/Stage1Batch_prepared.svg"));
  LoadedFoldedSink other;
  const jolt::Status unknown = other.configure({{"colour", "red"}});
  CHECK_FALSE(unknown.ok);
  CHECK(unknown.message.find("colour") != std::string::npos);
  const jolt::Status bad_value = other.configure({{"svg", "maybe"}});
  CHECK_FALSE(bad_value.ok);
  CHECK(bad_value.message.find("svg=maybe") != std::string::npos);
}
