//! The program's own signal dispositions for the signals we keep our handler on.
//!
//! For SIGFPE, SIGTRAP and the fatal signals the kernel always runs *our* handler; what
//! the program asked for with `sigaction`/`signal` is recorded here and honoured by
//! [`crate::handlers`]: its handler is called with the same arguments, `SIG_IGN` and
//! `SIG_DFL` are emulated. `sigaction` queries return what the program set.
//!
//! Handlers read an entry while another thread may be replacing it, so each entry is a
//! seqlock over atomics: readers retry while the sequence number is odd or changed,
//! writers (our `sigaction` wrapper, never a handler except for SA_RESETHAND) serialize
//! on a spin flag while all signals are blocked on their thread — so a handler can
//! never spin on a writer it interrupted.

use core::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};

use crate::real;

/// Signals whose disposition we manage: the two we need, then the fatal ones we write
/// the report for.
pub const MANAGED: [(i32, &str); 11] = [
    (libc::SIGFPE, "SIGFPE"),
    (libc::SIGTRAP, "SIGTRAP"),
    (libc::SIGSEGV, "SIGSEGV"),
    (libc::SIGBUS, "SIGBUS"),
    (libc::SIGILL, "SIGILL"),
    (libc::SIGABRT, "SIGABRT"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGINT, "SIGINT"),
    (libc::SIGQUIT, "SIGQUIT"),
    (libc::SIGHUP, "SIGHUP"),
    (libc::SIGPIPE, "SIGPIPE"),
];

#[cfg_attr(test, allow(dead_code))]
pub fn managed(sig: i32) -> bool {
    MANAGED.iter().any(|&(s, _)| s == sig)
}

pub fn name(sig: i32) -> &'static str {
    MANAGED
        .iter()
        .find(|&&(s, _)| s == sig)
        .map_or("SIG?", |&(_, n)| n)
}

const WORDS: usize = core::mem::size_of::<libc::sigset_t>() / 8;

struct Entry {
    seq: AtomicU32,
    handler: AtomicUsize,
    flags: AtomicU64,
    mask: [AtomicU64; WORDS],
}

impl Entry {
    const fn new() -> Self {
        Entry {
            seq: AtomicU32::new(0),
            handler: AtomicUsize::new(libc::SIG_DFL),
            flags: AtomicU64::new(0),
            mask: [const { AtomicU64::new(0) }; WORDS],
        }
    }
}

static TABLE: [Entry; 65] = [const { Entry::new() }; 65];
static WRITER: AtomicBool = AtomicBool::new(false);

/// A program disposition.
#[derive(Clone, Copy)]
pub struct Action {
    pub handler: usize,
    pub flags: i32,
    pub mask: [u64; WORDS],
}

impl Action {
    pub fn from_sigaction(sa: &libc::sigaction) -> Self {
        let mut mask = [0u64; WORDS];
        // SAFETY: sigset_t is WORDS u64 words.
        let words: &[u64; WORDS] = unsafe { &*(&sa.sa_mask as *const libc::sigset_t).cast() };
        mask.copy_from_slice(words);
        Action {
            handler: sa.sa_sigaction,
            flags: sa.sa_flags,
            mask,
        }
    }

    pub fn to_sigaction(self) -> libc::sigaction {
        // SAFETY: all-zero is a valid sigaction.
        let mut sa: libc::sigaction = unsafe { core::mem::zeroed() };
        sa.sa_sigaction = self.handler;
        sa.sa_flags = self.flags;
        // SAFETY: sigset_t is WORDS u64 words.
        let words: &mut [u64; WORDS] =
            unsafe { &mut *(&mut sa.sa_mask as *mut libc::sigset_t).cast() };
        words.copy_from_slice(&self.mask);
        sa
    }
}

fn entry(sig: i32) -> Option<&'static Entry> {
    TABLE.get(usize::try_from(sig).ok()?)
}

/// Reads the program's disposition for `sig` (async-signal-safe).
pub fn read(sig: i32) -> Action {
    let mut a = Action {
        handler: libc::SIG_DFL,
        flags: 0,
        mask: [0; WORDS],
    };
    let Some(e) = entry(sig) else {
        return a;
    };
    for _ in 0..1_000_000 {
        let s1 = e.seq.load(Acquire);
        if s1 & 1 == 1 {
            core::hint::spin_loop();
            continue;
        }
        a.handler = e.handler.load(Relaxed);
        a.flags = e.flags.load(Relaxed) as i32;
        for (d, w) in a.mask.iter_mut().zip(e.mask.iter()) {
            *d = w.load(Relaxed);
        }
        core::sync::atomic::fence(Acquire);
        if e.seq.load(Relaxed) == s1 {
            break;
        }
    }
    a
}

/// Records the program's disposition for `sig`. The caller blocks all signals on its
/// thread (see the module comment) — [`real::BlockAll`].
pub fn write(sig: i32, a: &Action) {
    let Some(e) = entry(sig) else {
        return;
    };
    while WRITER
        .compare_exchange_weak(false, true, Acquire, Relaxed)
        .is_err()
    {
        core::hint::spin_loop();
    }
    e.seq.fetch_add(1, AcqRel);
    core::sync::atomic::fence(Release);
    e.handler.store(a.handler, Relaxed);
    e.flags.store(a.flags as u32 as u64, Relaxed);
    for (w, s) in e.mask.iter().zip(a.mask.iter()) {
        w.store(*s, Relaxed);
    }
    e.seq.fetch_add(1, Release);
    WRITER.store(false, Release);
}

/// SA_RESETHAND emulation from a handler: the disposition becomes SIG_DFL.
pub fn reset_to_default(sig: i32) {
    let _block = real::BlockAll::new();
    write(
        sig,
        &Action {
            handler: libc::SIG_DFL,
            flags: 0,
            mask: [0; WORDS],
        },
    );
}
