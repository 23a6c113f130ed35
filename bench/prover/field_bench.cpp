// Fr micro-benchmark: prints ns per multiplication (dependent chain and independent lanes),
// per addition and per inversion.
#include <chrono>
#include <cstdio>
#include <jolt/prover/field/fr.hpp>

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
  Fr s = a;
  for (int i = 0; i < kN; ++i) s = s + b;
  auto t3 = Clock::now();
  Fr inv = a;
  for (int i = 0; i < 20000; ++i) inv = inv.inverse() + b;
  auto t4 = Clock::now();
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
  std::printf("Fr add: %.2f ns\n", ns(t3 - t2, kN));
  std::printf("Fr inverse: %.1f ns\n", ns(t4 - t3, 20000));
  std::printf("(checksum %s)\n", (a + x0 + x1 + x2 + x3 + s + inv).to_hex().c_str());
  return 0;
}
