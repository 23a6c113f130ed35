// Workload plugin tests: the real built lib<name>.so plugins loaded by the host's plugin loader
// (with its ABI and kind checks); guest
// outputs checked against the host at two small scales; the scale mapping never exceeds 2^s;
// known-answer tests of the host hashes and of the hash guests; every guest's run proved and
// verified against its own program, and rejected against another's.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <string>
#include <vector>

#include <jolt/prover/lookups/instruction_lookup_map.hpp>
#include <jolt/prover/lookups/instruction_lookups.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/tracer/tracer.hpp>

#include <jolt/host/plugin_loader.hpp>
#include <jolt/workload.hpp>

#include "host_hashes.hpp"
#include "scale.hpp"

namespace tp = jolt::prover;
namespace jw = jolt::workloads;

namespace {

const char* const kNames[] = {"fibonacci", "sha2", "sha3", "sha2-chain", "sha3-chain", "btreemap"};

// A built workload plugin; the library stays loaded while the returned object lives.
std::shared_ptr<const jolt::Workload> load(const std::string& name) {
  return jolt::host::PluginLoader({JOLT_PLUGIN_BUILD_DIR})
      .load(name, JOLT_PLUGIN_WORKLOAD)
      .create<jolt::Workload>();
}

tp::Execution run(const std::shared_ptr<const jolt::Workload>& w,
                  std::span<const std::uint8_t> input, bool record = false) {
  tp::ExecOptions opt;
  opt.record = record;
  opt.max_cycles = 1ull << 28;
  return tp::execute(tp::load_elf(w->guest_elf()), input, opt);
}

std::vector<std::uint8_t> bytes(const std::string& s) {
  return {s.begin(), s.end()};
}

std::string hex_digest(const std::array<std::uint8_t, 32>& d) {
  return jw::to_hex(d);
}

}  // namespace

