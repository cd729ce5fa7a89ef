//! Time mode (`--tp-mode=time`, `docs/time-mode.md`): per-thread calling-context trees
//! of the instrumented functions with visits, inclusive time and the iteration counts
//! of the counted loops, written as the time record (`record.rs` here,
//! `taintprof_record::time`).
//!
//! * Each thread gets, at its first `__tp_time_enter`, one `mmap`'d block: its state,
//!   a node arena (`NODES` nodes, node 0 the virtual root), a loop-count arena and a
//!   frame stack (`MAX_DEPTH` frames). No allocation, no lock afterwards; the state
//!   is found through the initial-exec TLS pointer `__tp_time_tls` (tls.c) and linked
//!   into a lock-free list for the record writer.
//! * Enter finds or creates the child (current node, function) by walking the node's
//!   child list, counts a visit, pushes a frame with the time (`CLOCK_MONOTONIC`
//!   through the vDSO). Exit pops to the innermost frame of the same function (frames
//!   above it were left by `longjmp` or an exception: closed at the same time and
//!   counted as unmatched) and adds the frame's time to the node's inclusive time; an
//!   exit that matches no frame is counted and ignored.
//! * Out of arena memory: a new context becomes no node (its frame is not timed, its
//!   children neither), counted in the record (`TM_COUNT_DROPPED_NODES`); loop counts
//!   likewise. Deeper than the stack: counted, not timed. Nothing here can fail hard.
//! * A hook reads only its own thread's state; the record writer reads every thread's
//!   (a running thread's last update may be missed, never torn into an invalid index:
//!   counts are published after the node is filled).

pub mod record;

use core::ptr::null_mut;
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering::*};

use taintprof_abi::{
    TimeFuncDesc, TimeLoopDesc, TimeModuleDesc, TIME_ABI_VERSION, TIME_MODULE_MAGIC,
};
use taintprof_sigsafe::{gettid, mmap_anon, now_ns};

/// Frames a thread's stack holds.
pub const MAX_DEPTH: usize = 1024;
/// Default node arena per thread (`TAINTPROF_TIME_NODES` overrides).
pub const DEFAULT_NODES: usize = 1 << 16;

const NONE: u32 = u32::MAX;

