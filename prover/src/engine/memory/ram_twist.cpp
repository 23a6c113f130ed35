#include <jolt/prover/memory/ram_twist.hpp>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

#include <jolt/instrument.hpp>
#include <jolt/prover/lookups/ra_virtualization.hpp>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <jolt/prover/verify_check.hpp>

namespace jolt::prover::memory {

namespace {

constexpr std::uint64_t kNoAddress = std::uint64_t{1} << 32;

unsigned ceil_log2(std::uint64_t n) {
  unsigned k = 0;
  while ((std::uint64_t{1} << k) < n) ++k;
  return k;
}

Fr eq_at_index(std::span<const Fr> r, std::uint64_t k) {
  const std::size_t n = r.size();
  Fr e = Fr::one();
  for (std::size_t i = 0; i < n; ++i) {
    const bool bit = (k >> (n - 1 - i)) & 1;
    e = e * (bit ? r[i] : Fr::one() - r[i]);
  }
  return e;
}

std::string hex(std::uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), kDigits[v & 15]);
    v >>= 4;
  } while (v != 0);
  return "0x" + s;
}

const KernelLabels kReadWriteLabels{"RamReadWriteChecking::prepare",
                                    "RamReadWriteChecking::prove_round",
                                    "RamReadWriteChecking::finish_rounds"};
const KernelLabels kRafLabels{"RamRafEvaluation::prepare", "RamRafEvaluation::prove_round",
                              "RamRafEvaluation::finish_rounds"};
const KernelLabels kOutputCheckLabels{"RamOutputCheck::prepare", "RamOutputCheck::prove_round",
                                      "RamOutputCheck::finish_rounds"};
const KernelLabels kValCheckLabels{"RamValCheck::prepare", "RamValCheck::prove_round",
                                   "RamValCheck::finish_rounds"};
const KernelLabels kRaLabels{"RamRaVirtualization::prepare", "RamRaVirtualization::prove_round",
                             "RamRaVirtualization::finish_rounds"};

// A NaiveKernel over dense leaves that reports only some of its leaves' final values.
class SelectedOutputsKernel final : public SumcheckKernel {
 public:
  SelectedOutputsKernel(const KernelLabels& labels, std::vector<std::vector<Fr>> leaves, Expr e,
                        std::vector<std::size_t> outputs)
      : inner_(labels, std::move(leaves), std::move(e)), outputs_(std::move(outputs)) {}
  const KernelLabels& labels() const override { return inner_.labels(); }
  std::size_t num_rounds() const override { return inner_.num_rounds(); }
  std::size_t degree() const override { return inner_.degree(); }
  std::vector<Fr> prove_round(const std::optional<Fr>& bind, std::size_t round,
                              const Fr& claim) override {
    return inner_.prove_round(bind, round, claim);
  }
  void finish_rounds(const Fr& bind) override { inner_.finish_rounds(bind); }
  std::vector<Fr> output_claims() const override {
    const std::vector<Fr> all = inner_.output_claims();
    std::vector<Fr> out;
    for (std::size_t i : outputs_) out.push_back(all[i]);
    return out;
  }
  void visit_heap(jolt::HeapVisitor& v) const override { inner_.visit_heap(v); }

 private:
  NaiveKernel inner_;
  std::vector<std::size_t> outputs_;
};

