//! The denormal record: what a denormal-mode process writes at exit and on fatal
//! signals (`<prog>.<pid>.denormal.rec`, `rt/src/denormal/record.rs`) instead of an
//! analysed report; `taintprof-model` makes the `taintprof.denormal` report from it
//! (`docs/internal/record.md`, "The denormal record").
//!
//! The framing is the taint record's (a 16-byte header, then `tag u8 | len ULEB128 |
//! body` records, integers little-endian, unknown tags and unknown trailing bytes of a
//! known body skipped), with its own magic number, since the content is another one: no
//! sections, one flat sequence of records closed by an END that counts them (a file
//! without it is incomplete; the runtime writes through a temporary file renamed into
//! place, so a reader normally never sees one).
//!
//! ```text
//!  header  := 89 'T' 'P' 'D' 'E' 'N' 0d 0a | major u16 | minor u16 | 0d 0c 0b 0a
//!  RUN      {pid i32, abi_version u32, threads u32, flags u32, fp_operations u64}
//!  NAME, PATH, VERSION, ARG*                       bytes
//!  EXIT     {kind u16, 0 u16, code i32, loops_in_flight u32}
//!  FPENV    {mxcsr at start u32, at exit u32, flags u32 (FTZ, DAZ, CHANGED)}
//!  STR*     bytes: string id = the number of STRs before it (interleaved, each before
//!           its first use)
//!  MODULE   {n_sites u32, n_blocks u32, flags u32, source str}
//!  SITE*    {function, linkage, file str, line, column u32, op str, ty, lanes,
//!            flags (FPSITE_*), rflags u16} [{executions, operands, operand_ops,
//!            results, loads, stores u64} [created u64 (minor 1)]]: a module's sites
//!            follow it; a site's global index is the number of SITEs before it
//!  OVERFLOW {operands, results, loads, stores u64} [created u64 (minor 1)]: events
//!            without a site slot
//!  ARRAY*   {id u32, kind u32, elem_ty u16, flags u16, elements, rows, cols, reads,
//!            writes u64, alloc function str, alloc file str, alloc line u32} name
//!  PAIR*    {dest u32, src u32, count u64}         (repeated per thread: summed)
//!  CREATOR* {key u64, site u32, 0 u32, count u64}  (repeated per thread: summed)
//!  SNAPSHOT {index u64, fp_operations u64} label
//!  SNAP_ARRAY* {id u32, has_heatmap u32, reads, writes, hm_rows, hm_cols, cell_r,
//!            cell_c u64, n_reads u32, n_writes u32} sparse(reads) sparse(writes):
//!            of the last SNAPSHOT; its heatmap's non-zero cells (row-major index)
//!  ORIGIN_MAP* {dest u32, src u32, elements u64, rows u64, cols u64, n u32, 0 u32}
//!            sparse(counts): the non-zero elements
//!  sparse   := n × {gap ULEB128, value ULEB128}, indices ascending: gap = index − (the
//!            previous index + 1), the first index itself
//!  COUNTER* {code u32, 0 u32, value u64}
//!  END      {records u64}                          last
//! ```
//!
//! The writer ([`DnWriter`]) is `no_std`, allocation-free and holds counters only, like
//! the taint record's; the reader ([`read`], feature `std`) checks every length and
//! reference.

use crate::format::{Exit, BYTE_ORDER_MARK, MAX_BODY, NONE, TAG_END};
use crate::write::{uleb, Buf, Out};

/// The first 8 bytes of a denormal record (the taint record's are `\x89TPREC\r\n`).
pub const DN_MAGIC: [u8; 8] = *b"\x89TPDEN\r\n";
/// Format major version: a reader refuses a newer one.
pub const DN_VERSION_MAJOR: u16 = 1;
/// Format minor version (additions an older reader skips). 1: SITE's and OVERFLOW's
/// `created` count.
pub const DN_VERSION_MINOR: u16 = 1;
/// Bytes of the header: magic, major, minor, byte-order mark.
pub const DN_HEADER_LEN: usize = 16;

