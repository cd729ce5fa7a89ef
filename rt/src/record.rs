//! The raw run record: the runtime's live state translated into a
//! `taintprof_record` record (`docs/internal/record.md`, issue 23).
//!
//! ## When and where
//!
//! What a taint-mode process writes when it ends, by the paths of [`crate::report`]: at
//! exit, on a fatal signal (on the alternate signal stack), from
//! `_exit`/`_Exit`/`quick_exit`, before an `exec`, and mid-run from `tp_write_report` (a
//! final record replaces a mid-run one, never the reverse: both are written inside the
//! once-only state). The file is `$TAINTPROF_OUT/<prog>.<pid>.taintprof.rec`
//! (`<prog>.before-exec.<pid>.taintprof.rec` before an `exec`), written to a temporary
//! file and renamed into place; a process that knew its MPI rank at start-up (below)
//! puts it before the pid, `<prog>.rank<R>.<pid>.taintprof.rec`, so a listing shows
//! which rank wrote what ([`output_path`]). `TAINTPROF_REPORT=0` turns it off. The analysis is the
//! driver's (`taintprof-model`). A denormal-mode program writes its denormal report
//! instead (a denormal record is not specified yet).
//!
//! ## How
//!
//! Nothing here calls malloc, takes a lock, recurses or panics: scratch tables are
//! [`MmapVec`]s, trees are walked with explicit stacks, slices are reached with `get`.
//! The writer (`taintprof_record::Writer`) keeps counters only and streams every record
//! into the report's buffered file sink ([`FdSink`]). Running out of scratch memory
//! costs the part that needed it (counted in a `WARN_WRITER_OOM` warning), never the
//! file.
//!
//! Pointers become indices:
//!
//! | runtime | record |
//! |---|---|
//! | `FuncDesc`, `LoopDesc`, `BranchRec` pointers | global indices by the address range of each registered module's array (`Spans`) |
//! | `SiteDesc` pointers (nodes, folded calls, branches and their successors) | a pre-pass over every tree collects the distinct sites reached, each in the module of the calling function (a branch's in the branch's module); sorted by module, a site's position is its global index (`Sites`). A site first met after the pre-pass (trees grow while they are written) is written as `NONE` |
//! | strings of a module's descriptors | interned per module by pointer (the pass emits each string once per module), empty strings as `NONE` |
//! | calling-context nodes | indices in preorder within their thread |
//! | loops in flight (`crate::inflight` snapshot) | (thread ordinal, depth, node index, loop) |
//!
//! A module's OBJECT and BUILD_ID come from `/proc/self/maps` and the object's mapped
//! ELF notes ([`objects`]); a parameter's value is what `tp_register_variable` read
//! (`crate::params`, "Values").
//!
//! Functions of modules that were never registered (their subtrees), and loop records
//! of their loops, are skipped and counted in warnings, as the JSON report does.
//!
//! ## What the record keeps from start-up
//!
//! [`capture_start`] (called by [`crate::init`] before `main`) keeps the wall-clock start
//! time, the MPI rank and size (`PMI_RANK`/`OMPI_COMM_WORLD_RANK`,
//! `PMI_SIZE`/`OMPI_COMM_WORLD_SIZE`: RUN attributes `mpi.rank`, `mpi.size`) and every
//! `TAINTPROF_*` variable as set (TRAILER attributes), copied, since the environment
//! is read once at start-up like every knob ([`crate::options`]).

use core::cell::{Cell, UnsafeCell};
use core::fmt::Write as _;
use core::mem::size_of;
use core::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};

use taintprof_abi::{
    BranchRec, FuncDesc, LoopDesc, ModuleDesc, SiteDesc, SrcLoc, ABI_VERSION, CTRL_SPLIT_SHIFT,
};
use taintprof_record as rec;
use taintprof_record::{Out, Writer, NONE};
use taintprof_sigsafe::file::{write_atomic, Durability};
use taintprof_sigsafe::json::Sink;
use taintprof_sigsafe::{cstr, getpid, thread_alive, FdSink, Lossy};
use taintprof_sigsafe::{MmapVec, StackBuf};

use crate::context::{Node, ThreadState};
use crate::params::Reject;
use crate::report::{self, Exit, Inputs, ProgramId};
use objects::{object_of, read_maps, BuildId, BuildIds};

// ----------------------------------------------------------------------------------
// What the record keeps from start-up
// ----------------------------------------------------------------------------------

/// Most `TAINTPROF_*` variables kept for the trailer (there are about 25 knobs of the
/// pass and the runtime together).
const MAX_OPTIONS: usize = 48;

/// The environment and clock at start-up, as the record writes them.
#[derive(Clone, Copy)]
pub struct StartInfo {
    /// Wall-clock time, ns since the Unix epoch (0 = unknown).
    pub start_time_ns: u64,
    /// `PMI_RANK`, else `OMPI_COMM_WORLD_RANK` (empty if neither is set).
    pub mpi_rank: &'static [u8],
    /// `PMI_SIZE`, else `OMPI_COMM_WORLD_SIZE`.
    pub mpi_size: &'static [u8],
    /// `(name, value)` of every `TAINTPROF_*` variable, in environment order.
    options: [(&'static [u8], &'static [u8]); MAX_OPTIONS],
    n_options: usize,
}

impl StartInfo {
    const EMPTY: StartInfo = StartInfo {
        start_time_ns: 0,
        mpi_rank: &[],
        mpi_size: &[],
        options: [(&[], &[]); MAX_OPTIONS],
        n_options: 0,
    };

    /// The `TAINTPROF_*` variables kept.
    pub fn options(&self) -> &[(&'static [u8], &'static [u8])] {
        self.options.get(..self.n_options).unwrap_or(&[])
    }
}

struct StartCell(UnsafeCell<StartInfo>);
// SAFETY: written once during single-threaded start-up ([`capture_start`]), read-only
// afterwards.
unsafe impl Sync for StartCell {}
static START: StartCell = StartCell(UnsafeCell::new(StartInfo::EMPTY));