// ReadWrite (header, member 1). One sparse entry per (time block, accessed word): its RA and Val
// bound over the block, and the word's value just before the block (`prev`) and just after it
// (`next`). A word a block does not access keeps one value over the whole block — the `next` of
// the block before it or the `prev` of the block after it — and the multilinear extension of a
// constant over a block is that constant, so a missing partner's Val is read from the entry that
// is present. Binding the cycle variables least significant first merges neighbouring blocks.
class ReadWriteKernel final : public SumcheckKernel {
 public:
  ReadWriteKernel(const RamWitness& w, std::span<const Fr> init_dense, std::span<const Fr> r_cycle,
                  const Fr& gamma)
      : log_t_(r_cycle.size()),
        log_k_(w.log_k),
        gamma_(gamma),
        one_plus_gamma_(Fr::one() + gamma),
        init_(init_dense),
        eq_(EqPolynomial::evals(r_cycle)),
        inc_(zero_table(w.cycles.size())) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, w.cycles.size(), 4096),
                      [&](const tbb::blocked_range<std::size_t>& rg) {
                        for (std::size_t j = rg.begin(); j < rg.end(); ++j) inc_[j] = w.inc(j);
                      });
    for (std::size_t j = 0; j < w.cycles.size(); ++j) {
      const RamAccess& a = w.cycles[j];
      if (!a.accessed) continue;
      entries_.push_back(Entry{static_cast<std::uint32_t>(j), a.address, a.read, a.written,
                               Fr::one(), Fr::from_u64(a.read)});
    }
  }

  const KernelLabels& labels() const override { return kReadWriteLabels; }
  std::size_t num_rounds() const override { return log_t_ + log_k_; }
  std::size_t degree() const override { return 3; }

  std::vector<Fr> prove_round(const std::optional<Fr>& bind, std::size_t, const Fr&) override {
    if (bind) bind_one(*bind);
    return bound_ < log_t_ ? cycle_round() : address_round();
  }

  void finish_rounds(const Fr& bind) override { bind_one(bind); }

  std::vector<Fr> output_claims() const override { return {ra_[0], val_[0], inc_at_}; }

  void visit_heap(jolt::HeapVisitor& v) const override {
    jolt::HeapScope s(v, "RamReadWriteChecking");
    v.bytes("entries", entries_.capacity() * sizeof(Entry));
    v.bytes("tables",
            (eq_.capacity() + inc_.capacity() + ra_.capacity() + val_.capacity()) * sizeof(Fr));
  }

 private:
  struct Entry {
    std::uint32_t row, col;
    std::uint32_t prev, next;
    Fr ra, val;
  };

  // Entry ranges that start at a pair boundary (rows 2i, 2i + 1 of the current tables), so
  // chunks can be processed independently.
  std::vector<std::size_t> chunk_bounds() const {
    std::vector<std::size_t> b{0};
    const std::size_t n = entries_.size();
    const std::size_t target = std::max<std::size_t>(256, n / 64);
    std::size_t pos = target;
    while (pos < n) {
      while (pos < n && (entries_[pos].row >> 1) == (entries_[pos - 1].row >> 1)) ++pos;
      if (pos < n) b.push_back(pos);
      pos += target;
    }
    b.push_back(n);
    return b;
  }

  // Calls f(pair, a, b) for every accessed word of the pair starting at entries_[i]: a and b
  // point to its entries in the even and odd row (nullptr where absent). Returns the index past
  // the pair.
  template <class F>
  std::size_t for_pair(std::size_t i, std::size_t end, F&& f) const {
    const std::uint32_t pair = entries_[i].row >> 1;
    std::size_t e = i;
    while (e < end && entries_[e].row == 2 * pair) ++e;  // even row: [i, e)
    std::size_t o = e;
    while (o < end && entries_[o].row == 2 * pair + 1) ++o;  // odd row: [e, o)
    std::size_t x = i, y = e;
    while (x < e || y < o) {
      if (y == o || (x < e && entries_[x].col < entries_[y].col)) {
        f(pair, &entries_[x++], nullptr);
      } else if (x == e || entries_[y].col < entries_[x].col) {
        f(pair, nullptr, &entries_[y++]);
      } else {
        f(pair, &entries_[x++], &entries_[y++]);
      }
    }
    return o;
  }

  // The pair's RA and Val at the even (0) and odd (1) row, a missing side from the other.
  static void sides(const Entry* a, const Entry* b, Fr& ra0, Fr& ra1, Fr& val0, Fr& val1) {
    ra0 = a ? a->ra : Fr::zero();
    ra1 = b ? b->ra : Fr::zero();
    val0 = a ? a->val : Fr::from_u64(b->prev);
    val1 = b ? b->val : Fr::from_u64(a->next);
  }

  std::vector<Fr> cycle_round() const {
    const std::vector<std::size_t> bounds = chunk_bounds();
    const std::size_t chunks = bounds.size() - 1;
    std::vector<std::array<Fr, 4>> partial(chunks);
    tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
      std::array<Fr, 4> acc{};
      std::size_t i = bounds[c];
      while (i < bounds[c + 1]) {
        // Per pair: Σ_k ra_k(X)·val_k(X) and Σ_k ra_k(X) at X = 0..3.
        std::array<Fr, 4> rv{}, rs{};
        std::uint32_t pair = entries_[i].row >> 1;
        i = for_pair(i, bounds[c + 1], [&](std::uint32_t, const Entry* a, const Entry* b) {
          Fr ra0, ra1, v0, v1;
          sides(a, b, ra0, ra1, v0, v1);
          const Fr dra = ra1 - ra0, dv = v1 - v0;
          Fr ra = ra0, v = v0;
          for (std::size_t t = 0; t < 4; ++t) {
            rv[t] += ra * v;
            rs[t] += ra;
            ra += dra;
            v += dv;
          }
        });
        const Fr e0 = eq_[2 * pair], de = eq_[2 * pair + 1] - e0;
        const Fr i0 = inc_[2 * pair], di = inc_[2 * pair + 1] - i0;
        Fr e = e0, in = i0;
        for (std::size_t t = 0; t < 4; ++t) {
          acc[t] += e * (one_plus_gamma_ * rv[t] + gamma_ * in * rs[t]);
          e += de;
          in += di;
        }
      }
      partial[c] = acc;
    });
    std::vector<Fr> evals(4);
    for (const auto& p : partial)
      for (std::size_t t = 0; t < 4; ++t) evals[t] += p[t];
    return evals;
  }

  std::vector<Fr> address_round() const {
    const std::size_t half = ra_.size() / 2;
    std::array<Fr, 4> acc{};
    for (std::size_t k = 0; k < half; ++k) {
      const Fr ra0 = ra_[k], dra = ra_[k + half] - ra0;
      if (ra0.is_zero() && dra.is_zero()) continue;
      const Fr v0 = val_[k], dv = val_[k + half] - v0;
      Fr ra = ra0, v = v0;
      for (std::size_t t = 0; t < 4; ++t) {
        acc[t] += ra * (one_plus_gamma_ * v + gamma_inc_);
        ra += dra;
        v += dv;
      }
    }
    std::vector<Fr> evals(4);
    for (std::size_t t = 0; t < 4; ++t) evals[t] = eq_at_ * acc[t];
    return evals;
  }

  void bind_one(const Fr& r) {
    if (bound_ < log_t_) {
      bind_cycle(r);
      if (++bound_ == log_t_) enter_address_phase();
    } else {
      bind_top_in_place(ra_, r);
      bind_top_in_place(val_, r);
      ++bound_;
    }
  }

  void bind_cycle(const Fr& r) {
    const std::vector<std::size_t> bounds = chunk_bounds();
    const std::size_t chunks = bounds.size() - 1;
    std::vector<std::vector<Entry>> merged(chunks);
    tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
      std::vector<Entry>& out = merged[c];
      out.reserve(bounds[c + 1] - bounds[c]);
      std::size_t i = bounds[c];
      while (i < bounds[c + 1])
        i = for_pair(i, bounds[c + 1], [&](std::uint32_t pair, const Entry* a, const Entry* b) {
          Fr ra0, ra1, v0, v1;
          sides(a, b, ra0, ra1, v0, v1);
          out.push_back(Entry{pair, a ? a->col : b->col, a ? a->prev : b->prev,
                              b ? b->next : a->next, ra0 + r * (ra1 - ra0), v0 + r * (v1 - v0)});
        });
    });
    std::vector<Entry> next;
    next.reserve(entries_.size());
    for (auto& m : merged) next.insert(next.end(), m.begin(), m.end());
    entries_ = std::move(next);
    // eq and Inc bound in the low cycle variable: x ← t[2x] + r·(t[2x + 1] − t[2x]), into fresh
    // tables (in place, a worker's writes would overwrite another's inputs).
    for (auto* t : {&eq_, &inc_}) {
      const std::size_t half = t->size() / 2;
      std::vector<Fr> bound = zero_table(half);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, half, 4096),
                        [&](const tbb::blocked_range<std::size_t>& rg) {
                          constexpr std::size_t kChunk = 64;
                          std::array<Fr, kChunk> rs, d;
                          rs.fill(r);
                          for (std::size_t x0 = rg.begin(); x0 < rg.end(); x0 += kChunk) {
                            const std::size_t n = std::min(kChunk, rg.end() - x0);
                            for (std::size_t k = 0; k < n; ++k)
                              d[k] = (*t)[2 * (x0 + k) + 1] - (*t)[2 * (x0 + k)];
                            multiply_arrays(d.data(), rs.data(), d.data(), n);
                            for (std::size_t k = 0; k < n; ++k)
                              bound[x0 + k] = (*t)[2 * (x0 + k)] + d[k];
                          }
                        });
      *t = std::move(bound);
    }
  }

  // All cycle variables bound: one row left. Dense tables over the K words: RA and Val from the
  // entries, Val = Init for a word no cycle accessed.
  void enter_address_phase() {
    eq_at_ = eq_[0];
    inc_at_ = inc_[0];
    gamma_inc_ = gamma_ * inc_at_;
    ra_.assign(std::size_t{1} << log_k_, Fr::zero());
    val_.assign(init_.begin(), init_.end());
    for (const Entry& e : entries_) {
      ra_[e.col] = e.ra;
      val_[e.col] = e.val;
    }
    std::vector<Entry>().swap(entries_);
    std::vector<Fr>().swap(eq_);
    std::vector<Fr>().swap(inc_);
  }

  std::size_t log_t_, log_k_;
  Fr gamma_, one_plus_gamma_;
  std::span<const Fr> init_;
  std::vector<Fr> eq_, inc_;
  std::vector<Entry> entries_;
  std::size_t bound_ = 0;
  Fr eq_at_, inc_at_, gamma_inc_;
  std::vector<Fr> ra_, val_;
};

