#include <jolt/prover/lookups/instruction_tables.hpp>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace jolt::prover::lookups {

namespace {

unsigned log2_exact(unsigned w) {
  return static_cast<unsigned>(std::countr_zero(w));
}

std::uint64_t word_mask(unsigned w) {
  return (std::uint64_t{1} << w) - 1;
}

std::uint64_t pext(std::uint64_t x, std::uint64_t y, unsigned w) {
  std::uint64_t out = 0;
  for (unsigned i = w; i-- > 0;)
    if ((y >> i) & 1) out = (out << 1) | ((x >> i) & 1);
  return out;
}

std::int64_t as_signed(std::uint64_t x, unsigned w) {
  return static_cast<std::int64_t>(x) - static_cast<std::int64_t>(((x >> (w - 1)) & 1) << w);
}

// Pow2's per-bit factor: key bit `pos` contributes 2^(2^pos) to 2^(k mod W) when it is one of
// the low log2(W) bits.
std::int64_t pow2_factor(unsigned pos, unsigned bit, unsigned w) {
  if (bit == 0 || pos >= log2_exact(w)) return 1;
  return std::int64_t{1} << (1u << pos);
}

}  // namespace

std::string_view table_name(LookupTable t) {
  switch (t) {
    case LookupTable::RangeCheck:
      return "RangeCheck";
    case LookupTable::RangeCheckAligned:
      return "RangeCheckAligned";
    case LookupTable::UpperWord:
      return "UpperWord";
    case LookupTable::And:
      return "And";
    case LookupTable::Or:
      return "Or";
    case LookupTable::Xor:
      return "Xor";
    case LookupTable::Equal:
      return "Equal";
    case LookupTable::NotEqual:
      return "NotEqual";
    case LookupTable::LessThan:
      return "LessThan";
    case LookupTable::LessThanUnsigned:
      return "LessThanUnsigned";
    case LookupTable::GreaterEqual:
      return "GreaterEqual";
    case LookupTable::GreaterEqualUnsigned:
      return "GreaterEqualUnsigned";
    case LookupTable::Pow2:
      return "Pow2";
    case LookupTable::ShiftRightBitmask:
      return "ShiftRightBitmask";
    case LookupTable::VirtualSRL:
      return "VirtualSRL";
    case LookupTable::VirtualSRA:
      return "VirtualSRA";
    case LookupTable::ValidDiv0:
      return "ValidDiv0";
    case LookupTable::ValidUnsignedRemainder:
      return "ValidUnsignedRemainder";
    case LookupTable::MulUNoOverflow:
      return "MulUNoOverflow";
    case LookupTable::LeftOperand:
      return "LeftOperand";
    case LookupTable::RightOperand:
      return "RightOperand";
    case LookupTable::Identity:
      return "Identity";
  }
  return "?";
}

bool takes_operand_pair(LookupTable t) {
  switch (t) {
    case LookupTable::RangeCheck:
    case LookupTable::RangeCheckAligned:
    case LookupTable::UpperWord:
    case LookupTable::Pow2:
    case LookupTable::ShiftRightBitmask:
    case LookupTable::MulUNoOverflow:
    case LookupTable::Identity:
      return false;
    default:
      return true;
  }
}

bool needs_power_of_two_width(LookupTable t) {
  return t == LookupTable::Pow2 || t == LookupTable::ShiftRightBitmask;
}

std::uint64_t interleave(std::uint32_t x, std::uint32_t y) {
  std::uint64_t k = 0;
  for (unsigned i = 0; i < 32; ++i) {
    k |= static_cast<std::uint64_t>((x >> i) & 1) << (2 * i + 1);
    k |= static_cast<std::uint64_t>((y >> i) & 1) << (2 * i);
  }
  return k;
}

std::uint32_t left_of(std::uint64_t key) {
  std::uint32_t x = 0;
  for (unsigned i = 0; i < 32; ++i) x |= static_cast<std::uint32_t>((key >> (2 * i + 1)) & 1) << i;
  return x;
}

