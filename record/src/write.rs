//! The streaming writer: `no_std`, no allocation, no unsafe, usable in a signal handler.
//!
//! The writer holds a few counters and nothing else: every record goes to the
//! [`Out`] sink as soon as it is complete (one `write` call for the fixed-size records
//! of trees, a few for records with a string or an inline chain), so a record of any
//! size is written in constant memory. Buffering, if wanted, is the sink's business (the
//! runtime's file sink has a 16 KiB buffer).
//!
//! ## Use
//!
//! ```text
//! Writer::new(out)                                 file header
//! begin_run(info, name, path, version)             RUN          (first, exactly once)
//!   arg(..)*  attr(..)*
//! begin_module(info, source, object, build_id)     MODULE*      (after RUN, before the rest)
//!   string(..)*  func(..)*  loop_(..)*  site(..)*  branch(..)*     (in this order)
//! begin_params(layout, gave_up_at)                 PARAMS
//!   param(..)*  rejected(..)*
//! begin_thread(info)                               THREAD*
//!   node(..) [loop_record(..)*]  ...  folded(..)*  recursive(..)*
//! begin_inflight()  inflight(..)*                  IN-FLIGHT
//! begin_branches()  branch_state(..)*              BRANCHES
//! begin_trailer(exit)  attr(..)*  warning(..)*     TRAILER      (last)
//! finish()
//! ```
//!
//! Beginning a section closes the open one ([`Writer::end_section`] does it explicitly).
//! Indices are checked against what was written before: a record with a string id, a
//! function, loop, site or branch index, or a parent out of range, or a record outside
//! its section, is **refused** (not written) and counted; the trailer then carries a
//! `WARN_WRITER_REFUSED` warning. The record stays readable: a runtime bug costs the
//! refused records, never the file. [`Writer::node`] returns the index the node got
//! ([`NONE`] if it was refused); use it as the parent of its children.
//!
//! A failing sink (`Out::write` returned false: disk full, closed descriptor) stops
//! all further output; [`Finished::ok`] says so. What was written before is a valid
//! truncated record.

use crate::format::*;

/// Where the bytes go. Returns false when the bytes could not all be written; the writer
/// then writes nothing more.
pub trait Out {
    fn write(&mut self, bytes: &[u8]) -> bool;
}

impl<O: Out + ?Sized> Out for &mut O {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> bool {
        (**self).write(bytes)
    }
}

/// A sink over a caller's buffer (no allocation); fails once it is full.
pub struct SliceOut<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceOut<'a> {
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceOut { buf, len: 0 }
    }

    /// The bytes written so far.
    pub fn written(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

impl Out for SliceOut<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> bool {
        let end = self.len + bytes.len();
        match self.buf.get_mut(self.len..end) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                self.len = end;
                true
            }
            None => false,
        }
    }
}

/// A sink that only counts (the size of a record before writing it).
#[derive(Clone, Copy, Debug, Default)]
pub struct CountOut(pub u64);

impl Out for CountOut {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> bool {
        self.0 += bytes.len() as u64;
        true
    }
}

#[cfg(feature = "std")]
impl Out for std::vec::Vec<u8> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> bool {
        self.extend_from_slice(bytes);
        true
    }
}

/// A sink over any [`std::io::Write`] (wrap files in a `BufWriter`).
#[cfg(feature = "std")]
pub struct IoOut<W: std::io::Write>(pub W);

#[cfg(feature = "std")]
impl<W: std::io::Write> Out for IoOut<W> {
    fn write(&mut self, bytes: &[u8]) -> bool {
        self.0.write_all(bytes).is_ok()
    }
}

/// ULEB128 of `v` (at most 5 bytes for a `u32`): the bytes and how many are used.
#[inline]
pub(crate) fn uleb(mut v: u32) -> ([u8; 5], usize) {
    let mut b = [0u8; 5];
    let mut n = 0;
    while let Some(slot) = b.get_mut(n) {
        let low = (v & 0x7f) as u8;
        v >>= 7;
        n += 1;
        if v == 0 {
            *slot = low;
            break;
        }
        *slot = low | 0x80;
    }
    (b, n)
}

