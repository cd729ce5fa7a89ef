//! [`MmapVec`]: a growable array of `Copy` values in its own anonymous mapping.
//!
//! Why: the report path builds large temporary tables (sorted contexts, interned paths)
//! inside a signal handler, where `Vec` (malloc) is not allowed.
//!
//! Invariants: `ptr` is null (nothing mapped, `cap == 0`) or the start of a mapping of
//! `bytes_for(cap)` bytes of which the first `len` elements are initialised. Growth uses
//! `mremap(MREMAP_MAYMOVE)`, so references into the array do not survive a push. Running
//! out of memory is a `false` return, never a panic or an abort.

use core::marker::PhantomData;
use core::mem::size_of;
use core::ptr;

use crate::mem::{mmap_anon, munmap, round_up, PAGE};

/// A growable array of `Copy` values backed by `mmap`/`mremap` (see the module docs).
pub struct MmapVec<T: Copy> {
    ptr: *mut T,
    len: usize,
    cap: usize,
    _t: PhantomData<T>,
}

impl<T: Copy> Default for MmapVec<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> MmapVec<T> {
    pub const fn new() -> Self {
        MmapVec {
            ptr: ptr::null_mut(),
            len: 0,
            cap: 0,
            _t: PhantomData,
        }
    }

    fn bytes_for(cap: usize) -> usize {
        round_up(cap.saturating_mul(size_of::<T>().max(1)), PAGE)
    }

    /// Makes room for at least `extra` more elements. Returns false when out of memory.
    pub fn reserve(&mut self, extra: usize) -> bool {
        let need = match self.len.checked_add(extra) {
            Some(n) => n,
            None => return false,
        };
        if need <= self.cap {
            return true;
        }
        let new_cap = need
            .max(self.cap.saturating_mul(2))
            .max(PAGE / size_of::<T>().max(1));
        let new_bytes = Self::bytes_for(new_cap);
        let p = if self.ptr.is_null() {
            mmap_anon(new_bytes)
        } else {
            let old_bytes = Self::bytes_for(self.cap);
            // SAFETY: self.ptr/old_bytes is our mapping; MAYMOVE keeps its contents.
            let q = unsafe {
                libc::mremap(self.ptr.cast(), old_bytes, new_bytes, libc::MREMAP_MAYMOVE)
            };
            if q == libc::MAP_FAILED {
                ptr::null_mut()
            } else {
                q.cast()
            }
        };
        if p.is_null() {
            return false;
        }
        self.ptr = p.cast();
        self.cap = new_bytes / size_of::<T>().max(1);
        true
    }

    /// Appends `v`; false when out of memory (the value is dropped).
    #[inline]
    pub fn push(&mut self, v: T) -> bool {
        if self.len == self.cap && !self.reserve(1) {
            return false;
        }
        // SAFETY: len < cap after reserve.
        unsafe { self.ptr.add(self.len).write(v) };
        self.len += 1;
        true
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn truncate(&mut self, n: usize) {
        if n < self.len {
            self.len = n;
        }
    }

    /// Keeps the elements `keep` accepts, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut n = 0;
        let v = self.as_mut_slice();
        for i in 0..v.len() {
            if keep(&v[i]) {
                v[n] = v[i];
                n += 1;
            }
        }
        self.truncate(n);
    }

    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: index < old len, initialised.
        Some(unsafe { self.ptr.add(self.len).read() })
    }

    pub fn as_slice(&self) -> &[T] {
        if self.ptr.is_null() {
            &[]
        } else {
            // SAFETY: ptr..ptr+len is initialised.
            unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
        }
    }

    pub fn as_mut_slice(&mut self) -> &mut [T] {
        if self.ptr.is_null() {
            &mut []
        } else {
            // SAFETY: ptr..ptr+len is initialised and uniquely borrowed.
            unsafe { core::slice::from_raw_parts_mut(self.ptr, self.len) }
        }
    }

    /// Resizes to `n` elements, filling new ones with `v`. False when out of memory.
    pub fn resize(&mut self, n: usize, v: T) -> bool {
        if n > self.len && !self.reserve(n - self.len) {
            return false;
        }
        while self.len < n {
            // SAFETY: len < cap.
            unsafe { self.ptr.add(self.len).write(v) };
            self.len += 1;
        }
        self.truncate(n);
        true
    }
}

impl<T: Copy> Drop for MmapVec<T> {
    fn drop(&mut self) {
        if !self.ptr.is_null() {
            // SAFETY: our mapping, no longer borrowed.
            unsafe { munmap(self.ptr.cast(), Self::bytes_for(self.cap)) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_and_keeps_contents() {
        let mut v = MmapVec::<u64>::new();
        assert!(v.is_empty() && v.as_slice().is_empty());
        for i in 0..100_000u64 {
            assert!(v.push(i * 3));
        }
        assert_eq!(v.len(), 100_000);
        assert!(v
            .as_slice()
            .iter()
            .enumerate()
            .all(|(i, &x)| x == i as u64 * 3));
        v.as_mut_slice().sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(v.as_slice()[0], 99_999 * 3);
        assert_eq!(v.pop(), Some(0));
        assert!(v.resize(10, 7));
        assert_eq!(v.len(), 10);
        assert_eq!(v.as_slice()[9], 99_990 * 3);
        assert!(v.resize(12, 7));
        assert_eq!(&v.as_slice()[9..], &[99_990 * 3, 7, 7]);
        v.retain(|&x| x != 7);
        assert_eq!(v.len(), 10);
        assert!(!v.reserve(usize::MAX));
    }

    #[test]
    fn zero_sized_and_byte_elements() {
        let mut z = MmapVec::<()>::new();
        for _ in 0..10 {
            assert!(z.push(()));
        }
        assert_eq!(z.len(), 10);
        let mut b = MmapVec::<u8>::new();
        for i in 0..10_000u32 {
            assert!(b.push(i as u8));
        }
        assert_eq!(b.as_slice()[257], 1);
    }
}