pub const DN_TAG_RUN: u8 = 0x10;
pub const DN_TAG_NAME: u8 = 0x11;
pub const DN_TAG_PATH: u8 = 0x12;
pub const DN_TAG_ARG: u8 = 0x13;
pub const DN_TAG_VERSION: u8 = 0x14;
pub const DN_TAG_EXIT: u8 = 0x15;
pub const DN_TAG_FPENV: u8 = 0x16;
pub const DN_TAG_STR: u8 = 0x20;
pub const DN_TAG_MODULE: u8 = 0x21;
pub const DN_TAG_SITE: u8 = 0x22;
pub const DN_TAG_OVERFLOW: u8 = 0x23;
pub const DN_TAG_ARRAY: u8 = 0x30;
pub const DN_TAG_PAIR: u8 = 0x31;
pub const DN_TAG_CREATOR: u8 = 0x32;
pub const DN_TAG_SNAPSHOT: u8 = 0x40;
pub const DN_TAG_SNAP_ARRAY: u8 = 0x41;
pub const DN_TAG_ORIGIN_MAP: u8 = 0x42;
pub const DN_TAG_COUNTER: u8 = 0x50;

pub const DN_RUN_LEN: usize = 24;
pub const DN_EXIT_LEN: usize = 12;
pub const DN_FPENV_LEN: usize = 12;
pub const DN_MODULE_LEN: usize = 16;
pub const DN_SITE_LEN: usize = 32;
/// SITE's counters of minor version 0 (`executions` to `stores`).
pub const DN_SITE_COUNTS_LEN: usize = 48;
/// SITE's `created` after its counters (minor version 1; absent before: 0).
pub const DN_SITE_CREATED_LEN: usize = 8;
pub const DN_OVERFLOW_LEN: usize = 32;
/// OVERFLOW's `created` after its counts (minor version 1; absent before: 0).
pub const DN_OVERFLOW_CREATED_LEN: usize = 8;
pub const DN_ARRAY_FIXED_LEN: usize = 64;
pub const DN_PAIR_LEN: usize = 16;
pub const DN_CREATOR_LEN: usize = 24;
pub const DN_SNAPSHOT_FIXED_LEN: usize = 16;
pub const DN_SNAP_ARRAY_FIXED_LEN: usize = 64;
pub const DN_ORIGIN_MAP_FIXED_LEN: usize = 40;
pub const DN_COUNTER_LEN: usize = 16;

/// `DnRun::flags`: `TAINTPROF_ALL_SITES` was set (list quiet sites too).
pub const DN_RUN_ALL_SITES: u32 = 1;

/// `DnFpEnv::flags`: FTZ was seen set (at start, at the first module or at exit).
pub const DN_FPENV_FTZ: u32 = 1;
/// `DnFpEnv::flags`: DAZ was seen set.
pub const DN_FPENV_DAZ: u32 = 2;
/// `DnFpEnv::flags`: the control bits differ between start and exit.
pub const DN_FPENV_CHANGED: u32 = 4;

/// `DnSite::rflags`: the site has a source position (an inline chain).
pub const DN_SITE_HAS_LOC: u16 = 1;

/// `DnArray::flags`: the record is in use (`READY`); others are kept for their names.
pub const DN_ARRAY_READY: u16 = 1;
/// `DnArray::flags`: the array saw a denormal.
pub const DN_ARRAY_TOUCHED: u16 = 2;
/// `DnArray::flags`: the array is live at the end (stack arrays: in some thread's list).
pub const DN_ARRAY_LIVE: u16 = 4;
/// `DnArray::flags`: the shared record of a variable-length array's activations.
pub const DN_ARRAY_VLA: u16 = 8;
/// `DnArray::flags`: `alloc_*` hold where it was declared or allocated.
pub const DN_ARRAY_ALLOCATED_AT: u16 = 16;

