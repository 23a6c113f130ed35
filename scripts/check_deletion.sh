#!/usr/bin/env bash
# Shows that every verifier check is needed: for each JOLT_VERIFY name under prover/src, runs the
# prover and PCS tests with that one check deleted (JOLT_DELETE_CHECK=<name>, honoured only by a
# build configured with -DJOLT_CHECK_DELETION=ON) and reports each deletion no test catches.
#
#   scripts/check_deletion.sh [build-dir]      # default: build-deletion
#
# Fails (exit 1) if a name is not a string literal, a name is used twice, or a deletion survives.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-deletion}
targets=(pcs_tests prover_engine_tests prover_pipeline_tests prover_traced_tests basefold_tests
  prover_lookup_tests prover_memory_tests)

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJOLT_CHECK_DELETION=ON \
  -DJOLT_WERROR=ON ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} \
  >/dev/null
cmake --build "$build" --target "${targets[@]}"

# Every JOLT_VERIFY( must be followed by a string literal name (possibly on the next line).
names_out=$(python3 - <<'PY'
import pathlib, re, sys
bad, names = [], []
for f in sorted(pathlib.Path("prover/src").rglob("*")):
    if f.suffix not in (".cpp", ".hpp"):
        continue
    text = f.read_text()
    for m in re.finditer(r"\bJOLT_VERIFY\(\s*", text):
        lit = re.match(r'"([a-z0-9_.]+)"\s*,', text[m.end():])
        line = text.count("\n", 0, m.start()) + 1
        if lit:
            names.append(lit.group(1))
        else:
            bad.append(f"{f}:{line}")
if bad:
    print("check_deletion: JOLT_VERIFY without a literal name at " + ", ".join(bad), file=sys.stderr)
    sys.exit(1)
print("\n".join(sorted(names)))
PY
)
mapfile -t names <<<"$names_out"
dups=$(printf '%s\n' "${names[@]}" | uniq -d)
if [[ -n "$dups" ]]; then
  echo "check_deletion: names used by more than one JOLT_VERIFY:" >&2
  echo "$dups" >&2
  exit 1
fi

# Runs every target (stops at the first failure); `first` (optional) runs before the others, so
# a deletion is usually caught by the first executable run.
run_tests() {
  local t first=${1:-}
  if [[ -n "$first" ]]; then "$build/bin/$first" >/dev/null 2>&1 || return 1; fi
  for t in "${targets[@]}"; do
    [[ "$t" == "$first" ]] && continue
    "$build/bin/$t" >/dev/null 2>&1 || return 1
  done
  return 0
}
first_target() {
  case "$1" in
    pcs.basefold.*) echo basefold_tests ;;
    pcs.*) echo pcs_tests ;;
    lookups.*|bytecode.*) echo prover_lookup_tests ;;
    ram.*) echo prover_memory_tests ;;
    *) echo prover_pipeline_tests ;;
  esac
}
if ! run_tests; then
  echo "check_deletion: the tests fail with no check deleted; fix them first" >&2
  exit 1
fi

survivors=()
for name in "${names[@]}"; do
  if JOLT_DELETE_CHECK="$name" run_tests "$(first_target "$name")"; then
    echo "SURVIVES  $name   (no test fails when this check is deleted)"
    survivors+=("$name")
  else
    echo "caught    $name"
  fi
done
echo "check_deletion: ${#names[@]} checks, $((${#names[@]} - ${#survivors[@]})) caught, ${#survivors[@]} survive"
[[ ${#survivors[@]} -eq 0 ]]
