// encode_pprof and gzip_compress (pprof.hpp): a minimal protobuf writer for the Profile message.
#include <zlib.h>

#include <map>
#include <stdexcept>
#include <unordered_map>

#include "jolt/cpu_profile/pprof.hpp"

namespace jolt::cpu_profile {
namespace {

// Field numbers of profile.proto (tests/cpu_profile/profile.proto).
namespace field {
constexpr int kSampleType = 1, kSample = 2, kMapping = 3, kLocation = 4, kFunction = 5,
              kStringTable = 6, kTimeNanos = 9, kDurationNanos = 10, kPeriodType = 11, kPeriod = 12,
              kComment = 13, kDefaultSampleType = 14;
constexpr int kValueTypeType = 1, kValueTypeUnit = 2;
constexpr int kSampleLocationId = 1, kSampleValue = 2, kSampleLabel = 3;
constexpr int kLabelKey = 1, kLabelNum = 3;
constexpr int kMappingId = 1, kMappingStart = 2, kMappingLimit = 3, kMappingOffset = 4,
              kMappingFilename = 5, kMappingBuildId = 6, kMappingHasFunctions = 7;
constexpr int kLocationId = 1, kLocationMappingId = 2, kLocationAddress = 3, kLocationLine = 4;
constexpr int kLineFunctionId = 1;
constexpr int kFunctionId = 1, kFunctionName = 2, kFunctionSystemName = 3;
}  // namespace field

class Message {
 public:
  void uint(int number, std::uint64_t value) {
    key(number, 0);
    varint(value);
  }
  void sint(int number, std::int64_t value) { uint(number, static_cast<std::uint64_t>(value)); }
  void bytes(int number, std::string_view data) {
    key(number, 2);
    varint(data.size());
    out_.append(data);
  }
  void message(int number, const Message& m) { bytes(number, m.out_); }
  void packed(int number, const std::vector<std::uint64_t>& values) {
    Message body;
    for (std::uint64_t v : values) body.varint(v);
    bytes(number, body.out_);
  }
  const std::string& data() const { return out_; }

 private:
  void key(int number, int wire_type) {
    varint((static_cast<std::uint64_t>(number) << 3) | static_cast<std::uint64_t>(wire_type));
  }
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  std::string out_;
};

class StringTable {
 public:
  StringTable() { index(""); }
  std::int64_t index(const std::string& s) {
    auto [it, added] = ids_.emplace(s, static_cast<std::int64_t>(strings_.size()));
    if (added) strings_.push_back(s);
    return it->second;
  }
  const std::vector<std::string>& strings() const { return strings_; }

 private:
  std::unordered_map<std::string, std::int64_t> ids_;
  std::vector<std::string> strings_;
};

Message value_type(StringTable& strings, const std::string& type, const std::string& unit) {
  Message m;
  m.sint(field::kValueTypeType, strings.index(type));
  m.sint(field::kValueTypeUnit, strings.index(unit));
  return m;
}

}  // namespace

std::string encode_pprof(const std::vector<const RawSample*>& samples, Symbolizer& symbols,
                         const ProfileSpec& spec) {
  StringTable strings;
  Message profile;
  profile.message(field::kSampleType, value_type(strings, "samples", "count"));
  profile.message(field::kSampleType, value_type(strings, "cpu", "nanoseconds"));

  // Locations (one per address) and functions (one per name), numbered from 1.
  std::map<std::uintptr_t, std::uint64_t> location_ids;
  std::map<std::pair<std::string, std::string>, std::uint64_t> function_ids;
  std::vector<Message> locations, functions;
  std::map<int, bool> used_segments;
  const auto location_of = [&](std::uintptr_t pc) {
    if (auto it = location_ids.find(pc); it != location_ids.end()) return it->second;
    const Symbolizer::Resolved& r = symbols.resolve(pc);
    const auto key = std::make_pair(r.name, r.system_name);
    auto fit = function_ids.find(key);
    if (fit == function_ids.end()) {
      const std::uint64_t id = function_ids.size() + 1;
      Message f;
      f.uint(field::kFunctionId, id);
      f.sint(field::kFunctionName, strings.index(r.name));
      f.sint(field::kFunctionSystemName, strings.index(r.system_name));
      functions.push_back(std::move(f));
      fit = function_ids.emplace(key, id).first;
    }
    const std::uint64_t id = location_ids.size() + 1;
    Message line;
    line.uint(field::kLineFunctionId, fit->second);
    Message loc;
    loc.uint(field::kLocationId, id);
    if (r.segment >= 0) {
      loc.uint(field::kLocationMappingId, static_cast<std::uint64_t>(r.segment) + 1);
      used_segments[r.segment] = true;
    }
    loc.uint(field::kLocationAddress, pc);
    loc.message(field::kLocationLine, line);
    locations.push_back(std::move(loc));
    location_ids.emplace(pc, id);
    return id;
  };

  // Identical stacks of one thread are one Sample with the summed count.
  std::map<std::pair<std::uint32_t, std::vector<std::uint64_t>>, std::uint64_t> counts;
  for (const RawSample* s : samples) {
    std::vector<std::uint64_t> stack;
    stack.reserve(s->pcs.size());
    for (std::uintptr_t pc : s->pcs) stack.push_back(location_of(pc));
    ++counts[{s->tid, std::move(stack)}];
  }
  const std::int64_t tid_key = strings.index("tid");
  for (const auto& [key, count] : counts) {
    Message sample;
    sample.packed(field::kSampleLocationId, key.second);
    sample.packed(field::kSampleValue, {count, count * spec.period_ns});
    Message label;
    label.sint(field::kLabelKey, tid_key);
    label.uint(field::kLabelNum, key.first);
    sample.message(field::kSampleLabel, label);
    profile.message(field::kSample, sample);
  }
  // Every executable segment is a Mapping (ids = segment index + 1, as the locations use).
  for (std::size_t i = 0; i < symbols.segments().size(); ++i) {
    const Symbolizer::Segment& seg = symbols.segments()[i];
    const Symbolizer::Module& mod = symbols.modules()[seg.module];
    Message m;
    m.uint(field::kMappingId, i + 1);
    m.uint(field::kMappingStart, seg.start);
    m.uint(field::kMappingLimit, seg.limit);
    m.uint(field::kMappingOffset, seg.file_offset);
    m.sint(field::kMappingFilename, strings.index(mod.path));
    m.sint(field::kMappingBuildId, strings.index(mod.build_id));
    m.uint(field::kMappingHasFunctions, 1);
    profile.message(field::kMapping, m);
  }
  for (const Message& l : locations) profile.message(field::kLocation, l);
  for (const Message& f : functions) profile.message(field::kFunction, f);
  profile.sint(field::kTimeNanos, spec.time_unix_ns);
  profile.sint(field::kDurationNanos, static_cast<std::int64_t>(spec.duration_ns));
  profile.message(field::kPeriodType, value_type(strings, "cpu", "nanoseconds"));
  profile.sint(field::kPeriod, static_cast<std::int64_t>(spec.period_ns));
  for (const std::string& c : spec.comments) profile.sint(field::kComment, strings.index(c));
  profile.sint(field::kDefaultSampleType, strings.index("cpu"));
  // The string table last: every index above is final by now.
  for (const std::string& s : strings.strings()) profile.bytes(field::kStringTable, s);
  return profile.data();
}

std::string gzip_compress(std::string_view data) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("gzip: deflateInit2 failed");
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  const std::size_t written = z.total_out;
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("gzip: deflate did not finish");
  out.resize(written);
  return out;
}

}  // namespace jolt::cpu_profile
