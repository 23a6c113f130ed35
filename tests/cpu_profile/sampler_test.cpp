// The SIGPROF sampler, the symbolizer and the pprof encoding, in-process.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <thread>

#include "decoded_profile.hpp"
#include "jolt/cpu_profile/pprof.hpp"
#include "jolt/cpu_profile/sampler.hpp"
#include "jolt/cpu_profile/stage_profiles.hpp"

namespace cp = jolt::cpu_profile;
namespace fs = std::filesystem;

// Burns CPU for `ms` of wall time in a function the samples must name.
extern "C++" __attribute__((noinline)) std::uint64_t jolt_sampler_test_busy_loop(int ms);
__attribute__((noinline)) std::uint64_t jolt_sampler_test_busy_loop(int ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  std::uint64_t x = 1;
  while (std::chrono::steady_clock::now() < until)
    for (int i = 0; i < 1000; ++i) x = x * 6364136223846793005ull + 1442695040888963407ull;
  return x;
}

namespace {

struct TempDir {
  static inline int count = 0;
  fs::path path = fs::temp_directory_path() /
                  ("jolt-pprof-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

bool names_busy_loop(cp::Symbolizer& symbols, const cp::RawSample& s) {
  return std::any_of(s.pcs.begin(), s.pcs.end(), [&](std::uintptr_t pc) {
    return symbols.resolve(pc).name.find("jolt_sampler_test_busy_loop") != std::string::npos;
  });
}

}  // namespace

TEST_CASE("PPROF_FREQ: default 100, clamped with a warning, garbage is an error naming it") {
  CHECK(cp::frequency_from_env(nullptr).hz == 100);
  CHECK_FALSE(cp::frequency_from_env(nullptr).warning);
  CHECK(cp::frequency_from_env("").hz == 100);
  CHECK(cp::frequency_from_env("250").hz == 250);
  CHECK_FALSE(cp::frequency_from_env("250").warning);
  const cp::Frequency high = cp::frequency_from_env("50000");
  CHECK(high.hz == cp::kMaxFrequencyHz);
  REQUIRE(high.warning);
  CHECK(high.warning->find("PPROF_FREQ=50000") != std::string::npos);
  CHECK(cp::frequency_from_env("0").hz == cp::kMinFrequencyHz);
  CHECK(cp::frequency_from_env("0").warning);
  CHECK(cp::frequency_from_env("-5").hz == cp::kMinFrequencyHz);
  for (const char* bad : {"fast", "10x", "1.5", "-", " 100"}) {
    INFO(bad);
    try {
      cp::frequency_from_env(bad);
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find("PPROF_FREQ") != std::string::npos);
    }
  }
}

TEST_CASE("the sampler records stacks from every busy thread, tagged with the phase") {
  constexpr unsigned kHz = 250;
  cp::CpuSampler sampler(kHz);
  CHECK_THROWS_AS(cp::CpuSampler{kHz}, std::logic_error);  // one at a time
  std::atomic<std::uint64_t> sink{0};
  auto work = [&] { sink += jolt_sampler_test_busy_loop(300); };
  std::thread a(work), b(work);
  a.join();
  b.join();
  sampler.set_phase(7);
  work();
  const cp::SamplingResult r = sampler.stop();
  CHECK(sampler.stop().samples.empty());  // once
  INFO("samples ", r.samples.size(), ", cpu ns ", r.cpu_time_ns);
  CHECK(r.dropped == 0);
  // ~0.9 CPU-seconds at 250 Hz: expect around 225; the kernel's tick may cap the rate.
  CHECK(r.samples.size() >= 20);
  const double expected = static_cast<double>(r.cpu_time_ns) * 1e-9 * kHz;
  CHECK(static_cast<double>(r.samples.size()) <= expected * 1.5 + 5);
  cp::Symbolizer symbols;
  std::set<std::uint32_t> threads_in_loop;
  std::size_t phase7 = 0, named = 0;
  for (const auto& s : r.samples) {
    REQUIRE_FALSE(s.pcs.empty());
    if (names_busy_loop(symbols, s)) {
      ++named;
      threads_in_loop.insert(s.tid);
    }
    if (s.phase == 7) ++phase7;
  }
  CHECK(named * 2 >= r.samples.size());  // most samples are inside the loop
  CHECK(threads_in_loop.size() >= 2);    // the two worker threads (and main) were sampled
  CHECK(phase7 > 0);
  CHECK(phase7 < r.samples.size());
  // A new sampler may start once the first stopped.
  cp::CpuSampler again(kHz);
  again.stop();
}

TEST_CASE("the symbolizer names functions and maps them to their module with its build id") {
  cp::Symbolizer symbols;
  const auto pc = reinterpret_cast<std::uintptr_t>(&jolt_sampler_test_busy_loop) + 4;
  const cp::Symbolizer::Resolved& r = symbols.resolve(pc);
  CHECK(r.name == "jolt_sampler_test_busy_loop(int)");
  CHECK(r.system_name == "_Z27jolt_sampler_test_busy_loopi");
  REQUIRE(r.segment >= 0);
  const auto& seg = symbols.segments()[static_cast<std::size_t>(r.segment)];
  CHECK(seg.start <= pc);
  CHECK(pc < seg.limit);
  const auto& mod = symbols.modules()[seg.module];
  CHECK(fs::equivalent(mod.path, "/proc/self/exe"));
  CHECK(mod.build_id.size() >= 16);
  // An address no module holds still gets a name (its hex value).
  CHECK(symbols.resolve(8).name.find("0x8") != std::string::npos);
}

TEST_CASE("stage profiles decode with protoc and hold the stage's samples and functions") {
  TempDir dir;
  cp::StageCpuProfiler profiler(250);
  profiler.stage_started(0, "first_stage");
  jolt_sampler_test_busy_loop(200);
  profiler.stage_started(1, "second_stage");
  jolt_sampler_test_busy_loop(200);
  profiler.stop();
  const std::vector<std::string> files = profiler.write(dir.path.string(), "demo_");
  REQUIRE(files.size() == 3);
  CHECK(fs::path(files[0]).filename() == "demo_first_stage.pb");
  CHECK(fs::path(files[1]).filename() == "demo_second_stage.pb");
  CHECK(fs::path(files[2]).filename() == "demo_prove.pb");
  std::uint64_t stage_sum = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    INFO(files[k]);
    const auto d = cp::testing::decode_profile(files[k]);
    INFO(d.text.substr(0, 2000));
    REQUIRE(d.exit_code == 0);
    CHECK(d.period == 4000000);  // 1e9 / 250
    CHECK(d.sample_count > 0);
    CHECK(std::find(d.strings.begin(), d.strings.end(), "jolt_sampler_test_busy_loop(int)") !=
          d.strings.end());
    CHECK(std::find(d.strings.begin(), d.strings.end(), "tid") != d.strings.end());
    if (k < 2) {
      CHECK(d.sample_count == profiler.stages()[k].samples);
      stage_sum += d.sample_count;
      CHECK(d.duration_nanos == profiler.stages()[k].end_ns - profiler.stages()[k].start_ns);
    } else {
      CHECK(d.sample_count == profiler.result().samples.size());
      CHECK(d.sample_count >= stage_sum);
    }
  }
}

TEST_CASE("a damaged file fails to decode (the protoc check can fail)") {
  TempDir dir;
  const std::string path = (dir.path / "broken.pb").string();
  std::string payload = cp::gzip_compress(std::string("\x0a\xff\xff\xff\x0f", 5));
  std::ofstream(path, std::ios::binary) << payload;
  CHECK(cp::testing::decode_profile(path).exit_code != 0);
}

TEST_CASE("writing into a folder that cannot exist fails naming it and leaves nothing") {
  TempDir dir;
  std::ofstream(dir.path / "file") << "x";
  cp::StageCpuProfiler profiler(100);
  profiler.stage_started(0, "only");
  profiler.stop();
  const std::string target = (dir.path / "file" / "pprof").string();
  try {
    profiler.write(target, "");
    FAIL("wrote into a file");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find(target) != std::string::npos);
  }
}
