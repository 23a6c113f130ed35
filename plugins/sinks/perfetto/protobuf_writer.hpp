// A minimal protobuf encoder: appends fields in wire format to a byte string. What Perfetto's
// trace format needs (schema/perfetto_trace_subset.proto) and nothing more: varints (wire type 0),
// fixed64 / double (wire type 1) and length-delimited bytes and nested messages (wire type 2).
//
// clang-format off
//   jolt::sinks::ProtoWriter w;
//   w.uint(8, timestamp);                          // TracePacket.timestamp
//   const auto event = w.begin_nested(11);         // TracePacket.track_event
//   w.uint(9, 1);                                  // TrackEvent.type = TYPE_SLICE_BEGIN
//   w.end_nested(event);
//   out.append(w.bytes());
// clang-format on
//
// Nested messages are written in place: begin_nested reserves one length byte and end_nested
// fills it, moving the message right by the extra bytes when its length needs more than one
// (rare for trace packets, which are mostly under 128 bytes). Not thread-safe; one writer per
// thread.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace jolt::sinks {

class ProtoWriter {
 public:
  enum WireType : std::uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2 };

  // Unsigned varint field (uint32, uint64, bool, enum).
  void uint(std::uint32_t field, std::uint64_t value) {
    tag(field, kVarint);
    varint(value);
  }
  // int32 / int64 field: two's complement as a 64-bit varint (10 bytes when negative), as the
  // protobuf encoding of int64 prescribes.
  void int64(std::uint32_t field, std::int64_t value) {
    uint(field, static_cast<std::uint64_t>(value));
  }
  void fixed64(std::uint32_t field, std::uint64_t value) {
    tag(field, kFixed64);
    for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
  void double_value(std::uint32_t field, double value) {
    std::uint64_t bits = 0;
    static_assert(sizeof bits == sizeof value);
    std::memcpy(&bits, &value, sizeof bits);
    fixed64(field, bits);
  }
  // string / bytes field.
  void string(std::uint32_t field, std::string_view value) {
    tag(field, kLengthDelimited);
    varint(value.size());
    bytes_.append(value.data(), value.size());
  }

  // A nested message: its fields go between begin_nested and end_nested.
  struct Nested {
    std::size_t length_at;  // offset of the reserved length byte
  };
  Nested begin_nested(std::uint32_t field) {
    tag(field, kLengthDelimited);
    bytes_.push_back('\0');
    return Nested{bytes_.size() - 1};
  }
  void end_nested(Nested nested) {
    const std::size_t start = nested.length_at + 1;
    const std::uint64_t length = bytes_.size() - start;
    char encoded[10];
    const std::size_t n = encode_varint(length, encoded);
    if (n > 1) bytes_.insert(start, n - 1, '\0');  // shifts the message right
    std::memcpy(&bytes_[nested.length_at], encoded, n);
  }

  const std::string& bytes() const { return bytes_; }
  std::size_t size() const { return bytes_.size(); }
  void clear() { bytes_.clear(); }

  // Writes `value` as a base-128 varint into `out` (10 bytes at most); returns the byte count.
  static std::size_t encode_varint(std::uint64_t value, char* out) {
    std::size_t n = 0;
    while (value >= 0x80) {
      out[n++] = static_cast<char>((value & 0x7f) | 0x80);
      value >>= 7;
    }
    out[n++] = static_cast<char>(value);
    return n;
  }

 private:
  void tag(std::uint32_t field, WireType type) {
    varint((static_cast<std::uint64_t>(field) << 3) | type);
  }
  void varint(std::uint64_t value) {
    char encoded[10];
    bytes_.append(encoded, encode_varint(value, encoded));
  }

  std::string bytes_;
};

}  // namespace jolt::sinks
