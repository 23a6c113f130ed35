// Ligero commit / batched same-point open / verify (protocol and soundness: ligero.hpp).
#include <sys/mman.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <jolt/instrument.hpp>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/pcs/ligero.hpp>
#include <jolt/prover/pcs/reed_solomon.hpp>
#include <jolt/prover/verify_check.hpp>

namespace jolt::prover::pcs {
namespace {

static_assert(std::is_trivially_copyable_v<Fr> && std::is_trivially_destructible_v<Fr>);
constexpr std::size_t kColumnChunk = 64;
constexpr std::size_t kLeafBlock = 8;  // columns gathered together: 8 × 32 B = 4 cache lines

// Writes the commitment and the shape into the transcript (identically on both sides).
void absorb_statement(Transcript& t, const Digest& root, const LigeroShape& shape,
                      unsigned num_queries, std::span<const Fr> point, std::span<const Fr> evals) {
  std::uint8_t buf[32 + 4 * 8];
  std::copy(root.begin(), root.end(), buf);
  const std::uint64_t fields[4] = {shape.num_vars, shape.num_polys,
                                   shape.log_inv_rate | (std::uint64_t{shape.log_cols} << 32),
                                   num_queries};
  for (int f = 0; f < 4; ++f)
    for (int b = 0; b < 8; ++b)
      buf[32 + f * 8 + b] = static_cast<std::uint8_t>(fields[f] >> (8 * b));
  t.absorb_bytes("ligero/commitment", buf);
  t.absorb_frs("ligero/point", point);
  t.absorb_frs("ligero/evals", evals);
}

// Coefficient of stacked row t = i·R + a in the proximity row (ρ^t) and in the evaluation row
// (γ^i · eq(r_hi, a)).
void row_coefficients(const LigeroShape& shape, const Fr& rho, const Fr& gamma,
                      std::span<const Fr> point, std::vector<Fr>& c_prox, std::vector<Fr>& c_eval) {
  const std::size_t rows = shape.rows(), h = shape.column_height();
  const std::vector<Fr> eq_hi = eq_table(point.first(shape.log_rows));
  c_prox.resize(h);
  c_eval.resize(h);
  Fr rp = Fr::one(), gp = Fr::one();
  for (std::size_t i = 0; i < shape.num_polys; ++i) {
    for (std::size_t a = 0; a < rows; ++a) {
      c_prox[i * rows + a] = rp;
      rp *= rho;
      c_eval[i * rows + a] = gp * eq_hi[a];
    }
    gp *= gamma;
  }
}

// Sorted distinct query indices in [0, codeword_len).
std::vector<std::uint64_t> draw_queries(Transcript& t, unsigned q, std::size_t codeword_len) {
  std::vector<std::uint64_t> idx(q);
  for (unsigned s = 0; s < q; ++s) idx[s] = t.challenge_u64("ligero/query") & (codeword_len - 1);
  std::sort(idx.begin(), idx.end());
  idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
  return idx;
}

Fr inner_product(std::span<const Fr> a, std::span<const Fr> b) {
  Fr acc = Fr::zero();
  for (std::size_t i = 0; i < a.size(); ++i) acc += a[i] * b[i];
  return acc;
}

}  // namespace

std::string LigeroParams::describe() const {
  return "rate=1/" + std::to_string(1u << log_inv_rate) +
         " queries=" + std::to_string(num_queries()) +
         " security_bits=" + std::to_string(security_bits) +
         " (unique decoding, delta=" + std::to_string(decoding_radius()).substr(0, 5) +
         ") extra_log_cols=" + std::to_string(extra_log_cols);
}

unsigned LigeroParams::num_queries() const {
  const double per_query = -std::log2(1.0 - decoding_radius());
  return static_cast<unsigned>(std::ceil(static_cast<double>(security_bits) / per_query));
}

double LigeroParams::decoding_radius() const {
  const double rate = 1.0 / static_cast<double>(1u << log_inv_rate);
  return (1.0 - rate) / 2.0;
}

LigeroShape LigeroShape::make(std::uint32_t num_vars, std::uint32_t num_polys,
                              const LigeroParams& params) {
  LigeroShape s;
  s.num_vars = num_vars;
  s.num_polys = num_polys;
  s.log_cols = std::min<unsigned>(num_vars, (num_vars + 1) / 2 + params.extra_log_cols);
  s.log_rows = num_vars - s.log_cols;
  s.log_inv_rate = params.log_inv_rate;
  return s;
}

FrArray::FrArray(std::size_t n) : n_(n) {
  if (n == 0) return;
  // Fr is trivially copyable and destructible (an implicit-lifetime type), so raw storage from
  // malloc holds Fr objects once written.
  // Arrays of 2 MiB or more are aligned to 2 MiB and offered to the kernel as transparent huge
  // pages: the NTT's long layers stride across the whole array, and with 4 KiB pages nearly every
  // access of a strip is a TLB miss.
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  const std::size_t bytes = n * sizeof(Fr);
  void* p = nullptr;
  if (bytes >= kHuge) {
    p = std::aligned_alloc(kHuge, (bytes + kHuge - 1) / kHuge * kHuge);
    if (p != nullptr) madvise(p, bytes, MADV_HUGEPAGE);  // advice only: failure is harmless
  } else {
    p = std::malloc(bytes);
  }
  if (p == nullptr) throw std::bad_alloc();
  p_.reset(static_cast<Fr*>(p));
}

void FrArray::Free::operator()(Fr* p) const noexcept {
  std::free(p);
}

void LigeroProverData::visit_heap(jolt::HeapVisitor& v) const {
  jolt::HeapScope s(v, "LigeroProverData");
  v.bytes("encoded", encoded.size() * sizeof(Fr));
  v.bytes("merkle_tree", tree.heap_bytes());
}

LigeroPCS::LigeroPCS(LigeroParams params) : params_(params) {
  if (params_.log_inv_rate < 1 || params_.log_inv_rate > 8)
    throw std::invalid_argument("LigeroPCS: log_inv_rate must be in [1, 8]");
  if (params_.security_bits == 0) throw std::invalid_argument("LigeroPCS: security_bits is 0");
}

std::string LigeroPCS::parameters() const {
  return params_.describe();
}

CommitOutput LigeroPCS::commit(const PolynomialBatch& batch) const {
  const BatchTables tables(batch, "Ligero::commit");
  const std::span<const std::span<const Fr>> polys = tables.spans();
  JOLT_SPAN("Ligero::commit", jolt::arg("num_polys", polys.size()));
  if (polys.empty()) throw std::invalid_argument("Ligero::commit: no polynomials");
  const std::size_t len = polys[0].size();
  if (len == 0 || (len & (len - 1)) != 0)
    throw std::invalid_argument("Ligero::commit: table length " + std::to_string(len) +
                                " is not a power of two");
  for (std::size_t i = 0; i < polys.size(); ++i)
    if (polys[i].size() != len)
      throw std::invalid_argument("Ligero::commit: polynomial " + std::to_string(i) + " has " +
                                  std::to_string(polys[i].size()) + " evaluations, expected " +
                                  std::to_string(len));
  const auto n = static_cast<std::uint32_t>(std::countr_zero(len));
  auto data = std::make_unique<LigeroProverData>();
  data->shape = LigeroShape::make(n, static_cast<std::uint32_t>(polys.size()), params_);
  if (!data->shape.supported())
    throw std::invalid_argument("Ligero::commit: 2^" + std::to_string(n) +
                                " evaluations need an NTT beyond the 2-adicity of Fr");
  const LigeroShape& shape = data->shape;
  const std::size_t m = shape.cols(), N = shape.codeword_len(), h = shape.column_height();

  data->encoded = FrArray(h * N);
  {
    JOLT_SPAN("Ligero::encode_rows", jolt::arg("rows", h), jolt::arg("codeword_len", N));
    const ReedSolomonCode code(shape.log_cols, shape.log_inv_rate);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h, 1),
                      [&](const tbb::blocked_range<std::size_t>& rg) {
                        for (std::size_t t = rg.begin(); t < rg.end(); ++t) {
                          // Stacked row t = i·R + a is entries [a·m, (a+1)·m) of table i.
                          const std::span<const Fr> src =
                              polys[t / shape.rows()].subspan((t % shape.rows()) * m, m);
                          code.encode(src, data->encoded.span().subspan(t * N, N));
                        }
                      });
  }
  // Leaf digests over blocks of adjacent columns, so each row is read a cache line at a time
  // instead of one strided element per leaf.
  const FrArray& enc = data->encoded;
  std::vector<Digest> leaves(N);
  const std::size_t block = std::min<std::size_t>(kLeafBlock, N);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, N / block),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      std::vector<Fr> columns(block * h);  // one buffer per task range
                      for (std::size_t blk = rg.begin(); blk < rg.end(); ++blk) {
                        const std::size_t j0 = blk * block;
                        for (std::size_t t = 0; t < h; ++t)
                          for (std::size_t s = 0; s < block; ++s)
                            columns[s * h + t] = enc[t * N + j0 + s];
                        for (std::size_t s = 0; s < block; ++s)
                          leaves[j0 + s] =
                              hash_leaf(std::span<const Fr>(columns).subspan(s * h, h));
                      }
                    });
  data->tree = MerkleTree::from_leaves(leaves);

  CommitOutput out;
  const Digest& root = data->tree.root();
  out.commitment.bytes.assign(root.begin(), root.end());
  out.commitment.num_vars = shape.num_vars;
  out.commitment.num_polys = shape.num_polys;
  out.data = std::move(data);
  return out;
}