/// COUNTER codes: the runtime's event counters and limits the report's warnings quote.
pub const DN_COUNT_MODULES: u32 = 1;
pub const DN_COUNT_CLAMPED_BLOCKS: u32 = 2;
pub const DN_COUNT_CLAMPED_SITES: u32 = 3;
pub const DN_COUNT_OTHER_ARRAYS: u32 = 4;
pub const DN_COUNT_IMPLICIT_RELEASES: u32 = 5;
pub const DN_COUNT_TABLE_FULL: u32 = 6;
pub const DN_COUNT_STACK_FULL: u32 = 7;
pub const DN_COUNT_DROPPED_CREATORS: u32 = 8;
pub const DN_COUNT_DROPPED_PAIRS: u32 = 9;
pub const DN_COUNT_SNAPSHOTS_SKIPPED: u32 = 10;
pub const DN_COUNT_SNAPSHOTS_FAILED: u32 = 11;
/// The writer's scratch memory ran out: the record is incomplete.
pub const DN_COUNT_INCOMPLETE: u32 = 12;
/// Limit: the most marked arrays with an id.
pub const DN_LIMIT_MAX_ID: u32 = 20;
/// Limit: the most stack-array instances live in one thread.
pub const DN_LIMIT_STACK_CAP: u32 = 21;
/// Limit: `TAINTPROF_SNAPSHOT_MEMORY` in MiB.
pub const DN_LIMIT_SNAPSHOT_MEMORY_MIB: u32 = 22;

/// RUN.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DnRun {
    pub pid: i32,
    pub abi_version: u32,
    /// Threads that ran instrumented code.
    pub threads: u32,
    /// `DN_RUN_*`.
    pub flags: u32,
    /// FP operations executed (block counts weighted by the sites' lanes).
    pub fp_operations: u64,
}

/// FPENV: MXCSR at start and at exit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DnFpEnv {
    pub start: u32,
    pub end: u32,
    /// `DN_FPENV_*`.
    pub flags: u32,
}

/// MODULE.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DnModule {
    pub n_sites: u32,
    pub n_blocks: u32,
    pub flags: u32,
    /// Source file (string id).
    pub source: u32,
}

/// A site's counters, summed over threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DnCounts {
    /// Block count × lanes.
    pub executions: u64,
    pub operands: u64,
    /// Lanes with at least one denormal operand.
    pub operand_ops: u64,
    pub results: u64,
    pub loads: u64,
    pub stores: u64,
    /// Result lanes that were denormal while no operand of the lane was: the site
    /// *created* the denormal from normal values (`taintprof_abi::DN_OP_CREATED`).
    /// Minor version 1; 0 in older records.
    pub created: u64,
}

impl DnCounts {
    pub fn is_zero(&self) -> bool {
        *self == DnCounts::default()
    }
}

/// SITE: one `FpSiteDesc` (the last entry of its inline chain is its position).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DnSite {
    pub function: u32,
    pub linkage: u32,
    pub file: u32,
    pub line: u32,
    pub column: u32,
    pub op: u32,
    /// `FP_*` element type.
    pub ty: u16,
    pub lanes: u16,
    /// `FPSITE_*`.
    pub flags: u16,
    /// `DN_SITE_*`.
    pub rflags: u16,
    pub counts: DnCounts,
}

/// OVERFLOW: denormal events counted in no site's slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DnOverflow {
    pub operands: u64,
    pub results: u64,
    pub loads: u64,
    pub stores: u64,
    /// Created results (see [`DnCounts::created`]); 0 in records before minor 1.
    pub created: u64,
}

/// ARRAY: a marked-array record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DnArray {
    pub id: u32,
    /// `ARRAY_*` kind.
    pub kind: u32,
    pub elem_ty: u16,
    /// `DN_ARRAY_*`.
    pub flags: u16,
    pub elements: u64,
    /// `tp_array_shape` (0, 0 if none).
    pub rows: u64,
    pub cols: u64,
    /// Denormal reads and writes so far.
    pub reads: u64,
    pub writes: u64,
    pub alloc_function: u32,
    pub alloc_file: u32,
    pub alloc_line: u32,
}

/// PAIR: denormals stored into `dest` that were loaded from `src`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct DnPair {
    pub dest: u32,
    pub src: u32,
    pub count: u64,
}

/// CREATOR: denormal values of a creator tag (origin array in the top 16 bits, the
/// creator site's address below) that reached memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DnCreator {
    /// The tag as the runtime keeps it (its creator address orders ties).
    pub key: u64,
    /// Global index of the creator site, `NONE` if the address is no registered site.
    pub site: u32,
    pub count: u64,
}

