//! The parameter registry: which label bit belongs to which registered name.
//!
//! `tp_register_variable(addr, size, name)` marks `size` bytes at `addr` as the
//! performance parameter `name`. The first registration of a name takes the next free
//! bit (bit `i` = parameter `i`, at most [`MAX_PARAMS`] = 16); registering the same name
//! again reuses its bit. The bytes' shadow is *replaced* by that single bit. A 17th
//! distinct name is refused with an error on stderr, stays unlabelled, and is listed in
//! the report's `rejected_parameters`.
//!
//! Every registration is checked first, and refused the same way (one line on stderr, the
//! first time for each name and reason; no label; listed under `rejected_parameters`;
//! the program keeps running) when
//!
//! * the name is null, empty, longer than [`MAX_NAME_LEN`] bytes, or has a character
//!   outside the safe set (ASCII letters, digits, `_ . - : [ ]`, starting with a letter,
//!   a digit or `_`; see [`name_problem`]). Names end up in report tables, volume
//!   expressions (`n*m + k`, `(n,m)^2`), `--subset n,m`, Score-P filter comments, CSV
//!   and JSON: none of these characters means anything there, and a name of at most 64
//!   of them fits a table column;
//! * the address is null, the size is 0, or `[addr, addr + size)` is not in the user
//!   address space (a negative size cast to `size_t`, for example) — such a call would
//!   label nothing, or clear labels of unrelated memory.
//!
//! A refused name is listed in the report in a printable form: bytes outside printable
//! ASCII and `\` are escaped (`\n`, `\xNN`), and only the first [`MAX_NAME_LEN`] bytes
//! are kept (followed by `...`).
//!
//! ## Values
//!
//! A registration also reads the parameter's value, for the raw run record (performance
//! models need each parameter's value per run; `docs/internal/record.md`, PARAMS). The
//! API carries no type, only a size, so the rule is: **1, 2, 4 or 8 bytes are a signed
//! integer of that size** (`int8_t` to `int64_t`, sign-extended to `i64`); any other
//! size has no value. Performance parameters are integers (sizes, counts, steps), and
//! signed is right for `int` and `long` and for every unsigned value below 2^(8·size−1)
//! (2^31 for a 4-byte `unsigned`); an unsigned value at or above it reads as negative,
//! and a `float` or `double` as the integer of its bits. The value of the **first**
//! registration of a name is kept; a later registration of the name that reads another
//! value (or none) sets the parameter's `value_changed` (the record's
//! `PARAM_VALUE_CHANGED` flag). Values live in the slot's fixed fields: no allocation.
//!
//! `tp_has_label` and `tp_delete_label` (Perf-Taint's `has_label`, `delete_label`,
//! `delete_labels`) query and clear the labels of an object.
//!
//! Registration is rare, so writers take a spin lock (`taintprof_sigsafe::SpinLock`,
//! never from a signal handler). Readers (the report writer, possibly in
//! a signal handler) take no lock: a slot is fully written before `count` is bumped with
//! a release store, and names are immutable leaked byte strings.

use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU16, AtomicU32, AtomicU64};
use core::sync::atomic::{AtomicUsize, Ordering::*};

use taintprof_abi::{Label, MAX_PARAMS};
use taintprof_record::Value;
use taintprof_sigsafe::{Lossy, SpinLock, StackBuf};

/// Why a registration got no label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reject {
    TooMany,
    NullName,
    EmptyName,
    /// Longer than [`MAX_NAME_LEN`] bytes.
    NameTooLong,
    /// A character outside the safe set (see [`name_problem`]).
    BadCharacter,
    NullAddress,
    ZeroSize,
    /// `[addr, addr + size)` is not inside the user address space.
    BadRange,
}

impl Reject {
    pub fn reason(self) -> &'static str {
        match self {
            Reject::TooMany => "at most 16 parameters can be registered",
            Reject::NullName => "the name is a null pointer",
            Reject::EmptyName => "the name is empty",
            Reject::NameTooLong => "the name is longer than 64 bytes",
            Reject::BadCharacter => {
                "the name may only contain ASCII letters, digits and _ . - : [ ] and must start with a letter, a digit or _"
            }
            Reject::NullAddress => "the address is a null pointer",
            Reject::ZeroSize => "the size is 0",
            Reject::BadRange => "the address range is outside the user address space",
        }
    }
}