/// What the record keeps of `envp` (a NUL-terminated array of `NAME=value`, or null),
/// with the start time `now_ns`. Values are copied into permanent memory: a program
/// may overwrite its environment strings (`setproctitle`).
///
/// # Safety
/// `envp` must be null or a valid environment array.
pub unsafe fn parse_environment(envp: *const *const libc::c_char, now_ns: u64) -> StartInfo {
    let mut info = StartInfo::EMPTY;
    info.start_time_ns = now_ns;
    if envp.is_null() {
        return info;
    }
    let (mut pmi_rank, mut ompi_rank, mut pmi_size, mut ompi_size) = (None, None, None, None);
    let mut e = envp;
    loop {
        // SAFETY: envp is a NULL-terminated array (contract).
        let p = unsafe { *e };
        if p.is_null() {
            break;
        }
        // SAFETY: each entry is a NUL-terminated string.
        let entry = unsafe { cstr(p) };
        // SAFETY: still inside the array (its terminator was not reached).
        e = unsafe { e.add(1) };
        let Some(eq) = entry.iter().position(|&c| c == b'=') else {
            continue;
        };
        let (name, value) = (
            entry.get(..eq).unwrap_or(&[]),
            entry.get(eq + 1..).unwrap_or(&[]),
        );
        match name {
            b"PMI_RANK" => pmi_rank = Some(value),
            b"OMPI_COMM_WORLD_RANK" => ompi_rank = Some(value),
            b"PMI_SIZE" => pmi_size = Some(value),
            b"OMPI_COMM_WORLD_SIZE" => ompi_size = Some(value),
            _ if name.starts_with(b"TAINTPROF_") => {
                if let Some(slot) = info.options.get_mut(info.n_options) {
                    *slot = (crate::leak_slice(name), crate::leak_slice(value));
                    info.n_options += 1;
                }
            }
            _ => {}
        }
    }
    if let Some(v) = pmi_rank.or(ompi_rank) {
        info.mpi_rank = crate::leak_slice(v);
    }
    if let Some(v) = pmi_size.or(ompi_size) {
        info.mpi_size = crate::leak_slice(v);
    }
    info
}

/// Keeps what the record needs from start-up (from [`crate::init`], before `main`).
///
/// # Safety
/// `envp` must be null or the process environment array; no other thread may run.
pub unsafe fn capture_start(envp: *const *const libc::c_char) {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: valid out pointer.
    let now = if unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts) } == 0 {
        (ts.tv_sec as u64)
            .wrapping_mul(1_000_000_000)
            .wrapping_add(ts.tv_nsec as u64)
    } else {
        0
    };
    // SAFETY: forwarded contract.
    let info = unsafe { parse_environment(envp, now) };
    // SAFETY: single-threaded start-up, nobody reads START yet.
    unsafe { *START.0.get() = info };
}

/// What [`capture_start`] kept (empty if start-up did not run).
pub fn start_info() -> &'static StartInfo {
    // SAFETY: see StartCell.
    unsafe { &*START.0.get() }
}

// ----------------------------------------------------------------------------------
// The file
// ----------------------------------------------------------------------------------

/// The report's file sink as the writer's [`Out`]: buffered, and failing from the first
/// error on (then `write_atomic` removes the temporary file).
struct FileOut<'a>(&'a mut FdSink);

impl Out for FileOut<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> bool {
        self.0.put(bytes);
        self.0.error().is_none()
    }
}

/// Writes this process's record for `exit` into its final place, atomically (a
/// temporary file in the same directory renamed into place): the number of bytes, or
/// Err(errno). `path_out` says where either way. Only for taint mode (a denormal-mode
/// program writes its denormal report instead).
pub fn write_file(exit: Exit, path_out: &mut StackBuf<4096>) -> Result<u64, i32> {
    path_out.clear();
    let prog = ProgramId::get();
    let pid = getpid();
    output_path(&prog, pid, exit, "taintprof.rec", path_out)?;
    write_atomic(path_out.as_bytes(), Durability::Rename, |sink| {
        report::with_inputs(&prog, pid, exit, |inp| {
            write_record(inp, FileOut(sink));
        });
    })
}

/// The MPI rank of the file names: `mpi_rank` (as [`StartInfo`] kept it) if it is a
/// decimal number that fits a `u32`, else none (a name never gets other bytes from the
/// environment).
pub fn file_rank(mpi_rank: &[u8]) -> Option<u32> {
    if mpi_rank.is_empty() || mpi_rank.len() > 10 || !mpi_rank.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = mpi_rank
        .iter()
        .fold(0u64, |a, &d| a * 10 + (d - b'0') as u64);
    u32::try_from(n).ok()
}

/// [`report::output_path`] with the MPI rank this process knew at start-up
/// ([`file_rank`] of [`StartInfo::mpi_rank`]) before the pid:
/// `<dir>/<prog>[.before-exec].rank<R>.<pid>.<suffix>`, so that `ls` shows which rank
/// wrote what; without a rank the name is `report::output_path`'s. Made for both
/// records: the raw run record (`suffix` `taintprof.rec`, [`write_file`]) and the
/// denormal record (`denormal.rec`, `report::write_denormal_record`).
/// `Err(ENAMETOOLONG)` if it does not fit.
pub(crate) fn output_path(
    prog: &ProgramId,
    pid: i32,
    exit: Exit,
    suffix: &str,
    path_out: &mut StackBuf<4096>,
) -> Result<(), i32> {
    report::output_path(prog, pid, exit, suffix, path_out)?;
    match file_rank(start_info().mpi_rank) {
        Some(rank) => insert_rank(path_out, rank, pid, suffix),
        None => Ok(()),
    }
}

/// Turns `....<pid>.<suffix>` in `path` into `....rank<rank>.<pid>.<suffix>`.
fn insert_rank(path: &mut StackBuf<4096>, rank: u32, pid: i32, suffix: &str) -> Result<(), i32> {
    let mut tail = StackBuf::<128>::new();
    let _ = write!(tail, ".{pid}.{suffix}");
    let (n, t) = (path.len(), tail.len());
    if tail.truncated || n < t || path.as_bytes().get(n - t..) != Some(tail.as_bytes()) {
        return Ok(()); // not a name of `output_path`: left as it is
    }
    path.truncate(n - t);
    let _ = write!(path, ".rank{rank}");
    path.push_bytes(tail.as_bytes());
    if path.truncated {
        return Err(libc::ENAMETOOLONG);
    }
    Ok(())
}

