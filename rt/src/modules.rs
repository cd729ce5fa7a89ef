//! Registered module descriptors.
//!
//! Each instrumented translation unit has a constructor that calls
//! `__tp_register_module(&its_ModuleDesc)`. The runtime checks the magic number and the
//! ABI version (a mismatch is reported on stderr, naming the source file and both
//! versions, and the module is ignored) and links the descriptor into a list through its
//! `next` field. The report walks that list, so loops that never ran still appear.
//!
//! Registration is rare (constructors, `dlopen`), so writers take a spin lock (`taintprof_sigsafe::SpinLock`) (which also
//! makes double registration harmless). Readers take no lock: a descriptor's `next` is
//! written before the list head is published with a release store.
//!
//! Branch records (`ModuleDesc::branches`) are updated in place by instrumented code; its
//! cold path is [`__tp_branch_update`].
//!
//! Limitation: descriptors must stay mapped until the report is written, so a module in
//! a shared object that is `dlclose`d before exit must not be instrumented.

use core::ptr::null_mut;
use core::sync::atomic::{AtomicPtr, AtomicU16, AtomicU32, AtomicU64, Ordering::*};

use taintprof_abi::{BranchRec, Label, ModuleDesc, ABI_VERSION, MODULE_MAGIC};
use taintprof_sigsafe::{cstr, Lossy, SpinLock};

static MODULES: AtomicPtr<ModuleDesc> = AtomicPtr::new(null_mut());
static LOCK: SpinLock = SpinLock::new();

/// A module refused at registration (leaked list node).
pub struct RejectedModule {
    /// Source file (empty if the magic number was wrong and the name untrustworthy).
    pub source: &'static [u8],
    /// ABI version the module was built for (0 if the magic was wrong).
    pub abi_version: u32,
    pub bad_magic: bool,
    next: *const RejectedModule,
}

static REJECTED: AtomicPtr<RejectedModule> = AtomicPtr::new(null_mut());
static COUNT: AtomicU32 = AtomicU32::new(0);

/// Why a descriptor is refused, if it is.
pub fn check(m: &ModuleDesc) -> Result<(), (bool, u32)> {
    if m.magic != MODULE_MAGIC {
        return Err((true, 0));
    }
    if m.abi_version != ABI_VERSION {
        return Err((false, m.abi_version));
    }
    Ok(())
}

/// `void __tp_register_module(ModuleDesc *m)`.
#[no_mangle]
pub unsafe extern "C" fn __tp_register_module(m: *mut ModuleDesc) {
    if m.is_null() {
        return;
    }
    let _g = LOCK.lock();
    // SAFETY: the pass emits a valid, writable descriptor that lives for the program.
    let md = unsafe { &mut *m };
    if let Err((bad_magic, version)) = check(md) {
        let source: &'static [u8] = if bad_magic {
            &[]
        } else {
            // SAFETY: the magic matched, so the layout is ours up to the version field,
            // and source_file is the first field after it in every version.
            unsafe { cstr(md.source_file) }
        };
        if bad_magic {
            crate::diag!(
                "error: ignoring a module descriptor at {:p} with a bad magic number ({:#x}, expected {:#x}): it was not built by a taintprof compiler pass",
                m,
                md.magic,
                MODULE_MAGIC
            );
        } else {
            crate::diag!(
                "error: ignoring module '{}': it was instrumented for taintprof ABI version {}, but this runtime implements version {}; rebuild it with the taintprof compiler that matches this runtime",
                Lossy(source),
                version,
                ABI_VERSION
            );
        }
        let node = crate::leak(RejectedModule {
            source,
            abi_version: version,
            bad_magic,
            next: REJECTED.load(Relaxed),
        });
        REJECTED.store(node, Release);
        return;
    }
    // Registered already (a constructor run twice)? Then nothing to do.
    let mut cur = MODULES.load(Relaxed);
    while !cur.is_null() {
        if cur == m {
            return;
        }
        // SAFETY: registered descriptors are valid.
        cur = unsafe { (*cur).next };
    }
    md.next = MODULES.load(Relaxed);
    MODULES.store(m, Release);
    COUNT.fetch_add(1, Relaxed);
    crate::denormal::mode::note_taint_module(md.source_file);
}

