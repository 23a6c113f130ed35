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
  layers(v, tw, 1);
}

void NttDomain::layers(std::span<Fr> v, const std::vector<Fr>& tw, unsigned first_log_len) const {
  const std::size_t n = size();
  if (v.size() != n)
    throw std::invalid_argument("NttDomain: buffer of " + std::to_string(v.size()) +
                                " elements, domain size " + std::to_string(n));
  for (std::size_t len = std::size_t{1} << first_log_len; len <= n; len <<= 1) {
    const std::size_t half = len / 2, step = n / len;
    for (std::size_t base = 0; base < n; base += len) {
      {  // j = 0: the twiddle is 1
        const Fr t = v[base + half];
        const Fr u = v[base];
        v[base] = u + t;
        v[base + half] = u - t;
      }
      for (std::size_t j = 1; j < half; ++j) {
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

void NttDomain::forward_layers(std::span<Fr> v, unsigned first_log_len) const {
  layers(v, twiddles_, first_log_len);
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
  // Zero-padded input of length 2^(L+ρ) with L = log message length, ρ = log inverse rate: after
  // the bit-reversal permutation position (i << ρ) | s holds msg[rev_L(i)] for s = 0 and zero
  // otherwise, and the first ρ butterfly layers (twiddles ω^0 on those blocks) merely copy it
  // across its block of 2^ρ. So write that state directly and run the remaining L layers.
  const unsigned L = log_message_len_;
  const unsigned rho = domain_.log_size() - L;
  const std::size_t block = std::size_t{1} << rho;
  for (std::size_t i = 0; i < msg.size(); ++i) {
    std::size_t r = 0;
    for (unsigned b = 0; b < L; ++b) r |= ((i >> b) & 1) << (L - 1 - b);
    std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(i * block), block, msg[r]);
  }
  domain_.forward_layers(out, rho + 1);
}

std::vector<Fr> ReedSolomonCode::encode(std::span<const Fr> msg) const {
  std::vector<Fr> out(codeword_len());
  encode(msg, out);
  return out;
}

}  // namespace jolt::prover::pcs