std::uint32_t right_of(std::uint64_t key) {
  std::uint32_t y = 0;
  for (unsigned i = 0; i < 32; ++i) y |= static_cast<std::uint32_t>((key >> (2 * i)) & 1) << i;
  return y;
}

std::uint64_t table_value(LookupTable t, unsigned w, std::uint64_t key) {
  const std::uint64_t mask = word_mask(w);
  const std::uint64_t x = left_of(key), y = right_of(key);
  switch (t) {
    case LookupTable::RangeCheck:
      return key & mask;
    case LookupTable::RangeCheckAligned:
      return key & mask & ~std::uint64_t{1};
    case LookupTable::UpperWord:
      return key >> w;
    case LookupTable::And:
      return x & y;
    case LookupTable::Or:
      return x | y;
    case LookupTable::Xor:
      return x ^ y;
    case LookupTable::Equal:
      return x == y;
    case LookupTable::NotEqual:
      return x != y;
    case LookupTable::LessThan:
      return as_signed(x, w) < as_signed(y, w);
    case LookupTable::LessThanUnsigned:
      return x < y;
    case LookupTable::GreaterEqual:
      return as_signed(x, w) >= as_signed(y, w);
    case LookupTable::GreaterEqualUnsigned:
      return x >= y;
    case LookupTable::Pow2:
      return std::uint64_t{1} << (key % w);
    case LookupTable::ShiftRightBitmask:
      return (std::uint64_t{1} << w) - (std::uint64_t{1} << (key % w));
    case LookupTable::VirtualSRL:
      return pext(x, y, w);
    case LookupTable::VirtualSRA:
      return pext(x, y, w) + ((x >> (w - 1)) & 1) *
                                 ((std::uint64_t{1} << w) - (std::uint64_t{1} << std::popcount(y)));
    case LookupTable::ValidDiv0:
      return x != 0 || y == mask;
    case LookupTable::ValidUnsignedRemainder:
      return y == 0 || x < y;
    case LookupTable::MulUNoOverflow:
      return (key >> w) == 0;
    case LookupTable::LeftOperand:
      return x;
    case LookupTable::RightOperand:
      return y;
    case LookupTable::Identity:
      return key;
  }
  throw std::logic_error("table_value: unknown table");
}

