// The one byte codec of every proof encoding (the pipeline proof, each commitment scheme's
// opening): little-endian integers, canonical 32-byte field elements, length-checked reads.
//
//   ByteWriter w;
//   w.u32(7);
//   w.frs(values);                                  // no count: the layout says how many
//   std::vector<std::uint8_t> bytes = w.take();
//
//   ByteReader r(bytes);
//   std::uint32_t n = r.u32();
//   std::vector<Fr> v = r.frs(n);                   // checks n·32 bytes remain before allocating
//   if (auto e = r.finish()) return e;              // first failure, or trailing bytes
//
// A ByteReader never throws and never reads out of bounds: the first failure is kept
// ("decode.truncated", "decode.non_canonical" or "decode.trailing", with the section being read
// and the byte offset), every later read returns zeros, and error()/finish() report it. These are
// memory-safety checks of the codec, always on; the format's own checks (magic, version, header
// fields) are JOLT_VERIFY checks of the decoder that uses the reader.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/verify_error.hpp>

namespace jolt::prover {

class ByteWriter {
 public:
  ByteWriter() = default;
  explicit ByteWriter(std::size_t reserve) { out_.reserve(reserve); }
  void u8(std::uint8_t v) { out_.push_back(v); }
  void u16(std::uint16_t v) { le(v, 2); }
  void u32(std::uint32_t v) { le(v, 4); }
  void u64(std::uint64_t v) { le(v, 8); }
  void raw(std::span<const std::uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void fr(const Fr& v) {
    const auto b = v.to_bytes();
    out_.insert(out_.end(), b.begin(), b.end());
  }
  void frs(std::span<const Fr> v) {
    for (const Fr& x : v) fr(x);
  }
  std::size_t size() const { return out_.size(); }
  std::vector<std::uint8_t> take() { return std::move(out_); }

 private:
  void le(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  std::vector<std::uint8_t> out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> in) : in_(in) {}

  // Names the part being read in error messages, e.g. "stage1.sumcheck".
  void section(const char* name) { section_ = name; }
  bool ok() const { return !error_.has_value(); }
  std::size_t offset() const { return pos_; }
  std::size_t remaining() const { return in_.size() - pos_; }
  const std::optional<VerifyError>& error() const { return error_; }

  std::uint8_t u8() { return static_cast<std::uint8_t>(le(1)); }
  std::uint16_t u16() { return static_cast<std::uint16_t>(le(2)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(le(4)); }
  std::uint64_t u64() { return le(8); }

  // Copies n bytes into out (zeros on failure).
  void raw(std::span<std::uint8_t> out) {
    if (!need(out.size())) {
      std::fill(out.begin(), out.end(), std::uint8_t{0});
      return;
    }
    std::copy(in_.begin() + static_cast<std::ptrdiff_t>(pos_),
              in_.begin() + static_cast<std::ptrdiff_t>(pos_ + out.size()), out.begin());
    pos_ += out.size();
  }
  std::vector<std::uint8_t> bytes(std::uint64_t n) {
    if (!need_elements(n, 1)) return {};
    std::vector<std::uint8_t> v(n);
    raw(v);
    return v;
  }
  Fr fr() {
    if (!need(Fr::kBytes)) return Fr::zero();
    const auto f = Fr::from_bytes(in_.subspan(pos_, Fr::kBytes));
    if (!f) {
      fail("decode.non_canonical", "field element >= r");
      return Fr::zero();
    }
    pos_ += Fr::kBytes;
    return *f;
  }
  // n field elements; checks that n·32 bytes remain before allocating (a corrupt count cannot
  // request huge memory).
  std::vector<Fr> frs(std::uint64_t n) {
    if (!need_elements(n, Fr::kBytes)) return {};
    std::vector<Fr> v;
    v.reserve(static_cast<std::size_t>(n));
    for (std::uint64_t i = 0; i < n && ok(); ++i) v.push_back(fr());
    return v;
  }
  // True if n elements of elem_bytes each can still be read (no overflow); records a failure
  // otherwise.
  bool need_elements(std::uint64_t n, std::uint64_t elem_bytes) {
    if (!ok()) return false;
    if (elem_bytes != 0 && n > remaining() / elem_bytes) {
      fail("decode.truncated", "count " + std::to_string(n) + " needs more than the " +
                                   std::to_string(remaining()) + " bytes left");
      return false;
    }
    return true;
  }

  // The first failure, or "decode.trailing" if bytes are left over.
  std::optional<VerifyError> finish() {
    if (ok() && remaining() != 0)
      fail("decode.trailing", std::to_string(remaining()) + " bytes after the last field");
    return error_;
  }

  // Records a failure (the first one wins).
  void fail(const char* check, const std::string& what) {
    if (error_) return;
    error_ = VerifyError{check, what + " in " + section_ + " at byte " + std::to_string(pos_)};
  }

 private:
  bool need(std::size_t n) {
    if (!ok()) return false;
    if (n > remaining()) {
      fail("decode.truncated", "truncated (" + std::to_string(n) + " bytes needed, " +
                                   std::to_string(remaining()) + " left)");
      return false;
    }
    return true;
  }
  std::uint64_t le(std::size_t n) {
    if (!need(n)) return 0;
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(in_[pos_ + i]) << (8 * i);
    pos_ += n;
    return v;
  }

  std::span<const std::uint8_t> in_;
  std::size_t pos_ = 0;
  const char* section_ = "header";
  std::optional<VerifyError> error_;
};

}  // namespace jolt::prover
