// Repeated runs: timing rows, statistics, the stats file, profile children (see repeats.hpp).
#include "commands/benchmark/repeats.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <boost/algorithm/string.hpp>
#include <boost/filesystem.hpp>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <jolt/atomic_file.hpp>

namespace fs = boost::filesystem;

namespace jolt::core {
namespace {

std::vector<std::string> split_fields(std::string line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  std::vector<std::string> f;
  boost::split(f, line, boost::is_any_of(","));
  for (auto& s : f) boost::trim(s);
  return f;
}

bool parse_double(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno != 0 || !std::isfinite(v) || v < 0) return false;
  *out = v;
  return true;
}

bool parse_scale(const std::string& s, std::uint32_t* out) {
  if (s.empty() || s.size() > 3 || !std::all_of(s.begin(), s.end(), ::isdigit)) return false;
  *out = static_cast<std::uint32_t>(std::stoul(s));
  return true;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), f, v);
  return buf;
}

}  // namespace

double TimingRow::prove_seconds() const {
  return precise() ? trace_length / proving_hz : prover_time_s;
}

bool TimingRow::precise() const {
  if (proving_hz <= 0 || trace_length <= 0) return false;
  // Both columns come from one measurement; they must agree to the 2-decimal rounding.
  const double fine = trace_length / proving_hz;
  return std::fabs(fine - prover_time_s) <= 0.0051 + 1e-6 * fine;
}

double TimingRow::hz() const {
  if (proving_hz > 0) return proving_hz;
  return prover_time_s > 0 && trace_length > 0 ? trace_length / prover_time_s : 0.0;
}

std::optional<TimingRow> parse_timing_row(const std::string& line) {
  const std::vector<std::string> f = split_fields(line);
  if (f.size() < 5 || f[0].empty()) return std::nullopt;
  TimingRow r;
  r.benchmark_name = f[0];
  if (!parse_scale(f[1], &r.scale) || !parse_double(f[2], &r.prover_time_s) ||
      !parse_double(f[3], &r.trace_length) || !parse_double(f[4], &r.proving_hz))
    return std::nullopt;
  return r;
}

TimingRow read_run_timings(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TimingsError(path + ": cannot open it (the csv sink writes it)");
  std::string line;
  while (std::getline(in, line)) {
    if (boost::trim_copy(line).empty()) continue;
    if (auto row = parse_timing_row(line)) return *row;
    throw TimingsError(path + ": malformed row '" + line + "' (expected " + kTimingsCsvColumns +
                       ")");
  }
  throw TimingsError(path + ": no timing row");
}

std::vector<TimingRow> read_timings_csv(const std::string& path) {
  boost::system::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw TimingsError(path +
                       ": no such file (expected a modular_timings.csv written by "
                       "`jolt-run benchmark` or `profile`)");
  std::ifstream in(path);
  if (!in) throw TimingsError(path + ": cannot open it: " + std::strerror(errno));
  std::string line;
  if (!std::getline(in, line) || boost::trim_copy(line).empty())
    throw TimingsError(path + ": empty file; expected the header " +
                       std::string(kTimingsCsvColumns) + " and one row per run");
  if (parse_timing_row(line))
    throw TimingsError(path +
                       ": the first line is a data row, not a header (a run's timings.csv has "
                       "none): pass the sweep's modular_timings.csv, whose header is " +
                       kTimingsCsvColumns);
  const std::vector<std::string> header = split_fields(line);
  auto column = [&](const char* name) -> std::optional<std::size_t> {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) return std::nullopt;
    return static_cast<std::size_t>(it - header.begin());
  };
  std::size_t idx[3];
  const char* required[3] = {"benchmark_name", "scale", "prover_time_s"};
  for (int i = 0; i < 3; ++i) {
    const auto c = column(required[i]);
    if (!c)
      throw TimingsError(path + ": no '" + required[i] + "' column in its header (" +
                         boost::trim_copy(line) + "); expected the modular_timings.csv header " +
                         kTimingsCsvColumns);
    idx[i] = *c;
  }
  const auto length_col = column("trace_length"), hz_col = column("proving_hz");
  std::vector<TimingRow> rows;
  for (std::size_t line_no = 2; std::getline(in, line); ++line_no) {
    if (boost::trim_copy(line).empty()) continue;
    const std::vector<std::string> f = split_fields(line);
    TimingRow r;
    bool ok = f.size() == header.size() && !f[idx[0]].empty() && parse_scale(f[idx[1]], &r.scale) &&
              parse_double(f[idx[2]], &r.prover_time_s);
    if (ok && length_col) ok = parse_double(f[*length_col], &r.trace_length);
    if (ok && hz_col) ok = parse_double(f[*hz_col], &r.proving_hz);
    if (!ok)
      throw TimingsError(path + ":" + std::to_string(line_no) + ": malformed row '" + line +
                         "' (fix or delete that line)");
    r.benchmark_name = f[idx[0]];
    rows.push_back(std::move(r));
  }
  return rows;
}

