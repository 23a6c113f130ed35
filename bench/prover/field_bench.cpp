// Fr micro-benchmark: prints ns per multiplication (dependent chain, independent lanes, and over
// arrays by multiply_arrays — the AVX-512 IFMA lanes where the CPU has them), per addition (random
// operands), per inversion, and per NTT butterfly (t = hi·w; hi = lo − t; lo
// += t) over 2^20 random operands — the case where a data-dependent reduction branch would
// mispredict.
#include <chrono>
#include <cstdio>
#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <random>
#include <vector>

using jolt::prover::Fr;
using Clock = std::chrono::steady_clock;

int main() {
  constexpr int kN = 20'000'000;
  Fr a = Fr::from_u64(0x1234567), b = Fr::from_u64(0x89abcdef).inverse();
  auto t0 = Clock::now();
  for (int i = 0; i < kN; ++i) a = a * b;
  auto t1 = Clock::now();
  Fr x0 = a, x1 = b, x2 = a + b, x3 = a - b;
  for (int i = 0; i < kN / 4; ++i) {
    x0 = x0 * b;
    x1 = x1 * b;
    x2 = x2 * b;
    x3 = x3 * b;
  }
  auto t2 = Clock::now();
  // Additions accumulate random operands (a fixed addend would make any reduction branch
  // predictable and the number meaningless for real data).
  std::mt19937_64 arng(2);
  std::vector<Fr> addends(std::size_t{1} << 16);
  for (auto& x : addends) x = Fr::from_u128(arng(), arng()) * Fr::from_u64(arng());
  auto t2b = Clock::now();
  Fr s = a;
  for (int i = 0; i < kN; ++i) s = s + addends[static_cast<std::size_t>(i) & 0xffff];
  auto t3 = Clock::now();
  Fr inv = a;
  for (int i = 0; i < 20000; ++i) inv = inv.inverse() + b;
  auto t4 = Clock::now();
  constexpr std::size_t kB = std::size_t{1} << 20;
  std::mt19937_64 rng(1);
  std::vector<Fr> lo(kB), hi(kB), w(kB);
  for (std::size_t i = 0; i < kB; ++i) {
    lo[i] = Fr::from_u128(rng(), rng()) * Fr::from_u64(rng());
    hi[i] = Fr::from_u128(rng(), rng()) * Fr::from_u64(rng());
    w[i] = Fr::from_u128(rng(), rng()) * Fr::from_u64(rng());
  }
  auto t5 = Clock::now();
  for (int rep = 0; rep < 4; ++rep)
    for (std::size_t i = 0; i < kB; ++i) {
      const Fr t = hi[i] * w[i];
      hi[i] = lo[i] - t;
      lo[i] += t;
    }
  auto t6 = Clock::now();
  // Independent products over arrays of 2^16 (cache-resident), as the sumcheck kernels call it.
  constexpr std::size_t kA = std::size_t{1} << 16;
  constexpr int kArrayReps = 200;
  std::vector<Fr> prod(kA);
  auto t7 = Clock::now();
  for (int rep = 0; rep < kArrayReps; ++rep) {
    jolt::prover::multiply_arrays(lo.data(), w.data() + rep, prod.data(), kA);
    lo[static_cast<std::size_t>(rep)] += prod[kA - 1];
  }
  auto t8 = Clock::now();
  auto ns = [](auto d, double n) {
    return std::chrono::duration<double, std::nano>(d).count() / n;
  };
#ifdef JOLT_FR_HAVE_ADX_PATH
  std::printf("multiply path: %s\n",
              jolt::prover::fr_detail::kHaveAdx ? "mulx/adcx/adox" : "portable");
#else
  std::printf("multiply path: portable\n");
#endif
  std::printf("Fr mul (dependent chain): %.2f ns\n", ns(t1 - t0, kN));
  std::printf("Fr mul (4 independent lanes): %.2f ns\n", ns(t2 - t1, kN));
  std::printf("Fr mul (arrays, multiply_arrays): %.2f ns\n", ns(t8 - t7, double(kA) * kArrayReps));
  std::printf("Fr add (random operands, accumulated): %.2f ns\n", ns(t3 - t2b, kN));
  std::printf("Fr inverse: %.1f ns\n", ns(t4 - t3, 20000));
  std::printf("butterfly on random data: %.2f ns\n", ns(t6 - t5, 4.0 * kB));
  std::printf("(checksum %s)\n",
              (a + x0 + x1 + x2 + x3 + s + inv + lo[1] + hi[2] + prod[3]).to_hex().c_str());
  return 0;
}
