//! Floating-point types as denormal mode sees them: the `FP_*` code of the ABI, the
//! integer width of the bits, and the constants of the denormal test.
//!
//! `isdenorm(x)` is defined on the integer bits (docs/internal/denormal-mode.md): the
//! exponent field is zero and the mantissa is not. With `abs = bits & (exp | mant)`
//! (the sign dropped) that is `0 < abs <= mant`, i.e. `abs - 1 <u mant`. The pass emits
//! the equivalent *signed* comparison
//!
//! ```text
//!   (abs + (2^(W-1) - 1))  <s  (mant - 2^(W-1))        (W-bit two's complement)
//! ```
//!
//! (adding `2^(W-1)` to both sides of an unsigned comparison turns it into a signed
//! one): x86 has signed vector compares only (`pcmpgtd`), so for `<4 x float>` this is
//! `pand`, `paddd`, `pcmpgtd` instead of the five instructions LLVM makes of `ult`.
//! [`FpKind::is_denorm_bits`] is the definition, [`FpKind::is_denorm_signed_form`] the
//! emitted form; the unit tests check that they agree.

use crate::ir::{self, T};
use inkwell::llvm_sys::LLVMTypeKind as K;
use taintprof_abi as abi;

/// One IEEE-style binary floating-point format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FpKind {
    /// `FP_*` code of the ABI.
    pub code: u16,
    /// Width of the bit pattern (`bitcast` target), 80 for x86_fp80.
    pub bits: u32,
    /// Exponent field.
    pub exp_mask: u128,
    /// Mantissa (for x86_fp80 including the explicit integer bit: a pseudo-denormal,
    /// exponent 0 with the integer bit set, is a denormal operand to the x87 too).
    pub mant_mask: u128,
    /// Name used in messages and the sidecar.
    pub name: &'static str,
}

pub const HALF: FpKind = FpKind {
    code: abi::FP_HALF,
    bits: 16,
    exp_mask: 0x7c00,
    mant_mask: 0x03ff,
    name: "half",
};
pub const FLOAT: FpKind = FpKind {
    code: abi::FP_FLOAT,
    bits: 32,
    exp_mask: 0x7f80_0000,
    mant_mask: 0x007f_ffff,
    name: "float",
};
pub const DOUBLE: FpKind = FpKind {
    code: abi::FP_DOUBLE,
    bits: 64,
    exp_mask: 0x7ff0_0000_0000_0000,
    mant_mask: 0x000f_ffff_ffff_ffff,
    name: "double",
};
pub const X86_FP80: FpKind = FpKind {
    code: abi::FP_X86_FP80,
    bits: 80,
    exp_mask: 0x7fff << 64,
    mant_mask: u64::MAX as u128,
    name: "x86_fp80",
};
pub const FP128: FpKind = FpKind {
    code: abi::FP_FP128,
    bits: 128,
    exp_mask: 0x7fff << 112,
    mant_mask: (1u128 << 112) - 1,
    name: "fp128",
};

