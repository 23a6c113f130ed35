// Status: how a plugin reports failure across the ABI boundary (no exception crosses it).
//
//   jolt::Status write(...) noexcept {
//     if (!ok) return jolt::Status::error("cannot open " + path + ": " + why);
//     return jolt::Status::success();
//   }
//
// A Status is a plain value; copy it freely from any thread.
#pragma once
#include <string>
#include <utility>

namespace jolt {

struct Status {
  bool ok = true;
  std::string message;  // empty when ok; otherwise what happened and what to do

  static Status success() { return {}; }
  static Status error(std::string what) { return Status{false, std::move(what)}; }
  explicit operator bool() const noexcept { return ok; }
};

}  // namespace jolt
