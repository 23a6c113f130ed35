// Encoding and decoding of the proof-file envelope (layout in proof_file.hpp).
#include "jolt/host/proof_file.hpp"

#include <algorithm>
#include <boost/filesystem.hpp>
#include <fstream>
#include <iterator>
#include <new>

#include "jolt/host/job.hpp"

namespace jolt::host {
namespace {

template <class T>
void put_le(std::vector<std::uint8_t>& out, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> (8 * i)));
}

void put_bytes(std::vector<std::uint8_t>& out, const void* data, std::size_t n) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  out.insert(out.end(), p, p + n);
}

// A cursor over the envelope; each read names the field it is reading when the bytes run out.
class Reader {
 public:
  Reader(std::span<const std::uint8_t> bytes, std::size_t at) : bytes_(bytes), at_(at) {}

  template <class T>
  bool le(T& v, const char* field) {
    if (!need(sizeof(T), field)) return false;
    std::uint64_t x = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
      x |= static_cast<std::uint64_t>(bytes_[at_ + i]) << (8 * i);
    v = static_cast<T>(x);
    at_ += sizeof(T);
    return true;
  }

  // A length-prefixed field whose prefix is an integer of type L.
  template <class L>
  bool field(std::span<const std::uint8_t>& v, const char* field) {
    L n = 0;
    if (!le(n, field) || !need(n, field)) return false;
    v = bytes_.subspan(at_, static_cast<std::size_t>(n));
    at_ += static_cast<std::size_t>(n);
    return true;
  }

  std::size_t remaining() const { return bytes_.size() - at_; }
  const std::string& error() const { return error_; }

 private:
  bool need(std::uint64_t n, const char* field) {
    if (n <= remaining()) return true;
    error_ = std::string("truncated in the ") + field + " field (needs " + std::to_string(n) +
             " bytes at offset " + std::to_string(at_) + ", the file has " +
             std::to_string(bytes_.size()) + ")";
    return false;
  }

  std::span<const std::uint8_t> bytes_;
  std::size_t at_;
  std::string error_;
};

ProofFileResult failure(std::string message) {
  ProofFileResult r;
  r.error = std::move(message);
  return r;
}

}  // namespace

std::vector<std::uint8_t> encode_proof_file(const ProofFile& file) {
  std::vector<std::uint8_t> out;
  out.reserve(kProofFileMagic.size() + 2 + 4 + file.workload.size() + 4 + 8 + 8 +
              file.output.size() + 8 + file.proof.size());
  put_bytes(out, kProofFileMagic.data(), kProofFileMagic.size());
  put_le<std::uint16_t>(out, kProofFileVersion);
  put_le<std::uint32_t>(out, static_cast<std::uint32_t>(file.workload.size()));
  put_bytes(out, file.workload.data(), file.workload.size());
  put_le<std::uint32_t>(out, file.scale);
  put_le<std::uint64_t>(out, file.trace_length);
  put_le<std::uint64_t>(out, file.output.size());
  put_bytes(out, file.output.data(), file.output.size());
  put_le<std::uint64_t>(out, file.proof.size());
  put_bytes(out, file.proof.data(), file.proof.size());
  return out;
}

ProofFileResult decode_proof_file(std::span<const std::uint8_t> bytes) noexcept {
  try {
    if (bytes.size() < kProofFileMagic.size() ||
        !std::equal(kProofFileMagic.begin(), kProofFileMagic.end(), bytes.begin()))
      return failure("not a jolt-run proof file (bad magic: it does not start with \"" +
                     std::string(kProofFileMagic) +
                     "\"; files from before proof file format 1 held bare proofs: prove again)");
    Reader in(bytes, kProofFileMagic.size());
    std::uint16_t version = 0;
    if (!in.le(version, "version")) return failure(in.error());
    if (version != kProofFileVersion)
      return failure("file format version " + std::to_string(version) + ", this jolt-run reads " +
                     std::to_string(kProofFileVersion) +
                     " (prove again with this jolt-run, or verify with the one that wrote it)");
    ProofFile f;
    std::span<const std::uint8_t> workload, output, proof;
    if (!in.field<std::uint32_t>(workload, "workload") || !in.le(f.scale, "scale") ||
        !in.le(f.trace_length, "trace length") || !in.field<std::uint64_t>(output, "output") ||
        !in.field<std::uint64_t>(proof, "proof"))
      return failure(in.error());
    if (in.remaining() != 0)
      return failure(std::to_string(in.remaining()) +
                     " unexpected bytes after the proof field (a corrupt or concatenated file)");
    // A proof file names a workload (a plugin's name, or an ELF file's stem: text without
    // control characters) and a scale jolt-run can prove: anything else is a damaged header,
    // reported as such rather than echoed back.
    if (workload.empty() || std::any_of(workload.begin(), workload.end(),
                                        [](std::uint8_t c) { return c < 0x20 || c == 0x7f; }))
      return failure("corrupt header: the workload name is empty or holds control characters");
    if (f.scale < 1 || f.scale > kMaxScale)
      return failure("corrupt header: scale " + std::to_string(f.scale) +
                     " is outside 1..=" + std::to_string(kMaxScale));
    f.workload.assign(workload.begin(), workload.end());
    f.output.assign(output.begin(), output.end());
    f.proof.assign(proof.begin(), proof.end());
    ProofFileResult r;
    r.file = std::move(f);
    return r;
  } catch (const std::bad_alloc&) {
    return failure("out of memory while reading the proof file (" + std::to_string(bytes.size()) +
                   " bytes)");
  }
}

ProofFileResult read_proof_file(const std::string& path) noexcept {
  const std::string where = "proof file " + path + ": ";
  try {
    if (boost::system::error_code ec; boost::filesystem::is_directory(path, ec))
      return failure(where + "is a folder; pass the proof file `jolt-run prove --proof` wrote");
    std::ifstream in(path, std::ios::binary);
    if (!in) return failure(where + "cannot open the file (does it exist?)");
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    if (in.bad()) return failure(where + "read error");
    ProofFileResult r = decode_proof_file(bytes);
    if (!r.file) r.error = where + r.error;
    return r;
  } catch (const std::exception& e) {
    return failure(where + e.what());
  }
}

}  // namespace jolt::host