/// `void __tp_branch_update(BranchRec *b, uint16_t label, uint64_t taken_bit)`: the cold
/// path of a branch sink. Instrumented code calls it only when `label` has bits that
/// `b->label` lacks or `taken_bit` is not yet in `b->taken`; both are ORed in atomically
/// (several threads may run the same branch).
#[no_mangle]
pub unsafe extern "C" fn __tp_branch_update(b: *mut BranchRec, label: Label, taken_bit: u64) {
    if b.is_null() {
        return;
    }
    // SAFETY: b is a record of a registered module (writable, aligned); the fields are
    // only ever accessed atomically by the runtime and with plain loads by the fast path.
    unsafe {
        if label != 0 {
            AtomicU16::from_ptr(core::ptr::addr_of_mut!((*b).label)).fetch_or(label, Relaxed);
        }
        if taken_bit != 0 {
            AtomicU64::from_ptr(core::ptr::addr_of_mut!((*b).taken)).fetch_or(taken_bit, Relaxed);
        }
    }
}

/// Calls `f` for every registered module, most recent first (lock-free).
pub fn for_each(mut f: impl FnMut(&ModuleDesc)) {
    let mut cur = MODULES.load(Acquire);
    while !cur.is_null() {
        // SAFETY: registered descriptors are valid and `next` is immutable once published.
        let m = unsafe { &*cur };
        f(m);
        cur = m.next;
    }
}

/// Number of registered modules.
pub fn count() -> u32 {
    COUNT.load(Relaxed)
}

/// Calls `f` for every refused module (lock-free).
pub fn for_each_rejected(mut f: impl FnMut(&RejectedModule)) {
    let mut cur = REJECTED.load(Acquire) as *const RejectedModule;
    while !cur.is_null() {
        // SAFETY: leaked immutable nodes.
        let r = unsafe { &*cur };
        f(r);
        cur = r.next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(magic: u32, version: u32, src: &'static core::ffi::CStr) -> *mut ModuleDesc {
        Box::leak(Box::new(ModuleDesc {
            magic,
            abi_version: version,
            source_file: src.as_ptr(),
            funcs: core::ptr::null(),
            n_funcs: 0,
            n_loops: 0,
            loops: core::ptr::null(),
            branches: null_mut(),
            n_branches: 0,
            flags: 0,
            next: null_mut(),
        }))
    }

    #[test]
    fn valid_modules_are_listed_once_and_bad_ones_refused() {
        let good = desc(MODULE_MAGIC, ABI_VERSION, c"good_module.c");
        let old = desc(MODULE_MAGIC, ABI_VERSION + 7, c"old_module.c");
        let junk = desc(0x1234, ABI_VERSION, c"junk.c");
        unsafe {
            __tp_register_module(good);
            __tp_register_module(good);
            __tp_register_module(old);
            __tp_register_module(junk);
            __tp_register_module(null_mut());
        }
        let mut seen = 0;
        for_each(|m| {
            if core::ptr::eq(m, good) {
                seen += 1
            }
            assert!(!core::ptr::eq(m, old) && !core::ptr::eq(m, junk));
        });
        assert_eq!(seen, 1);
        let mut rejected = Vec::new();
        for_each_rejected(|r| rejected.push((r.source.to_vec(), r.abi_version, r.bad_magic)));
        assert!(rejected.contains(&(b"old_module.c".to_vec(), ABI_VERSION + 7, false)));
        assert!(rejected.contains(&(Vec::new(), 0, true)));
    }

    #[test]
    fn branch_updates_or_labels_and_taken_bits_from_many_threads() {
        let b = Box::leak(Box::new(BranchRec {
            site: core::ptr::null(),
            succ: core::ptr::null(),
            n_succ: 2,
            label: 0,
            flags: 0,
            taken: 0,
            executions: 0,
        })) as *mut BranchRec as usize;
        let hs: Vec<_> = (0..8)
            .map(|t| {
                std::thread::spawn(move || {
                    for _ in 0..1000 {
                        unsafe { __tp_branch_update(b as *mut BranchRec, 1 << t, 1 << (t % 2)) };
                    }
                })
            })
            .collect();
        for h in hs {
            h.join().unwrap();
        }
        unsafe { __tp_branch_update(core::ptr::null_mut(), 1, 1) };
        let r = unsafe { &*(b as *const BranchRec) };
        assert_eq!((r.label, r.taken), (0xff, 0b11));
    }
}
