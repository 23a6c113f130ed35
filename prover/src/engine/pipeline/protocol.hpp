// Private: the protocol description shared by prover and verifier — transcript preamble,
// per-stage relation expressions, input claims and the verifier's derived evaluations. Using the
// same functions on both sides makes the Fiat–Shamir order and final-claim formulas identical by
// construction.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/sumcheck/expression.hpp>
#include <jolt/prover/transcript/transcript.hpp>

namespace jolt::prover::protocol {

inline constexpr const char* kDomain = "jolt-run/uniform-rv32im/v3";

// The preamble: the statement (program digest, entry, every bytecode entry, inputs, outputs,
// trace length), the padded length, the commitment scheme and its parameters.
void absorb_statement(Transcript& t, const Statement& st, std::uint32_t log_t,
                      std::uint8_t pcs_kind, std::string_view pcs_parameters,
                      std::uint32_t num_columns);

// Columns appearing in the product constraints' factors (stage-2 openings), ascending.
const std::vector<std::uint32_t>& product_factor_columns();

// Stage 1 (outer Spartan): naive-oracle expression over leaves {eq, Az, Bz}.
Expr outer_expr();
// eq(τ, point) · A(point_rows, v1) · B(point_rows, v1); point = row bits ‖ cycle bits.
Fr outer_expected(std::span<const Fr> tau, std::span<const Fr> point, std::span<const Fr> v1);

// Stage 2 (products): leaves {eq(r1,·), factor columns in product_factor_columns() order}.
Expr product_expr(const Fr& gamma);
Fr product_input(const Fr& gamma, std::span<const Fr> v1);

// Stage 3 shift: leaves {eq+1(r1,·), UnexpandedPC, IsNoop}.
Expr shift_expr(const Fr& gamma);
Fr shift_input(const Fr& gamma, std::span<const Fr> v1);
// Stage 3 entry: Σ_t eq(0,t)·UnexpandedPC(t) = the program's entry; leaves {eq(0,·), PC}.
Expr entry_expr();
// The columns stage 3 opens at its point: UnexpandedPC, IsNoop.
const std::vector<std::uint32_t>& shift_columns();

// Stage 6a, the bytecode lookup: every row's static-column tuple (r1cs::kBytecodeColumns) is a
// bytecode table entry, proved by the logUp identity
//   Σ_t 1/(α − fp(row t)) = Σ_k m_k/(α − fp(entry k)),   fp(v) = Σ_i γ^i·v_i,
// with the multiplicities m in the proof and the left side as a fraction tree (one sumcheck per
// layer, layers split on the most significant index bit).
std::vector<Fr> powers(const Fr& g, std::size_t n);
Fr fingerprint(std::span<const Fr> gamma_powers, std::span<const Fr> values);
// Inner layer leaves {eq(r,·), P0, P1, Q0, Q1}; the leaf layer (P ≡ 1) leaves {eq(r,·), Q0, Q1}.
// Summand: eq·(P0·Q1 + P1·Q0 + λ·Q0·Q1).
Expr fraction_layer_expr(const Fr& lambda, bool leaf_layer);

// Stage 7 claim reduction: claim groups (columns opened at one point each), in order:
// 0 every column at r1, 1 the product factors at r2, 2 shift_columns() at r3, 3 the bytecode
// columns at r6a. Leaves {eq(r_g,·) for each group g, then F_g = Σ_{c in g} w·col_c}.
const std::vector<std::vector<std::uint32_t>>& reduction_groups();
Expr reduction_expr();
std::vector<Fr> reduction_weights(const Fr& beta);  // one power of β per (group, column)
Fr reduction_input(std::span<const Fr> weights, const std::vector<std::span<const Fr>>& claims);
// F_g for every group from all columns' values at one point.
std::vector<Fr> reduction_folds(std::span<const Fr> weights, std::span<const Fr> v);

// Σ_{t ≥ L} eq(r, t): the multilinear extension of the public padding indicator [t ≥ L].
Fr padding_indicator(std::uint64_t trace_length, std::span<const Fr> r);

}  // namespace jolt::prover::protocol
