// The progress line (progress.hpp).
#include "jolt/host/progress.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

namespace jolt::host {

namespace {

std::string seconds(double s) {
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  else
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  return buf;
}

double secs(std::chrono::nanoseconds d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

ProveProgress::Mode ProveProgress::mode_for(bool quiet) {
  if (quiet) return Mode::kOff;
  return ::isatty(STDERR_FILENO) ? Mode::kTerminal : Mode::kLines;
}

ProveProgress::ProveProgress(Mode mode, std::size_t num_stages,
                             std::vector<std::uint64_t> previous_stage_ns)
    : mode_(mode), num_stages_(num_stages), previous_ns_(std::move(previous_stage_ns)) {
  if (previous_ns_.size() != num_stages_) previous_ns_.clear();  // another stage shape: no ETA
  start_ = stage_start_ = std::chrono::steady_clock::now();
  if (mode_ == Mode::kTerminal) thread_ = std::thread([this] { ticker(); });
}

ProveProgress::~ProveProgress() {
  finish();
}

std::string ProveProgress::line(std::size_t index, std::string_view label,
                                std::chrono::nanoseconds elapsed,
                                std::chrono::nanoseconds in_stage) const {
  std::string s = "proving: stage " + std::to_string(index + 1) + "/" +
                  std::to_string(num_stages_) + " " + std::string(label) + "   " +
                  seconds(secs(elapsed)) + " elapsed";
  if (!previous_ns_.empty() && index < previous_ns_.size()) {
    // What the earlier run spent from this stage on, less what this stage has taken so far.
    double left = -secs(in_stage);
    for (std::size_t k = index; k < previous_ns_.size(); ++k)
      left += static_cast<double>(previous_ns_[k]) / 1e9;
    s += left > 0 ? ", ~" + seconds(left) + " left" : ", finishing";
  }
  return s;
}

void ProveProgress::stage(std::size_t index, std::string_view label) {
  std::lock_guard<std::mutex> lock(mu_);
  if (done_ || mode_ == Mode::kOff) return;
  const auto now = std::chrono::steady_clock::now();
  index_ = index;
  label_ = std::string(label);
  stage_start_ = now;
  started_ = true;
  if (mode_ == Mode::kLines)
    spdlog::info("{}", line(index_, label_, now - start_, std::chrono::nanoseconds(0)));
  else
    redraw_locked();
}

void ProveProgress::redraw_locked() {
  const auto now = std::chrono::steady_clock::now();
  const std::string s = line(index_, label_, now - start_, now - stage_start_);
  // Pad with blanks over a longer previous line instead of an erase sequence.
  const std::size_t pad = last_width_ > s.size() ? last_width_ - s.size() : 0;
  std::fprintf(stderr, "\r%s%*s", s.c_str(), static_cast<int>(pad), "");
  std::fflush(stderr);
  last_width_ = s.size();
}

void ProveProgress::ticker() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!done_) {
    cv_.wait_for(lock, std::chrono::seconds(1));
    if (!done_ && started_) redraw_locked();
  }
}

void ProveProgress::finish() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (done_) return;
    done_ = true;
    if (mode_ == Mode::kTerminal && last_width_ > 0) {
      std::fprintf(stderr, "\r%*s\r", static_cast<int>(last_width_), "");
      std::fflush(stderr);
    }
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace jolt::host
