//! The JSON report (`docs/report-schema.md`, schema `taintprof.taint` version 1).
//!
//! ## When
//!
//! * At exit ([`final_report`] from the `on_exit` hook registered at start-up): `exit()`
//!   and a return from `main` both get there, with the exit status.
//! * On a fatal signal ([`on_fatal_signal`], from [`crate::signals`]).
//! * On request: `tp_write_report()` writes a report of the run so far under the same
//!   name; the final report replaces it.
//!
//! The final report is written once per process: an atomic state decides between a
//! racing `exit` and signal, and a signal arriving while another thread writes waits for
//! it (bounded) before the process dies. A mid-run report never replaces a final one.
//!
//! ## Where
//!
//! `$TAINTPROF_OUT/<prog>.<pid>.taintprof.json` (default directory: the working
//! directory at start-up; created if missing), written to a temporary file in the same
//! directory and renamed into place, then `taintprof: report written to <path>` on stderr
//! (`TAINTPROF_QUIET=1` silences it). `<prog>` is the basename of `/proc/self/exe`.
//!
//! ## How
//!
//! The report is built from the registered module descriptors and every thread's
//! calling-context tree, read lock-free. Nothing on this path calls malloc or takes a
//! lock (scratch arrays are [`MmapVec`]s, sorting is in place), so it can run inside a
//! signal handler, even one that interrupted malloc.
//!
//! 1. **Loops** are merged by source identity: the last `SrcLoc` of their inline chain
//!    (linkage name, file, line, column). The same loop can have several descriptors
//!    (inlined copies, versioned loops, linkonce functions in several TUs). Loops without
//!    a line (no debug info) are never merged.
//! 2. **Functions** are every function written in the source: each module's physical
//!    `FuncDesc`s plus the written-in function of every loop chain, identified by
//!    (linkage name, file). `recursive` comes from the context trees.
//! 3. **Contexts**: each loop record of each tree node becomes a context whose path is
//!    the node's site chains from the root (each frame `{function, file, line}`)
//!    followed by the loop's own inline chain minus its last entry. Paths are
//!    hash-consed, so merging across threads and descriptors is a sort by
//!    `(loop, path id)`.
//! 4. Output order: functions by `file`, `line`, `name`; loops by `line`, `column`;
//!    contexts by path (frame by frame; a prefix first).

use core::cmp::Ordering::{self, Equal};
use core::ffi::c_char;
use core::fmt::Write as _;
use core::sync::atomic::{AtomicI32, AtomicU32, Ordering::*};

use taintprof_abi::{
    Label, LoopDesc, ModuleDesc, SrcLoc, LOOP_NO_SINK, MODULE_CONTROL_FLOW, MODULE_NO_DEBUG_INFO,
};

use crate::context::{self, ThreadState};
use crate::json::{Json, Sink};
use crate::params::Registry;
use crate::sys::{self, cstr, Lossy, MmapVec, StackBuf};
use crate::{init, modules, options, signals};

/// Why the report is being written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Normal exit with this status (`exit(status)` or a return from `main`).
    Code(i32),
    /// Killed by this signal.
    Signal(i32),
    /// Mid-run report (`tp_write_report`).
    Running,
}

/// Everything a report is built from.
pub struct Inputs<'a> {
    pub name: &'a [u8],
    pub path: &'a [u8],
    pub argv: &'a [*const c_char],
    pub pid: i32,
    pub exit: Exit,
    /// Registered modules, in registration order.
    pub modules: &'a [*const ModuleDesc],
    /// Threads that ran instrumented code, in creation order.
    pub threads: &'a [*const ThreadState],
    pub params: &'a Registry,
    /// Some thread ran out of memory for its context tree.
    pub context_oom: bool,
    /// Include the process-wide list of refused modules in the warnings.
    pub rejected_modules: bool,
}

// ----------------------------------------------------------------------------------
// Source-identity helpers
// ----------------------------------------------------------------------------------

#[inline]
fn s<'a>(p: *const c_char) -> &'a [u8] {
    // SAFETY: descriptor strings are NUL-terminated or null (then empty).
    unsafe { cstr(p) }
}

#[inline]
fn loc<'a>(p: *const SrcLoc) -> &'a SrcLoc {
    // SAFETY: only called on pointers into descriptor chains.
    unsafe { &*p }
}

/// `n` entries of an inline chain (empty for null).
fn chain<'a>(p: *const SrcLoc, n: u32) -> &'a [SrcLoc] {
    if p.is_null() || n == 0 {
        return &[];
    }
    // SAFETY: the pass emits `n` consecutive SrcLocs.
    unsafe { core::slice::from_raw_parts(p, n as usize) }
}

/// Function identity: (linkage name, file).
fn cmp_fn(a: &SrcLoc, b: &SrcLoc) -> Ordering {
    s(a.linkage)
        .cmp(s(b.linkage))
        .then_with(|| s(a.file).cmp(s(b.file)))
}

/// One path frame: (function, file, line).
fn cmp_frame(a: &SrcLoc, b: &SrcLoc) -> Ordering {
    s(a.function)
        .cmp(s(b.function))
        .then_with(|| s(a.file).cmp(s(b.file)))
        .then(a.line.cmp(&b.line))
}

#[derive(Clone, Copy)]
struct LoopRef {
    desc: *const LoopDesc,
    /// Last entry of the chain: where the loop is written.
    key: *const SrcLoc,
}

/// Loop identity: function, line, column; loops without a line only equal themselves.
fn cmp_loop(a: &LoopRef, b: &LoopRef) -> Ordering {
    let (x, y) = (loc(a.key), loc(b.key));
    cmp_fn(x, y)
        .then(x.line.cmp(&y.line))
        .then(x.column.cmp(&y.column))
        .then_with(|| {
            if x.line == 0 {
                (a.desc as usize).cmp(&(b.desc as usize))
            } else {
                Equal
            }
        })
}

#[derive(Clone, Copy)]
struct LoopGroup {
    key: *const SrcLoc,
    const_trip: u64,
    no_sink: bool,
    label: Label,
    executions: u64,
    ctx_start: u32,
    ctx_end: u32,
}

#[derive(Clone, Copy)]
struct FnGroup {
    loc: *const SrcLoc,
    recursive: bool,
    loops_start: u32,
    loops_end: u32,
}

#[derive(Clone, Copy)]
struct Ctx {
    group: u32,
    path: u32,
    label: Label,
    executions: u64,
}

// ----------------------------------------------------------------------------------
// Hash-consed context paths
// ----------------------------------------------------------------------------------

#[derive(Clone, Copy)]
struct PathEnt {
    parent: u32,
    frames: *const SrcLoc,
    n: u32,
    hash: u64,
}

/// Interned paths: id 0 is the empty path; each other id is its parent's path followed
/// by a run of frames. Equal frame sequences built the same way get the same id.
struct Paths {
    ents: MmapVec<PathEnt>,
    index: MmapVec<u32>,
    failed: bool,
}

