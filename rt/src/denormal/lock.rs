//! A small spin lock for the registration paths (module registration, heap blocks,
//! snapshots). The cold hooks never take it.
//!
//! It records the owner's kernel thread id, so code that may run in a signal handler
//! interrupting the owner (a snapshot from `SIGUSR1`, a lookup while this very thread is
//! republishing the range table) can notice and back off instead of deadlocking.

use core::sync::atomic::{AtomicI32, Ordering::*};

pub struct SpinLock {
    owner: AtomicI32,
}

pub struct Guard<'a> {
    l: &'a SpinLock,
}

impl Default for SpinLock {
    fn default() -> Self {
        Self::new()
    }
}

impl SpinLock {
    pub const fn new() -> Self {
        SpinLock {
            owner: AtomicI32::new(0),
        }
    }

    /// Takes the lock (spinning, then yielding).
    pub fn lock(&self) -> Guard<'_> {
        let me = crate::sys::gettid();
        let mut spins = 0u32;
        loop {
            if self.owner.load(Relaxed) == 0
                && self
                    .owner
                    .compare_exchange_weak(0, me, Acquire, Relaxed)
                    .is_ok()
            {
                return Guard { l: self };
            }
            spins += 1;
            if spins < 64 {
                core::hint::spin_loop();
            } else {
                // SAFETY: plain system call.
                unsafe { libc::sched_yield() };
            }
        }
    }

    /// Takes the lock if it is free.
    pub fn try_lock(&self) -> Option<Guard<'_>> {
        let me = crate::sys::gettid();
        self.owner
            .compare_exchange(0, me, Acquire, Relaxed)
            .ok()
            .map(|_| Guard { l: self })
    }

    /// Tries for about `ms` milliseconds; None if still held (or held by this thread).
    pub fn lock_for(&self, ms: u32) -> Option<Guard<'_>> {
        for _ in 0..ms.max(1) {
            if self.held_by_me() {
                return None;
            }
            if let Some(g) = self.try_lock() {
                return Some(g);
            }
            let ts = libc::timespec {
                tv_sec: 0,
                tv_nsec: 1_000_000,
            };
            // SAFETY: plain nanosleep.
            unsafe { libc::nanosleep(&ts, core::ptr::null_mut()) };
        }
        None
    }

    /// True if the calling thread holds the lock.
    pub fn held_by_me(&self) -> bool {
        self.owner.load(Relaxed) == crate::sys::gettid()
    }

    /// True if some thread holds the lock.
    pub fn is_held(&self) -> bool {
        self.owner.load(Relaxed) != 0
    }

    /// Releases a lock the caller knows is held by a thread that no longer exists (the
    /// child of a `fork`).
    ///
    /// # Safety
    /// No other thread may be inside the critical section.
    pub unsafe fn force_unlock(&self) {
        self.owner.store(0, Release);
    }
}

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        self.l.owner.store(0, Release);
    }
}

impl Guard<'_> {
    /// Leaves the lock held past the guard (fork handlers release it by hand).
    pub fn forget(self) {
        core::mem::forget(self);
    }
}
