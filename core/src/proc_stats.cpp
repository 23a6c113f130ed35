// /proc/stat and /proc/self/task readers, and the process CPU meter.
#include "jolt/core/proc_stats.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

namespace jolt::core {

std::vector<CpuTimes> read_cpu_times() {
  std::vector<CpuTimes> out;
  std::ifstream in("/proc/stat");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu", 0) != 0) break;
    std::istringstream ss(line);
    std::string label;
    ss >> label;
    std::uint64_t v[10] = {};
    for (auto& x : v) ss >> x;
    // user nice system idle iowait irq softirq steal (guest fields are inside user/nice)
    const std::uint64_t idle = v[3] + v[4];
    const std::uint64_t total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
    out.push_back(CpuTimes{total - idle, total});
  }
  return out;
}

std::uint32_t thread_count() {
  DIR* d = ::opendir("/proc/self/task");
  if (!d) return 0;
  std::uint32_t n = 0;
  while (dirent* e = ::readdir(d))
    if (e->d_name[0] != '.') ++n;
  ::closedir(d);
  return n;
}

double busy_percent(const CpuTimes& before, const CpuTimes& after) {
  if (after.total <= before.total) return 0.0;
  const double dt = static_cast<double>(after.total - before.total);
  const double db = after.busy >= before.busy ? static_cast<double>(after.busy - before.busy) : 0.0;
  return 100.0 * db / dt;
}

std::uint64_t process_cpu_time_ns() {
  timespec ts{};
  if (::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

std::optional<std::uint64_t> task_stat_cpu_ticks(std::string_view stat_line) {
  const std::size_t close = stat_line.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  std::istringstream fields(std::string(stat_line.substr(close + 1)));
  std::string skip;
  for (int field = 3; field < 14; ++field) fields >> skip;  // state .. cmajflt
  std::uint64_t utime = 0, stime = 0;
  if (!(fields >> utime >> stime)) return std::nullopt;
  return utime + stime;
}

namespace {

// The first field of /proc/self/task/<tid>/schedstat: the thread's run time in ns.
bool read_schedstat_ns(const std::string& task_dir, std::uint64_t* ns) {
  std::ifstream in(task_dir + "/schedstat");
  return static_cast<bool>(in >> *ns);
}

// utime + stime of /proc/self/task/<tid>/stat, converted from clock ticks to ns.
bool read_stat_ns(const std::string& task_dir, std::uint64_t* ns) {
  std::ifstream in(task_dir + "/stat");
  std::string line;
  if (!std::getline(in, line)) return false;
  const std::optional<std::uint64_t> ticks = task_stat_cpu_ticks(line);
  const long ticks_per_sec = ::sysconf(_SC_CLK_TCK);
  if (!ticks || ticks_per_sec <= 0) return false;
  *ns = *ticks * (1'000'000'000u / static_cast<std::uint64_t>(ticks_per_sec));
  return true;
}

}  // namespace

std::vector<ThreadCpuTime> read_thread_cpu_times() {
  std::vector<ThreadCpuTime> out;
  DIR* d = ::opendir("/proc/self/task");
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const std::string task_dir = std::string("/proc/self/task/") + e->d_name;
    ThreadCpuTime t;
    t.tid = std::atoi(e->d_name);
    if (read_schedstat_ns(task_dir, &t.cpu_ns) || read_stat_ns(task_dir, &t.cpu_ns))
      out.push_back(t);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end(),
            [](const ThreadCpuTime& a, const ThreadCpuTime& b) { return a.tid < b.tid; });
  return out;
}

ProcessCpuMeter::ProcessCpuMeter(int excluded_tid)
    : excluded_tid_(excluded_tid),
      wall_(std::chrono::steady_clock::now()),
      process_cpu_ns_(process_cpu_time_ns()),
      threads_(read_thread_cpu_times()) {}

ProcessCpuMeter::Interval ProcessCpuMeter::sample() {
  const auto wall = std::chrono::steady_clock::now();
  const std::uint64_t process_cpu_ns = process_cpu_time_ns();
  std::vector<ThreadCpuTime> threads = read_thread_cpu_times();

  Interval r;
  const double wall_ns = static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(wall - wall_).count());
  r.wall_secs = wall_ns / 1e9;
  if (wall_ns > 0) {
    const std::uint64_t used =
        process_cpu_ns >= process_cpu_ns_ ? process_cpu_ns - process_cpu_ns_ : 0;
    r.cpu_percent = 100.0 * static_cast<double>(used) / wall_ns;
    // Both lists are sorted by tid. A thread absent from the previous reading started during the
    // interval, so all of its CPU time so far was used in it.
    auto prev = threads_.begin();
    for (const ThreadCpuTime& t : threads) {
      while (prev != threads_.end() && prev->tid < t.tid) ++prev;
      const std::uint64_t before = prev != threads_.end() && prev->tid == t.tid ? prev->cpu_ns : 0;
      const std::uint64_t ran = t.cpu_ns >= before ? t.cpu_ns - before : 0;
      if (t.tid != excluded_tid_ && static_cast<double>(ran) >= kActiveThreadShare * wall_ns)
        ++r.threads_active;
    }
  }
  wall_ = wall;
  process_cpu_ns_ = process_cpu_ns;
  threads_ = std::move(threads);
  return r;
}

}  // namespace jolt::core
