//! Calling-context trees and loop records, per thread (docs/design.md, decision 8).
//!
//! Every instrumented function calls, on entry,
//!
//! ```c
//! void *__tp_enter(void *parent, const SiteDesc *site, const FuncDesc *f);
//! ```
//!
//! with `parent` = the caller's node (the `__tp_ctx_tls` slot; null at the top of a
//! thread) and `site` = the call site the caller announced in `__tp_site_tls`. It gets
//! back the node for "`f` called from `site` under `parent`" and keeps it in
//! `__tp_ctx_tls` while it runs. Every loop exit calls
//!
//! ```c
//! void __tp_loop_exit(void *node, const LoopDesc *loop, uint16_t label);
//! ```
//!
//! which ORs `label` into the node's record for `loop` and counts one execution.
//!
//! ## Layout
//!
//! ```text
//!  ThreadState (head of the thread's first arena chunk)      THREADS (global, lock-free push)
//!   ├─ root: Node (depth 0, no function)  ◄────────────────── ts1 → ts2 → ... (never popped)
//!   ├─ arena: Arena (owner-only bump allocator)
//!   └─ recursive: PtrSet (functions seen on their own path)
//!
//!  Node ── children: ChildTable  [ (site, f) → child | folded ancestor ]  open addressing
//!       └─ loops:    LoopTable   [ loop → { label (OR), executions } ]   open addressing
//! ```
//!
//! * Keys are descriptor pointers; tables use linear probing at load factor ≤ 1/2 and
//!   are replaced by a table twice the size when full. The old table stays in the arena
//!   (nothing is freed), so a report written concurrently reads a consistent snapshot.
//! * Only the owning thread writes a tree. Slots are published with release stores of
//!   their value pointer; counters are updated with relaxed load + store (plain moves,
//!   no `lock` prefix) — the report writer reads them with relaxed loads.
//! * **Fast paths** (the table hit): one TLS load (the owner check), one hash, one or
//!   two compares, two plain stores. No malloc, no lock, no system call.
//! * **Children of the root** are keyed by function only (the site announced before a
//!   thread's first instrumented frame — `main`, a thread start routine, a constructor —
//!   is stale), so contexts start at `main` or the thread's start routine.
//! * **Recursion is folded**: if `f` is already on the path from `parent` to the root,
//!   `__tp_enter` returns that ancestor's node and `f` is marked recursive. Each node
//!   carries a 64-bit bloom filter of the functions on its path, so the usual miss (a
//!   new callee) is decided in O(1) and the path is walked only on a bloom hit. The
//!   folding decision is cached in the parent's child table, so later calls are plain
//!   hits.
//! * A node from another thread (impossible through `__tp_ctx_tls`, but cheap to
//!   guard) is re-created in the calling thread's tree by replaying its path.
//! * If memory runs out, `__tp_enter` returns the parent (the call is folded into its
//!   caller) and `__tp_loop_exit` drops the record; the report carries a warning.

use core::cell::{Cell, UnsafeCell};
use core::mem::size_of;
use core::ptr::{self, null_mut};
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU16, AtomicU32, AtomicU64, Ordering::*};

use taintprof_abi::{FuncDesc, Label, LoopDesc, SiteDesc};
use taintprof_sigsafe::{gettid, mmap_anon, round_up};

use crate::arena::{self, Arena};

/// A calling-context node: one function reached through one chain of call sites.
#[repr(C)]
pub struct Node {
    /// Parent node (null for the root). Immutable after publication.
    pub parent: *mut Node,
    /// Call site in the parent (null under the root). Immutable.
    pub site: *const SiteDesc,
    /// The function (null for the root). Immutable.
    pub func: *const FuncDesc,
    /// Thread that owns (and alone writes) this node.
    pub owner: *mut ThreadState,
    /// Bloom filter of the functions on the path root..=self.
    pub bloom: u64,
    /// Distance from the root (root = 0).
    pub depth: u32,
    children: AtomicPtr<ChildTable>,
    loops: AtomicPtr<LoopTable>,
}

#[repr(C)]
struct ChildSlot {
    site: AtomicPtr<SiteDesc>,
    func: AtomicPtr<FuncDesc>,
    /// The child, or a folded ancestor (recursion). Null = empty slot. Published last.
    child: AtomicPtr<Node>,
}

#[repr(C)]
struct LoopSlot {
    /// Null = empty slot. Published last.
    lp: AtomicPtr<LoopDesc>,
    executions: AtomicU64,
    label: AtomicU16,
}

#[repr(C)]
struct PtrSlot {
    p: AtomicPtr<FuncDesc>,
}

/// Header of an open-addressing table; `cap` slots of `S` follow it.
#[repr(C)]
struct Table<S> {
    mask: usize,
    /// Occupied slots (owner only).
    len: Cell<usize>,
    _s: [S; 0],
}

type ChildTable = Table<ChildSlot>;
type LoopTable = Table<LoopSlot>;
type PtrSet = Table<PtrSlot>;