#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Node {
    pub(crate) func: *const TimeFuncDesc,
    pub(crate) parent: u32,
    first_child: u32,
    next_sibling: u32,
    pub(crate) first_count: u32,
    pub(crate) visits: u64,
    pub(crate) inclusive_ns: u64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Count {
    pub(crate) lp: *const TimeLoopDesc,
    pub(crate) next: u32,
    pub(crate) n: u64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Frame {
    pub(crate) node: u32,
    func: *const TimeFuncDesc,
    pub(crate) start: u64,
}

/// One thread's state (at the start of its mapping).
#[repr(C)]
pub struct TimeThread {
    pub(crate) next: *mut TimeThread,
    pub(crate) tid: i32,
    /// Nodes in use (node 0 is the virtual root).
    pub(crate) n_nodes: u32,
    cap_nodes: u32,
    pub(crate) n_counts: u32,
    cap_counts: u32,
    pub(crate) depth: u32,
    /// Frames entered beyond `MAX_DEPTH` and not yet left.
    over: u32,
    pub(crate) nodes: *mut Node,
    pub(crate) counts: *mut Count,
    pub(crate) frames: *mut Frame,
    pub(crate) dropped_nodes: u64,
    pub(crate) dropped_loops: u64,
    pub(crate) unmatched: u64,
    pub(crate) deep: u64,
}

crate::c_tls_ptr! {
    /// The calling thread's time-mode state (`__tp_time_tls` of tls.c).
    mod current = __tp_time_tls: TimeThread;
}

static THREADS: AtomicPtr<TimeThread> = AtomicPtr::new(null_mut());
static MODULES: AtomicPtr<TimeModuleDesc> = AtomicPtr::new(null_mut());
static ACTIVE: AtomicBool = AtomicBool::new(false);
static START_NS: AtomicU64 = AtomicU64::new(0);
static LOST_THREADS: AtomicU64 = AtomicU64::new(0);
static NODES: AtomicU64 = AtomicU64::new(0);

/// Start-up: the start of the wall time and the arena size.
pub fn at_start() {
    START_NS.store(now_ns(), Relaxed);
    let n = crate::options::time_nodes();
    NODES.store(n as u64, Relaxed);
}

/// Nanoseconds since start-up.
pub fn wall_ns() -> u64 {
    now_ns().saturating_sub(START_NS.load(Relaxed))
}

/// Some time-mode module registered: the process writes the time record.
pub fn active() -> bool {
    ACTIVE.load(Acquire)
}

/// Every registered module, most recent first.
pub(crate) fn for_each_module(mut f: impl FnMut(&TimeModuleDesc)) {
    let mut cur = MODULES.load(Acquire);
    while !cur.is_null() {
        // SAFETY: registered descriptors are valid for the process and `next` is
        // written once, before publication.
        let m = unsafe { &*cur };
        f(m);
        cur = m.next;
    }
}

/// Every thread that ran instrumented code, most recent first.
pub(crate) fn for_each_thread(mut f: impl FnMut(&TimeThread)) {
    let mut cur = THREADS.load(Acquire);
    while !cur.is_null() {
        // SAFETY: thread states are never freed; `next` is written before publication.
        let t = unsafe { &*cur };
        f(t);
        cur = t.next;
    }
}

pub(crate) fn lost_threads() -> u64 {
    LOST_THREADS.load(Relaxed)
}

/// `void __tp_time_register_module(TimeModuleDesc *)`, from the module's constructor.
///
/// # Safety
/// `m` is null or a module descriptor the pass emitted, alive for the process.
#[no_mangle]
pub unsafe extern "C" fn __tp_time_register_module(m: *mut TimeModuleDesc) {
    if m.is_null() {
        return;
    }
    // SAFETY: per the contract.
    let md = unsafe { &mut *m };
    if md.magic != TIME_MODULE_MAGIC || md.abi_version != TIME_ABI_VERSION {
        crate::diag!(
            "error: a time-mode module was built for another runtime version ({} instead of {}); rebuild it with this taintprof",
            md.abi_version,
            TIME_ABI_VERSION
        );
        return;
    }
    let mut head = MODULES.load(Acquire);
    loop {
        md.next = head;
        match MODULES.compare_exchange_weak(head, m, AcqRel, Acquire) {
            Ok(_) => break,
            Err(h) => head = h,
        }
    }
    ACTIVE.store(true, Release);
}

fn round_page(n: usize) -> usize {
    (n + 4095) & !4095
}

#[cold]
fn new_thread() -> *mut TimeThread {
    let mut cap = NODES.load(Relaxed) as usize;
    if cap < 16 {
        cap = DEFAULT_NODES;
    }
    let head = round_page(core::mem::size_of::<TimeThread>());
    let frames = round_page(MAX_DEPTH * core::mem::size_of::<Frame>());
    let nodes = round_page(cap * core::mem::size_of::<Node>());
    let counts = round_page(cap * core::mem::size_of::<Count>());
    let base = mmap_anon(head + frames + nodes + counts);
    if base.is_null() {
        LOST_THREADS.fetch_add(1, Relaxed);
        return null_mut();
    }
    let t = base.cast::<TimeThread>();
    // SAFETY: the mapping is fresh, zeroed and large enough for every part.
    unsafe {
        t.write(TimeThread {
            next: null_mut(),
            tid: gettid(),
            n_nodes: 1,
            cap_nodes: cap as u32,
            n_counts: 0,
            cap_counts: cap as u32,
            depth: 0,
            over: 0,
            frames: base.add(head).cast(),
            nodes: base.add(head + frames).cast(),
            counts: base.add(head + frames + nodes).cast(),
            dropped_nodes: 0,
            dropped_loops: 0,
            unmatched: 0,
            deep: 0,
        });
        (*t).nodes.write(Node {
            func: core::ptr::null(),
            parent: NONE,
            first_child: NONE,
            next_sibling: NONE,
            first_count: NONE,
            visits: 0,
            inclusive_ns: 0,
        });
    }
    let mut h = THREADS.load(Acquire);
    loop {
        // SAFETY: `t` is ours until published.
        unsafe { (*t).next = h };
        match THREADS.compare_exchange_weak(h, t, AcqRel, Acquire) {
            Ok(_) => break,
            Err(x) => h = x,
        }
    }
    current::set(t);
    t
}

#[inline(always)]
fn state() -> *mut TimeThread {
    let t = current::get();
    if t.is_null() {
        new_thread()
    } else {
        t
    }
}

impl TimeThread {
    #[inline(always)]
    fn node(&mut self, i: u32) -> &mut Node {
        // SAFETY: every index used is below n_nodes <= cap_nodes.
        unsafe { &mut *self.nodes.add(i as usize) }
    }

    #[inline(always)]
    fn frame(&mut self, i: u32) -> &mut Frame {
        // SAFETY: i < MAX_DEPTH.
        unsafe { &mut *self.frames.add(i as usize) }
    }

    /// The child of `parent` for `f`, created if missing (`NONE` when full).
    #[inline(always)]
    fn child(&mut self, parent: u32, f: *const TimeFuncDesc) -> u32 {
        if parent == NONE {
            return NONE;
        }
        let mut c = self.node(parent).first_child;
        while c != NONE {
            let n = self.node(c);
            if n.func == f {
                return c;
            }
            c = n.next_sibling;
        }
        self.new_child(parent, f)
    }

    #[cold]
    fn new_child(&mut self, parent: u32, f: *const TimeFuncDesc) -> u32 {
        if self.n_nodes >= self.cap_nodes {
            self.dropped_nodes += 1;
            return NONE;
        }
        let i = self.n_nodes;
        let sib = self.node(parent).first_child;
        *self.node(i) = Node {
            func: f,
            parent,
            first_child: NONE,
            next_sibling: sib,
            first_count: NONE,
            visits: 0,
            inclusive_ns: 0,
        };
        // Publish the node before linking it (the writer reads up to n_nodes).
        // SAFETY: a plain u32 field of our own state; the fence orders the node first.
        core::sync::atomic::fence(Release);
        self.n_nodes = i + 1;
        self.node(parent).first_child = i;
        i
    }
}

/// `void __tp_time_enter(const TimeFuncDesc *f)`.
///
/// # Safety
/// `f` is a function descriptor of a registered (or registering) module.
#[no_mangle]
pub unsafe extern "C" fn __tp_time_enter(f: *const TimeFuncDesc) {
    let t = state();
    if t.is_null() {
        return;
    }
    // SAFETY: the calling thread's own state.
    let t = unsafe { &mut *t };
    if t.over > 0 || t.depth as usize >= MAX_DEPTH {
        t.over += 1;
        t.deep += 1;
        return;
    }
    let parent = if t.depth == 0 {
        0
    } else {
        t.frame(t.depth - 1).node
    };
    let node = t.child(parent, f);
    if node != NONE {
        t.node(node).visits += 1;
    }
    let d = t.depth;
    *t.frame(d) = Frame {
        node,
        func: f,
        start: now_ns(),
    };
    t.depth = d + 1;
}

/// `void __tp_time_exit(const TimeFuncDesc *f)`.
///
/// # Safety
/// As [`__tp_time_enter`].
#[no_mangle]
pub unsafe extern "C" fn __tp_time_exit(f: *const TimeFuncDesc) {
    let t = current::get();
    if t.is_null() {
        return;
    }
    // SAFETY: the calling thread's own state.
    let t = unsafe { &mut *t };
    if t.over > 0 {
        t.over -= 1;
        return;
    }
    let now = now_ns();
    let mut k = t.depth;
    while k > 0 && t.frame(k - 1).func != f {
        k -= 1;
    }
    if k == 0 {
        t.unmatched += 1;
        return;
    }
    let mut i = t.depth;
    while i >= k {
        let fr = *t.frame(i - 1);
        if fr.node != NONE {
            let n = t.node(fr.node);
            n.inclusive_ns = n.inclusive_ns.wrapping_add(now.wrapping_sub(fr.start));
        }
        i -= 1;
    }
    t.unmatched += (t.depth - k) as u64;
    t.depth = k - 1;
}

/// `void __tp_time_loop(const TimeLoopDesc *l, u64 iterations)`: the iterations of
/// loop `l` in the running function's activation (before its exit call); for a branch
/// side (`TIME_KIND_BRANCH_SIDE`) 1 if the activation took that side, else 0.
///
/// # Safety
/// As [`__tp_time_enter`].
#[no_mangle]
pub unsafe extern "C" fn __tp_time_loop(l: *const TimeLoopDesc, iterations: u64) {
    if iterations == 0 {
        return;
    }
    let t = current::get();
    if t.is_null() {
        return;
    }
    // SAFETY: the calling thread's own state.
    let t = unsafe { &mut *t };
    if t.over > 0 || t.depth == 0 {
        return;
    }
    let node = t.frame(t.depth - 1).node;
    if node == NONE {
        t.dropped_loops += 1;
        return;
    }
    let mut c = t.node(node).first_count;
    while c != NONE {
        // SAFETY: c < n_counts <= cap_counts.
        let e = unsafe { &mut *t.counts.add(c as usize) };
        if e.lp == l {
            e.n = e.n.wrapping_add(iterations);
            return;
        }
        c = e.next;
    }
    if t.n_counts >= t.cap_counts {
        t.dropped_loops += 1;
        return;
    }
    let i = t.n_counts;
    let first = t.node(node).first_count;
    // SAFETY: i < cap_counts.
    unsafe {
        t.counts.add(i as usize).write(Count {
            lp: l,
            next: first,
            n: iterations,
        })
    };
    core::sync::atomic::fence(Release);
    t.n_counts = i + 1;
    t.node(node).first_count = i;
}
