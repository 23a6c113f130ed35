// Basefold commit / batched same-point open / verify (protocol and soundness: basefold.hpp), and
// the scheme behind the CommitmentScheme seam (make_basefold_commitment).
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <jolt/instrument.hpp>
#include <jolt/prover/pcs/basefold.hpp>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/pcs/reed_solomon.hpp>
#include <jolt/prover/pcs/scheme.hpp>
#include <jolt/prover/pcs/stacked.hpp>
#include <jolt/prover/verify_check.hpp>
#include "ntt_lanes.hpp"

namespace jolt::prover::basefold {
namespace {

constexpr std::uint8_t kMagic[4] = {'J', 'B', 'F', 'D'};
constexpr std::uint32_t kVersion = 4;  // 4: layer-0 leaf ℓ at tree position 4·(ℓ mod M/8) +
                                       // ℓ/(M/8) (layer0_position); 3: leaf steps chained through
                                       // BLAKE2b's salt and personal; 2: the parameters include
                                       // leaf_group
constexpr std::size_t kGrain = 1024;
// Products over arrays (multiply_arrays) this many at a time.
constexpr std::size_t kArrayChunk = 64;

// ---- byte helpers --------------------------------------------------------------------------

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_frs(std::vector<std::uint8_t>& out, std::span<const Fr> v) {
  put_u32(out, static_cast<std::uint32_t>(v.size()));
  for (const Fr& x : v) {
    const auto b = x.to_bytes();
    out.insert(out.end(), b.begin(), b.end());
  }
}
void put_digests(std::vector<std::uint8_t>& out, std::span<const Digest> v) {
  put_u32(out, static_cast<std::uint32_t>(v.size()));
  for (const Digest& d : v) out.insert(out.end(), d.begin(), d.end());
}

// Length-checked reader: every failure latches `ok = false` and records why.
struct Reader {
  std::span<const std::uint8_t> b;
  std::size_t pos = 0;
  bool ok = true;
  std::string why;
  bool need(std::size_t n, const char* what) {
    if (!ok) return false;
    if (b.size() - pos < n) {
      ok = false;
      why = std::string("truncated while reading ") + what;
    }
    return ok;
  }
  std::uint64_t uint(int bytes, const char* what) {
    if (!need(static_cast<std::size_t>(bytes), what)) return 0;
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | b[pos + static_cast<std::size_t>(i)];
    pos += static_cast<std::size_t>(bytes);
    return v;
  }
  std::vector<Fr> frs(const char* what) {
    const std::uint64_t n = uint(4, what);
    std::vector<Fr> v;
    if (!ok || !need(n * Fr::kBytes, what)) return v;
    v.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      auto x = Fr::from_bytes(b.subspan(pos, Fr::kBytes));
      pos += Fr::kBytes;
      if (!x) {
        ok = false;
        why = std::string("non-canonical field element in ") + what;
        return {};
      }
      v[i] = *x;
    }
    return v;
  }
  std::vector<Digest> digests(const char* what) {
    const std::uint64_t n = uint(4, what);
    std::vector<Digest> v;
    if (!ok || !need(n * 32, what)) return v;
    v.resize(n);
    for (std::size_t i = 0; i < n; ++i, pos += 32) std::memcpy(v[i].data(), b.data() + pos, 32);
    return v;
  }
};

// ---- the proof ------------------------------------------------------------------------------

struct LayerOpening {
  std::uint32_t leaf_width = 0;
  std::vector<Fr> values;  // per distinct sorted leaf: leaf_width values
  std::vector<Digest> siblings;
};

// Layout (little-endian): "JBFD" | u32 version | u32 × 6 parameters (log_inv_rate, num_queries,
// pow_bits, log_fold, final_log_max, leaf_group) | rounds: u32 count, 2·rounds field elements
// (g(0), g(2)) | roots: u32 count, 32 B each | final: u32 count, field elements | u64 nonce | u32
// layers, per layer: u32 leaf_width, u32 count + values, u32 count + siblings; before the layers
// u32 count + the query indices (u32 each). Field elements canonical.
struct Proof {
  std::uint32_t params[6] = {};
  std::vector<Fr> rounds;
  std::vector<Digest> roots;
  std::vector<Fr> final_msg;
  std::uint64_t nonce = 0;
  std::vector<std::uint32_t> queries;  // layer-0 leaf indices, in draw order
  std::vector<LayerOpening> layers;

  std::vector<std::uint8_t> encode() const {
    std::vector<std::uint8_t> out(kMagic, kMagic + 4);
    put_u32(out, kVersion);
    for (std::uint32_t p : params) put_u32(out, p);
    put_frs(out, rounds);
    put_digests(out, roots);
    put_frs(out, final_msg);
    put_u64(out, nonce);
    put_u32(out, static_cast<std::uint32_t>(queries.size()));
    for (std::uint32_t q : queries) put_u32(out, q);
    put_u32(out, static_cast<std::uint32_t>(layers.size()));
    for (const LayerOpening& l : layers) {
      put_u32(out, l.leaf_width);
      put_frs(out, l.values);
      put_digests(out, l.siblings);
    }
    return out;
  }