fn fnv(mut h: u64, b: &[u8]) -> u64 {
    for &x in b {
        h = (h ^ x as u64).wrapping_mul(0x100_0000_01b3);
    }
    h
}

impl Paths {
    fn new() -> Self {
        let mut p = Paths {
            ents: MmapVec::new(),
            index: MmapVec::new(),
            failed: false,
        };
        p.failed |= !p.ents.push(PathEnt {
            parent: 0,
            frames: core::ptr::null(),
            n: 0,
            hash: 0,
        });
        p
    }

    fn ent(&self, id: u32) -> Option<&PathEnt> {
        self.ents.as_slice().get(id as usize)
    }

    fn hash(parent: u32, frames: &[SrcLoc]) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64 ^ (parent as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for f in frames {
            h = fnv(h, s(f.function));
            h = fnv(h, &[0xff]);
            h = fnv(h, s(f.file));
            h = fnv(h, &f.line.to_le_bytes());
        }
        h
    }

    fn rehash(&mut self, size: usize) -> bool {
        let mut idx = MmapVec::new();
        if !idx.resize(size, 0u32) {
            return false;
        }
        let mask = size - 1;
        for (id, e) in self.ents.as_slice().iter().enumerate().skip(1) {
            let mut i = e.hash as usize & mask;
            while idx.as_slice().get(i).copied().unwrap_or(0) != 0 {
                i = (i + 1) & mask;
            }
            if let Some(slot) = idx.as_mut_slice().get_mut(i) {
                *slot = id as u32;
            }
        }
        self.index = idx;
        true
    }

    /// Id of `parent` followed by `frames`.
    fn intern(&mut self, parent: u32, frames_ptr: *const SrcLoc, n: u32) -> u32 {
        let frames = chain(frames_ptr, n);
        if frames.is_empty() {
            return parent;
        }
        if self.index.len() < (self.ents.len() + 1) * 2 {
            let size = (self.ents.len() * 4).next_power_of_two().max(1024);
            if !self.rehash(size) {
                self.failed = true;
                return parent;
            }
        }
        let h = Self::hash(parent, frames);
        let mask = self.index.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let id = self.index.as_slice().get(i).copied().unwrap_or(0);
            if id == 0 {
                break;
            }
            if let Some(e) = self.ent(id) {
                if e.hash == h && e.parent == parent && e.n == n {
                    let ef = chain(e.frames, e.n);
                    if ef.iter().zip(frames).all(|(a, b)| cmp_frame(a, b) == Equal) {
                        return id;
                    }
                }
            }
            i = (i + 1) & mask;
        }
        let id = self.ents.len() as u32;
        if !self.ents.push(PathEnt {
            parent,
            frames: frames_ptr,
            n,
            hash: h,
        }) {
            self.failed = true;
            return parent;
        }
        if let Some(slot) = self.index.as_mut_slice().get_mut(i) {
            *slot = id;
        }
        id
    }

    /// Segments of path `id`, root first, into `out`.
    fn segments(&self, mut id: u32, out: &mut MmapVec<u32>) {
        out.truncate(0);
        while id != 0 {
            if !out.push(id) {
                break;
            }
            id = self.ent(id).map(|e| e.parent).unwrap_or(0);
        }
        out.as_mut_slice().reverse();
    }

    /// Calls `f` on every frame of path `id`, root first.
    fn for_each_frame(&self, id: u32, buf: &mut MmapVec<u32>, mut f: impl FnMut(&SrcLoc)) {
        self.segments(id, buf);
        for &seg in buf.as_slice() {
            if let Some(e) = self.ent(seg) {
                chain(e.frames, e.n).iter().for_each(&mut f);
            }
        }
    }

    /// Content order of two paths: frame by frame, a prefix first.
    fn cmp(&self, a: u32, b: u32, ba: &mut MmapVec<u32>, bb: &mut MmapVec<u32>) -> Ordering {
        if a == b {
            return Equal;
        }
        self.segments(a, ba);
        self.segments(b, bb);
        let mut fa = FrameIter {
            paths: self,
            segs: ba.as_slice(),
            cur: &[],
        };
        let mut fb = FrameIter {
            paths: self,
            segs: bb.as_slice(),
            cur: &[],
        };
        loop {
            match (fa.next(), fb.next()) {
                (None, None) => return Equal,
                (None, Some(_)) => return Ordering::Less,
                (Some(_), None) => return Ordering::Greater,
                (Some(x), Some(y)) => {
                    let c = cmp_frame(x, y);
                    if c != Equal {
                        return c;
                    }
                }
            }
        }
    }
}

struct FrameIter<'a> {
    paths: &'a Paths,
    segs: &'a [u32],
    cur: &'a [SrcLoc],
}

impl<'a> Iterator for FrameIter<'a> {
    type Item = &'a SrcLoc;
    fn next(&mut self) -> Option<&'a SrcLoc> {
        loop {
            if let Some((first, rest)) = self.cur.split_first() {
                self.cur = rest;
                return Some(first);
            }
            let (&id, rest) = self.segs.split_first()?;
            self.segs = rest;
            self.cur = self
                .paths
                .ent(id)
                .map(|e| chain(e.frames, e.n))
                .unwrap_or(&[]);
        }
    }
}

// ----------------------------------------------------------------------------------
// Building and writing
// ----------------------------------------------------------------------------------

fn write_params<S: Sink>(j: &mut Json<'_, S>, reg: &Registry, label: Label) {
    j.key("params");
    j.begin_array();
    reg.for_each_name_in(label, |name, bit| {
        if name.is_empty() {
            let mut b = StackBuf::<16>::new();
            let _ = write!(b, "#{bit}");
            j.bytes(b.as_bytes());
        } else {
            j.bytes(name);
        }
    });
    j.end_array();
}

