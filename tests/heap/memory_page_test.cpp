// memory.html as text: placeholder gone, labels and exact bytes inlined, nothing external,
// the data cannot close its script element, and the RSS envelope is decimated.
#include <doctest/doctest.h>

#include <algorithm>

#include "heap_test_support.hpp"
#include "memory_page.hpp"

using namespace heap_test;

namespace {
std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("the embedded template is the checked-in file with exactly one placeholder") {
  const std::string_view tpl = jolt::heap::memory_page_template();
  CHECK(count(std::string(tpl), std::string(jolt::heap::kDataPlaceholder)) == 1);
  CHECK(tpl.starts_with("<!DOCTYPE html>"));
  CHECK(tpl.find("</html>") != std::string_view::npos);
  CHECK(tpl.find('\0') == std::string_view::npos);
}

TEST_CASE("memory.html is self-contained and carries every snapshot") {
  const std::string dir = fresh_dir("page");
  const jolt::Profile p = synthetic_profile(dir);
  LoadedFoldedSink sink;
  REQUIRE(sink.write(p).ok);
  const std::string html = read_file(dir + "/memory.html");
  CHECK(html.find(jolt::heap::kDataPlaceholder) == std::string::npos);
  CHECK(html.find("Stage1Batch_prepared") != std::string::npos);
  CHECK(html.find("Stage2Batch_prepared") != std::string::npos);
  CHECK(html.find("modular_fibonacci_13") != std::string::npos);
  CHECK(html.find("\"SpartanOuter;az_table\",805306368") != std::string::npos);
  CHECK(html.find("\"prove_stage2\"") != std::string::npos);
  CHECK(html.find("http://") == std::string::npos);
  CHECK(html.find("https://") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
}

TEST_CASE("a frame name cannot close the data script element") {
  const std::string dir = fresh_dir("page-escape");
  jolt::Profile p = synthetic_profile(dir);
  p.heap[0].stacks.push_back({"Evil</script><script>alert(1)</script>;x", 5});
  LoadedFoldedSink sink;
  REQUIRE(sink.write(p).ok);
  const std::string html = read_file(dir + "/memory.html");
  CHECK(count(html, "</script>") == 2);  // the page's own two script elements
  CHECK(html.find("Evil\\u003c/script>") != std::string::npos);
}

TEST_CASE("page data: times relative to the root, peak RSS from the Profile") {
  const jolt::Profile p = synthetic_profile("/nonexistent");
  const auto timeline = jolt::heap::find_root_timeline(p);
  REQUIRE(timeline);
  CHECK(timeline->root.start_ns == 10 * kMs);
  CHECK(timeline->root.end_ns == 1210 * kMs);
  REQUIRE(timeline->stages.size() == 4);
  CHECK(timeline->stages[1].label == "prove_stage1");
  const auto snaps = jolt::heap::collect_snapshots(p, timeline);
  REQUIRE(snaps.size() == 2);
  CHECK(snaps[0].label == "Stage1Batch_prepared");
  CHECK(snaps[0].at_ns == 250 * kMs);
  CHECK(snaps[1].at_ns == 550 * kMs);
  CHECK(snaps[1].roots.at("RamReadWriteChecking") == (1500ull << 20));
  const std::string json = jolt::heap::memory_page_data_json(p, *timeline, snaps);
  CHECK(json.find("\"at_s\":0.25,") != std::string::npos);
  CHECK(json.find("\"duration_s\":1.2,") != std::string::npos);
  CHECK(json.find("\"peak_rss_gib\":3.16") != std::string::npos);  // 3.4e9 B = 3.166 GiB
}

TEST_CASE("the RSS envelope is decimated to at most 1500 points and keeps its peak") {
  const jolt::Profile p = synthetic_profile("/nonexistent");
  const auto timeline = jolt::heap::find_root_timeline(p);
  REQUIRE(timeline);
  const auto rss = jolt::heap::rss_envelope(p, timeline->root);
  CHECK(rss.size() <= jolt::heap::kMaxRssPoints);
  CHECK(rss.size() > 700);
  const auto peak = std::max_element(
      rss.begin(), rss.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  CHECK(peak->second == doctest::Approx(3.0));  // the 10 ms spike at 300 ms survives
  CHECK(rss.front().first < 0.001);
  CHECK(std::is_sorted(rss.begin(), rss.end()));
  for (const auto& pt : rss) CHECK(pt.first <= 1.2);
}
