// Plugin loading: good plugins load; broken ones fail with a message naming file and remedy.
#include <doctest/doctest.h>

#include <elf.h>

#include <algorithm>
#include <boost/filesystem.hpp>
#include <cstring>
#include <fstream>
#include <iterator>
#include <jolt/sink.hpp>
#include <map>
#include <string>

#include "jolt/host/plugin_loader.hpp"

using jolt::host::PluginError;
using jolt::host::PluginLoader;

namespace {
std::string plugin(const char* name) {
  return std::string(JOLT_TEST_PLUGIN_DIR) + "/lib" + name + ".so";
}

std::string error_of(const jolt::host::PluginLoader& loader, const std::string& what,
                     std::uint32_t kind) {
  try {
    loader.load(what, kind);
  } catch (const jolt::host::PluginError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("a well-formed sink loads by path and by bare name from --plugin-path") {
  jolt::host::PluginLoader loader({JOLT_TEST_PLUGIN_DIR});
  auto p = loader.load(plugin("nullsink"), JOLT_PLUGIN_SINK);
  CHECK(p.name() == "nullsink");
  auto sink = p.create<jolt::Sink>();
  REQUIRE(sink);
  CHECK(sink->write(jolt::Profile{}, jolt::SinkContext{}).ok);
  CHECK(loader.load("nullsink", JOLT_PLUGIN_SINK).path() == p.path());
}

TEST_CASE("a bare name matches the descriptor name when no file has it") {
  jolt::host::PluginLoader loader({JOLT_TEST_PLUGIN_DIR});
  // libfile_named.so's descriptor says "descriptor-named": both names load it.
  auto by_file = loader.load("file_named", JOLT_PLUGIN_SINK);
  CHECK(by_file.name() == "descriptor-named");
  auto by_descriptor = loader.load("descriptor-named", JOLT_PLUGIN_SINK);
  CHECK(by_descriptor.path() == by_file.path());
  // Of another kind than asked for: still unknown, with what exists listed by descriptor name.
  std::string wrong = error_of(loader, "descriptor-named", JOLT_PLUGIN_WORKLOAD);
  CHECK(wrong.find("unknown workload 'descriptor-named'") != std::string::npos);
}

TEST_CASE("the object keeps its library loaded after the loader's handle is gone") {
  std::shared_ptr<jolt::Sink> sink;
  {
    jolt::host::PluginLoader loader;
    sink = loader.load(plugin("nullsink"), JOLT_PLUGIN_SINK).create<jolt::Sink>();
  }
  CHECK(sink->write(jolt::Profile{}, jolt::SinkContext{}).ok);  // would crash if unloaded
}

TEST_CASE("ABI mismatch names found and expected versions") {
  jolt::host::PluginLoader loader;
  std::string e = error_of(loader, plugin("abi_future"), JOLT_PLUGIN_SINK);
  CHECK(e.find("libabi_future.so") != std::string::npos);
  CHECK(e.find("ABI 99.0") != std::string::npos);
  CHECK(e.find("expects ABI 4.x") != std::string::npos);
  CHECK(e.find("rebuild") != std::string::npos);
}

TEST_CASE("a plugin built against SDK ABI 1 (the Profile before ABI 2) is rejected") {
  jolt::host::PluginLoader loader;
  std::string e = error_of(loader, plugin("abi_one"), JOLT_PLUGIN_SINK);
  CHECK(e.find("libabi_one.so") != std::string::npos);
  CHECK(e.find("built for plugin ABI 1.0") != std::string::npos);
  CHECK(e.find("rebuild the plugin against this SDK") != std::string::npos);
}

TEST_CASE("a shared library without a descriptor is not a plugin") {
  jolt::host::PluginLoader loader;
  std::string e = error_of(loader, plugin("not_a_plugin"), JOLT_PLUGIN_SINK);
  CHECK(e.find("is not a jolt-run plugin") != std::string::npos);
  CHECK(e.find("JOLT_DEFINE_SINK_PLUGIN") != std::string::npos);
}

TEST_CASE("a descriptor smaller than the ABI's is refused") {
  jolt::host::PluginLoader loader;
  std::string e = error_of(loader, plugin("tiny_descriptor"), JOLT_PLUGIN_SINK);
  CHECK(e.find("plugin descriptor of 8 bytes") != std::string::npos);
}

TEST_CASE("a sink passed where a workload is expected is the wrong kind") {
  jolt::host::PluginLoader loader;
  std::string e = error_of(loader, plugin("nullsink"), JOLT_PLUGIN_WORKLOAD);
  CHECK(e.find("is a sink plugin ('nullsink')") != std::string::npos);
  CHECK(error_of(loader, plugin("unknown_kind"), JOLT_PLUGIN_SINK)
            .find("is a plugin of unknown kind 9 ('future'), but a sink plugin was expected") !=
        std::string::npos);
  CHECK(e.find("workload plugin was expected") != std::string::npos);
}

TEST_CASE("a missing file and an unknown name say what exists") {
  jolt::host::PluginLoader loader({JOLT_TEST_PLUGIN_DIR});
  std::string missing = error_of(loader, "/nonexistent/libnope.so", JOLT_PLUGIN_SINK);
  CHECK(missing.find("'/nonexistent/libnope.so' does not exist") != std::string::npos);
  std::string unknown = error_of(loader, "nope", JOLT_PLUGIN_SINK);
  CHECK(unknown.find("unknown sink 'nope'") != std::string::npos);
  CHECK(unknown.find("nullsink") != std::string::npos);  // lists what is available
  CHECK(unknown.find("--plugin-path") != std::string::npos);
}

TEST_CASE("listing reports broken files with their problem instead of failing") {
  jolt::host::PluginLoader loader({JOLT_TEST_PLUGIN_DIR});
  bool saw_good = false, saw_bad = false;
  for (const auto& l : loader.list()) {
    if (l.name == "nullsink" && l.kind == "sink") saw_good = true;
    if (l.path.find("libabi_future.so") != std::string::npos && !l.problem.empty()) saw_bad = true;
  }
  CHECK(saw_good);
  CHECK(saw_bad);
}

TEST_CASE("a library exporting a function under the descriptor alias name is reported") {
  jolt::host::PluginLoader loader({JOLT_TEST_PLUGIN_DIR});
  const std::string e = error_of(loader, plugin("function_alias"), JOLT_PLUGIN_SINK);
  CHECK(e.find("libfunction_alias.so' exports jolt_plugin_descriptor as a function") !=
        std::string::npos);
  CHECK(e.find("JOLT_DEFINE_SINK_PLUGIN") != std::string::npos);
}

TEST_CASE("a truncated plugin library is reported, not mapped (no SIGBUS in dlopen)") {
  const boost::filesystem::path dir =
      boost::filesystem::temp_directory_path() / boost::filesystem::unique_path("jolt-trunc-%%%%");
  boost::filesystem::create_directories(dir);
  std::ifstream in(plugin("nullsink"), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() > 4096);
  // Cut inside the last loadable segment (the debug sections after it do not matter to dlopen).
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof(eh));
  std::size_t load_end = 0;
  for (std::size_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, bytes.data() + eh.e_phoff + i * sizeof(ph), sizeof(ph));
    if (ph.p_type == PT_LOAD) load_end = std::max<std::size_t>(load_end, ph.p_offset + ph.p_filesz);
  }
  REQUIRE(load_end > 200);
  const std::size_t in_segment = load_end - 100;
  for (std::size_t keep : {in_segment, std::size_t{100}, std::size_t{10}}) {
    const std::string cut = (dir / "libcut.so").string();
    std::ofstream(cut, std::ios::binary | std::ios::trunc) << bytes.substr(0, keep);
    jolt::host::PluginLoader loader({dir.string()});
    const std::string e = error_of(loader, cut, JOLT_PLUGIN_SINK);
    INFO(keep << ": " << e);
    CHECK(e.find("cannot load '" + cut + "'") != std::string::npos);
    if (keep == in_segment) CHECK(e.find("truncated") != std::string::npos);
    bool listed = false;  // --list-plugins and the unknown-name error path list it as a problem
    for (const auto& l : loader.list())
      if (l.path == cut) listed = !l.problem.empty();
    CHECK(listed);
  }
  boost::filesystem::remove_all(dir);
}

TEST_CASE("--sink NAME:key=value,... splits into the plugin and its options") {
  using jolt::host::parse_sink_spec;
  CHECK(parse_sink_spec("chrome").plugin == "chrome");
  CHECK(parse_sink_spec("chrome").options.empty());
  const auto s = parse_sink_spec("summary:depth=3,mode=a=b");
  CHECK(s.plugin == "summary");
  CHECK(s.options == std::map<std::string, std::string>{{"depth", "3"}, {"mode", "a=b"}});
  // A path with ':' in a folder name keeps it; a value may hold ':'.
  CHECK(parse_sink_spec("/tmp/a:b/libx.so").plugin == "/tmp/a:b/libx.so");
  CHECK(parse_sink_spec("/tmp/a:b/libx.so:k=").options.at("k").empty());
  CHECK(parse_sink_spec("/tmp/a:k=v/libx.so").plugin == "/tmp/a:k=v/libx.so");
  const auto url = parse_sink_spec("otlp:endpoint=http://h:4318,note=12:30");
  CHECK(url.plugin == "otlp");
  CHECK(url.options.at("endpoint") == "http://h:4318");
  CHECK(url.options.at("note") == "12:30");
  CHECK(parse_sink_spec("/p/libx.so:endpoint=http://h:1").options.at("endpoint") == "http://h:1");
  auto error = [](const std::string& arg) {
    try {
      parse_sink_spec(arg);
    } catch (const jolt::host::PluginError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error("x:a=1,a=2").find("option 'a' is given twice") != std::string::npos);
  CHECK(error("x:a=1,,b=2").find("option '' is not key=value") != std::string::npos);
  CHECK(error("x:=1").find("option '=1' is not key=value") != std::string::npos);
  CHECK(error(":a=1").find("no sink name before ':'") != std::string::npos);
}