/// Builds the report from `inp` and writes it to `out`. Never allocates from malloc.
pub fn write_json<S: Sink>(inp: &Inputs<'_>, out: &mut S) {
    let mut incomplete = false;

    // 1. Loops, merged by source identity.
    let mut loops: MmapVec<LoopRef> = MmapVec::new();
    let mut malformed = 0u64;
    let mut control_flow = false;
    for &m in inp.modules {
        // SAFETY: registered descriptors are valid.
        let m = unsafe { &*m };
        control_flow |= m.flags & MODULE_CONTROL_FLOW != 0;
        if m.loops.is_null() {
            continue;
        }
        for i in 0..m.n_loops as usize {
            // SAFETY: the module has n_loops descriptors.
            let d = unsafe { m.loops.add(i) };
            // SAFETY: as above.
            let dd = unsafe { &*d };
            if dd.chain.is_null() || dd.n_chain == 0 {
                malformed += 1;
                continue;
            }
            // SAFETY: n_chain entries.
            let key = unsafe { dd.chain.add(dd.n_chain as usize - 1) };
            incomplete |= !loops.push(LoopRef { desc: d, key });
        }
    }
    loops.as_mut_slice().sort_unstable_by(cmp_loop);
    let mut groups: MmapVec<LoopGroup> = MmapVec::new();
    let mut by_desc: MmapVec<(usize, u32)> = MmapVec::new();
    let mut prev: Option<LoopRef> = None;
    for lr in loops.as_slice() {
        if prev.map(|p| cmp_loop(&p, lr) != Equal).unwrap_or(true) {
            incomplete |= !groups.push(LoopGroup {
                key: lr.key,
                const_trip: 0,
                no_sink: false,
                label: 0,
                executions: 0,
                ctx_start: 0,
                ctx_end: 0,
            });
        }
        prev = Some(*lr);
        let gi = groups.len().saturating_sub(1);
        // SAFETY: valid descriptor (checked above).
        let d = unsafe { &*lr.desc };
        if let Some(g) = groups.as_mut_slice().get_mut(gi) {
            if d.const_trip_count != 0 {
                g.const_trip = d.const_trip_count;
            }
            g.no_sink |= d.flags & LOOP_NO_SINK != 0;
        }
        incomplete |= !by_desc.push((lr.desc as usize, gi as u32));
    }
    by_desc.as_mut_slice().sort_unstable();
    let group_of = |d: *const LoopDesc| -> Option<u32> {
        let v = by_desc.as_slice();
        v.binary_search_by(|e| e.0.cmp(&(d as usize)))
            .ok()
            .and_then(|i| v.get(i))
            .map(|e| e.1)
    };

    // 2. Functions as written.
    let mut fn_locs: MmapVec<*const SrcLoc> = MmapVec::new();
    for &m in inp.modules {
        // SAFETY: registered descriptors are valid.
        let m = unsafe { &*m };
        if m.funcs.is_null() {
            continue;
        }
        for i in 0..m.n_funcs as usize {
            // SAFETY: n_funcs descriptors.
            incomplete |= !fn_locs.push(unsafe { &(*m.funcs.add(i)).loc });
        }
    }
    for g in groups.as_slice() {
        incomplete |= !fn_locs.push(g.key);
    }
    fn_locs
        .as_mut_slice()
        .sort_unstable_by(|a, b| cmp_fn(loc(*a), loc(*b)));
    let mut fgroups: MmapVec<FnGroup> = MmapVec::new();
    for &l in fn_locs.as_slice() {
        let same = fgroups
            .as_slice()
            .last()
            .map(|g| cmp_fn(loc(g.loc), loc(l)) == Equal)
            .unwrap_or(false);
        if !same {
            incomplete |= !fgroups.push(FnGroup {
                loc: l,
                recursive: false,
                loops_start: 0,
                loops_end: 0,
            });
        }
    }
    let mut j = 0usize;
    for fg in fgroups.as_mut_slice() {
        fg.loops_start = j as u32;
        while groups
            .as_slice()
            .get(j)
            .map(|g| cmp_fn(loc(g.key), loc(fg.loc)) == Equal)
            .unwrap_or(false)
        {
            j += 1;
        }
        fg.loops_end = j as u32;
    }
    for &t in inp.threads {
        // SAFETY: thread states are never freed.
        let ts = unsafe { &*t };
        ts.for_each_recursive(|f| {
            // SAFETY: FuncDescs passed to __tp_enter are valid descriptors.
            let l = unsafe { &(*f).loc };
            if let Ok(i) = fgroups
                .as_slice()
                .binary_search_by(|g| cmp_fn(loc(g.loc), l))
            {
                if let Some(g) = fgroups.as_mut_slice().get_mut(i) {
                    g.recursive = true;
                }
            }
        });
    }

    // 3. Contexts from every thread's tree.
    let mut paths = Paths::new();
    let mut ctxs: MmapVec<Ctx> = MmapVec::new();
    let mut stack: MmapVec<(*const context::Node, u32)> = MmapVec::new();
    let mut unknown_loops = 0u64;
    for &t in inp.threads {
        // SAFETY: thread states are never freed.
        let ts = unsafe { &*t };
        stack.truncate(0);
        incomplete |= !stack.push((&ts.root as *const context::Node, 0));
        while let Some((n, pid)) = stack.pop() {
            // SAFETY: nodes are never freed.
            let node = unsafe { &*n };
            node.for_each_loop(|lp, label, executions| {
                let Some(group) = group_of(lp) else {
                    unknown_loops += 1;
                    return;
                };
                // SAFETY: a registered, valid loop descriptor (n_chain >= 1).
                let d = unsafe { &*lp };
                let path = paths.intern(pid, d.chain, d.n_chain - 1);
                incomplete |= !ctxs.push(Ctx {
                    group,
                    path,
                    label,
                    executions,
                });
            });
            node.for_each_child(|site, _f, child| {
                let cpid = if site.is_null() {
                    pid
                } else {
                    // SAFETY: SiteDescs passed to __tp_enter are valid descriptors.
                    let sd = unsafe { &*site };
                    paths.intern(pid, sd.chain, sd.n_chain)
                };
                incomplete |= !stack.push((child as *const context::Node, cpid));
            });
        }
    }
    incomplete |= paths.failed;
    ctxs.as_mut_slice()
        .sort_unstable_by(|a, b| a.group.cmp(&b.group).then(a.path.cmp(&b.path)));
    let mut merged: MmapVec<Ctx> = MmapVec::new();
    for c in ctxs.as_slice() {
        let n = merged.len();
        match merged.as_mut_slice().last_mut() {
            Some(m) if m.group == c.group && m.path == c.path => {
                m.label |= c.label;
                m.executions = m.executions.wrapping_add(c.executions);
            }
            _ => {
                incomplete |= !merged.push(*c);
                let _ = n;
            }
        }
    }
    drop(ctxs);
    let mut i = 0usize;
    let (mut ba, mut bb) = (MmapVec::<u32>::new(), MmapVec::<u32>::new());
    while i < merged.len() {
        let g = merged.as_slice().get(i).map(|c| c.group).unwrap_or(0);
        let mut e = i;
        while merged
            .as_slice()
            .get(e)
            .map(|c| c.group == g)
            .unwrap_or(false)
        {
            e += 1;
        }
        if let Some(run) = merged.as_mut_slice().get_mut(i..e) {
            run.sort_unstable_by(|x, y| paths.cmp(x.path, y.path, &mut ba, &mut bb));
            let (label, execs) = run.iter().fold((0, 0u64), |(l, x), c| {
                (l | c.label, x.wrapping_add(c.executions))
            });
            if let Some(grp) = groups.as_mut_slice().get_mut(g as usize) {
                grp.label = label;
                grp.executions = execs;
                grp.ctx_start = i as u32;
                grp.ctx_end = e as u32;
            }
        }
        i = e;
    }

    // 4. Output.
    let mut order: MmapVec<u32> = MmapVec::new();
    for k in 0..fgroups.len() {
        incomplete |= !order.push(k as u32);
    }
    {
        let fg = fgroups.as_slice();
        order.as_mut_slice().sort_unstable_by(|&a, &b| {
            let (Some(x), Some(y)) = (fg.get(a as usize), fg.get(b as usize)) else {
                return Equal;
            };
            let (x, y) = (loc(x.loc), loc(y.loc));
            s(x.file)
                .cmp(s(y.file))
                .then(x.fn_line.cmp(&y.fn_line))
                .then_with(|| s(x.function).cmp(s(y.function)))
                .then_with(|| s(x.linkage).cmp(s(y.linkage)))
        });
    }

    let reg = inp.params;
    let mut j = Json::new(out, 4);
    j.begin_object();
    j.kv_str("schema", "taintprof.taint");
    j.kv_u64("version", 1);
    j.kv_str("taintprof_version", crate::VERSION);

    j.key("program");
    j.begin_object();
    j.kv_bytes("name", inp.name);
    j.kv_bytes("path", inp.path);
    j.key("argv");
    j.begin_array();
    for &a in inp.argv {
        if !a.is_null() {
            j.bytes(s(a));
        }
    }
    j.end_array();
    j.kv_i64("pid", inp.pid as i64);
    j.end_object();

    j.key("exit");
    j.begin_object();
    match inp.exit {
        Exit::Code(c) => {
            j.kv_str("reason", "exit");
            j.kv_i64("code", (c & 0xff) as i64);
        }
        Exit::Signal(sig) => {
            j.kv_str("reason", "signal");
            j.kv_str("signal", signals::name(sig));
            j.kv_i64("number", sig as i64);
        }
        Exit::Running => j.kv_str("reason", "running"),
    }
    j.end_object();

    j.key("options");
    j.begin_object();
    j.kv_bool("control_flow", control_flow);
    j.end_object();

    j.kv_u64("threads", inp.threads.len() as u64);

    j.key("parameters");
    j.begin_array();
    for i in 0..reg.len() {
        if let Some(p) = reg.get(i) {
            j.bytes(p.name);
        }
    }
    j.end_array();
    j.key("parameter_info");
    j.begin_array();
    for i in 0..reg.len() {
        if let Some(p) = reg.get(i) {
            j.begin_object();
            j.kv_bytes("name", p.name);
            j.kv_u64("bit", p.bit as u64);
            j.kv_u64("registrations", p.registrations as u64);
            j.end_object();
        }
    }
    j.end_array();
    j.key("rejected_parameters");
    j.begin_array();
    {
        let mut rej: MmapVec<*const crate::params::Rejected> = MmapVec::new();
        reg.for_each_rejected(|r| incomplete |= !rej.push(r));
        for &r in rej.as_slice().iter().rev() {
            // SAFETY: leaked, immutable.
            let r = unsafe { &*r };
            j.begin_object();
            j.kv_bytes("name", r.name());
            j.kv_str("reason", r.reason().reason());
            j.kv_u64("registrations", r.count() as u64);
            j.end_object();
        }
    }
    j.end_array();

    j.key("modules");
    j.begin_array();
    for &m in inp.modules {
        // SAFETY: registered descriptors are valid.
        let m = unsafe { &*m };
        j.begin_object();
        j.kv_bytes("source", s(m.source_file));
        j.kv_u64("functions", m.n_funcs as u64);
        j.kv_u64("loops", m.n_loops as u64);
        j.end_object();
    }
    j.end_array();

    let mut fbuf = MmapVec::<u32>::new();
    let mut no_sink = 0u64;
    j.key("functions");
    j.begin_array();
    for &fi in order.as_slice() {
        let Some(fg) = fgroups.as_slice().get(fi as usize) else {
            continue;
        };
        let fl = loc(fg.loc);
        j.begin_object();
        j.kv_bytes("name", s(fl.function));
        j.kv_bytes("linkage", s(fl.linkage));
        j.kv_bytes("file", s(fl.file));
        j.kv_u64("line", fl.fn_line as u64);
        j.kv_bool("recursive", fg.recursive);
        j.key("loops");
        j.begin_array();
        for g in groups
            .as_slice()
            .get(fg.loops_start as usize..fg.loops_end as usize)
            .unwrap_or(&[])
        {
            let k = loc(g.key);
            no_sink += g.no_sink as u64;
            j.begin_object();
            j.kv_u64("line", k.line as u64);
            j.kv_u64("column", k.column as u64);
            write_params(&mut j, reg, g.label);
            j.kv_u64("executions", g.executions);
            j.key("const_trip_count");
            if g.const_trip != 0 {
                j.u64(g.const_trip);
            } else {
                j.null();
            }
            j.key("contexts");
            j.begin_array();
            if g.ctx_end > g.ctx_start {
                for c in merged
                    .as_slice()
                    .get(g.ctx_start as usize..g.ctx_end as usize)
                    .unwrap_or(&[])
                {
                    j.begin_object();
                    j.key("path");
                    j.begin_array();
                    paths.for_each_frame(c.path, &mut fbuf, |f| {
                        j.begin_object();
                        j.kv_bytes("function", s(f.function));
                        j.kv_bytes("file", s(f.file));
                        j.kv_u64("line", f.line as u64);
                        j.end_object();
                    });
                    j.end_array();
                    write_params(&mut j, reg, c.label);
                    j.kv_u64("executions", c.executions);
                    j.end_object();
                }
            }
            j.end_array();
            j.end_object();
        }
        j.end_array();
        j.end_object();
    }
    j.end_array();

    // Warnings.
    j.key("warnings");
    j.begin_array();
    let mut warn = |args: core::fmt::Arguments<'_>| {
        let mut b = StackBuf::<1024>::new();
        let _ = b.write_fmt(args);
        j.bytes(b.as_bytes());
    };
    if inp.exit == Exit::Running {
        warn(format_args!(
            "written while the program was still running (tp_write_report); the report written at exit replaces it"
        ));
    }
    if inp.rejected_modules {
        let mut rej: MmapVec<*const modules::RejectedModule> = MmapVec::new();
        modules::for_each_rejected(|r| incomplete |= !rej.push(r));
        for &r in rej.as_slice().iter().rev() {
            // SAFETY: leaked, immutable.
            let r = unsafe { &*r };
            if r.bad_magic {
                warn(format_args!(
                    "a module descriptor with a bad magic number was ignored"
                ));
            } else {
                warn(format_args!(
                    "module '{}' was ignored: it was instrumented for ABI version {}, this runtime implements version {}",
                    Lossy(r.source),
                    r.abi_version,
                    taintprof_abi::ABI_VERSION
                ));
            }
        }
    }
    for &m in inp.modules {
        // SAFETY: registered descriptors are valid.
        let m = unsafe { &*m };
        if m.flags & MODULE_NO_DEBUG_INFO != 0 {
            warn(format_args!(
                "module '{}' was compiled without debug info: its loops have no source lines (compile with -g)",
                Lossy(s(m.source_file))
            ));
        }
    }
    let mut nrec = 0usize;
    for &fi in order.as_slice() {
        let Some(fg) = fgroups.as_slice().get(fi as usize) else {
            continue;
        };
        if !fg.recursive {
            continue;
        }
        nrec += 1;
        if nrec <= 50 {
            let l = loc(fg.loc);
            warn(format_args!(
                "function '{}' ({}:{}) is recursive: its calls are folded onto its first activation, so its loops' parameters over-approximate",
                Lossy(s(l.function)),
                Lossy(s(l.file)),
                l.fn_line
            ));
        }
    }
    if nrec > 50 {
        warn(format_args!(
            "... and {} more recursive functions",
            nrec - 50
        ));
    }
    if no_sink > 0 {
        warn(format_args!(
            "{no_sink} loop(s) have no exit condition the compiler could instrument (left only by exit(), an exception or a goto out): their params are unknown, not empty"
        ));
    }
    if inp.context_oom {
        warn(format_args!("the runtime ran out of memory for calling contexts: some loop executions were not recorded"));
    }
    if unknown_loops > 0 {
        warn(format_args!("{unknown_loops} loop record(s) refer to loops of modules that were not registered; they are not listed"));
    }
    if malformed > 0 {
        warn(format_args!(
            "{malformed} loop descriptor(s) without a source chain were skipped"
        ));
    }
    if incomplete {
        warn(format_args!(
            "the runtime ran out of memory while writing this report: it is incomplete"
        ));
    }
    j.end_array();
    j.end_object();
}

