//! [`SpinLock`]: the one lock of the runtimes, for rare registration paths.
//!
//! Why: module and parameter registration, marked-array registration and snapshots
//! need mutual exclusion among writers, without `std::sync::Mutex` (the runtime is
//! `no_std`) and with a way for code in a signal handler to tell that the lock is held
//! by the very thread it interrupted.
//!
//! Invariants: `owner` is 0 when free, else the kernel thread id of the holder. Taking
//! it spins briefly, then yields (`sched_yield`); there is no queue and no fairness. It
//! is not reentrant.
//!
//! **The rule for signal handlers**: code that can run in a signal handler never calls
//! [`SpinLock::lock`]: if the handler interrupted the holder on the same thread, it
//! would wait forever. Such code uses [`SpinLock::try_lock`] or [`SpinLock::lock_for`]
//! (which gives up at once when [`SpinLock::held_by_me`]) and copes with not getting
//! it (readers of registered data do not lock at all: writers publish with release
//! stores). After `fork`, a lock held by a thread that does not exist in the child is
//! released with [`SpinLock::force_unlock`].

use core::sync::atomic::{AtomicI32, Ordering::*};

use crate::os::{gettid, sleep_ms};

/// A spin lock that records its owner (see the module docs for the signal-handler rule).
pub struct SpinLock {
    owner: AtomicI32,
}

/// Holds a [`SpinLock`] until dropped.
#[must_use = "the lock is released when the guard is dropped"]
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

    /// Takes the lock, spinning then yielding until it is free. Never from a signal
    /// handler (module docs).
    pub fn lock(&self) -> Guard<'_> {
        let me = gettid();
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
    #[inline]
    pub fn try_lock(&self) -> Option<Guard<'_>> {
        self.owner
            .compare_exchange(0, gettid(), Acquire, Relaxed)
            .ok()
            .map(|_| Guard { l: self })
    }

    /// Tries for about `ms` milliseconds; None if still held, at once if held by this
    /// thread. Usable from a signal handler.
    pub fn lock_for(&self, ms: u32) -> Option<Guard<'_>> {
        for _ in 0..ms.max(1) {
            if self.held_by_me() {
                return None;
            }
            if let Some(g) = self.try_lock() {
                return Some(g);
            }
            sleep_ms(1);
        }
        None
    }

    /// True if the calling thread holds the lock.
    #[inline]
    pub fn held_by_me(&self) -> bool {
        self.owner.load(Relaxed) == gettid()
    }

    /// True if some thread holds the lock.
    #[inline]
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

#[cfg(test)]
mod tests {
    use super::*;
    use core::sync::atomic::AtomicU64;
    use std::vec::Vec;

    #[test]
    fn excludes_and_knows_its_owner() {
        let l = SpinLock::new();
        assert!(!l.is_held());
        let g = l.lock();
        assert!(l.is_held() && l.held_by_me());
        assert!(l.try_lock().is_none());
        // Held by this thread: a handler on it would give up at once.
        assert!(l.lock_for(1000).is_none());
        drop(g);
        assert!(!l.is_held());
        let g = l.lock_for(10).unwrap();
        g.forget();
        assert!(l.is_held());
        // SAFETY: no one else uses this lock.
        unsafe { l.force_unlock() };
        assert!(l.try_lock().is_some());
    }

    #[test]
    fn threads_take_turns() {
        static L: SpinLock = SpinLock::new();
        static N: AtomicU64 = AtomicU64::new(0);
        let hs: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(|| {
                    for _ in 0..10_000 {
                        let _g = L.lock();
                        // A non-atomic read-modify-write under the lock.
                        let v = N.load(Relaxed);
                        N.store(v + 1, Relaxed);
                    }
                })
            })
            .collect();
        for h in hs {
            h.join().unwrap();
        }
        assert_eq!(N.load(Relaxed), 40_000);
        let other = std::thread::spawn(|| {
            let g = L.lock();
            std::thread::sleep(std::time::Duration::from_millis(50));
            drop(g);
        });
        std::thread::sleep(std::time::Duration::from_millis(10));
        assert!(!L.held_by_me());
        assert!(L.lock_for(2000).is_some());
        other.join().unwrap();
    }
}
