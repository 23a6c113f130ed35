// libFuzzer: the ELF loader, then a bounded execution of whatever loaded. Any input must end in
// an ElfImage or ElfError, and execution in an exit, a GuestFault or an ElfError — never a crash
// or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <span>

#include <jolt/prover/tracer/tracer.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace tp = jolt::prover;
  const std::span<const std::uint8_t> bytes(data, size);
  tp::ElfImage image;
  try {
    image = tp::load_elf(bytes);
  } catch (const tp::ElfError&) {
    return 0;
  }
  // The input region gets the file's last bytes (an odd length exercises the sub-word loads).
  const std::span<const std::uint8_t> input = bytes.subspan(size - size % 7);
  for (bool record : {false, true}) {
    try {
      tp::ExecOptions opt;
      opt.record = record;
      opt.max_cycles = 4096;
      (void)tp::execute(image, input, opt);
    } catch (const tp::GuestFault&) {
    } catch (const tp::ElfError&) {
    }
  }
  return 0;
}
