// Test support: a sink plugin loaded from a built .so (the library stays loaded while the sink
// object lives), fresh output folders, and file reading.
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <memory>

#include <jolt/host/plugin_loader.hpp>
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>

namespace sink_test {

// Loaded through the host's plugin loader, so the ABI and kind checks apply as in jolt-run.
class LoadedSink {
 public:
  explicit LoadedSink(const std::string& path)
      : plugin_(jolt::host::PluginLoader().load(path, JOLT_PLUGIN_SINK)),
        sink_(plugin_.create<jolt::Sink>()) {}
  jolt::Sink& sink() { return *sink_; }
  const jolt_plugin_descriptor& descriptor() const { return plugin_.descriptor(); }

 private:
  jolt::host::LoadedPlugin plugin_;
  std::shared_ptr<jolt::Sink> sink_;  // keeps the library loaded
};

inline std::string plugin_path(const std::string& name) {
  return std::string(JOLT_PLUGIN_BUILD_DIR) + "/lib" + name + ".so";
}

inline std::string fresh_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(JOLT_SINK_TEST_OUT) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline bool has_temp_files(const std::string& dir) {
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp") != std::string::npos) return true;
  return false;
}

}  // namespace sink_test