  static bool decode(std::span<const std::uint8_t> bytes, Proof& p, std::string& why) {
    Reader r;
    r.b = bytes;
    if (!r.need(8, "header") || std::memcmp(bytes.data(), kMagic, 4) != 0) {
      why = r.ok ? "bad magic (not a Basefold proof)" : r.why;
      return false;
    }
    r.pos = 4;
    if (r.uint(4, "version") != kVersion) {
      why = "unsupported proof version";
      return false;
    }
    for (std::uint32_t& x : p.params) x = static_cast<std::uint32_t>(r.uint(4, "parameters"));
    p.rounds = r.frs("round polynomials");
    p.roots = r.digests("oracle roots");
    p.final_msg = r.frs("final message");
    p.nonce = r.uint(8, "grinding nonce");
    const std::uint64_t nq = r.uint(4, "query count");
    if (r.ok && r.need(nq * 4, "query indices")) {
      p.queries.resize(nq);
      for (auto& q : p.queries) q = static_cast<std::uint32_t>(r.uint(4, "query index"));
    }
    const std::uint64_t nl = r.uint(4, "layer count");
    if (r.ok && nl > 64) {
      why = "layer count " + std::to_string(nl) + " exceeds 64";
      return false;
    }
    for (std::uint64_t l = 0; r.ok && l < nl; ++l) {
      LayerOpening lo;
      lo.leaf_width = static_cast<std::uint32_t>(r.uint(4, "leaf width"));
      lo.values = r.frs("leaf values");
      lo.siblings = r.digests("Merkle siblings");
      p.layers.push_back(std::move(lo));
    }
    if (r.ok && r.pos != bytes.size()) {
      why = std::to_string(bytes.size() - r.pos) + " trailing bytes";
      return false;
    }
    if (!r.ok) why = r.why;
    return r.ok;
  }
};

// ---- shared protocol pieces -----------------------------------------------------------------

std::array<std::uint32_t, 6> param_words(const Params& p) {
  return {p.log_inv_rate, p.num_queries(), p.pow_bits, p.log_fold, p.final_log_max, p.leaf_group};
}

// Layer-0 leaf digest of the 2k values (C_0[ℓ], C_0[ℓ+M/2], C_1[ℓ], …), chained per group of G.
Digest layer0_leaf(std::span<const Fr> values, unsigned G) {
  const std::size_t k = values.size() / 2;
  Digest d{};
  for (std::size_t g0 = 0; g0 < k; g0 += G) {
    const std::size_t n = std::min<std::size_t>(G, k - g0);
    d = pcs::hash_leaf_step(g0 == 0 ? nullptr : &d, values.subspan(2 * g0, 2 * n));
  }
  return d;
}

// Table i of the batch as Fr entries: its own storage, or read into `scratch`.
std::span<const Fr> table_of(const PolynomialBatch& polys, std::size_t i,
                             std::vector<Fr>& scratch) {
  const std::span<const Fr> v = polys.view(i);
  if (v.data()) return v;
  scratch.resize(polys.table_size());
  polys.read(i, 0, scratch);
  return scratch;
}

void absorb_statement(Transcript& t, const std::string& params, std::span<const std::uint8_t> root,
                      unsigned n, unsigned k, std::span<const Fr> point,
                      std::span<const Fr> evals) {
  std::vector<std::uint8_t> b(params.begin(), params.end());
  b.insert(b.end(), root.begin(), root.end());
  put_u64(b, n);
  put_u64(b, k);
  t.absorb_bytes("basefold/statement", b);
  t.absorb_frs("basefold/point", point);
  t.absorb_frs("basefold/evals", evals);
}

bool pow_ok(const std::array<std::uint8_t, 32>& state, std::uint64_t nonce, unsigned bits) {
  if (bits == 0) return true;
  std::uint8_t buf[32 + 12 + 8];
  std::memcpy(buf, state.data(), 32);
  std::memcpy(buf + 32, "basefold/pow", 12);
  for (int i = 0; i < 8; ++i) buf[44 + i] = static_cast<std::uint8_t>(nonce >> (8 * i));
  const Digest h = pcs::blake2b_256(buf);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | h[static_cast<std::size_t>(i)];
  return (v & ((std::uint64_t{1} << bits) - 1)) == 0;
}

std::vector<std::uint64_t> draw_queries(Transcript& t, unsigned q, std::size_t leaves) {
  std::vector<std::uint64_t> idx;
  idx.reserve(q);
  while (idx.size() < q) {
    const auto b = t.challenge_bytes("basefold/queries");
    for (int w = 0; w < 4 && idx.size() < q; ++w) {
      std::uint64_t v = 0;
      for (int i = 7; i >= 0; --i) v = (v << 8) | b[static_cast<std::size_t>(8 * w + i)];
      idx.push_back(v & (leaves - 1));  // leaves is a power of two: uniform
    }
  }
  return idx;
}

// Query positions per layer: layer 0's leaf and oracle 1's position are both j; after coset
// layer l the position is ℓ = p mod leaves(l). Entry L+1 is the position in the final codeword.
std::vector<std::vector<std::uint64_t>> layer_positions(const Shape& s,
                                                        std::span<const std::uint64_t> queries) {
  std::vector<std::vector<std::uint64_t>> pos(s.coset_layers + 2);
  pos[0].assign(queries.begin(), queries.end());
  pos[1] = pos[0];
  for (unsigned l = 1; l <= s.coset_layers; ++l) {
    pos[l + 1] = pos[l];
    for (auto& p : pos[l + 1]) p &= s.leaves(l) - 1;
  }
  return pos;
}

// The commitment tree's position of layer-0 leaf ℓ of `leaves` (a power of two): level-2 node m
// covers the leaves m + e·leaves/4 at positions 4m + e (e < 4), so the four leaves the opening
// re-encodes per query — codeword positions ℓ and ℓ + M/2 each — lie in one class mod M/8 and
// share one Horner base (PositionEncoder). With fewer than 4 leaves, the leaf's own index.
std::uint64_t layer0_position(std::uint64_t leaf, std::size_t leaves) {
  if (leaves < 4) return leaf;
  const std::uint64_t q = leaves / 4;
  return 4 * (leaf & (q - 1)) + leaf / q;
}

// The layer-0 leaf at a tree position (layer0_position's inverse).
std::uint64_t layer0_leaf_at(std::uint64_t position, std::size_t leaves) {
  if (leaves < 4) return position;
  return (position & 3) * (leaves / 4) + (position >> 2);
}

std::vector<std::uint64_t> sorted_unique(std::vector<std::uint64_t> v, std::size_t leaves) {
  for (auto& x : v) x &= leaves - 1;
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

Fr eq1(const Fr& a, const Fr& b) {
  return a * b + (Fr::one() - a) * (Fr::one() - b);
}

// g(α) from g(0), g(1), g(2).
Fr interpolate2(const Fr& g0, const Fr& g1, const Fr& g2, const Fr& a) {
  static const Fr inv2 = Fr::from_u64(2).inverse();
  const Fr a1 = a - Fr::one(), a2 = a - Fr::from_u64(2);
  return (g0 * a1 * a2 + g2 * a * a1) * inv2 - g1 * a * a2;
}

// One fold step on a pair (C(x), C(−x)) given x^{-1}.
Fr fold_pair(const Fr& c0, const Fr& c1, const Fr& xinv, const Fr& alpha) {
  static const Fr inv2 = Fr::from_u64(2).inverse();
  const Fr s = c0 + c1, d = (c0 - c1) * xinv;
  return (s + alpha * (d - s)) * inv2;
}

// Siblings the verifier cannot compute, level by level from the leaves, increasing node order,
// for a tree of `depth` levels above its leaves; sibling(h, a) is the digest of node a's sibling
// at height h (a is the node's index in its level).
template <class Sibling>
std::vector<Digest> multiproof(std::size_t depth, std::vector<std::uint64_t> known,
                               const Sibling& sibling) {
  std::vector<Digest> out;
  for (std::size_t h = 0; h < depth; ++h) {
    std::vector<std::uint64_t> next;
    for (std::size_t i = 0; i < known.size();) {
      const std::uint64_t a = known[i];
      if ((a & 1) == 0 && i + 1 < known.size() && known[i + 1] == a + 1) {
        i += 2;
      } else {
        out.push_back(sibling(h, a));
        i += 1;
      }
      if (next.empty() || next.back() != (a >> 1)) next.push_back(a >> 1);
    }
    known = std::move(next);
  }
  return out;
}

std::vector<Digest> multiproof(const pcs::MerkleTree& tree, std::vector<std::uint64_t> known) {
  return multiproof(tree.depth(), std::move(known), [&](std::size_t h, std::uint64_t a) {
    return tree.path(static_cast<std::size_t>(a << h))[h];
  });
}

// Rebuilds the root from sorted distinct (index, digest) leaves; nullopt if siblings run out.
std::optional<Digest> rebuild_root(std::vector<std::pair<std::uint64_t, Digest>> nodes,
                                   std::size_t depth, std::span<const Digest> sibs,
                                   std::size_t& used) {
  for (std::size_t h = 0; h < depth; ++h) {
    std::vector<std::pair<std::uint64_t, Digest>> next;
    for (std::size_t i = 0; i < nodes.size();) {
      const std::uint64_t a = nodes[i].first;
      Digest parent;
      if ((a & 1) == 0 && i + 1 < nodes.size() && nodes[i + 1].first == a + 1) {
        parent = pcs::hash_node(nodes[i].second, nodes[i + 1].second);
        i += 2;
      } else {
        if (used >= sibs.size()) return std::nullopt;
        const Digest& s = sibs[used++];
        parent = (a & 1) ? pcs::hash_node(s, nodes[i].second) : pcs::hash_node(nodes[i].second, s);
        i += 1;
      }
      next.emplace_back(a >> 1, parent);
    }
    nodes = std::move(next);
  }
  if (nodes.size() != 1) return std::nullopt;
  return nodes[0].second;
}

// The low `bits` bits of x reversed (bits ≤ 64): swap adjacent bits, pairs, nibbles, then bytes.
std::uint64_t bit_reverse(std::uint64_t x, unsigned bits) {
  if (bits == 0) return 0;
  x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
  return __builtin_bswap64(x) >> (64 - bits);
}

// A coset oracle of the open phase: the table it encodes and its tree (transient, prover only;
// the codeword's opened values are re-encoded from the table when the queries are answered).
struct Oracle {
  std::vector<Fr> message;
  pcs::MerkleTree tree;
};

// The encoder's two serial pieces, shared by rs_encode (whole codewords, block by block) and
// rs_encode_at (one block at a time for chosen positions).
//
// Input of an NTT of size n·rep whose message occupies its first n entries (the rest zero), in
// bit-reversed order with the first log2(rep) layers already applied — on zero padding those
// layers only copy, so each entry appears rep times: dst[i·rep + k] = value(bit_reverse(i)) for
// destination slots i in [begin, end) and k < copies (copies = rep, or 1 when BitGroupLayers
// writes the rest).
template <class Value>
void fill_bit_reversed(Fr* dst, std::size_t begin, std::size_t end, unsigned log_n, std::size_t rep,
                       std::size_t copies, const Value& value) {
  for (std::size_t i = begin; i < end; ++i)
    std::fill_n(dst + i * rep, copies, value(bit_reverse(i, log_n)));
}

// small[len/2 + j] = ω_len^j for every layer length len ≤ B (powers of two), from omega_m(e) =
// ω_M^e (e < M/2): each layer's twiddles contiguous for the block kernel.
template <class OmegaM>
std::vector<Fr> block_twiddles(std::size_t B, std::size_t M, const OmegaM& omega_m) {
  std::vector<Fr> small(std::max<std::size_t>(B, 2));
  for (std::size_t len = 2; len <= B; len <<= 1)
    for (std::size_t j = 0; j < len / 2; ++j) small[len / 2 + j] = omega_m(j * (M / len));
  return small;
}

// The lane form of block_twiddles when the AVX-512 IFMA layers run (ntt_lanes.hpp), else empty.
std::vector<std::uint64_t> block_lane_twiddles(const std::vector<Fr>& small, std::size_t B) {
  if (!lanes::enabled() || B < 16) return {};
  return lanes::lane_twiddles(small.data(), B);
}

// How a run of scalar layers treats its values: every layer but the last keeps them in Fr's
// redundant form (below 4r, no reduction after the additions, subtractions and products), and
// the last layer brings them below r (Fr::butterfly_redundant / butterfly_reducing).
enum class Layer { kRedundant, kReducing };

// The scalar butterflies of one run: (lo[k], hi[k]) ← (lo[k] + t, lo[k] − t) with
// t = hi[k]·w[k·stride] (w times scale when given), for k < n; the inputs below r or in the
// redundant form, the results below 4r (kRedundant) or below r (kReducing). A function of its
// own: inlined into the layer loops, GCC spilled the multiply's registers and both results to
// the stack (perf annotate).
template <Layer kLayer>
[[gnu::noinline]] void butterfly_run(Fr* lo, Fr* hi, const Fr* w, std::size_t stride, std::size_t n,
                                     const std::optional<Fr>& scale = {}) {
  for (std::size_t k = 0; k < n; ++k) {
    const Fr wk = scale ? *scale * w[k * stride] : w[k * stride];
    if constexpr (kLayer == Layer::kRedundant)
      Fr::butterfly_redundant(lo[k], hi[k], wk);
    else
      Fr::butterfly_reducing(lo[k], hi[k], wk);
  }
}

// One layer's butterflies with the twiddle 1 (j = 0 of each run): (lo, hi) ← (lo + hi, lo − hi).
template <Layer kLayer>
void butterfly_unit(Fr& lo, Fr& hi) {
  if constexpr (kLayer == Layer::kRedundant)
    Fr::butterfly_redundant(lo, hi);
  else
    Fr::butterfly_reducing(lo, hi);
}

// Radix-2 decimation-in-time layers len = first_len, 2·first_len, …, last_len on B entries in
// place (B a multiple of last_len: each sub-block of last_len transformed alone), with twiddles
// from block_twiddles; with small_lanes (block_lane_twiddles, non-empty) the layers of len ≥ 16
// run eight butterflies at a time. Inputs and results below r.
void butterfly_layers(Fr* blk, std::size_t B, std::size_t first_len, std::size_t last_len,
                      const Fr* small, const std::vector<std::uint64_t>& small_lanes) {
  if (small_lanes.empty()) {
    // Scalar layers throughout: redundant but for the last.
    for (std::size_t len = first_len; len <= last_len; len <<= 1) {
      const std::size_t half = len / 2;
      const Fr* w = small + half;
      const bool last = len == last_len;
      for (std::size_t base = 0; base < B; base += len) {
        Fr* lo = blk + base;
        Fr* hi = lo + half;
        if (last) {
          butterfly_unit<Layer::kReducing>(lo[0], hi[0]);
          butterfly_run<Layer::kReducing>(lo + 1, hi + 1, w + 1, 1, half - 1);
        } else {
          butterfly_unit<Layer::kRedundant>(lo[0], hi[0]);
          butterfly_run<Layer::kRedundant>(lo + 1, hi + 1, w + 1, 1, half - 1);
        }
      }
    }
    return;
  }
  const std::size_t scalar_last = std::min<std::size_t>(last_len, 8);
  for (std::size_t len = first_len; len <= scalar_last; len <<= 1) {
    const std::size_t half = len / 2;
    const Fr* w = small + half;
    if (half > 1) {
      // The lane layers need 8 butterflies of one twiddle in a row; these short layers take
      // their products over arrays instead: twiddle j's hi entries of up to kChunk groups at a
      // time, one multiply_arrays each.
      constexpr std::size_t kChunk = 64;
      std::array<Fr, kChunk> hi, wj, t;
      for (std::size_t g0 = 0; g0 < B / len; g0 += kChunk) {
        const std::size_t n = std::min(kChunk, B / len - g0);
        for (std::size_t j = 0; j < half; ++j) {
          Fr* lo = blk + g0 * len + j;
          if (j == 0) {
            for (std::size_t g = 0; g < n; ++g) t[g] = lo[g * len + half];
          } else {
            for (std::size_t g = 0; g < n; ++g) hi[g] = lo[g * len + half];
            std::fill_n(wj.begin(), n, w[j]);
            multiply_arrays(hi.data(), wj.data(), t.data(), n);
          }
          for (std::size_t g = 0; g < n; ++g) {
            lo[g * len + half] = lo[g * len] - t[g];
            lo[g * len] += t[g];
          }
        }
      }
      continue;
    }
    for (std::size_t base = 0; base < B; base += len) {  // len = 2: twiddle 1 only
      const Fr t = blk[base + 1];
      blk[base + 1] = blk[base] - t;
      blk[base] += t;
    }
  }
  if (const std::size_t lane_first = std::max<std::size_t>(first_len, 16);
      scalar_last < last_len && lane_first <= last_len)
    lanes::block_layers(blk, B, lane_first, last_len, small_lanes.data());
}

// The three layers after the copies (len 2·rep, 4·rep, 8·rep) act on each group of 8 consecutive
// slots — 8·rep entries holding 8 message values — alone, and the same way in every group. When
// a group's 8 values are all 0 or 1 (flags and the instruction, bytecode and address bits: most
// committed columns) its output after those layers is one of 256 rows, built once and copied
// instead of computed: 3 of the encoder's 20-odd multiplying layers on those groups.
class BitGroupLayers {
 public:
  static constexpr std::size_t kSlots = 8;

  // Whether rep copies fit: a block of B entries holds whole groups and the rows stay small
  // (256 · 8·rep entries: 256 KiB at rate 1/4).
  static bool usable(std::size_t rep, std::size_t B) { return rep <= 4 && B >= kSlots * rep; }

  // small / small_lanes: block_twiddles / block_lane_twiddles of a block B with usable(rep, B).
  BitGroupLayers(std::size_t rep, const Fr* small, const std::vector<std::uint64_t>& small_lanes)
      : rep_(rep), width_(kSlots * rep), rows_(256 * width_) {
    for (unsigned p = 0; p < 256; ++p)
      for (std::size_t m = 0; m < kSlots; ++m)
        std::fill_n(rows_.data() + p * width_ + m * rep_, rep_,
                    (p >> m) & 1 ? Fr::one() : Fr::zero());
    butterfly_layers(rows_.data(), rows_.size(), 2 * rep_, width_, small, small_lanes);
  }

  // The first layer the caller still runs after apply() returned true.
  std::size_t next_len() const { return 2 * width_; }

  // blk holds n_slots (a multiple of 8) slots with only their first copy written (blk[s·rep]).
  // Writes every copy; when some group is all 0/1 values, also applies the three layers to every
  // group (rows for those, butterflies for the runs of the others) and returns true; otherwise
  // returns false with no layer applied (the caller runs them with the rest of the block).
  bool apply(Fr* blk, std::size_t n_slots, const Fr* small,
             const std::vector<std::uint64_t>& small_lanes) const {
    const Fr one = Fr::one();
    bool any_bits = false;
    // Runs [first, end) of groups holding other values.
    std::vector<std::pair<std::size_t, std::size_t>> runs;
    for (std::size_t g = 0; g < n_slots / kSlots; ++g) {
      Fr* grp = blk + g * width_;
      std::array<Fr, kSlots> v;
      unsigned pattern = 0;
      bool bits = true;
      for (std::size_t m = 0; m < kSlots; ++m) {
        v[m] = grp[m * rep_];
        if (v[m] == one)
          pattern |= 1u << m;
        else if (!v[m].is_zero())
          bits = false;
      }
      if (bits) {
        any_bits = true;
        std::copy_n(rows_.data() + pattern * width_, width_, grp);
        continue;
      }
      for (std::size_t m = 0; m < kSlots; ++m) std::fill_n(grp + m * rep_, rep_, v[m]);
      if (!runs.empty() && runs.back().second == g)
        runs.back().second = g + 1;
      else
        runs.emplace_back(g, g + 1);
    }
    if (!any_bits) return false;
    for (const auto& [first, end] : runs)
      butterfly_layers(blk + first * width_, (end - first) * width_, 2 * rep_, width_, small,
                       small_lanes);
    return true;
  }

 private:
  std::size_t rep_, width_;
  std::vector<Fr> rows_;  // rows_[p·width + e]: entry e of the group whose slot m holds bit m of p
};

}  // namespace

// ---- Reed–Solomon encoding ------------------------------------------------------------------

Twiddles::Twiddles(unsigned log_size) : log_size_(log_size) {
  const std::size_t n = std::size_t{1} << log_size;
  // ω^(2i) = ω_{N/2}^i for i < N/4.
  even_.resize(std::max<std::size_t>(n / 4, 1));
  even_[0] = Fr::one();
  if (n >= 8) {
    const Fr w2 = Fr::root_of_unity(log_size - 1);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n / 4, 4096),
                      [&](const tbb::blocked_range<std::size_t>& rg) {
                        Fr x = w2.pow(rg.begin());
                        for (std::size_t i = rg.begin(); i < rg.end(); ++i, x *= w2) even_[i] = x;
                      });
  }
  low_.resize(std::max<std::size_t>(std::min(n / 2, kLow), 1));
  low_[0] = Fr::one();
  if (low_.size() > 1) {
    const Fr w = Fr::root_of_unity(log_size);
    for (std::size_t j = 1; j < low_.size(); ++j) low_[j] = low_[j - 1] * w;
  }
}

