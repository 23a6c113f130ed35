// Transparent huge pages for jolt-run's heap. The prover's tables are hundreds of MiB of
// std::vector, faulted in 4 KiB pages and walked by the NTT and the sumchecks through as many TLB
// entries. glibc backs malloc with transparent huge pages when its tunable glibc.malloc.hugetlb=1
// is set (THP in madvise mode, as Debian ships it, then applies to the heap), and reads tunables
// only at start-up: so main() re-runs jolt-run once with the tunable added (docs/performance.md:
// sha2-chain 2^18 proved in 16.1–16.7 s instead of 19.7–19.9 s, the same peak RSS).
//
//   int main(int argc, char** argv) { jolt::core::rerun_with_huge_pages(argv); ... }
//   bool on = jolt::core::malloc_on_huge_pages();   // for logs
#pragma once

namespace jolt::core {

// Re-runs the program (execv of the binary /proc/self/exe names, the same argv) with
// glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES, unless: JOLT_HUGEPAGES=0; GLIBC_TUNABLES already
// names glibc.malloc.hugetlb (the user's choice is kept); valgrind's preload library is in
// LD_PRELOAD (the re-run would leave the tool behind); the binary is the dynamic loader (jolt-run
// started as `ld.so jolt-run ...`); or this process is the re-run. In the re-run, GLIBC_TUNABLES
// goes back to what it was, so the programs jolt-run starts do not inherit the tunable. Returns
// (without re-running) on any failure. Linux with glibc only; elsewhere it does nothing.
void rerun_with_huge_pages(char** argv);

// True when malloc runs on transparent huge pages by glibc.malloc.hugetlb=1: this process is the
// re-run, or the user set the tunable.
bool malloc_on_huge_pages();

}  // namespace jolt::core
