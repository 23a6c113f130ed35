// Plugin discovery and loading (Boost.DLL). Bare names resolve to lib<name>.so in, in order:
// --plugin-path folders, JOLT_PLUGIN_PATH (colon-separated), the build tree's plugin folder next
// to the executable, then the install's plugin folder; when no such file exists, to the first
// plugin of the expected kind whose descriptor has that name (the name --list-plugins shows). A
// path (containing '/') loads as is.
//
//   jolt::host::PluginLoader loader({"/opt/my-plugins"});
//   auto sink = loader.load("chrome", JOLT_PLUGIN_SINK).create<jolt::Sink>();
//   sink->write(profile, ctx);   // the library stays loaded while `sink` lives
//
// Every failure throws PluginError whose message names the plugin and what to do.
// Not thread-safe; load plugins from one thread.
#pragma once
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <jolt/plugin.hpp>

namespace boost::dll {
class shared_library;
}

namespace jolt::host {

class PluginError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

const char* plugin_kind_name(std::uint32_t kind);

class LoadedPlugin {
 public:
  LoadedPlugin(std::shared_ptr<boost::dll::shared_library> lib, const jolt_plugin_descriptor* desc,
               std::string path);

  const jolt_plugin_descriptor& descriptor() const { return *desc_; }
  const std::string& path() const { return path_; }
  std::string name() const { return desc_->name ? desc_->name : ""; }

  // Creates the plugin's object; its deleter keeps the library loaded until it is destroyed.
  template <class Interface>
  std::shared_ptr<Interface> create() const {
    void* raw = desc_->create ? desc_->create() : nullptr;
    if (!raw)
      throw PluginError("plugin '" + name() + "' (" + path_ +
                        ") failed to create its object (its constructor threw, "
                        "or new failed)");
    auto lib = lib_;
    auto destroy = desc_->destroy;
    return std::shared_ptr<Interface>(static_cast<Interface*>(raw), [lib, destroy](Interface* p) {
      if (destroy) destroy(p);
    });
  }

 private:
  std::shared_ptr<boost::dll::shared_library> lib_;
  const jolt_plugin_descriptor* desc_;
  std::string path_;
};

struct PluginListing {
  std::string path;
  std::string name;
  std::string kind;
  std::string description;
  std::string problem;  // non-empty when the file could not be loaded as a plugin
};

// A --sink argument: the plugin (bare name or path) and its options,
// "NAME[:key=value[,key=value]...]" or "PATH.so[:key=value...]". The options part follows a bare
// name's first ':' or a path's first ".so:", when an '=' follows (so a folder name and a value may
// contain ':'). Throws PluginError for
// an empty key, a pair without '=' or a key given twice, naming the argument.
struct SinkSpec {
  std::string plugin;
  std::map<std::string, std::string> options;
};
SinkSpec parse_sink_spec(const std::string& arg);

class PluginLoader {
 public:
  explicit PluginLoader(std::vector<std::string> extra_dirs = {});

  const std::vector<std::string>& search_dirs() const { return dirs_; }
  // Loads a plugin by bare name or path and checks its ABI and kind.
  LoadedPlugin load(const std::string& name_or_path, std::uint32_t expected_kind) const;
  // Loads a specific file and checks its ABI (no kind check).
  LoadedPlugin load_file(const std::string& path) const;
  // Every lib*.so in the search folders (first occurrence of each file name wins).
  std::vector<PluginListing> list() const;

 private:
  std::vector<std::string> dirs_;
};

}  // namespace jolt::host
