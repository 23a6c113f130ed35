// Byte encoding of LigeroProof (layout in ligero.hpp) and its length-checked decoder.
#include <cstring>
#include <string>

#include <jolt/prover/pcs/ligero.hpp>

namespace jolt::prover::pcs {
namespace {

constexpr std::uint8_t kMagic[4] = {'J', 'L', 'G', 'R'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 4 + 4 + 4 * 8;

class Writer {
 public:
  explicit Writer(std::size_t reserve) { out_.reserve(reserve); }
  void bytes(const std::uint8_t* p, std::size_t n) { out_.insert(out_.end(), p, p + n); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void fr(const Fr& v) {
    auto b = v.to_bytes();
    bytes(b.data(), b.size());
  }
  std::vector<std::uint8_t> take() { return std::move(out_); }

 private:
  std::vector<std::uint8_t> out_;
};

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> in) : in_(in) {}
  std::size_t remaining() const { return in_.size() - pos_; }
  std::size_t offset() const { return pos_; }
  bool u32(std::uint32_t& v) {
    if (remaining() < 4) return false;
    v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | in_[pos_ + static_cast<std::size_t>(i)];
    pos_ += 4;
    return true;
  }
  bool u64(std::uint64_t& v) {
    if (remaining() < 8) return false;
    v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | in_[pos_ + static_cast<std::size_t>(i)];
    pos_ += 8;
    return true;
  }
  bool raw(std::uint8_t* out, std::size_t n) {
    if (remaining() < n) return false;
    std::memcpy(out, in_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  // nullopt-free: returns false on truncation or a non-canonical element.
  bool fr(Fr& v, bool& canonical) {
    if (remaining() < Fr::kBytes) return false;
    auto parsed = Fr::from_bytes(in_.subspan(pos_, Fr::kBytes));
    pos_ += Fr::kBytes;
    canonical = parsed.has_value();
    if (canonical) v = *parsed;
    return true;
  }

 private:
  std::span<const std::uint8_t> in_;
  std::size_t pos_ = 0;
};

jolt::Status fail(const std::string& what, std::size_t offset) {
  return jolt::Status::error("LigeroProof::decode: " + what + " (at byte " +
                             std::to_string(offset) + ")");
}

}  // namespace

std::size_t LigeroProof::encoded_size() const {
  std::size_t n = kHeaderBytes + (eval_row.size() + proximity_row.size()) * Fr::kBytes;
  for (const auto& c : columns) n += 8 + (c.values.size() + c.path.size()) * Fr::kBytes;
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
  Writer w(encoded_size());
  w.bytes(kMagic, 4);
  w.u32(kVersion);
  w.u64(eval_row.size());
  w.u64(height);
  w.u64(path_len);
  w.u64(columns.size());
  for (const Fr& v : eval_row) w.fr(v);
  for (const Fr& v : proximity_row) w.fr(v);
  for (const auto& c : columns) {
    w.u64(c.index);
    for (const Fr& v : c.values) w.fr(v);
    for (const Digest& d : c.path) w.bytes(d.data(), d.size());
  }
  return w.take();
}

jolt::Status LigeroProof::decode(std::span<const std::uint8_t> bytes, LigeroProof& out) {
  out = LigeroProof{};
  Reader r(bytes);
  std::uint8_t magic[4];
  if (!r.raw(magic, 4))
    return fail("truncated header (" + std::to_string(bytes.size()) + " bytes)", r.offset());
  if (std::memcmp(magic, kMagic, 4) != 0) return fail("not a Ligero proof (bad magic)", 0);
  std::uint32_t version = 0;
  std::uint64_t row_len = 0, height = 0, path_len = 0, num_columns = 0;
  if (!r.u32(version) || !r.u64(row_len) || !r.u64(height) || !r.u64(path_len) ||
      !r.u64(num_columns))
    return fail("truncated header", r.offset());
  if (version != kVersion) return fail("unsupported version " + std::to_string(version), 4);
  // Every count is checked against the bytes that remain before anything is allocated, using
  // divisions so no product can overflow.
  constexpr std::uint64_t kF = Fr::kBytes;
  const std::uint64_t rest = r.remaining();
  if (row_len > rest / kF / 2) return fail("row length exceeds the input", r.offset());
  const std::uint64_t after_rows = rest - 2 * row_len * kF;
  if (path_len > 64) return fail("Merkle path length " + std::to_string(path_len), r.offset());
  if (height > after_rows / kF) return fail("column height exceeds the input", r.offset());
  const std::uint64_t per_column = 8 + (height + path_len) * kF;
  if (num_columns > after_rows / per_column)
    return fail("column count exceeds the input", r.offset());
  if (num_columns * per_column != after_rows)
    return fail(std::to_string(after_rows) + " bytes after the rows, header implies " +
                    std::to_string(num_columns * per_column),
                r.offset());

  bool canonical = true;
  auto read_frs = [&](std::vector<Fr>& v, std::uint64_t n) {
    v.resize(n);
    for (auto& x : v) {
      if (!r.fr(x, canonical)) return false;  // unreachable after the length checks
      if (!canonical) return false;
    }
    return true;
  };
  if (!read_frs(out.eval_row, row_len)) return fail("non-canonical field element", r.offset());
  if (!read_frs(out.proximity_row, row_len)) return fail("non-canonical field element", r.offset());
  out.columns.resize(num_columns);
  for (auto& c : out.columns) {
    if (!r.u64(c.index)) return fail("truncated column", r.offset());
    if (!read_frs(c.values, height)) return fail("non-canonical field element", r.offset());
    c.path.resize(path_len);
    for (auto& d : c.path)
      if (!r.raw(d.data(), d.size())) return fail("truncated path", r.offset());
  }
  if (r.remaining() != 0) return fail("trailing bytes", r.offset());
  return jolt::Status::success();
}

}  // namespace jolt::prover::pcs