impl<S> Table<S> {
    #[inline(always)]
    unsafe fn slot(t: *const Self, i: usize) -> *const S {
        // SAFETY: caller passes i <= mask; slots follow the header.
        unsafe {
            (t as *const u8)
                .add(size_of::<Self>())
                .cast::<S>()
                .add(i & (*t).mask)
        }
    }

    /// A zeroed table with `cap` (power of two) slots, or null when out of memory.
    fn alloc(a: &mut Arena, cap: usize) -> *mut Self {
        let t: *mut Self = a.alloc(size_of::<Self>() + cap * size_of::<S>(), 16).cast();
        if !t.is_null() {
            // SAFETY: fresh zeroed memory of the right size.
            unsafe { (*t).mask = cap - 1 };
        }
        t
    }

    /// Snapshot iteration for readers: calls `f` on every slot.
    unsafe fn for_each(t: *const Self, mut f: impl FnMut(&S)) {
        if t.is_null() {
            return;
        }
        // SAFETY: mask is immutable after publication; all slots exist.
        let cap = unsafe { (*t).mask } + 1;
        for i in 0..cap {
            // SAFETY: i < cap.
            f(unsafe { &*Self::slot(t, i) });
        }
    }
}

#[inline(always)]
fn hash2(a: usize, b: usize) -> usize {
    let x = (a as u64) ^ (b as u64).rotate_left(29);
    (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize
}

#[inline(always)]
fn hash1(a: usize) -> usize {
    ((a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize
}

/// One bit of a node's path bloom filter for function `f`.
#[inline(always)]
fn bloom_bit(f: *const FuncDesc) -> u64 {
    1u64 << (((f as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) & 63)
}

/// Per-thread state: the root of the thread's tree and its allocator.
#[repr(C)]
pub struct ThreadState {
    pub root: Node,
    arena: UnsafeCell<Arena>,
    recursive: AtomicPtr<PtrSet>,
    /// Next thread in [`THREADS`]. Immutable after publication.
    next: *mut ThreadState,
    /// Kernel thread id at creation.
    pub tid: i32,
    /// Order of creation (0 = first thread that ran instrumented code).
    pub index: u32,
    /// Addresses of this thread's `__tp_loops_tls` and `__tp_loop_depth_tls`
    /// ([`crate::inflight`]); they die with the thread.
    loops_tls: usize,
    loop_depth_tls: usize,
}

static THREADS: AtomicPtr<ThreadState> = AtomicPtr::new(null_mut());
static THREAD_COUNT: AtomicU32 = AtomicU32::new(0);
static OUT_OF_MEMORY: AtomicBool = AtomicBool::new(false);
/// Calling contexts created in all threads (children added to trees; the slow path).
static CONTEXTS: AtomicU64 = AtomicU64::new(0);

/// Number of calling contexts created so far, all threads (for the size of a report).
pub fn context_count() -> u64 {
    CONTEXTS.load(Relaxed)
}

crate::c_tls_ptr! {
    /// The calling thread's state (`__tp_thread_state_tls` of tls.c).
    mod current = __tp_thread_state_tls: ThreadState;
}

/// The calling thread's state, or null if it has not run instrumented code yet.
#[inline(always)]
pub fn current_thread() -> *mut ThreadState {
    current::get()
}

/// True if some thread ran out of memory for its context tree.
pub fn out_of_memory() -> bool {
    OUT_OF_MEMORY.load(Relaxed)
}

#[cold]
fn note_oom() {
    if !OUT_OF_MEMORY.swap(true, Relaxed) {
        crate::diag!("warning: out of memory for calling contexts; some loop executions will not be recorded");
    }
}

/// Calls `f` for every thread that ever ran instrumented code (lock-free; threads that
/// have finished stay in the list).
pub fn for_each_thread(mut f: impl FnMut(&ThreadState)) {
    let mut t = THREADS.load(Acquire);
    while !t.is_null() {
        // SAFETY: thread states are never freed; fields read are immutable or atomic.
        let ts = unsafe { &*t };
        f(ts);
        t = ts.next;
    }
}

/// Number of threads that ran instrumented code.
pub fn thread_count() -> u32 {
    THREAD_COUNT.load(Relaxed)
}

/// Creates the calling thread's state and registers it (once per thread).
#[cold]
#[inline(never)]
fn create_thread() -> *mut ThreadState {
    let chunk = mmap_anon(arena::CHUNK);
    if chunk.is_null() {
        note_oom();
        return null_mut();
    }
    let ts = chunk.cast::<ThreadState>();
    let head = round_up(size_of::<ThreadState>(), 64);
    // SAFETY: chunk is fresh, zeroed, CHUNK bytes, suitably aligned for ThreadState.
    unsafe {
        ptr::write(
            ts,
            ThreadState {
                root: Node {
                    parent: null_mut(),
                    site: ptr::null(),
                    func: ptr::null(),
                    owner: ts,
                    bloom: 0,
                    depth: 0,
                    children: AtomicPtr::new(null_mut()),
                    loops: AtomicPtr::new(null_mut()),
                },
                arena: UnsafeCell::new(Arena::with_tail(
                    chunk.add(head),
                    chunk.add(arena::CHUNK),
                    arena::CHUNK,
                )),
                recursive: AtomicPtr::new(null_mut()),
                next: null_mut(),
                tid: gettid(),
                index: THREAD_COUNT.fetch_add(1, Relaxed),
                // Accessors of this thread's TLS (tls.c).
                loops_tls: crate::__tp_tls_loops() as usize,
                loop_depth_tls: crate::__tp_tls_loop_depth() as usize,
            },
        );
    }
    // Publish: lock-free push onto the global list (once per thread).
    let mut head_ptr = THREADS.load(Relaxed);
    loop {
        // SAFETY: ts is ours until published.
        unsafe { (*ts).next = head_ptr };
        match THREADS.compare_exchange_weak(head_ptr, ts, Release, Relaxed) {
            Ok(_) => break,
            Err(h) => head_ptr = h,
        }
    }
    current::set(ts);
    crate::signals::on_new_thread();
    ts
}

/// The calling thread's state, created on first use (null when out of memory).
#[inline]
pub fn thread_state() -> *mut ThreadState {
    let t = current_thread();
    if t.is_null() {
        create_thread()
    } else {
        t
    }
}

impl ThreadState {
    /// Addresses of the thread's loops-in-flight stack and its depth (valid only while
    /// the thread lives; read them with care, see [`crate::inflight`]).
    pub fn loops_in_flight(&self) -> (usize, usize) {
        (self.loops_tls, self.loop_depth_tls)
    }

    /// True if `node` belongs to this thread's tree.
    ///
    /// # Safety
    /// `node` is null or points to a `Node` of some thread's tree (nodes are never freed).
    pub unsafe fn owns(&self, node: *const Node) -> bool {
        // SAFETY: per the contract; `owner` is immutable after publication.
        !node.is_null() && core::ptr::eq(unsafe { (*node).owner }, self)
    }

    /// # Safety
    /// Only the owning thread may call this.
    #[allow(clippy::mut_from_ref)]
    unsafe fn arena(&self) -> &mut Arena {
        // SAFETY: owner-only access per the contract.
        unsafe { &mut *self.arena.get() }
    }

    /// Functions found on their own call path in this thread (lock-free snapshot).
    pub fn for_each_recursive(&self, mut f: impl FnMut(*const FuncDesc)) {
        // SAFETY: tables are never freed; slots are atomics.
        unsafe {
            PtrSet::for_each(self.recursive.load(Acquire), |s| {
                let p = s.p.load(Acquire);
                if !p.is_null() {
                    f(p)
                }
            })
        }
    }

    /// Marks `f` recursive (owner only).
    unsafe fn mark_recursive(&self, f: *const FuncDesc) {
        let mut t = self.recursive.load(Relaxed);
        // SAFETY: owner-only writes; tables from our arena.
        unsafe {
            if !t.is_null() {
                let mut i = hash1(f as usize);
                loop {
                    let s = &*PtrSet::slot(t, i);
                    let p = s.p.load(Relaxed);
                    if ptr::eq(p, f) {
                        return;
                    }
                    if p.is_null() {
                        break;
                    }
                    i += 1;
                }
            }
            if t.is_null() || ((*t).len.get() + 1) * 2 > (*t).mask + 1 {
                let cap = if t.is_null() { 8 } else { ((*t).mask + 1) * 2 };
                let n = PtrSet::alloc(self.arena(), cap);
                if n.is_null() {
                    note_oom();
                    return;
                }
                PtrSet::for_each(t, |s| {
                    let p = s.p.load(Relaxed);
                    if !p.is_null() {
                        set_insert(n, p);
                    }
                });
                self.recursive.store(n, Release);
                t = n;
            }
            set_insert(t, f as *mut FuncDesc);
        }
    }
}

/// Inserts into a set known to have room (owner only).
unsafe fn set_insert(t: *mut PtrSet, p: *mut FuncDesc) {
    let mut i = hash1(p as usize);
    // SAFETY: table has a free slot (load factor <= 1/2).
    unsafe {
        loop {
            let s = &*PtrSet::slot(t, i);
            if s.p.load(Relaxed).is_null() {
                s.p.store(p, Release);
                (*t).len.set((*t).len.get() + 1);
                return;
            }
            i += 1;
        }
    }
}

impl Node {
    /// True for the root of a thread's tree.
    pub fn is_root(&self) -> bool {
        self.depth == 0
    }

    /// Looks up the child for `(site, f)` (owner only, or readers through snapshots).
    #[inline(always)]
    unsafe fn find_child(&self, site: *const SiteDesc, f: *const FuncDesc) -> *mut Node {
        let t = self.children.load(Relaxed);
        if t.is_null() {
            return null_mut();
        }
        let mut i = hash2(site as usize, f as usize);
        loop {
            // SAFETY: i is masked by slot(); the table always has an empty slot.
            let s = unsafe { &*ChildTable::slot(t, i) };
            let c = s.child.load(Relaxed);
            if c.is_null() {
                return null_mut();
            }
            if ptr::eq(s.site.load(Relaxed), site) && ptr::eq(s.func.load(Relaxed), f) {
                return c;
            }
            i += 1;
        }
    }

    /// Adds `(site, f) → child` (owner only; the key must be absent). False when out of
    /// memory.
    unsafe fn insert_child(
        &self,
        a: &mut Arena,
        site: *const SiteDesc,
        f: *const FuncDesc,
        child: *mut Node,
    ) -> bool {
        let mut t = self.children.load(Relaxed);
        // SAFETY: owner-only; tables from the owner's arena.
        unsafe {
            if t.is_null() || ((*t).len.get() + 1) * 2 > (*t).mask + 1 {
                let cap = if t.is_null() { 4 } else { ((*t).mask + 1) * 2 };
                let n = ChildTable::alloc(a, cap);
                if n.is_null() {
                    return false;
                }
                ChildTable::for_each(t, |s| {
                    let c = s.child.load(Relaxed);
                    if !c.is_null() {
                        child_put(n, s.site.load(Relaxed), s.func.load(Relaxed), c);
                    }
                });
                self.children.store(n, Release);
                t = n;
            }
            child_put(t, site as *mut SiteDesc, f as *mut FuncDesc, child);
        }
        CONTEXTS.fetch_add(1, Relaxed);
        true
    }

    /// Calls `f(site, func, child)` for every tree child (not folded ancestors) of this
    /// node (lock-free snapshot, safe from any thread).
    pub fn for_each_child(&self, mut f: impl FnMut(*const SiteDesc, *const FuncDesc, &Node)) {
        // SAFETY: snapshot of a published table; children published with release.
        unsafe {
            ChildTable::for_each(self.children.load(Acquire), |s| {
                let c = s.child.load(Acquire);
                if !c.is_null() && ptr::eq((*c).parent, self) {
                    f(s.site.load(Relaxed), s.func.load(Relaxed), &*c)
                }
            })
        }
    }

    /// Calls `f(site, func, ancestor)` for every slot of this node's child table that
    /// is a folded recursive call: `func` called at `site` from this node was folded
    /// onto `ancestor`, the nearest ancestor-or-self running `func` (lock-free
    /// snapshot, safe from any thread). [`Node::for_each_child`] skips these slots.
    pub fn for_each_folded(&self, mut f: impl FnMut(*const SiteDesc, *const FuncDesc, &Node)) {
        let t = self.children.load(Acquire);
        // Telling a folded slot from a child reads the node it points to: ask for all of
        // them first, so that walking a large tree waits for one cache miss per table
        // rather than one per child.
        // SAFETY: snapshot of a published table; a prefetch of any address is harmless.
        unsafe {
            ChildTable::for_each(t, |s| {
                let c = s.child.load(Relaxed);
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    c as *const i8,
                );
            })
        }
        // SAFETY: snapshot of a published table; slots published with release.
        unsafe {
            ChildTable::for_each(t, |s| {
                let c = s.child.load(Acquire);
                if !c.is_null() && !ptr::eq((*c).parent, self) {
                    f(s.site.load(Relaxed), s.func.load(Relaxed), &*c)
                }
            })
        }
    }

    /// Calls `f(loop, label, executions)` for every loop record of this node as
    /// `__tp_loop_exit` accumulated it, without the loops still in flight (lock-free
    /// snapshot, safe from any thread). The raw run record ([`crate::record`]) writes
    /// these and the loops in flight apart, so the analysis decides how to count them.
    pub fn for_each_loop_raw(&self, mut f: impl FnMut(*const LoopDesc, Label, u64)) {
        // SAFETY: snapshot of a published table.
        unsafe {
            LoopTable::for_each(self.loops.load(Acquire), |s| {
                let l = s.lp.load(Acquire);
                if !l.is_null() {
                    f(l, s.label.load(Relaxed), s.executions.load(Relaxed))
                }
            })
        }
    }

    /// Calls `f(loop, label, executions)` for every loop record of this node
    /// (lock-free snapshot, safe from any thread).
    ///
    /// While a report is being written, loops of this node still in flight
    /// ([`crate::inflight`]) count as one more execution each, with the labels seen so
    /// far.
    pub fn for_each_loop(&self, mut f: impl FnMut(*const LoopDesc, Label, u64)) {
        let me: *const Node = self;
        self.for_each_loop_raw(|l, mut label, mut executions| {
            if let Some((lab, n)) = crate::inflight::find(me, l) {
                label |= lab;
                executions += n;
            }
            f(l, label, executions)
        });
        crate::inflight::for_node(me, |l, label, n| {
            // SAFETY: a lookup in this node's published table (readers only load).
            if unsafe { self.find_loop(l) }.is_null() {
                f(l, label, n)
            }
        });
    }

    #[inline(always)]
    unsafe fn find_loop(&self, lp: *const LoopDesc) -> *const LoopSlot {
        let t = self.loops.load(Relaxed);
        if t.is_null() {
            return ptr::null();
        }
        let mut i = hash1(lp as usize);
        loop {
            // SAFETY: masked index; the table always has an empty slot.
            let s = unsafe { &*LoopTable::slot(t, i) };
            let l = s.lp.load(Relaxed);
            if ptr::eq(l, lp) {
                return s;
            }
            if l.is_null() {
                return ptr::null();
            }
            i += 1;
        }
    }
}

#[inline(always)]
unsafe fn child_put(t: *mut ChildTable, site: *mut SiteDesc, f: *mut FuncDesc, child: *mut Node) {
    let mut i = hash2(site as usize, f as usize);
    // SAFETY: the table has room (load factor <= 1/2).
    unsafe {
        loop {
            let s = &*ChildTable::slot(t, i);
            if s.child.load(Relaxed).is_null() {
                s.site.store(site, Relaxed);
                s.func.store(f, Relaxed);
                s.child.store(child, Release);
                (*t).len.set((*t).len.get() + 1);
                return;
            }
            i += 1;
        }
    }
}

#[inline(always)]
unsafe fn loop_put(t: *mut LoopTable, lp: *mut LoopDesc, label: Label, executions: u64) {
    let mut i = hash1(lp as usize);
    // SAFETY: the table has room.
    unsafe {
        loop {
            let s = &*LoopTable::slot(t, i);
            if s.lp.load(Relaxed).is_null() {
                s.label.store(label, Relaxed);
                s.executions.store(executions, Relaxed);
                s.lp.store(lp, Release);
                (*t).len.set((*t).len.get() + 1);
                return;
            }
            i += 1;
        }
    }
}

/// Maps `node` (possibly null or foreign) to a node of the calling thread's tree.
/// Null only when the thread has no state (out of memory).
#[cold]
unsafe fn own_node(ts: *mut ThreadState, node: *mut Node) -> *mut Node {
    // SAFETY: ts is the calling thread's live state.
    let root = unsafe { ptr::addr_of_mut!((*ts).root) };
    if node.is_null() {
        return root;
    }
    // SAFETY: nodes are never freed; parent/site/func are immutable.
    unsafe {
        if (*node).owner == ts {
            return node;
        }
        // A node of another thread: replay its path (up to 256 frames nearest the leaf).
        let mut path: [(*const SiteDesc, *const FuncDesc); 256] = [(ptr::null(), ptr::null()); 256];
        let mut n = 0;
        let mut cur = node;
        while !cur.is_null() && (*cur).depth > 0 && n < path.len() {
            if let Some(slot) = path.get_mut(n) {
                *slot = ((*cur).site, (*cur).func);
            }
            n += 1;
            cur = (*cur).parent;
        }
        let mut at = root;
        for &(site, f) in path.get(..n).unwrap_or(&[]).iter().rev() {
            at = enter_in(ts, at, site, f);
        }
        at
    }
}

/// `__tp_enter` once the thread and an owned parent are known.
unsafe fn enter_in(
    ts: *mut ThreadState,
    parent: *mut Node,
    site: *const SiteDesc,
    f: *const FuncDesc,
) -> *mut Node {
    // SAFETY: parent is owned by ts, which is the calling thread's state.
    unsafe {
        let p = &*parent;
        let site = if p.depth == 0 { ptr::null() } else { site };
        let hit = p.find_child(site, f);
        if !hit.is_null() {
            return hit;
        }
        let a = (*ts).arena();
        let bit = bloom_bit(f);
        if p.bloom & bit != 0 {
            // Possibly recursive: walk the path.
            let mut cur = parent;
            while !cur.is_null() && (*cur).depth > 0 {
                if (*cur).func == f {
                    (*ts).mark_recursive(f);
                    if !p.insert_child(a, site, f, cur) {
                        note_oom();
                    }
                    return cur;
                }
                cur = (*cur).parent;
            }
        }
        let child: *mut Node = a.alloc_zeroed();
        if child.is_null() {
            note_oom();
            return parent;
        }
        ptr::write(
            child,
            Node {
                parent,
                site,
                func: f,
                owner: ts,
                bloom: p.bloom | bit,
                depth: p.depth.saturating_add(1),
                children: AtomicPtr::new(null_mut()),
                loops: AtomicPtr::new(null_mut()),
            },
        );
        if !p.insert_child(a, site, f, child) {
            note_oom();
            return parent;
        }
        child
    }
}

#[cold]
#[inline(never)]
unsafe fn enter_slow(parent: *mut Node, site: *const SiteDesc, f: *const FuncDesc) -> *mut Node {
    let ts = thread_state();
    if ts.is_null() {
        return parent;
    }
    // SAFETY: ts is ours; own_node gives a node of our tree.
    unsafe {
        let p = own_node(ts, parent);
        enter_in(ts, p, site, f)
    }
}

/// `void *__tp_enter(void *parent, const SiteDesc *site, const FuncDesc *f)`.
///
/// Returns the calling-context node of `f` called from `site` under `parent` (null =
/// the calling thread's root), creating it on first use.
#[no_mangle]
pub unsafe extern "C" fn __tp_enter(
    parent: *mut libc::c_void,
    site: *const SiteDesc,
    f: *const FuncDesc,
) -> *mut libc::c_void {
    let parent = parent.cast::<Node>();
    let ts = current_thread();
    // SAFETY: ts is null or this thread's live state; a parent owned by ts is a live
    // node of our tree.
    unsafe {
        if !ts.is_null() {
            let p = if parent.is_null() {
                ptr::addr_of_mut!((*ts).root)
            } else {
                parent
            };
            if (*p).owner == ts {
                let site = if (*p).depth == 0 { ptr::null() } else { site };
                let c = (*p).find_child(site, f);
                if !c.is_null() {
                    return c.cast();
                }
            }
        }
        enter_slow(parent, site, f).cast()
    }
}

#[cold]
#[inline(never)]
unsafe fn loop_exit_slow(node: *mut Node, lp: *const LoopDesc, label: Label) {
    let ts = thread_state();
    if ts.is_null() {
        return;
    }
    // SAFETY: ts is ours; n is a node of our tree.
    unsafe {
        let n = &*own_node(ts, node);
        let s = n.find_loop(lp);
        if !s.is_null() {
            let s = &*s;
            s.label.store(s.label.load(Relaxed) | label, Relaxed);
            s.executions
                .store(s.executions.load(Relaxed).wrapping_add(1), Relaxed);
            return;
        }
        let mut t = n.loops.load(Relaxed);
        if t.is_null() || ((*t).len.get() + 1) * 2 > (*t).mask + 1 {
            let cap = if t.is_null() { 4 } else { ((*t).mask + 1) * 2 };
            let nt = LoopTable::alloc((*ts).arena(), cap);
            if nt.is_null() {
                note_oom();
                return;
            }
            LoopTable::for_each(t, |s| {
                let l = s.lp.load(Relaxed);
                if !l.is_null() {
                    loop_put(nt, l, s.label.load(Relaxed), s.executions.load(Relaxed));
                }
            });
            n.loops.store(nt, Release);
            t = nt;
        }
        loop_put(t, lp as *mut LoopDesc, label, 1);
    }
}

/// `void __tp_loop_exit(void *node, const LoopDesc *loop, uint16_t label)`.
///
/// One execution of `loop` ended in context `node` (null = the thread's root); `label`
/// is the union of its exit-condition labels over that execution.
#[no_mangle]
pub unsafe extern "C" fn __tp_loop_exit(
    node: *mut libc::c_void,
    lp: *const LoopDesc,
    label: Label,
) {
    let node = node.cast::<Node>();
    let ts = current_thread();
    // SAFETY: ts is null or this thread's live state; a node owned by ts is a live node
    // of our tree.
    unsafe {
        if !ts.is_null() {
            let n = if node.is_null() {
                ptr::addr_of_mut!((*ts).root)
            } else {
                node
            };
            if (*n).owner == ts {
                let s = (*n).find_loop(lp);
                if !s.is_null() {
                    let s = &*s;
                    s.label.store(s.label.load(Relaxed) | label, Relaxed);
                    s.executions
                        .store(s.executions.load(Relaxed).wrapping_add(1), Relaxed);
                    return;
                }
            }
        }
        loop_exit_slow(node, lp, label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn func() -> &'static FuncDesc {
        Box::leak(Box::new(FuncDesc {
            loc: taintprof_abi::SrcLoc {
                function: c"f".as_ptr(),
                linkage: c"f".as_ptr(),
                file: c"t.c".as_ptr(),
                fn_line: 1,
                line: 1,
                column: 1,
                _reserved: 0,
            },
            flags: 0,
            n_loops: 0,
        }))
    }
    fn site() -> &'static SiteDesc {
        Box::leak(Box::new(SiteDesc {
            chain: ptr::null(),
            n_chain: 0,
            flags: 0,
            loop_: ptr::null(),
        }))
    }
    fn lp() -> &'static LoopDesc {
        Box::leak(Box::new(LoopDesc {
            chain: ptr::null(),
            n_chain: 0,
            flags: 0,
            const_trip_count: 0,
            parent: ptr::null(),
            func: ptr::null(),
            routine: ptr::null(),
            cost: ptr::null(),
        }))
    }
    /// A descriptor reference that may cross threads in tests.
    struct Sh<T: ?Sized + 'static>(&'static T);
    impl<T: ?Sized> Clone for Sh<T> {
        fn clone(&self) -> Self {
            *self
        }
    }
    impl<T: ?Sized> Copy for Sh<T> {}
    impl<T: ?Sized> Sh<T> {
        fn get(self) -> &'static T {
            self.0
        }
    }
    unsafe impl<T: ?Sized> Send for Sh<T> {}
    unsafe impl<T: ?Sized> Sync for Sh<T> {}

    fn enter(p: *mut libc::c_void, s: &SiteDesc, f: &FuncDesc) -> *mut libc::c_void {
        unsafe { __tp_enter(p, s, f) }
    }
    fn loops_of(n: *mut libc::c_void) -> HashMap<usize, (Label, u64)> {
        let mut m = HashMap::new();
        unsafe { &*(n as *const Node) }.for_each_loop(|l, lab, e| {
            m.insert(l as usize, (lab, e));
        });
        m
    }
    fn recursive_of_current() -> Vec<usize> {
        let mut v = Vec::new();
        unsafe { &*current_thread() }.for_each_recursive(|f| v.push(f as usize));
        v
    }

    #[test]
    fn children_are_keyed_by_site_and_function() {
        let (main, a, b) = (func(), func(), func());
        let (s1, s2) = (site(), site());
        let m = enter(ptr::null_mut(), s1, main);
        assert_eq!(
            m,
            enter(ptr::null_mut(), s2, main),
            "root children ignore the site"
        );
        let x = enter(m, s1, a);
        assert_ne!(x, m);
        assert_eq!(x, enter(m, s1, a));
        let y = enter(m, s2, a);
        assert_ne!(x, y);
        let z = enter(m, s1, b);
        assert_ne!(z, x);
        let node = unsafe { &*(x as *const Node) };
        assert_eq!(node.parent as *mut libc::c_void, m);
        assert_eq!(node.depth, 2);
        let mut kids = 0;
        unsafe { &*(m as *const Node) }.for_each_child(|_, _, _| kids += 1);
        assert_eq!(kids, 3);
    }

    #[test]
    fn many_children_and_loops_survive_table_growth() {
        let main = func();
        let s = site();
        let m = enter(ptr::null_mut(), s, main);
        let fs: Vec<_> = (0..500).map(|_| func()).collect();
        let ls: Vec<_> = (0..500).map(|_| lp()).collect();
        let nodes: Vec<_> = fs.iter().map(|f| enter(m, s, f)).collect();
        for (i, f) in fs.iter().enumerate() {
            assert_eq!(enter(m, s, f), nodes[i]);
        }
        for round in 0..3u64 {
            for (i, l) in ls.iter().enumerate() {
                unsafe { __tp_loop_exit(m, *l, 1 << (i % 16)) };
                let _ = round;
            }
        }
        let recs = loops_of(m);
        assert_eq!(recs.len(), 500);
        for (i, l) in ls.iter().enumerate() {
            assert_eq!(recs[&(*l as *const LoopDesc as usize)], (1 << (i % 16), 3));
        }
    }

    #[test]
    fn loop_records_or_labels_and_count_executions() {
        let (main, f) = (func(), func());
        let (s, l1, l2) = (site(), lp(), lp());
        let m = enter(ptr::null_mut(), s, main);
        let n = enter(m, s, f);
        unsafe {
            __tp_loop_exit(n, l1, 0b01);
            __tp_loop_exit(n, l1, 0b10);
            __tp_loop_exit(n, l1, 0);
            __tp_loop_exit(n, l2, 0);
            __tp_loop_exit(m, l1, 0b100);
        }
        let r = loops_of(n);
        assert_eq!(r[&(l1 as *const _ as usize)], (0b11, 3));
        assert_eq!(r[&(l2 as *const _ as usize)], (0, 1));
        assert_eq!(loops_of(m)[&(l1 as *const _ as usize)], (0b100, 1));
        // Null node = the thread's root.
        unsafe { __tp_loop_exit(ptr::null_mut(), l2, 0b1000) };
        let root = unsafe { ptr::addr_of_mut!((*current_thread()).root) };
        assert_eq!(
            loops_of(root.cast())[&(l2 as *const _ as usize)],
            (0b1000, 1)
        );
    }

    #[test]
    fn recursion_is_folded_onto_the_ancestor() {
        let (main, rec, a, b) = (func(), func(), func(), func());
        let (s1, s2) = (site(), site());
        let m = enter(ptr::null_mut(), s1, main);
        let r1 = enter(m, s1, rec);
        // rec calls itself from another site: fold.
        let r2 = enter(r1, s2, rec);
        assert_eq!(r2, r1);
        // Deep recursion stays one node.
        let mut cur = r1;
        for _ in 0..10_000 {
            cur = enter(cur, s2, rec);
        }
        assert_eq!(cur, r1);
        // Mutual recursion a -> b -> a folds to the first a.
        let na = enter(m, s1, a);
        let nb = enter(na, s1, b);
        assert_eq!(enter(nb, s2, a), na);
        assert_eq!(enter(na, s1, b), nb);
        let recs = recursive_of_current();
        assert!(recs.contains(&(rec as *const _ as usize)));
        assert!(recs.contains(&(a as *const _ as usize)));
        assert!(!recs.contains(&(b as *const _ as usize)));
        assert!(!recs.contains(&(main as *const _ as usize)));
        // Folded edges are not tree children.
        let mut kids = Vec::new();
        unsafe { &*(r1 as *const Node) }.for_each_child(|_, _, c| kids.push(c as *const Node));
        assert!(kids.is_empty());
    }

    #[test]
    fn bloom_collisions_do_not_fold_distinct_functions() {
        // Many functions on one path: the bloom saturates, but only real repeats fold.
        let s = site();
        let fs: Vec<_> = (0..300).map(|_| func()).collect();
        let mut cur = enter(ptr::null_mut(), s, fs[0]);
        let mut nodes = vec![cur];
        for f in &fs[1..] {
            let n = enter(cur, s, f);
            assert_ne!(n, cur);
            assert!(!nodes.contains(&n));
            nodes.push(n);
            cur = n;
        }
        assert_eq!(unsafe { &*(cur as *const Node) }.depth, 300);
        assert_eq!(enter(cur, s, fs[150]), nodes[150]);
    }

    #[test]
    fn foreign_nodes_are_replayed_into_the_callers_tree() {
        let (main, f, g) = (func(), func(), func());
        let s = site();
        let l = lp();
        let m = enter(ptr::null_mut(), s, main) as usize;
        let n = enter(m as *mut _, s, f) as usize;
        let (s, f, g, l) = (Sh(s), Sh(f), Sh(g), Sh(l));
        std::thread::spawn(move || {
            let (s, f, g, l) = (s.get(), f.get(), g.get(), l.get());
            let mine = enter(n as *mut _, s, g);
            let node = unsafe { &*(mine as *const Node) };
            assert_eq!(node.owner, current_thread());
            assert_eq!(node.depth, 3);
            assert_eq!(unsafe { &*node.parent }.func, f as *const _);
            unsafe { __tp_loop_exit(n as *mut _, l, 1) };
            let own = own_n(n);
            assert_eq!(loops_of(own.cast())[&(l as *const _ as usize)], (1, 1));
        })
        .join()
        .unwrap();
        assert!(
            loops_of(n as *mut _).is_empty(),
            "the foreign tree was not written"
        );

        fn own_n(n: usize) -> *mut Node {
            unsafe { own_node(current_thread(), n as *mut Node) }
        }
    }

    #[test]
    fn many_threads_have_separate_trees_and_all_are_listed() {
        let main = func();
        let f = func();
        let s = site();
        let l = lp();
        let before = thread_count();
        let (main, f, s, l) = (Sh(main), Sh(f), Sh(s), Sh(l));
        let handles: Vec<_> = (0..16)
            .map(|t| {
                std::thread::spawn(move || {
                    let (main, f, s, l) = (main.get(), f.get(), s.get(), l.get());
                    let m = enter(ptr::null_mut(), s, main);
                    let n = enter(m, s, f);
                    for i in 0..10_000u32 {
                        let n2 = enter(m, s, f);
                        assert_eq!(n2, n);
                        unsafe { __tp_loop_exit(n2, l, 1 << (t % 16)) };
                        let _ = i;
                    }
                    (current_thread() as usize, n as usize)
                })
            })
            .collect();
        let got: Vec<(usize, usize)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert!(thread_count() >= before + 16);
        let mut listed = Vec::new();
        for_each_thread(|ts| listed.push(ts as *const ThreadState as usize));
        for (t, (ts, n)) in got.iter().enumerate() {
            assert!(listed.contains(ts));
            let node = unsafe { &*(*n as *const Node) };
            assert_eq!(node.owner as usize, *ts);
            assert_eq!(
                loops_of(*n as *mut _)[&(l.0 as *const _ as usize)],
                (1 << (t % 16), 10_000)
            );
        }
    }

    #[test]
    fn concurrent_reader_sees_consistent_snapshots() {
        // One thread grows its tree while another walks it.
        let main = func();
        let s = site();
        let fs: &'static [&'static FuncDesc] = Box::leak(
            (0..2000)
                .map(|_| func())
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        );
        let ls: &'static [&'static LoopDesc] = Box::leak(
            (0..2000)
                .map(|_| lp())
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        );
        let (tx, rx) = std::sync::mpsc::channel();
        let (main, s, fs, ls) = (Sh(main), Sh(s), Sh(fs), Sh(ls));
        let writer = std::thread::spawn(move || {
            let (main, s, fs, ls) = (main.get(), s.get(), fs.get(), ls.get());
            let m = enter(ptr::null_mut(), s, main);
            tx.send(m as usize).unwrap();
            for (f, l) in fs.iter().zip(ls) {
                let n = enter(m, s, f);
                unsafe { __tp_loop_exit(n, *l, 1) };
                unsafe { __tp_loop_exit(m, *l, 2) };
            }
        });
        let m = rx.recv().unwrap() as *const Node;
        let mut last = 0;
        for _ in 0..200 {
            let mut kids = 0;
            unsafe { &*m }.for_each_child(|_, f, c| {
                assert_eq!(c.func, f);
                kids += 1;
            });
            let mut recs = 0;
            unsafe { &*m }.for_each_loop(|_, lab, e| {
                assert_eq!((lab, e), (2, 1));
                recs += 1;
            });
            assert!(kids >= last);
            last = kids;
            let _ = recs;
        }
        writer.join().unwrap();
        let mut kids = 0;
        unsafe { &*m }.for_each_child(|_, _, _| kids += 1);
        assert_eq!(kids, 2000);
    }
}
