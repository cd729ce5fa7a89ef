//! Per-thread "stepping" state between a SIGFPE and the SIGTRAP that follows it.
//!
//! The SIGFPE handler masks the exception, sets the trap flag and returns; the CPU runs
//! the faulting instruction once and raises SIGTRAP; the SIGTRAP handler must then know
//! what to undo. That state lives in a fixed table of slots keyed by thread id instead
//! of thread-local storage: TLS in a shared library goes through `__tls_get_addr`,
//! which may allocate or take the loader's lock when another module was `dlopen`ed —
//! neither is allowed in a signal handler. A thread holds a slot only for the few
//! microseconds of one step, so slots are claimed on SIGFPE and released on SIGTRAP,
//! and the table never fills up unless thousands of threads step at the same instant.

use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicI32, AtomicU64, Ordering::*};

const NSLOTS: usize = 4096;

/// What the SIGTRAP handler has to undo.
#[derive(Clone, Copy)]
pub struct Step {
    /// MXCSR mask bits we set (to be cleared again).
    pub mx_masked: u32,
    /// x87 control-word mask bits we set.
    pub cw_masked: u16,
    /// The first word of the interrupted context's signal mask (signals 1–64), put back
    /// after the step.
    pub sigmask: u64,
    /// x87 replay: where execution continues after the replayed instruction (the
    /// instruction the #MF was reported on); 0 = just continue.
    pub resume_rip: u64,
    /// x87 replay: a general register (index into `gregs`) temporarily changed so the
    /// replayed instruction addresses the same memory, and its value to put back.
    pub reg: i32,
    pub reg_val: u64,
}

impl Step {
    pub const EMPTY: Step = Step {
        mx_masked: 0,
        cw_masked: 0,
        sigmask: 0,
        resume_rip: 0,
        reg: -1,
        reg_val: 0,
    };
}

pub struct Slot {
    owner: AtomicI32,
    step: UnsafeCell<Step>,
}

// SAFETY: `step` is only accessed by the thread whose id is in `owner` (claimed with a
// CAS), from its own signal handlers, which do not run concurrently with each other.
unsafe impl Sync for Slot {}

impl Slot {
    const fn new() -> Self {
        Slot {
            owner: AtomicI32::new(0),
            step: UnsafeCell::new(Step::EMPTY),
        }
    }

    /// The step state. Only for the owning thread.
    #[allow(clippy::mut_from_ref)]
    pub fn step(&self) -> &mut Step {
        // SAFETY: see the Sync impl; callers own the slot.
        unsafe { &mut *self.step.get() }
    }

    /// The owning thread.
    pub fn tid(&self) -> i32 {
        self.owner.load(Relaxed)
    }

    pub fn release(&self) {
        self.owner.store(0, Release);
    }
}

static SLOTS: [Slot; NSLOTS] = [const { Slot::new() }; NSLOTS];
/// Claims that found no free slot (the report warns).
static EXHAUSTED: AtomicU64 = AtomicU64::new(0);

#[inline]
fn start(tid: i32) -> usize {
    (tid as u32 as usize).wrapping_mul(0x9E37_79B9) % NSLOTS
}

/// The slot this thread holds, if any.
pub fn find(tid: i32) -> Option<&'static Slot> {
    let s = start(tid);
    (0..NSLOTS)
        .map(|i| &SLOTS[(s + i) % NSLOTS])
        .find(|sl| sl.owner.load(Acquire) == tid)
}

/// Claims a free slot for this thread (the caller knows it holds none).
pub fn claim(tid: i32) -> Option<&'static Slot> {
    let s = start(tid);
    for i in 0..NSLOTS {
        let sl = &SLOTS[(s + i) % NSLOTS];
        if sl.owner.load(Relaxed) == 0 && sl.owner.compare_exchange(0, tid, AcqRel, Relaxed).is_ok()
        {
            *sl.step() = Step::EMPTY;
            return Some(sl);
        }
    }
    EXHAUSTED.fetch_add(1, Relaxed);
    None
}

pub fn exhausted() -> u64 {
    EXHAUSTED.load(Relaxed)
}

/// After `fork`: only the forking thread exists, and it is not stepping.
pub fn reset() {
    for sl in SLOTS.iter() {
        sl.owner.store(0, Relaxed);
    }
    EXHAUSTED.store(0, Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_find_release() {
        let a = claim(101).unwrap();
        a.step().resume_rip = 7;
        assert!(find(101).is_some_and(|s| core::ptr::eq(s, a)));
        assert!(find(102).is_none());
        let b = claim(101 + NSLOTS as i32).unwrap();
        assert!(!core::ptr::eq(a, b));
        a.release();
        assert!(find(101).is_none());
        assert!(find(101 + NSLOTS as i32).is_some());
        b.release();
    }
}
