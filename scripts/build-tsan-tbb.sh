#!/usr/bin/env bash
# Builds a ThreadSanitizer-instrumented libtbb for the `tsan` preset (CMakePresets.json).
#
# Debian 12's libtbb.so.12 is not compiled with -fsanitize=thread, so TSan cannot see the
# synchronisation inside it and reports false races between work that oneTBB itself orders (see
# .ci/tsan.supp). This script fetches Debian's own `onetbb` source package for exactly the
# installed libtbb-dev version, builds only the libtbb library from it with oneTBB's
# TBB_SANITIZE=thread, and installs it (library, headers, CMake package) to
#   build-tsan-tbb/install/        (TBB_DIR = build-tsan-tbb/install/lib/cmake/TBB)
# The `tsan` preset points find_package(TBB) there, so the headers compiled into the tests and
# the library they load at run time are the same Debian version, both instrumented.
#
# Download: a private apt directory (build-tsan-tbb/apt/) with deb-src entries for Debian 12 runs
# `apt-get update` and `apt-get source --download-only`; the system's apt sources are not touched.
# apt checks the InRelease signatures against /usr/share/keyrings/debian-archive-keyring.gpg and
# the downloaded .dsc/.orig.tar/.debian.tar against the signed Sources index, and dpkg-source -x
# checks them again against the .dsc's checksums.
#
# Idempotent: does nothing when build-tsan-tbb/install/STAMP already names this version, compiler
# and flags. Uses ccache when it is installed (CCACHE_DIR / CCACHE_BASEDIR from the environment).
# Needs: apt-get, dpkg-source (dpkg-dev), cmake, ninja, g++ (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD/build-tsan-tbb
install=$root/install

version=$(dpkg-query -W -f='${Version}' libtbb-dev 2>/dev/null || true)
if [ -z "$version" ]; then
  echo "build-tsan-tbb: libtbb-dev is not installed; run scripts/install-deps.sh first" >&2
  exit 1
fi
upstream=${version%-*}   # 2021.8.0-2+deb12u1 -> 2021.8.0
cxx=${CXX:-g++}
cc=${CC:-gcc}
cxx_version=$("$cxx" --version)
cxx_version=${cxx_version%%$'\n'*}
flags="-fsanitize=thread -fno-omit-frame-pointer -O2 -g"
stamp="onetbb $version; $cxx_version; $flags"

if [ -f "$install/STAMP" ] && [ "$(cat "$install/STAMP")" = "$stamp" ] \
    && [ -f "$install/lib/cmake/TBB/TBBConfig.cmake" ]; then
  echo "build-tsan-tbb: up to date ($stamp) in $install"
  exit 0
fi
echo "build-tsan-tbb: building onetbb $version with -fsanitize=thread into $install"

# --- fetch and verify Debian's source package (private apt state; nothing system-wide changes)
apt_dir=$root/apt
rm -rf "$apt_dir"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/src"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cat >"$apt_dir/sources.list" <<EOF
deb-src [signed-by=$keyring] http://deb.debian.org/debian bookworm main
deb-src [signed-by=$keyring] http://deb.debian.org/debian bookworm-updates main
deb-src [signed-by=$keyring] http://deb.debian.org/debian-security bookworm-security main
EOF
apt_opts=(
  -o "Dir::Etc::SourceList=$apt_dir/sources.list"
  -o "Dir::Etc::SourceParts=$apt_dir/none"
  -o "Dir::State::Lists=$apt_dir/lists"
  -o "Dir::Cache=$apt_dir/cache"
  -o "Debug::NoLocking=1"
  -o "APT::Sandbox::User=$(id -un)"
)
apt-get "${apt_opts[@]}" -qq update
(cd "$apt_dir/src" && apt-get "${apt_opts[@]}" -qq source --download-only "onetbb=$version")
src=$root/onetbb-$upstream
rm -rf "$src"
# dpkg-source verifies every file's size and checksums against the .dsc before unpacking, then
# applies Debian's patches (debian/patches/series), as the Debian build does.
dpkg-source --no-copy -x "$apt_dir/src/onetbb_${version#*:}.dsc" "$src"

# --- build libtbb only (no tbbmalloc, no tbbbind/hwloc, no tests or examples)
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
rm -rf "$root/build" "$install"
cmake -S "$src" -B "$root/build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g" \
  -DCMAKE_CXX_FLAGS="-fno-omit-frame-pointer" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" \
  -DTBB_SANITIZE=thread \
  -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF -DTBB_STRICT=OFF -DTBB4PY_BUILD=OFF \
  -DTBBMALLOC_BUILD=OFF -DTBBMALLOC_PROXY_BUILD=OFF \
  -DTBB_DISABLE_HWLOC_AUTOMATIC_SEARCH=ON \
  -DCMAKE_INSTALL_PREFIX="$install" -DCMAKE_INSTALL_LIBDIR=lib
cmake --build "$root/build" --target tbb
cmake --install "$root/build" --component runtime
cmake --install "$root/build" --component devel

# The tests compile against these headers (TBB::tbb's include directory) and Debian's libtbb-dev
# ships the same version's; they must not differ, or the library no longer matches what Debian
# users build against.
for d in oneapi tbb; do
  if ! diff -rq "$install/include/$d" "/usr/include/$d"; then
    echo "build-tsan-tbb: headers in $install/include/$d differ from libtbb-dev's /usr/include/$d" >&2
    exit 1
  fi
done
# An uninstrumented library here would bring the false reports back; refuse to stamp it.
# nm's output is read whole first: `nm | grep -q` under pipefail fails when grep exits at the
# first match and nm dies of SIGPIPE.
symbols=$(nm -D "$install/lib/libtbb.so.12")
if ! grep -q ' U __tsan_' <<<"$symbols"; then
  echo "build-tsan-tbb: $install/lib/libtbb.so.12 has no TSan instrumentation" >&2
  exit 1
fi
echo "$stamp" >"$install/STAMP"
echo "build-tsan-tbb: installed $(readlink -f "$install/lib/libtbb.so.12")"