LigeroProof LigeroPCS::prove(const LigeroProverData& data,
                             std::span<const std::span<const Fr>> polys, std::span<const Fr> point,
                             std::span<const Fr> evals, Transcript& transcript,
                             const AlterRows& alter_rows) const {
  JOLT_SPAN("Ligero::open", jolt::arg("num_vars", data.shape.num_vars),
            jolt::arg("num_polys", data.shape.num_polys));
  const LigeroShape& shape = data.shape;
  if (shape.log_inv_rate != params_.log_inv_rate ||
      shape.log_cols != LigeroShape::make(shape.num_vars, shape.num_polys, params_).log_cols)
    throw std::invalid_argument("Ligero::open: prover data was committed with other parameters");
  if (point.size() != shape.num_vars)
    throw std::invalid_argument("Ligero::open: point has " + std::to_string(point.size()) +
                                " coordinates, polynomials have " + std::to_string(shape.num_vars) +
                                " variables");
  if (evals.size() != shape.num_polys)
    throw std::invalid_argument("Ligero::open: " + std::to_string(evals.size()) +
                                " evaluations for " + std::to_string(shape.num_polys) +
                                " polynomials");
  if (polys.size() != shape.num_polys)
    throw std::invalid_argument("Ligero::open: " + std::to_string(polys.size()) + " tables for " +
                                std::to_string(shape.num_polys) + " committed polynomials");
  for (std::size_t i = 0; i < polys.size(); ++i)
    if (polys[i].size() != (std::size_t{1} << shape.num_vars))
      throw std::invalid_argument("Ligero::open: table " + std::to_string(i) + " has " +
                                  std::to_string(polys[i].size()) + " entries, committed 2^" +
                                  std::to_string(shape.num_vars));
  const unsigned q = params_.num_queries();
  const std::size_t m = shape.cols(), N = shape.codeword_len(), h = shape.column_height();
  absorb_statement(transcript, data.tree.root(), shape, q, point, evals);
  const Fr rho = transcript.challenge("ligero/proximity_rho");
  const Fr gamma = transcript.challenge("ligero/batch_gamma");

  std::vector<Fr> c_prox, c_eval;
  row_coefficients(shape, rho, gamma, point, c_prox, c_eval);

  LigeroProof proof;
  proof.proximity_row.assign(m, Fr::zero());
  proof.eval_row.assign(m, Fr::zero());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m, kColumnChunk),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      for (std::size_t t = 0; t < h; ++t) {
                        const Fr* row = polys[t / shape.rows()].data() + (t % shape.rows()) * m;
                        const Fr cp = c_prox[t], ce = c_eval[t];
                        for (std::size_t b = rg.begin(); b < rg.end(); ++b) {
                          proof.proximity_row[b] += cp * row[b];
                          proof.eval_row[b] += ce * row[b];
                        }
                      }
                    });

  if (alter_rows) {
    alter_rows(proof.eval_row, proof.proximity_row);
  } else {
    // Self-check (a debugging aid, not soundness): the claims must match the committed tables.
    Fr combined = Fr::zero(), gp = Fr::one();
    for (const Fr& v : evals) {
      combined += gp * v;
      gp *= gamma;
    }
    const std::vector<Fr> eq_lo = eq_table(point.last(shape.log_cols));
    if (inner_product(proof.eval_row, eq_lo) != combined)
      throw std::invalid_argument(
          "Ligero::open: the claimed evaluations do not match the committed polynomials at the "
          "point");
  }

  transcript.absorb_frs("ligero/proximity_row", proof.proximity_row);
  transcript.absorb_frs("ligero/eval_row", proof.eval_row);
  const std::vector<std::uint64_t> queries = draw_queries(transcript, q, N);
  proof.columns.resize(queries.size());
  tbb::parallel_for(std::size_t{0}, queries.size(), [&](std::size_t s) {
    LigeroColumnOpening& col = proof.columns[s];
    col.values.resize(h);
    for (std::size_t t = 0; t < h; ++t) col.values[t] = data.encoded[t * N + queries[s]];
    col.path = data.tree.path(queries[s]);
  });
  return proof;
}

