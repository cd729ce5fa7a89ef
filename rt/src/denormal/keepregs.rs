//! Register-preserving entries of the memory hooks, `__tpd_load_keepregs` and
//! `__tpd_store_keepregs` (`taintprof_abi::HOOK_DN_LOAD_KEEPREGS`), and of
//! `__tpd_creator_index` (`__tpd_creator_index_keepregs`, which returns its answer in
//! `eax` and so keeps every register but `rax`).
//!
//! Instrumented code calls `__tpd_load` / `__tpd_store` only when a site's inline
//! memory cache misses — some 1 in 3 000 chunks in the Jacobi wavefront — but with the C
//! calling convention such a call clobbers every caller-saved register. The register
//! allocator then spills the cold region's values before the call and reloads them (and
//! rematerializes constants) where the hit and miss paths join, which the hit path pays
//! every time. These entries take the same arguments and preserve everything the
//! caller can hold values in, so the pass calls them with LLVM's `preserve_allcc`:
//!
//! ```text
//!   entry:  rsp ≡ 8 (mod 16)          [rbp]           saved rbp
//!           push rbp; mov rbp, rsp     [rbp-8..-72]    rax rcx rdx rsi rdi r8 r9 r10 r11
//!           9 pushes, sub 264          [rsp..rsp+256)  xmm0..xmm15 (movaps: rsp ≡ 0)
//!           call the C hook (arguments still in rdi, rsi, rdx, rcx)
//!           restore in reverse order; ret
//! ```
//!
//! Only the low 128 bits of the vector registers are saved: the pass uses these entries
//! only from functions compiled without AVX (the hooks may run libc code that clears
//! the upper halves of `ymm` registers). Flags, x87 and MXCSR are handled as by a C call
//! (the hooks change no control bits).

#[cfg(target_arch = "x86_64")]
macro_rules! keepregs_entry {
    // `$save_rax`/`$restore_rax`: "push rax"/"pop rax", or for a hook that returns a
    // value in rax, "sub rsp, 8"/"add rsp, 8" (the same stack layout).
    ($name:literal, $hook:path, $save_rax:literal, $restore_rax:literal) => {
        core::arch::global_asm!(
            ".text",
            concat!(".globl ", $name),
            concat!(".type ", $name, ",@function"),
            ".p2align 4",
            concat!($name, ":"),
            ".cfi_startproc",
            "push rbp",
            ".cfi_def_cfa_offset 16",
            ".cfi_offset rbp, -16",
            "mov rbp, rsp",
            ".cfi_def_cfa_register rbp",
            $save_rax,
            "push rcx",
            "push rdx",
            "push rsi",
            "push rdi",
            "push r8",
            "push r9",
            "push r10",
            "push r11",
            "sub rsp, 264",
            "movaps [rsp + 0], xmm0",
            "movaps [rsp + 16], xmm1",
            "movaps [rsp + 32], xmm2",
            "movaps [rsp + 48], xmm3",
            "movaps [rsp + 64], xmm4",
            "movaps [rsp + 80], xmm5",
            "movaps [rsp + 96], xmm6",
            "movaps [rsp + 112], xmm7",
            "movaps [rsp + 128], xmm8",
            "movaps [rsp + 144], xmm9",
            "movaps [rsp + 160], xmm10",
            "movaps [rsp + 176], xmm11",
            "movaps [rsp + 192], xmm12",
            "movaps [rsp + 208], xmm13",
            "movaps [rsp + 224], xmm14",
            "movaps [rsp + 240], xmm15",
            "call {hook}",
            "movaps xmm0, [rsp + 0]",
            "movaps xmm1, [rsp + 16]",
            "movaps xmm2, [rsp + 32]",
            "movaps xmm3, [rsp + 48]",
            "movaps xmm4, [rsp + 64]",
            "movaps xmm5, [rsp + 80]",
            "movaps xmm6, [rsp + 96]",
            "movaps xmm7, [rsp + 112]",
            "movaps xmm8, [rsp + 128]",
            "movaps xmm9, [rsp + 144]",
            "movaps xmm10, [rsp + 160]",
            "movaps xmm11, [rsp + 176]",
            "movaps xmm12, [rsp + 192]",
            "movaps xmm13, [rsp + 208]",
            "movaps xmm14, [rsp + 224]",
            "movaps xmm15, [rsp + 240]",
            "add rsp, 264",
            "pop r11",
            "pop r10",
            "pop r9",
            "pop r8",
            "pop rdi",
            "pop rsi",
            "pop rdx",
            "pop rcx",
            $restore_rax,
            "pop rbp",
            ".cfi_def_cfa rsp, 8",
            "ret",
            ".cfi_endproc",
            concat!(".size ", $name, ", . - ", $name),
            hook = sym $hook,
        );
    };
}