// ----------------------------------------------------------------------------------
// Scratch tables
// ----------------------------------------------------------------------------------

#[inline]
fn hash(k: usize) -> usize {
    ((k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize
}

/// An open-addressing map from a non-null pointer (as `usize`) to a `u32`, in `mmap`
/// scratch: linear probing, load factor at most 1/2, doubled when full.
pub(crate) struct PtrMap {
    /// `(key, value)`; key 0 = empty slot. The length is a power of two (or 0).
    slots: MmapVec<(usize, u32)>,
    len: usize,
}

impl PtrMap {
    pub(crate) const fn new() -> Self {
        PtrMap {
            slots: MmapVec::new(),
            len: 0,
        }
    }

    /// Empties the map and makes room for `n` keys. False when out of memory.
    pub(crate) fn reset(&mut self, n: usize) -> bool {
        self.len = 0;
        self.slots.truncate(0);
        let Some(cap) = n.saturating_mul(2).max(16).checked_next_power_of_two() else {
            return false;
        };
        self.slots.resize(cap, (0, 0))
    }

    /// The slot of `k`: its own, or the empty one where it would go (None: no table).
    #[inline]
    fn find(&self, k: usize) -> Option<usize> {
        let s = self.slots.as_slice();
        if s.is_empty() {
            return None;
        }
        let mask = s.len() - 1;
        let mut i = hash(k) & mask;
        loop {
            match s.get(i) {
                Some(&(key, _)) if key == k || key == 0 => return Some(i),
                Some(_) => i = (i + 1) & mask,
                None => return None,
            }
        }
    }

    #[inline]
    pub(crate) fn get(&self, k: usize) -> Option<u32> {
        let i = self.find(k)?;
        match self.slots.as_slice().get(i) {
            Some(&(key, v)) if key == k && k != 0 => Some(v),
            _ => None,
        }
    }

    /// Replaces the value of `k` if it is in the map (never grows).
    fn update(&mut self, k: usize, v: u32) {
        let Some(i) = self.find(k) else {
            return;
        };
        if let Some(slot) = self.slots.as_mut_slice().get_mut(i) {
            if slot.0 == k && k != 0 {
                slot.1 = v;
            }
        }
    }

    /// Inserts or replaces `k → v`. False when out of memory (or `k` is 0).
    pub(crate) fn insert(&mut self, k: usize, v: u32) -> bool {
        if k == 0 {
            return false;
        }
        if (self.len + 1) * 2 > self.slots.len() && !self.grow() {
            return false;
        }
        let Some(i) = self.find(k) else {
            return false;
        };
        let Some(slot) = self.slots.as_mut_slice().get_mut(i) else {
            return false;
        };
        if slot.0 == 0 {
            self.len += 1;
        }
        *slot = (k, v);
        true
    }

    /// Doubles the table (rehashing every key). False when out of memory.
    fn grow(&mut self) -> bool {
        let mut old = MmapVec::new();
        core::mem::swap(&mut old, &mut self.slots);
        let want = old.len().saturating_mul(2).max(16);
        if !self.slots.resize(want, (0, 0)) {
            core::mem::swap(&mut old, &mut self.slots);
            return false;
        }
        self.len = 0;
        let mask = want - 1;
        for &(k, v) in old.as_slice() {
            if k == 0 {
                continue;
            }
            let mut i = hash(k) & mask;
            let slots = self.slots.as_mut_slice();
            while let Some(slot) = slots.get_mut(i) {
                if slot.0 == 0 {
                    *slot = (k, v);
                    break;
                }
                i = (i + 1) & mask;
            }
            self.len += 1;
        }
        true
    }
}

/// The address range of one module's array of descriptors.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    stride: usize,
    /// Ordinal of the module (registration order).
    module: u32,
    /// Global index of the first element.
    base: u32,
}

/// Descriptor pointer → (module, index) for one kind of descriptor (functions, loops or
/// branch records), by the address ranges of the modules' arrays.
struct Spans {
    v: MmapVec<Span>,
    /// The span of the last hit (consecutive lookups are mostly in one module).
    last: Cell<usize>,
}

impl Spans {
    fn new() -> Self {
        Spans {
            v: MmapVec::new(),
            last: Cell::new(0),
        }
    }

    /// Adds the array of `n` descriptors of `T` at `start` (nothing for null or 0).
    fn add<T>(&mut self, start: *const T, n: u32, module: u32, base: u32) -> bool {
        if start.is_null() || n == 0 {
            return true;
        }
        let stride = size_of::<T>().max(1);
        let start = start as usize;
        let end = start.saturating_add((n as usize).saturating_mul(stride));
        self.v.push(Span {
            start,
            end,
            stride,
            module,
            base,
        })
    }

    fn sort(&mut self) {
        self.v.as_mut_slice().sort_unstable_by_key(|s| s.start);
    }

    /// The index of `p` in span `s`, if `p` is one of its descriptors.
    #[inline]
    fn hit(s: &Span, p: usize) -> Option<u32> {
        if p < s.start || p >= s.end {
            return None;
        }
        let off = p - s.start;
        if !off.is_multiple_of(s.stride) {
            return None;
        }
        Some((off / s.stride) as u32)
    }

    /// The span holding the descriptor at `p`, and its index there.
    #[inline]
    fn lookup<T>(&self, p: *const T) -> Option<(Span, u32)> {
        let p = p as usize;
        let v = self.v.as_slice();
        if let Some(s) = v.get(self.last.get()) {
            if let Some(i) = Self::hit(s, p) {
                return Some((*s, i));
            }
        }
        let k = v.partition_point(|s| s.start <= p).checked_sub(1)?;
        let s = v.get(k)?;
        let i = Self::hit(s, p)?;
        self.last.set(k);
        Some((*s, i))
    }

    /// (module ordinal, module-local index) of the descriptor at `p`.
    #[inline]
    fn find<T>(&self, p: *const T) -> Option<(u32, u32)> {
        self.lookup(p).map(|(s, i)| (s.module, i))
    }

    /// The global index of the descriptor at `p`.
    #[inline]
    fn global<T>(&self, p: *const T) -> Option<u32> {
        self.lookup(p).map(|(s, i)| s.base.saturating_add(i))
    }

    /// The local index of the descriptor at `p` if it belongs to module `m`.
    #[inline]
    fn local_in<T>(&self, p: *const T, m: u32) -> u32 {
        match self.find(p) {
            Some((pm, local)) if pm == m => local,
            _ => NONE,
        }
    }
}

/// A site reached by this run: its pointer, the module it is written in, and when the
/// pre-pass met it (so the sort keeps that order within a module).
#[derive(Clone, Copy)]
struct SiteRef {
    module: u32,
    seq: u32,
    ptr: usize,
}

/// The sites of the record (see the module comment): after [`Sites::finish`], sorted by
/// module, so that a site's position in `list` is its global index.
struct Sites {
    list: MmapVec<SiteRef>,
    /// Pointer → index in `list` (before `finish`: in insertion order).
    map: PtrMap,
    /// Sites lost to scratch memory.
    lost: u64,
}

impl Sites {
    fn add(&mut self, p: *const SiteDesc, module: u32) {
        let k = p as usize;
        if k == 0 || self.map.get(k).is_some() {
            return;
        }
        let seq = self.list.len() as u32;
        if !self.list.push(SiteRef {
            module,
            seq,
            ptr: k,
        }) {
            self.lost += 1;
            return;
        }
        if !self.map.insert(k, seq) {
            self.list.pop();
            self.lost += 1;
        }
    }

    /// Sorts by module and maps every pointer to its position.
    fn finish(&mut self) {
        self.list
            .as_mut_slice()
            .sort_unstable_by_key(|s| (s.module, s.seq));
        for (pos, s) in self.list.as_slice().iter().enumerate() {
            self.map.update(s.ptr, pos as u32);
        }
    }

    /// The global index of the site at `p` (`NONE` for null or a site not met before).
    #[inline]
    fn global(&self, p: *const SiteDesc) -> u32 {
        if p.is_null() {
            return NONE;
        }
        self.map.get(p as usize).unwrap_or(NONE)
    }

    /// Positions `[start, end)` of module `m`'s sites.
    fn range_of(&self, m: u32) -> (u32, u32) {
        let l = self.list.as_slice();
        let a = l.partition_point(|s| s.module < m);
        let b = l.partition_point(|s| s.module <= m);
        (a as u32, b as u32)
    }
}

/// The descriptor behind a collected site.
#[inline]
fn site_desc<'a>(s: &SiteRef) -> &'a SiteDesc {
    // SAFETY: a SiteDesc pointer from a tree or a branch record (descriptors live as
    // long as the process).
    unsafe { &*(s.ptr as *const SiteDesc) }
}

/// A descriptor string's bytes (empty for null).
#[inline]
fn text<'a>(p: *const libc::c_char) -> &'a [u8] {
    // SAFETY: descriptor strings are NUL-terminated or null, and live as long as the
    // process (modules stay mapped until the report is written).
    unsafe { cstr(p) }
}

/// The `n` entries of an inline chain at `p` (empty for null).
#[inline]
fn chain<'a>(p: *const SrcLoc, n: u32) -> &'a [SrcLoc] {
    if p.is_null() || n == 0 {
        return &[];
    }
    // SAFETY: the pass emits `n` consecutive SrcLocs.
    unsafe { core::slice::from_raw_parts(p, n as usize) }
}

/// A module's string table while it is written: descriptor string pointer → id.
struct Strings {
    map: PtrMap,
    /// False when the map could not be sized: every string is then `NONE`.
    ok: bool,
}

impl Strings {
    /// The string at `p` into the module's table, once (empty strings stay `NONE`).
    fn intern<O: Out>(&mut self, w: &mut Writer<O>, p: *const libc::c_char) {
        if !self.ok || p.is_null() || self.map.get(p as usize).is_some() {
            return;
        }
        let b = text(p);
        if b.is_empty() {
            return;
        }
        let id = w.string(b);
        if id != NONE && !self.map.insert(p as usize, id) {
            self.ok = false;
        }
    }

    fn intern_loc<O: Out>(&mut self, w: &mut Writer<O>, l: &SrcLoc) {
        self.intern(w, l.function);
        self.intern(w, l.linkage);
        self.intern(w, l.file);
    }

    #[inline]
    fn id(&self, p: *const libc::c_char) -> u32 {
        if p.is_null() {
            return NONE;
        }
        self.map.get(p as usize).unwrap_or(NONE)
    }

    #[inline]
    fn loc(&self, l: &SrcLoc) -> rec::Loc {
        rec::Loc {
            function: self.id(l.function),
            linkage: self.id(l.linkage),
            file: self.id(l.file),
            fn_line: l.fn_line,
            line: l.line,
            column: l.column,
        }
    }
}

// ----------------------------------------------------------------------------------
// The record
// ----------------------------------------------------------------------------------

/// The `REJECT_*` code of a refusal.
fn reject_code(r: Reject) -> u16 {
    match r {
        Reject::TooMany => rec::REJECT_TOO_MANY,
        Reject::NullName => rec::REJECT_NULL_NAME,
        Reject::EmptyName => rec::REJECT_EMPTY_NAME,
        Reject::NameTooLong => rec::REJECT_NAME_TOO_LONG,
        Reject::BadCharacter => rec::REJECT_BAD_CHARACTER,
        Reject::NullAddress => rec::REJECT_NULL_ADDRESS,
        Reject::ZeroSize => rec::REJECT_ZERO_SIZE,
        Reject::BadRange => rec::REJECT_BAD_RANGE,
    }
}

/// The EXIT record of a report's exit (codes as the process's exit status shows them,
/// as in the JSON report).
pub fn exit_of(e: Exit) -> rec::Exit {
    match e {
        Exit::Code(c) => rec::Exit::Normal(c & 0xff),
        Exit::Signal(s) => rec::Exit::Signal(s),
        Exit::Immediate(c) => rec::Exit::Immediate(c & 0xff),
        Exit::Exec => rec::Exit::Exec,
        Exit::Running => rec::Exit::Running,
    }
}

/// A registered module while the record is written.
#[derive(Clone, Copy)]
struct Module {
    desc: *const ModuleDesc,
    /// Its records in the flat per-branch table (`branch_index`).
    branches_at: u32,
}

impl Module {
    fn desc(&self) -> &ModuleDesc {
        // SAFETY: registered descriptors are valid for the whole process.
        unsafe { &*self.desc }
    }
    fn funcs(&self) -> &[FuncDesc] {
        let m = self.desc();
        if m.funcs.is_null() {
            return &[];
        }
        // SAFETY: the module has n_funcs descriptors.
        unsafe { core::slice::from_raw_parts(m.funcs, m.n_funcs as usize) }
    }
    fn loops(&self) -> &[LoopDesc] {
        let m = self.desc();
        if m.loops.is_null() {
            return &[];
        }
        // SAFETY: the module has n_loops descriptors.
        unsafe { core::slice::from_raw_parts(m.loops, m.n_loops as usize) }
    }
    /// Pointers to its branch records (updated concurrently: read their dynamic fields
    /// atomically).
    fn branch(&self, i: u32) -> Option<*const BranchRec> {
        let m = self.desc();
        if m.branches.is_null() || i >= m.n_branches {
            return None;
        }
        // SAFETY: i < n_branches.
        Some(unsafe { m.branches.add(i as usize) })
    }
    fn n_branches(&self) -> u32 {
        if self.desc().branches.is_null() {
            0
        } else {
            self.desc().n_branches
        }
    }
}

/// The successors of branch record `b` (empty for none).
fn successors<'a>(b: &BranchRec) -> &'a [SiteDesc] {
    if b.succ.is_null() || b.n_succ == 0 {
        return &[];
    }
    // SAFETY: the pass emits `n_succ` consecutive SiteDescs.
    unsafe { core::slice::from_raw_parts(b.succ, b.n_succ as usize) }
}

/// Everything the record's sections share while it is written.
struct Tables {
    modules: MmapVec<Module>,
    funcs: Spans,
    loops: Spans,
    sites: Sites,
    /// Global BRANCH index of every branch record (`NONE`: not written), modules after
    /// each other.
    branch_index: MmapVec<u32>,
    /// Loops in flight: the snapshot's entry, its thread ordinal and node index in the
    /// record (`NONE` until its node is written).
    flying: MmapVec<(crate::inflight::Entry, u32, u32)>,
    /// Scratch memory that ran out: what was lost.
    lost: u64,
    /// Calling contexts of unregistered functions, skipped with their subtrees.
    unknown_contexts: u64,
    /// Loop records of unregistered loops, skipped.
    unknown_loops: u64,
}

/// Writes the record of `inp` (the JSON report's inputs) into `out`; the loops in flight
/// come from [`crate::inflight`]'s current snapshot. Never allocates from malloc.
pub fn write_record<O: Out>(inp: &Inputs<'_>, out: O) -> rec::Finished<O> {
    let mut w = Writer::new(out);
    let start = start_info();
    write_run(&mut w, inp, start);

    let mut t = Tables {
        modules: MmapVec::new(),
        funcs: Spans::new(),
        loops: Spans::new(),
        sites: Sites {
            list: MmapVec::new(),
            map: PtrMap::new(),
            lost: 0,
        },
        branch_index: MmapVec::new(),
        flying: MmapVec::new(),
        lost: 0,
        unknown_contexts: 0,
        unknown_loops: 0,
    };
    index_modules(&mut t, inp.modules);
    crate::inflight::with_entries(|entries| {
        for &e in entries {
            if !t.flying.push((e, NONE, NONE)) {
                t.lost += 1;
            }
        }
    });
    collect_sites(&mut t, inp.threads);

    let mut maps = MmapVec::<u8>::new();
    if !read_maps(&mut maps) {
        maps.truncate(0);
    }
    let mut strings = Strings {
        map: PtrMap::new(),
        ok: true,
    };
    let mut build_ids = BuildIds::new();
    for mi in 0..t.modules.len() {
        let maps = maps.as_slice();
        write_module(
            &mut w,
            &mut t,
            mi as u32,
            &mut strings,
            maps,
            &mut build_ids,
        );
    }
    drop(maps);
    drop(strings);

    write_params(&mut w, inp);
    let mut stack = MmapVec::new();
    let mut folded = MmapVec::new();
    for (ordinal, &ts) in inp.threads.iter().enumerate() {
        // SAFETY: thread states are never freed.
        let ts = unsafe { &*ts };
        write_thread(&mut w, &mut t, ts, ordinal as u32, &mut stack, &mut folded);
    }
    drop(stack);
    drop(folded);
    write_inflight(&mut w, &mut t);
    write_branches(&mut w, &t);
    write_trailer(&mut w, inp, start, &t);
    w.finish()
}

fn write_run<O: Out>(w: &mut Writer<O>, inp: &Inputs<'_>, start: &StartInfo) {
    w.begin_run(
        &rec::RunInfo {
            pid: inp.pid,
            abi_version: ABI_VERSION,
            mode: rec::MODE_TAINT,
            start_time_ns: start.start_time_ns,
        },
        inp.name,
        inp.path,
        crate::VERSION.as_bytes(),
    );
    for &a in inp.argv {
        if !a.is_null() {
            w.arg(text(a));
        }
    }
    if !start.mpi_rank.is_empty() {
        w.attr(b"mpi.rank", start.mpi_rank);
    }
    if !start.mpi_size.is_empty() {
        w.attr(b"mpi.size", start.mpi_size);
    }
    // SAFETY: an all-zero utsname is valid; uname fills it (a system call).
    let mut u: libc::utsname = unsafe { core::mem::zeroed() };
    // SAFETY: valid out pointer.
    if unsafe { libc::uname(&mut u) } == 0 {
        // SAFETY: uname NUL-terminates the field.
        let host = unsafe { cstr(u.nodename.as_ptr()) };
        if !host.is_empty() {
            w.attr(b"hostname", host);
        }
    }
}

/// The module table and the address spans of every module's descriptor arrays, with
/// the global bases the writer will give them (every function and loop is written).
fn index_modules(t: &mut Tables, modules: &[*const ModuleDesc]) {
    let (mut fb, mut lb) = (0u32, 0u32);
    for (mi, &m) in modules.iter().enumerate() {
        let module = Module {
            desc: m,
            branches_at: t.branch_index.len() as u32,
        };
        let (nf, nl, nb) = (
            module.funcs().len() as u32,
            module.loops().len() as u32,
            module.n_branches(),
        );
        let md = module.desc();
        let mut ok = t.modules.push(module);
        ok &= t.funcs.add(md.funcs, nf, mi as u32, fb);
        ok &= t.loops.add(md.loops, nl, mi as u32, lb);
        ok &= t
            .branch_index
            .resize(t.branch_index.len() + nb as usize, NONE);
        if !ok {
            t.lost += 1;
        }
        fb = fb.saturating_add(nf);
        lb = lb.saturating_add(nl);
    }
    t.funcs.sort();
    t.loops.sort();
}

/// The pre-pass: every site a branch names and every site a tree reached, in the module
/// of its code (see the module comment).
fn collect_sites(t: &mut Tables, threads: &[*const ThreadState]) {
    let n_branches = t.branch_index.len();
    let _ = t.sites.map.reset(1024 + n_branches * 3);
    for mi in 0..t.modules.len() as u32 {
        let Some(&m) = t.modules.as_slice().get(mi as usize) else {
            continue;
        };
        for i in 0..m.n_branches() {
            let Some(b) = m.branch(i) else {
                continue;
            };
            // SAFETY: a registered record; its static fields are immutable.
            let b = unsafe { &*b };
            t.sites.add(b.site, mi);
            for s in successors(b) {
                t.sites.add(s, mi);
            }
        }
    }
    let mut stack: MmapVec<*const Node> = MmapVec::new();
    for &ts in threads {
        // SAFETY: thread states are never freed.
        let ts = unsafe { &*ts };
        stack.truncate(0);
        if !stack.push(&ts.root) {
            t.lost += 1;
        }
        while let Some(n) = stack.pop() {
            // SAFETY: nodes are never freed.
            let node = unsafe { &*n };
            let caller = if node.is_root() {
                None
            } else {
                t.funcs.find(node.func).map(|(m, _)| m)
            };
            let (funcs, sites, lost) = (&t.funcs, &mut t.sites, &mut t.lost);
            node.for_each_folded(|site, f, _| {
                if let (Some(m), Some(_)) = (caller, funcs.find(f)) {
                    sites.add(site, m);
                }
            });
            let pushed = stack.len();
            node.for_each_child(|site, f, child| {
                if funcs.find(f).is_none() {
                    return;
                }
                if let Some(m) = caller {
                    sites.add(site, m);
                }
                if !stack.push(child) {
                    *lost += 1;
                }
            });
            in_allocation_order(stack.as_mut_slice().get_mut(pushed..), |&n| n as usize);
        }
    }
    t.sites.finish();
    t.lost += t.sites.lost;
}

/// Orders the children just pushed on a walk's stack so that the lowest address is
/// popped first: the arena hands out each chunk's memory in increasing addresses, so
/// the walk then reads a tree of millions of nodes (hundreds of MB) mostly forward
/// instead of jumping around (a child table's order is its hash order). With the
/// prefetch in `Node::for_each_folded`, this took the record of a 2M-node tree from
/// 0.7–1.0 s to 0.4–0.6 s on a loaded machine (`docs/internal/record.md`, "Measured").
fn in_allocation_order<T>(pushed: Option<&mut [T]>, addr: impl Fn(&T) -> usize) {
    if let Some(p) = pushed {
        if p.len() > 1 {
            p.sort_unstable_by_key(|x| core::cmp::Reverse(addr(x)));
        }
    }
}

/// One MODULE section: strings, functions, loops, sites, branches.
fn write_module<O: Out>(
    w: &mut Writer<O>,
    t: &mut Tables,
    mi: u32,
    strings: &mut Strings,
    maps: &[u8],
    build_ids: &mut BuildIds,
) {
    let Some(&m) = t.modules.as_slice().get(mi as usize) else {
        return;
    };
    let md = m.desc();
    let (s0, s1) = t.sites.range_of(mi);
    let sites = t
        .sites
        .list
        .as_slice()
        .get(s0 as usize..s1 as usize)
        .unwrap_or(&[]);

    let build_id = build_ids.of(maps, m.desc as usize);
    w.begin_module(
        &rec::ModuleInfo {
            flags: md.flags,
            abi_version: md.abi_version,
        },
        text(md.source_file),
        object_of(maps, m.desc as usize),
        build_id.as_ref().map_or(&[], BuildId::as_bytes),
    );

    // Strings, sized for every string the tables below name.
    let mut bound = m.funcs().len() * 3;
    for d in m.loops() {
        bound += chain(d.chain, d.n_chain).len() * 3 + 2;
    }
    for s in sites {
        let sd = site_desc(s);
        bound += chain(sd.chain, sd.n_chain).len() * 3;
    }
    strings.ok = strings.map.reset(bound);
    if !strings.ok {
        t.lost += 1;
    }
    for f in m.funcs() {
        strings.intern_loc(w, &f.loc);
    }
    for d in m.loops() {
        for l in chain(d.chain, d.n_chain) {
            strings.intern_loc(w, l);
        }
        strings.intern(w, d.routine);
        strings.intern(w, d.cost);
    }
    for s in sites {
        let sd = site_desc(s);
        for l in chain(sd.chain, sd.n_chain) {
            strings.intern_loc(w, l);
        }
    }

    let strings = &*strings;
    for f in m.funcs() {
        w.func(&rec::Func {
            loc: strings.loc(&f.loc),
            flags: f.flags,
            n_loops: f.n_loops,
        });
    }
    for d in m.loops() {
        w.loop_(
            &rec::Loop {
                flags: d.flags,
                const_trip_count: d.const_trip_count,
                parent: t.loops.local_in(d.parent, mi),
                func: t.funcs.local_in(d.func, mi),
                routine: strings.id(d.routine),
                cost: strings.id(d.cost),
            },
            chain(d.chain, d.n_chain).iter().map(|l| strings.loc(l)),
        );
    }
    for s in sites {
        let sd = site_desc(s);
        w.site(
            &rec::Site {
                flags: sd.flags,
                loop_: t.loops.local_in(sd.loop_, mi),
            },
            chain(sd.chain, sd.n_chain).iter().map(|l| strings.loc(l)),
        );
    }
    let local_site = |p: *const SiteDesc| -> u32 {
        match t.sites.global(p) {
            g if g != NONE && g >= s0 && g < s1 => g - s0,
            _ => NONE,
        }
    };
    // Global branch indices: those of the modules before, then this one's in the order
    // written (a record whose site was not collected cannot be written).
    let mut next_branch = w.totals().3;
    for i in 0..m.n_branches() {
        let Some(b) = m.branch(i) else {
            continue;
        };
        // SAFETY: a registered record; its static fields are immutable.
        let b = unsafe { &*b };
        let site = local_site(b.site);
        let succ = successors(b);
        if site == NONE
            || succ
                .iter()
                .any(|s| local_site(s as *const SiteDesc) == NONE)
        {
            continue;
        }
        if w.branch(
            &rec::Branch {
                flags: b.flags,
                site,
            },
            succ.iter().map(|s| local_site(s as *const SiteDesc)),
        ) {
            if let Some(slot) = t
                .branch_index
                .as_mut_slice()
                .get_mut((m.branches_at + i) as usize)
            {
                *slot = next_branch;
            }
            next_branch = next_branch.saturating_add(1);
        }
    }
}

fn write_params<O: Out>(w: &mut Writer<O>, inp: &Inputs<'_>) {
    let gave_up = crate::split::gave_up_at();
    w.begin_params(
        &rec::LabelLayout {
            shift: if crate::split::on() {
                CTRL_SPLIT_SHIFT as u16
            } else {
                0
            },
            flags: if gave_up.is_some() {
                rec::LAYOUT_SPLIT_GIVEN_UP
            } else {
                0
            },
        },
        gave_up.unwrap_or(b""),
    );
    let reg = inp.params;
    for i in 0..reg.len() {
        if let Some(p) = reg.get(i) {
            w.param(
                &rec::ParamInfo {
                    bit: p.bit,
                    registrations: p.registrations,
                    flags: if p.value_changed {
                        rec::PARAM_VALUE_CHANGED
                    } else {
                        0
                    } | if p.implicit { rec::PARAM_IMPLICIT } else { 0 },
                    value: p.value,
                },
                p.name,
            );
        }
    }
    // Oldest first, as the report lists them.
    let mut rejected: MmapVec<*const crate::params::Rejected> = MmapVec::new();
    reg.for_each_rejected(|r| {
        rejected.push(r);
    });
    for &r in rejected.as_slice().iter().rev() {
        // SAFETY: leaked, immutable except for the atomic count.
        let r = unsafe { &*r };
        w.rejected(
            &rec::RejectedInfo {
                reason: reject_code(r.reason()),
                count: r.count(),
            },
            r.name(),
        );
    }
}

/// One THREAD section: the tree in preorder (explicit stack of (node, parent index)),
/// each node's raw loop records after it, then the folded calls and the recursive
/// functions.
fn write_thread<O: Out>(
    w: &mut Writer<O>,
    t: &mut Tables,
    ts: &ThreadState,
    ordinal: u32,
    stack: &mut MmapVec<(*const Node, u32)>,
    folded: &mut MmapVec<rec::Folded>,
) {
    w.begin_thread(&rec::ThreadInfo {
        tid: ts.tid,
        index: ts.index,
        flags: if thread_alive(ts.tid) {
            rec::THREAD_ALIVE
        } else {
            0
        },
    });
    stack.truncate(0);
    folded.truncate(0);
    if !stack.push((&ts.root as *const Node, NONE)) {
        t.lost += 1;
    }
    let any_flying = !t.flying.is_empty();
    while let Some((n, parent)) = stack.pop() {
        // SAFETY: nodes are never freed; their identity fields are immutable.
        let node = unsafe { &*n };
        let record = if node.is_root() {
            rec::Node::ROOT
        } else {
            rec::Node {
                parent,
                site: t.sites.global(node.site),
                // Checked before the node was pushed.
                func: t.funcs.global(node.func).unwrap_or(NONE),
            }
        };
        let idx = w.node(&record);
        if idx == NONE {
            continue;
        }
        let (loops, unknown_loops) = (&t.loops, &mut t.unknown_loops);
        node.for_each_loop_raw(|l, label, executions| match loops.global(l) {
            Some(g) => {
                w.loop_record(&rec::LoopRecord {
                    loop_: g,
                    label,
                    flags: 0,
                    executions,
                });
            }
            None => *unknown_loops += 1,
        });
        if any_flying {
            let flying = t.flying.as_mut_slice();
            let at = n as usize;
            let mut i = flying.partition_point(|(e, _, _)| e.node < at);
            while let Some(slot) = flying.get_mut(i) {
                if slot.0.node != at {
                    break;
                }
                slot.1 = ordinal;
                slot.2 = idx;
                i += 1;
            }
        }
        let (funcs, sites, lost, unknown) =
            (&t.funcs, &t.sites, &mut t.lost, &mut t.unknown_contexts);
        node.for_each_folded(|site, f, _| {
            if let Some(g) = funcs.global(f) {
                if !folded.push(rec::Folded {
                    node: idx,
                    site: sites.global(site),
                    func: g,
                }) {
                    *lost += 1;
                }
            }
        });
        let pushed = stack.len();
        node.for_each_child(|_, f, child| {
            if funcs.find(f).is_none() {
                *unknown += 1;
                return;
            }
            if !stack.push((child as *const Node, idx)) {
                *lost += 1;
            }
        });
        in_allocation_order(stack.as_mut_slice().get_mut(pushed..), |&(n, _)| n as usize);
    }
    for f in folded.as_slice() {
        w.folded(f);
    }
    let funcs = &t.funcs;
    ts.for_each_recursive(|f| {
        if let Some(g) = funcs.global(f) {
            w.recursive(g);
        }
    });
}

/// The IN-FLIGHT section (if any loop was in flight), by thread and depth.
fn write_inflight<O: Out>(w: &mut Writer<O>, t: &mut Tables) {
    let mut entries: MmapVec<rec::InFlight> = MmapVec::new();
    for &(e, thread, node) in t.flying.as_slice() {
        if node == NONE {
            continue;
        }
        let Some(g) = t.loops.global(e.desc as *const LoopDesc) else {
            t.unknown_loops += 1;
            continue;
        };
        if !entries.push(rec::InFlight {
            thread,
            depth: e.depth,
            node,
            loop_: g,
            label: e.label,
        }) {
            t.lost += 1;
        }
    }
    if entries.is_empty() {
        return;
    }
    entries
        .as_mut_slice()
        .sort_unstable_by_key(|e| (e.thread, e.depth));
    w.begin_inflight();
    for e in entries.as_slice() {
        w.inflight(e);
    }
}

/// The BRANCHES section: the records with something in them (if any).
fn write_branches<O: Out>(w: &mut Writer<O>, t: &Tables) {
    let mut begun = false;
    for m in t.modules.as_slice() {
        for i in 0..m.n_branches() {
            let (Some(b), Some(&g)) = (
                m.branch(i),
                t.branch_index.as_slice().get((m.branches_at + i) as usize),
            ) else {
                continue;
            };
            if g == NONE {
                continue;
            }
            // SAFETY: a live record, updated concurrently with atomic ORs and relaxed
            // stores: read the same way.
            let (label, taken, executions) = unsafe {
                (
                    AtomicU16::from_ptr(core::ptr::addr_of!((*b).label) as *mut u16).load(Relaxed),
                    AtomicU64::from_ptr(core::ptr::addr_of!((*b).taken) as *mut u64).load(Relaxed),
                    AtomicU64::from_ptr(core::ptr::addr_of!((*b).executions) as *mut u64)
                        .load(Relaxed),
                )
            };
            if label == 0 && taken == 0 && executions == 0 {
                continue;
            }
            if !begun {
                w.begin_branches();
                begun = true;
            }
            w.branch_state(&rec::BranchState {
                branch: g,
                label,
                flags: 0,
                taken,
                executions,
            });
        }
    }
}

fn write_trailer<O: Out>(w: &mut Writer<O>, inp: &Inputs<'_>, start: &StartInfo, t: &Tables) {
    w.begin_trailer(exit_of(inp.exit));
    for &(k, v) in start.options() {
        w.attr(k, v);
    }
    let mut warn = |code: u32, value: u64, args: core::fmt::Arguments<'_>| {
        let mut b = StackBuf::<1024>::new();
        let _ = b.write_fmt(args);
        w.warning(&rec::Warning { code, value }, b.as_bytes());
    };
    if inp.context_oom {
        warn(
            rec::WARN_CONTEXT_OOM,
            0,
            format_args!("the runtime ran out of memory for calling contexts: some loop executions were not recorded"),
        );
    }
    if inp.rejected_modules {
        let mut rej: MmapVec<*const crate::modules::RejectedModule> = MmapVec::new();
        crate::modules::for_each_rejected(|r| {
            rej.push(r);
        });
        for &r in rej.as_slice().iter().rev() {
            // SAFETY: leaked, immutable.
            let r = unsafe { &*r };
            if r.bad_magic {
                warn(
                    rec::WARN_REJECTED_MODULE,
                    0,
                    format_args!("a module descriptor with a bad magic number was ignored"),
                );
            } else {
                warn(
                    rec::WARN_REJECTED_MODULE,
                    r.abi_version as u64,
                    format_args!("{}", Lossy(r.source)),
                );
            }
        }
    }
    if crate::denormal::mode::mixed() {
        let (taint, denormal) = crate::denormal::mode::sources();
        warn(
            rec::WARN_MIXED_MODES,
            0,
            format_args!(
                "'{}' was built in taint mode and '{}' in denormal mode",
                Lossy(taint),
                Lossy(denormal)
            ),
        );
    }
    if t.unknown_contexts > 0 {
        warn(
            rec::WARN_UNKNOWN_CONTEXTS,
            t.unknown_contexts,
            format_args!("calling contexts of functions of modules that were not registered were skipped, with everything they called"),
        );
    }
    if t.unknown_loops > 0 {
        warn(
            rec::WARN_UNKNOWN_LOOPS,
            t.unknown_loops,
            format_args!("loop records of loops of modules that were not registered were skipped"),
        );
    }
    if t.lost > 0 {
        warn(
            rec::WARN_WRITER_OOM,
            t.lost,
            format_args!(
                "the runtime ran out of scratch memory while writing this record: it is incomplete"
            ),
        );
    }
}