void check_cycle_point(const RamWitness& w, std::span<const Fr> r_cycle, const char* who) {
  if ((std::size_t{1} << r_cycle.size()) != w.cycles.size())
    throw std::invalid_argument(std::string(who) + ": a cycle point of " +
                                std::to_string(r_cycle.size()) + " coordinates for " +
                                std::to_string(w.cycles.size()) + " cycles");
}

// ra(k, r) = Σ_j eq(r, j)·h(j)·[a(j) = k] over the K words.
std::vector<Fr> ra_at_cycle_point(const RamWitness& w, std::span<const Fr> r_cycle) {
  const std::vector<Fr> e = EqPolynomial::evals(r_cycle);
  std::vector<Fr> ra(std::size_t{1} << w.log_k);
  for (std::size_t j = 0; j < w.cycles.size(); ++j)
    if (w.cycles[j].accessed) ra[w.cycles[j].address] += e[j];
  return ra;
}

std::vector<std::uint64_t> address_keys(const RamWitness& w) {
  std::vector<std::uint64_t> keys(w.cycles.size());
  for (std::size_t j = 0; j < keys.size(); ++j) keys[j] = w.cycles[j].address;
  return keys;
}

std::vector<std::uint8_t> access_gate(const RamWitness& w) {
  std::vector<std::uint8_t> g(w.cycles.size());
  for (std::size_t j = 0; j < g.size(); ++j) g[j] = w.cycles[j].accessed ? 1 : 0;
  return g;
}

}  // namespace

// ---- layout ----------------------------------------------------------------------------------

