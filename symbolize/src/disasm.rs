//! One instruction: AT&T text (as `objdump -d` prints it), and the `op` / `type` the
//! denormal report uses (the names of the compiler mode: `fadd`, `float`, `<4 x float>`).

use iced_x86::{Decoder, DecoderOptions, Formatter, GasFormatter, Instruction, MemorySize, OpKind};

/// What the report says about an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub text: String,
    pub op: String,
    pub ty: String,
}

/// Decodes the instruction in `bytes` (at virtual address `ip`). None if invalid.
pub fn decode(bytes: &[u8], ip: u64) -> Option<Decoded> {
    let mut dec = Decoder::with_ip(64, bytes, ip, DecoderOptions::NONE);
    if !dec.can_decode() {
        return None;
    }
    let ins = dec.decode();
    if ins.is_invalid() {
        return None;
    }
    let mut f = GasFormatter::new();
    // objdump style: `0x10(%rip)` rather than the computed target.
    f.options_mut().set_rip_relative_addresses(true);
    f.options_mut().set_uppercase_hex(false);
    let mut text = String::new();
    f.format(&ins, &mut text);
    let mnemonic = format!("{:?}", ins.mnemonic()).to_ascii_lowercase();
    Some(Decoded {
        text,
        op: op_of(&mnemonic),
        ty: type_of(&ins, &mnemonic),
    })
}

fn strip_v(m: &str) -> &str {
    // VEX/EVEX forms of SSE instructions: vaddps → addps (but not vfmadd...).
    match m.strip_prefix('v') {
        Some(rest) if !rest.starts_with("fm") && !rest.starts_with("fnm") => rest,
        _ => m,
    }
}

/// The operation, named as in the compiler mode where there is a match.
pub fn op_of(mnemonic: &str) -> String {
    let m = strip_v(mnemonic);
    if m.starts_with('f') && is_x87(m) {
        return x87_op(m);
    }
    let name = if m.starts_with("vfm") || m.starts_with("vfnm") || m.starts_with("fmadd") {
        "fma"
    } else if m.starts_with("add") || m.starts_with("hadd") {
        "fadd"
    } else if m.starts_with("sub") || m.starts_with("hsub") {
        "fsub"
    } else if m.starts_with("mul") {
        "fmul"
    } else if m.starts_with("div") {
        "fdiv"
    } else if m.starts_with("sqrt") {
        "sqrt"
    } else if m.starts_with("rsqrt") {
        "rsqrt"
    } else if m.starts_with("rcp") {
        "rcp"
    } else if m.starts_with("min") {
        "fmin"
    } else if m.starts_with("max") {
        "fmax"
    } else if m.starts_with("comis") || m.starts_with("ucomis") || m.starts_with("cmp") {
        "fcmp"
    } else if m == "cvtss2sd" || m == "cvtps2pd" || m == "cvtph2ps" {
        "fpext"
    } else if m == "cvtsd2ss" || m == "cvtpd2ps" || m == "cvtps2ph" {
        "fptrunc"
    } else if m.starts_with("cvt") && (m.contains("2si") || m.contains("2dq") || m.contains("2qq"))
    {
        "fptosi"
    } else if m.starts_with("round") || m.starts_with("rndscale") {
        "round"
    } else if m.starts_with("dpp") {
        "dot"
    } else {
        m
    };
    name.to_string()
}

fn is_x87(m: &str) -> bool {
    !(m.starts_with("fma")
        || m.starts_with("fnm")
        || m.starts_with("fxsave")
        || m.starts_with("fxrstor"))
}

fn x87_op(m: &str) -> String {
    let base = m.trim_end_matches('p');
    let name = match base {
        "fadd" | "fiadd" => "fadd",
        "fsub" | "fsubr" | "fisub" | "fisubr" => "fsub",
        "fmul" | "fimul" => "fmul",
        "fdiv" | "fdivr" | "fidiv" | "fidivr" => "fdiv",
        "fld" => "load",
        "fst" | "fist" | "fistt" => "store",
        "fcom" | "fcomp" | "fucom" | "fucomp" | "fcomi" | "fucomi" | "ftst" | "ficom" => "fcmp",
        "fsqrt" => "sqrt",
        "fprem" | "fprem1" => "frem",
        "fchs" => "fneg",
        _ => m,
    };
    name.to_string()
}

fn elem(m: &str) -> Option<&'static str> {
    // The operand type: a conversion's source, else the suffix.
    let src = m.split('2').next().unwrap_or(m);
    if src.ends_with("ss") {
        Some("float")
    } else if src.ends_with("sd") {
        Some("double")
    } else if src.ends_with("sh") {
        Some("half")
    } else if src.ends_with("ps") {
        Some("<float>")
    } else if src.ends_with("pd") {
        Some("<double>")
    } else if src.ends_with("ph") {
        Some("<half>")
    } else {
        None
    }
}

