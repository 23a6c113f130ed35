// Test support: a sink plugin loaded from a built .so (the library stays loaded while the sink
// object lives), fresh output folders, and file reading.
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <boost/dll/import.hpp>
#include <boost/dll/shared_library.hpp>

#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>

namespace sink_test {

class LoadedSink {
 public:
  explicit LoadedSink(const std::string& path)
      : lib_(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local) {
    auto getter =
        boost::dll::import_alias<const jolt_plugin_descriptor*()>(lib_, "jolt_plugin_descriptor");
    desc_ = getter();
    if (!desc_ || !desc_->create) throw std::runtime_error(path + ": no descriptor");
    sink_ = static_cast<jolt::Sink*>(desc_->create());
    if (!sink_) throw std::runtime_error(path + ": create failed");
  }
  ~LoadedSink() {
    if (sink_) desc_->destroy(sink_);
  }
  LoadedSink(const LoadedSink&) = delete;
  LoadedSink& operator=(const LoadedSink&) = delete;
  jolt::Sink& sink() { return *sink_; }
  const jolt_plugin_descriptor& descriptor() const { return *desc_; }

 private:
  boost::dll::shared_library lib_;
  const jolt_plugin_descriptor* desc_ = nullptr;
  jolt::Sink* sink_ = nullptr;
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