RamLayout RamLayout::pack(std::span<const RamRegion> regions) {
  std::vector<RamSegment> segs;
  for (const RamRegion& r : regions) {
    if (r.words == 0) continue;
    if (r.address % 4 != 0)
      throw std::invalid_argument("RAM layout: region at " + hex(r.address) +
                                  " is not word-aligned; give regions at multiples of 4");
    segs.push_back(RamSegment{r.address, 0, ceil_log2(r.words)});
  }
  // Blocks cover whole powers of two words: no two may share a guest address.
  std::vector<RamSegment> by_address = segs;
  std::sort(by_address.begin(), by_address.end(),
            [](const RamSegment& a, const RamSegment& b) { return a.address < b.address; });
  for (std::size_t i = 0; i < by_address.size(); ++i) {
    const std::uint64_t end =
        std::uint64_t{by_address[i].address} + (std::uint64_t{4} << by_address[i].log_words);
    if (end > kNoAddress)
      throw std::invalid_argument("RAM layout: the block of 2^" +
                                  std::to_string(by_address[i].log_words) + " words at " +
                                  hex(by_address[i].address) + " runs past 2^32");
    if (i + 1 < by_address.size() && end > by_address[i + 1].address)
      throw std::invalid_argument("RAM layout: the block of 2^" +
                                  std::to_string(by_address[i].log_words) + " words at " +
                                  hex(by_address[i].address) + " overlaps the region at " +
                                  hex(by_address[i + 1].address) + "; merge the two regions");
  }
  std::stable_sort(segs.begin(), segs.end(), [](const RamSegment& a, const RamSegment& b) {
    return a.log_words > b.log_words;
  });
  std::uint64_t next = 0;
  for (RamSegment& s : segs) {
    s.compact_base = static_cast<std::uint32_t>(next);
    next += std::uint64_t{1} << s.log_words;
  }
  RamLayout l;
  l.log_k_ = std::max(1u, ceil_log2(next));
  if (l.log_k_ > 32) throw std::invalid_argument("RAM layout: more than 2^32 words");
  l.segments_ = std::move(segs);
  return l;
}

std::optional<std::uint32_t> RamLayout::compact_index(std::uint32_t address) const {
  if (address % 4 != 0) return std::nullopt;
  for (const RamSegment& s : segments_) {
    if (address < s.address) continue;
    const std::uint64_t word = (std::uint64_t{address} - s.address) / 4;
    if (word < (std::uint64_t{1} << s.log_words))
      return static_cast<std::uint32_t>(s.compact_base + word);
  }
  return std::nullopt;
}

std::uint64_t RamLayout::unmap(std::uint32_t k) const {
  for (const RamSegment& s : segments_)
    if (k >= s.compact_base && k - s.compact_base < (std::uint64_t{1} << s.log_words))
      return std::uint64_t{s.address} + 4 * std::uint64_t{k - s.compact_base};
  return kNoAddress;
}

Fr RamLayout::unmap_mle(std::span<const Fr> r_addr) const {
  if (r_addr.size() != log_k_)
    throw std::invalid_argument("RAM layout: an address point of " + std::to_string(r_addr.size()) +
                                " coordinates for 2^" + std::to_string(log_k_) + " words");
  // Σ_s I_s(r)·(address_s + 4·offset(r)) + 2^32·(1 − Σ_s I_s(r)), I_s the indicator of block s
  // (its high bits), offset the block's low bits as an integer.
  Fr inside, sum;
  for (const RamSegment& s : segments_) {
    const std::size_t high = log_k_ - s.log_words;
    const Fr ind = eq_at_index(r_addr.subspan(0, high), s.compact_base >> s.log_words);
    Fr offset;
    for (std::size_t i = high; i < log_k_; ++i) offset = offset.dbl() + r_addr[i];
    inside += ind;
    sum += ind * (Fr::from_u64(s.address) + Fr::from_u64(4) * offset);
  }
  return sum + Fr::from_u64(kNoAddress) * (Fr::one() - inside);
}

Fr words_mle(const RamWords& words, std::span<const Fr> r_addr) {
  Fr s;
  for (const auto& [k, v] : words) s += Fr::from_u64(v) * eq_at_index(r_addr, k);
  return s;
}

Fr words_mask_mle(const RamWords& words, std::span<const Fr> r_addr) {
  Fr s;
  for (const auto& w : words) s += eq_at_index(r_addr, w.first);
  return s;
}

Fr less_than_mle(std::span<const Fr> x, std::span<const Fr> y) {
  if (x.size() != y.size()) throw std::invalid_argument("less_than_mle: points of two sizes");
  // Σ_i (1 − x_i)·y_i·Π_{l < i} eq(x_l, y_l), most significant first.
  Fr lt, prefix = Fr::one();
  for (std::size_t i = 0; i < x.size(); ++i) {
    lt += prefix * (Fr::one() - x[i]) * y[i];
    prefix = prefix * (x[i] * y[i] + (Fr::one() - x[i]) * (Fr::one() - y[i]));
  }
  return lt;
}

// ---- witness ---------------------------------------------------------------------------------

void RamWitness::validate() const {
  const std::size_t n = cycles.size();
  if (n < 2 || (n & (n - 1)) != 0)
    throw std::invalid_argument("RAM witness: " + std::to_string(n) +
                                " cycles; pad to a power of two ≥ 2");
  if (log_k == 0 || log_k > 32)
    throw std::invalid_argument("RAM witness: 2^" + std::to_string(log_k) + " words");
  for (std::size_t j = 0; j < n; ++j) {
    const RamAccess& a = cycles[j];
    if (std::uint64_t{a.address} >> log_k)
      throw std::invalid_argument("RAM witness: cycle " + std::to_string(j) + " accesses word " +
                                  std::to_string(a.address) + " of 2^" + std::to_string(log_k));
    if (!a.accessed && (a.read != 0 || a.written != 0))
      throw std::invalid_argument("RAM witness: cycle " + std::to_string(j) +
                                  " has no access but non-zero values");
  }
}

