//! Per-thread bump allocation for calling-context nodes and their tables.
//!
//! An [`Arena`] hands out zeroed memory from `mmap`'d chunks by bumping a pointer. It is
//! owned by one thread (the one whose context tree it holds), so allocation takes no
//! lock and makes no system call except when a chunk runs out. Nothing is ever freed
//! individually: context trees live until the process ends (the report is written at
//! exit), and tables that grow leave their old copy behind — which is what lets the
//! report writer read a table lock-free while its owner replaces it.
//!
//! Chunks are `MAP_NORESERVE`, so untouched parts cost address space only.

use core::ptr;

use taintprof_sigsafe::{mmap_anon, round_up, PAGE};

/// Size of a regular chunk. Requests larger than a quarter of this get a chunk of
/// their own.
pub const CHUNK: usize = 256 * 1024;

/// A bump allocator over `mmap`'d chunks. Memory comes back zeroed.
pub struct Arena {
    cur: usize,
    end: usize,
    /// Bytes mapped so far (statistics).
    pub mapped: usize,
}

impl Default for Arena {
    fn default() -> Self {
        Self::new()
    }
}

impl Arena {
    /// An empty arena; the first allocation maps a chunk.
    pub const fn new() -> Self {
        Arena {
            cur: 0,
            end: 0,
            mapped: 0,
        }
    }

    /// An arena that starts with the unused tail `[start, end)` of a chunk the caller
    /// mapped (the thread state lives at the head of its first chunk).
    pub fn with_tail(start: *mut u8, end: *mut u8, mapped: usize) -> Self {
        Arena {
            cur: start as usize,
            end: end as usize,
            mapped,
        }
    }

    /// Allocates `size` zeroed bytes aligned to `align` (a power of two, at most a
    /// page). Returns null when the system is out of memory.
    #[inline]
    pub fn alloc(&mut self, size: usize, align: usize) -> *mut u8 {
        let start = (self.cur + (align - 1)) & !(align - 1);
        match start.checked_add(size) {
            Some(e) if e <= self.end && self.cur != 0 => {
                self.cur = e;
                start as *mut u8
            }
            _ => self.alloc_slow(size, align),
        }
    }

    #[cold]
    #[inline(never)]
    fn alloc_slow(&mut self, size: usize, align: usize) -> *mut u8 {
        if size > CHUNK / 4 {
            // A chunk of its own; the current chunk keeps serving small requests.
            let len = round_up(size, PAGE);
            let p = mmap_anon(len);
            if !p.is_null() {
                self.mapped += len;
            }
            return p;
        }
        let p = mmap_anon(CHUNK);
        if p.is_null() {
            return ptr::null_mut();
        }
        self.mapped += CHUNK;
        self.cur = p as usize;
        self.end = p as usize + CHUNK;
        let start = (self.cur + (align - 1)) & !(align - 1);
        self.cur = start + size;
        start as *mut u8
    }

    /// Allocates a zeroed `T` (which must be valid when all-zero).
    #[inline]
    pub fn alloc_zeroed<T>(&mut self) -> *mut T {
        self.alloc(core::mem::size_of::<T>(), core::mem::align_of::<T>())
            .cast()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_aligned_zeroed_and_disjoint() {
        let mut a = Arena::new();
        let mut blocks = Vec::new();
        for i in 0..20_000usize {
            let size = 1 + (i * 7) % 200;
            let align = 1 << (i % 7);
            let p = a.alloc(size, align);
            assert!(!p.is_null());
            assert_eq!(p as usize % align, 0);
            let s = unsafe { core::slice::from_raw_parts_mut(p, size) };
            assert!(s.iter().all(|&b| b == 0));
            s.fill(0xab);
            blocks.push((p as usize, size));
        }
        blocks.sort_unstable();
        assert!(blocks.windows(2).all(|w| w[0].0 + w[0].1 <= w[1].0));
        assert!(a.mapped >= 20_000 * 100);
    }

    #[test]
    fn large_requests_get_their_own_chunk() {
        let mut a = Arena::new();
        let small = a.alloc(16, 8);
        let big = a.alloc(CHUNK, 8);
        let small2 = a.alloc(16, 8);
        assert!(!big.is_null());
        assert_eq!(small2 as usize, small as usize + 16);
    }
}
