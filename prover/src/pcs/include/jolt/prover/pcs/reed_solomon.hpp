// Radix-2 NTT over Fr and the Reed–Solomon code used by the Ligero PCS.
//
//   using namespace jolt::prover::pcs;
//   NttDomain d(10);                       // size 1024, generator Fr::root_of_unity(10)
//   d.forward(values);                     // values[i] ← Σ_k values[k]·ω^(ik)
//   d.inverse(values);                     // back to coefficients
//   ReedSolomonCode rs(8, 2);              // messages of 2^8, codewords of 2^10 (rate 1/4)
//   rs.encode(row, codeword);              // codeword[j] = p_row(ω^j), p_row(X) = Σ row[k]X^k
//
// Objects are immutable after construction (twiddles precomputed); const calls are thread-safe
// and each works in the caller's buffer, so rows can be encoded concurrently.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include <jolt/prover/field/fr.hpp>

namespace jolt::prover::pcs {

class NttDomain {
 public:
  explicit NttDomain(unsigned log_size);  // log_size ≤ Fr::two_adicity()
  std::size_t size() const { return std::size_t{1} << log_size_; }
  unsigned log_size() const { return log_size_; }
  const Fr& generator() const { return omega_; }
  // In place; v.size() must equal size() (std::invalid_argument otherwise).
  void forward(std::span<Fr> v) const;
  void inverse(std::span<Fr> v) const;
  // The forward transform's butterfly layers from block length 2^first_log_len on, for a buffer
  // that is already in bit-reversed order with the earlier layers applied (used by the RS
  // encoder, whose zero padding makes the first layers plain copies).
  void forward_layers(std::span<Fr> v, unsigned first_log_len) const;

 private:
  void transform(std::span<Fr> v, const std::vector<Fr>& twiddles) const;
  void layers(std::span<Fr> v, const std::vector<Fr>& twiddles, unsigned first_log_len) const;
  unsigned log_size_;
  Fr omega_;
  std::vector<Fr> twiddles_;      // ω^i, i < size/2
  std::vector<Fr> inv_twiddles_;  // ω^-i
  Fr size_inv_;
};

class ReedSolomonCode {
 public:
  ReedSolomonCode(unsigned log_message_len, unsigned log_inv_rate);
  std::size_t message_len() const { return std::size_t{1} << log_message_len_; }
  std::size_t codeword_len() const { return domain_.size(); }
  const NttDomain& domain() const { return domain_; }
  // out.size() == codeword_len(), msg.size() == message_len().
  void encode(std::span<const Fr> msg, std::span<Fr> out) const;
  std::vector<Fr> encode(std::span<const Fr> msg) const;

 private:
  unsigned log_message_len_;
  NttDomain domain_;
};

}  // namespace jolt::prover::pcs
