//! The parameter registry: which label bit belongs to which registered name.
//!
//! `tp_register_variable(addr, size, name)` marks `size` bytes at `addr` as the
//! performance parameter `name`. The first registration of a name takes the next free
//! bit (bit `i` = parameter `i`, at most [`MAX_PARAMS`] = 16); registering the same name
//! again reuses its bit. The bytes' shadow is *replaced* by that single bit. A 17th
//! distinct name is refused with an error on stderr, stays unlabelled, and is listed in
//! the report's `rejected_parameters`.
//!
//! Registration is rare, so writers take a mutex. Readers (the report writer, possibly in
//! a signal handler) take no lock: a slot is fully written before `count` is bumped with
//! a release store, and names are immutable leaked byte strings.

use core::sync::atomic::{AtomicPtr, AtomicU32, AtomicUsize, Ordering::*};
use std::sync::Mutex;

use taintprof_abi::{Label, MAX_PARAMS};

use crate::sys::Lossy;

/// Why a registration got no label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reject {
    TooMany,
    NullName,
    EmptyName,
}

impl Reject {
    pub fn reason(self) -> &'static str {
        match self {
            Reject::TooMany => "at most 16 parameters can be registered",
            Reject::NullName => "the name is a null pointer",
            Reject::EmptyName => "the name is empty",
        }
    }
}

struct Slot {
    name: AtomicPtr<u8>,
    len: AtomicUsize,
    registrations: AtomicU32,
}

impl Slot {
    const fn new() -> Self {
        Slot {
            name: AtomicPtr::new(core::ptr::null_mut()),
            len: AtomicUsize::new(0),
            registrations: AtomicU32::new(0),
        }
    }
}

/// A refused registration (a leaked list node; never freed).
pub struct Rejected {
    name: &'static [u8],
    reason: Reject,
    count: AtomicU32,
    next: *const Rejected,
}

impl Rejected {
    pub fn name(&self) -> &'static [u8] {
        self.name
    }
    pub fn reason(&self) -> Reject {
        self.reason
    }
    pub fn count(&self) -> u32 {
        self.count.load(Relaxed)
    }
}

/// One registered parameter, as the report sees it.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub bit: u32,
    pub name: &'static [u8],
    pub registrations: u32,
}

/// The registry. The runtime has one ([`REGISTRY`]); tests make their own.
pub struct Registry {
    lock: Mutex<()>,
    count: AtomicUsize,
    slots: [Slot; MAX_PARAMS],
    rejected: AtomicPtr<Rejected>,
}

// SAFETY: all shared state is atomics or immutable leaked data published with release.
unsafe impl Sync for Registry {}

impl Default for Registry {
    fn default() -> Self {
        Self::new()
    }
}

/// The process-wide registry.
pub static REGISTRY: Registry = Registry::new();

fn leak(name: &[u8]) -> &'static [u8] {
    Box::leak(name.to_vec().into_boxed_slice())
}

impl Registry {
    pub const fn new() -> Self {
        Registry {
            lock: Mutex::new(()),
            count: AtomicUsize::new(0),
            slots: [const { Slot::new() }; MAX_PARAMS],
            rejected: AtomicPtr::new(core::ptr::null_mut()),
        }
    }

    /// Number of registered parameters.
    pub fn len(&self) -> usize {
        self.count.load(Acquire).min(MAX_PARAMS)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Parameter `i` (lock-free).
    pub fn get(&self, i: usize) -> Option<Param> {
        if i >= self.len() {
            return None;
        }
        let s = self.slots.get(i)?;
        let p = s.name.load(Acquire);
        let len = s.len.load(Relaxed);
        // SAFETY: name/len were written before count was published and never change.
        let name: &'static [u8] = if p.is_null() {
            &[]
        } else {
            unsafe { core::slice::from_raw_parts(p, len) }
        };
        Some(Param {
            bit: i as u32,
            name,
            registrations: s.registrations.load(Relaxed),
        })
    }

