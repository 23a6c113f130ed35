// span_bench: ns per span (begin + end) with a recording session attached and with none.
// Prints the median of several repetitions; run it on an idle machine and quote ratios.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <jolt/instrument.hpp>
#include <jolt/recorder.hpp>
#include <vector>

namespace {
double ns_per_span(int n) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    JOLT_SPAN("sumcheck_round", jolt::arg("round", i));
  }
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / n;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

// Median ns/span over `reps` sessions of `n` spans each (buffers reused between sessions).
double attached_ns(int n, int reps) {
  std::vector<double> v;
  for (int r = 0; r < reps; ++r) {
    jolt::RecordingSession::start({});
    v.push_back(ns_per_span(n));
    jolt::Profile p = jolt::RecordingSession::stop();
  }
  return median(v);
}

int main() {
  constexpr int kReps = 9;
  std::vector<double> detached;
  for (int r = 0; r < kReps; ++r) detached.push_back(ns_per_span(1'000'000));
  std::printf("span_bench: ns per span (begin + end, one int arg), median of %d sessions\n", kReps);
  std::printf("  detached (no session), 1M spans:      %7.2f ns/span\n", median(detached));
  std::printf("  attached, 10k spans/session (cached): %7.2f ns/span\n",
              attached_ns(10'000, kReps));
  std::printf("  attached, 1M spans/session (DRAM):    %7.2f ns/span\n",
              attached_ns(1'000'000, kReps));
  return 0;
}