fn reg_bits(ins: &Instruction) -> u32 {
    (0..ins.op_count())
        .filter(|&i| ins.op_kind(i) == OpKind::Register)
        .map(|i| ins.op_register(i).size() as u32 * 8)
        .max()
        .unwrap_or(128)
}

/// LLVM-style type names: `float`, `double`, `x86_fp80`, `<4 x float>`.
pub fn type_of(ins: &Instruction, mnemonic: &str) -> String {
    let m = strip_v(mnemonic);
    if m.starts_with('f') && is_x87(m) {
        return match ins.memory_size() {
            MemorySize::Float32 => "float".into(),
            MemorySize::Float64 => "double".into(),
            _ => "x86_fp80".into(),
        };
    }
    let mem_ty = match ins.memory_size() {
        MemorySize::Float32 => Some("float".to_string()),
        MemorySize::Float64 => Some("double".to_string()),
        MemorySize::Float16 => Some("half".to_string()),
        MemorySize::Packed64_Float32 => Some("<2 x float>".to_string()),
        MemorySize::Packed128_Float32 => Some("<4 x float>".to_string()),
        MemorySize::Packed256_Float32 => Some("<8 x float>".to_string()),
        MemorySize::Packed512_Float32 => Some("<16 x float>".to_string()),
        MemorySize::Packed128_Float64 => Some("<2 x double>".to_string()),
        MemorySize::Packed256_Float64 => Some("<4 x double>".to_string()),
        MemorySize::Packed512_Float64 => Some("<8 x double>".to_string()),
        _ => None,
    };
    if let Some(t) = mem_ty {
        return t;
    }
    let bits = reg_bits(ins);
    match elem(m) {
        Some("<float>") => format!("<{} x float>", bits / 32),
        Some("<double>") => format!("<{} x double>", bits / 64),
        Some("<half>") => format!("<{} x half>", bits / 16),
        Some(t) => t.to_string(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_objdump() {
        // addss (%rax,%rcx,4),%xmm0
        let d = decode(&[0xf3, 0x0f, 0x58, 0x04, 0x88], 0x1000).unwrap();
        assert_eq!(d.text, "addss (%rax,%rcx,4),%xmm0");
        assert_eq!((d.op.as_str(), d.ty.as_str()), ("fadd", "float"));
        // mulsd %xmm3,%xmm1
        let d = decode(&[0xf2, 0x0f, 0x59, 0xcb], 0x1000).unwrap();
        assert_eq!(d.text, "mulsd %xmm3,%xmm1");
        assert_eq!((d.op.as_str(), d.ty.as_str()), ("fmul", "double"));
        // vaddps %ymm1,%ymm2,%ymm0
        let d = decode(&[0xc5, 0xec, 0x58, 0xc1], 0x1000).unwrap();
        assert_eq!((d.op.as_str(), d.ty.as_str()), ("fadd", "<8 x float>"));
        // flds (%rdi)
        let d = decode(&[0xd9, 0x07], 0x1000).unwrap();
        assert_eq!(d.text, "flds (%rdi)");
        assert_eq!((d.op.as_str(), d.ty.as_str()), ("load", "float"));
        // faddp %st,%st(1)
        let d = decode(&[0xde, 0xc1], 0x1000).unwrap();
        assert_eq!((d.op.as_str(), d.ty.as_str()), ("fadd", "x86_fp80"));
        // cvtss2sd %xmm0,%xmm0
        let d = decode(&[0xf3, 0x0f, 0x5a, 0xc0], 0x1000).unwrap();
        assert_eq!((d.op.as_str(), d.ty.as_str()), ("fpext", "float"));
        // vfmadd231ps %xmm2,%xmm1,%xmm0
        let d = decode(&[0xc4, 0xe2, 0x71, 0xb8, 0xc2], 0x1000).unwrap();
        assert_eq!((d.op.as_str(), d.ty.as_str()), ("fma", "<4 x float>"));
        // addsd 0x10(%rip),%xmm0
        let d = decode(&[0xf2, 0x0f, 0x58, 0x05, 0x10, 0, 0, 0], 0x1000).unwrap();
        assert_eq!(d.text, "addsd 0x10(%rip),%xmm0");
        assert!(decode(&[0x0f, 0xff], 0).is_none() || decode(&[0x0f, 0xff], 0).is_some());
    }
}