/// Mask of the low `bits` bits.
const fn low(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

impl FpKind {
    /// `exp | mant`: the bits that remain when the sign is dropped.
    pub const fn abs_mask(&self) -> u128 {
        self.exp_mask | self.mant_mask
    }

    /// `2^(W-1) - 1`, added to `abs` (W-bit arithmetic).
    pub const fn bias(&self) -> u128 {
        (1u128 << (self.bits - 1)) - 1
    }

    /// `mant - 2^(W-1)` as a W-bit pattern: `abs + bias <s limit` ⟺ denormal.
    pub const fn limit(&self) -> u128 {
        self.mant_mask.wrapping_sub(1u128 << (self.bits - 1)) & low(self.bits)
    }

    /// Size of one element in memory (`alloc size`; x86_fp80 occupies 16 bytes).
    pub const fn elem_size(&self) -> u64 {
        match self.bits {
            16 => 2,
            32 => 4,
            64 => 8,
            _ => 16,
        }
    }

    /// Float and double: the smallest normal exponent and the number of mantissa
    /// bits (what fast-path coverage reasons with); `None` for the other formats.
    pub fn coverable(&self) -> Option<(i32, i32)> {
        match self.bits {
            32 if *self == FLOAT => Some((-126, 23)),
            64 if *self == DOUBLE => Some((-1022, 52)),
            _ => None,
        }
    }

    /// Bit pattern of `2^e`, a normal power of two of a [`coverable`](Self::coverable)
    /// format.
    pub fn pow2_bits(&self, e: i32) -> u128 {
        let (emin, mant) = self.coverable().expect("float or double");
        debug_assert!(e >= emin);
        ((e - emin + 1) as u128) << mant
    }

    /// The definition: exponent zero and mantissa non-zero.
    #[cfg(test)]
    pub fn is_denorm_bits(&self, bits: u128) -> bool {
        bits & self.exp_mask == 0 && bits & self.mant_mask != 0
    }

    /// What the emitted IR computes, evaluated on `bits` (W-bit wrapping arithmetic,
    /// signed comparison).
    #[cfg(test)]
    pub fn is_denorm_signed_form(&self, bits: u128) -> bool {
        let w = self.bits;
        let m = low(w);
        let s = ((bits & self.abs_mask()).wrapping_add(self.bias())) & m;
        let signed = |x: u128| -> i128 {
            if w == 128 {
                x as i128
            } else if x >> (w - 1) & 1 == 1 {
                (x as i128) - (1i128 << w)
            } else {
                x as i128
            }
        };
        signed(s) < signed(self.limit())
    }
}

/// The kind of a scalar FP type; `Err` for FP types denormal mode cannot describe
/// (bfloat, ppc_fp128), `Ok(None)` for non-FP types.
pub fn scalar_kind(t: T) -> Result<Option<FpKind>, &'static str> {
    Ok(Some(match ir::kind(t) {
        K::LLVMHalfTypeKind => HALF,
        K::LLVMFloatTypeKind => FLOAT,
        K::LLVMDoubleTypeKind => DOUBLE,
        K::LLVMX86_FP80TypeKind => X86_FP80,
        K::LLVMFP128TypeKind => FP128,
        K::LLVMBFloatTypeKind => return Err("bfloat"),
        K::LLVMPPC_FP128TypeKind => return Err("ppc_fp128"),
        _ => return Ok(None),
    }))
}

/// `(kind, lanes)` of an FP scalar (lanes 1) or a fixed vector of FP; `Ok(None)` for
/// anything else.
pub fn fp_shape(t: T) -> Result<Option<(FpKind, u32)>, &'static str> {
    if ir::is_vector(t) {
        return Ok(scalar_kind(ir::element_type(t))?.map(|k| (k, ir::vector_len(t))));
    }
    Ok(scalar_kind(t)?.map(|k| (k, 1)))
}

/// Whether `t` is an FP scalar or FP vector (unsupported FP formats included).
pub fn is_fp(t: T) -> bool {
    let e = if ir::is_vector(t) || ir::is_scalable(t) {
        ir::element_type(t)
    } else {
        t
    };
    matches!(
        ir::kind(e),
        K::LLVMHalfTypeKind
            | K::LLVMFloatTypeKind
            | K::LLVMDoubleTypeKind
            | K::LLVMX86_FP80TypeKind
            | K::LLVMFP128TypeKind
            | K::LLVMBFloatTypeKind
            | K::LLVMPPC_FP128TypeKind
    )
}

/// Whether first-class aggregate type `t` (struct or array) has an FP leaf.
pub fn aggregate_has_fp(t: T) -> bool {
    use inkwell::llvm_sys::core::*;
    match ir::kind(t) {
        K::LLVMStructTypeKind => {
            // SAFETY: `t` is a struct type (this arm).
            let n = unsafe { LLVMCountStructElementTypes(t) };
            (0..n).any(|i| {
                // SAFETY: `t` is a struct type and `i` < its element count `n`.
                let e = unsafe { LLVMStructGetTypeAtIndex(t, i) };
                is_fp(e) || aggregate_has_fp(e)
            })
        }
        K::LLVMArrayTypeKind => {
            let e = ir::element_type(t);
            is_fp(e) || aggregate_has_fp(e)
        }
        _ => false,
    }
}