std::vector<Fr> dense_words(const RamWords& words, unsigned log_k) {
  std::vector<Fr> t(std::size_t{1} << log_k);
  for (const auto& [k, v] : words) {
    if (std::uint64_t{k} >> log_k)
      throw std::invalid_argument("RAM words: word " + std::to_string(k) + " of 2^" +
                                  std::to_string(log_k));
    t[k] = Fr::from_u64(v);
  }
  return t;
}

std::vector<Fr> replay(RamWitness& w, const RamWords& init) {
  std::vector<std::uint32_t> mem(std::size_t{1} << w.log_k);
  for (const auto& [k, v] : init) mem.at(k) = v;
  for (RamAccess& a : w.cycles) {
    if (!a.accessed) {
      a.read = a.written = 0;
      continue;
    }
    std::uint32_t& cell = mem.at(a.address);
    a.read = cell;
    if (!a.store) a.written = a.read;
    cell = a.written;
  }
  std::vector<Fr> out(mem.size());
  for (std::size_t k = 0; k < mem.size(); ++k) out[k] = Fr::from_u64(mem[k]);
  return out;
}

RamCycleClaims ram_cycle_claims(const RamWitness& w, const RamLayout& layout,
                                std::span<const Fr> r) {
  check_cycle_point(w, r, "ram_cycle_claims");
  const std::vector<Fr> e = EqPolynomial::evals(r);
  RamCycleClaims c;
  for (std::size_t j = 0; j < w.cycles.size(); ++j) {
    const RamAccess& a = w.cycles[j];
    if (!a.accessed) continue;
    c.read += e[j] * Fr::from_u64(a.read);
    c.written += e[j] * Fr::from_u64(a.written);
    c.address += e[j] * Fr::from_u64(layout.unmap(a.address));
  }
  return c;
}

// ---- members ---------------------------------------------------------------------------------

std::unique_ptr<SumcheckKernel> make_read_write_kernel(const RamWitness& w,
                                                       std::span<const Fr> init_dense,
                                                       std::span<const Fr> r_cycle,
                                                       const Fr& gamma) {
  check_cycle_point(w, r_cycle, "RAM read/write checking");
  if (init_dense.size() != (std::size_t{1} << w.log_k))
    throw std::invalid_argument("RAM read/write checking: an initial table of " +
                                std::to_string(init_dense.size()) + " words for 2^" +
                                std::to_string(w.log_k));
  return std::make_unique<ReadWriteKernel>(w, init_dense, r_cycle, gamma);
}

ReadWritePoints read_write_points(std::span<const Fr> point, std::size_t log_t) {
  ReadWritePoints p;
  p.r_cycle.assign(point.rbegin() + static_cast<std::ptrdiff_t>(point.size() - log_t),
                   point.rend());
  p.r_addr.assign(point.begin() + static_cast<std::ptrdiff_t>(log_t), point.end());
  return p;
}

Fr read_write_final(std::span<const Fr> r_cycle, const Fr& gamma, std::span<const Fr> point,
                    std::size_t log_t, std::span<const Fr> outputs) {
  const ReadWritePoints p = read_write_points(point, log_t);
  const Fr &ra = outputs[0], &val = outputs[1], &inc = outputs[2];
  return EqPolynomial::evaluate(r_cycle, p.r_cycle) * ra *
         ((Fr::one() + gamma) * val + gamma * inc);
}

std::unique_ptr<SumcheckKernel> make_raf_kernel(const RamWitness& w, const RamLayout& layout,
                                                std::span<const Fr> r_cycle) {
  check_cycle_point(w, r_cycle, "RAM RAF evaluation");
  std::vector<Fr> unmap(std::size_t{1} << w.log_k);
  for (std::size_t k = 0; k < unmap.size(); ++k)
    unmap[k] = Fr::from_u64(layout.unmap(static_cast<std::uint32_t>(k)));
  Expr e;
  e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1)});
  std::vector<std::vector<Fr>> leaves;
  leaves.push_back(std::move(unmap));
  leaves.push_back(ra_at_cycle_point(w, r_cycle));
  return std::make_unique<SelectedOutputsKernel>(kRafLabels, std::move(leaves), std::move(e),
                                                 std::vector<std::size_t>{1});
}

Fr raf_final(const RamLayout& layout, std::span<const Fr> point, std::span<const Fr> outputs) {
  return layout.unmap_mle(point) * outputs[0];
}

std::unique_ptr<SumcheckKernel> make_output_check_kernel(std::span<const Fr> final_dense,
                                                         const RamWords& io,
                                                         std::span<const Fr> r_prime) {
  const unsigned log_k = static_cast<unsigned>(r_prime.size());
  if (final_dense.size() != (std::size_t{1} << log_k))
    throw std::invalid_argument("RAM output check: a final table of " +
                                std::to_string(final_dense.size()) + " words for 2^" +
                                std::to_string(log_k));
  std::vector<Fr> mask(final_dense.size());
  for (const auto& w : io) mask.at(w.first) = Fr::one();
  Expr e;
  e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
  e.add_product(-Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(3)});
  std::vector<std::vector<Fr>> leaves;
  leaves.push_back(EqPolynomial::evals(r_prime));
  leaves.push_back(std::move(mask));
  leaves.emplace_back(final_dense.begin(), final_dense.end());
  leaves.push_back(dense_words(io, log_k));
  return std::make_unique<SelectedOutputsKernel>(kOutputCheckLabels, std::move(leaves),
                                                 std::move(e), std::vector<std::size_t>{2});
}

