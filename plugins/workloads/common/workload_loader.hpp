// LoadedWorkload: loads a built workload plugin (lib<name>.so) with Boost.DLL and owns the
// jolt::Workload it creates. For tests and benchmarks; the CLI uses core's plugin loader.
//
//   jolt::workloads::LoadedWorkload w(std::string(JOLT_PLUGIN_BUILD_DIR) + "/libsha2-chain.so");
//   jolt::WorkloadInput in;
//   if (!w->make_input(16, &in)) ...;
//   auto run = jolt::prover::execute(jolt::prover::load_elf(w->guest_elf()), in.bytes, {});
//
// Not copyable; one instance per thread or external synchronisation (Workload methods are const).
#pragma once
#include <memory>
#include <stdexcept>
#include <string>

#include <boost/dll/shared_library.hpp>

#include <jolt/plugin.hpp>
#include <jolt/workload.hpp>

namespace jolt::workloads {

class LoadedWorkload {
 public:
  explicit LoadedWorkload(const std::string& path) {
    lib_.load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    auto getter = lib_.get_alias<const jolt_plugin_descriptor*()>("jolt_plugin_descriptor");
    desc_ = getter();
    if (!desc_ || desc_->kind != JOLT_PLUGIN_WORKLOAD || !desc_->create)
      throw std::runtime_error(path + ": not a workload plugin");
    workload_ = static_cast<jolt::Workload*>(desc_->create());
    if (!workload_) throw std::runtime_error(path + ": create() failed");
  }
  ~LoadedWorkload() { desc_->destroy(workload_); }
  LoadedWorkload(const LoadedWorkload&) = delete;
  LoadedWorkload& operator=(const LoadedWorkload&) = delete;

  const jolt::Workload* operator->() const { return workload_; }
  const jolt::Workload& operator*() const { return *workload_; }
  const char* name() const { return desc_->name; }

 private:
  boost::dll::shared_library lib_;
  const jolt_plugin_descriptor* desc_ = nullptr;
  jolt::Workload* workload_ = nullptr;
};

}  // namespace jolt::workloads