// ----------------------------------------------------------------------------------
// Files, once-only logic, entry points
// ----------------------------------------------------------------------------------

/// Buffered writer to a file descriptor that remembers the first error.
struct FdSink {
    fd: i32,
    buf: [u8; 16384],
    len: usize,
    err: i32,
}

impl FdSink {
    fn flush(&mut self) {
        if self.err == 0 && !sys::write_all(self.fd, self.buf.get(..self.len).unwrap_or(&[])) {
            self.err = sys::errno().max(1);
        }
        self.len = 0;
    }
}

impl Sink for FdSink {
    fn put(&mut self, mut b: &[u8]) {
        while !b.is_empty() {
            if self.len == self.buf.len() {
                self.flush();
            }
            let n = b.len().min(self.buf.len() - self.len);
            if let (Some(dst), Some(src)) = (self.buf.get_mut(self.len..self.len + n), b.get(..n)) {
                dst.copy_from_slice(src);
            }
            self.len += n;
            b = b.get(n..).unwrap_or(&[]);
        }
    }
}

/// `/proc/self/exe`, and the program name (its basename).
struct ProgramId {
    path: StackBuf<4096>,
    name_at: usize,
}

impl ProgramId {
    fn get() -> Self {
        let mut buf = [0u8; 4096];
        // SAFETY: readlink into a local buffer.
        let n = unsafe {
            libc::readlink(
                c"/proc/self/exe".as_ptr(),
                buf.as_mut_ptr().cast(),
                buf.len(),
            )
        };
        let mut path = StackBuf::new();
        if n > 0 {
            let mut p = buf.get(..n as usize).unwrap_or(&[]);
            if let Some(stripped) = p.strip_suffix(b" (deleted)") {
                p = stripped;
            }
            path.push_bytes(p);
        } else if let Some(&a0) = init::argv().first() {
            path.push_bytes(s(a0));
        }
        if path.is_empty() {
            path.push_bytes(b"unknown");
        }
        let name_at = path
            .as_bytes()
            .iter()
            .rposition(|&c| c == b'/')
            .map(|i| i + 1)
            .unwrap_or(0);
        ProgramId { path, name_at }
    }
    fn name(&self) -> &[u8] {
        match self.path.as_bytes().get(self.name_at..) {
            Some(n) if !n.is_empty() => n,
            _ => b"unknown",
        }
    }
}