/// The FP kind of a `DW_ATE_float` debug type of `bits` bits named `name`, as laid out
/// on x86-64 (`long double` is x86_fp80 stored in 128 bits); `None` for formats without
/// an `FP_*` code (`__bf16`).
pub fn kind_of_debug_type(bits: u32, name: &str) -> Option<FpKind> {
    let n = name.trim();
    if n.contains("bf16") || n.contains("bfloat") {
        return None;
    }
    match bits {
        16 => Some(HALF),
        32 => Some(FLOAT),
        64 => Some(DOUBLE),
        80 => Some(X86_FP80),
        128 if n.contains("long double") => Some(X86_FP80),
        128 => Some(FP128),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [FpKind; 5] = [HALF, FLOAT, DOUBLE, X86_FP80, FP128];

    /// Interesting bit patterns of a format: zeros, the smallest and largest denormals,
    /// the smallest normal, infinities, NaNs, and both signs of each.
    fn patterns(k: &FpKind) -> Vec<u128> {
        let sign = 1u128 << (k.bits - 1);
        let exp_lsb = k.exp_mask & k.exp_mask.wrapping_neg();
        let mut v = vec![
            0,
            1,
            2,
            k.mant_mask,
            k.mant_mask - 1,
            k.mant_mask >> 1,
            exp_lsb,
            exp_lsb | 1,
            exp_lsb | k.mant_mask,
            k.exp_mask,
            k.exp_mask | 1,
            k.exp_mask | k.mant_mask,
            k.exp_mask - exp_lsb,
            k.abs_mask(),
        ];
        let signed: Vec<u128> = v.iter().map(|x| x | sign).collect();
        v.extend(signed);
        v
    }

    #[test]
    fn signed_form_agrees_with_the_definition() {
        for k in &ALL {
            for b in patterns(k) {
                assert_eq!(
                    k.is_denorm_bits(b),
                    k.is_denorm_signed_form(b),
                    "{} bits {b:#x}",
                    k.name
                );
            }
            // A pseudo-random sweep as well (xorshift).
            let mut x: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;
            for _ in 0..20000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let b = x & low(k.bits);
                // Half of the samples in the denormal range.
                let b = if x & 1 == 0 { b & !k.exp_mask } else { b };
                assert_eq!(
                    k.is_denorm_bits(b),
                    k.is_denorm_signed_form(b),
                    "{} {b:#x}",
                    k.name
                );
            }
        }
    }

    #[test]
    fn constants() {
        assert_eq!(FLOAT.abs_mask(), 0x7fff_ffff);
        assert_eq!(FLOAT.bias(), 0x7fff_ffff);
        assert_eq!(FLOAT.limit(), 0x807f_ffff);
        assert_eq!(DOUBLE.abs_mask(), 0x7fff_ffff_ffff_ffff);
        assert_eq!(DOUBLE.limit(), 0x800f_ffff_ffff_ffff);
        assert_eq!(HALF.limit(), 0x83ff);
        assert_eq!(X86_FP80.abs_mask(), (1u128 << 79) - 1);
        // Known values: FLT_TRUE_MIN, FLT_MIN, DBL_TRUE_MIN, DBL_MIN, 1.0.
        assert!(FLOAT.is_denorm_bits(f32::from_bits(1).to_bits() as u128));
        assert!(!FLOAT.is_denorm_bits(f32::MIN_POSITIVE.to_bits() as u128));
        assert!(FLOAT.is_denorm_bits((f32::MIN_POSITIVE / 2.0).to_bits() as u128));
        assert!(FLOAT.is_denorm_bits((-f32::MIN_POSITIVE / 4.0).to_bits() as u128));
        assert!(DOUBLE.is_denorm_bits(f64::from_bits(1).to_bits() as u128));
        assert!(!DOUBLE.is_denorm_bits(f64::MIN_POSITIVE.to_bits() as u128));
        assert!(!DOUBLE.is_denorm_bits(1.0f64.to_bits() as u128));
        assert!(!DOUBLE.is_denorm_bits((-0.0f64).to_bits() as u128));
        assert_eq!(X86_FP80.elem_size(), 16);
        assert_eq!(FLOAT.elem_size(), 4);
    }

    #[test]
    fn debug_type_names() {
        assert_eq!(kind_of_debug_type(32, "float"), Some(FLOAT));
        assert_eq!(kind_of_debug_type(64, "double"), Some(DOUBLE));
        assert_eq!(kind_of_debug_type(128, "long double"), Some(X86_FP80));
        assert_eq!(kind_of_debug_type(128, "__float128"), Some(FP128));
        assert_eq!(kind_of_debug_type(16, "_Float16"), Some(HALF));
        assert_eq!(kind_of_debug_type(16, "__bf16"), None);
    }
}