    /// Calls `f` for every refused registration (lock-free), oldest first not guaranteed.
    pub fn for_each_rejected(&self, mut f: impl FnMut(&Rejected)) {
        let mut r = self.rejected.load(Acquire) as *const Rejected;
        while !r.is_null() {
            // SAFETY: nodes are leaked and immutable except for the atomic count.
            let node = unsafe { &*r };
            f(node);
            r = node.next;
        }
    }

    /// Registers `name` (None = a null pointer). Returns its label, or why it got none.
    /// The first refusal of a name prints an error on stderr.
    pub fn register(&self, name: Option<&[u8]>) -> Result<Label, Reject> {
        let _g = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let (name, why) = match name {
            None => (&b"(null)"[..], Some(Reject::NullName)),
            Some(n) if n.is_empty() => (n, Some(Reject::EmptyName)),
            Some(n) => (n, None),
        };
        if why.is_none() {
            let n = self.count.load(Relaxed);
            for i in 0..n.min(MAX_PARAMS) {
                if let Some(p) = self.get(i) {
                    if p.name == name {
                        if let Some(s) = self.slots.get(i) {
                            s.registrations.fetch_add(1, Relaxed);
                        }
                        return Ok(1 << i);
                    }
                }
            }
            if n < MAX_PARAMS {
                if let Some(s) = self.slots.get(n) {
                    let stored = leak(name);
                    s.len.store(stored.len(), Relaxed);
                    s.name.store(stored.as_ptr() as *mut u8, Release);
                    s.registrations.store(1, Relaxed);
                    self.count.store(n + 1, Release);
                    return Ok(1 << n);
                }
            }
        }
        let why = why.unwrap_or(Reject::TooMany);
        // Already refused before? Count it, and do not repeat the error.
        let mut r = self.rejected.load(Acquire) as *const Rejected;
        while !r.is_null() {
            // SAFETY: leaked immutable nodes.
            let node = unsafe { &*r };
            if node.name == name && node.reason == why {
                node.count.fetch_add(1, Relaxed);
                return Err(why);
            }
            r = node.next;
        }
        match why {
            Reject::TooMany => crate::diag!(
                "error: cannot register parameter '{}': at most {} parameters can be registered (one label bit each) and all are taken; '{}' stays unlabelled and is listed under rejected_parameters in the report",
                Lossy(name),
                MAX_PARAMS,
                Lossy(name)
            ),
            Reject::NullName | Reject::EmptyName => crate::diag!(
                "error: tp_register_variable called with {}; the variable stays unlabelled",
                if why == Reject::NullName { "a null name" } else { "an empty name" }
            ),
        }
        let node = Box::leak(Box::new(Rejected {
            name: leak(name),
            reason: why,
            count: AtomicU32::new(1),
            next: self.rejected.load(Relaxed),
        }));
        self.rejected.store(node, Release);
        Err(why)
    }