/// A small stack buffer for the fixed part of a record.
struct Fixed {
    b: [u8; 48],
    n: usize,
}

impl Fixed {
    #[inline]
    fn new() -> Self {
        Fixed { b: [0; 48], n: 0 }
    }
    #[inline]
    fn put(&mut self, bytes: &[u8]) -> &mut Self {
        if let Some(dst) = self.b.get_mut(self.n..self.n + bytes.len()) {
            dst.copy_from_slice(bytes);
            self.n += bytes.len();
        }
        self
    }
    #[inline]
    fn u16(&mut self, v: u16) -> &mut Self {
        self.put(&v.to_le_bytes())
    }
    #[inline]
    fn u32(&mut self, v: u32) -> &mut Self {
        self.put(&v.to_le_bytes())
    }
    #[inline]
    fn i32(&mut self, v: i32) -> &mut Self {
        self.put(&v.to_le_bytes())
    }
    #[inline]
    fn u64(&mut self, v: u64) -> &mut Self {
        self.put(&v.to_le_bytes())
    }
    #[inline]
    fn loc(&mut self, l: &Loc) -> &mut Self {
        self.u32(l.function)
            .u32(l.linkage)
            .u32(l.file)
            .u32(l.fn_line)
            .u32(l.line)
            .u32(l.column)
    }
    #[inline]
    fn bytes(&self) -> &[u8] {
        self.b.get(..self.n).unwrap_or(&[])
    }
}

/// The encoding of a [`Loc`].
#[inline]
fn loc_bytes(l: &Loc) -> [u8; LOC_LEN] {
    let mut b = [0u8; LOC_LEN];
    for (dst, v) in b
        .chunks_exact_mut(4)
        .zip([l.function, l.linkage, l.file, l.fn_line, l.line, l.column])
    {
        dst.copy_from_slice(&v.to_le_bytes());
    }
    b
}

/// Where the writer is in the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// Header written, no section yet.
    Start,
    /// RUN begun.
    Run,
    /// A MODULE begun.
    Modules,
    /// PARAMS, THREAD, IN-FLIGHT or BRANCHES begun: no more modules.
    Data,
    /// TRAILER begun.
    Trailer,
}

/// Counts of the module being written; `phase` is the last table written to (0 strings,
/// 1 functions, 2 loops, 3 sites, 4 branches).
#[derive(Clone, Copy, Default)]
struct ModCounts {
    strings: u32,
    funcs: u32,
    loops: u32,
    sites: u32,
    branches: u32,
    phase: u8,
}

/// What [`Writer::finish`] hands back.
pub struct Finished<O> {
    /// The sink.
    pub out: O,
    /// Bytes written.
    pub bytes: u64,
    /// Records refused (see the module comment); 0 unless the caller has a bug.
    pub refused: u64,
    /// False if the sink failed: the output is a truncated record.
    pub ok: bool,
    /// True if the trailer was written (the record is complete).
    pub complete: bool,
}

/// The streaming writer (see the module comment).
pub struct Writer<O: Out> {
    out: O,
    bytes: u64,
    failed: bool,
    refused: u64,
    stage: Stage,
    open: Option<SectionKind>,
    /// Records in the open section.
    records: u64,
    /// Sections begun.
    sections: u32,
    /// Totals over the modules written (global index spaces).
    funcs: u32,
    loops: u32,
    sites: u32,
    branches: u32,
    module: ModCounts,
    /// THREAD sections begun.
    threads: u32,
    /// Nodes of the open thread.
    nodes: u32,
}

impl<O: Out> Writer<O> {
    /// Starts a record: writes the file header.
    pub fn new(out: O) -> Self {
        let mut w = Writer {
            out,
            bytes: 0,
            failed: false,
            refused: 0,
            stage: Stage::Start,
            open: None,
            records: 0,
            sections: 0,
            funcs: 0,
            loops: 0,
            sites: 0,
            branches: 0,
            module: ModCounts::default(),
            threads: 0,
            nodes: 0,
        };
        let mut h = Fixed::new();
        h.put(&MAGIC)
            .u16(VERSION_MAJOR)
            .u16(VERSION_MINOR)
            .u32(BYTE_ORDER_MARK);
        w.emit(h.bytes());
        w
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.bytes
    }

