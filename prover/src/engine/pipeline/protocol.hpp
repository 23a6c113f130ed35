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

inline constexpr const char* kDomain = "jolt-run/uniform-rv32im/v2";

// The preamble: the statement, the padded length, the commitment scheme and its parameters.
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

// Stage 3 claim reduction: leaves {eq(r1,·), eq(r2,·), P1 = Σ β^c col_c, P2 = Σ β^(N+i) col_f_i}.
Expr reduction_expr();
std::vector<Fr> reduction_weights(const Fr& beta);  // N + |factors| powers of β
Fr reduction_input(std::span<const Fr> weights, std::span<const Fr> v1, std::span<const Fr> v2);
// (P1, P2) from all columns' values at one point.
std::pair<Fr, Fr> reduction_folds(std::span<const Fr> weights, std::span<const Fr> v);

// Σ_{t ≥ L} eq(r, t): the multilinear extension of the public padding indicator [t ≥ L].
Fr padding_indicator(std::uint64_t trace_length, std::span<const Fr> r);

}  // namespace jolt::prover::protocol