Spread spread_of(std::vector<double> v) {
  Spread s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const auto median_of_sorted = [](const std::vector<double>& x) {
    const std::size_t n = x.size();
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
  };
  s.n = v.size();
  s.min = v.front();
  s.max = v.back();
  s.median = median_of_sorted(v);
  std::vector<double> dev;
  dev.reserve(v.size());
  for (double x : v) dev.push_back(std::fabs(x - s.median));
  std::sort(dev.begin(), dev.end());
  s.mad = median_of_sorted(dev);
  return s;
}

PairStats pair_stats(const std::string& benchmark_name, std::uint32_t scale,
                     const std::vector<TimingRow>& rows, std::size_t warmup,
                     std::vector<std::string> run_dirs) {
  PairStats s;
  s.benchmark_name = benchmark_name;
  s.scale = scale;
  s.warmup = warmup;
  std::vector<double> secs, hz;
  for (const TimingRow& r : rows) {
    secs.push_back(r.prove_seconds());
    hz.push_back(r.hz());
  }
  s.prover_time_s = spread_of(std::move(secs));
  s.proving_hz = spread_of(std::move(hz));
  s.run_dirs = std::move(run_dirs);
  return s;
}

std::string stats_csv_row(const PairStats& s) {
  char buf[512];
  const Spread &t = s.prover_time_s, &h = s.proving_hz;
  std::snprintf(buf, sizeof(buf), ",%u,%zu,%zu,%.6f,%.6f,%.6f,%.6f,%.2f,%.2f,%.2f,%.2f,", s.scale,
                t.n, s.warmup, t.median, t.min, t.max, t.mad, h.median, h.min, h.max, h.mad);
  return s.benchmark_name + buf + boost::join(s.run_dirs, ";");
}

void update_stats_file(const std::string& out_dir, const std::vector<PairStats>& stats) {
  const std::string path = (fs::path(out_dir) / kStatsFileName).string();
  std::vector<const PairStats*> todo;
  for (const PairStats& s : stats)
    if (s.prover_time_s.n > 0) todo.push_back(&s);
  if (todo.empty()) return;
  boost::system::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) throw TimingsError("cannot create output folder '" + out_dir + "': " + ec.message());
  // Other sweeps in the same out dir merge into the same file: one read-modify-write at a time.
  const int dir_fd = ::open(out_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0)
    throw TimingsError("cannot open output folder '" + out_dir + "': " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }  // also drops the flock
  } closer{dir_fd};
  while (::flock(dir_fd, LOCK_EX) != 0)
    if (errno != EINTR)
      throw TimingsError("cannot lock output folder '" + out_dir + "': " + std::strerror(errno));

  std::vector<std::string> lines;  // data rows, in file order
  if (fs::exists(path, ec)) {
    std::ifstream in(path);
    if (!in) throw TimingsError(path + ": cannot read it: " + std::strerror(errno));
    std::string line;
    std::getline(in, line);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line != kStatsCsvHeader)
      throw TimingsError(path + " does not start with the header this build writes (" +
                         kStatsCsvHeader +
                         "); it is damaged or from another version: move it "
                         "aside and rerun");
    while (std::getline(in, line))
      if (!boost::trim_copy(line).empty()) lines.push_back(line);
  }
  for (const PairStats* s : todo) {
    const std::string key = s->benchmark_name + "," + std::to_string(s->scale) + ",";
    const std::string row = stats_csv_row(*s);
    const auto it = std::find_if(lines.begin(), lines.end(),
                                 [&](const std::string& l) { return l.rfind(key, 0) == 0; });
    if (it != lines.end())
      *it = row;
    else
      lines.push_back(row);
  }
  std::string text = std::string(kStatsCsvHeader) + "\n";
  for (const std::string& l : lines) text += l + "\n";
  if (const jolt::Status st = jolt::write_file_atomically(path, text); !st)
    throw TimingsError(st.message);
}