Fr Twiddles::at(std::uint64_t e) const {
  if ((e & 1) == 0) return even_[e >> 1];
  const std::size_t L = low_.size();  // a power of two ≥ 2 when e is odd and < N/2
  if (e < L) return low_[e];
  return even_[(e & ~std::uint64_t{L - 1}) >> 1] * low_[e & (L - 1)];
}

Twiddles twiddles(unsigned log_size) {
  return Twiddles(log_size);
}

bool CosetTwiddles::tables_for(unsigned log_n, unsigned log_inv_rate, bool compact) {
  return !compact && !lanes::enabled() && log_n + log_inv_rate <= kMaxTablesLog;
}

CosetTwiddles::CosetTwiddles(unsigned log_n, unsigned log_inv_rate, bool compact)
    : log_n_(log_n),
      log_inv_rate_(log_inv_rate),
      R_(std::size_t{1} << log_inv_rate),
      half_(std::max<std::size_t>((std::size_t{1} << log_n) / 2, 1)) {
  if (log_n + log_inv_rate > Fr::two_adicity())
    throw std::invalid_argument("basefold::CosetTwiddles: 2^" + std::to_string(log_n) +
                                " entries at rate 2^-" + std::to_string(log_inv_rate) +
                                " exceed the NTT domains of Fr");
  if (!tables_for(log_n, log_inv_rate, compact)) {
    domain_ = Twiddles(log_n);
    return;
  }
  tables_ = pcs::FrArray(R_ * half_);
  const Fr w = Fr::root_of_unity(log_n + log_inv_rate), wR = w.pow(R_);
  for (std::size_t s = 0; s < R_; ++s) {
    Fr* t = tables_.data() + s * half_;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, half_, 4096),
                      [&](const tbb::blocked_range<std::size_t>& rg) {
                        Fr x = w.pow(s) * wR.pow(rg.begin());
                        for (std::size_t i = rg.begin(); i < rg.end(); ++i, x *= wR) t[i] = x;
                      });
  }
}

namespace {

// Layers with blocks of up to kBlock elements run block by block (cache-resident), each layer's
// twiddles contiguous; the remaining layers run twiddle-outer over the whole array.
constexpr std::size_t kBlock = std::size_t{1} << 13;
// The strip layers' last-layer twiddle is even[r·B/2]·low[j] for a column j < B.
static_assert(kBlock <= Twiddles::kLow);

// Whether rs_transform takes its input with one copy per slot (BitGroupLayers writes the rest).
bool one_copy_input(std::size_t rep, std::size_t M) {
  return BitGroupLayers::usable(rep, std::min(M, kBlock));
}

// The NTT layers of rs_encode on `out`, already filled by fill_bit_reversed (rep copies, or one
// when one_copy_input(rep, out.size())). With done_len > 0 (rep = 1), the layers up to length
// done_len are already applied (a multiple of 2 dividing min(|out|, kBlock)) and the rest run.
void rs_transform(std::span<Fr> out, std::size_t rep, const Twiddles& tw, std::size_t tw_stride,
                  std::size_t done_len = 0) {
  const bool one_copy = done_len == 0 && one_copy_input(rep, out.size());
  const std::size_t M = out.size();
  if (tw.empty() || !std::has_single_bit(tw_stride) ||
      (std::size_t{1} << tw.log_size()) != M * tw_stride)
    throw std::invalid_argument("basefold::rs_encode: twiddles of 2^" +
                                std::to_string(tw.log_size()) + " for a codeword of " +
                                std::to_string(M) + " at stride " + std::to_string(tw_stride));
  const std::size_t B = std::min(M, kBlock);
  const std::vector<Fr> small =
      block_twiddles(B, M, [&](std::uint64_t e) { return tw.at(e * tw_stride); });
  const std::vector<std::uint64_t> small_lanes = block_lane_twiddles(small, B);
  std::optional<BitGroupLayers> bits;
  if (one_copy) bits.emplace(rep, small.data(), small_lanes);
  Fr* v = out.data();
  tbb::parallel_for(std::size_t{0}, M / B, [&](std::size_t b) {
    std::size_t first_len = done_len > 0 ? 2 * done_len : rep * 2;
    if (bits && bits->apply(v + b * B, B / rep, small.data(), small_lanes))
      first_len = bits->next_len();
    butterfly_layers(v + b * B, B, first_len, B, small.data(), small_lanes);
  });
  // Layers longer than B: the elements {c·B + j : c < M/B} for one j are the sub-transform those
  // layers apply, so a strip of W consecutive j runs all of them while its (M/B)·W elements stay
  // in cache (one pass over the array instead of one per layer).
  if (M > B) {
    const std::size_t rows = M / B;
    // The lane layers take whole groups of 8 columns.
    const bool use_lanes = lanes::enabled();
    const std::size_t W = std::clamp<std::size_t>(4096 / rows, use_lanes ? 8 : 2, 64);
    tbb::parallel_for(std::size_t{0}, B / W, [&](std::size_t strip) {
      const std::size_t j0 = strip * W;
      if (use_lanes) {
        lanes::strip_layers(v, M, B, j0, W, tw.even(), tw.low(), tw_stride);
        return;
      }
      // Redundant values between the layers, below r after the last (len = M).
      auto layer = [&]<Layer kLayer>(std::size_t len) {
        // Twiddle of row c, column j: ω^((c·B + j)·step) of the table's domain.
        const std::size_t half = len / 2, hrows = half / B, step = (M / len) * tw_stride;
        for (std::size_t c0 = 0; c0 < rows; c0 += 2 * hrows)
          for (std::size_t c = 0; c < hrows; ++c) {
            Fr* lo = v + (c0 + c) * B + j0;
            Fr* hi = lo + half;
            if (step == 1) {
              butterfly_run<kLayer>(lo, hi, tw.low() + j0, 1, W, tw.even()[c * B / 2]);
              continue;
            }
            butterfly_run<kLayer>(lo, hi, tw.even() + (c * B + j0) * (step / 2), step / 2, W);
          }
      };
      for (std::size_t len = 2 * B; len < M; len <<= 1)
        layer.template operator()<Layer::kRedundant>(len);
      layer.template operator()<Layer::kReducing>(M);
    });
  }
}

}  // namespace

void rs_encode(std::span<const Fr> msg, unsigned log_inv_rate, std::span<Fr> out,
               const Twiddles& tw, std::size_t tw_stride) {
  if (msg.empty() || !std::has_single_bit(msg.size()) || out.size() != msg.size() << log_inv_rate)
    throw std::invalid_argument("basefold::rs_encode: message of " + std::to_string(msg.size()) +
                                ", codeword of " + std::to_string(out.size()));
  const unsigned L = static_cast<unsigned>(std::countr_zero(msg.size()));
  const std::size_t rep = std::size_t{1} << log_inv_rate;
  const std::size_t copies = one_copy_input(rep, out.size()) ? 1 : rep;
  // Bit-reversed zero-padded input with the first log_inv_rate layers applied (copies).
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, msg.size(), 4096),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      fill_bit_reversed(out.data(), rg.begin(), rg.end(), L, rep, copies,
                                        [&](std::size_t t) { return msg[t]; });
                    });
  rs_transform(out, rep, tw, tw_stride);
}

CosetEncoder::CosetEncoder(unsigned log_n, unsigned log_inv_rate, std::size_t r,
                           const CosetTwiddles& tw)
    : log_n_(log_n), r_(r), tw_(&tw) {
  if (log_n + log_inv_rate > Fr::two_adicity() || r >= (std::size_t{1} << log_inv_rate) ||
      tw.log_n() != log_n || tw.log_inv_rate() != log_inv_rate)
    throw std::invalid_argument(
        "basefold::CosetEncoder: coset " + std::to_string(r) + " of a 2^" + std::to_string(log_n) +
        " table at rate 2^-" + std::to_string(log_inv_rate) + " with the twiddles of 2^" +
        std::to_string(tw.log_n()) + " entries at rate 2^-" + std::to_string(tw.log_inv_rate()));
  c_ = r == 0 ? Fr::one() : Fr::root_of_unity(log_n + log_inv_rate).pow(r);
  if (log_n < 3) return;
  // Slot m of a group holds entry t0 + bit_reverse3(m)·N/8, whose factor is c^t0 times
  // d^bit_reverse3(m) with d = c^(N/8): the rows take the second factor, the group the first.
  const Fr d = c_.pow(std::uint64_t{1} << (log_n - 3));
  for (std::size_t m = 0; m < kSlots; ++m) slot_factor_[m] = d.pow(bit_reverse(m, 3));
  // The block twiddles, so butterfly_layers takes its products over arrays.
  const std::size_t N = std::size_t{1} << log_n, B = std::min<std::size_t>(N, kBlock);
  if (tw.per_coset()) {
    small_.assign(B, Fr::one());
    for (std::size_t len = 2; len <= B; len <<= 1)
      for (std::size_t J = 0; J < len / 2; ++J)
        small_[len / 2 + J] = tw.at(len <= kSlots ? 0 : r, N / len, J);
  } else {
    small_ = block_twiddles(B, N, [&](std::uint64_t e) { return tw.domain().at(e); });
  }
  small_lanes_ = block_lane_twiddles(small_, B);
  factors_.resize(64 * kSlots);
  for (std::size_t u = 0; u < factors_.size(); ++u) factors_[u] = slot_factor_[u % kSlots];
  rows_.resize(256 * kSlots);
  for (unsigned p = 0; p < 256; ++p)
    for (std::size_t m = 0; m < kSlots; ++m)
      rows_[p * kSlots + m] = (p >> m) & 1 ? slot_factor_[m] : Fr::zero();
  butterfly_layers(rows_.data(), rows_.size(), 2, kSlots, small_.data(), small_lanes_);
  block_bits_ = std::min(9u, log_n - 3);
  const std::size_t nb = std::size_t{1} << block_bits_;
  const Fr step = c_.pow(std::uint64_t{1} << (log_n - 3 - block_bits_));
  for (std::size_t v = 0; v < nb; ++v) {
    block_rev_.push_back(static_cast<std::uint32_t>(bit_reverse(v, block_bits_)));
    block_pow_.push_back(step.pow(block_rev_.back()));
  }
}

std::vector<std::uint8_t> CosetEncoder::bit_patterns(const PolynomialBatch& polys, std::size_t i) {
  const std::size_t N = polys.table_size();
  if (N < kSlots) return {};
  const std::size_t G = N / kSlots;
  std::vector<std::uint8_t> patterns(G);
  std::atomic<bool> bits{true};
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, G, 4096), [&](const tbb::blocked_range<std::size_t>& rg) {
        std::vector<std::uint8_t> slot(rg.size());
        std::uint8_t* p = patterns.data() + rg.begin();
        for (unsigned m = 0; m < kSlots && bits.load(std::memory_order_relaxed); ++m) {
          if (!polys.read_bits(i, rg.begin() + bit_reverse(m, 3) * G, slot)) {
            bits.store(false, std::memory_order_relaxed);
            return;
          }
          for (std::size_t u = 0; u < slot.size(); ++u)
            p[u] |= static_cast<std::uint8_t>(slot[u] << m);
        }
      });
  if (!bits.load()) return {};
  return patterns;
}

