//! The time record (`<prog>[.rank<R>].<pid>.taintprof-time.rec`, format in
//! `taintprof_record::time`): the run, the parameters, the function and loop tables of
//! the registered modules, every thread's nodes and loop counts. Written from `mmap`
//! scratch only (no malloc, no lock): it runs at exit and in signal handlers.
//!
//! Frames still open when the record is written (`exit` inside a function, a fatal
//! signal, `_exit`, `exec`) count until now: their time so far is added to their nodes'
//! inclusive time in the record (the live state is not changed).

use core::ffi::c_char;

use taintprof_abi::TimeModuleDesc;
use taintprof_record::time::{
    TmRun, TmWriter, TM_COUNT_DEEP_FRAMES, TM_COUNT_DROPPED_LOOPS, TM_COUNT_DROPPED_NODES,
    TM_COUNT_LOST_THREADS, TM_COUNT_UNMATCHED_EXITS, TM_PARAM_IMPLICIT, TM_ROOT,
};
use taintprof_record::Out;
use taintprof_sigsafe::{cstr, now_ns, MmapVec};

use super::{for_each_module, for_each_thread, lost_threads, wall_ns, TimeThread, NONE};
use crate::report::Exit;

fn s<'a>(p: *const c_char) -> &'a [u8] {
    // SAFETY: descriptor strings and argv entries are NUL-terminated or null.
    unsafe { cstr(p) }
}

/// The modules in registration order.
fn modules() -> MmapVec<*const TimeModuleDesc> {
    let mut v: MmapVec<*const TimeModuleDesc> = MmapVec::new();
    for_each_module(|m| {
        v.push(m);
    });
    v.as_mut_slice().reverse();
    v
}

/// Global id of `p` in the modules' arrays `arr(m)` of `len(m)` elements of `T`.
fn id_of<T>(
    mods: &[*const TimeModuleDesc],
    p: *const T,
    arr: impl Fn(&TimeModuleDesc) -> *const T,
    len: impl Fn(&TimeModuleDesc) -> u32,
) -> u32 {
    let mut base = 0u32;
    for &m in mods {
        // SAFETY: registered descriptors live for the process.
        let m = unsafe { &*m };
        let a = arr(m) as usize;
        let n = len(m) as usize;
        let sz = core::mem::size_of::<T>();
        let q = p as usize;
        if q >= a && q < a + n * sz {
            return base + ((q - a) / sz) as u32;
        }
        base += n as u32;
    }
    NONE
}

pub(crate) struct Inputs<'a> {
    pub name: &'a [u8],
    pub path: &'a [u8],
    pub argv: &'a [*const c_char],
    pub pid: i32,
    pub exit: Exit,
}

fn exit_of(e: Exit) -> taintprof_record::Exit {
    match e {
        Exit::Code(c) => taintprof_record::Exit::Normal(c & 0xff),
        Exit::Signal(s) => taintprof_record::Exit::Signal(s),
        Exit::Immediate(c) => taintprof_record::Exit::Immediate(c & 0xff),
        Exit::Exec => taintprof_record::Exit::Exec,
        Exit::Running => taintprof_record::Exit::Running,
    }
}