/// Creates `dir` and its parents (like `mkdir -p`).
fn mkdir_p(dir: &[u8]) {
    let mut b = StackBuf::<4097>::new();
    for (i, &c) in dir.iter().enumerate() {
        if c == b'/' && i > 0 {
            b.clear();
            b.push_bytes(dir.get(..i).unwrap_or(&[]));
            if let Some(p) = b.as_cstr() {
                // SAFETY: NUL-terminated path.
                unsafe { libc::mkdir(p, 0o777) };
            }
        }
    }
    b.clear();
    b.push_bytes(dir);
    if let Some(p) = b.as_cstr() {
        // SAFETY: NUL-terminated path.
        unsafe { libc::mkdir(p, 0o777) };
    }
}

static TMP_COUNTER: AtomicU32 = AtomicU32::new(0);

/// Writes the report for `exit` into its final place. Ok(path) or Err((path, errno)).
fn write_file(exit: Exit, path_out: &mut StackBuf<4096>) -> Result<(), i32> {
    let prog = ProgramId::get();
    // SAFETY: getpid cannot fail.
    let pid = unsafe { libc::getpid() };
    let mut dir = StackBuf::<4096>::new();
    let od = options::out_dir();
    dir.push_bytes(if od.is_empty() { b"." } else { od });
    mkdir_p(dir.as_bytes());
    path_out.clear();
    let _ = write!(
        path_out,
        "{}/{}.{}.taintprof.json",
        Lossy(dir.as_bytes()),
        Lossy(prog.name()),
        pid
    );
    let mut tmp = StackBuf::<4096>::new();
    let _ = write!(
        tmp,
        "{}/.{}.{}.{}.{}.taintprof.tmp",
        Lossy(dir.as_bytes()),
        Lossy(prog.name()),
        pid,
        sys::gettid(),
        TMP_COUNTER.fetch_add(1, Relaxed)
    );
    let (Some(tmp_c), true) = (tmp.as_cstr(), !path_out.truncated) else {
        return Err(libc::ENAMETOOLONG);
    };
    // SAFETY: NUL-terminated path.
    let fd = unsafe {
        libc::open(
            tmp_c,
            libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_CLOEXEC,
            0o644,
        )
    };
    if fd < 0 {
        return Err(sys::errno());
    }

    let mut mods: MmapVec<*const ModuleDesc> = MmapVec::new();
    modules::for_each(|m| {
        mods.push(m);
    });
    mods.as_mut_slice().reverse();
    let mut threads: MmapVec<*const ThreadState> = MmapVec::new();
    context::for_each_thread(|t| {
        threads.push(t);
    });
    threads.as_mut_slice().reverse();
    let inp = Inputs {
        name: prog.name(),
        path: prog.path.as_bytes(),
        argv: init::argv(),
        pid,
        exit,
        modules: mods.as_slice(),
        threads: threads.as_slice(),
        params: &crate::params::REGISTRY,
        context_oom: context::out_of_memory(),
        rejected_modules: true,
    };
    let mut sink = FdSink {
        fd,
        buf: [0; 16384],
        len: 0,
        err: 0,
    };
    write_json(&inp, &mut sink);
    sink.flush();
    // SAFETY: our descriptor.
    let closed = unsafe { libc::close(fd) };
    let mut err = sink.err;
    if err == 0 && closed != 0 {
        err = sys::errno().max(1);
    }
    if err == 0 {
        match path_out.as_cstr() {
            // SAFETY: NUL-terminated paths.
            Some(dst) if unsafe { libc::rename(tmp_c, dst) } == 0 => return Ok(()),
            Some(_) => err = sys::errno().max(1),
            None => err = libc::ENAMETOOLONG,
        }
    }
    // SAFETY: NUL-terminated path of our temporary file.
    unsafe { libc::unlink(tmp_c) };
    Err(err)
}

