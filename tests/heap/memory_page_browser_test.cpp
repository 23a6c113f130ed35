// memory.html in headless Chromium: it loads without script errors, draws one column per
// timed snapshot, honours #snapshot=<label>, and leaves light/dark screenshots in the build
// tree (tests/heap/browser/memory_{light,dark}.png) for a human to look at; the --heap-svg
// flame chart parses and draws (tests/heap/browser/flame_Stage2Batch_prepared.png).
#include <doctest/doctest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>

#include <jolt/atomic_file.hpp>

#include "heap_snapshots.hpp"
#include "heap_test_support.hpp"
#include "memory_page.hpp"

namespace fs = std::filesystem;
using namespace heap_test;

namespace {

struct BrowserRun {
  int exit_code = -1;
  std::string out;  // stdout (the DOM with --dump-dom)
  std::string err;  // stderr (chromium's log, including console messages)
};

// One headless Chromium run with a fresh profile directory; `extra` are additional flags.
BrowserRun run_chromium(const std::string& url, const std::string& extra, const std::string& tag) {
  char profile_template[] = "/tmp/jolt-heap-chromium-XXXXXX";
  const char* profile = ::mkdtemp(profile_template);
  REQUIRE(profile != nullptr);
  const std::string out = std::string(JOLT_HEAP_TEST_OUT) + "/" + tag + ".stdout";
  const std::string err = std::string(JOLT_HEAP_TEST_OUT) + "/" + tag + ".stderr";
  const std::string cmd =
      "timeout 45 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
      "--disable-background-networking --disable-component-update --disable-sync "
      "--disable-dev-shm-usage --enable-logging=stderr --v=0 --virtual-time-budget=1000 "
      "--user-data-dir=" +
      std::string(profile) + " " + extra + " '" + url + "' >" + out + " 2>" + err;
  BrowserRun r;
  r.exit_code = std::system(cmd.c_str());
  r.out = read_file(out);
  r.err = read_file(err);
  fs::remove_all(profile);
  return r;
}

bool chromium_available() {
  return std::system("command -v chromium >/dev/null 2>&1") == 0;
}

void check_no_script_errors(const BrowserRun& r) {
  CHECK_MESSAGE(r.err.find("Uncaught") == std::string::npos, r.err);
  CHECK_MESSAGE(r.err.find(":CONSOLE") == std::string::npos, r.err);  // INFO:CONSOLE:<line>]
}

}  // namespace

TEST_CASE("memory.html renders in headless Chromium") {
  REQUIRE_MESSAGE(chromium_available(),
                  "chromium not found: run scripts/install-deps.sh (Debian package chromium)");
  const std::string dir = fresh_dir("run");
  const jolt::Profile p = synthetic_profile(dir);
  LoadedFoldedSink sink;
  REQUIRE(sink.write(p).ok);
  const std::string url = "file://" + dir + "/memory.html";

  SUBCASE("the script runs to the end and draws one column per snapshot") {
    const BrowserRun r = run_chromium(url, "--dump-dom", "dom");
    CHECK(r.exit_code == 0);
    check_no_script_errors(r);
    CHECK(r.out.find("data-error=\"") == std::string::npos);  // set by the page's onerror
    CHECK(r.out.find("data-ready=\"1\"") != std::string::npos);
    CHECK(r.out.find("data-columns=\"2\"") != std::string::npos);
    // the default detail view is the largest snapshot (Stage1: 1992 MiB vs Stage2: 1968 MiB)
    CHECK(r.out.find("Snapshot detail — Stage1Batch_prepared") != std::string::npos);
    CHECK(r.out.find("<td>RamReadWriteChecking</td>") != std::string::npos);       // the table
    CHECK(r.out.find("<td class=\"n\">1,572,864,000</td>") != std::string::npos);  // exact bytes
    // the prover's own root frames land in their families (table: root, then family)
    CHECK(r.out.find("<td>Witness</td><td>Witness (committed columns)</td>") != std::string::npos);
    CHECK(r.out.find("<td>BasefoldCommitment</td><td>Commitment (PCS)</td>") != std::string::npos);
  }
  SUBCASE("#snapshot=<label> selects that snapshot's icicle") {
    const BrowserRun r =
        run_chromium(url + "#snapshot=Stage2Batch_prepared", "--dump-dom", "dom-hash");
    check_no_script_errors(r);
    CHECK(r.out.find("Snapshot detail — Stage2Batch_prepared") != std::string::npos);
  }
  SUBCASE("screenshots, light and dark") {
    for (const std::string theme : {"light", "dark"}) {
      const std::string png = std::string(JOLT_HEAP_TEST_OUT) + "/memory_" + theme + ".png";
      fs::remove(png);
      const BrowserRun r = run_chromium(
          url,
          "--hide-scrollbars --window-size=1280,900 --screenshot=" + png +
              (theme == "dark" ? " --force-dark-mode --blink-settings=preferredColorScheme=0" : ""),
          "shot-" + theme);
      check_no_script_errors(r);
      REQUIRE(fs::exists(png));
      CHECK(fs::file_size(png) > 20000);  // a drawn page, not a blank one
    }
  }
}