/// Writes the whole record into `out`; false if the sink failed.
pub(crate) fn write_record<O: Out>(inp: &Inputs<'_>, out: O) -> bool {
    let mods = modules();
    let mods = mods.as_slice();
    let mut threads: MmapVec<*const TimeThread> = MmapVec::new();
    for_each_thread(|t| {
        threads.push(t);
    });
    threads.as_mut_slice().reverse();
    let mut w = TmWriter::new(out);
    w.run(
        &TmRun {
            pid: inp.pid,
            threads: threads.len() as u32,
            exit: exit_of(inp.exit),
            wall_ns: wall_ns(),
        },
        inp.name,
        inp.path,
        crate::VERSION.as_bytes(),
    );
    for &a in inp.argv {
        if !a.is_null() {
            w.arg(s(a));
        }
    }
    let reg = &crate::params::REGISTRY;
    for i in 0..reg.len() {
        if let Some(p) = reg.get(i) {
            let (kind, bits) = p.value.encode();
            w.param(
                p.name,
                kind,
                bits,
                if p.implicit { TM_PARAM_IMPLICIT } else { 0 },
            );
        }
    }
    for &m in mods {
        // SAFETY: registered descriptors live for the process.
        let m = unsafe { &*m };
        for k in 0..m.n_funcs as usize {
            // SAFETY: `funcs` has `n_funcs` entries.
            let f = unsafe { &*m.funcs.add(k) };
            w.func(s(f.name), s(f.linkage), s(f.file), f.line);
        }
    }
    for &m in mods {
        // SAFETY: as above.
        let m = unsafe { &*m };
        for k in 0..m.n_loops as usize {
            // SAFETY: `loops` has `n_loops` entries.
            let l = unsafe { &*m.loops.add(k) };
            let f = id_of(mods, l.func, |m| m.funcs, |m| m.n_funcs);
            let f = if f == NONE { 0 } else { f };
            if l.kind == taintprof_abi::TIME_KIND_BRANCH_SIDE {
                w.branch_side(f, s(l.file), (l.line, l.column), l.side, l.target_line);
            } else {
                w.loop_(f, s(l.file), l.line, l.column);
            }
        }
    }
    let now = now_ns();
    let (mut dn, mut dl, mut um, mut deep) = (0u64, 0u64, 0u64, 0u64);
    let mut extra: MmapVec<u64> = MmapVec::new();
    let mut ids: MmapVec<u32> = MmapVec::new();
    for &t in threads.as_slice() {
        // SAFETY: thread states are never freed.
        let t = unsafe { &*t };
        dn += t.dropped_nodes;
        dl += t.dropped_loops;
        um += t.unmatched;
        deep += t.deep;
        let n = t.n_nodes as usize;
        core::sync::atomic::fence(core::sync::atomic::Ordering::Acquire);
        extra.truncate(0);
        if !extra.resize(n, 0) {
            continue;
        }
        let depth = (t.depth as usize).min(super::MAX_DEPTH);
        for k in 0..depth {
            // SAFETY: k < MAX_DEPTH, the stack's size.
            let fr = unsafe { *t.frames.add(k) };
            if (fr.node as usize) < n {
                if let Some(e) = extra.as_mut_slice().get_mut(fr.node as usize) {
                    *e += now.saturating_sub(fr.start);
                }
            }
        }
        // Node ids of the record: the live nodes without the virtual root, whose
        // function is a registered one.
        ids.truncate(0);
        if !ids.resize(n, NONE) {
            continue;
        }
        w.thread(t.tid);
        let mut next = 0u32;
        for i in 1..n {
            // SAFETY: i < n_nodes.
            let nd = unsafe { *t.nodes.add(i) };
            let f = id_of(mods, nd.func, |m| m.funcs, |m| m.n_funcs);
            let parent = if nd.parent == 0 {
                TM_ROOT
            } else {
                ids.as_slice()
                    .get(nd.parent as usize)
                    .copied()
                    .unwrap_or(NONE)
            };
            if f == NONE || (nd.parent != 0 && parent == NONE) {
                continue;
            }
            let add = extra.as_slice().get(i).copied().unwrap_or(0);
            w.node(parent, f, nd.visits, nd.inclusive_ns.wrapping_add(add));
            if let Some(x) = ids.as_mut_slice().get_mut(i) {
                *x = next;
            }
            let mut c = nd.first_count;
            let mut guard = 0;
            while c != NONE && c < t.n_counts && guard < 1 << 20 {
                // SAFETY: c < n_counts.
                let e = unsafe { *t.counts.add(c as usize) };
                let l = id_of(mods, e.lp, |m| m.loops, |m| m.n_loops);
                if l != NONE {
                    w.count(next, l, e.n);
                }
                c = e.next;
                guard += 1;
            }
            next += 1;
        }
    }
    w.counter(TM_COUNT_DROPPED_NODES, dn);
    w.counter(TM_COUNT_DROPPED_LOOPS, dl);
    w.counter(TM_COUNT_UNMATCHED_EXITS, um);
    w.counter(TM_COUNT_DEEP_FRAMES, deep);
    w.counter(TM_COUNT_LOST_THREADS, lost_threads());
    w.finish().ok
}