/// SNAPSHOT.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DnSnapshot {
    pub index: u64,
    pub fp_operations: u64,
}

/// SNAP_ARRAY: one array of the last snapshot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DnSnapArray {
    pub id: u32,
    pub has_heatmap: bool,
    pub reads: u64,
    pub writes: u64,
    pub hm_rows: u64,
    pub hm_cols: u64,
    pub cell_r: u64,
    pub cell_c: u64,
}

impl DnSnapArray {
    /// Cells of its heatmap (0 without one).
    pub fn cells(&self) -> usize {
        if self.has_heatmap {
            self.hm_rows.saturating_mul(self.hm_cols) as usize
        } else {
            0
        }
    }
}

/// ORIGIN_MAP: the cumulative per-element origin map of (dest, src).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DnOriginMap {
    pub dest: u32,
    pub src: u32,
    /// Elements of the map.
    pub elements: u64,
    /// `dest`'s shape at the end (0, 0 if none).
    pub rows: u64,
    pub cols: u64,
}

/// What [`DnWriter::finish`] hands back.
pub struct DnFinished<O> {
    pub out: O,
    pub bytes: u64,
    /// False if the sink failed.
    pub ok: bool,
}

/// The streaming writer of a denormal record (no allocation, no unsafe).
pub struct DnWriter<O: Out> {
    out: O,
    bytes: u64,
    failed: bool,
    records: u64,
    strings: u32,
    sites: u32,
}

impl<O: Out> DnWriter<O> {
    /// Starts a record: the header.
    pub fn new(out: O) -> Self {
        let mut w = DnWriter {
            out,
            bytes: 0,
            failed: false,
            records: 0,
            strings: 0,
            sites: 0,
        };
        let mut h = Buf::new();
        h.put(&DN_MAGIC)
            .u16(DN_VERSION_MAJOR)
            .u16(DN_VERSION_MINOR)
            .u32(BYTE_ORDER_MARK);
        w.emit(h.bytes());
        w
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.bytes
    }

    fn emit(&mut self, b: &[u8]) {
        if !self.failed && !b.is_empty() {
            if self.out.write(b) {
                self.bytes += b.len() as u64;
            } else {
                self.failed = true;
            }
        }
    }