    /// Records refused so far.
    pub fn refused(&self) -> u64 {
        self.refused
    }

    /// True once the sink failed.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// Sizes of the global index spaces written so far: (functions, loops, sites,
    /// branches).
    pub fn totals(&self) -> (u32, u32, u32, u32) {
        (self.funcs, self.loops, self.sites, self.branches)
    }

    #[inline]
    fn emit(&mut self, b: &[u8]) {
        if !self.failed {
            if self.out.write(b) {
                self.bytes += b.len() as u64;
            } else {
                self.failed = true;
            }
        }
    }

    /// Tag and length of a record whose body has `len` bytes.
    #[inline]
    fn head(&mut self, tag: u8, len: usize) {
        let (l, n) = uleb(len as u32);
        let mut h = [0u8; 6];
        h[0] = tag;
        if let (Some(dst), Some(src)) = (h.get_mut(1..1 + n), l.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.emit(h.get(..1 + n).unwrap_or(&[]));
    }

    /// A record with a fixed part and a byte tail.
    fn record(&mut self, tag: u8, fixed: &[u8], tail: &[u8]) -> bool {
        let len = fixed.len() + tail.len();
        if len > MAX_BODY {
            return self.refuse();
        }
        self.head(tag, len);
        self.emit(fixed);
        self.emit(tail);
        self.records += 1;
        true
    }

    /// A record of a fixed size below 128 bytes (one-byte length): one write.
    #[inline]
    fn small(&mut self, tag: u8, body: &[u8]) {
        let mut b = [0u8; 40];
        let n = body.len().min(b.len() - 2);
        b[0] = tag;
        b[1] = n as u8;
        if let (Some(dst), Some(src)) = (b.get_mut(2..2 + n), body.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.emit(b.get(..2 + n).unwrap_or(&[]));
        self.records += 1;
    }

    #[cold]
    fn refuse(&mut self) -> bool {
        self.refused += 1;
        false
    }

    #[inline]
    fn in_section(&self, k: SectionKind) -> bool {
        self.open == Some(k)
    }

    fn begin(&mut self, k: SectionKind) {
        self.end_section();
        let mut b = Fixed::new();
        b.u16(k.code()).u16(0).u32(self.sections);
        self.head(TAG_BEGIN, BEGIN_LEN);
        self.emit(b.bytes());
        self.sections += 1;
        self.records = 0;
        self.open = Some(k);
    }

    /// Closes the open section (no-op if none is open).
    pub fn end_section(&mut self) {
        let Some(k) = self.open.take() else {
            return;
        };
        let records = self.records;
        self.head(TAG_END, END_LEN);
        self.emit(&records.to_le_bytes());
        match k {
            SectionKind::Module => {
                let m = self.module;
                self.funcs = self.funcs.saturating_add(m.funcs);
                self.loops = self.loops.saturating_add(m.loops);
                self.sites = self.sites.saturating_add(m.sites);
                self.branches = self.branches.saturating_add(m.branches);
                self.module = ModCounts::default();
            }
            SectionKind::Thread => self.nodes = 0,
            _ => {}
        }
    }

    // ---- RUN ------------------------------------------------------------------------

    /// Opens the RUN section (must be the first section).
    pub fn begin_run(&mut self, info: &RunInfo, name: &[u8], path: &[u8], version: &[u8]) -> bool {
        if self.stage != Stage::Start {
            return self.refuse();
        }
        self.stage = Stage::Run;
        self.begin(SectionKind::Run);
        let mut b = Fixed::new();
        b.i32(info.pid)
            .u32(info.abi_version)
            .u16(info.mode)
            .u16(0)
            .u64(info.start_time_ns);
        self.small(TAG_RUN_INFO, b.bytes());
        self.record(TAG_RUN_NAME, &[], name);
        self.record(TAG_RUN_PATH, &[], path);
        self.record(TAG_RUN_VERSION, &[], version);
        true
    }

    /// One program argument (RUN), in `argv` order.
    pub fn arg(&mut self, a: &[u8]) -> bool {
        if !self.in_section(SectionKind::Run) {
            return self.refuse();
        }
        self.record(TAG_RUN_ARG, &[], a)
    }

    /// A named value (RUN or TRAILER): an option, an MPI rank, a host name.
    pub fn attr(&mut self, key: &[u8], value: &[u8]) -> bool {
        if !(self.in_section(SectionKind::Run) || self.in_section(SectionKind::Trailer))
            || key.len() > MAX_BODY
        {
            return self.refuse();
        }
        let len = ATTR_FIXED_LEN + key.len() + value.len();
        if len > MAX_BODY {
            return self.refuse();
        }
        self.head(TAG_ATTR, len);
        self.emit(&(key.len() as u32).to_le_bytes());
        self.emit(key);
        self.emit(value);
        self.records += 1;
        true
    }

    // ---- MODULE ---------------------------------------------------------------------

    /// Opens a MODULE section (after RUN, before PARAMS/THREAD/IN-FLIGHT/BRANCHES).
    /// `object` and `build_id` may be empty (unknown).
    pub fn begin_module(
        &mut self,
        info: &ModuleInfo,
        source: &[u8],
        object: &[u8],
        build_id: &[u8],
    ) -> bool {
        if !matches!(self.stage, Stage::Run | Stage::Modules) {
            return self.refuse();
        }
        self.stage = Stage::Modules;
        self.begin(SectionKind::Module);
        let mut b = Fixed::new();
        b.u32(info.flags).u32(info.abi_version);
        self.small(TAG_MOD_INFO, b.bytes());
        self.record(TAG_MOD_SOURCE, &[], source);
        if !object.is_empty() {
            self.record(TAG_MOD_OBJECT, &[], object);
        }
        if !build_id.is_empty() {
            self.record(TAG_MOD_BUILD_ID, &[], build_id);
        }
        true
    }

    /// True if the module table `phase` may be written now (tables in order).
    #[inline]
    fn module_phase(&mut self, phase: u8) -> bool {
        if !self.in_section(SectionKind::Module) || self.module.phase > phase {
            return false;
        }
        self.module.phase = phase;
        true
    }

    #[inline]
    fn str_ok(&self, id: u32) -> bool {
        id == NONE || id < self.module.strings
    }

    #[inline]
    fn loc_ok(&self, l: &Loc) -> bool {
        self.str_ok(l.function) && self.str_ok(l.linkage) && self.str_ok(l.file)
    }

    /// Adds a string to the module's table; returns its id ([`NONE`] if refused).
    /// Strings come before the module's other tables.
    pub fn string(&mut self, s: &[u8]) -> u32 {
        if !self.module_phase(0) {
            self.refuse();
            return NONE;
        }
        if !self.record(TAG_STR, &[], s) {
            return NONE;
        }
        let id = self.module.strings;
        self.module.strings += 1;
        id
    }

    /// Adds a function (module-local index = functions written before it).
    pub fn func(&mut self, f: &Func) -> bool {
        if !self.module_phase(1) || !self.loc_ok(&f.loc) {
            return self.refuse();
        }
        let mut b = Fixed::new();
        b.loc(&f.loc).u32(f.flags).u32(f.n_loops);
        self.small(TAG_FUNC, b.bytes());
        self.module.funcs += 1;
        true
    }

    /// Adds a loop with its inline chain (`chain[n-1]` = the loop's keyword). `func`
    /// must be a function written before; `parent` may point forward (the reader checks
    /// it against the module's loop count).
    pub fn loop_<I>(&mut self, l: &Loop, chain: I) -> bool
    where
        I: IntoIterator<Item = Loc>,
        I::IntoIter: ExactSizeIterator + Clone,
    {
        let chain = chain.into_iter();
        if !self.module_phase(2)
            || !(l.func == NONE || l.func < self.module.funcs)
            || !self.str_ok(l.routine)
            || !self.str_ok(l.cost)
            || !chain.clone().all(|c| self.loc_ok(&c))
        {
            return self.refuse();
        }
        let n = chain.len();
        let len = LOOP_FIXED_LEN + n * LOC_LEN;
        if n > u32::MAX as usize || len > MAX_BODY {
            return self.refuse();
        }
        let mut b = Fixed::new();
        b.u32(l.flags)
            .u32(n as u32)
            .u64(l.const_trip_count)
            .u32(l.parent)
            .u32(l.func)
            .u32(l.routine)
            .u32(l.cost);
        self.head(TAG_LOOP, len);
        self.emit(b.bytes());
        for c in chain {
            self.emit(&loc_bytes(&c));
        }
        self.records += 1;
        self.module.loops += 1;
        true
    }

    /// Adds a site (a call's or a branch's position) with its inline chain. Its loop
    /// must be written before.
    pub fn site<I>(&mut self, s: &Site, chain: I) -> bool
    where
        I: IntoIterator<Item = Loc>,
        I::IntoIter: ExactSizeIterator + Clone,
    {
        let chain = chain.into_iter();
        if !self.module_phase(3)
            || !(s.loop_ == NONE || s.loop_ < self.module.loops)
            || !chain.clone().all(|c| self.loc_ok(&c))
        {
            return self.refuse();
        }
        let n = chain.len();
        let len = SITE_FIXED_LEN + n * LOC_LEN;
        if n > u32::MAX as usize || len > MAX_BODY {
            return self.refuse();
        }
        let mut b = Fixed::new();
        b.u32(s.flags).u32(n as u32).u32(s.loop_);
        self.head(TAG_SITE, len);
        self.emit(b.bytes());
        for c in chain {
            self.emit(&loc_bytes(&c));
        }
        self.records += 1;
        self.module.sites += 1;
        true
    }

    /// Adds a branch: its site and its successors' sites (module-local site indices,
    /// written before).
    pub fn branch<I>(&mut self, b: &Branch, succ: I) -> bool
    where
        I: IntoIterator<Item = u32>,
        I::IntoIter: ExactSizeIterator + Clone,
    {
        let succ = succ.into_iter();
        let sites = self.module.sites;
        if !self.module_phase(4) || b.site >= sites || !succ.clone().all(|s| s < sites) {
            return self.refuse();
        }
        let n = succ.len();
        let len = BRANCH_FIXED_LEN + n * 4;
        if n > u32::MAX as usize || len > MAX_BODY {
            return self.refuse();
        }
        let mut f = Fixed::new();
        f.u16(b.flags).u16(0).u32(b.site).u32(n as u32);
        self.head(TAG_BRANCH, len);
        self.emit(f.bytes());
        for s in succ {
            self.emit(&s.to_le_bytes());
        }
        self.records += 1;
        self.module.branches += 1;
        true
    }

    // ---- PARAMS ---------------------------------------------------------------------

    fn begin_data(&mut self, k: SectionKind) -> bool {
        if !matches!(self.stage, Stage::Run | Stage::Modules | Stage::Data) {
            return self.refuse();
        }
        self.stage = Stage::Data;
        self.begin(k);
        true
    }

    /// Opens the PARAMS section: the label layout and, if the split was given up, the
    /// name whose registration did it.
    pub fn begin_params(&mut self, layout: &LabelLayout, gave_up_at: &[u8]) -> bool {
        if !self.begin_data(SectionKind::Params) {
            return false;
        }
        let mut b = Fixed::new();
        b.u16(layout.shift).u16(layout.flags);
        self.record(TAG_LABEL_LAYOUT, b.bytes(), gave_up_at)
    }

    /// A registered parameter.
    pub fn param(&mut self, p: &ParamInfo, name: &[u8]) -> bool {
        if !self.in_section(SectionKind::Params) {
            return self.refuse();
        }
        let (kind, bits) = p.value.encode();
        let mut b = Fixed::new();
        b.u32(p.bit)
            .u32(p.registrations)
            .u16(kind)
            .u16(p.flags)
            .u64(bits);
        self.record(TAG_PARAM, b.bytes(), name)
    }

    /// A refused registration.
    pub fn rejected(&mut self, r: &RejectedInfo, name: &[u8]) -> bool {
        if !self.in_section(SectionKind::Params) {
            return self.refuse();
        }
        let mut b = Fixed::new();
        b.u16(r.reason).u16(0).u32(r.count);
        self.record(TAG_REJECTED, b.bytes(), name)
    }

    // ---- THREAD ---------------------------------------------------------------------

    /// Opens a THREAD section; its ordinal (for [`InFlight::thread`]) is the number of
    /// threads begun before.
    pub fn begin_thread(&mut self, t: &ThreadInfo) -> u32 {
        if !self.begin_data(SectionKind::Thread) {
            return NONE;
        }
        let mut b = Fixed::new();
        b.i32(t.tid).u32(t.index).u32(t.flags);
        self.small(TAG_THREAD_INFO, b.bytes());
        self.nodes = 0;
        let ordinal = self.threads;
        self.threads += 1;
        ordinal
    }

    /// Adds a node; returns its index in the thread ([`NONE`] if refused). The first
    /// node is the root ([`Node::ROOT`]); every other node's parent is a node written
    /// before it, its function and site are global indices.
    #[inline]
    pub fn node(&mut self, n: &Node) -> u32 {
        let ok = self.in_section(SectionKind::Thread)
            && if self.nodes == 0 {
                *n == Node::ROOT
            } else {
                n.parent < self.nodes
                    && n.func < self.funcs
                    && (n.site == NONE || n.site < self.sites)
            };
        if !ok {
            self.refuse();
            return NONE;
        }
        let mut b = [0u8; 2 + NODE_LEN];
        b[0] = TAG_NODE;
        b[1] = NODE_LEN as u8;
        b[2..6].copy_from_slice(&n.parent.to_le_bytes());
        b[6..10].copy_from_slice(&n.site.to_le_bytes());
        b[10..14].copy_from_slice(&n.func.to_le_bytes());
        self.emit(&b);
        self.records += 1;
        let i = self.nodes;
        self.nodes += 1;
        i
    }

    /// Adds a loop record to the last node written.
    #[inline]
    pub fn loop_record(&mut self, r: &LoopRecord) -> bool {
        if !self.in_section(SectionKind::Thread) || self.nodes == 0 || r.loop_ >= self.loops {
            return self.refuse();
        }
        let mut b = [0u8; 2 + LOOP_REC_LEN];
        b[0] = TAG_LOOP_REC;
        b[1] = LOOP_REC_LEN as u8;
        b[2..6].copy_from_slice(&r.loop_.to_le_bytes());
        b[6..8].copy_from_slice(&r.label.to_le_bytes());
        b[8..10].copy_from_slice(&r.flags.to_le_bytes());
        b[10..18].copy_from_slice(&r.executions.to_le_bytes());
        self.emit(&b);
        self.records += 1;
        true
    }

    /// A recursive call folded onto an ancestor.
    pub fn folded(&mut self, f: &Folded) -> bool {
        if !self.in_section(SectionKind::Thread)
            || f.node >= self.nodes
            || f.func >= self.funcs
            || !(f.site == NONE || f.site < self.sites)
        {
            return self.refuse();
        }
        let mut b = Fixed::new();
        b.u32(f.node).u32(f.site).u32(f.func);
        self.small(TAG_FOLDED, b.bytes());
        true
    }

    /// A function this thread found on its own call path.
    pub fn recursive(&mut self, func: u32) -> bool {
        if !self.in_section(SectionKind::Thread) || func >= self.funcs {
            return self.refuse();
        }
        self.small(TAG_RECURSIVE, &func.to_le_bytes());
        true
    }

    // ---- IN-FLIGHT, BRANCHES ----------------------------------------------------------

    /// Opens the IN-FLIGHT section (after the threads it refers to).
    pub fn begin_inflight(&mut self) -> bool {
        self.begin_data(SectionKind::InFlight)
    }

    /// One entry of a thread's loops-in-flight stack.
    pub fn inflight(&mut self, e: &InFlight) -> bool {
        if !self.in_section(SectionKind::InFlight)
            || e.thread >= self.threads
            || e.loop_ >= self.loops
        {
            return self.refuse();
        }
        let mut b = Fixed::new();
        b.u32(e.thread)
            .u32(e.depth)
            .u32(e.node)
            .u32(e.loop_)
            .u16(e.label)
            .u16(0);
        self.small(TAG_INFLIGHT, b.bytes());
        true
    }

    /// Opens the BRANCHES section.
    pub fn begin_branches(&mut self) -> bool {
        self.begin_data(SectionKind::Branches)
    }

    /// The dynamic state of one branch.
    pub fn branch_state(&mut self, s: &BranchState) -> bool {
        if !self.in_section(SectionKind::Branches) || s.branch >= self.branches {
            return self.refuse();
        }
        let mut b = Fixed::new();
        b.u32(s.branch)
            .u16(s.label)
            .u16(s.flags)
            .u64(s.taken)
            .u64(s.executions);
        self.small(TAG_BRANCH_STATE, b.bytes());
        true
    }

    // ---- TRAILER --------------------------------------------------------------------

    /// Opens the TRAILER section (last).
    pub fn begin_trailer(&mut self, exit: Exit) -> bool {
        if self.stage == Stage::Start || self.stage == Stage::Trailer {
            return self.refuse();
        }
        self.stage = Stage::Trailer;
        self.begin(SectionKind::Trailer);
        let (kind, code) = exit.encode();
        let mut b = Fixed::new();
        b.u16(kind).u16(0).i32(code);
        self.small(TAG_EXIT, b.bytes());
        true
    }

    /// A warning (TRAILER).
    pub fn warning(&mut self, w: &Warning, text: &[u8]) -> bool {
        if !self.in_section(SectionKind::Trailer) {
            return self.refuse();
        }
        let mut b = Fixed::new();
        b.u32(w.code).u32(0).u64(w.value);
        self.record(TAG_WARNING, b.bytes(), text)
    }

    /// Closes the open section (and with the trailer, the record). If records were
    /// refused, the trailer first gets a `WARN_WRITER_REFUSED` warning.
    pub fn finish(mut self) -> Finished<O> {
        let complete = self.in_section(SectionKind::Trailer);
        if complete && self.refused > 0 {
            let n = self.refused;
            self.warning(
                &Warning {
                    code: WARN_WRITER_REFUSED,
                    value: n,
                },
                b"the record writer refused records with invalid indices (a runtime bug)",
            );
        }
        self.end_section();
        Finished {
            out: self.out,
            bytes: self.bytes,
            refused: self.refused,
            ok: !self.failed,
            complete,
        }
    }
}

/// A little-endian stack buffer for the fixed parts of a record (the denormal and time
/// writers': no allocation, so they run in the runtime's exit and signal paths). Bytes
/// beyond its [`BUF_CAP`] are dropped; no fixed part is that long (the longest, a
/// denormal SITE with its counters, is 88).
pub(crate) struct Buf {
    b: [u8; BUF_CAP],
    n: usize,
}

/// Capacity of [`Buf`].
pub(crate) const BUF_CAP: usize = 96;

impl Buf {
    pub(crate) fn new() -> Self {
        Buf {
            b: [0; BUF_CAP],
            n: 0,
        }
    }
    pub(crate) fn put(&mut self, bytes: &[u8]) -> &mut Self {
        if let Some(dst) = self.b.get_mut(self.n..self.n + bytes.len()) {
            dst.copy_from_slice(bytes);
            self.n += bytes.len();
        }
        self
    }
    pub(crate) fn u16(&mut self, v: u16) -> &mut Self {
        self.put(&v.to_le_bytes())
    }
    pub(crate) fn u32(&mut self, v: u32) -> &mut Self {
        self.put(&v.to_le_bytes())
    }
    pub(crate) fn i32(&mut self, v: i32) -> &mut Self {
        self.put(&v.to_le_bytes())
    }
    pub(crate) fn u64(&mut self, v: u64) -> &mut Self {
        self.put(&v.to_le_bytes())
    }
    pub(crate) fn bytes(&self) -> &[u8] {
        self.b.get(..self.n).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uleb_encodes_lengths() {
        let cases: [(u32, &[u8]); 5] = [
            (0, &[0]),
            (127, &[0x7f]),
            (128, &[0x80, 0x01]),
            (300, &[0xac, 0x02]),
            (u32::MAX, &[0xff, 0xff, 0xff, 0xff, 0x0f]),
        ];
        for (v, want) in cases {
            let (b, n) = uleb(v);
            assert_eq!(&b[..n], want, "{v}");
        }
    }

    #[test]
    fn writes_without_allocation_into_a_slice() {
        let mut buf = [0u8; 512];
        let mut w = Writer::new(SliceOut::new(&mut buf));
        w.begin_run(&RunInfo::default(), b"a", b"/a", b"0");
        w.begin_thread(&ThreadInfo::default());
        assert_eq!(w.node(&Node::ROOT), 0);
        w.begin_trailer(Exit::Normal(0));
        let f = w.finish();
        assert!(f.ok && f.complete && f.refused == 0);
        assert_eq!(f.out.written().len() as u64, f.bytes);
        assert_eq!(&f.out.written()[..8], &MAGIC);

        // A sink that fills up: the writer stops, says so, and never panics.
        let mut small = [0u8; 40];
        let mut w = Writer::new(SliceOut::new(&mut small));
        w.begin_run(&RunInfo::default(), b"a-long-program-name", b"/a", b"0");
        w.begin_trailer(Exit::Normal(0));
        let f = w.finish();
        assert!(!f.ok);
        assert!(f.bytes <= 40);
    }

    #[test]
    fn records_with_bad_indices_are_refused_and_counted() {
        let mut w = Writer::new(CountOut::default());
        // Nothing before RUN.
        assert_eq!(w.string(b"x"), NONE);
        w.begin_run(&RunInfo::default(), b"a", b"/a", b"0");
        w.begin_module(&ModuleInfo::default(), b"m.c", b"", b"");
        let s = w.string(b"f");
        assert_eq!(s, 0);
        let loc = Loc {
            function: s,
            linkage: s,
            file: s,
            ..Loc::default()
        };
        assert!(w.func(&Func {
            loc,
            ..Func::default()
        }));
        // A string after the functions, a function with an unknown string.
        assert_eq!(w.string(b"late"), NONE);
        assert!(!w.func(&Func {
            loc: Loc { file: 7, ..loc },
            ..Func::default()
        }));
        assert!(!w.site(&Site { flags: 0, loop_: 3 }, [loc]));
        w.begin_thread(&ThreadInfo::default());
        // Not the root first.
        assert_eq!(
            w.node(&Node {
                parent: 0,
                site: NONE,
                func: 0
            }),
            NONE
        );
        assert_eq!(w.node(&Node::ROOT), 0);
        assert_eq!(
            w.node(&Node {
                parent: 0,
                site: NONE,
                func: 0
            }),
            1
        );
        // Unknown function, parent, loop.
        assert_eq!(
            w.node(&Node {
                parent: 0,
                site: NONE,
                func: 1
            }),
            NONE
        );
        assert_eq!(
            w.node(&Node {
                parent: 2,
                site: NONE,
                func: 0
            }),
            NONE
        );
        assert!(!w.loop_record(&LoopRecord::default()));
        // No module after thread data.
        assert!(!w.begin_module(&ModuleInfo::default(), b"n.c", b"", b""));
        assert_eq!(w.refused(), 9);
        w.begin_trailer(Exit::Normal(0));
        let f = w.finish();
        assert!(f.ok && f.complete);
        assert_eq!(f.refused, 9);
    }
}