TEST_CASE("memory.html copes with a sparse run: no RSS samples, no stages, an untimed snapshot") {
  REQUIRE(chromium_available());
  const std::string dir = fresh_dir("sparse");
  jolt::Profile p = synthetic_profile(dir);
  p.counters.clear();
  p.peak_rss_bytes.reset();
  p.threads[0].events = {begin("jolt_prover::prove", 0), snapshot_instant("Stage3_prepared", kMs),
                         end("jolt_prover::prove", 2 * kMs)};
  p.heap = {{"Stage3_prepared", {{"SpartanShift;next", 4096}}, 1, kMs},
            {"stage8", {{"NaiveSumcheckProver<F, RamValCheck<F>>;eq", 100}}, 1, kMs}};
  // Every recorded snapshot has a timestamp; the page still accepts at_s null (a hand-built
  // Profile rendered without one), shown table-only.
  const auto timeline = jolt::heap::find_root_timeline(p);
  REQUIRE(timeline);
  auto snaps = jolt::heap::collect_snapshots(p, timeline);
  REQUIRE(snaps.size() == 2);
  REQUIRE(snaps[1].label == "stage8");
  snaps[1].at_ns.reset();
  REQUIRE(jolt::write_file_atomically(dir + "/memory.html",
                                      jolt::heap::render_memory_page(p, *timeline, snaps)));
  const BrowserRun r = run_chromium("file://" + dir + "/memory.html", "--dump-dom", "dom-sparse");
  check_no_script_errors(r);
  CHECK(r.out.find("data-ready=\"1\"") != std::string::npos);
  CHECK(r.out.find("data-columns=\"1\"") != std::string::npos);  // the untimed one is table-only
  CHECK(r.out.find("stage8 (no instant)") != std::string::npos);
}

TEST_CASE("a heap flame chart (--heap-svg) renders in headless Chromium without errors") {
  REQUIRE(chromium_available());
  const std::string dir = fresh_dir("flame");
  const jolt::Profile p = synthetic_profile(dir);
  LoadedFoldedSink sink;
  REQUIRE(sink.configure({{"svg", "on"}}).ok);
  REQUIRE(sink.write(p).ok);
  const std::string url = "file://" + dir + "/Stage2Batch_prepared.svg";
  const BrowserRun dom = run_chromium(url, "--dump-dom", "dom-flame");
  CHECK(dom.exit_code == 0);
  check_no_script_errors(dom);
  // An XML error makes Chromium show a <parsererror> element instead of the drawing.
  CHECK(dom.out.find("parsererror") == std::string::npos);
  CHECK(dom.out.find("<svg") != std::string::npos);
  CHECK(dom.out.find("RamReadWriteChecking") != std::string::npos);
  const std::string png = std::string(JOLT_HEAP_TEST_OUT) + "/flame_Stage2Batch_prepared.png";
  fs::remove(png);
  const BrowserRun shot = run_chromium(
      url, "--hide-scrollbars --window-size=1220,300 --screenshot=" + png, "shot-flame");
  check_no_script_errors(shot);
  REQUIRE(fs::exists(png));
  CHECK(fs::file_size(png) > 5000);  // a drawn chart, not a blank page
}