void CosetEncoder::encode_patterns(std::span<const std::uint8_t> patterns,
                                   std::span<Fr> out) const {
  const unsigned L = log_n_;
  const std::size_t G = std::size_t{1} << (L - 3), nb = std::size_t{1} << block_bits_;
  const std::size_t stride = G >> block_bits_;
  // The block of output groups g0 .. g0 + nb − 1 reads the patterns t0 + block_rev_[v]·stride
  // (t0 = bit_reverse(g0) < stride). The blocks are taken in order of t0, so a worker's
  // consecutive blocks read neighbouring patterns (a cache line of them serves 64 blocks) while
  // each writes its own stretch of out.
  const bool scale = r_ != 0 && !tw_->per_coset();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, stride, 64), [&](const auto& rg) {
    std::vector<Fr> x(scale ? nb : 0), x8(scale ? kSlots * nb : 0);
    for (std::size_t t0 = rg.begin(); t0 < rg.end(); ++t0) {
      Fr* dst = out.data() + kSlots * bit_reverse(t0, L - 3);
      for (std::size_t v = 0; v < nb; ++v)
        std::copy_n(rows_.data() + kSlots * patterns[t0 + block_rev_[v] * stride], kSlots,
                    dst + kSlots * v);
      if (!scale) continue;
      // Each group times its c^t0' = c^t0·block_pow_[v], products over arrays.
      std::fill(x.begin(), x.end(), c_.pow(t0));
      multiply_arrays(x.data(), block_pow_.data(), x.data(), nb);
      for (std::size_t v = 0; v < nb; ++v) std::fill_n(x8.data() + kSlots * v, kSlots, x[v]);
      multiply_arrays(dst, x8.data(), dst, kSlots * nb);
    }
  });
}

void CosetEncoder::encode(const PolynomialBatch& polys, std::size_t i, std::span<Fr> out) const {
  const std::vector<std::uint8_t> patterns =
      log_n_ < 3 ? std::vector<std::uint8_t>{} : bit_patterns(polys, i);
  encode(polys, i, patterns, out);
}

void CosetEncoder::encode(const PolynomialBatch& polys, std::size_t i,
                          std::span<const std::uint8_t> patterns, std::span<Fr> out) const {
  const std::size_t N = std::size_t{1} << log_n_;
  if (polys.table_size() != N || out.size() != N)
    throw std::invalid_argument("basefold::CosetEncoder::encode: a table of " +
                                std::to_string(polys.table_size()) + " into " +
                                std::to_string(out.size()) + " entries (2^" +
                                std::to_string(log_n_) + " expected)");
  const unsigned L = log_n_;
  if (L < 3) {
    // out[j] = Σ_t table[t]·(c·ω_N^j)^t, directly.
    std::vector<Fr> block(N);
    polys.read(i, 0, block);
    const Fr omega = Fr::root_of_unity(L);
    Fr x = c_;
    for (std::size_t j = 0; j < N; ++j, x *= omega) {
      Fr sum = Fr::zero(), xt = Fr::one();
      for (std::size_t t = 0; t < N; ++t, xt *= x) sum += block[t] * xt;
      out[j] = sum;
    }
    return;
  }
  // Group t0 < N/8 — entries t0 + s·N/8 (s < 8), at slots 8·bit_reverse(t0) + bit_reverse3(s)
  // of the bit-reversed input — after the transform's first three layers: c^t0 times a row when
  // its entries are all 0 or 1 (most committed columns), else computed.
  const std::size_t G = N / kSlots;
  if (!patterns.empty()) {
    if (patterns.size() != G)
      throw std::invalid_argument(
          "basefold::CosetEncoder::encode: " + std::to_string(patterns.size()) +
          " bit patterns for " + std::to_string(G) + " groups");
    encode_patterns(patterns, out);
    transform(out);
    return;
  }
  const Fr one = Fr::one();
  auto groups = [&](const tbb::blocked_range<std::size_t>& rg) {
    const std::size_t a = rg.begin(), n = rg.size();
    std::vector<Fr> vals(kSlots * n);  // vals[s·n + u] = entry a + u + s·G
    for (std::size_t s = 0; s < kSlots; ++s)
      polys.read(i, a + s * G, std::span<Fr>(vals.data() + s * n, n));
    std::vector<Fr> loc(kSlots * n);                        // group a + u at loc[8u …]
    std::vector<std::pair<std::size_t, std::size_t>> runs;  // [u0, u1) of the other groups
    for (std::size_t u = 0; u < n; ++u) {
      Fr* grp = loc.data() + kSlots * u;
      unsigned pattern = 0;
      bool bits = true;
      for (std::size_t m = 0; m < kSlots; ++m) {
        grp[m] = vals[bit_reverse(m, 3) * n + u];
        if (grp[m] == one)
          pattern |= 1u << m;
        else if (!grp[m].is_zero())
          bits = false;
      }
      if (bits)
        std::copy_n(rows_.data() + pattern * kSlots, kSlots, grp);
      else if (!runs.empty() && runs.back().second == u)
        runs.back().second = u + 1;
      else
        runs.emplace_back(u, u + 1);
    }
    // The other groups: slot factors and the three layers, products over arrays.
    for (const auto& [u0, u1] : runs) {
      Fr* run = loc.data() + kSlots * u0;
      const std::size_t len = kSlots * (u1 - u0);
      if (r_ != 0)
        for (std::size_t o = 0; o < len; o += factors_.size())
          multiply_arrays(run + o, factors_.data(), run + o, std::min(factors_.size(), len - o));
      butterfly_layers(run, len, 2, kSlots, small_.data(), small_lanes_);
    }
    if (r_ != 0 && !tw_->per_coset()) {
      // Every group times its c^t0, over the whole range at once.
      Fr x = c_.pow(a);
      for (std::size_t u = 0; u < n; ++u, x *= c_) std::fill_n(vals.data() + kSlots * u, kSlots, x);
      multiply_arrays(loc.data(), vals.data(), loc.data(), kSlots * n);
    }
    for (std::size_t u = 0; u < n; ++u)
      std::copy_n(loc.data() + kSlots * u, kSlots, out.data() + kSlots * bit_reverse(a + u, L - 3));
  };
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, G, 512), groups);
  transform(out);
}

void CosetEncoder::transform(std::span<Fr> out) const {
  if (!tw_->per_coset()) {
    rs_transform(out, 1, tw_->domain(), 1, kSlots);
    return;
  }
  // The layers of a transform with the coset's twiddles (no unit twiddle at J = 0): scalar,
  // redundant between the layers of a block (or a strip), below r after its last.
  const std::size_t N = out.size(), B = std::min(N, kBlock);
  Fr* v = out.data();
  tbb::parallel_for(std::size_t{0}, N / B, [&](std::size_t b) {
    Fr* blk = v + b * B;
    for (std::size_t len = 2 * kSlots; len <= B; len <<= 1) {
      const std::size_t half = len / 2;
      const Fr* w = small_.data() + half;
      for (std::size_t base = 0; base < B; base += len) {
        if (len == B)
          butterfly_run<Layer::kReducing>(blk + base, blk + base + half, w, 1, half);
        else
          butterfly_run<Layer::kRedundant>(blk + base, blk + base + half, w, 1, half);
      }
    }
  });
  if (N == B) return;
  // The layers longer than B a strip of W columns at a time (as rs_transform): twiddle J = c·B + j
  // of the layer at row c < len/(2B) and column j.
  const std::size_t rows = N / B, W = std::clamp<std::size_t>(4096 / rows, 2, 64);
  tbb::parallel_for(std::size_t{0}, B / W, [&](std::size_t strip) {
    const std::size_t j0 = strip * W;
    auto layer = [&]<Layer kLayer>(std::size_t len) {
      const std::size_t half = len / 2, hrows = half / B, step = N / len;
      for (std::size_t c0 = 0; c0 < rows; c0 += 2 * hrows)
        for (std::size_t c = 0; c < hrows; ++c) {
          Fr* lo = v + (c0 + c) * B + j0;
          butterfly_run<kLayer>(lo, lo + half, tw_->run(r_, step, c * B + j0), step, W);
        }
    };
    for (std::size_t len = 2 * B; len < N; len <<= 1)
      layer.template operator()<Layer::kRedundant>(len);
    layer.template operator()<Layer::kReducing>(N);
  });
}

// C[p] = Σ_b ω_M^(p·b)·A_b[p mod S] = Σ_{c<K} ω_M^(p·c)·H_c with H_c = Σ_{b ≡ c mod K}
// ω_M^(q·(b − c))·A_b[q mod S], q = p mod M/K, summed by Horner in steps of ω_M^(K·q) over the
// blocks of class c (K classes, a power of two; S divides M/K): ω_M^(p·(b − c)) = ω_M^(q·(b − c))
// because K divides b − c. So the positions q + k·M/K, k < K, share their K Horner sums — the
// steps run once per base q instead of once per position — and differ only in the K factors
// ω_M^(p·c) that combine them. A layer-0 leaf opens the pair p, p + M/2 (K = 2); the four leaves
// under a level-2 node of the commitment tree lie M/8 apart (Basefold::commit), so their eight
// positions share one base (K = 8). The constructor plans K and S from an estimate of the work
// (K = 1 with one block, S = M: every position its own base).
constexpr std::size_t kMaxHornerClasses = 16;

struct PositionEncoder::Plan {
  std::size_t N = 0, rep = 0, S = 0, blocks = 0, sub = 0, classes = 1;
  unsigned ls = 0, log_inv_rate = 0;
  std::vector<std::uint64_t> positions;
  std::vector<Fr> step;                // ω_M^position, one per position
  std::vector<std::uint64_t> base;     // the distinct p mod M/K
  std::vector<Fr> base_step;           // ω_M^(K·base)
  std::vector<std::uint32_t> base_of;  // per position: the index of its base
  std::vector<Fr> small;
  std::vector<std::uint64_t> small_lanes;
  std::optional<BitGroupLayers> bits;
};

