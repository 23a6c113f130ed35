// Byte encoding of LigeroProof (layout in ligero.hpp) through the shared codec (codec.hpp).
#include <algorithm>
#include <stdexcept>
#include <string>

#include <jolt/prover/codec.hpp>
#include <jolt/prover/pcs/ligero.hpp>
#include <jolt/prover/verify_check.hpp>

namespace jolt::prover::pcs {
namespace {

constexpr std::uint8_t kMagic[4] = {'J', 'L', 'G', 'R'};
constexpr std::uint32_t kVersion = 2;
constexpr std::size_t kHeaderBytes = 4 + 4 + 4 * 8;

}  // namespace

std::size_t LigeroProof::encoded_size() const {
  std::size_t n = kHeaderBytes + (eval_row.size() + proximity_row.size()) * Fr::kBytes;
  for (const auto& c : columns) n += (c.values.size() + c.path.size()) * Fr::kBytes;
  return n;
}

std::vector<std::uint8_t> LigeroProof::encode() const {
  const std::size_t height = columns.empty() ? 0 : columns[0].values.size();
  const std::size_t path_len = columns.empty() ? 0 : columns[0].path.size();
  for (const auto& c : columns)
    if (c.values.size() != height || c.path.size() != path_len)
      throw std::invalid_argument("LigeroProof::encode: columns of unequal shape");
  if (eval_row.size() != proximity_row.size())
    throw std::invalid_argument("LigeroProof::encode: rows of unequal length");
  ByteWriter w(encoded_size());
  w.raw(kMagic);
  w.u32(kVersion);
  w.u64(eval_row.size());
  w.u64(height);
  w.u64(path_len);
  w.u64(columns.size());
  w.frs(eval_row);
  w.frs(proximity_row);
  for (const auto& c : columns) {
    w.frs(c.values);
    for (const Digest& d : c.path) w.raw(d);
  }
  return w.take();
}

std::optional<VerifyError> LigeroProof::decode(std::span<const std::uint8_t> bytes,
                                               LigeroProof& out) {
  out = LigeroProof{};
  ByteReader r(bytes);
  r.section("ligero header");
  std::uint8_t magic[4];
  r.raw(magic);
  const std::uint32_t version = r.u32();
  const std::uint64_t row_len = r.u64(), height = r.u64(), path_len = r.u64(),
                      num_columns = r.u64();
  if (auto e = r.error()) return e;
  JOLT_VERIFY("pcs.ligero.magic", std::equal(magic, magic + 4, kMagic),
              "not a Ligero opening (bad magic)");
  JOLT_VERIFY("pcs.ligero.version", version == kVersion,
              "unsupported Ligero opening version " + std::to_string(version) + " (expected " +
                  std::to_string(kVersion) + ")");
  // Counts are checked against the bytes that remain before anything is allocated, using
  // divisions so no product can overflow.
  if (path_len > 64) r.fail("decode.truncated", "Merkle path length " + std::to_string(path_len));
  r.section("ligero rows");
  out.eval_row = r.frs(row_len);
  out.proximity_row = r.frs(row_len);
  r.section("ligero columns");
  // height ≤ remaining / 32 here is not yet known, so bound the per-column size by the input
  // first (no overflow), then the count. An empty column (height and path length 0) reads no
  // bytes but still takes a vector pair, so it counts as one field element: the columns never
  // take more than about 1.5 bytes of memory per byte of input.
  if (r.ok() && (height > r.remaining() / Fr::kBytes ||
                 num_columns > r.remaining() / std::max<std::uint64_t>(
                                                   Fr::kBytes, (height + path_len) * Fr::kBytes)))
    r.fail("decode.truncated", "column count " + std::to_string(num_columns) + " of height " +
                                   std::to_string(height) + " exceeds the input");
  if (r.ok()) out.columns.resize(num_columns);
  for (auto& c : out.columns) {
    c.values = r.frs(height);
    if (!r.need_elements(path_len, 32)) break;
    c.path.resize(path_len);
    for (auto& d : c.path) r.raw(d);
  }
  return r.finish();
}

}  // namespace jolt::prover::pcs
