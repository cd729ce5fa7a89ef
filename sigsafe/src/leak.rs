//! Permanent allocations: what `Box::leak` gives, without malloc.
//!
//! Why: a few runtime records live until the process ends and are read lock-free by the
//! report writer (registered parameter names, refused registrations, the copy of
//! `argv`). Allocating them from the heap would tie the runtime to `alloc` and to the
//! program's allocator.
//!
//! Invariants: memory handed out is zeroed, aligned as asked, never reused and never
//! freed. Chunks of [`CHUNK`] bytes are carved by a lock-free bump pointer (any thread,
//! also a signal handler); requests too large for a chunk get their own mapping. Out of
//! memory is `None`, never an abort.

use core::mem::{align_of, size_of};
use core::ptr;
use core::sync::atomic::{AtomicPtr, AtomicUsize, Ordering::*};

use crate::mem::{mmap_anon, munmap, round_up, PAGE};

/// Size of one chunk of small allocations.
pub const CHUNK: usize = 64 * 1024;

/// The header at the start of every chunk: bytes of the chunk in use (header included).
struct Chunk {
    used: AtomicUsize,
}

/// The chunk being carved (earlier ones are full and simply stay mapped).
static CURRENT: AtomicPtr<Chunk> = AtomicPtr::new(ptr::null_mut());

/// `size` zeroed bytes aligned to `align` (a power of two, at most [`PAGE`]) that stay
/// valid for the rest of the process. Null when out of memory or `align` is invalid.
pub fn alloc(size: usize, align: usize) -> *mut u8 {
    if !align.is_power_of_two() || align > PAGE {
        return ptr::null_mut();
    }
    let header = size_of::<Chunk>();
    if size > CHUNK / 4 {
        // Its own mapping (page aligned, so any `align` up to a page holds).
        return mmap_anon(round_up(size, PAGE).max(PAGE));
    }
    loop {
        let c = CURRENT.load(Acquire);
        if !c.is_null() {
            // SAFETY: a published chunk: mapped, its header initialised, never unmapped.
            let used = unsafe { &(*c).used };
            let base = c as usize;
            let mut u = used.load(Relaxed);
            loop {
                let start = round_up(base + u, align) - base;
                let end = start.saturating_add(size);
                if end > CHUNK {
                    break;
                }
                match used.compare_exchange_weak(u, end, Relaxed, Relaxed) {
                    // SAFETY: start < end <= CHUNK: inside the chunk, and [start, end)
                    // now belongs to this caller alone.
                    Ok(_) => return unsafe { c.cast::<u8>().add(start) },
                    Err(now) => u = now,
                }
            }
        }
        // The chunk is full (or there is none yet): publish a fresh one.
        let fresh = mmap_anon(CHUNK).cast::<Chunk>();
        if fresh.is_null() {
            return ptr::null_mut();
        }
        // SAFETY: a fresh mapping, large and aligned enough for the header.
        unsafe {
            fresh.write(Chunk {
                used: AtomicUsize::new(header),
            })
        };
        if CURRENT.compare_exchange(c, fresh, AcqRel, Acquire).is_err() {
            // Another thread published one first: use that.
            // SAFETY: our own fresh mapping, never published.
            unsafe { munmap(fresh.cast(), CHUNK) };
        }
    }
}

/// Moves `v` into permanent memory (`Box::leak(Box::new(v))`). `v` is never dropped.
pub fn leak<T>(v: T) -> Option<&'static mut T> {
    let p = alloc(size_of::<T>(), align_of::<T>()).cast::<T>();
    if p.is_null() {
        return None;
    }
    // SAFETY: p is valid, aligned, exclusively ours, and lives forever.
    unsafe {
        p.write(v);
        Some(&mut *p)
    }
}

/// A permanent copy of `s`.
pub fn leak_slice<T: Copy>(s: &[T]) -> Option<&'static mut [T]> {
    let bytes = size_of::<T>().checked_mul(s.len())?;
    let p = alloc(bytes, align_of::<T>()).cast::<T>();
    if p.is_null() {
        return None;
    }
    // SAFETY: p holds s.len() elements, aligned, exclusively ours, and lives forever;
    // the source cannot overlap fresh memory.
    unsafe {
        ptr::copy_nonoverlapping(s.as_ptr(), p, s.len());
        Some(core::slice::from_raw_parts_mut(p, s.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    #[test]
    fn allocations_are_aligned_zeroed_and_disjoint() {
        let mut got = Vec::new();
        for i in 0..5_000usize {
            let size = 1 + (i * 13) % 300;
            let align = 1 << (i % 7);
            let p = alloc(size, align);
            assert!(!p.is_null());
            assert_eq!(p as usize % align, 0);
            // SAFETY: `size` bytes of ours.
            let s = unsafe { core::slice::from_raw_parts_mut(p, size) };
            assert!(s.iter().all(|&b| b == 0));
            s.fill(0xab);
            got.push((p as usize, size));
        }
        got.sort_unstable();
        assert!(got.windows(2).all(|w| w[0].0 + w[0].1 <= w[1].0));
        assert!(alloc(8, 3).is_null());
        assert!(alloc(8, 2 * PAGE).is_null());
    }

    #[test]
    fn large_values_and_slices() {
        let big = alloc(CHUNK * 2, 64);
        assert!(!big.is_null());
        assert_eq!(big as usize % PAGE, 0);
        let v = leak([7u64; 3]).unwrap();
        v[1] = 8;
        assert_eq!(*v, [7, 8, 7]);
        let s = leak_slice(b"name").unwrap();
        assert_eq!(s, b"name");
        assert_eq!(leak_slice::<u32>(&[]).unwrap().len(), 0);
    }

    #[test]
    fn threads_allocate_concurrently() {
        let hs: Vec<_> = (0..4)
            .map(|t| {
                std::thread::spawn(move || {
                    (0..2_000u64)
                        .map(|i| leak(t * 1_000_000 + i).unwrap() as *mut u64 as usize)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<usize> = hs.into_iter().flat_map(|h| h.join().unwrap()).collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