/// 0 = not written, 1 = being written (by `FINAL_TID`), 2 = done.
static FINAL_STATE: AtomicU32 = AtomicU32::new(0);
static FINAL_TID: AtomicI32 = AtomicI32::new(0);
/// Thread writing a mid-run report (0 = none).
static MIDRUN_WRITER: AtomicI32 = AtomicI32::new(0);

fn thread_alive(tid: i32) -> bool {
    // SAFETY: signal 0 only checks existence.
    unsafe {
        libc::syscall(libc::SYS_tgkill, libc::getpid(), tid, 0) == 0 || sys::errno() != libc::ESRCH
    }
}

fn sleep_ms(ms: u64) {
    let ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: (ms * 1_000_000) as libc::c_long,
    };
    // SAFETY: plain nanosleep.
    unsafe { libc::nanosleep(&ts, core::ptr::null_mut()) };
}

/// What a final-report attempt did.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Written,
    Failed,
    Disabled,
    /// Another caller wrote (or is writing) the final report.
    AlreadyDone,
    /// This thread was already writing it (the runtime crashed while writing).
    Reentered,
}

fn report_error(path: &StackBuf<4096>, err: i32) {
    crate::diag!(
        "error: could not write the report to {}: {} (errno {}); set TAINTPROF_OUT to a writable directory",
        Lossy(path.as_bytes()),
        sys::errno_text(err),
        err
    );
}

/// Writes the final report, once per process. `exit` says why.
pub fn final_report(exit: Exit) -> Outcome {
    if !options::report_enabled() {
        return Outcome::Disabled;
    }
    let me = sys::gettid();
    match FINAL_STATE.compare_exchange(0, 1, SeqCst, SeqCst) {
        Ok(_) => FINAL_TID.store(me, SeqCst),
        Err(1) => {
            if FINAL_TID.load(SeqCst) == me {
                return Outcome::Reentered;
            }
            // Another thread is writing: give it time before this thread dies.
            for _ in 0..10_000 {
                if FINAL_STATE.load(SeqCst) == 2 {
                    break;
                }
                sleep_ms(1);
            }
            return Outcome::AlreadyDone;
        }
        Err(_) => return Outcome::AlreadyDone,
    }
    // A mid-run report in flight on another thread must not land after ours.
    for _ in 0..5_000 {
        let w = MIDRUN_WRITER.load(SeqCst);
        if w == 0 || w == me || !thread_alive(w) {
            break;
        }
        sleep_ms(1);
    }
    let mut path = StackBuf::<4096>::new();
    let r = write_file(exit, &mut path);
    FINAL_STATE.store(2, SeqCst);
    match r {
        Ok(()) => {
            if !options::quiet() {
                match exit {
                    Exit::Signal(sig) => {
                        let prog = ProgramId::get();
                        crate::diag!(
                            "{} received {}; partial report written to {}",
                            Lossy(prog.name()),
                            signals::name(sig),
                            Lossy(path.as_bytes())
                        )
                    }
                    _ => crate::diag!("report written to {}", Lossy(path.as_bytes())),
                }
            }
            Outcome::Written
        }
        Err(e) => {
            if let Exit::Signal(sig) = exit {
                crate::diag!(
                    "received {}; no report could be written",
                    signals::name(sig)
                );
            }
            report_error(&path, e);
            Outcome::Failed
        }
    }
}

/// From the fatal-signal handler.
pub fn on_fatal_signal(sig: i32) {
    if final_report(Exit::Signal(sig)) == Outcome::Reentered {
        crate::diag!(
            "error: {} while writing the report; the report is lost (this is a taintprof bug)",
            signals::name(sig)
        );
    }
}

/// Writes a report of the run so far (mid-run). Returns true if one was written.
pub fn midrun_report() -> bool {
    if !options::report_enabled() {
        return false;
    }
    let me = sys::gettid();
    loop {
        if FINAL_STATE.load(SeqCst) != 0 {
            return false;
        }
        match MIDRUN_WRITER.compare_exchange(0, me, SeqCst, SeqCst) {
            Ok(_) => break,
            Err(w) if w == me => return false,
            Err(w) => {
                if !thread_alive(w) {
                    let _ = MIDRUN_WRITER.compare_exchange(w, 0, SeqCst, SeqCst);
                } else {
                    sleep_ms(1);
                }
            }
        }
    }
    let mut ok = false;
    if FINAL_STATE.load(SeqCst) == 0 {
        let mut path = StackBuf::<4096>::new();
        match write_file(Exit::Running, &mut path) {
            Ok(()) => {
                ok = true;
                if !options::quiet() {
                    crate::diag!("report written to {}", Lossy(path.as_bytes()));
                }
            }
            Err(e) => report_error(&path, e),
        }
    }
    MIDRUN_WRITER.store(0, SeqCst);
    ok
}