TableSpec TableSpec::make(LookupTable t, unsigned w) {
  if (w < 2 || w > 32 || w % 2 != 0)
    throw std::invalid_argument("TableSpec: word width " + std::to_string(w) +
                                " is not an even number in [2, 32]");
  if (needs_power_of_two_width(t) && !std::has_single_bit(w))
    throw std::invalid_argument(std::string("TableSpec: ") + std::string(table_name(t)) +
                                " needs a power-of-two word width, not " + std::to_string(w));
  TableSpec s;
  s.table_ = t;
  s.word_bits_ = w;
  s.steps_.resize(w);
  const std::int64_t two_w = std::int64_t{1} << w;
  auto set_shape = [&](std::size_t m, std::array<std::int64_t, kMaxStates> init,
                       std::array<std::int64_t, kMaxStates> out) {
    s.m_ = m;
    s.init_ = init;
    s.out_ = out;
  };
  switch (t) {
    case LookupTable::Equal:
    case LookupTable::Pow2:
    case LookupTable::MulUNoOverflow:
      set_shape(1, {1}, {1});
      break;
    case LookupTable::NotEqual:
      set_shape(2, {1, 1}, {-1, 1});
      break;
    case LookupTable::LessThan:
    case LookupTable::LessThanUnsigned:
      set_shape(2, {0, 1}, {1, 0});
      break;
    case LookupTable::GreaterEqual:
    case LookupTable::GreaterEqualUnsigned:
      set_shape(3, {0, 1, 1}, {-1, 0, 1});
      break;
    case LookupTable::ShiftRightBitmask:
      set_shape(2, {1, 1}, {-1, two_w});
      break;
    case LookupTable::VirtualSRA:
      set_shape(5, {0, 1, 0, 0, 1}, {1, 0, -1, two_w, 0});
      break;
    case LookupTable::ValidDiv0:
      set_shape(3, {1, 1, 1}, {-1, 1, 1});
      break;
    case LookupTable::ValidUnsignedRemainder:
      set_shape(3, {0, 1, 1}, {1, 0, 1});
      break;
    default:
      set_shape(2, {0, 1}, {1, 0});
      break;  // (accumulator, 1)
  }
  for (unsigned i = 0; i < w; ++i) {
    const bool msb = i == w - 1;
    const bool low_half = i < w / 2;
    for (unsigned a = 0; a < 2; ++a)
      for (unsigned b = 0; b < 2; ++b) {
        StateMatrix m{};
        const std::int64_t A = a, B = b, same = a == b;
        // Accumulator shapes: acc' = mul·acc + add·1 (state 1 is the constant).
        auto acc = [&](std::int64_t mul, std::int64_t add) {
          m[0][0] = mul;
          m[0][1] = add;
          m[1][1] = 1;
        };
        switch (t) {
          case LookupTable::RangeCheck:
            low_half ? acc(4, 2 * A + B) : acc(1, 0);
            break;
          case LookupTable::RangeCheckAligned:  // key bit 0 (pair 0's b) dropped
            low_half ? acc(4, 2 * A + (i == 0 ? 0 : B)) : acc(1, 0);
            break;
          case LookupTable::UpperWord:
            low_half ? acc(1, 0) : acc(4, 2 * A + B);
            break;
          case LookupTable::And:
            acc(2, A & B);
            break;
          case LookupTable::Or:
            acc(2, A | B);
            break;
          case LookupTable::Xor:
            acc(2, A ^ B);
            break;
          case LookupTable::LeftOperand:
            acc(2, A);
            break;
          case LookupTable::RightOperand:
            acc(2, B);
            break;
          case LookupTable::Identity:
            acc(4, 2 * A + B);
            break;
          case LookupTable::VirtualSRL:
            acc(1 + B, A * B);
            break;
          case LookupTable::Equal:
            m[0][0] = same;
            break;
          case LookupTable::NotEqual:
            m[0][0] = same;
            m[1][1] = 1;
            break;
          case LookupTable::LessThan:
          case LookupTable::LessThanUnsigned:
          case LookupTable::GreaterEqual:
          case LookupTable::GreaterEqualUnsigned: {
            // (lt, eq[, 1]): below the sign pair x < y at the first differing pair from the top
            // is (1 − a)·b; at the sign pair of a signed comparison it is a·(1 − b).
            const bool sign_pair =
                msb && (t == LookupTable::LessThan || t == LookupTable::GreaterEqual);
            m[0][0] = 1;
            m[0][1] = sign_pair ? A * (1 - B) : (1 - A) * B;
            m[1][1] = same;
            if (s.m_ == 3) m[2][2] = 1;
            break;
          }
          case LookupTable::Pow2:
            m[0][0] = pow2_factor(2 * i + 1, a, w) * pow2_factor(2 * i, b, w);
            break;
          case LookupTable::ShiftRightBitmask:
            m[0][0] = pow2_factor(2 * i + 1, a, w) * pow2_factor(2 * i, b, w);
            m[1][1] = 1;
            break;
          case LookupTable::VirtualSRA:
            // (acc, pw = 2^popcount so far, spw = sign·pw, sign, 1)
            m[0][0] = 1 + B;
            m[0][4] = A * B;
            m[1][1] = 1 + B;
            m[2][2] = 1 + B;
            if (msb) {
              m[2][1] = A * (1 + B);
              m[3][4] = A;
            }
            m[3][3] = 1;
            m[4][4] = 1;
            break;
          case LookupTable::ValidDiv0:  // (x == 0 so far, x == 0 and y all ones so far, 1)
            m[0][0] = 1 - A;
            m[1][1] = (1 - A) * B;
            m[2][2] = 1;
            break;
          case LookupTable::ValidUnsignedRemainder:  // (lt, eq, y == 0 so far)
            m[0][0] = 1;
            m[0][1] = (1 - A) * B;
            m[1][1] = same;
            m[2][2] = 1 - B;
            break;
          case LookupTable::MulUNoOverflow:
            m[0][0] = low_half ? 1 : (1 - A) * (1 - B);
            break;
        }
        s.steps_[i][2 * a + b] = m;
      }
  }
  // Byte blocks for suffix(): pairs 4q .. 4q + 3 with the key byte y (pair 4q + p's bits are y's
  // bits 2p + 1 and 2p), the product in the order the suffix applies them.
  const std::size_t m = s.m_;
  s.byte_steps_.assign(std::size_t{w / 4} * 256 * m * m, 0);
  for (unsigned q = 0; q < w / 4; ++q)
    for (unsigned y = 0; y < 256; ++y) {
      std::uint64_t* blk = s.byte_steps_.data() + (std::size_t{q} * 256 + y) * m * m;
      for (std::size_t r = 0; r < m; ++r) blk[r * m + r] = 1;
      for (unsigned p = 0; p < 4; ++p) {
        const StateMatrix& st = s.step(4 * q + p, (y >> (2 * p + 1)) & 1, (y >> (2 * p)) & 1);
        std::array<std::uint64_t, kMaxStates * kMaxStates> prod{};
        for (std::size_t r = 0; r < m; ++r)
          for (std::size_t k = 0; k < m; ++k)
            for (std::size_t c = 0; c < m; ++c)
              prod[r * m + c] += blk[r * m + k] * static_cast<std::uint64_t>(st[k][c]);
        std::copy_n(prod.data(), m * m, blk);
      }
    }
  return s;
}