/// Longest parameter name, in bytes (`TAINTPROF_MAX_NAME_LENGTH` in taintprof.h).
pub const MAX_NAME_LEN: usize = 64;

/// End of the x86-64 user address space (47 bits): no object lies above it.
const USER_END: usize = 0x8000_0000_0000;

/// Whether `c` may appear in a parameter name.
fn name_char_ok(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b':' | b'[' | b']')
}

/// Why `name` cannot be a parameter name, with the offending byte and its position for
/// [`Reject::BadCharacter`]; `None` if it can.
pub fn name_problem(name: &[u8]) -> Option<(Reject, Option<(usize, u8)>)> {
    if name.is_empty() {
        return Some((Reject::EmptyName, None));
    }
    if name.len() > MAX_NAME_LEN {
        return Some((Reject::NameTooLong, None));
    }
    if let Some(&c) = name.first() {
        if !(c.is_ascii_alphanumeric() || c == b'_') {
            return Some((Reject::BadCharacter, Some((0, c))));
        }
    }
    name.iter()
        .position(|&c| !name_char_ok(c))
        .map(|i| (Reject::BadCharacter, name.get(i).map(|&c| (i, c))))
}

/// Appends `c` in printable form: printable ASCII as is (a backslash doubled), `\n`,
/// `\t`, `\r`, otherwise `\xNN`.
fn push_escaped<const N: usize>(out: &mut StackBuf<N>, c: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match c {
        b'\\' => out.push_bytes(b"\\\\"),
        b'\n' => out.push_bytes(b"\\n"),
        b'\t' => out.push_bytes(b"\\t"),
        b'\r' => out.push_bytes(b"\\r"),
        0x20..=0x7e => out.push_bytes(&[c]),
        _ => out.push_bytes(&[b'\\', b'x', HEX[(c >> 4) as usize], HEX[(c & 15) as usize]]),
    }
}

/// Room for a [`printable_name`]: every byte escaped as `\xNN`, then `...`.
pub const PRINTABLE_NAME_MAX: usize = 4 * MAX_NAME_LEN + 3;

/// `name` as shown in messages and the report: escaped, at most [`MAX_NAME_LEN`] bytes of
/// it, `...` if there was more.
pub fn printable_name(name: &[u8]) -> StackBuf<PRINTABLE_NAME_MAX> {
    let mut out = StackBuf::new();
    for &c in name.iter().take(MAX_NAME_LEN) {
        push_escaped(&mut out, c);
    }
    if name.len() > MAX_NAME_LEN {
        out.push_bytes(b"...");
    }
    out
}

/// Why `size` bytes at `addr` cannot be registered, if they cannot.
pub fn range_problem(addr: usize, size: usize) -> Option<Reject> {
    if addr == 0 {
        Some(Reject::NullAddress)
    } else if size == 0 {
        Some(Reject::ZeroSize)
    } else if addr.checked_add(size).is_none_or(|end| end > USER_END) {
        Some(Reject::BadRange)
    } else {
        None
    }
}

struct Slot {
    name: AtomicPtr<u8>,
    len: AtomicUsize,
    registrations: AtomicU32,
    /// The first registration's value, as `Value::encode` gives it (`value_kind`, bits):
    /// written before `count` publishes the slot, never changed afterwards.
    value_kind: AtomicU16,
    value: AtomicU64,
    /// A later registration read another value.
    value_changed: AtomicBool,
    /// Registered by the runtime (`crate::mpi`), not by the program.
    implicit: AtomicBool,
}

impl Slot {
    const fn new() -> Self {
        Slot {
            name: AtomicPtr::new(core::ptr::null_mut()),
            len: AtomicUsize::new(0),
            registrations: AtomicU32::new(0),
            value_kind: AtomicU16::new(0),
            value: AtomicU64::new(0),
            value_changed: AtomicBool::new(false),
            implicit: AtomicBool::new(false),
        }
    }