/// `void tp_write_report(void)`: write a report of the run so far now. The report
/// written at exit replaces it (same file name).
#[no_mangle]
pub extern "C" fn tp_write_report() {
    midrun_report();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::__tp_enter;
    use crate::context::__tp_loop_exit;
    use core::ffi::CStr;
    use serde_json::Value;
    use taintprof_abi::{FuncDesc, SiteDesc, ABI_VERSION, LOOP_CONST_TRIP, MODULE_MAGIC};

    fn l(
        function: &'static CStr,
        file: &'static CStr,
        fn_line: u32,
        line: u32,
        column: u32,
    ) -> SrcLoc {
        SrcLoc {
            function: function.as_ptr(),
            linkage: function.as_ptr(),
            file: file.as_ptr(),
            fn_line,
            line,
            column,
            _reserved: 0,
        }
    }
    fn leak<T>(v: T) -> usize {
        Box::leak(Box::new(v)) as *mut T as usize
    }
    fn chain(v: Vec<SrcLoc>) -> (*const SrcLoc, u32) {
        let n = v.len() as u32;
        (Box::leak(v.into_boxed_slice()).as_ptr(), n)
    }
    fn site(v: Vec<SrcLoc>) -> usize {
        let (c, n) = chain(v);
        leak(SiteDesc {
            chain: c,
            n_chain: n,
            flags: 0,
        })
    }
    fn lp(v: Vec<SrcLoc>, flags: u32, trip: u64) -> LoopDesc {
        let (c, n) = chain(v);
        LoopDesc {
            chain: c,
            n_chain: n,
            flags,
            const_trip_count: trip,
        }
    }
    fn fd(loc: SrcLoc) -> FuncDesc {
        FuncDesc {
            loc,
            flags: 1,
            n_loops: 0,
        }
    }
    fn module(src: &'static CStr, funcs: Vec<FuncDesc>, loops: Vec<LoopDesc>, flags: u32) -> usize {
        let nf = funcs.len() as u32;
        let nl = loops.len() as u32;
        leak(ModuleDesc {
            magic: MODULE_MAGIC,
            abi_version: ABI_VERSION,
            source_file: src.as_ptr(),
            funcs: Box::leak(funcs.into_boxed_slice()).as_ptr(),
            n_funcs: nf,
            n_loops: nl,
            loops: Box::leak(loops.into_boxed_slice()).as_ptr(),
            branches: core::ptr::null_mut(),
            n_branches: 0,
            flags,
            next: core::ptr::null_mut(),
        })
    }
    fn enter(p: usize, s: usize, f: usize) -> usize {
        unsafe { __tp_enter(p as *mut _, s as *const SiteDesc, f as *const FuncDesc) as usize }
    }
    fn exit(n: usize, l: usize, label: Label) {
        unsafe { __tp_loop_exit(n as *mut _, l as *const LoopDesc, label) }
    }
    fn current() -> usize {
        context::current_thread() as usize
    }

    struct World {
        m1: usize,
        m2: usize,
        f_main: usize,
        f_kernel: usize,
        f_rec: usize,
        f_helper: usize,
        l1: usize,
        a: usize,
        b: usize,
        s48: usize,
        s50: usize,
        s52: usize,
        s60: usize,
    }

    fn world() -> World {
        let p = c"prog.c";
        let m1 = module(
            c"prog.c",
            vec![
                fd(l(c"main", p, 40, 40, 1)),
                fd(l(c"kernel", p, 10, 10, 1)),
                fd(l(c"rec", p, 30, 30, 1)),
            ],
            vec![
                lp(vec![l(c"kernel", p, 10, 12, 3)], 0, 0),
                lp(vec![l(c"kernel", p, 10, 15, 5)], LOOP_CONST_TRIP, 8),
                // helper's loop inlined into kernel at 13:7.
                lp(
                    vec![l(c"kernel", p, 10, 13, 7), l(c"helper", p, 3, 5, 3)],
                    0,
                    0,
                ),
                // A loop without debug info.
                lp(vec![l(c"rec", p, 30, 0, 0)], 0, 0),
            ],
            0,
        );
        // helper's out-of-line copy in another TU (linkonce).
        let m2 = module(
            c"other.c",
            vec![fd(l(c"helper", p, 3, 3, 1))],
            vec![lp(vec![l(c"helper", p, 3, 5, 3)], 0, 0)],
            MODULE_NO_DEBUG_INFO,
        );
        let md = |m: usize| unsafe { &*(m as *const ModuleDesc) };
        let f = |m: usize, i: usize| unsafe { md(m).funcs.add(i) } as usize;
        let lo = |m: usize, i: usize| unsafe { md(m).loops.add(i) } as usize;
        World {
            m1,
            m2,
            f_main: f(m1, 0),
            f_kernel: f(m1, 1),
            f_rec: f(m1, 2),
            f_helper: f(m2, 0),
            l1: lo(m1, 0),
            a: lo(m1, 2),
            b: lo(m2, 0),
            s48: site(vec![l(c"main", p, 40, 48, 5)]),
            s50: site(vec![l(c"main", p, 40, 50, 5)]),
            s52: site(vec![l(c"main", p, 40, 52, 5)]),
            s60: site(vec![l(c"rec", p, 30, 33, 9)]),
        }
    }

    fn run(inp: &Inputs<'_>) -> Value {
        let mut out = Vec::new();
        write_json(inp, &mut out);
        serde_json::from_slice(&out)
            .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&out)))
    }

    fn build() -> (World, Vec<usize>, &'static Registry) {
        let w = world();
        let reg: &'static Registry = Box::leak(Box::new(Registry::new()));
        for n in ["n", "m", "k"] {
            reg.register(Some(n.as_bytes())).unwrap();
        }
        let (f_main, f_kernel, f_rec, f_helper) = (w.f_main, w.f_kernel, w.f_rec, w.f_helper);
        let (l1, a, b, s48, s50, s52, s60) = (w.l1, w.a, w.b, w.s48, w.s50, w.s52, w.s60);
        let t1 = std::thread::spawn(move || {
            let m = enter(0, s60, f_main); // root child: the site is ignored
            let k = enter(m, s48, f_kernel);
            exit(k, l1, 0b001);
            exit(k, a, 0b010);
            let k2 = enter(m, s50, f_kernel);
            exit(k2, l1, 0);
            let h = enter(m, s52, f_helper);
            exit(h, b, 0);
            let r = enter(m, s48, f_rec);
            let r2 = enter(r, s60, f_rec);
            assert_eq!(r, r2);
            current()
        })
        .join()
        .unwrap();
        let t2 = std::thread::spawn(move || {
            let m = enter(0, 0, f_main);
            let k = enter(m, s48, f_kernel);
            exit(k, l1, 0b100);
            current()
        })
        .join()
        .unwrap();
        (w, vec![t1, t2], reg)
    }

    fn inputs<'a>(
        w: &'a World,
        mods: &'a [*const ModuleDesc],
        threads: &'a [*const ThreadState],
        reg: &'a Registry,
        exit: Exit,
    ) -> Inputs<'a> {
        let _ = w;
        Inputs {
            name: b"prog",
            path: b"/bin/prog",
            argv: &[],
            pid: 42,
            exit,
            modules: mods,
            threads,
            params: reg,
            context_oom: false,
            rejected_modules: false,
        }
    }

    fn find<'a>(v: &'a Value, name: &str) -> &'a Value {
        v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("no function {name}"))
    }

    #[test]
    fn report_structure_merging_and_contexts() {
        let (w, threads, reg) = build();
        let mods = [w.m1 as *const ModuleDesc, w.m2 as *const ModuleDesc];
        let ths: Vec<*const ThreadState> =
            threads.iter().map(|&t| t as *const ThreadState).collect();
        let v = run(&inputs(&w, &mods, &ths, reg, Exit::Code(3)));

        assert_eq!(v["schema"], "taintprof.taint");
        assert_eq!(v["version"], 1);
        assert_eq!(v["taintprof_version"], crate::VERSION);
        assert_eq!(v["program"]["name"], "prog");
        assert_eq!(v["program"]["pid"], 42);
        assert_eq!(v["exit"], serde_json::json!({"reason": "exit", "code": 3}));
        assert_eq!(v["threads"], 2);
        assert_eq!(v["parameters"], serde_json::json!(["n", "m", "k"]));
        assert_eq!(
            v["parameter_info"][1],
            serde_json::json!({"name": "m", "bit": 1, "registrations": 1})
        );
        assert_eq!(
            v["modules"][0],
            serde_json::json!({"source": "prog.c", "functions": 3, "loops": 4})
        );
        assert_eq!(v["modules"][1]["source"], "other.c");
        assert_eq!(v["options"]["control_flow"], false);

        // Functions: every written function once, sorted by file, line, name.
        let names: Vec<&str> = v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["helper", "kernel", "rec", "main"]);

        let kernel = find(&v, "kernel");
        assert_eq!(kernel["recursive"], false);
        assert_eq!(kernel["line"], 10);
        let kl = kernel["loops"].as_array().unwrap();
        assert_eq!(
            kl.len(),
            2,
            "helper's inlined loop belongs to helper, not kernel"
        );
        assert_eq!(
            (kl[0]["line"].as_u64(), kl[0]["column"].as_u64()),
            (Some(12), Some(3))
        );
        assert_eq!(kl[0]["params"], serde_json::json!(["n", "k"]));
        assert_eq!(kl[0]["executions"], 3);
        assert!(kl[0]["const_trip_count"].is_null());
        let ctx = kl[0]["contexts"].as_array().unwrap();
        assert_eq!(ctx.len(), 2, "the two threads' main@48 contexts merge");
        assert_eq!(
            ctx[0]["path"],
            serde_json::json!([{"function": "main", "file": "prog.c", "line": 48}])
        );
        assert_eq!(ctx[0]["params"], serde_json::json!(["n", "k"]));
        assert_eq!(ctx[0]["executions"], 2);
        assert_eq!(ctx[1]["path"][0]["line"], 50);
        assert_eq!(ctx[1]["params"], serde_json::json!([]));
        // The loop that never ran is there, with its constant trip count.
        assert_eq!(kl[1]["line"], 15);
        assert_eq!(kl[1]["executions"], 0);
        assert_eq!(kl[1]["const_trip_count"], 8);
        assert_eq!(kl[1]["contexts"], serde_json::json!([]));
        assert_eq!(kl[1]["params"], serde_json::json!([]));

        // helper: one loop from two descriptors (inlined copy + out-of-line copy).
        let helper = find(&v, "helper");
        let hl = helper["loops"].as_array().unwrap();
        assert_eq!(hl.len(), 1);
        assert_eq!(hl[0]["line"], 5);
        assert_eq!(hl[0]["executions"], 2);
        assert_eq!(hl[0]["params"], serde_json::json!(["m"]));
        let hc = hl[0]["contexts"].as_array().unwrap();
        assert_eq!(hc.len(), 2);
        assert_eq!(
            hc[0]["path"],
            serde_json::json!([
                {"function": "main", "file": "prog.c", "line": 48},
                {"function": "kernel", "file": "prog.c", "line": 13}
            ]),
            "node path, then the loop's inline chain minus its last entry"
        );
        assert_eq!(hc[0]["params"], serde_json::json!(["m"]));
        assert_eq!(
            hc[1]["path"],
            serde_json::json!([{"function": "main", "file": "prog.c", "line": 52}])
        );

        let rec = find(&v, "rec");
        assert_eq!(rec["recursive"], true);
        assert_eq!(rec["loops"][0]["line"], 0);
        assert_eq!(rec["loops"][0]["executions"], 0);
        assert_eq!(find(&v, "main")["loops"], serde_json::json!([]));

        let warnings: Vec<&str> = v["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("'rec'") && w.contains("recursive")),
            "{warnings:?}"
        );
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("other.c") && w.contains("debug info")),
            "{warnings:?}"
        );
        assert_eq!(v["rejected_parameters"], serde_json::json!([]));
    }

    #[test]
    fn report_without_threads_lists_every_loop_unexecuted() {
        let w = world();
        let reg = Registry::new();
        let mods = [w.m2 as *const ModuleDesc, w.m1 as *const ModuleDesc];
        let v = run(&inputs(&w, &mods, &[], &reg, Exit::Signal(libc::SIGSEGV)));
        assert_eq!(
            v["exit"],
            serde_json::json!({"reason": "signal", "signal": "SIGSEGV", "number": 11})
        );
        assert_eq!(v["threads"], 0);
        let total: usize = v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["loops"].as_array().unwrap().len())
            .sum();
        assert_eq!(total, 4, "5 descriptors, 4 distinct loops");
        for f in v["functions"].as_array().unwrap() {
            for l in f["loops"].as_array().unwrap() {
                assert_eq!(l["executions"], 0);
            }
        }
    }

    #[test]
    fn running_reports_say_so_and_strange_names_are_escaped() {
        let reg = Registry::new();
        reg.register(Some(b"we\"ird\nname\xff")).unwrap();
        for i in 0..16 {
            let _ = reg.register(Some(format!("x{i}").as_bytes()));
        }
        let argv = [c"./prog".as_ptr(), c"a\tb".as_ptr(), core::ptr::null()];
        let inp = Inputs {
            name: b"pr\"og",
            path: b"/tmp/pr\"og",
            argv: &argv,
            pid: 1,
            exit: Exit::Running,
            modules: &[],
            threads: &[],
            params: &reg,
            context_oom: true,
            rejected_modules: false,
        };
        let v = run(&inp);
        assert_eq!(v["exit"]["reason"], "running");
        assert_eq!(v["program"]["name"], "pr\"og");
        assert_eq!(v["program"]["argv"], serde_json::json!(["./prog", "a\tb"]));
        assert_eq!(v["parameters"][0], "we\"ird\nname\u{fffd}");
        assert_eq!(v["rejected_parameters"][0]["name"], "x15");
        assert_eq!(
            v["rejected_parameters"][0]["reason"],
            "at most 16 parameters can be registered"
        );
        let warnings = v["warnings"].to_string();
        assert!(warnings.contains("still running"));
        assert!(warnings.contains("out of memory for calling contexts"));
    }

    #[test]
    fn contexts_merge_by_content_across_threads_and_descriptors() {
        let w = world();
        let reg = Registry::new();
        let (f_main, f_kernel, l1, s48) = (w.f_main, w.f_kernel, w.l1, w.s48);
        let ths: Vec<usize> = (0..8)
            .map(|t| {
                std::thread::spawn(move || {
                    let m = enter(0, 0, f_main);
                    // A fresh SiteDesc whose content equals s48 (another descriptor, same site).
                    let mut cur = m;
                    for _ in 0..50 {
                        let s = site(vec![l(c"main", c"prog.c", 40, 48, 5)]);
                        let next = enter(cur, s, f_kernel);
                        // kernel -> kernel would fold (recursion); use it once only.
                        if next == cur {
                            break;
                        }
                        cur = next;
                    }
                    for _ in 0..=t {
                        exit(cur, l1, 1);
                    }
                    let k = enter(m, s48, f_kernel);
                    exit(k, l1, 0);
                    current()
                })
                .join()
                .unwrap()
            })
            .collect();
        let mods = [w.m1 as *const ModuleDesc, w.m2 as *const ModuleDesc];
        let tp: Vec<*const ThreadState> = ths.iter().map(|&t| t as *const ThreadState).collect();
        let v = run(&inputs(&w, &mods, &tp, &reg, Exit::Code(0)));
        let kl = &find(&v, "kernel")["loops"][0];
        // Every thread: main@48 -> kernel (recursion folds the second kernel) once with
        // label 1 and t+1 executions, then once more with label 0: one merged context.
        assert_eq!(kl["contexts"].as_array().unwrap().len(), 1, "{}", kl);
        assert_eq!(kl["executions"], (1..=8).sum::<u64>() + 8);
        assert_eq!(v["threads"], 8);
    }
}