    /// Tag and length of a record with a body of `len` bytes; false if too long.
    fn head(&mut self, tag: u8, len: usize) -> bool {
        if len > MAX_BODY {
            return false;
        }
        let (l, n) = uleb(len as u32);
        let mut h = [0u8; 6];
        h[0] = tag;
        if let (Some(dst), Some(src)) = (h.get_mut(1..1 + n), l.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.emit(h.get(..1 + n).unwrap_or(&[]));
        self.records += 1;
        true
    }

    fn record(&mut self, tag: u8, fixed: &[u8], tail: &[u8]) -> bool {
        if !self.head(tag, fixed.len() + tail.len()) {
            return false;
        }
        self.emit(fixed);
        self.emit(tail);
        true
    }

    /// RUN, NAME, PATH, VERSION.
    pub fn run(&mut self, r: &DnRun, name: &[u8], path: &[u8], version: &[u8]) {
        let mut b = Buf::new();
        b.i32(r.pid)
            .u32(r.abi_version)
            .u32(r.threads)
            .u32(r.flags)
            .u64(r.fp_operations);
        self.record(DN_TAG_RUN, b.bytes(), &[]);
        self.record(DN_TAG_NAME, &[], name);
        self.record(DN_TAG_PATH, &[], path);
        self.record(DN_TAG_VERSION, &[], version);
    }

    /// ARG (one per argument, in order).
    pub fn arg(&mut self, a: &[u8]) {
        self.record(DN_TAG_ARG, &[], a);
    }

    /// EXIT.
    pub fn exit(&mut self, e: Exit, loops_in_flight: u32) {
        let (k, c) = e.encode();
        let mut b = Buf::new();
        b.u16(k).u16(0).i32(c).u32(loops_in_flight);
        self.record(DN_TAG_EXIT, b.bytes(), &[]);
    }

    /// FPENV.
    pub fn fpenv(&mut self, f: &DnFpEnv) {
        let mut b = Buf::new();
        b.u32(f.start).u32(f.end).u32(f.flags);
        self.record(DN_TAG_FPENV, b.bytes(), &[]);
    }

    /// STR: the id of the string (`NONE` if it could not be written).
    pub fn string(&mut self, s: &[u8]) -> u32 {
        if self.strings == NONE - 1 || !self.record(DN_TAG_STR, &[], s) {
            return NONE;
        }
        self.strings += 1;
        self.strings - 1
    }

    /// MODULE (its sites follow).
    pub fn module(&mut self, m: &DnModule) {
        let mut b = Buf::new();
        b.u32(m.n_sites).u32(m.n_blocks).u32(m.flags).u32(m.source);
        self.record(DN_TAG_MODULE, b.bytes(), &[]);
    }

    /// SITE: its global index. The counters are written only if one is not zero.
    pub fn site(&mut self, s: &DnSite) -> u32 {
        let mut b = Buf::new();
        b.u32(s.function)
            .u32(s.linkage)
            .u32(s.file)
            .u32(s.line)
            .u32(s.column)
            .u32(s.op)
            .u16(s.ty)
            .u16(s.lanes)
            .u16(s.flags)
            .u16(s.rflags);
        if !s.counts.is_zero() {
            let c = &s.counts;
            b.u64(c.executions)
                .u64(c.operands)
                .u64(c.operand_ops)
                .u64(c.results)
                .u64(c.loads)
                .u64(c.stores)
                .u64(c.created);
        }
        self.record(DN_TAG_SITE, b.bytes(), &[]);
        self.sites += 1;
        self.sites - 1
    }

    /// OVERFLOW.
    pub fn overflow(&mut self, o: &DnOverflow) {
        let mut b = Buf::new();
        b.u64(o.operands)
            .u64(o.results)
            .u64(o.loads)
            .u64(o.stores)
            .u64(o.created);
        self.record(DN_TAG_OVERFLOW, b.bytes(), &[]);
    }

    /// ARRAY with its name.
    pub fn array(&mut self, a: &DnArray, name: &[u8]) {
        let mut b = Buf::new();
        b.u32(a.id)
            .u32(a.kind)
            .u16(a.elem_ty)
            .u16(a.flags)
            .u64(a.elements)
            .u64(a.rows)
            .u64(a.cols)
            .u64(a.reads)
            .u64(a.writes)
            .u32(a.alloc_function)
            .u32(a.alloc_file)
            .u32(a.alloc_line);
        self.record(DN_TAG_ARRAY, b.bytes(), name);
    }

    /// PAIR.
    pub fn pair(&mut self, p: &DnPair) {
        let mut b = Buf::new();
        b.u32(p.dest).u32(p.src).u64(p.count);
        self.record(DN_TAG_PAIR, b.bytes(), &[]);
    }

    /// CREATOR.
    pub fn creator(&mut self, c: &DnCreator) {
        let mut b = Buf::new();
        b.u64(c.key).u32(c.site).u32(0).u64(c.count);
        self.record(DN_TAG_CREATOR, b.bytes(), &[]);
    }

    /// SNAPSHOT with its label (its arrays follow).
    pub fn snapshot(&mut self, s: &DnSnapshot, label: &[u8]) {
        let mut b = Buf::new();
        b.u64(s.index).u64(s.fp_operations);
        self.record(DN_TAG_SNAPSHOT, b.bytes(), label);
    }

    /// Bytes of [`DnWriter::sparse`] for `cells`: (entries, bytes).
    fn sparse_len(cells: impl Iterator<Item = (u64, u32)>) -> (u64, usize) {
        let (mut n, mut bytes, mut next) = (0u64, 0usize, 0u64);
        for (i, v) in cells {
            bytes += uleb64_len(i.wrapping_sub(next)) + uleb64_len(v as u64);
            next = i.wrapping_add(1);
            n += 1;
        }
        (n, bytes)
    }

    /// Writes the non-zero `(index, value)` cells (ascending) as pairs of ULEB128s:
    /// the gap to the index after the previous one, the value.
    fn sparse(&mut self, cells: impl Iterator<Item = (u64, u32)>) {
        let mut chunk = [0u8; 1024];
        let mut k = 0;
        let mut next = 0u64;
        for (i, v) in cells {
            for x in [i.wrapping_sub(next), v as u64] {
                let (b, n) = uleb64(x);
                if let (Some(dst), Some(src)) = (chunk.get_mut(k..k + n), b.get(..n)) {
                    dst.copy_from_slice(src);
                }
                k += n;
            }
            next = i.wrapping_add(1);
            if k + 20 > chunk.len() {
                self.emit(chunk.get(..k).unwrap_or(&[]));
                k = 0;
            }
        }
        self.emit(chunk.get(..k).unwrap_or(&[]));
    }

    /// SNAP_ARRAY: the non-zero cells of `reads` and `writes` (at most
    /// [`DnSnapArray::cells`] each; cells past it are dropped).
    pub fn snap_array(&mut self, a: &DnSnapArray, reads: &[u32], writes: &[u32]) {
        let cells = a.cells();
        fn it(s: &[u32], cells: usize) -> impl Iterator<Item = (u64, u32)> + '_ {
            s.get(..cells.min(s.len()))
                .unwrap_or(&[])
                .iter()
                .enumerate()
                .filter(|&(_, &v)| v != 0)
                .map(|(i, &v)| (i as u64, v))
        }
        let (nr, br) = Self::sparse_len(it(reads, cells));
        let (nw, bw) = Self::sparse_len(it(writes, cells));
        let mut b = Buf::new();
        b.u32(a.id)
            .u32(a.has_heatmap as u32)
            .u64(a.reads)
            .u64(a.writes)
            .u64(a.hm_rows)
            .u64(a.hm_cols)
            .u64(a.cell_r)
            .u64(a.cell_c)
            .u32(nr as u32)
            .u32(nw as u32);
        if !self.head(DN_TAG_SNAP_ARRAY, b.bytes().len() + br + bw) {
            return;
        }
        self.emit(b.bytes());
        self.sparse(it(reads, cells));
        self.sparse(it(writes, cells));
    }

