#!/usr/bin/env bash
# Installs the Debian 12 packages jolt-run needs to build, test and plot.
# Idempotent: only missing packages are installed; needs root (or sudo).
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build git pkg-config dpkg-dev
  clang lld llvm
  libboost-dev libboost-program-options-dev libboost-filesystem-dev libboost-system-dev
  rapidjson-dev libspdlog-dev libfmt-dev libtbb-dev doctest-dev
  libgmp-dev libsodium-dev
  # the sqlite sink and `jolt-run sql` (libsqlite3); their tests use the sqlite3 shell and protoc
  libsqlite3-dev sqlite3
  python3 python3-matplotlib jq valgrind
  chromium
  # --pprof: zlib for the gzip-compressed profiles; protoc for the tests that decode them, and
  # pprof's Go sources + Go, from which the tests build pprof offline (tests/cpu_profile/)
  zlib1g-dev protobuf-compiler golang-go golang-github-google-pprof-dev
  # `benchmark --executor slurm|parallel` and their tests (a single-node Slurm cluster; GNU parallel)
  slurm-wlm munge parallel
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
