// Iterative radix-2 Cooley–Tukey NTT over Fr and Reed–Solomon encoding by zero-padded NTT.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include <jolt/prover/pcs/reed_solomon.hpp>

namespace jolt::prover::pcs {

NttDomain::NttDomain(unsigned log_size) : log_size_(log_size) {
  if (log_size > Fr::two_adicity())
    throw std::invalid_argument("NttDomain: 2^" + std::to_string(log_size) +
                                " exceeds the 2-adicity of Fr (28)");
  omega_ = Fr::root_of_unity(log_size);
  const std::size_t half = size() / 2;
  twiddles_.resize(half);
  inv_twiddles_.resize(half);
  const Fr omega_inv = omega_.inverse();
  Fr w = Fr::one(), wi = Fr::one();
  for (std::size_t i = 0; i < half; ++i) {
    twiddles_[i] = w;
    inv_twiddles_[i] = wi;
    w *= omega_;
    wi *= omega_inv;
  }
  size_inv_ = Fr::from_u64(size()).inverse();
}

void NttDomain::transform(std::span<Fr> v, const std::vector<Fr>& tw) const {
  const std::size_t n = size();
  if (v.size() != n)
    throw std::invalid_argument("NttDomain: buffer of " + std::to_string(v.size()) +
                                " elements, domain size " + std::to_string(n));
  // Bit-reversal permutation.
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(v[i], v[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const std::size_t half = len / 2, step = n / len;
    for (std::size_t base = 0; base < n; base += len) {
      for (std::size_t j = 0; j < half; ++j) {
        const Fr t = v[base + j + half] * tw[j * step];
        const Fr u = v[base + j];
        v[base + j] = u + t;
        v[base + j + half] = u - t;
      }
    }
  }
}

void NttDomain::forward(std::span<Fr> v) const {
  transform(v, twiddles_);
}

void NttDomain::inverse(std::span<Fr> v) const {
  transform(v, inv_twiddles_);
  for (Fr& x : v) x *= size_inv_;
}

ReedSolomonCode::ReedSolomonCode(unsigned log_message_len, unsigned log_inv_rate)
    : log_message_len_(log_message_len), domain_(log_message_len + log_inv_rate) {}

void ReedSolomonCode::encode(std::span<const Fr> msg, std::span<Fr> out) const {
  if (msg.size() != message_len() || out.size() != codeword_len())
    throw std::invalid_argument("ReedSolomonCode::encode: wrong message or codeword length");
  std::copy(msg.begin(), msg.end(), out.begin());
  std::fill(out.begin() + static_cast<std::ptrdiff_t>(msg.size()), out.end(), Fr::zero());
  domain_.forward(out);
}

std::vector<Fr> ReedSolomonCode::encode(std::span<const Fr> msg) const {
  std::vector<Fr> out(codeword_len());
  encode(msg, out);
  return out;
}

}  // namespace jolt::prover::pcs