Fr output_check_final(const RamWords& io, std::span<const Fr> r_prime, std::span<const Fr> point,
                      std::span<const Fr> outputs) {
  return EqPolynomial::evaluate(r_prime, point) * words_mask_mle(io, point) *
         (outputs[0] - words_mle(io, point));
}

std::unique_ptr<SumcheckKernel> make_val_check_kernel(const RamWitness& w,
                                                      std::span<const Fr> r_addr,
                                                      std::span<const Fr> r_cycle,
                                                      const Fr& gamma) {
  check_cycle_point(w, r_cycle, "RAM Val check");
  if (r_addr.size() != w.log_k)
    throw std::invalid_argument("RAM Val check: an address point of " +
                                std::to_string(r_addr.size()) + " coordinates for 2^" +
                                std::to_string(w.log_k) + " words");
  const std::size_t n = w.cycles.size();
  std::vector<Fr> inc(n), ra(n), lt(n);
  const std::vector<Fr> eq_addr = EqPolynomial::evals(r_addr);
  for (std::size_t j = 0; j < n; ++j) {
    inc[j] = w.inc(j);
    if (w.cycles[j].accessed) ra[j] = eq_addr[w.cycles[j].address];
  }
  // LT(j, r_c) = Σ_{y > j} eq(r_c, y): suffix sums.
  const std::vector<Fr> e = EqPolynomial::evals(r_cycle);
  Fr suffix;
  for (std::size_t j = n; j-- > 0;) {
    lt[j] = suffix + gamma;
    suffix += e[j];
  }
  Expr ex;
  ex.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
  std::vector<std::vector<Fr>> leaves;
  leaves.push_back(std::move(inc));
  leaves.push_back(std::move(ra));
  leaves.push_back(std::move(lt));
  return std::make_unique<SelectedOutputsKernel>(kValCheckLabels, std::move(leaves), std::move(ex),
                                                 std::vector<std::size_t>{0, 1});
}

Fr val_check_input(const Fr& val, const Fr& val_final, const Fr& init_at_addr, const Fr& gamma) {
  return (val - init_at_addr) + gamma * (val_final - init_at_addr);
}

Fr val_check_final(std::span<const Fr> r_cycle, const Fr& gamma, std::span<const Fr> point,
                   std::span<const Fr> outputs) {
  return outputs[0] * outputs[1] * (less_than_mle(point, r_cycle) + gamma);
}

// ---- the argument ----------------------------------------------------------------------------

namespace {

struct RaChallenges {
  Fr beta, zeta;
  std::vector<Fr> rho;
  std::array<Fr, 3> beta_pow;
};

RaChallenges draw_ra_challenges(Transcript& t, std::size_t log_t) {
  RaChallenges c;
  c.beta = t.challenge("ram_beta");
  c.zeta = t.challenge("ram_zeta");
  c.rho = t.challenges("ram_rho", log_t);
  c.beta_pow = {Fr::one(), c.beta, c.beta * c.beta};
  return c;
}

}  // namespace

namespace {

void check_prover_inputs(const RamWitness& w, const RamStatement& s, std::span<const Fr> r_cycle) {
  w.validate();
  if (w.log_k != s.layout->log_k())
    throw std::invalid_argument("prove_ram: the witness has 2^" + std::to_string(w.log_k) +
                                " words, the layout 2^" + std::to_string(s.layout->log_k()));
  check_cycle_point(w, r_cycle, "prove_ram");
}

}  // namespace

RamReadWriteStep prove_ram_read_write(const RamWitness& w, const RamStatement& s,
                                      std::span<const Fr> r_cycle, const RamCycleClaims& claims,
                                      Transcript& transcript, RamProof& proof, bool self_check,
                                      const RamKernelPrepared& on_prepared) {
  check_prover_inputs(w, s, r_cycle);
  const std::size_t log_t = r_cycle.size();
  const unsigned log_k = w.log_k;
  transcript.absorb_frs("ram_cycle_claims",
                        std::vector<Fr>{claims.read, claims.written, claims.address});
  const Fr gamma = transcript.challenge("ram_gamma");
  const std::vector<Fr> r_prime = transcript.challenges("ram_output_point", log_k);
  const std::vector<Fr> init = dense_words(*s.init, log_k);
  // The final memory the prover's accesses leave (Init + Σ Inc·ra).
  std::vector<Fr> final_mem = init;
  for (std::size_t j = 0; j < w.cycles.size(); ++j)
    if (w.cycles[j].accessed) final_mem[w.cycles[j].address] += w.inc(j);
  std::unique_ptr<SumcheckKernel> rw, raf, oc;
  {
    JOLT_SPAN(kReadWriteLabels.prepare);
    rw = make_read_write_kernel(w, init, r_cycle, gamma);
  }
  {
    JOLT_SPAN(kRafLabels.prepare);
    raf = make_raf_kernel(w, *s.layout, r_cycle);
  }
  {
    JOLT_SPAN(kOutputCheckLabels.prepare);
    oc = make_output_check_kernel(final_mem, *s.io, r_prime);
  }
  if (on_prepared) on_prepared({rw.get(), raf.get(), oc.get()});
  const BatchProverOutput b = prove_batch({{rw.get(), claims.read + gamma * claims.written},
                                           {raf.get(), claims.address},
                                           {oc.get(), Fr::zero()}},
                                          transcript, self_check);
  proof.read_write = b.proof;
  proof.read_write_outputs.clear();
  for (const auto& o : b.member_outputs)
    proof.read_write_outputs.insert(proof.read_write_outputs.end(), o.begin(), o.end());
  transcript.absorb_frs("ram_read_write_outputs", proof.read_write_outputs);
  const ReadWritePoints p = read_write_points(b.challenges, log_t);
  return RamReadWriteStep{p.r_addr, p.r_cycle};
}