std::vector<std::uint8_t> LigeroPCS::open(const ProverData& data, const PolynomialBatch& batch,
                                          std::span<const Fr> point, std::span<const Fr> evals,
                                          Transcript& transcript) const {
  const auto* ld = dynamic_cast<const LigeroProverData*>(&data);
  if (ld == nullptr) throw std::invalid_argument("Ligero::open: prover data of another scheme");
  const BatchTables tables(batch, "Ligero::open");
  return prove(*ld, tables.spans(), point, evals, transcript).encode();
}

std::optional<VerifyError> LigeroPCS::verify(const Commitment& commitment,
                                             std::span<const Fr> point, std::span<const Fr> evals,
                                             std::span<const std::uint8_t> proof,
                                             Transcript& transcript) const {
  LigeroProof decoded;
  if (auto e = LigeroProof::decode(proof, decoded)) return e;
  return verify_proof(commitment, point, evals, decoded, transcript);
}

std::optional<VerifyError> LigeroPCS::verify_proof(const Commitment& commitment,
                                                   std::span<const Fr> point,
                                                   std::span<const Fr> evals,
                                                   const LigeroProof& proof,
                                                   Transcript& transcript) const {
  JOLT_SPAN("Ligero::verify", jolt::arg("num_vars", commitment.num_vars),
            jolt::arg("num_polys", commitment.num_polys));
  // Shape checks: the statement (commitment, point, claims) and the proof's dimensions. They
  // guard every later index, so they are codec-level ("pcs.ligero.shape") and always on.
  auto shape_error = [](std::string what) {
    return std::optional<VerifyError>(VerifyError{"pcs.ligero.shape", "Ligero: " + what});
  };
  if (commitment.bytes.size() != 32)
    return shape_error("commitment is " + std::to_string(commitment.bytes.size()) +
                       " bytes, expected a 32-byte Merkle root");
  if (commitment.num_polys == 0) return shape_error("commitment of 0 polynomials");
  if (commitment.num_vars > 64)
    return shape_error("unsupported number of variables " + std::to_string(commitment.num_vars));
  const LigeroShape shape = LigeroShape::make(commitment.num_vars, commitment.num_polys, params_);
  if (!shape.supported())
    return shape_error("unsupported number of variables " + std::to_string(commitment.num_vars));
  if (point.size() != commitment.num_vars)
    return shape_error("point has " + std::to_string(point.size()) +
                       " coordinates, commitment has " + std::to_string(commitment.num_vars) +
                       " variables");
  if (evals.size() != commitment.num_polys)
    return shape_error(std::to_string(evals.size()) + " evaluations for " +
                       std::to_string(commitment.num_polys) + " committed polynomials");
  Digest root;
  std::copy(commitment.bytes.begin(), commitment.bytes.end(), root.begin());
  const std::size_t m = shape.cols(), N = shape.codeword_len(), h = shape.column_height();
  if (proof.eval_row.size() != m || proof.proximity_row.size() != m)
    return shape_error("proof rows have " + std::to_string(proof.eval_row.size()) + "/" +
                       std::to_string(proof.proximity_row.size()) + " entries, expected " +
                       std::to_string(m));

  const unsigned q = params_.num_queries();
  absorb_statement(transcript, root, shape, q, point, evals);
  const Fr rho = transcript.challenge("ligero/proximity_rho");
  const Fr gamma = transcript.challenge("ligero/batch_gamma");

  Fr combined = Fr::zero(), gp = Fr::one();
  for (const Fr& v : evals) {
    combined += gp * v;
    gp *= gamma;
  }
  const std::vector<Fr> eq_lo = eq_table(point.last(shape.log_cols));
  JOLT_VERIFY("pcs.ligero.eval_claim", inner_product(proof.eval_row, eq_lo) == combined,
              "Ligero: evaluation row does not match the claimed evaluations (<u, eq(r_lo)> != "
              "sum of gamma^i v_i)");

  transcript.absorb_frs("ligero/proximity_row", proof.proximity_row);
  transcript.absorb_frs("ligero/eval_row", proof.eval_row);
  const std::vector<std::uint64_t> queries = draw_queries(transcript, q, N);
  if (proof.columns.size() != queries.size())
    return shape_error("proof opens " + std::to_string(proof.columns.size()) +
                       " columns, the transcript asks for " + std::to_string(queries.size()));
  for (const LigeroColumnOpening& col : proof.columns)
    if (col.values.size() != h)
      return shape_error("an opened column has " + std::to_string(col.values.size()) +
                         " values, expected " + std::to_string(h));

  const ReedSolomonCode code(shape.log_cols, shape.log_inv_rate);
  const std::vector<Fr> enc_prox = code.encode(proof.proximity_row);
  const std::vector<Fr> enc_eval = code.encode(proof.eval_row);
  std::vector<Fr> c_prox, c_eval;
  row_coefficients(shape, rho, gamma, point, c_prox, c_eval);

  for (std::size_t s = 0; s < queries.size(); ++s) {
    const LigeroColumnOpening& col = proof.columns[s];
    const std::uint64_t j = queries[s];
    JOLT_VERIFY("pcs.ligero.merkle",
                MerkleTree::verify(root, N, j, hash_leaf(col.values), col.path),
                "Ligero: Merkle path of column " + std::to_string(j) +
                    " does not lead to the committed root");
    JOLT_VERIFY("pcs.ligero.proximity", inner_product(c_prox, col.values) == enc_prox[j],
                "Ligero: proximity test fails at column " + std::to_string(j));
    JOLT_VERIFY("pcs.ligero.eval_column", inner_product(c_eval, col.values) == enc_eval[j],
                "Ligero: evaluation row is inconsistent with column " + std::to_string(j));
  }
  return std::nullopt;
}

std::size_t LigeroPCS::max_proof_size(std::uint32_t num_vars, std::uint32_t num_polys) const {
  const LigeroShape s = LigeroShape::make(num_vars, num_polys, params_);
  const std::size_t cols = std::min<std::size_t>(params_.num_queries(), s.codeword_len());
  const std::size_t depth = s.log_cols + s.log_inv_rate;
  return 40 + 2 * s.cols() * Fr::kBytes + cols * (s.column_height() + depth) * Fr::kBytes;
}

}  // namespace jolt::prover::pcs
