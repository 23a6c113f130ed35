// jolt-run's re-run on transparent huge pages (huge_pages.hpp).
#include "jolt/core/huge_pages.hpp"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>

namespace jolt::core {
namespace {

// Set in the re-run, which also restores GLIBC_TUNABLES for its children.
bool g_rerun = false;

// The re-run's marker: "-" when GLIBC_TUNABLES was unset before, else "=" and its value.
constexpr const char* kMarker = "JOLT_HUGEPAGES_RERUN";

bool names_hugetlb(const char* tunables) {
  return tunables && std::strstr(tunables, "glibc.malloc.hugetlb");
}

}  // namespace

void rerun_with_huge_pages(char** argv) {
#if defined(__GLIBC__) && defined(__linux__)
  if (const char* marker = std::getenv(kMarker)) {
    // The re-run: never again; the children get the environment jolt-run was started with.
    const std::string m = marker;
    if (m.size() > 0 && m[0] == '=')
      setenv("GLIBC_TUNABLES", m.c_str() + 1, 1);
    else
      unsetenv("GLIBC_TUNABLES");
    unsetenv(kMarker);
    g_rerun = true;
    return;
  }
  const char* off = std::getenv("JOLT_HUGEPAGES");
  if (off && std::strcmp(off, "0") == 0) return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (names_hugetlb(tunables)) return;
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload && std::strstr(preload, "vgpreload")) return;
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return;
  exe[n] = '\0';
  const char* slash = std::strrchr(exe, '/');
  const char* base = slash ? slash + 1 : exe;
  if (std::strncmp(base, "ld-", 3) == 0 || std::strstr(base, "ld.so")) return;
  const std::string before = tunables ? tunables : "";
  const std::string marker = tunables ? "=" + before : "-";
  const std::string with =
      before.empty() ? "glibc.malloc.hugetlb=1" : before + ":glibc.malloc.hugetlb=1";
  if (setenv(kMarker, marker.c_str(), 1) == 0 && setenv("GLIBC_TUNABLES", with.c_str(), 1) == 0)
    execv(exe, argv);  // by its own path, so the process keeps its name (not "exe")
  // Not re-run: go on with normal pages and leave the environment as it was.
  unsetenv(kMarker);
  if (tunables)
    setenv("GLIBC_TUNABLES", before.c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
#else
  (void)argv;
#endif
}

bool malloc_on_huge_pages() {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return g_rerun || (tunables && std::strstr(tunables, "glibc.malloc.hugetlb=1"));
}

}  // namespace jolt::core