std::string describe_stats(const PairStats& s) {
  const Spread& t = s.prover_time_s;
  std::string out = s.benchmark_name + " at 2^" + std::to_string(s.scale) + ": " +
                    std::to_string(t.n) + (t.n == 1 ? " run" : " runs");
  if (s.warmup)
    out +=
        " (" + std::to_string(s.warmup) + (s.warmup == 1 ? " warmup" : " warmups") + " discarded)";
  out += ", prove time median " + fmt("%.6f s", t.median) + ", min " + fmt("%.6f s", t.min) +
         ", max " + fmt("%.6f s", t.max) + ", MAD " + fmt("%.6f s", t.mad);
  if (t.median > 0) out += fmt(" (%.1f %%)", 100.0 * t.mad / t.median);
  out += "; " + fmt("%.2f kHz median", s.proving_hz.median / 1000.0);
  return out;
}

int interrupt_signal_of(const host::ProcessResult& r) {
  if (const int sig = host::pending_interrupt(); sig != 0) return sig;
  if (r.term_signal == SIGINT || r.term_signal == SIGTERM) return r.term_signal;
  if (r.spawned && (r.exit_code == 128 + SIGINT || r.exit_code == 128 + SIGTERM))
    return r.exit_code - 128;
  return 0;
}

std::string run_dir_from_stdout(const std::string& out) {
  std::istringstream in(out);
  std::string line, dir;
  while (std::getline(in, line)) {
    if (line.rfind("Run:", 0) != 0) continue;
    const std::string rest = boost::trim_copy(line.substr(4));
    const auto arrow = rest.find(" (-> ");
    dir = boost::trim_copy(arrow == std::string::npos ? rest : rest.substr(0, arrow));
  }
  return dir;
}

ChildRun run_profile_child(const std::string& exe, const std::vector<std::string>& args,
                           const std::string& out_dir) {
  ChildRun c;
  c.command = {exe, "profile"};
  c.command.insert(c.command.end(), args.begin(), args.end());
  c.command.insert(c.command.end(), {"--out-dir", out_dir});
  c.process = host::run_process(c.command, host::ChildStdout::kTeeCapture);
  if (!c.process.ok()) return c;
  c.run_dir = run_dir_from_stdout(c.process.captured_stdout);
  if (c.run_dir.empty()) {
    c.error = "the run printed no `Run:` line; cannot find its directory";
    return c;
  }
  c.run_name = fs::path(c.run_dir).filename().string();
  try {
    c.row = read_run_timings(c.run_dir + "/timings.csv");
  } catch (const TimingsError& e) {
    c.error = std::string(e.what()) +
              "; repeated runs need the csv sink (in --format chrome, none and default; with "
              "--sink, add --sink csv)";
  }
  return c;
}

ChildRun run_warmup_child(const std::string& exe, const std::vector<std::string>& args,
                          const std::string& out_dir) {
  const fs::path scratch = fs::path(out_dir) / (".warmup-" + std::to_string(::getpid()));
  boost::system::error_code ec;
  fs::remove_all(scratch, ec);
  std::vector<std::string> cmd{exe, "profile"};
  cmd.insert(cmd.end(), args.begin(), args.end());
  cmd.insert(cmd.end(), {"--out-dir", scratch.string()});
  ChildRun child;
  child.process = host::run_process(cmd);
  fs::remove_all(scratch, ec);
  child.command = std::move(cmd);
  return child;
}

std::optional<std::string> repeat_counts_error(int runs, int warmup, const std::string& per) {
  if (runs < 1)
    return "--runs " + std::to_string(runs) + ": expected the number of measured runs" + per +
           ", at least 1";
  if (warmup < 0)
    return "--warmup " + std::to_string(warmup) + ": expected the number of discarded runs" + per +
           ", 0 or more";
  return std::nullopt;
}

}  // namespace jolt::core