    /// ORIGIN_MAP: `cells` gives (element, count) for the non-zero elements, ascending;
    /// it is walked twice (to count, then to write).
    pub fn origin_map<I>(&mut self, m: &DnOriginMap, cells: I)
    where
        I: Iterator<Item = (u64, u32)> + Clone,
    {
        let (n, bytes) = Self::sparse_len(cells.clone());
        if n > u32::MAX as u64 || !self.head(DN_TAG_ORIGIN_MAP, DN_ORIGIN_MAP_FIXED_LEN + bytes) {
            return;
        }
        let mut b = Buf::new();
        b.u32(m.dest)
            .u32(m.src)
            .u64(m.elements)
            .u64(m.rows)
            .u64(m.cols)
            .u32(n as u32)
            .u32(0);
        self.emit(b.bytes());
        self.sparse(cells);
    }

    /// COUNTER.
    pub fn counter(&mut self, code: u32, value: u64) {
        let mut b = Buf::new();
        b.u32(code).u32(0).u64(value);
        self.record(DN_TAG_COUNTER, b.bytes(), &[]);
    }

    /// END: the record is complete.
    pub fn finish(mut self) -> DnFinished<O> {
        let n = self.records;
        self.record(TAG_END, &n.to_le_bytes(), &[]);
        DnFinished {
            bytes: self.bytes,
            ok: !self.failed,
            out: self.out,
        }
    }
}

/// ULEB128 of `v`: the bytes and how many are used.
pub(crate) fn uleb64(mut v: u64) -> ([u8; 10], usize) {
    let mut b = [0u8; 10];
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

/// Bytes of the ULEB128 of `v`.
fn uleb64_len(v: u64) -> usize {
    (64 - v.leading_zeros()).max(1).div_ceil(7) as usize
}

/// True if `bytes` start like a denormal record.
pub fn is_denormal_record(bytes: &[u8]) -> bool {
    bytes.starts_with(&DN_MAGIC)
}

pub mod grid;

#[cfg(feature = "std")]
pub mod read;

#[cfg(test)]
mod tests;
