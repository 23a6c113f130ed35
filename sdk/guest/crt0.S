/* crt0.S: guest entry. Sets the stack pointer, calls main, exits with main's return value. */
  .section .text.entry, "ax"
  .globl _start
_start:
  .option push
  .option norelax
  la sp, __stack_top
  .option pop
  call main
  li a7, 0
  ecall
1:
  j 1b
