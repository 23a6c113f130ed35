// The plugin ABI: every plugin library exports one C-ABI descriptor through Boost.DLL's alias
// `jolt_plugin_descriptor`. The host checks struct size and ABI major before anything else.
//
//   class MarkdownSink final : public jolt::Sink { ... };
//   JOLT_DEFINE_SINK_PLUGIN(MarkdownSink, "markdown", "top spans as Markdown", 0)
//
// Rules: the macros catch a constructor's exception in create (the host then reports that the
// object could not be created); Sink::write and configure may throw into the host since ABI 4.3
// (sink.hpp), nothing else may; the host keeps the library loaded until every object it created
// is destroyed; objects are C++ classes compiled against this SDK, so a plugin must be built with
// a libstdc++-compatible compiler — that contract is part of the ABI major.
#pragma once
#include <cstdint>
#include <new>

#include <boost/dll/alias.hpp>

#include <jolt/version.hpp>

extern "C" {

enum jolt_plugin_kind : std::uint32_t {
  JOLT_PLUGIN_WORKLOAD = 1,
  JOLT_PLUGIN_SINK = 2,
};

// Capability bits (sinks).
inline constexpr std::uint64_t JOLT_CAP_HEAP_SNAPSHOTS = 1u << 0;  // wants per-batch heap snapshots
inline constexpr std::uint64_t JOLT_CAP_NEEDS_TRACE = 1u << 1;     // wants spans recorded
// Since ABI 4.2: writes files shared by the runs of SinkContext::out_dir (such as
// modular_timings.csv). The host calls such sinks after every other sink, and hands them the
// out_dir only when all the others succeeded (else an empty one), so no shared file records a
// run that failed.
inline constexpr std::uint64_t JOLT_CAP_SHARED_FILES = 1u << 2;

struct jolt_plugin_descriptor {
  std::uint32_t struct_size;   // sizeof(jolt_plugin_descriptor) the plugin was built with
  std::uint16_t abi_major;     // must equal the host's jolt::kAbiMajor
  std::uint16_t abi_minor;     // host accepts any minor; fields added in minors go at the end
  std::uint32_t kind;          // jolt_plugin_kind
  const char* name;            // bare name, e.g. "chrome" or "sha2"
  const char* description;     // one line for --list-plugins
  std::uint64_t capabilities;  // JOLT_CAP_* bits
  void* (*create)();           // new object (jolt::Sink* or jolt::Workload*), nullptr on failure
  void (*destroy)(void*);      // deletes what create returned
};

using jolt_plugin_descriptor_fn = const jolt_plugin_descriptor* (*)();
}

#define JOLT_DETAIL_DEFINE_PLUGIN(Class, Interface, Kind, Name, Description, Caps)              \
  namespace {                                                                                   \
  void* jolt_plugin_create_() {                                                                 \
    try {                                                                                       \
      return static_cast<Interface*>(new Class());                                              \
    } catch (...) {                                                                             \
      return nullptr;                                                                           \
    }                                                                                           \
  }                                                                                             \
  void jolt_plugin_destroy_(void* p) {                                                          \
    delete static_cast<Interface*>(p);                                                          \
  }                                                                                             \
  const jolt_plugin_descriptor jolt_plugin_descriptor_value_ = {sizeof(jolt_plugin_descriptor), \
                                                                ::jolt::kAbiMajor,              \
                                                                ::jolt::kAbiMinor,              \
                                                                Kind,                           \
                                                                Name,                           \
                                                                Description,                    \
                                                                Caps,                           \
                                                                &jolt_plugin_create_,           \
                                                                &jolt_plugin_destroy_};         \
  }                                                                                             \
  extern "C" const jolt_plugin_descriptor* jolt_plugin_get_descriptor() {                       \
    return &jolt_plugin_descriptor_value_;                                                      \
  }                                                                                             \
  BOOST_DLL_ALIAS(jolt_plugin_get_descriptor, jolt_plugin_descriptor)

// Defines the descriptor of a sink plugin whose class derives from jolt::Sink.
#define JOLT_DEFINE_SINK_PLUGIN(Class, Name, Description, Caps) \
  JOLT_DETAIL_DEFINE_PLUGIN(Class, ::jolt::Sink, JOLT_PLUGIN_SINK, Name, Description, Caps)
// Defines the descriptor of a workload plugin whose class derives from jolt::Workload.
#define JOLT_DEFINE_WORKLOAD_PLUGIN(Class, Name, Description) \
  JOLT_DETAIL_DEFINE_PLUGIN(Class, ::jolt::Workload, JOLT_PLUGIN_WORKLOAD, Name, Description, 0)