    /// Names of the parameters in `label`, in bit order (for the report).
    pub fn for_each_name_in(&self, label: Label, mut f: impl FnMut(&'static [u8], u32)) {
        for bit in 0..MAX_PARAMS as u32 {
            if label & (1 << bit) != 0 {
                let name = self.get(bit as usize).map(|p| p.name).unwrap_or(b"");
                f(name, bit);
            }
        }
    }
}

/// `void tp_register_variable(const void *addr, size_t size, const char *name)`.
///
/// Marks `size` bytes at `addr` as parameter `name`. See the module documentation.
#[no_mangle]
pub unsafe extern "C" fn tp_register_variable(
    addr: *const libc::c_void,
    size: usize,
    name: *const libc::c_char,
) {
    let name = if name.is_null() {
        None
    } else {
        // SAFETY: the caller passes a NUL-terminated string.
        Some(unsafe { crate::sys::cstr(name) })
    };
    if let Ok(label) = REGISTRY.register(name) {
        // SAFETY: any address is valid for the shadow.
        unsafe { crate::shadow::set(addr as usize, label, size) };
    }
}

/// Perf-Taint compatibility: `perf_taint_register_variable(addr, size, name)`.
#[no_mangle]
pub unsafe extern "C" fn perf_taint_register_variable(
    addr: *const libc::c_void,
    size: usize,
    name: *const libc::c_char,
) {
    // SAFETY: same contract.
    unsafe { tp_register_variable(addr, size, name) }
}

/// `uint16_t tp_read_label(const void *addr, size_t size)`: the union of the labels of
/// `size` bytes at `addr` (bit `i` = parameter `i`). For tests and debugging.
#[no_mangle]
pub unsafe extern "C" fn tp_read_label(addr: *const libc::c_void, size: usize) -> Label {
    // SAFETY: any address is valid for the shadow.
    unsafe { crate::shadow::union(addr as usize, size) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_assigned_in_order_and_reused() {
        let r = Registry::new();
        assert_eq!(r.register(Some(b"n")), Ok(1));
        assert_eq!(r.register(Some(b"m")), Ok(2));
        assert_eq!(r.register(Some(b"n")), Ok(1));
        assert_eq!(r.len(), 2);
        let p = r.get(0).unwrap();
        assert_eq!((p.name, p.bit, p.registrations), (&b"n"[..], 0, 2));
        assert_eq!(r.get(1).unwrap().registrations, 1);
        assert!(r.get(2).is_none());
    }

    #[test]
    fn the_seventeenth_name_is_rejected_and_recorded() {
        let r = Registry::new();
        for i in 0..16 {
            let name = format!("p{i}");
            assert_eq!(r.register(Some(name.as_bytes())), Ok(1 << i));
        }
        assert_eq!(r.register(Some(b"p16")), Err(Reject::TooMany));
        assert_eq!(r.register(Some(b"p16")), Err(Reject::TooMany));
        // Existing names still work.
        assert_eq!(r.register(Some(b"p15")), Ok(1 << 15));
        assert_eq!(r.register(None), Err(Reject::NullName));
        assert_eq!(r.register(Some(b"")), Err(Reject::EmptyName));
        let mut seen = Vec::new();
        r.for_each_rejected(|x| seen.push((x.name().to_vec(), x.reason(), x.count())));
        seen.sort();
        assert_eq!(seen.len(), 3);
        assert!(seen.contains(&(b"p16".to_vec(), Reject::TooMany, 2)));
        assert_eq!(r.len(), 16);
        let mut names = Vec::new();
        r.for_each_name_in(0b1000_0000_0000_0101, |n, b| names.push((n, b)));
        assert_eq!(
            names,
            vec![(&b"p0"[..], 0), (&b"p2"[..], 2), (&b"p15"[..], 15)]
        );
    }

    #[test]
    fn concurrent_registrations_agree() {
        let r: &'static Registry = Box::leak(Box::new(Registry::new()));
        let hs: Vec<_> = (0..8)
            .map(|t| {
                std::thread::spawn(move || {
                    (0..200)
                        .map(|i| {
                            r.register(Some(format!("q{}", (i + t) % 10).as_bytes()))
                                .unwrap()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let results: Vec<Vec<Label>> = hs.into_iter().map(|h| h.join().unwrap()).collect();
        assert_eq!(r.len(), 10);
        for (t, labels) in results.iter().enumerate() {
            for (i, &l) in labels.iter().enumerate() {
                let name = format!("q{}", (i + t) % 10);
                let bit = (0..10)
                    .find(|&b| r.get(b).unwrap().name == name.as_bytes())
                    .unwrap();
                assert_eq!(l, 1 << bit);
            }
        }
        let total: u32 = (0..10).map(|b| r.get(b).unwrap().registrations).sum();
        assert_eq!(total, 1600);
    }

    #[test]
    fn registration_labels_the_bytes() {
        let x = [0u64; 2];
        let before = REGISTRY.len();
        unsafe {
            crate::shadow::set(x.as_ptr() as usize, 0xffff, 16);
            tp_register_variable(x.as_ptr().cast(), 8, c"params_test_var".as_ptr());
            let l = tp_read_label(x.as_ptr().cast(), 8);
            assert_eq!(l.count_ones(), 1, "replaces, not ORs");
            assert_eq!(
                tp_read_label(x.as_ptr().cast::<u8>().add(8).cast(), 8),
                0xffff
            );
            crate::shadow::set(x.as_ptr() as usize, 0, 16);
        }
        assert!(REGISTRY.len() > before || REGISTRY.len() == MAX_PARAMS);
    }
}
