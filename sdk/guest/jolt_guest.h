/* jolt_guest.h: the freestanding runtime of an RV32IM jolt-run guest (C, no libc).
 *
 *   #include "jolt_guest.h"
 *   int main(void) {
 *     uint32_t n; jolt_read_u32(0, &n);
 *     start_cycle_tracking("fib"); uint32_t r = fib(n); end_cycle_tracking("fib");
 *     jolt_write_output(&r, 4); return 0;  // main's return value is the exit status
 *   }
 *
 * Memory map (must match prover/src/tracer/include/jolt/prover/tracer/tracer.hpp):
 *   RAM 0x80000000 + 64 MiB (code, data, bss, bump heap, 1 MiB stack at the top);
 *   input 0x20000000: u32 little-endian length, then the bytes (read-only);
 *   output 0x30000000: u32 length, then the bytes (at most 1 MiB - 4).
 * ECALL services (a7): 0 exit(a0), 1 start cycle marker(a0 = label), 2 end marker(a0 = label).
 * Single-threaded by construction. */
#ifndef JOLT_GUEST_H
#define JOLT_GUEST_H

#include <stddef.h>
#include <stdint.h>

#define JOLT_INPUT_BASE 0x20000000u
#define JOLT_OUTPUT_BASE 0x30000000u
#define JOLT_OUTPUT_MAX (0x00100000u - 4u)

#define JOLT_ECALL_EXIT 0u
#define JOLT_ECALL_CYCLE_START 1u
#define JOLT_ECALL_CYCLE_END 2u

#ifdef __cplusplus
extern "C" {
#endif

/* Input region. */
static inline uint32_t jolt_input_len(void) { return *(const volatile uint32_t*)JOLT_INPUT_BASE; }
static inline const uint8_t* jolt_input(void) { return (const uint8_t*)(JOLT_INPUT_BASE + 4u); }
/* Reads a little-endian u32 at byte offset `off` of the input; 0 on success, -1 past the end. */
int jolt_read_u32(uint32_t off, uint32_t* out);

/* Output region: replaces the output with `len` bytes (truncated at JOLT_OUTPUT_MAX). */
void jolt_write_output(const void* data, uint32_t len);

/* Bump heap from the end of .bss to the bottom of the stack; 16-byte aligned, never freed.
 * Exits with status 3 when the heap is exhausted. */
void* jolt_alloc(size_t size);

/* Ends the program with `status` (never returns). */
__attribute__((noreturn)) void jolt_exit(uint32_t status);

/* Cycle markers: the tracer reports [start, end) cycle spans per label. */
void start_cycle_tracking(const char* label);
void end_cycle_tracking(const char* label);

/* The compiler may emit calls to these even in freestanding code. */
void* memcpy(void* dst, const void* src, size_t n);
void* memmove(void* dst, const void* src, size_t n);
void* memset(void* dst, int c, size_t n);
int memcmp(const void* a, const void* b, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* JOLT_GUEST_H */