std::vector<Fr> prove_ram_val_check(const RamWitness& w, const RamStatement& s,
                                    const RamReadWriteStep& rw, Transcript& transcript,
                                    RamProof& proof, bool self_check,
                                    const RamKernelPrepared& on_prepared) {
  const Fr gamma_v = transcript.challenge("ram_val_gamma");
  const Fr init_at = words_mle(*s.init, rw.r_addr);
  std::unique_ptr<SumcheckKernel> vc;
  {
    JOLT_SPAN(kValCheckLabels.prepare);
    vc = make_val_check_kernel(w, rw.r_addr, rw.r_cycle, gamma_v);
  }
  if (on_prepared) on_prepared({vc.get()});
  const BatchProverOutput b =
      prove_batch({{vc.get(), val_check_input(proof.read_write_outputs[1],
                                              proof.read_write_outputs[4], init_at, gamma_v)}},
                  transcript, self_check);
  proof.val_check = b.proof;
  proof.val_check_outputs = b.member_outputs[0];
  transcript.absorb_frs("ram_val_check_outputs", proof.val_check_outputs);
  return b.challenges;
}

std::vector<Fr> prove_ram_ra(const RamWitness& w, std::span<const Fr> r_cycle,
                             const RamReadWriteStep& rw, std::span<const Fr> r_val_check,
                             Transcript& transcript, RamProof& proof, bool self_check,
                             const RamKernelPrepared& on_prepared) {
  const std::size_t log_t = r_cycle.size();
  const unsigned log_k = w.log_k;
  const RaChallenges c = draw_ra_challenges(transcript, log_t);
  std::vector<std::uint64_t> keys;
  std::vector<std::uint8_t> gate;
  std::unique_ptr<SumcheckKernel> ra;
  {
    JOLT_SPAN(kRaLabels.prepare);
    std::vector<Fr> weights = EqPolynomial::evals(rw.r_cycle);
    {
      const std::vector<Fr> e1 = EqPolynomial::evals(r_cycle, c.beta_pow[1]);
      const std::vector<Fr> e4 = EqPolynomial::evals(r_val_check, c.beta_pow[2]);
      for (std::size_t j = 0; j < weights.size(); ++j) weights[j] += e1[j] + e4[j];
    }
    keys = address_keys(w);
    gate = access_gate(w);
    lookups::RaVirtualizationInput in{
        keys, log_k, log_k, std::move(weights), rw.r_addr, {Fr::one()}, c.rho, c.zeta, gate};
    ra = lookups::make_ra_virtualization_kernel(std::move(in), kRaLabels);
  }
  if (on_prepared) on_prepared({ra.get()});
  const Fr ra_claim = proof.read_write_outputs[0] + c.beta_pow[1] * proof.read_write_outputs[3] +
                      c.beta_pow[2] * proof.val_check_outputs[1];
  const BatchProverOutput b = prove_batch({{ra.get(), ra_claim}}, transcript, self_check);
  proof.ra = b.proof;
  proof.ra_outputs = b.member_outputs[0];
  transcript.absorb_frs("ram_ra_outputs", proof.ra_outputs);
  return b.challenges;
}

RamProof prove_ram(const RamWitness& w, const RamStatement& s, std::span<const Fr> r_cycle,
                   const RamCycleClaims& claims, Transcript& transcript, bool self_check) {
  RamProof proof;
  const RamReadWriteStep rw =
      prove_ram_read_write(w, s, r_cycle, claims, transcript, proof, self_check);
  const std::vector<Fr> r4 = prove_ram_val_check(w, s, rw, transcript, proof, self_check);
  prove_ram_ra(w, r_cycle, rw, r4, transcript, proof, self_check);
  return proof;
}