    /// Fills a free slot (under the lock, before `count` publishes it).
    fn fill(&self, name: &'static [u8], value: Value) {
        let (kind, bits) = value.encode();
        self.len.store(name.len(), Relaxed);
        self.name.store(name.as_ptr() as *mut u8, Release);
        self.registrations.store(1, Relaxed);
        self.value_kind.store(kind, Relaxed);
        self.value.store(bits, Relaxed);
        self.value_changed.store(false, Relaxed);
        self.implicit.store(false, Relaxed);
    }

    fn value(&self) -> Value {
        Value::decode(self.value_kind.load(Relaxed), self.value.load(Relaxed))
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
    /// Its value at the first registration (see "Values" in the module documentation).
    pub value: Value,
    /// A later registration of the name read another value.
    pub value_changed: bool,
    /// Registered by the runtime (`p` from MPI), not by the program
    /// (`taintprof_record::PARAM_IMPLICIT`).
    pub implicit: bool,
}

/// The registry. The runtime has one ([`REGISTRY`]); tests make their own.
pub struct Registry {
    lock: SpinLock,
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
    crate::leak_slice(name)
}

impl Registry {
    pub const fn new() -> Self {
        Registry {
            lock: SpinLock::new(),
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
            value: s.value(),
            value_changed: s.value_changed.load(Relaxed),
            implicit: s.implicit.load(Relaxed),
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
    /// The first refusal of a name (for a reason) prints an error on stderr.
    pub fn register(&self, name: Option<&[u8]>) -> Result<Label, Reject> {
        self.register_from("tp_register_variable", name, Value::None)
    }

    /// Registers `name` without checking it (the report's tests of escaping use names no
    /// program can register any more).
    #[cfg(test)]
    pub(crate) fn register_unchecked(&self, name: &[u8]) -> Label {
        let _g = self.lock.lock();
        let n = self.count.load(Relaxed);
        let s = &self.slots[n];
        s.fill(leak(name), Value::None);
        self.count.store(n + 1, Release);
        1 << n
    }

    /// [`Registry::register`] for a call of the entry point `entry` (named in errors),
    /// with the value the registration read: kept if it is the name's first
    /// registration, compared with the kept one otherwise.
    pub fn register_from(
        &self,
        entry: &str,
        name: Option<&[u8]>,
        value: Value,
    ) -> Result<Label, Reject> {
        let _g = self.lock.lock();
        let Some(name) = name else {
            self.refuse(entry, b"(null)", Reject::NullName, None);
            return Err(Reject::NullName);
        };
        if let Some((why, at)) = name_problem(name) {
            self.refuse(entry, name, why, at);
            return Err(why);
        }
        let n = self.count.load(Relaxed);
        for i in 0..n.min(MAX_PARAMS) {
            if let Some(p) = self.get(i) {
                if p.name == name {
                    if let Some(s) = self.slots.get(i) {
                        if s.registrations.fetch_add(1, Relaxed) == 0 {
                            // Known only from labels another process sent (`intern`):
                            // this is the first registration here; its value is kept.
                            let (kind, bits) = value.encode();
                            s.value_kind.store(kind, Relaxed);
                            s.value.store(bits, Relaxed);
                        } else if s.value().encode() != value.encode() {
                            s.value_changed.store(true, Relaxed);
                        }
                    }
                    return Ok(1 << i);
                }
            }
        }
        if n < MAX_PARAMS {
            if let Some(s) = self.slots.get(n) {
                let stored = leak(name);
                // A parameter past what the control-flow split holds: one bit per
                // parameter from now on (`crate::split`).
                if n == crate::split::MAX_PARAMS_SPLIT {
                    crate::split::give_up(stored);
                }
                s.fill(stored, value);
                self.count.store(n + 1, Release);
                return Ok(1 << n);
            }
        }
        self.refuse(entry, name, Reject::TooMany, None);
        Err(Reject::TooMany)
    }

    /// The label of parameter `name`, which labels that arrived from another process
    /// carry (an MPI message): the name takes a bit like a registration, but counts no
    /// registration and has no value (both come with a later registration in this
    /// process, if any).
    pub fn intern(&self, name: &[u8]) -> Result<Label, Reject> {
        if let Some(l) = self.bit_of(name) {
            return Ok(l);
        }
        let l = self.register_from("an MPI message", Some(name), Value::None)?;
        if let Some(s) = self.slots.get(l.trailing_zeros() as usize) {
            // Counted as a registration by `register_from`: it was none.
            let _g = self.lock.lock();
            if s.registrations.load(Relaxed) == 1 {
                s.registrations.store(0, Relaxed);
            }
        }
        Ok(l)
    }

    /// Marks parameter `label` (one bit, as [`Registry::register_from`] returned it) as
    /// implicit: registered by the runtime, not by the program.
    pub fn mark_implicit(&self, label: Label) {
        if let Some(s) = self.slots.get(label.trailing_zeros() as usize) {
            s.implicit.store(true, Relaxed);
        }
    }

    /// Refuses a registration of `name` whose bytes are unusable (`why` is
    /// [`Reject::NullAddress`], [`Reject::ZeroSize`] or [`Reject::BadRange`]), or whose
    /// name is (then `why` is the name's problem, as [`Registry::register`] finds it).
    pub fn refuse_range(&self, entry: &str, name: Option<&[u8]>, why: Reject) {
        let _g = self.lock.lock();
        match name {
            None => self.refuse(entry, b"(null)", Reject::NullName, None),
            Some(n) => match name_problem(n) {
                Some((w, at)) => self.refuse(entry, n, w, at),
                None => self.refuse(entry, n, why, None),
            },
        }
    }

    /// Records a refusal (counted once per printable name and reason) and prints the
    /// error the first time. `at` is the offending byte of a [`Reject::BadCharacter`].
    /// The caller holds the lock.
    fn refuse(&self, entry: &str, name: &[u8], why: Reject, at: Option<(usize, u8)>) {
        let shown = printable_name(name);
        // Already refused before? Count it, and do not repeat the error.
        let mut r = self.rejected.load(Acquire) as *const Rejected;
        while !r.is_null() {
            // SAFETY: leaked immutable nodes.
            let node = unsafe { &*r };
            if node.name == shown.as_bytes() && node.reason == why {
                node.count.fetch_add(1, Relaxed);
                return;
            }
            r = node.next;
        }
        let shown = leak(shown.as_bytes());
        match why {
            Reject::TooMany => crate::diag!(
                "error: cannot register parameter '{}': at most {} parameters can be registered (one label bit each) and all are taken; '{}' stays unlabelled and is listed under rejected_parameters in the report",
                Lossy(shown),
                MAX_PARAMS,
                Lossy(shown)
            ),
            Reject::NullName | Reject::EmptyName => crate::diag!(
                "error: {} called with {}; the variable stays unlabelled",
                entry,
                if why == Reject::NullName { "a null name" } else { "an empty name" }
            ),
            Reject::NameTooLong => crate::diag!(
                "error: cannot register parameter '{}': the name is longer than {} bytes; the variable stays unlabelled and is listed under rejected_parameters in the report",
                Lossy(shown),
                MAX_NAME_LEN
            ),
            Reject::BadCharacter => {
                let (pos, c) = at.unwrap_or((0, 0));
                let mut one = StackBuf::<4>::new();
                push_escaped(&mut one, c);
                crate::diag!(
                    "error: cannot register parameter '{}': {} '{}' at byte {}; names may only contain ASCII letters, digits and _ . - : [ ] and must start with a letter, a digit or _ (they appear in report tables, volume expressions and --subset lists); the variable stays unlabelled and is listed under rejected_parameters in the report",
                    Lossy(shown),
                    if pos == 0 && name_char_ok(c) { "it starts with" } else { "it contains" },
                    Lossy(one.as_bytes()),
                    pos
                )
            }
            Reject::NullAddress | Reject::ZeroSize | Reject::BadRange => crate::diag!(
                "error: cannot register parameter '{}': {} ({} ignores the call); nothing is labelled and the call is listed under rejected_parameters in the report",
                Lossy(shown),
                why.reason(),
                entry
            ),
        }
        let node = crate::leak(Rejected {
            name: shown,
            reason: why,
            count: AtomicU32::new(1),
            next: self.rejected.load(Relaxed),
        });
        self.rejected.store(node, Release);
    }

    /// The label bit of the registered parameter `name`, if it is one (lock-free).
    pub fn bit_of(&self, name: &[u8]) -> Option<Label> {
        (0..self.len()).find_map(|i| self.get(i).filter(|p| p.name == name).map(|p| 1 << p.bit))
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

/// Reads at most [`MAX_NAME_LEN`] + 1 bytes of the C string `name` (enough to tell a
/// name that is too long; an unterminated name cannot make us read far).
///
/// # Safety
/// `name` must be null or point to a NUL-terminated string (or at least 65 readable
/// bytes).
unsafe fn name_arg<'a>(name: *const libc::c_char) -> Option<&'a [u8]> {
    if name.is_null() {
        return None;
    }
    // SAFETY: per the contract.
    let n = unsafe { libc::strnlen(name, MAX_NAME_LEN + 1) };
    // SAFETY: n readable bytes.
    Some(unsafe { core::slice::from_raw_parts(name.cast::<u8>(), n) })
}

/// The value of the `size` bytes at `addr` by the rule of "Values" in the module
/// documentation: 1, 2, 4 or 8 bytes are a signed integer, anything else has none.
///
/// # Safety
/// `size` bytes at `addr` must be readable (any alignment).
pub unsafe fn read_value(addr: *const libc::c_void, size: usize) -> Value {
    // SAFETY: per the contract; unaligned reads of plain integers.
    unsafe {
        match size {
            1 => Value::Int(i64::from(addr.cast::<i8>().read_unaligned())),
            2 => Value::Int(i64::from(addr.cast::<i16>().read_unaligned())),
            4 => Value::Int(i64::from(addr.cast::<i32>().read_unaligned())),
            8 => Value::Int(addr.cast::<i64>().read_unaligned()),
            _ => Value::None,
        }
    }
}

/// Checks and registers a parameter for the entry point `entry`.
///
/// # Safety
/// See [`tp_register_variable`].
unsafe fn register_variable(
    entry: &str,
    addr: *const libc::c_void,
    size: usize,
    name: *const libc::c_char,
) {
    // SAFETY: forwarded contract.
    let name = unsafe { name_arg(name) };
    if let Some(why) = range_problem(addr as usize, size) {
        REGISTRY.refuse_range(entry, name, why);
        return;
    }
    // SAFETY: the caller's `size` bytes at `addr` are readable (the range was checked).
    let value = unsafe { read_value(addr, size) };
    if let Ok(label) = REGISTRY.register_from(entry, name, value) {
        // SAFETY: any address is valid for the shadow.
        unsafe { crate::shadow::set(addr as usize, label, size) };
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
    // SAFETY: same contract.
    unsafe { register_variable("tp_register_variable", addr, size, name) }
}

/// Perf-Taint compatibility: `perf_taint_register_variable(addr, size, name)`.
#[no_mangle]
pub unsafe extern "C" fn perf_taint_register_variable(
    addr: *const libc::c_void,
    size: usize,
    name: *const libc::c_char,
) {
    // SAFETY: same contract.
    unsafe { register_variable("perf_taint_register_variable", addr, size, name) }
}

/// `uint16_t tp_read_label(const void *addr, size_t size)`: the union of the labels of
/// `size` bytes at `addr` (bit `i` = parameter `i`). For tests and debugging.
#[no_mangle]
pub unsafe extern "C" fn tp_read_label(addr: *const libc::c_void, size: usize) -> Label {
    if range_problem(addr as usize, size).is_some() {
        return 0;
    }
    // SAFETY: any address is valid for the shadow.
    crate::split::params(unsafe { crate::shadow::union(addr as usize, size) })
}

/// `int tp_has_label(const void *addr, size_t size, const char *name)`: 1 if the label
/// of any of the `size` bytes at `addr` includes the registered parameter `name`, else 0
/// (also for a name that was never registered, a null address or a size of 0).
#[no_mangle]
pub unsafe extern "C" fn tp_has_label(
    addr: *const libc::c_void,
    size: usize,
    name: *const libc::c_char,
) -> libc::c_int {
    // SAFETY: forwarded contract.
    let Some(name) = (unsafe { name_arg(name) }) else {
        return 0;
    };
    match REGISTRY.bit_of(name) {
        // SAFETY: any (valid) range is valid for the shadow.
        Some(bit) => libc::c_int::from(unsafe { tp_read_label(addr, size) } & bit != 0),
        None => 0,
    }
}

/// `void tp_delete_label(const void *addr, size_t size)`: removes every label of the
/// `size` bytes at `addr` (values loaded from them afterwards depend on no parameter).
/// A null address or a size of 0 does nothing.
#[no_mangle]
pub unsafe extern "C" fn tp_delete_label(addr: *const libc::c_void, size: usize) {
    if range_problem(addr as usize, size).is_none() {
        // SAFETY: any address is valid for the shadow.
        unsafe { crate::shadow::set(addr as usize, 0, size) };
    }
}

/// Perf-Taint compatibility: `perf_taint_has_label(addr, size, name)`.
#[no_mangle]
pub unsafe extern "C" fn perf_taint_has_label(
    addr: *const libc::c_void,
    size: usize,
    name: *const libc::c_char,
) -> libc::c_int {
    // SAFETY: same contract.
    unsafe { tp_has_label(addr, size, name) }
}

/// Perf-Taint compatibility: `perf_taint_delete_label(addr, size)`.
#[no_mangle]
pub unsafe extern "C" fn perf_taint_delete_label(addr: *const libc::c_void, size: usize) {
    // SAFETY: same contract.
    unsafe { tp_delete_label(addr, size) }
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
    fn names_are_checked() {
        for ok in [
            &b"n"[..],
            b"_x",
            b"opts.size",
            b"grid[0]",
            b"ns::n",
            b"n-1",
            b"9a",
        ] {
            assert_eq!(name_problem(ok), None, "{}", Lossy(ok));
        }
        assert_eq!(name_problem(&[b'a'; 64]), None);
        assert_eq!(name_problem(&[b'a'; 65]), Some((Reject::NameTooLong, None)));
        assert_eq!(name_problem(b""), Some((Reject::EmptyName, None)));
        for (bad, at) in [
            (&b"a,b"[..], (1, b',')),
            (b"a\nb", (1, b'\n')),
            (b"say \"n\"", (3, b' ')),
            (b"n\x01", (1, 1)),
            (b"-n", (0, b'-')),
            (b"n*m", (1, b'*')),
            (b"n\xc3\xa9", (1, 0xc3)),
        ] {
            assert_eq!(
                name_problem(bad),
                Some((Reject::BadCharacter, Some(at))),
                "{}",
                Lossy(bad)
            );
        }
        let r = Registry::new();
        assert_eq!(r.register(Some(b"a,b")), Err(Reject::BadCharacter));
        assert_eq!(r.register(Some(b"a,b")), Err(Reject::BadCharacter));
        assert_eq!(r.register(Some(&[b'x'; 2000])), Err(Reject::NameTooLong));
        assert!(r.is_empty(), "refused names take no bit");
        let mut seen = Vec::new();
        r.for_each_rejected(|x| seen.push((x.name().to_vec(), x.reason(), x.count())));
        seen.sort();
        let mut long = vec![b'x'; 64];
        long.extend_from_slice(b"...");
        assert_eq!(
            seen,
            vec![
                (b"a,b".to_vec(), Reject::BadCharacter, 2),
                (long, Reject::NameTooLong, 1)
            ]
        );
    }

    #[test]
    fn printable_names_escape_and_truncate() {
        assert_eq!(
            printable_name(b"a\n\"\\\x7f,").as_bytes(),
            b"a\\n\"\\\\\\x7f,"
        );
        assert_eq!(printable_name(&[b'y'; 65]).len(), 67);
    }

    #[test]
    fn ranges_are_checked() {
        assert_eq!(range_problem(0, 4), Some(Reject::NullAddress));
        assert_eq!(range_problem(0x1000, 0), Some(Reject::ZeroSize));
        assert_eq!(range_problem(0x1000, usize::MAX), Some(Reject::BadRange));
        assert_eq!(
            range_problem(0x7fff_ffff_f000, 0x2000),
            Some(Reject::BadRange)
        );
        assert_eq!(range_problem(0x7fff_ffff_f000, 0x1000), None);
        let r = Registry::new();
        r.refuse_range("tp_register_variable", Some(b"n"), Reject::NullAddress);
        r.refuse_range("tp_register_variable", Some(b"a b"), Reject::ZeroSize);
        let mut seen = Vec::new();
        r.for_each_rejected(|x| seen.push((x.name().to_vec(), x.reason())));
        seen.sort();
        assert_eq!(
            seen,
            vec![
                (b"a b".to_vec(), Reject::BadCharacter),
                (b"n".to_vec(), Reject::NullAddress)
            ]
        );
        assert!(r.is_empty());
    }

    #[test]
    fn has_label_and_delete_label() {
        let x = [0u32; 4];
        let p = x.as_ptr().cast::<libc::c_void>();
        unsafe {
            tp_register_variable(p, 4, c"params_has_label".as_ptr());
            assert_eq!(tp_has_label(p, 16, c"params_has_label".as_ptr()), 1);
            assert_eq!(tp_has_label(p, 16, c"never_registered".as_ptr()), 0);
            assert_eq!(tp_has_label(p, 16, core::ptr::null()), 0);
            assert_eq!(
                tp_has_label(
                    p.cast::<u8>().add(4).cast(),
                    12,
                    c"params_has_label".as_ptr()
                ),
                0
            );
            tp_delete_label(p, 16);
            assert_eq!(tp_has_label(p, 16, c"params_has_label".as_ptr()), 0);
            assert_eq!(tp_read_label(p, 16), 0);
            tp_delete_label(core::ptr::null(), 16);
        }
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
    fn values_are_read_by_size_as_signed_integers() {
        let read = |b: &[u8]| unsafe { read_value(b.as_ptr().cast(), b.len()) };
        assert_eq!(read(&[0xfe]), Value::Int(-2));
        assert_eq!(read(&[0x7f]), Value::Int(127));
        assert_eq!(read(&(-300i16).to_le_bytes()), Value::Int(-300));
        assert_eq!(read(&4096i32.to_le_bytes()), Value::Int(4096));
        assert_eq!(
            read(&u32::MAX.to_le_bytes()),
            Value::Int(-1),
            "no type: signed"
        );
        assert_eq!(read(&(1i64 << 40).to_le_bytes()), Value::Int(1 << 40));
        assert_eq!(read(&i64::MIN.to_le_bytes()), Value::Int(i64::MIN));
        for n in [3, 5, 16, 100] {
            assert_eq!(read(&vec![1u8; n]), Value::None, "size {n}");
        }
        // Unaligned.
        let b = [0u8, 0x10, 0, 0, 0];
        assert_eq!(read(&b[1..]), Value::Int(16));
    }

    #[test]
    fn the_first_value_is_kept_and_a_change_flagged() {
        let r = Registry::new();
        let e = "tp_register_variable";
        assert_eq!(r.register_from(e, Some(b"n"), Value::Int(100)), Ok(1));
        assert_eq!(r.register_from(e, Some(b"m"), Value::None), Ok(2));
        assert_eq!(r.register_from(e, Some(b"n"), Value::Int(100)), Ok(1));
        let p = r.get(0).unwrap();
        assert_eq!(
            (p.value, p.value_changed, p.registrations),
            (Value::Int(100), false, 2)
        );
        assert_eq!(r.register_from(e, Some(b"n"), Value::Int(200)), Ok(1));
        let p = r.get(0).unwrap();
        assert_eq!(
            (p.value, p.value_changed, p.registrations),
            (Value::Int(100), true, 3)
        );
        let m = r.get(1).unwrap();
        assert_eq!((m.value, m.value_changed), (Value::None, false));
        // None after a value (a registration of another size) is a change too.
        assert_eq!(r.register_from(e, Some(b"m"), Value::Int(1)), Ok(2));
        assert!(r.get(1).unwrap().value_changed);
        // A refused registration keeps nothing.
        assert!(r.register_from(e, Some(b"a b"), Value::Int(3)).is_err());
        assert_eq!(r.len(), 2);
    }

    #[test]
    fn tp_register_variable_reads_the_value() {
        let v: i16 = -1234;
        unsafe { tp_register_variable((&v as *const i16).cast(), 2, c"params_value_i16".as_ptr()) };
        match (0..REGISTRY.len())
            .find_map(|i| REGISTRY.get(i).filter(|p| p.name == b"params_value_i16"))
        {
            Some(p) => assert_eq!(p.value, Value::Int(-1234)),
            // Other tests of this process took every bit.
            None => assert_eq!(REGISTRY.len(), MAX_PARAMS),
        }
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