std::int64_t TableSpec::evaluate_key(std::uint64_t key) const {
  // Wrapping arithmetic: every table's value lies in [0, 2^64), so the result mod 2^64 is exact.
  std::array<std::uint64_t, kMaxStates> s{};
  for (std::size_t r = 0; r < m_; ++r) s[r] = static_cast<std::uint64_t>(init_[r]);
  for (unsigned i = word_bits_; i-- > 0;) {
    const StateMatrix& m = step(i, (key >> (2 * i + 1)) & 1, (key >> (2 * i)) & 1);
    std::array<std::uint64_t, kMaxStates> n{};
    for (std::size_t r = 0; r < m_; ++r)
      for (std::size_t c = 0; c < m_; ++c) n[r] += static_cast<std::uint64_t>(m[r][c]) * s[c];
    s = n;
  }
  std::uint64_t v = 0;
  for (std::size_t r = 0; r < m_; ++r) v += static_cast<std::uint64_t>(out_[r]) * s[r];
  return static_cast<std::int64_t>(v);
}

void TableSpec::advance_state(std::span<Fr> state, unsigned first_pair,
                              std::span<const Fr> bits) const {
  const std::size_t n = bits.size() / 2;
  std::array<Fr, kMaxStates> next;
  for (std::size_t p = 0; p < n; ++p) {
    const unsigned i = first_pair - static_cast<unsigned>(p);
    const Fr& a = bits[2 * p];
    const Fr& b = bits[2 * p + 1];
    const Fr ab = a * b;
    // Bilinear weights of (0,0), (0,1), (1,0), (1,1).
    const std::array<Fr, 4> wt = {Fr::one() - a - b + ab, b - ab, a - ab, ab};
    for (std::size_t r = 0; r < m_; ++r) {
      Fr acc;
      for (std::size_t c = 0; c < m_; ++c) {
        if (state[c].is_zero()) continue;
        std::int64_t e[4];
        bool any = false;
        for (unsigned q = 0; q < 4; ++q) {
          e[q] = steps_[i][q][r][c];
          any |= e[q] != 0;
        }
        if (!any) continue;
        Fr entry;
        for (unsigned q = 0; q < 4; ++q)
          if (e[q] != 0) entry += wt[q] * Fr::from_i64(e[q]);
        acc += entry * state[c];
      }
      next[r] = acc;
    }
    for (std::size_t r = 0; r < m_; ++r) state[r] = next[r];
  }
}