PositionEncoder::PositionEncoder(unsigned log_n, unsigned log_inv_rate,
                                 std::span<const std::uint64_t> positions, const Twiddles& tw,
                                 std::size_t block_size) {
  if (log_n + log_inv_rate > Fr::two_adicity())
    throw std::invalid_argument("basefold::rs_encode_at: a message of 2^" + std::to_string(log_n) +
                                " at rate 2^-" + std::to_string(log_inv_rate) +
                                " exceeds the NTT domains of Fr");
  const std::size_t N = std::size_t{1} << log_n, rep = std::size_t{1} << log_inv_rate, M = N * rep;
  if (!tw.empty() && (std::size_t{1} << tw.log_size()) != M)
    throw std::invalid_argument("basefold::rs_encode_at: message of " + std::to_string(N) +
                                ", twiddles of 2^" + std::to_string(tw.log_size()));
  for (std::uint64_t p : positions)
    if (p >= M)
      throw std::invalid_argument("basefold::rs_encode_at: position " + std::to_string(p) +
                                  " outside a codeword of " + std::to_string(M));
  auto plan = std::make_unique<Plan>();
  Plan& P = *plan;
  // ω_M^e for any e (tw gives ω^i for i < M/2; ω^(i + M/2) = −ω^i; without tw, a power).
  const unsigned log_m = log_n + log_inv_rate;
  const Fr omega_m = tw.empty() ? Fr::root_of_unity(log_m) : Fr::one();
  auto omega = [&](std::uint64_t e) {
    e &= M - 1;
    if (tw.empty()) return omega_m.pow(e);
    return e < M / 2 ? tw.at(e) : -tw.at(e - M / 2);
  };
  // The distinct positions mod `mod` (a power of two), sorted.
  auto distinct = [&](std::uint64_t mod) {
    std::vector<std::uint64_t> v(positions.begin(), positions.end());
    for (std::uint64_t& q : v) q &= mod - 1;
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  };
  // For each K ≤ kMaxHornerClasses and block size S (2·rep ≤ S ≤ M/K) the estimated work, in
  // butterflies: (log S − R)·M/2 of the block transforms, |bases mod M/K|·M/S Horner steps of
  // kHornerStep each, M/S blocks of kPerBlock each (the gather, the 0/1 rows and the calls a
  // block makes) and K·|positions| final products; the plan keeps the cheapest. (The constants
  // fit ntt_bench's "open" sweep over S, whose fastest S they pick.) A K larger than the one
  // before is tried only if it cuts the bases to 3/4 or fewer (more classes that share little
  // only add sums). A codeword shorter than two blocks of 2·rep entries is one block (K = 1,
  // S = M).
  if (block_size != 0 && (!std::has_single_bit(block_size) || block_size < 2 * rep))
    throw std::invalid_argument("basefold::PositionEncoder: block size " +
                                std::to_string(block_size) + " is not a power of two ≥ " +
                                std::to_string(2 * rep));
  constexpr double kHornerStep = 1.3, kPerBlock = 200;
  double best = 0;
  std::size_t fewest = 0;  // the bases of the last K tried
  for (std::size_t K = 1; K <= kMaxHornerClasses && M / K >= 2 * rep; K *= 2) {
    std::vector<std::uint64_t> base = distinct(M / K);
    if (K > 1 && 4 * base.size() > 3 * fewest) continue;
    fewest = base.size();
    for (std::size_t S = 2 * rep; S <= M / K; S *= 2) {
      if (block_size != 0 && S != block_size) continue;
      const double blocks = static_cast<double>(M / S);
      const double cost = static_cast<double>(std::countr_zero(S) - log_inv_rate) * (M / 2) +
                          kHornerStep * static_cast<double>(base.size()) * blocks +
                          kPerBlock * blocks + static_cast<double>(K * positions.size());
      if (P.base.empty() || cost < best) {
        best = cost;
        P.classes = K;
        P.S = S;
        P.base = base;
      }
    }
  }
  if (P.base.empty()) {
    P.S = M;
    P.base = distinct(M);
  }
  if (block_size != 0 && P.S != block_size)
    throw std::invalid_argument("basefold::PositionEncoder: block size " +
                                std::to_string(block_size) + " does not fit a codeword of " +
                                std::to_string(M));
  P.N = N;
  P.rep = rep;
  P.blocks = M / P.S;
  const std::uint64_t base_mod = M / P.classes;
  P.base_of.resize(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i)
    P.base_of[i] = static_cast<std::uint32_t>(
        std::lower_bound(P.base.begin(), P.base.end(), positions[i] & (base_mod - 1)) -
        P.base.begin());
  P.sub = P.S / rep;
  P.ls = static_cast<unsigned>(std::countr_zero(P.S));
  P.log_inv_rate = log_inv_rate;
  P.positions.assign(positions.begin(), positions.end());
  // The block's twiddles ω_M^(j·M/len) for len ≤ S: from tw, or from ω_S = ω_M^(M/S) (the same
  // elements, so the same codeword).
  std::vector<Fr> roots_s;
  if (tw.empty()) {
    const Fr omega_s = omega(M / P.S);
    roots_s.resize(std::max<std::size_t>(P.S / 2, 1));
    roots_s[0] = Fr::one();
    for (std::size_t i = 1; i < P.S / 2; ++i) roots_s[i] = roots_s[i - 1] * omega_s;
  }
  P.small = tw.empty() ? block_twiddles(P.S, P.S, [&](std::uint64_t e) { return roots_s[e]; })
                       : block_twiddles(P.S, M, [&](std::uint64_t e) { return tw.at(e); });
  P.small_lanes = block_lane_twiddles(P.small, P.S);
  if (BitGroupLayers::usable(rep, P.S)) P.bits.emplace(rep, P.small.data(), P.small_lanes);
  P.step.resize(positions.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, positions.size(), 64),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      for (std::size_t i = rg.begin(); i < rg.end(); ++i)
                        P.step[i] = omega(positions[i]);
                    });
  P.base_step.resize(P.base.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, P.base.size(), 64),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      for (std::size_t u = rg.begin(); u < rg.end(); ++u)
                        P.base_step[u] = omega(P.classes * P.base[u]);
                    });
  plan_ = std::move(plan);
}

PositionEncoder::~PositionEncoder() = default;
PositionEncoder::PositionEncoder(PositionEncoder&&) noexcept = default;
PositionEncoder& PositionEncoder::operator=(PositionEncoder&&) noexcept = default;

// The message and output sizes a plan accepts.
void PositionEncoder::check(std::span<const Fr> msg, std::span<Fr> out) const {
  const Plan& P = *plan_;
  if (msg.size() != P.N || out.size() != P.positions.size())
    throw std::invalid_argument("basefold::rs_encode_at: message of " + std::to_string(msg.size()) +
                                ", " + std::to_string(P.positions.size()) + " positions, " +
                                std::to_string(out.size()) + " outputs (a message of " +
                                std::to_string(P.N) + " expected)");
}

// Block b (natural) is DFT_S of g[b + t·M/S], t < S (g: msg zero-padded to M), which is nonzero
// only for t < S/rep: the rate-2^-R encoding of msg[b + t·blocks], t < sub. Then
// C[p] = Σ_b ω_M^(p·b) · A_b[p mod S], summed by Horner from the last block down, the K classes
// of blocks (b mod K) apart (Plan).
// A block's entries lie `blocks` apart in msg, so the blocks are gathered kGather adjacent ones
// at a time: each read of msg is then kGather consecutive entries (whole cache lines) instead of
// one entry per line.
std::vector<Fr> PositionEncoder::horner(std::span<const Fr> msg, std::size_t b0,
                                        std::size_t b1) const {
  constexpr std::size_t kGather = 8;
  const Plan& P = *plan_;
  const std::size_t S = P.S, blocks = P.blocks, nu = P.base.size(), sub = P.sub;
  std::vector<Fr> A(S), acc(P.classes * nu), gathered(kGather * sub);  // gathered[g·sub + t]
  std::size_t g_lo = b1;  // blocks g_lo .. b are in `gathered`
  for (std::size_t b = b1; b-- > b0;) {
    if (b < g_lo) {
      const std::size_t w = std::min(kGather, b + 1 - b0);
      g_lo = b + 1 - w;
      for (std::size_t t = 0; t < sub; ++t) {
        const Fr* row = msg.data() + g_lo + t * blocks;
        for (std::size_t g = 0; g < w; ++g) gathered[g * sub + t] = row[g];
      }
    }
    const Fr* col = gathered.data() + (b - g_lo) * sub;
    fill_bit_reversed(A.data(), 0, sub, P.ls - P.log_inv_rate, P.rep, P.bits ? 1 : P.rep,
                      [&](std::size_t t) { return col[t]; });
    std::size_t first_len = 2 * P.rep;
    if (P.bits && P.bits->apply(A.data(), P.sub, P.small.data(), P.small_lanes))
      first_len = P.bits->next_len();
    butterfly_layers(A.data(), S, first_len, S, P.small.data(), P.small_lanes);
    // The Horner steps of all bases as one array product (the IFMA lanes where the CPU has
    // them), into the sums of the block's class.
    Fr* sums = acc.data() + ((b - b0) % P.classes) * nu;
    multiply_arrays(sums, P.base_step.data(), sums, nu);
    for (std::size_t u = 0; u < nu; ++u) sums[u] += A[P.base[u] & (S - 1)];
  }
  return acc;
}

void PositionEncoder::finish(const std::vector<Fr>& sums, std::span<Fr> out) const {
  const Plan& P = *plan_;
  const std::size_t nu = P.base.size();
  for (std::size_t i = 0; i < P.positions.size(); ++i) {
    // Σ_c ω_M^(p·c)·H_c by Horner in ω_M^p.
    const std::uint32_t u = P.base_of[i];
    Fr v = sums[(P.classes - 1) * nu + u];
    for (std::size_t c = P.classes - 1; c-- > 0;) v = v * P.step[i] + sums[c * nu + u];
    out[i] = v;
  }
}

std::size_t PositionEncoder::classes() const {
  return plan_->classes;
}

std::size_t PositionEncoder::block_size() const {
  return plan_->S;
}

void PositionEncoder::encode(std::span<const Fr> msg, std::span<Fr> out) const {
  check(msg, out);
  finish(horner(msg, 0, plan_->blocks), out);
}

void PositionEncoder::encode_parallel(std::span<const Fr> msg, std::span<Fr> out) const {
  check(msg, out);
  const Plan& P = *plan_;
  // Runs of kRun blocks (a multiple of K): H_c = Σ_r ω_M^(K·q·r·kRun/K) · (run r's H_c from
  // block r·kRun), summed by Horner over the runs. The same field elements as one pass.
  constexpr std::size_t kRun = 32;
  static_assert(kRun % kMaxHornerClasses == 0);
  const std::size_t blocks = P.blocks, nu = P.base.size(), K = P.classes;
  const std::size_t runs = (blocks + kRun - 1) / kRun;
  std::vector<std::vector<Fr>> part(runs);
  tbb::parallel_for(std::size_t{0}, runs, [&](std::size_t c) {
    part[c] = horner(msg, c * kRun, std::min(blocks, (c + 1) * kRun));
  });
  std::vector<Fr> run_step(K * nu);
  for (std::size_t u = 0; u < nu; ++u) {
    const Fr s = P.base_step[u].pow(kRun / K);
    for (std::size_t c = 0; c < K; ++c) run_step[c * nu + u] = s;
  }
  std::vector<Fr> acc = std::move(part[runs - 1]);
  for (std::size_t c = runs - 1; c-- > 0;) {
    multiply_arrays(acc.data(), run_step.data(), acc.data(), K * nu);
    for (std::size_t u = 0; u < K * nu; ++u) acc[u] += part[c][u];
  }
  finish(acc, out);
}

void rs_encode_at(std::span<const Fr> msg, unsigned log_inv_rate,
                  std::span<const std::uint64_t> positions, const Twiddles& tw, std::span<Fr> out) {
  if (msg.empty() || !std::has_single_bit(msg.size()) || out.size() != positions.size())
    throw std::invalid_argument("basefold::rs_encode_at: message of " + std::to_string(msg.size()) +
                                ", " + std::to_string(positions.size()) + " positions, " +
                                std::to_string(out.size()) + " outputs, twiddles of 2^" +
                                std::to_string(tw.log_size()));
  PositionEncoder(static_cast<unsigned>(std::countr_zero(msg.size())), log_inv_rate, positions, tw)
      .encode_parallel(msg, out);
}

// ---- Params / Shape -------------------------------------------------------------------------

double Params::decoding_radius() const {
  const double rho = std::ldexp(1.0, -static_cast<int>(log_inv_rate));
  if (regime == Regime::kUniqueDecoding) return (1.0 - rho) / 2.0;
  return 1.0 - std::sqrt(rho) * (1.0 + 1.0 / (2.0 * static_cast<double>(johnson_m)));
}

std::string Params::regime_name() const {
  return regime == Regime::kUniqueDecoding ? "unique decoding"
                                           : "Johnson m=" + std::to_string(johnson_m);
}

unsigned Params::num_queries() const {
  const double bits = -std::log2(1.0 - decoding_radius());
  const double need = static_cast<double>(security_bits) - static_cast<double>(pow_bits);
  return need <= 0 ? 1u : static_cast<unsigned>(std::ceil(need / bits - 1e-9));
}

void Params::validate() const {
  auto bad = [](const std::string& what) {
    throw std::invalid_argument("basefold::Params: " + what);
  };
  if (log_inv_rate < 1 || log_inv_rate > 8)
    bad("log_inv_rate " + std::to_string(log_inv_rate) + " outside [1, 8]");
  if (log_fold < 1 || log_fold > 8) bad("log_fold " + std::to_string(log_fold) + " outside [1, 8]");
  if (final_log_max + 1 < log_fold)
    bad("final_log_max must be at least log_fold − 1 (got " + std::to_string(final_log_max) + ")");
  if (pow_bits > 32) bad("pow_bits " + std::to_string(pow_bits) + " above 32");
  if (leaf_group < 1 || leaf_group > 4096)
    bad("leaf_group " + std::to_string(leaf_group) + " outside [1, 4096]");
  if (security_bits <= pow_bits) bad("security_bits must exceed pow_bits");
  if (regime != Regime::kUniqueDecoding && regime != Regime::kJohnson) bad("unknown regime");
  if (regime == Regime::kJohnson && (johnson_m < 3 || johnson_m > 1024))
    bad("johnson_m " + std::to_string(johnson_m) + " outside [3, 1024]");
}

Shape Shape::make(unsigned num_vars, unsigned num_polys, const Params& p) {
  Shape s;
  s.num_vars = num_vars;
  s.num_polys = num_polys;
  s.log_inv_rate = p.log_inv_rate;
  s.log_fold = p.log_fold;
  s.leaf_group = p.leaf_group;
  const unsigned rem = num_vars - 1;
  s.coset_layers =
      rem > p.final_log_max ? (rem - p.final_log_max + p.log_fold - 1) / p.log_fold : 0;
  s.num_rounds = 1 + p.log_fold * s.coset_layers;
  return s;
}

