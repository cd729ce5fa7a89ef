//! SysV x86-64 argument classification, for variadic calls.
//!
//! A variadic callee labels its `va_list` areas at `va_start`: the whole register save
//! area, and the first `__tp_va_bytes_tls` bytes of the overflow (stack) area. The
//! caller computes that byte count here from the IR types of the call's arguments,
//! which clang has already lowered to the ABI (structs are split into scalars or
//! passed `byval`), so classifying IR types is enough:
//!
//! * integers up to 64 bits and pointers take one of the 6 general-purpose registers,
//!   128-bit integers two (or go to the stack, 16-aligned, if two are not free);
//! * `float`, `double`, `fp128` and vectors up to 16 bytes take one of the 8 SSE
//!   registers;
//! * everything else (`x86_fp80`, larger vectors, `byval` aggregates) and anything
//!   once the registers are used up goes to the stack, each argument at an offset
//!   aligned to 8 (16 for 16-byte-aligned types), its size rounded up to 8.
//!
//! Fixed arguments consume registers and stack first; only the bytes after the last
//! fixed stack argument belong to the variadic part (that is where `va_start` points
//! `overflow_arg_area`).

/// An argument as the ABI sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AbiArg {
    /// Integer of this many bits (≤ 128), or pointer (64).
    Int(u32),
    /// `float`, `double`, `fp128`.
    Float(u32),
    /// Fixed vector of this many bytes.
    Vector(u64),
    /// `x86_fp80` (long double): always memory, 16 bytes, 16-aligned.
    X87,
    /// `byval` aggregate: memory of this size and alignment.
    Memory { size: u64, align: u64 },
}

const GP_REGS: u32 = 6;
const SSE_REGS: u32 = 8;

#[derive(Debug, Default)]
struct State {
    gp: u32,
    sse: u32,
    stack: u64,
}

impl State {
    fn push_stack(&mut self, size: u64, align: u64) {
        let a = align.max(8);
        self.stack = self.stack.div_ceil(a) * a;
        self.stack += size.div_ceil(8) * 8;
    }

    fn place(&mut self, a: AbiArg) {
        match a {
            AbiArg::Int(bits) if bits > 64 => {
                if self.gp + 2 <= GP_REGS {
                    self.gp += 2;
                } else {
                    self.push_stack(16, 16);
                }
            }
            AbiArg::Int(_) => {
                if self.gp < GP_REGS {
                    self.gp += 1;
                } else {
                    self.push_stack(8, 8);
                }
            }
            AbiArg::Float(bits) => {
                if self.sse < SSE_REGS {
                    self.sse += 1;
                } else if bits > 64 {
                    self.push_stack(16, 16);
                } else {
                    self.push_stack(8, 8);
                }
            }
            AbiArg::Vector(bytes) if bytes <= 16 => {
                if self.sse < SSE_REGS {
                    self.sse += 1;
                } else {
                    self.push_stack(bytes, if bytes > 8 { 16 } else { 8 });
                }
            }
            AbiArg::Vector(bytes) => self.push_stack(bytes, bytes.min(64)),
            AbiArg::X87 => self.push_stack(16, 16),
            AbiArg::Memory { size, align } => self.push_stack(size, align),
        }
    }
}

/// Bytes of the variadic arguments `var` that are passed on the stack, after the fixed
/// arguments `fixed` took their registers and stack slots.
pub fn variadic_stack_bytes(fixed: &[AbiArg], var: &[AbiArg]) -> u64 {
    let mut s = State::default();
    for &a in fixed {
        s.place(a);
    }
    let start = s.stack;
    for &a in var {
        s.place(a);
    }
    s.stack - start
}

#[cfg(test)]
mod tests {
    use super::*;
    use AbiArg::*;

    #[test]
    fn printf_like_calls_fit_in_registers() {
        // printf(fmt, int, double, ptr)
        assert_eq!(
            variadic_stack_bytes(&[Int(64)], &[Int(32), Float(64), Int(64)]),
            0
        );
    }

    #[test]
    fn gp_overflow_goes_to_stack() {
        // f(fmt, 7 ints): fmt + 5 ints in registers, 2 on the stack.
        let var = [Int(32); 7];
        assert_eq!(variadic_stack_bytes(&[Int(64)], &var), 16);
    }

    #[test]
    fn sse_overflow_goes_to_stack() {
        let var = [Float(64); 10];
        assert_eq!(variadic_stack_bytes(&[Int(64)], &var), 16);
    }

    #[test]
    fn long_double_and_byval_are_memory() {
        assert_eq!(variadic_stack_bytes(&[Int(64)], &[X87]), 16);
        assert_eq!(
            variadic_stack_bytes(&[Int(64)], &[Memory { size: 20, align: 4 }]),
            24
        );
        // An 8-byte stack arg then a 16-aligned one: padding to 16 counts.
        assert_eq!(
            variadic_stack_bytes(&[Int(64)], &[Memory { size: 8, align: 8 }, X87]),
            32
        );
    }

    #[test]
    fn fixed_stack_arguments_are_not_counted() {
        // 7 fixed ints (one on the stack), then one variadic int on the stack.
        let fixed = [Int(64); 7];
        assert_eq!(variadic_stack_bytes(&fixed, &[Int(32)]), 8);
        // A fixed byval of 24 bytes, then a variadic long double: aligned after 24 -> 32.
        assert_eq!(
            variadic_stack_bytes(&[Memory { size: 24, align: 8 }], &[X87]),
            24
        );
    }

    #[test]
    fn int128_needs_two_registers() {
        let fixed = [Int(64); 5];
        assert_eq!(variadic_stack_bytes(&fixed, &[Int(128)]), 16);
        assert_eq!(variadic_stack_bytes(&[Int(64); 4], &[Int(128)]), 0);
    }

    #[test]
    fn vectors() {
        assert_eq!(variadic_stack_bytes(&[], &[Vector(16)]), 0);
        assert_eq!(variadic_stack_bytes(&[], &[Vector(32)]), 32);
    }
}
