/* runtime.c: the guest runtime (ECALL wrappers, I/O regions, bump heap, mem* routines). */
#include "jolt_guest.h"

extern char __heap_start[];
extern char __heap_end[];
static char* heap_next = __heap_start;

static inline void jolt_ecall1(uint32_t call, uint32_t arg) {
  register uint32_t a0 __asm__("a0") = arg;
  register uint32_t a7 __asm__("a7") = call;
  __asm__ volatile("ecall" : : "r"(a0), "r"(a7) : "memory");
}

int jolt_read_u32(uint32_t off, uint32_t* out) {
  const uint32_t len = jolt_input_len();
  if (off > len || len - off < 4) return -1;
  const uint8_t* p = jolt_input() + off;
  if ((off & 3u) == 0) { /* one word load (the prover runs byte loads as 7-row sequences) */
    *out = *(const uint32_t*)p;
    return 0;
  }
  *out = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
  return 0;
}

void jolt_write_output(const void* data, uint32_t len) {
  if (len > JOLT_OUTPUT_MAX) len = JOLT_OUTPUT_MAX;
  memcpy((uint8_t*)(JOLT_OUTPUT_BASE + 4u), data, len);
  *(volatile uint32_t*)JOLT_OUTPUT_BASE = len;
}

void* jolt_alloc(size_t size) {
  size = (size + 15u) & ~(size_t)15u;
  if ((size_t)(__heap_end - heap_next) < size) jolt_exit(3);
  void* p = heap_next;
  heap_next += size;
  return p;
}

void jolt_exit(uint32_t status) {
  jolt_ecall1(JOLT_ECALL_EXIT, status);
  for (;;) {
  }
}

void start_cycle_tracking(const char* label) {
  jolt_ecall1(JOLT_ECALL_CYCLE_START, (uint32_t)(uintptr_t)label);
}
void end_cycle_tracking(const char* label) {
  jolt_ecall1(JOLT_ECALL_CYCLE_END, (uint32_t)(uintptr_t)label);
}

/* Word-at-a-time when both pointers are aligned; the loops must not be turned back into calls
 * to themselves, hence -fno-builtin on this file (see JoltGuest.cmake). */
void* memcpy(void* dst, const void* src, size_t n) {
  uint8_t* d = dst;
  const uint8_t* s = src;
  if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0) {
    for (; n >= 4; n -= 4, d += 4, s += 4) *(uint32_t*)d = *(const uint32_t*)s;
  }
  while (n--) *d++ = *s++;
  return dst;
}

void* memmove(void* dst, const void* src, size_t n) {
  uint8_t* d = dst;
  const uint8_t* s = src;
  if (d == s || n == 0) return dst;
  if (d < s) return memcpy(dst, src, n);
  while (n--) d[n] = s[n];
  return dst;
}

void* memset(void* dst, int c, size_t n) {
  uint8_t* d = dst;
  while (n--) *d++ = (uint8_t)c;
  return dst;
}

int memcmp(const void* a, const void* b, size_t n) {
  const uint8_t* x = a;
  const uint8_t* y = b;
  for (size_t i = 0; i < n; ++i)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}