#[cfg(target_arch = "x86_64")]
keepregs_entry!(
    "__tpd_load_keepregs",
    super::hooks::__tpd_load,
    "push rax",
    "pop rax"
);
#[cfg(target_arch = "x86_64")]
keepregs_entry!(
    "__tpd_store_keepregs",
    super::hooks::__tpd_store,
    "push rax",
    "pop rax"
);
#[cfg(target_arch = "x86_64")]
keepregs_entry!(
    "__tpd_creator_index_keepregs",
    super::hooks::__tpd_creator_index,
    "sub rsp, 8",
    "add rsp, 8"
);

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use core::arch::asm;

    /// A C function that overwrites every register the C convention lets it clobber.
    extern "C" fn clobber_everything() {
        // SAFETY: writes only registers, all declared as clobbered.
        unsafe {
            asm!(
                "mov rax, -1; mov rcx, -1; mov rdx, -1; mov rsi, -1; mov rdi, -1; mov r8, -1; mov r9, -1; mov r10, -1; mov r11, -1;",
                "pcmpeqd xmm0, xmm0; pcmpeqd xmm1, xmm1; pcmpeqd xmm2, xmm2; pcmpeqd xmm3, xmm3; pcmpeqd xmm4, xmm4; pcmpeqd xmm5, xmm5; pcmpeqd xmm6, xmm6; pcmpeqd xmm7, xmm7; pcmpeqd xmm8, xmm8; pcmpeqd xmm9, xmm9; pcmpeqd xmm10, xmm10; pcmpeqd xmm11, xmm11; pcmpeqd xmm12, xmm12; pcmpeqd xmm13, xmm13; pcmpeqd xmm14, xmm14; pcmpeqd xmm15, xmm15;",
                // No inputs, so the C convention's clobber set covers every write.
                clobber_abi("C"),
            );
        }
    }

    keepregs_entry!(
        "__tpd_keepregs_selftest",
        clobber_everything,
        "push rax",
        "pop rax"
    );

    /// A hook that returns a value (as `__tpd_creator_index` does) and clobbers the rest.
    extern "C" fn clobber_and_return() -> u32 {
        clobber_everything();
        0x4242
    }

    keepregs_entry!(
        "__tpd_keepregs_returning_selftest",
        clobber_and_return,
        "sub rsp, 8",
        "add rsp, 8"
    );

    extern "C" {
        fn __tpd_keepregs_selftest();
        fn __tpd_keepregs_returning_selftest();
    }

    /// The general-purpose registers rax..r11 and the low halves of xmm0..15 after
    /// calling `entry` with known values in all of them.
    fn registers_after(entry: unsafe extern "C" fn()) -> ([u64; 9], [u64; 16]) {
        let mut gp = [0u64; 9];
        let mut xmm = [0u64; 16];
        // SAFETY: calls the entry with the stack aligned (no `nostack`); everything the
        // block writes is declared, as early outputs so that `gp`, `x` and `entry` are
        // not allocated to registers the block overwrites before it uses them.
        unsafe {
            asm!(
                "mov rax, 0x1001", "mov rcx, 0x1002", "mov rdx, 0x1003", "mov rsi, 0x1004",
                "mov rdi, 0x1005", "mov r8, 0x1006", "mov r9, 0x1007", "mov r10, 0x1008",
                "mov r11, 0x1009",
                "movq xmm0, rax", "movq xmm1, rcx", "movq xmm2, rdx", "movq xmm3, rsi",
                "movq xmm4, rdi", "movq xmm5, r8", "movq xmm6, r9", "movq xmm7, r10",
                "movq xmm8, r11", "movq xmm9, rax", "movq xmm10, rcx", "movq xmm11, rdx",
                "movq xmm12, rsi", "movq xmm13, rdi", "movq xmm14, r8", "movq xmm15, r9",
                "call {entry}",
                "mov [{gp}], rax", "mov [{gp} + 8], rcx", "mov [{gp} + 16], rdx",
                "mov [{gp} + 24], rsi", "mov [{gp} + 32], rdi", "mov [{gp} + 40], r8",
                "mov [{gp} + 48], r9", "mov [{gp} + 56], r10", "mov [{gp} + 64], r11",
                "movq [{x}], xmm0", "movq [{x} + 8], xmm1", "movq [{x} + 16], xmm2",
                "movq [{x} + 24], xmm3", "movq [{x} + 32], xmm4", "movq [{x} + 40], xmm5",
                "movq [{x} + 48], xmm6", "movq [{x} + 56], xmm7", "movq [{x} + 64], xmm8",
                "movq [{x} + 72], xmm9", "movq [{x} + 80], xmm10", "movq [{x} + 88], xmm11",
                "movq [{x} + 96], xmm12", "movq [{x} + 104], xmm13",
                "movq [{x} + 112], xmm14", "movq [{x} + 120], xmm15",
                entry = in(reg) entry,
                gp = in(reg) gp.as_mut_ptr(),
                x = in(reg) xmm.as_mut_ptr(),
                out("rax") _, out("rcx") _, out("rdx") _, out("rsi") _, out("rdi") _,
                out("r8") _, out("r9") _, out("r10") _, out("r11") _,
                out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
                out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
                out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
            );
        }
        (gp, xmm)
    }

    /// The entry around a hook that clobbers everything it may: every general-purpose
    /// register and every `xmm` register keeps the value it had before the call.
    #[test]
    fn the_entry_preserves_general_and_vector_registers() {
        let (gp, xmm) = registers_after(__tpd_keepregs_selftest);
        let want_gp: Vec<u64> = (0x1001..=0x1009).collect();
        assert_eq!(gp.to_vec(), want_gp);
        let want_xmm: Vec<u64> = (0..16).map(|k| want_gp[k % 9]).collect();
        assert_eq!(xmm.to_vec(), want_xmm);
    }

    /// The entry of a hook with a result (`__tpd_creator_index_keepregs`): `rax` holds
    /// the result, every other register what it had.
    #[test]
    fn the_returning_entry_preserves_all_but_its_result() {
        let (gp, xmm) = registers_after(__tpd_keepregs_returning_selftest);
        let mut want_gp: Vec<u64> = (0x1001..=0x1009).collect();
        let want_xmm: Vec<u64> = (0..16).map(|k| want_gp[k % 9]).collect();
        assert_eq!(gp[0] as u32, 0x4242, "the result in eax");
        want_gp[0] = gp[0];
        assert_eq!(gp.to_vec(), want_gp);
        assert_eq!(xmm.to_vec(), want_xmm);
    }
}
