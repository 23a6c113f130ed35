// Heap attribution: kernels and the proof session report the exact bytes they own, nested,
// through a visitor; a snapshot turns the visit into folded stacks ("root;child BYTES").
//
//   struct MyKernel : jolt::HeapReportable {
//     std::vector<Fr> table;
//     void visit_heap(jolt::HeapVisitor& v) const override {
//       jolt::HeapScope s(v, "MyKernel");
//       v.bytes("table", table.capacity() * sizeof(Fr));
//     }
//   };
//   if (jolt::heap_snapshots_wanted()) jolt::record_heap_snapshot("Stage1Batch_prepared", {&k});
//
// Visitors are single-threaded; record_heap_snapshot is thread-safe.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <jolt/profile.hpp>

namespace jolt {

class HeapVisitor {
 public:
  virtual ~HeapVisitor() = default;
  virtual void enter(std::string_view frame) = 0;                   // open a nested frame
  virtual void bytes(std::string_view frame, std::uint64_t n) = 0;  // a leaf owning n bytes
  virtual void exit() = 0;                                          // close the innermost frame
};

class HeapReportable {
 public:
  virtual ~HeapReportable() = default;
  virtual void visit_heap(HeapVisitor& v) const = 0;
};

// RAII enter/exit of one frame.
class HeapScope {
 public:
  HeapScope(HeapVisitor& v, std::string_view frame) : v_(v) { v_.enter(frame); }
  ~HeapScope() { v_.exit(); }
  HeapScope(const HeapScope&) = delete;
  HeapScope& operator=(const HeapScope&) = delete;

 private:
  HeapVisitor& v_;
};

// Builds folded stacks from a visit; repeated stacks are summed, zero-byte leaves dropped.
class FoldedStackBuilder final : public HeapVisitor {
 public:
  void enter(std::string_view frame) override;
  void bytes(std::string_view frame, std::uint64_t n) override;
  void exit() override;
  std::vector<FoldedStack> take();

 private:
  std::vector<std::string> path_;
  std::vector<FoldedStack> out_;
};

// True when the active recording session wants heap snapshots.
bool heap_snapshots_wanted() noexcept;

// True when the active session wants heap snapshots and, besides the per-batch ones, snapshots at
// the start and end of each stage (RecordingSession::want_stage_boundary_heap_snapshots). Since
// ABI 4.1.
bool stage_boundary_heap_snapshots_wanted() noexcept;

// Visits `owners` and records snapshot `label` plus a `heap_snapshot` instant (arg `snapshot`).
void record_heap_snapshot(const std::string& label,
                          std::initializer_list<const HeapReportable*> owners);
void record_heap_snapshot(const std::string& label,
                          const std::vector<const HeapReportable*>& owners);

}  // namespace jolt