std::optional<VerifyError> verify_ram_read_write(const RamStatement& s, std::span<const Fr> r_cycle,
                                                 const RamCycleClaims& claims,
                                                 const RamProof& proof, Transcript& transcript,
                                                 RamOpenings& out) {
  const RamLayout& layout = *s.layout;
  const std::size_t log_t = s.log_t;
  const unsigned log_k = layout.log_k();
  JOLT_VERIFY("ram.shape",
              r_cycle.size() == log_t && proof.read_write_outputs.size() == 5 &&
                  proof.val_check_outputs.size() == 2 && proof.ra_outputs.size() == log_k + 1,
              "the RAM proof's claim counts do not match the statement");
  transcript.absorb_frs("ram_cycle_claims",
                        std::vector<Fr>{claims.read, claims.written, claims.address});
  const Fr gamma = transcript.challenge("ram_gamma");
  const std::vector<Fr> r_prime = transcript.challenges("ram_output_point", log_k);
  SumcheckVerified v1;
  if (auto e = verify_batch({claims.read + gamma * claims.written, claims.address, Fr::zero()},
                            {log_t + log_k, log_k, log_k}, 3, proof.read_write, transcript, v1))
    return VerifyError{"ram.read_write." + e->check, e->message};
  const std::vector<Fr>& o1 = proof.read_write_outputs;
  const std::vector<Fr> r_addr = v1.point_of(log_k);
  {
    const Fr expected =
        v1.coefficients[0] * read_write_final(r_cycle, gamma, v1.challenges, log_t,
                                              std::span<const Fr>(o1).subspan(0, 3)) +
        v1.coefficients[1] * raf_final(layout, r_addr, std::span<const Fr>(o1).subspan(3, 1)) +
        v1.coefficients[2] *
            output_check_final(*s.io, r_prime, r_addr, std::span<const Fr>(o1).subspan(4, 1));
    JOLT_VERIFY("ram.read_write.final", expected == v1.final_claim,
                "the RAM read/write batch's last claim is not eq·ra·((1 + γ)Val + γ·Inc) + "
                "unmap·ra + eq·mask·(Val_final − io) at the claimed openings");
  }
  transcript.absorb_frs("ram_read_write_outputs", o1);
  const ReadWritePoints p2 = read_write_points(v1.challenges, log_t);
  out.address_point = r_addr;
  out.read_write_cycle = p2.r_cycle;
  out.inc_at_read_write = o1[2];
  return std::nullopt;
}

std::optional<VerifyError> verify_ram_val_check(const RamStatement& s, const RamProof& proof,
                                                Transcript& transcript, RamOpenings& out) {
  const std::vector<Fr>& o1 = proof.read_write_outputs;
  const Fr gamma_v = transcript.challenge("ram_val_gamma");
  const Fr init_at = words_mle(*s.init, out.address_point);
  SumcheckVerified v2;
  if (auto e = verify_batch({val_check_input(o1[1], o1[4], init_at, gamma_v)}, {s.log_t}, 3,
                            proof.val_check, transcript, v2))
    return VerifyError{"ram.val_check." + e->check, e->message};
  {
    const Fr expected =
        v2.coefficients[0] *
        val_check_final(out.read_write_cycle, gamma_v, v2.challenges, proof.val_check_outputs);
    JOLT_VERIFY("ram.val_check.final", expected == v2.final_claim,
                "the RAM Val check's last claim is not Inc·ra·(LT + γ) at the claimed openings");
  }
  transcript.absorb_frs("ram_val_check_outputs", proof.val_check_outputs);
  out.val_check_cycle = v2.challenges;
  out.inc_at_val_check = proof.val_check_outputs[0];
  return std::nullopt;
}

std::optional<VerifyError> verify_ram_ra(const RamStatement& s, std::span<const Fr> r_cycle,
                                         const RamProof& proof, Transcript& transcript,
                                         RamOpenings& out) {
  const std::size_t log_t = s.log_t;
  const unsigned log_k = s.layout->log_k();
  const std::vector<Fr>& o1 = proof.read_write_outputs;
  const RaChallenges c = draw_ra_challenges(transcript, log_t);
  const Fr ra_claim = o1[0] + c.beta_pow[1] * o1[3] + c.beta_pow[2] * proof.val_check_outputs[1];
  SumcheckVerified v3;
  if (auto e = verify_batch({ra_claim}, {log_t}, lookups::ra_virtualization_degree(log_k, true),
                            proof.ra, transcript, v3))
    return VerifyError{"ram.ra." + e->check, e->message};
  {
    const std::vector<Fr>& o3 = proof.ra_outputs;
    const Fr weight = EqPolynomial::evaluate(out.read_write_cycle, v3.challenges) +
                      c.beta_pow[1] * EqPolynomial::evaluate(r_cycle, v3.challenges) +
                      c.beta_pow[2] * EqPolynomial::evaluate(out.val_check_cycle, v3.challenges);
    const std::vector<Fr> one{Fr::one()};
    const Fr expected =
        v3.coefficients[0] * lookups::ra_virtualization_final(
                                 out.address_point, log_k, one, weight * o3[log_k], c.rho, c.zeta,
                                 v3.challenges, std::span<const Fr>(o3).subspan(0, log_k));
    JOLT_VERIFY("ram.ra.final", expected == v3.final_claim,
                "the RAM RA virtualization's last claim is not eq-weights·h·Π eq(r_addr, bits) "
                "plus booleanity at the claimed bit openings");
  }
  transcript.absorb_frs("ram_ra_outputs", proof.ra_outputs);
  out.bit_point = v3.challenges;
  out.address_bits.assign(proof.ra_outputs.begin(),
                          proof.ra_outputs.begin() + static_cast<std::ptrdiff_t>(log_k));
  out.accessed = proof.ra_outputs[log_k];
  return std::nullopt;
}

std::optional<VerifyError> verify_ram(const RamStatement& s, std::span<const Fr> r_cycle,
                                      const RamCycleClaims& claims, const RamProof& proof,
                                      Transcript& transcript, RamOpenings& out) {
  if (auto e = verify_ram_read_write(s, r_cycle, claims, proof, transcript, out)) return e;
  if (auto e = verify_ram_val_check(s, proof, transcript, out)) return e;
  return verify_ram_ra(s, r_cycle, proof, transcript, out);
}

}  // namespace jolt::prover::memory