void TableSpec::advance_state_bits(std::span<Fr> state, unsigned first_pair, unsigned n_pairs,
                                   std::uint64_t chunk) const {
  std::array<Fr, kMaxStates> next;
  for (unsigned p = 0; p < n_pairs; ++p) {
    const unsigned shift = 2 * (n_pairs - 1 - p);
    const StateMatrix& m = step(first_pair - p, (chunk >> (shift + 1)) & 1, (chunk >> shift) & 1);
    for (std::size_t r = 0; r < m_; ++r) {
      Fr acc;
      for (std::size_t c = 0; c < m_; ++c) {
        const std::int64_t e = m[r][c];
        if (e == 0 || state[c].is_zero()) continue;
        acc += e == 1 ? state[c] : e == 2 ? state[c].dbl() : state[c] * Fr::from_i64(e);
      }
      next[r] = acc;
    }
    for (std::size_t r = 0; r < m_; ++r) state[r] = next[r];
  }
}

void TableSpec::suffix(std::uint64_t key, unsigned n_pairs, std::span<std::int64_t> s) const {
  const std::size_t m = m_;
  std::array<std::uint64_t, kMaxStates> v{};
  for (std::size_t c = 0; c < m; ++c) v[c] = static_cast<std::uint64_t>(out_[c]);
  unsigned i = 0;
  for (; i + 4 <= n_pairs; i += 4) {
    const std::uint64_t* b =
        byte_steps_.data() + ((i / 4) * 256 + ((key >> (2 * i)) & 0xff)) * m * m;
    std::array<std::uint64_t, kMaxStates> n{};
    for (std::size_t r = 0; r < m; ++r)
      if (v[r] != 0)
        for (std::size_t c = 0; c < m; ++c) n[c] += v[r] * b[r * m + c];
    v = n;
  }
  apply_pairs(v, key, i, n_pairs);
  for (std::size_t c = 0; c < m; ++c) s[c] = static_cast<std::int64_t>(v[c]);
}

void TableSpec::apply_pairs(std::array<std::uint64_t, kMaxStates>& v, std::uint64_t key,
                            unsigned from, unsigned to) const {
  for (unsigned i = from; i < to; ++i) {
    const StateMatrix& st = step(i, (key >> (2 * i + 1)) & 1, (key >> (2 * i)) & 1);
    std::array<std::uint64_t, kMaxStates> n{};
    for (std::size_t c = 0; c < m_; ++c)
      for (std::size_t r = 0; r < m_; ++r) n[c] += v[r] * static_cast<std::uint64_t>(st[r][c]);
    v = n;
  }
}

void TableSpec::suffix_by_pairs(std::uint64_t key, unsigned n_pairs,
                                std::span<std::int64_t> s) const {
  // Mod 2^64 as suffix(): exact wherever the suffix fits in 64 bits (the read-raf's pair counts),
  // and defined for every pair count.
  std::array<std::uint64_t, kMaxStates> v{};
  for (std::size_t c = 0; c < m_; ++c) v[c] = static_cast<std::uint64_t>(out_[c]);
  apply_pairs(v, key, 0, n_pairs);
  for (std::size_t c = 0; c < m_; ++c) s[c] = static_cast<std::int64_t>(v[c]);
}

Fr TableSpec::evaluate_mle(std::span<const Fr> point) const {
  if (point.size() != 2 * static_cast<std::size_t>(word_bits_))
    throw std::invalid_argument("TableSpec::evaluate_mle: point has " +
                                std::to_string(point.size()) + " coordinates, the key " +
                                std::to_string(2 * word_bits_));
  std::array<Fr, kMaxStates> state;
  for (std::size_t r = 0; r < m_; ++r) state[r] = Fr::from_i64(init_[r]);
  advance_state(std::span<Fr>(state.data(), m_), word_bits_ - 1, point);
  Fr v;
  for (std::size_t r = 0; r < m_; ++r)
    if (out_[r] != 0) v += state[r] * Fr::from_i64(out_[r]);
  return v;
}

}  // namespace jolt::prover::lookups