unsigned Shape::log_domain(unsigned layer) const {
  if (layer == 0) return num_vars + log_inv_rate;
  return num_vars - 1 - log_fold * (layer - 1) + log_inv_rate;
}

std::size_t Shape::leaves(unsigned layer) const {
  return std::size_t{1} << (log_domain(layer) - (layer == 0 ? 1 : log_fold));
}

std::size_t Shape::leaf_width(unsigned layer) const {
  return layer == 0 ? 2 * std::size_t{num_polys} : std::size_t{1} << log_fold;
}

std::size_t CommitmentTree::heap_bytes() const {
  return tree.heap_bytes();
}

void CommitmentTree::visit_heap(jolt::HeapVisitor& v) const {
  jolt::HeapScope s(v, "BasefoldCommitment");
  v.bytes("merkle_tree", tree.heap_bytes());
}

namespace {

// Oracle `layer`'s Merkle tree over the codeword of msg (M = |msg|·2^R entries; leaf ℓ < M/2^a
// holds the values at ℓ + t·M/2^a, t < 2^a), encoded one coset at a time: all of leaf ℓ's values
// lie in coset ℓ mod 2^R (M/2^a is a multiple of 2^R, as |msg| ≥ 2^a), so the codeword is never
// held — one coset of |msg| entries instead. shift adds one to every value
// (Tamper::corrupt_layer).
pcs::MerkleTree oracle_tree(const std::vector<Fr>& msg, const Shape& s, unsigned layer,
                            bool shift) {
  const unsigned log_n = static_cast<unsigned>(std::countr_zero(msg.size()));
  const std::size_t R = std::size_t{1} << s.log_inv_rate;
  const std::size_t leaves = s.leaves(layer), width = s.leaf_width(layer);
  const std::size_t per = leaves / R;  // coset r holds leaves R·u + r: values D_r[u + t·per]
  if (leaves % R != 0 || per * width != msg.size())
    throw std::logic_error("basefold: oracle " + std::to_string(layer) + " of " +
                           std::to_string(msg.size()) + " entries does not split into cosets");
  // The compact twiddles: the oracles are at most half the committed tables, and their encoding
  // runs while the opening holds its fold tables (the stage's peak).
  const CosetTwiddles tw(log_n, s.log_inv_rate, /*compact=*/true);
  const std::vector<std::span<const Fr>> tables = {msg};
  const SpanBatch batch(tables);
  // Both written whole by the workers (their first touch): the coset by the encoder, every
  // digest by one of the R passes.
  pcs::FrArray coset(msg.size());
  const auto digests = std::make_unique_for_overwrite<Digest[]>(leaves);
  for (std::size_t r = 0; r < R; ++r) {
    CosetEncoder(log_n, s.log_inv_rate, r, tw).encode(batch, 0, coset.span());
    if (shift)
      for (Fr& x : coset.span()) x += Fr::one();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, per, 256),
                      [&](const tbb::blocked_range<std::size_t>& rg) {
                        std::vector<Fr> buf(width);
                        for (std::size_t u = rg.begin(); u < rg.end(); ++u) {
                          for (std::size_t t = 0; t < width; ++t) buf[t] = coset[u + t * per];
                          digests[R * u + r] = pcs::hash_leaf(buf);
                        }
                      });
  }
  return pcs::MerkleTree::from_leaves(std::span<const Digest>(digests.get(), leaves));
}

}  // namespace

// ---- Basefold -------------------------------------------------------------------------------

Basefold::Basefold(Params params) : params_(params) {
  params_.validate();
}

Params stacked_params() {
  Params p;
  p.log_inv_rate = 1;
  return p;
}

std::string Basefold::parameters() const {
  const Params& p = params_;
  const double stat = p.num_queries() * -std::log2(1.0 - p.decoding_radius());
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "basefold rate=1/%u queries=%u pow_bits=%u fold=2^%u final<=2^%u leaf_group=%u "
                "security=%.1f bits (%s delta=%.4f, proven bound, %.1f statistical + %u "
                "grinding)",
                1u << p.log_inv_rate, p.num_queries(), p.pow_bits, p.log_fold, p.final_log_max,
                p.leaf_group, stat + p.pow_bits, p.regime_name().c_str(), p.decoding_radius(), stat,
                p.pow_bits);
  return buf;
}

Committed Basefold::commit(const PolynomialBatch& polys) const {
  if (polys.num_polys() == 0) throw std::invalid_argument("basefold::commit: no polynomials given");
  const std::size_t len = polys.table_size();
  if (len < 2 || !std::has_single_bit(len))
    throw std::invalid_argument("basefold::commit: table length " + std::to_string(len) +
                                " is not a power of two ≥ 2");
  for (std::size_t i = 0; i < polys.num_polys(); ++i)
    if (const auto v = polys.view(i); v.data() && v.size() != len)
      throw std::invalid_argument("basefold::commit: table " + std::to_string(i) + " has " +
                                  std::to_string(v.size()) + " entries, table 0 has " +
                                  std::to_string(len));
  const unsigned n = static_cast<unsigned>(std::countr_zero(len));
  if (n + params_.log_inv_rate > Fr::two_adicity())
    throw std::invalid_argument("basefold::commit: 2^" + std::to_string(n) +
                                " entries exceed the NTT domains of Fr at this rate");
  const unsigned k = static_cast<unsigned>(polys.num_polys());
  JOLT_SPAN("basefold::commit", jolt::arg("num_vars", n), jolt::arg("num_polys", k));
  auto data = std::make_unique<CommitmentTree>();
  data->shape = Shape::make(n, k, params_);
  const std::size_t R = std::size_t{1} << params_.log_inv_rate;
  const std::size_t half = (len * R) / 2, hl = len / 2;
  if (half < 4)
    throw std::invalid_argument("basefold::commit: tables of " + std::to_string(len) +
                                " entries at rate 1/" + std::to_string(R) + " give " +
                                std::to_string(half) +
                                " Merkle leaves, fewer than the 4 under a level-2 node; commit "
                                "tables of at least " +
                                std::to_string(8 / R) + " entries");
  const std::size_t G = std::min<std::size_t>(params_.leaf_group, k);
  // Leaf l pairs C[l] and C[l + M/2] (M = R·len), both in coset l mod R: coset r's entries j and
  // j + len/2 make leaf R·j + r. The codewords are encoded a coset at a time (len entries, not M)
  // and the leaf digests kept coset-major: leaf[r·len/2 + j] is leaf R·j + r's.
  const CosetTwiddles tw(n, params_.log_inv_rate);
  std::vector<CosetEncoder> cosets;
  for (std::size_t r = 0; r < R; ++r) cosets.emplace_back(n, params_.log_inv_rate, r, tw);
  pcs::FrArray buf(G * len);  // coset r of G tables at a time
  // Every leaf digest is written by the workers (uninitialised here: their first touch).
  auto leaf = std::make_unique_for_overwrite<Digest[]>(half);
  for (std::size_t g0 = 0; g0 < k; g0 += G) {
    const std::size_t gk = std::min(G, k - g0);
    std::vector<std::vector<std::uint8_t>> patterns(gk);  // of the tables stored as bits
    for (std::size_t r = 0; r < R; ++r) {
      {
        JOLT_SPAN("basefold::encode", jolt::arg("polys", gk));
        for (std::size_t i = 0; i < gk; ++i) {
          if (r == 0 && n >= 3) patterns[i] = CosetEncoder::bit_patterns(polys, g0 + i);
          cosets[r].encode(polys, g0 + i, patterns[i], std::span<Fr>(buf.data() + i * len, len));
        }
      }
      JOLT_SPAN("basefold::hash_leaves", jolt::arg("polys", gk));
      const Fr* cw = buf.data();
      Digest* lr = leaf.get() + r * hl;
      if (gk <= 2) {
        // One BLAKE2b block per step: a leaf's two values of codeword i are entries j and
        // j + len/2 of its coset.
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, hl, 256),
                          [&](const tbb::blocked_range<std::size_t>& rg) {
                            std::array<const Fr*, 4> columns{};
                            for (std::size_t i = 0; i < gk; ++i) {
                              columns[2 * i] = cw + i * len + rg.begin();
                              columns[2 * i + 1] = cw + i * len + hl + rg.begin();
                            }
                            Digest* d = lr + rg.begin();
                            pcs::hash_leaf_steps(g0 == 0 ? nullptr : d,
                                                 std::span<const Fr* const>(columns.data(), 2 * gk),
                                                 d, rg.size());
                          });
        continue;
      }
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, hl, 256),
                        [&](const tbb::blocked_range<std::size_t>& rg) {
                          std::vector<Fr> vals(2 * gk);
                          for (std::size_t j = rg.begin(); j < rg.end(); ++j) {
                            for (std::size_t i = 0; i < gk; ++i) {
                              vals[2 * i] = cw[i * len + j];
                              vals[2 * i + 1] = cw[i * len + j + hl];
                            }
                            lr[j] = pcs::hash_leaf_step(g0 == 0 ? nullptr : &lr[j], vals);
                          }
                        });
    }
  }
  buf = pcs::FrArray();  // free the coset buffer before the tree is built
  // The tree is kept from level 2 up (the opening recomputes the leaves and level-1 nodes it
  // needs from four leaves per query): a quarter of the digests of the whole tree, the same root.
  // Level-2 node m hashes the leaves at positions 4m … 4m + 3 (layer0_leaf_at: m + e·half/4),
  // gathered from their cosets.
  const unsigned log_r = params_.log_inv_rate;
  const auto level2 = std::make_unique_for_overwrite<Digest[]>(half / 4);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, half / 4, 1024),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      const std::size_t m0 = rg.begin(), nm = rg.size();
                      std::vector<Digest> four(4 * nm), two(2 * nm);
                      for (std::size_t p = 4 * m0; p < 4 * (m0 + nm); ++p) {
                        const std::uint64_t l = layer0_leaf_at(p, half);
                        four[p - 4 * m0] = leaf[(l & (R - 1)) * hl + (l >> log_r)];
                      }
                      pcs::hash_node_pairs(four.data(), two.data(), 2 * nm);
                      pcs::hash_node_pairs(two.data(), level2.get() + m0, nm);
                    });
  leaf.reset();
  data->tree = pcs::MerkleTree::from_leaves(std::span<const Digest>(level2.get(), half / 4));
  Committed c;
  c.root = data->tree.root();
  c.num_vars = n;
  c.num_polys = k;
  c.data = std::move(data);
  return c;
}