TEST_CASE("host SHA-256 and Keccak-256 known answers") {
  CHECK(hex_digest(jw::host_sha256(bytes(""))) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex_digest(jw::host_sha256(bytes("abc"))) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex_digest(
            jw::host_sha256(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hex_digest(jw::host_keccak256(bytes(""))) ==
        "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
  CHECK(hex_digest(jw::host_keccak256(bytes("abc"))) ==
        "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
  // 136 bytes = exactly one Keccak rate block: the padding goes into a second block.
  const std::vector<std::uint8_t> block(136, 0);
  const std::vector<std::uint8_t> block_plus(137, 0);
  CHECK(jw::host_keccak256(block) != jw::host_keccak256(block_plus));
}

TEST_CASE("hash guests reproduce the known answers for \"\" and \"abc\"") {
  const auto sha2 = load("sha2");
  const auto sha3 = load("sha3");
  const std::pair<std::string, std::string> sha2_kat[] = {
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}};
  const std::pair<std::string, std::string> sha3_kat[] = {
      {"", "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"},
      {"abc", "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"}};
  for (const auto& [msg, want] : sha2_kat) {
    const auto ex = run(sha2, bytes(msg));
    CHECK(ex.exit_code == 0);
    CHECK(jw::to_hex(ex.output) == want);
  }
  for (const auto& [msg, want] : sha3_kat) {
    const auto ex = run(sha3, bytes(msg));
    CHECK(ex.exit_code == 0);
    CHECK(jw::to_hex(ex.output) == want);
  }
  // A multi-block message (200 bytes crosses both block sizes) agrees with the host.
  const std::vector<std::uint8_t> long_msg(200, 0x61);
  const auto h = jw::host_sha256(long_msg);
  CHECK(run(sha2, long_msg).output == std::vector<std::uint8_t>(h.begin(), h.end()));
  const auto k = jw::host_keccak256(long_msg);
  CHECK(run(sha3, long_msg).output == std::vector<std::uint8_t>(k.begin(), k.end()));
}

TEST_CASE("every workload: guest output passes check_output at two small scales") {
  for (const char* name : kNames) {
    CAPTURE(name);
    const auto w = load(name);
    CHECK(
        jolt::host::PluginLoader({JOLT_PLUGIN_BUILD_DIR}).load(name, JOLT_PLUGIN_WORKLOAD).name() ==
        name);
    const std::uint32_t lo = std::max<std::uint32_t>(w->min_scale(), 12);
    for (std::uint32_t scale : {lo, lo + 3}) {
      CAPTURE(scale);
      jolt::WorkloadInput in;
      const auto st = w->make_input(scale, &in);
      REQUIRE_MESSAGE(st.ok, st.message);
      CHECK(in.ops >= 1);
      const auto ex = run(w, in.bytes, /*record=*/true);
      CHECK(ex.exit_code == 0);
      CHECK(ex.rows.size() == ex.trace_rows);  // sub-word accesses run as virtual sequences
      CHECK(ex.trace_rows >= ex.cycles);
      CHECK(tp::padded_length(ex.trace_rows) <= (1ull << scale));
      const auto ok = w->check_output(in, ex.output);
      CHECK_MESSAGE(ok.ok, ok.message);
      // A corrupted output is caught.
      auto bad = ex.output;
      REQUIRE_FALSE(bad.empty());
      bad[bad.size() - 1] ^= 1;
      const auto wrong = w->check_output(in, bad);
      CHECK_FALSE(wrong.ok);
      CHECK(wrong.message.find(name) != std::string::npos);
      CHECK_FALSE(w->check_output(in, {}).ok);
      REQUIRE_FALSE(ex.markers.empty());
      CHECK(ex.markers[0].closed);
    }
  }
}

TEST_CASE("scale mapping: ops follow the formula and the padded trace never exceeds 2^s") {
  for (const char* name : kNames) {
    CAPTURE(name);
    const auto w = load(name);
    const bool single = std::string(name) == "sha2" || std::string(name) == "sha3";
    for (std::uint32_t scale = w->min_scale(); scale <= 22; ++scale) {
      CAPTURE(scale);
      jolt::WorkloadInput in;
      const auto st = w->make_input(scale, &in);
      REQUIRE_MESSAGE(st.ok, st.message);
      const auto target = static_cast<std::uint64_t>(static_cast<double>(1ull << scale) * 0.9);
      const auto want_ops = std::max<std::uint64_t>(
          1, static_cast<std::uint64_t>(static_cast<double>(target) / w->cycles_per_op()));
      CHECK(in.ops == (single ? 1 : want_ops));
      const auto ex = run(w, in.bytes);
      CHECK(tp::padded_length(ex.trace_rows) <= (1ull << scale));
      if (single && scale > w->min_scale() + 1) break;  // same input at every scale
    }
  }
}

TEST_CASE("a too-small scale is refused with the smallest scale that works") {
  for (const char* name : kNames) {
    CAPTURE(name);
    const auto w = load(name);
    const std::uint32_t min = w->min_scale();
    REQUIRE(min > 8);
    jolt::WorkloadInput in;
    const auto st = w->make_input(min - 1, &in);
    CHECK_FALSE(st.ok);
    CHECK(st.message.find("smallest scale that works is " + std::to_string(min)) !=
          std::string::npos);
    CHECK(w->make_input(min, &in).ok);
    CHECK_FALSE(w->make_input(40, &in).ok);
    CHECK(w->default_scale() >= min);
  }
}

TEST_CASE("default scales as the original and documented inputs") {
  const auto fib = load("fibonacci");
  const auto s2c = load("sha2-chain");
  const auto s3c = load("sha3-chain");
  const auto bt = load("btreemap");
  CHECK(fib->default_scale() == 16);
  CHECK(s2c->default_scale() == 22);
  CHECK(s3c->default_scale() == 22);
  CHECK(bt->default_scale() == 20);
  jolt::WorkloadInput in;
  REQUIRE(s2c->make_input(16, &in).ok);
  REQUIRE(in.bytes.size() == 36);
  CHECK(std::all_of(in.bytes.begin(), in.bytes.begin() + 32, [](auto b) { return b == 5; }));
  CHECK(jw::get_u32(in.bytes.data() + 32) == in.ops);
  REQUIRE(fib->make_input(16, &in).ok);
  CHECK(in.bytes.size() == 4);
  CHECK(jw::get_u32(in.bytes.data()) == in.ops);
}

TEST_CASE("every instruction the workloads execute gives the tracer's result through its lookups") {
  // lookups_for forms each row's key from its operands; the tables must give what the tracer
  // computed (rd after the row, the next PC, the accessed address, a passed assertion) for every
  // row of every workload, with at most one lookup per row (none only for ECALL and FENCE).
  std::map<std::string, std::size_t> per_table;
  for (const char* name : kNames) {
    CAPTURE(name);
    const auto w = load(name);
    jolt::WorkloadInput in;
    REQUIRE(w->make_input(std::max<std::uint32_t>(w->min_scale(), 12), &in).ok);
    const auto ex = run(w, in.bytes, /*record=*/true);
    REQUIRE(ex.exit_code == 0);
    std::size_t wrong = 0, rows_with_lookups = 0, multi = 0, other_without = 0;
    for (const tp::TraceRow& row : ex.rows) {
      const auto steps = tp::lookups::lookups_for(row);
      rows_with_lookups += !steps.empty();
      multi += steps.size() > 1;
      other_without +=
          steps.empty() && row.opcode != tp::Opcode::kEcall && row.opcode != tp::Opcode::kFence;
      for (const auto& s : steps) {
        ++per_table[std::string(tp::lookups::table_name(s.table))];
        if (tp::lookups::table_value(s.table, 32, s.key) != s.expected && wrong++ < 5)
          MESSAGE("opcode ", static_cast<unsigned>(row.opcode), " at pc ", row.pc, ": ",
                  tp::lookups::table_name(s.table), " gives ",
                  tp::lookups::table_value(s.table, 32, s.key), ", the tracer ", s.expected);
      }
    }
    CHECK(wrong == 0);
    CHECK(multi == 0);
    CHECK(other_without == 0);
    CHECK(rows_with_lookups * 2 > ex.rows.size());  // most rows are ALU, jump or branch rows
  }
  // The six workloads between them exercise the word tables the compiled guests need.
  for (const char* t : {"RangeCheck", "RangeCheckAligned", "And", "Or", "Xor", "Equal", "NotEqual",
                        "LessThanUnsigned", "VirtualSRL", "ShiftRightBitmask", "Pow2"}) {
    CAPTURE(t);
    CHECK(per_table[t] > 0);
  }
}

TEST_CASE("every workload's instruction lookups prove the tracer's results, and not a wrong one") {
  // The lookup argument (prover/src/engine/lookups) on real traces: one lookup cycle per row with
  // a lookup (lookups_for), the output claim made from the tracer's results. One result off by one
  // is rejected at the read-raf sumcheck.
  for (const char* name : kNames) {
    CAPTURE(name);
    const auto w = load(name);
    jolt::WorkloadInput in;
    REQUIRE(w->make_input(std::max<std::uint32_t>(w->min_scale(), 10), &in).ok);
    const auto ex = run(w, in.bytes, /*record=*/true);
    std::vector<std::uint64_t> expected;
    const auto lw = tp::lookups::lookup_witness_of(ex.rows, &expected);
    const std::size_t log_t = static_cast<std::size_t>(std::countr_zero(lw.cycles()));
    std::vector<tp::Fr> r(log_t);
    for (std::size_t i = 0; i < log_t; ++i) r[i] = tp::Fr::from_u64(1000003 * i + 17);
    const std::vector<tp::Fr> eq = tp::EqPolynomial::evals(r);
    tp::lookups::InstructionLookupClaims claims = tp::lookups::lookup_claims(lw, r);
    claims.output = tp::Fr::zero();
    for (std::size_t j = 0; j < lw.cycles(); ++j)
      claims.output += eq[j] * tp::Fr::from_u64(expected[j]);
    for (int forged = 0; forged < 2; ++forged) {
      tp::lookups::InstructionLookupClaims c = claims;
      if (forged) c.output += eq[lw.cycles() / 3];  // the row's result one more than the tracer's
      tp::Transcript tp_("workload-lookups"), tv("workload-lookups");
      const auto proof = tp::lookups::prove_instruction_lookups(lw, r, c, tp_, false);
      tp::lookups::InstructionLookupOpenings o;
      const auto e = tp::lookups::verify_instruction_lookups(32, log_t, r, c, proof, tv, o);
      if (forged) {
        REQUIRE(e);
        CHECK(e->check == "lookups.read_raf.sumcheck.round_sum");
      } else {
        CHECK_MESSAGE(!e, (e ? e->check : std::string()));
      }
    }
  }
}

TEST_CASE("every workload's run proves and verifies against its ELF, and only against its ELF") {
  std::vector<tp::Program> programs;
  std::vector<tp::Statement> statements;
  std::vector<std::vector<std::uint8_t>> proofs;
  for (const char* name : kNames) {
    CAPTURE(name);
    const auto w = load(name);
    const std::uint32_t scale = std::max<std::uint32_t>(w->min_scale(), 10);
    CAPTURE(scale);
    jolt::WorkloadInput in;
    REQUIRE(w->make_input(scale, &in).ok);
    const auto elf = w->guest_elf();
    auto ex = run(w, in.bytes, /*record=*/true);
    REQUIRE(ex.exit_code == 0);
    tp::Statement st{tp::program_from_elf(elf), in.bytes, ex.output, ex.rows.size()};
    tp::pad_trace(ex.rows);
    auto proof = tp::prove(st, ex.rows);
    const auto e = tp::verify(st, proof);
    CHECK_MESSAGE(!e, (e ? e->check + ": " + e->message : std::string()));
    if (std::string(name) == "sha2") {  // byte-identical with 1 and 2 threads
      tp::ProverOptions one;
      one.num_threads = 1;
      CHECK(tp::prove(st, ex.rows, one) == proof);
    }
    statements.push_back(std::move(st));
    proofs.push_back(std::move(proof));
  }
  // A proof is rejected for any other workload's program (same input, output and length).
  for (std::size_t i = 0; i < proofs.size(); ++i) {
    auto other = statements[i];
    other.program = statements[(i + 1) % statements.size()].program;
    CAPTURE(kNames[i]);
    CHECK(tp::verify(other, proofs[i]));
  }
}
