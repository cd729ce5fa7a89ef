//! Loops in flight: loops that had not ended when a report was written.
//!
//! A loop reports once, when it is left (`__tp_loop_exit`). A report written while a
//! loop is still running — on SIGTERM at a batch system's wall-clock limit, on `exit()`
//! or `_exit()` called inside a time-step loop, before an `exec` — would otherwise list
//! that loop as never executed, and every volume above it would lose a factor
//! (`n*steps` becomes `n`).
//!
//! Instrumented code therefore keeps, per thread, a small stack of the loops it is in
//! (`__tp_loops_tls`, layout in `taintprof_abi::InFlightLoop`): pushed where a loop is
//! entered, its label updated by every exit test, popped where it is left. All of it is
//! plain stores to thread-local memory, no call.
//!
//! When a report is written, [`snapshot`] copies every live thread's stack (through
//! `process_vm_readv`, so a thread that has just exited and unmapped its stack cannot
//! crash the writer) into one table sorted by (node, loop), and
//! `Node::for_each_loop` ([`crate::context`]) adds each entry to its node's loop
//! records as one more execution with the labels seen so far. The report says how many
//! loops were in flight ([`count`]). The raw run record ([`crate::record`]) writes the
//! entries themselves ([`with_entries`]: thread, depth, node, loop, label) and the
//! loop records without them.
//!
//! Only the report writer touches the snapshot, and reports are written one at a time
//! (`crate::report`'s state machine), so the table needs no lock.

use core::cell::UnsafeCell;

use taintprof_abi::{InFlightLoop, Label, LoopDesc, LOOPS_IN_FLIGHT};
use taintprof_sigsafe::MmapVec;

use crate::context::{self, Node, ThreadState};

/// One loop in flight in the snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The calling-context node running the loop (`*const Node`).
    pub node: usize,
    /// The loop (`*const LoopDesc`).
    pub desc: usize,
    /// The labels its exit tests had seen so far.
    pub label: Label,
    /// `ThreadState::index` of the thread whose stack it is on.
    pub thread: u32,
    /// Its position in that stack (0 = outermost).
    pub depth: u32,
}

struct Table(UnsafeCell<Option<MmapVec<Entry>>>);
// SAFETY: only the (single) report writer reads or writes it, see the module comment.
unsafe impl Sync for Table {}

static TABLE: Table = Table(UnsafeCell::new(None));

fn table() -> &'static mut Option<MmapVec<Entry>> {
    // SAFETY: one report writer at a time (module comment).
    unsafe { &mut *TABLE.0.get() }
}

/// Copies `len` bytes at `src` of this process into `dst`; false if any is unmapped.
fn read_own_memory(src: usize, dst: *mut u8, len: usize) -> bool {
    let local = libc::iovec {
        iov_base: dst.cast(),
        iov_len: len,
    };
    let remote = libc::iovec {
        iov_base: src as *mut libc::c_void,
        iov_len: len,
    };
    // SAFETY: the kernel checks the remote range; `dst` has `len` writable bytes.
    let n = unsafe { libc::process_vm_readv(libc::getpid(), &local, 1, &remote, 1, 0) };
    n == len as isize
}

fn thread_alive(tid: i32) -> bool {
    // SAFETY: signal 0 only checks existence.
    unsafe { libc::syscall(libc::SYS_tgkill, libc::getpid(), tid, 0) == 0 }
}

/// Takes the snapshot of every thread's loops in flight (report writer only).
pub fn snapshot() {
    let t = table();
    let v = t.get_or_insert_with(MmapVec::new);
    v.truncate(0);
    let mut buf = [InFlightLoop {
        node: core::ptr::null(),
        desc: core::ptr::null(),
        label: 0,
    }; LOOPS_IN_FLIGHT];
    context::for_each_thread(|ts: &ThreadState| {
        let (loops, depth_at) = ts.loops_in_flight();
        if loops == 0 || !thread_alive(ts.tid) {
            return;
        }
        let mut depth = 0u64;
        if !read_own_memory(depth_at, (&mut depth as *mut u64).cast(), 8) {
            return;
        }
        let n = (depth as usize).min(LOOPS_IN_FLIGHT);
        let bytes = LOOPS_IN_FLIGHT * core::mem::size_of::<InFlightLoop>();
        if n == 0 || !read_own_memory(loops, buf.as_mut_ptr().cast(), bytes) {
            return;
        }
        let mask = LOOPS_IN_FLIGHT - 1;
        for k in depth as usize - n..depth as usize {
            let e = buf[k & mask];
            // Only this thread's own nodes: a stack slot reused by another thread
            // after this one exited would otherwise be counted twice.
            // SAFETY: a non-null node pointer in a live thread's stack was written by
            // instrumented code from `__tp_enter`'s result: a node, never freed.
            if e.node.is_null() || e.desc.is_null() || !unsafe { ts.owns(e.node as *const Node) } {
                continue;
            }
            v.push(Entry {
                node: e.node as usize,
                desc: e.desc as usize,
                label: e.label as Label,
                thread: ts.index,
                depth: u32::try_from(k).unwrap_or(u32::MAX),
            });
        }
    });
    v.as_mut_slice().sort_unstable_by_key(|e| (e.node, e.desc));
}

/// Forgets the snapshot (after the report is written).
pub fn clear() {
    if let Some(v) = table() {
        v.truncate(0);
    }
}

/// Calls `f` with the snapshot, sorted by (node, loop): what the raw run record
/// writes ([`crate::record`]). Empty when no snapshot was taken.
pub fn with_entries<R>(f: impl FnOnce(&[Entry]) -> R) -> R {
    f(table().as_ref().map_or(&[][..], |v| v.as_slice()))
}

/// Number of loops in flight in the snapshot.
pub fn count() -> usize {
    table().as_ref().map_or(0, |v| v.len())
}

/// The in-flight entries of `node`, by loop: `f(loop, label union, entries)`.
pub fn for_node(node: *const Node, mut f: impl FnMut(*const LoopDesc, Label, u64)) {
    let Some(v) = table().as_ref() else {
        return;
    };
    let s = v.as_slice();
    let node = node as usize;
    let mut i = s.partition_point(|e| e.node < node);
    while i < s.len() && s[i].node == node {
        let desc = s[i].desc;
        let (mut label, mut n) = (0, 0u64);
        while i < s.len() && s[i].node == node && s[i].desc == desc {
            label |= s[i].label;
            n += 1;
            i += 1;
        }
        f(desc as *const LoopDesc, label, n);
    }
}

/// The in-flight union and entry count of (`node`, `lp`), if any.
pub fn find(node: *const Node, lp: *const LoopDesc) -> Option<(Label, u64)> {
    let v = table().as_ref()?;
    let s = v.as_slice();
    let key = (node as usize, lp as usize);
    let mut i = s.partition_point(|e| (e.node, e.desc) < key);
    let (mut label, mut n) = (0, 0u64);
    while i < s.len() && (s[i].node, s[i].desc) == key {
        label |= s[i].label;
        n += 1;
        i += 1;
    }
    (n > 0).then_some((label, n))
}
