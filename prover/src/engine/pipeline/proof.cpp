// Proof encoding/decoding with explicit bounds checks (see proof.hpp for the layout).
#include <jolt/prover/pipeline/proof.hpp>

namespace jolt::prover {

namespace {

class Writer {
 public:
  void u8(std::uint8_t v) { out.push_back(v); }
  void u16(std::uint16_t v) { le(v, 2); }
  void u32(std::uint32_t v) { le(v, 4); }
  void bytes(const std::vector<std::uint8_t>& b) {
    u32(static_cast<std::uint32_t>(b.size()));
    out.insert(out.end(), b.begin(), b.end());
  }
  void fr(const Fr& f) {
    auto b = f.to_bytes();
    out.insert(out.end(), b.begin(), b.end());
  }
  void frs(const std::vector<Fr>& v) {
    u32(static_cast<std::uint32_t>(v.size()));
    for (const Fr& f : v) fr(f);
  }
  void sumcheck(const SumcheckProof& p) {
    u32(static_cast<std::uint32_t>(p.round_polys.size()));
    for (const auto& s : p.round_polys) frs(s.coeffs);
  }
  std::vector<std::uint8_t> out;

 private:
  void le(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
};

struct DecodeError {
  std::string what;
};

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}
  const char* section = "header";
  std::uint64_t le(std::size_t n) {
    need(n);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(b_[pos_ + i]) << (8 * i);
    pos_ += n;
    return v;
  }
  std::vector<std::uint8_t> bytes() {
    const std::size_t n = static_cast<std::size_t>(le(4));
    need(n);
    std::vector<std::uint8_t> v(b_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                b_.begin() + static_cast<std::ptrdiff_t>(pos_ + n));
    pos_ += n;
    return v;
  }
  Fr fr() {
    need(Fr::kBytes);
    auto f = Fr::from_bytes(b_.subspan(pos_, Fr::kBytes));
    if (!f) fail("non-canonical field element");
    pos_ += Fr::kBytes;
    return *f;
  }
  std::vector<Fr> frs() {
    const std::size_t n = static_cast<std::size_t>(le(4));
    need(n * Fr::kBytes);  // before allocating: a corrupt count cannot request huge memory
    std::vector<Fr> v;
    v.reserve(n);
    for (std::size_t i = 0; i < n; ++i) v.push_back(fr());
    return v;
  }
  SumcheckProof sumcheck() {
    const std::size_t rounds = static_cast<std::size_t>(le(4));
    need(rounds * 4);
    SumcheckProof p;
    p.round_polys.reserve(rounds);
    for (std::size_t j = 0; j < rounds; ++j) p.round_polys.push_back(UniPoly{frs()});
    return p;
  }
  bool at_end() const { return pos_ == b_.size(); }
  std::size_t pos() const { return pos_; }
  [[noreturn]] void fail(const std::string& why) const {
    throw DecodeError{why + " in " + section + " at byte " + std::to_string(pos_)};
  }

 private:
  void need(std::size_t n) const {
    if (n > b_.size() - pos_)
      fail("truncated (" + std::to_string(n) + " bytes needed, " +
           std::to_string(b_.size() - pos_) + " left)");
  }
  std::span<const std::uint8_t> b_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<std::uint8_t> encode_proof(const Proof& p) {
  Writer w;
  for (char c : {'J', 'R', 'P', 'F'}) w.u8(static_cast<std::uint8_t>(c));
  w.u16(kProofVersion);
  w.u8(p.pcs_kind);
  w.u8(0);
  w.u32(p.log_t);
  w.u32(p.num_columns);
  w.bytes(p.commitment);
  w.sumcheck(p.stage1);
  w.frs(p.stage1_openings);
  w.sumcheck(p.stage2);
  w.frs(p.stage2_openings);
  w.sumcheck(p.stage3);
  w.frs(p.stage3_openings);
  w.bytes(p.pcs_opening);
  return std::move(w.out);
}

DecodeResult decode_proof(std::span<const std::uint8_t> bytes) {
  DecodeResult res;
  try {
    Reader r(bytes);
    const char magic[4] = {'J', 'R', 'P', 'F'};
    for (char c : magic)
      if (r.le(1) != static_cast<std::uint8_t>(c)) r.fail("bad magic (not a jolt-run proof)");
    const auto version = static_cast<std::uint16_t>(r.le(2));
    if (version != kProofVersion)
      r.fail("unsupported proof version " + std::to_string(version) + " (expected " +
             std::to_string(kProofVersion) + ")");
    Proof p;
    p.pcs_kind = static_cast<std::uint8_t>(r.le(1));
    if (r.le(1) != 0) r.fail("reserved header byte is not zero");
    p.log_t = static_cast<std::uint32_t>(r.le(4));
    p.num_columns = static_cast<std::uint32_t>(r.le(4));
    r.section = "commitment";
    p.commitment = r.bytes();
    r.section = "stage1.sumcheck";
    p.stage1 = r.sumcheck();
    r.section = "stage1.openings";
    p.stage1_openings = r.frs();
    r.section = "stage2.sumcheck";
    p.stage2 = r.sumcheck();
    r.section = "stage2.openings";
    p.stage2_openings = r.frs();
    r.section = "stage3.sumcheck";
    p.stage3 = r.sumcheck();
    r.section = "stage3.openings";
    p.stage3_openings = r.frs();
    r.section = "stage8.pcs_opening";
    p.pcs_opening = r.bytes();
    if (!r.at_end()) r.fail("trailing bytes after the proof");
    res.proof = std::move(p);
  } catch (const DecodeError& e) {
    res.error = "proof decode: " + e.what;
  }
  return res;
}

}  // namespace jolt::prover
