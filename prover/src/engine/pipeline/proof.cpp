// Proof encoding/decoding through the shared codec (see proof.hpp for the layout).
#include <jolt/prover/codec.hpp>
#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/verify_check.hpp>

namespace jolt::prover {

namespace {

constexpr std::uint8_t kMagic[4] = {'J', 'R', 'P', 'F'};
// Bounds what a corrupt header can make the decoder allocate for the parameters string.
constexpr std::uint32_t kMaxParametersBytes = 4096;

void put_bytes(ByteWriter& w, std::span<const std::uint8_t> b) {
  w.u32(static_cast<std::uint32_t>(b.size()));
  w.raw(b);
}
void put_frs(ByteWriter& w, const std::vector<Fr>& v) {
  w.u32(static_cast<std::uint32_t>(v.size()));
  w.frs(v);
}
void put_sumcheck(ByteWriter& w, const SumcheckProof& p) {
  w.u32(static_cast<std::uint32_t>(p.round_polys.size()));
  for (const auto& s : p.round_polys) put_frs(w, s.coeffs);
}

std::vector<Fr> get_frs(ByteReader& r) {
  const std::uint32_t n = r.u32();
  return r.frs(n);
}
void put_layers(ByteWriter& w, const std::vector<FractionLayerProof>& layers) {
  w.u32(static_cast<std::uint32_t>(layers.size()));
  for (const auto& l : layers) {
    put_sumcheck(w, l.sumcheck);
    put_frs(w, l.claims);
  }
}

SumcheckProof get_sumcheck(ByteReader& r);

std::vector<FractionLayerProof> get_layers(ByteReader& r) {
  std::vector<FractionLayerProof> out;
  const std::uint32_t layers = r.u32();
  if (!r.need_elements(layers, 8)) return out;  // each layer has at least its two counts
  out.reserve(layers);
  for (std::uint32_t j = 0; j < layers && r.ok(); ++j) {
    FractionLayerProof l;
    l.sumcheck = get_sumcheck(r);
    l.claims = get_frs(r);
    out.push_back(std::move(l));
  }
  return out;
}

SumcheckProof get_sumcheck(ByteReader& r) {
  const std::uint32_t rounds = r.u32();
  SumcheckProof p;
  if (!r.need_elements(rounds, 4)) return p;  // each round has at least its count
  p.round_polys.reserve(rounds);
  for (std::uint32_t j = 0; j < rounds && r.ok(); ++j) p.round_polys.push_back(UniPoly{get_frs(r)});
  return p;
}

}  // namespace

std::vector<std::uint8_t> encode_proof(const Proof& p) {
  ByteWriter w;
  w.raw(kMagic);
  w.u16(kProofVersion);
  w.u8(p.pcs_kind);
  w.u8(0);
  w.u32(p.log_t);
  w.u32(p.num_columns);
  put_bytes(w, std::span(reinterpret_cast<const std::uint8_t*>(p.pcs_parameters.data()),
                         p.pcs_parameters.size()));
  w.u32(static_cast<std::uint32_t>(p.ram_regions.size()));
  for (const memory::RamRegion& g : p.ram_regions) {
    w.u32(g.address);
    w.u32(g.words);
  }
  w.u32(p.ram_output_tail);
  put_bytes(w, p.commitment);
  put_sumcheck(w, p.stage1);
  put_frs(w, p.stage1_openings);
  put_sumcheck(w, p.stage2);
  put_frs(w, p.stage2_openings);
  put_sumcheck(w, p.ram.read_write);
  put_frs(w, p.ram.read_write_outputs);
  put_sumcheck(w, p.stage3);
  put_frs(w, p.stage3_openings);
  put_frs(w, p.register_final_values);
  put_frs(w, p.register_final_timestamps);
  put_frs(w, p.register_root_children);
  put_layers(w, p.register_layers);
  put_frs(w, p.stage4_openings);
  put_sumcheck(w, p.ram.val_check);
  put_frs(w, p.ram.val_check_outputs);
  put_frs(w, p.range_root_children);
  put_layers(w, p.range_layers);
  put_frs(w, p.stage5_openings);
  put_sumcheck(w, p.instruction_lookups.read_raf);
  put_frs(w, p.instruction_lookups.read_raf_outputs);
  put_sumcheck(w, p.ram.ra);
  put_frs(w, p.ram.ra_outputs);
  put_frs(w, p.ram_access_flags);
  put_sumcheck(w, p.bytecode.address);
  put_frs(w, p.bytecode.address_outputs);
  put_sumcheck(w, p.bytecode.ra);
  put_frs(w, p.bytecode.index_bits);
  put_sumcheck(w, p.instruction_lookups.key_bits);
  put_frs(w, p.instruction_lookups.key_bit_claims);
  put_sumcheck(w, p.stage7);
  put_frs(w, p.stage7_openings);
  put_bytes(w, p.pcs_opening);
  return w.take();
}

std::optional<VerifyError> decode_proof(std::span<const std::uint8_t> bytes, Proof& p) {
  p = Proof{};
  ByteReader r(bytes);
  std::uint8_t magic[4];
  r.raw(magic);
  const std::uint16_t version = r.u16();
  if (auto e = r.error()) return e;
  JOLT_VERIFY("proof.magic", std::equal(magic, magic + 4, kMagic),
              "bad magic (not a jolt-run proof)");
  JOLT_VERIFY("proof.version", version == kProofVersion,
              "unsupported proof version " + std::to_string(version) + " (expected " +
                  std::to_string(kProofVersion) + ")");
  p.pcs_kind = r.u8();
  const std::uint8_t reserved = r.u8();
  p.log_t = r.u32();
  p.num_columns = r.u32();
  const std::uint32_t param_len = r.u32();
  if (param_len > kMaxParametersBytes)
    r.fail("decode.truncated", "parameters field of " + std::to_string(param_len) + " bytes");
  const std::vector<std::uint8_t> params = r.bytes(param_len);
  p.pcs_parameters.assign(params.begin(), params.end());
  if (auto e = r.error()) return e;
  JOLT_VERIFY("proof.reserved", reserved == 0, "reserved header byte is not zero");
  r.section("ram_regions");
  const std::uint32_t regions = r.u32();
  if (r.need_elements(regions, 8)) {
    p.ram_regions.resize(regions);
    for (memory::RamRegion& g : p.ram_regions) {
      g.address = r.u32();
      g.words = r.u32();
    }
  }
  p.ram_output_tail = r.u32();
  r.section("commitment");
  p.commitment = r.bytes(r.u32());
  r.section("stage1.sumcheck");
  p.stage1 = get_sumcheck(r);
  r.section("stage1.openings");
  p.stage1_openings = get_frs(r);
  r.section("stage2.sumcheck");
  p.stage2 = get_sumcheck(r);
  r.section("stage2.openings");
  p.stage2_openings = get_frs(r);
  r.section("stage2.ram_read_write");
  p.ram.read_write = get_sumcheck(r);
  p.ram.read_write_outputs = get_frs(r);
  r.section("stage3.sumcheck");
  p.stage3 = get_sumcheck(r);
  r.section("stage3.openings");
  p.stage3_openings = get_frs(r);
  r.section("stage4.final_state");
  p.register_final_values = get_frs(r);
  p.register_final_timestamps = get_frs(r);
  r.section("stage4.root");
  p.register_root_children = get_frs(r);
  r.section("stage4.layers");
  p.register_layers = get_layers(r);
  r.section("stage4.openings");
  p.stage4_openings = get_frs(r);
  r.section("stage4.ram_val_check");
  p.ram.val_check = get_sumcheck(r);
  p.ram.val_check_outputs = get_frs(r);
  r.section("stage5.root");
  p.range_root_children = get_frs(r);
  r.section("stage5.layers");
  p.range_layers = get_layers(r);
  r.section("stage5.openings");
  p.stage5_openings = get_frs(r);
  r.section("stage5.read_raf");
  p.instruction_lookups.read_raf = get_sumcheck(r);
  r.section("stage5.read_raf_outputs");
  p.instruction_lookups.read_raf_outputs = get_frs(r);
  r.section("stage5.ram_ra");
  p.ram.ra = get_sumcheck(r);
  p.ram.ra_outputs = get_frs(r);
  p.ram_access_flags = get_frs(r);
  r.section("stage6a.sumcheck");
  p.bytecode.address = get_sumcheck(r);
  r.section("stage6a.outputs");
  p.bytecode.address_outputs = get_frs(r);
  r.section("stage6b.sumcheck");
  p.bytecode.ra = get_sumcheck(r);
  r.section("stage6b.index_bits");
  p.bytecode.index_bits = get_frs(r);
  r.section("stage6b.key_bits_sumcheck");
  p.instruction_lookups.key_bits = get_sumcheck(r);
  r.section("stage6b.key_bits");
  p.instruction_lookups.key_bit_claims = get_frs(r);
  r.section("stage7.sumcheck");
  p.stage7 = get_sumcheck(r);
  r.section("stage7.openings");
  p.stage7_openings = get_frs(r);
  r.section("stage8.pcs_opening");
  p.pcs_opening = r.bytes(r.u32());
  return r.finish();
}

}  // namespace jolt::prover