mod objects;
#[cfg(test)]
mod tests;

#[cfg(test)]
mod file_name_tests {
    use super::*;

    fn named(p: &str, rank: u32, pid: i32, suffix: &str) -> Result<String, i32> {
        let mut b = StackBuf::<4096>::new();
        b.push_bytes(p.as_bytes());
        insert_rank(&mut b, rank, pid, suffix)
            .map(|()| String::from_utf8(b.as_bytes().to_vec()).unwrap())
    }

    #[test]
    fn the_rank_goes_before_the_pid() {
        assert_eq!(
            named("/o/app.77.taintprof.rec", 3, 77, "taintprof.rec").unwrap(),
            "/o/app.rank3.77.taintprof.rec"
        );
        assert_eq!(
            named("./a.b.before-exec.9.denormal.rec", 0, 9, "denormal.rec").unwrap(),
            "./a.b.before-exec.rank0.9.denormal.rec"
        );
        // Not a name of `output_path`: unchanged.
        assert_eq!(
            named("/o/app.78.taintprof.rec", 3, 77, "taintprof.rec").unwrap(),
            "/o/app.78.taintprof.rec"
        );
        let long = format!("/{}.1.taintprof.rec", "x".repeat(4070));
        assert_eq!(
            named(&long, 12345, 1, "taintprof.rec"),
            Err(libc::ENAMETOOLONG)
        );
    }

    #[test]
    fn only_decimal_ranks_name_files() {
        assert_eq!(file_rank(b"0"), Some(0));
        assert_eq!(file_rank(b"007"), Some(7));
        assert_eq!(file_rank(b"4294967295"), Some(u32::MAX));
        for bad in [
            &b""[..],
            b"-1",
            b"1/2",
            b"4294967296",
            b" 1",
            b"12345678901",
        ] {
            assert_eq!(file_rank(bad), None, "{:?}", bad);
        }
    }
}