std::vector<std::uint8_t> Basefold::open(const CommitmentTree& data, const PolynomialBatch& polys,
                                         std::span<const Fr> point, std::span<const Fr> evals,
                                         Transcript& transcript, const Tamper* tamper) const {
  static const Tamper kHonest{};
  const Tamper& tp = tamper ? *tamper : kHonest;
  const Shape& s = data.shape;
  const unsigned n = s.num_vars, k = s.num_polys;
  if (polys.num_polys() != k || point.size() != n || evals.size() != k)
    throw std::invalid_argument("basefold::open: " + std::to_string(polys.num_polys()) +
                                " tables, " + std::to_string(point.size()) + " coordinates, " +
                                std::to_string(evals.size()) + " claims for a commitment of " +
                                std::to_string(k) + " tables of 2^" + std::to_string(n));
  for (std::size_t i = 0; i < k; ++i)
    if (const auto v = polys.view(i);
        polys.table_size() != (std::size_t{1} << n) || (v.data() && v.size() != polys.table_size()))
      throw std::invalid_argument("basefold::open: a table does not have 2^" + std::to_string(n) +
                                  " entries (not the committed tables)");
  JOLT_SPAN("basefold::open", jolt::arg("num_vars", n), jolt::arg("num_polys", k));
  const std::string params_line = parameters();
  absorb_statement(transcript, params_line, data.tree.root(), n, k, point, evals);
  const Fr gamma = transcript.challenge("basefold/gamma");
  std::vector<Fr> gp(k);
  gp[0] = Fr::one();
  for (unsigned i = 1; i < k; ++i) gp[i] = gp[i - 1] * gamma;
  Fr claim = Fr::zero();
  for (unsigned i = 0; i < k; ++i) claim += gp[i] * evals[i];

  const std::size_t N = std::size_t{1} << n;
  std::vector<Fr> f = zero_table(N), E;
  {
    JOLT_SPAN("basefold::combine");
    std::vector<std::uint32_t> rest(k - 1);  // tables 1 .. k − 1
    for (unsigned i = 1; i < k; ++i) rest[i - 1] = i;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, N, kGrain),
                      [&](const tbb::blocked_range<std::size_t>& rg) {
                        const std::span<Fr> block(f.data() + rg.begin(), rg.size());
                        polys.read(0, rg.begin(), block);
                        polys.accumulate_many(rest, std::span<const Fr>(gp).subspan(1), rg.begin(),
                                              block);
                      });
    E = eq_table(point);
  }

  Proof proof;
  const auto pw = param_words(params_);
  std::copy(pw.begin(), pw.end(), proof.params);
  std::vector<Oracle> oracles;
  {
    JOLT_SPAN("basefold::sumcheck_fold", jolt::arg("rounds", s.num_rounds));
    for (unsigned i = 0; i < s.num_rounds; ++i) {
      const std::size_t h = f.size() / 2;
      if (i >= 1 && (i - 1) % s.log_fold == 0) {
        const unsigned layer = static_cast<unsigned>(oracles.size()) + 1;
        Oracle o;
        o.message = zero_table(f.size());
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, f.size(), kGrain),
                          [&](const tbb::blocked_range<std::size_t>& rg) {
                            std::copy(f.begin() + static_cast<std::ptrdiff_t>(rg.begin()),
                                      f.begin() + static_cast<std::ptrdiff_t>(rg.end()),
                                      o.message.begin() + static_cast<std::ptrdiff_t>(rg.begin()));
                          });
        o.tree = oracle_tree(f, s, layer, tp.corrupt_layer == layer);
        proof.roots.push_back(o.tree.root());
        transcript.absorb_bytes("basefold/root", o.tree.root());
        oracles.push_back(std::move(o));
      }
      struct G {
        Fr g0, g1, g2;
      };
      const G g = tbb::parallel_reduce(
          tbb::blocked_range<std::size_t>(0, h, kGrain), G{},
          [&](const tbb::blocked_range<std::size_t>& rg, G acc) {
            // The products kArrayChunk pairs at a time over arrays (multiply_arrays).
            std::array<Fr, 2 * kArrayChunk> p;
            std::array<Fr, kArrayChunk> a, b;
            for (std::size_t y0 = rg.begin(); y0 < rg.end(); y0 += kArrayChunk) {
              const std::size_t n = std::min(kArrayChunk, rg.end() - y0);
              const Fr *e = E.data() + 2 * y0, *x = f.data() + 2 * y0;
              multiply_arrays(e, x, p.data(), 2 * n);  // e0·f0, e1·f1 interleaved
              for (std::size_t k = 0; k < n; ++k) {
                acc.g0 += p[2 * k];
                acc.g1 += p[2 * k + 1];
                a[k] = e[2 * k + 1].dbl() - e[2 * k];
                b[k] = x[2 * k + 1].dbl() - x[2 * k];
              }
              multiply_arrays(a.data(), b.data(), a.data(), n);  // (2e1 − e0)·(2f1 − f0)
              for (std::size_t k = 0; k < n; ++k) acc.g2 += a[k];
            }
            return acc;
          },
          [](G a, const G& b) {
            a.g0 += b.g0;
            a.g1 += b.g1;
            a.g2 += b.g2;
            return a;
          });
      if (i == 0 && !tp.skip_eval_check && g.g0 + g.g1 != claim)
        throw std::invalid_argument(
            "basefold::open: the claimed evaluations are not those of the given tables at the "
            "point");
      const Fr round[2] = {g.g0, g.g2};
      proof.rounds.insert(proof.rounds.end(), round, round + 2);
      transcript.absorb_frs("basefold/round", round);
      const Fr alpha = transcript.challenge("basefold/alpha");
      claim = interpolate2(g.g0, claim - g.g0, g.g2, alpha);
      // Each fold writes fresh tables of h entries and frees the previous ones, so no buffer of
      // an earlier round's size stays allocated beside the oracles (the peak of the opening).
      std::vector<Fr> fn = zero_table(h), En = zero_table(h);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h, kGrain),
                        [&](const tbb::blocked_range<std::size_t>& rg) {
                          std::array<Fr, kArrayChunk> al, df, de;
                          al.fill(alpha);
                          for (std::size_t y0 = rg.begin(); y0 < rg.end(); y0 += kArrayChunk) {
                            const std::size_t n = std::min(kArrayChunk, rg.end() - y0);
                            const Fr *e = E.data() + 2 * y0, *x = f.data() + 2 * y0;
                            for (std::size_t k = 0; k < n; ++k) {
                              df[k] = x[2 * k + 1] - x[2 * k];
                              de[k] = e[2 * k + 1] - e[2 * k];
                            }
                            multiply_arrays(df.data(), al.data(), df.data(), n);
                            multiply_arrays(de.data(), al.data(), de.data(), n);
                            for (std::size_t k = 0; k < n; ++k) {
                              fn[y0 + k] = x[2 * k] + df[k];
                              En[y0 + k] = e[2 * k] + de[k];
                            }
                          }
                        });
      f = std::move(fn);
      E = std::move(En);
    }
  }
  proof.final_msg = f;
  if (tp.perturb_final) {
    if (f.size() < 2)
      throw std::invalid_argument("basefold::Tamper::perturb_final needs a final message of ≥ 2");
    proof.final_msg[0] += E[1];
    proof.final_msg[1] -= E[0];
  }
  transcript.absorb_frs("basefold/final", proof.final_msg);
  if (tp.extra_final) proof.final_msg.push_back(Fr::one());
  {
    JOLT_SPAN("basefold::grind", jolt::arg("bits", params_.pow_bits));
    std::uint64_t nonce = 0;
    while (pow_ok(transcript.state(), nonce, params_.pow_bits) == tp.bad_pow) ++nonce;
    proof.nonce = nonce;
    transcript.absorb_u64("basefold/pow_nonce", nonce);
  }
  auto queries = draw_queries(transcript, params_.num_queries(), s.leaves(0));
  if (tp.shift_query) queries[0] = (queries[0] + 1) & (s.leaves(0) - 1);
  const auto pos = layer_positions(s, queries);
  for (std::uint64_t q : queries) proof.queries.push_back(static_cast<std::uint32_t>(q));
  if (tp.query_out_of_range) proof.queries[0] += static_cast<std::uint32_t>(s.leaves(0));
  {
    JOLT_SPAN("basefold::answer_queries");
    const std::size_t M = std::size_t{1} << s.log_domain(0), half = M / 2;
    // The coset layers first, each oracle freed once answered, so layer 0's re-encoding (the
    // opening's largest transient: table copies) runs beside none of them; the proof lists the
    // layers in order 0, 1, ....
    proof.layers.resize(s.coset_layers + 1);
    for (unsigned l = s.coset_layers + 1; l-- > 0;) {
      LayerOpening& lo = proof.layers[l];
      lo.leaf_width = static_cast<std::uint32_t>(s.leaf_width(l));
      const std::size_t leaves = s.leaves(l);
      const auto uniq = sorted_unique(pos[l], leaves);
      lo.values.reserve(uniq.size() * lo.leaf_width);
      if (l == 0) {
        // The tree keeps neither leaf digests nor level 1: every table is re-encoded at the
        // pairs of the four leaves under each opened leaf's level-2 node (layer0_position: the
        // leaves m + e·leaves/4), whose digests give the level-0 and level-1 siblings.
        JOLT_SPAN("basefold::reencode", jolt::arg("polys", k));
        std::vector<std::uint64_t> known;  // uniq's tree positions, sorted
        for (std::uint64_t j : uniq) known.push_back(layer0_position(j, leaves));
        std::sort(known.begin(), known.end());
        std::vector<std::uint64_t> both;  // the leaves of known's quads, sorted, distinct
        for (std::uint64_t p : known)
          for (std::uint64_t e = 0; e < 4; ++e)
            both.push_back(layer0_leaf_at((p & ~std::uint64_t{3}) + e, leaves));
        std::sort(both.begin(), both.end());
        both.erase(std::unique(both.begin(), both.end()), both.end());
        std::vector<std::uint64_t> at;  // w, w + M/2 for each leaf w
        for (std::uint64_t w : both) at.insert(at.end(), {w, w + half});
        const std::size_t width = 2 * std::size_t{k};
        std::vector<Fr> vals(both.size() * width);
        // A table the batch does not store as Fr is read into a copy for rs_encode_at; at most
        // kTablesInFlight such copies exist at once, whatever the thread count.
        constexpr int kTablesInFlight = 2;
        tbb::enumerable_thread_specific<std::vector<Fr>> scratch;
        // One plan for every table (the same positions). No twiddle table of the layer-0 domain
        // (M/4 + 2^13 entries): the encoder computes the powers it reads.
        const PositionEncoder at_positions(n, params_.log_inv_rate, at, {});
        tbb::task_arena bounded(std::min(kTablesInFlight, tbb::this_task_arena::max_concurrency()));
        bounded.execute([&] {
          tbb::parallel_for(std::size_t{0}, std::size_t{k}, [&](std::size_t i) {
            std::vector<Fr> got(at.size());
            at_positions.encode(table_of(polys, i, scratch.local()), got);
            for (std::size_t u = 0; u < both.size(); ++u) {
              vals[u * width + 2 * i] = got[2 * u];
              vals[u * width + 2 * i + 1] = got[2 * u + 1];
            }
          });
        });
        auto slot = [&](std::uint64_t w) {
          return static_cast<std::size_t>(std::lower_bound(both.begin(), both.end(), w) -
                                          both.begin());
        };
        for (std::uint64_t j : uniq) {
          const Fr* v = vals.data() + slot(j) * width;
          lo.values.insert(lo.values.end(), v, v + width);
        }
        // Levels 0 and 1 from the recomputed leaves, the levels above from the tree.
        auto leaf_digest = [&](std::uint64_t w) {
          return layer0_leaf(std::span<const Fr>(vals).subspan(slot(w) * width, width),
                             s.leaf_group);
        };
        // Nodes by tree position: a position's leaf digest.
        auto at_position = [&](std::uint64_t p) { return leaf_digest(layer0_leaf_at(p, leaves)); };
        lo.siblings =
            multiproof(data.tree.depth() + 2, known, [&](std::size_t h, std::uint64_t a) -> Digest {
              if (h == 0) return at_position(a ^ 1);
              if (h == 1)
                return pcs::hash_node(at_position(2 * (a ^ 1)), at_position(2 * (a ^ 1) + 1));
              return data.tree.path(static_cast<std::size_t>(a << (h - 2)))[h - 2];
            });
        if (tp.corrupt_sibling && !lo.siblings.empty()) lo.siblings[0][0] ^= 1;
        if (tp.extra_sibling) lo.siblings.push_back(Digest{});
        if (tp.drop_leaf) lo.values.resize(lo.values.size() - lo.leaf_width);
      } else {
        Oracle& o = oracles[l - 1];
        std::vector<std::uint64_t> at;  // leaf j's values: positions j + t·leaves
        for (std::uint64_t j : uniq)
          for (std::size_t t = 0; t < lo.leaf_width; ++t) at.push_back(j + t * leaves);
        lo.values.resize(at.size());
        rs_encode_at(o.message, s.log_inv_rate, at, {}, lo.values);
        if (tp.corrupt_layer == l)
          for (Fr& x : lo.values) x += Fr::one();
        lo.siblings = multiproof(o.tree, uniq);
        o = Oracle{};
      }
    }
  }
  return proof.encode();
}

std::optional<VerifyError> Basefold::verify(std::span<const std::uint8_t> root, unsigned num_vars,
                                            unsigned num_polys, std::span<const Fr> point,
                                            std::span<const Fr> evals,
                                            std::span<const std::uint8_t> proof_bytes,
                                            Transcript& transcript) const {
  const unsigned n = num_vars, k = num_polys;
  JOLT_VERIFY("pcs.basefold.statement",
              root.size() == 32 && n >= 1 && n + params_.log_inv_rate <= Fr::two_adicity() &&
                  k >= 1 && point.size() == n && evals.size() == k,
              "commitment of " + std::to_string(root.size()) + " bytes, 2^" + std::to_string(n) +
                  " entries × " + std::to_string(k) + " tables, point of " +
                  std::to_string(point.size()) + " coordinates, " + std::to_string(evals.size()) +
                  " claims: inconsistent or unsupported shape");
  Proof p;
  std::string why;
  const bool decoded = Proof::decode(proof_bytes, p, why);
  JOLT_VERIFY("pcs.basefold.decode", decoded, "malformed Basefold proof: " + why);
  const auto pw = param_words(params_);
  const bool same_params = std::equal(pw.begin(), pw.end(), p.params);
  JOLT_VERIFY("pcs.basefold.params", same_params,
              "the proof was made with other parameters than this verifier's: " + parameters());
  const Shape s = Shape::make(n, k, params_);
  bool shape_ok =
      p.rounds.size() == 2 * std::size_t{s.num_rounds} && p.roots.size() == s.coset_layers &&
      p.final_msg.size() == (std::size_t{1} << s.final_log_len()) &&
      p.layers.size() == s.coset_layers + 1 && p.queries.size() == params_.num_queries();
  for (std::size_t l = 0; shape_ok && l < p.layers.size(); ++l)
    shape_ok = p.layers[l].leaf_width == s.leaf_width(static_cast<unsigned>(l));
  JOLT_VERIFY("pcs.basefold.proof_shape", shape_ok,
              "round, root, final-message or layer counts differ from the shape for 2^" +
                  std::to_string(n) + " × " + std::to_string(k));

  // Transcript replay.
  absorb_statement(transcript, parameters(), root, n, k, point, evals);
  const Fr gamma = transcript.challenge("basefold/gamma");
  Fr claim = Fr::zero(), gpow = Fr::one();
  std::vector<Fr> gp(k);
  for (unsigned i = 0; i < k; ++i) {
    gp[i] = gpow;
    claim += gpow * evals[i];
    gpow *= gamma;
  }
  std::vector<Fr> alphas(s.num_rounds);
  for (unsigned i = 0; i < s.num_rounds; ++i) {
    if (i >= 1 && (i - 1) % s.log_fold == 0)
      transcript.absorb_bytes("basefold/root", p.roots[(i - 1) / s.log_fold]);
    const Fr g0 = p.rounds[2 * i], g2 = p.rounds[2 * i + 1];
    transcript.absorb_frs("basefold/round", std::span<const Fr>(&p.rounds[2 * i], 2));
    alphas[i] = transcript.challenge("basefold/alpha");
    claim = interpolate2(g0, claim - g0, g2, alphas[i]);
  }
  transcript.absorb_frs("basefold/final", p.final_msg);
  const bool pow_passed = pow_ok(transcript.state(), p.nonce, params_.pow_bits);
  transcript.absorb_u64("basefold/pow_nonce", p.nonce);
  const auto drawn = draw_queries(transcript, params_.num_queries(), s.leaves(0));
  // The openings are checked at the indices the proof names; that they are the drawn ones is
  // checked last (so a proof for another commitment fails at its Merkle roots first).
  for (std::size_t qi = 0; qi < p.queries.size(); ++qi)
    JOLT_VERIFY("pcs.basefold.query_range", p.queries[qi] < s.leaves(0),
                "query " + std::to_string(qi) + " names leaf " + std::to_string(p.queries[qi]) +
                    " of " + std::to_string(s.leaves(0)));
  std::vector<std::uint64_t> queries(p.queries.size());
  for (std::size_t qi = 0; qi < queries.size(); ++qi)
    queries[qi] = p.queries[qi] & (s.leaves(0) - 1);
  const auto pos = layer_positions(s, queries);

  // Merkle: every layer's opened leaves against its root.
  std::vector<std::vector<std::uint64_t>> uniq(s.coset_layers + 1);
  for (unsigned l = 0; l <= s.coset_layers; ++l) {
    const std::size_t leaves = s.leaves(l), width = s.leaf_width(l);
    uniq[l] = sorted_unique(pos[l], leaves);
    const LayerOpening& lo = p.layers[l];
    JOLT_VERIFY("pcs.basefold.leaf_count", lo.values.size() == uniq[l].size() * width,
                "layer " + std::to_string(l) + " opens " + std::to_string(lo.values.size()) +
                    " values, the queries need " + std::to_string(uniq[l].size() * width));
    // (tree position, digest) by position: layer 0's leaves sit at layer0_position.
    std::vector<std::pair<std::uint64_t, Digest>> nodes;
    nodes.reserve(uniq[l].size());
    for (std::size_t u = 0; u < uniq[l].size(); ++u) {
      const std::span<const Fr> leaf(lo.values.data() + u * width, width);
      if (l == 0)
        nodes.emplace_back(layer0_position(uniq[l][u], leaves), layer0_leaf(leaf, s.leaf_group));
      else
        nodes.emplace_back(uniq[l][u], pcs::hash_leaf(leaf));
    }
    std::sort(nodes.begin(), nodes.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::size_t used = 0;
    const auto rebuilt = rebuild_root(
        std::move(nodes), static_cast<std::size_t>(std::countr_zero(leaves)), lo.siblings, used);
    JOLT_VERIFY("pcs.basefold.sibling_count", rebuilt && used == lo.siblings.size(),
                "layer " + std::to_string(l) + " carries " + std::to_string(lo.siblings.size()) +
                    " Merkle siblings, the queries need " + std::to_string(used) +
                    (rebuilt ? "" : " or more"));
    const Digest expected = [&] {
      Digest d{};
      if (l == 0)
        std::memcpy(d.data(), root.data(), 32);
      else
        d = p.roots[l - 1];
      return d;
    }();
    JOLT_VERIFY("pcs.basefold.merkle", rebuilt && *rebuilt == expected,
                "layer " + std::to_string(l) + ": the opened leaves do not hash to the " +
                    (l == 0 ? std::string("commitment root") : std::string("oracle root")));
  }

  // Folding along every query path.
  const unsigned R = s.log_inv_rate;
  std::vector<Fr> final_cw(std::size_t{1} << (s.final_log_len() + R));
  pcs::ReedSolomonCode(s.final_log_len(), R).encode(p.final_msg, final_cw);
  const Fr w0inv = Fr::root_of_unity(s.log_domain(0)).inverse();
  for (std::size_t qi = 0; qi < queries.size(); ++qi) {
    const std::uint64_t j = queries[qi];
    const Fr xinv0 = w0inv.pow(p.queries[qi]);
    const auto at0 = std::lower_bound(uniq[0].begin(), uniq[0].end(), j) - uniq[0].begin();
    const Fr* leaf0 = p.layers[0].values.data() + static_cast<std::size_t>(at0) * 2 * k;
    Fr A = Fr::zero(), B = Fr::zero();
    for (unsigned i = 0; i < k; ++i) {
      A += gp[i] * leaf0[2 * i];
      B += gp[i] * leaf0[2 * i + 1];
    }
    Fr v = fold_pair(A, B, xinv0, alphas[0]);
    unsigned round = 1;
    std::uint64_t position = j;
    for (unsigned l = 1; l <= s.coset_layers; ++l) {
      const std::size_t leaves = s.leaves(l), width = s.leaf_width(l);
      const std::uint64_t ell = position & (leaves - 1), t = position >> std::countr_zero(leaves);
      const auto at = std::lower_bound(uniq[l].begin(), uniq[l].end(), ell) - uniq[l].begin();
      std::vector<Fr> buf(
          p.layers[l].values.begin() + at * static_cast<std::ptrdiff_t>(width),
          p.layers[l].values.begin() + (at + 1) * static_cast<std::ptrdiff_t>(width));
      JOLT_VERIFY("pcs.basefold.fold", buf[t] == v,
                  "query " + std::to_string(qi) + ": the fold of layer " + std::to_string(l - 1) +
                      " disagrees with oracle " + std::to_string(l) + " at position " +
                      std::to_string(position));
      Fr xinv = Fr::root_of_unity(s.log_domain(l)).inverse().pow(ell);
      Fr zinv = Fr::root_of_unity(s.log_fold).inverse();
      for (std::size_t c = width; c > 1; c /= 2, ++round) {
        Fr z = Fr::one();
        for (std::size_t tt = 0; tt < c / 2; ++tt, z *= zinv)
          buf[tt] = fold_pair(buf[tt], buf[tt + c / 2], xinv * z, alphas[round]);
        xinv = xinv.square();
        zinv = zinv.square();
      }
      v = buf[0];
      position = ell;
    }
    JOLT_VERIFY("pcs.basefold.final_codeword", final_cw[position] == v,
                "query " + std::to_string(qi) +
                    ": the last fold disagrees with the encoded final message at position " +
                    std::to_string(position));
  }

  // The sumcheck's last claim against the final message.
  const unsigned m = s.final_log_len();
  std::vector<Fr> ef = eq_table(point.first(m));
  Fr scale = Fr::one();
  for (unsigned i = 0; i < s.num_rounds; ++i) scale *= eq1(point[n - 1 - i], alphas[i]);
  Fr total = Fr::zero();
  for (std::size_t y = 0; y < ef.size(); ++y) total += ef[y] * p.final_msg[y];
  JOLT_VERIFY("pcs.basefold.final_sum", total * scale == claim,
              "the sumcheck's last claim is not the eq-weighted sum of the final message: the "
              "claimed evaluations are wrong");
  const std::string zero_bits = std::to_string(params_.pow_bits) + " zero bits";
  JOLT_VERIFY("pcs.basefold.pow", pow_passed, "the grinding nonce does not give " + zero_bits);
  bool same = drawn.size() == p.queries.size();
  for (std::size_t qi = 0; same && qi < drawn.size(); ++qi) same = drawn[qi] == p.queries[qi];
  JOLT_VERIFY("pcs.basefold.query_index", same,
              "the opened query indices are not the ones drawn from the transcript");
  return std::nullopt;
}

std::optional<ProofBreakdown> Basefold::breakdown(std::span<const std::uint8_t> proof,
                                                  unsigned num_vars, unsigned num_polys) const {
  Proof p;
  std::string why;
  if (!Proof::decode(proof, p, why)) return std::nullopt;
  const Shape s = Shape::make(num_vars, num_polys, params_);
  if (p.layers.size() != s.coset_layers + 1) return std::nullopt;
  ProofBreakdown b;
  b.total = proof.size();
  for (unsigned l = 0; l <= s.coset_layers; ++l) {
    const LayerOpening& lo = p.layers[l];
    const std::size_t bytes = lo.values.size() * Fr::kBytes;
    (l == 0 ? b.first_layer_values : b.coset_values) += bytes;
    b.siblings += lo.siblings.size() * 32;
    const std::size_t opened = lo.leaf_width ? lo.values.size() / lo.leaf_width : 0;
    b.siblings_without_sharing +=
        opened * static_cast<std::size_t>(std::countr_zero(s.leaves(l))) * 32;
  }
  b.rounds_and_final = b.total - b.first_layer_values - b.coset_values - b.siblings;
  return b;
}

}  // namespace jolt::prover::basefold

namespace jolt::prover {
namespace {

class BasefoldScheme final : public CommitmentScheme {
 public:
  explicit BasefoldScheme(basefold::Params params) : bf_(params) {}
  PcsKind kind() const override { return PcsKind::kBasefold; }
  std::string_view name() const override { return "basefold"; }
  std::string parameters() const override { return bf_.parameters(); }
  unsigned max_num_vars() const override {
    return Fr::two_adicity() - bf_.params().log_inv_rate;  // the NTT domain of 2^(n+R)
  }

  using CommitmentScheme::commit;
  using CommitmentScheme::open;

  CommitOutput commit(const PolynomialBatch& polys) const override {
    basefold::Committed c = bf_.commit(polys);
    CommitOutput out;
    out.commitment.bytes.assign(c.root.begin(), c.root.end());
    out.commitment.num_vars = c.num_vars;
    out.commitment.num_polys = c.num_polys;
    out.data = std::move(c.data);
    return out;
  }

  std::vector<std::uint8_t> open(const ProverData& data, const PolynomialBatch& polys,
                                 std::span<const Fr> point, std::span<const Fr> evals,
                                 Transcript& transcript) const override {
    const auto* cw = dynamic_cast<const basefold::CommitmentTree*>(&data);
    if (cw == nullptr)
      throw std::invalid_argument(
          "basefold open: the prover data comes from another commitment scheme");
    return bf_.open(*cw, polys, point, evals, transcript);
  }

  std::optional<VerifyError> verify(const Commitment& commitment, std::span<const Fr> point,
                                    std::span<const Fr> evals, std::span<const std::uint8_t> proof,
                                    Transcript& transcript) const override {
    return bf_.verify(commitment.bytes, commitment.num_vars, commitment.num_polys, point, evals,
                      proof, transcript);
  }

 private:
  basefold::Basefold bf_;
};

}  // namespace

std::unique_ptr<CommitmentScheme> make_basefold_commitment() {
  return std::make_unique<pcs::StackedCommitment>(
      std::make_unique<BasefoldScheme>(basefold::stacked_params()), basefold::kDefaultLogStack);
}

}  // namespace jolt::prover
