//! The time record: what a `--tp-mode=time` process writes at exit, on fatal signals,
//! `_exit` and `exec` (`<prog>[.rank<R>].<pid>.taintprof-time.rec`, `rt/src/time/`);
//! `taintprof-model` reads it into a time profile (`model/src/time.rs`,
//! `docs/time-mode.md`).
//!
//! The framing is the taint and denormal records' (a 16-byte header, then `tag u8 |
//! len ULEB128 | body` records, integers little-endian, unknown tags and unknown
//! trailing bytes of a known body skipped), with its own magic number; one flat
//! sequence of records closed by an END that counts them.
//!
//! ```text
//!  header  := 89 'T' 'P' 'T' 'I' 'M' 0d 0a | major u16 | minor u16 | 0d 0c 0b 0a
//!  RUN      {pid i32, threads u32, exit kind u16, 0 u16, exit code i32, wall_ns u64}
//!  NAME, PATH, VERSION, ARG*                       bytes
//!  PARAM*   {value_kind u16, flags u16, 0 u32, value u64} name   (registration order)
//!  FUNC*    {line u32, name_len u32, linkage_len u32} name linkage file
//!           (a function's id is the number of FUNCs before it)
//!  LOOP*    {func u32, line u32, column u32} file   (id: the number of LOOPs and
//!           BRANCHes before it)
//!  BRANCH*  {func u32, line u32, column u32, side u32, target_line u32, 0 u32} file:
//!           one side of a branch, counted like a loop (id: as a LOOP's); its count
//!           is the activations in which the branch took that side (minor 1)
//!  THREAD   {tid i32, 0 u32}: the NODEs and COUNTs after it, up to the next THREAD
//!  NODE*    {parent u32 (NONE: a root), func u32, visits u64, inclusive_ns u64}
//!           (a node's index is the number of NODEs of its thread before it; a parent
//!           comes before its children)
//!  COUNT*   {node u32, loop u32, iterations u64}
//!  COUNTER* {code u32, 0 u32, value u64}
//!  END      {records u64}                          last
//! ```
//!
//! The writer ([`TmWriter`]) is `no_std` and allocation-free; the reader ([`read`],
//! feature `std`) checks every length and reference.

use crate::format::{Exit, BYTE_ORDER_MARK, MAX_BODY, NONE, TAG_END};
use crate::write::{uleb, Buf, Out};

/// The first 8 bytes of a time record.
pub const TM_MAGIC: [u8; 8] = *b"\x89TPTIM\r\n";
pub const TM_VERSION_MAJOR: u16 = 1;
pub const TM_VERSION_MINOR: u16 = 1;
pub const TM_HEADER_LEN: usize = 16;

pub const TM_TAG_RUN: u8 = 0x10;
pub const TM_TAG_NAME: u8 = 0x11;
pub const TM_TAG_PATH: u8 = 0x12;
pub const TM_TAG_ARG: u8 = 0x13;
pub const TM_TAG_VERSION: u8 = 0x14;
pub const TM_TAG_PARAM: u8 = 0x20;
pub const TM_TAG_FUNC: u8 = 0x30;
pub const TM_TAG_LOOP: u8 = 0x31;
pub const TM_TAG_BRANCH: u8 = 0x32;
pub const TM_TAG_THREAD: u8 = 0x40;
pub const TM_TAG_NODE: u8 = 0x41;
pub const TM_TAG_COUNT: u8 = 0x42;
pub const TM_TAG_COUNTER: u8 = 0x50;

/// PARAM flags: registered by the runtime (MPI's `p`).
pub const TM_PARAM_IMPLICIT: u16 = 1;

/// COUNTER: calling-context nodes that did not fit a thread's arena (their time and
/// visits went to their parent).
pub const TM_COUNT_DROPPED_NODES: u32 = 1;
/// COUNTER: loop counts that did not fit a thread's arena.
pub const TM_COUNT_DROPPED_LOOPS: u32 = 2;
/// COUNTER: exits that matched no frame of the thread's stack (left alone), or popped
/// frames left without their exit (`longjmp`, exceptions).
pub const TM_COUNT_UNMATCHED_EXITS: u32 = 3;
/// COUNTER: frames deeper than a thread's stack (not timed).
pub const TM_COUNT_DEEP_FRAMES: u32 = 4;
/// COUNTER: threads that could not get their state (no memory): not measured.
pub const TM_COUNT_LOST_THREADS: u32 = 5;

/// RUN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TmRun {
    pub pid: i32,
    pub threads: u32,
    pub exit: Exit,
    /// From the runtime's start to the record.
    pub wall_ns: u64,
}

/// The streaming writer of a time record.
pub struct TmWriter<O: Out> {
    out: O,
    bytes: u64,
    failed: bool,
    records: u64,
}

/// What [`TmWriter::finish`] hands back.
pub struct TmFinished<O> {
    pub out: O,
    pub bytes: u64,
    pub ok: bool,
}

impl<O: Out> TmWriter<O> {
    pub fn new(out: O) -> Self {
        let mut w = TmWriter {
            out,
            bytes: 0,
            failed: false,
            records: 0,
        };
        let mut h = Buf::new();
        h.put(&TM_MAGIC)
            .u16(TM_VERSION_MAJOR)
            .u16(TM_VERSION_MINOR)
            .u32(BYTE_ORDER_MARK);
        w.emit(h.bytes());
        w
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

    fn record(&mut self, tag: u8, parts: &[&[u8]]) {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        if len > MAX_BODY {
            return;
        }
        let (l, n) = uleb(len as u32);
        let mut h = [0u8; 6];
        h[0] = tag;
        if let (Some(dst), Some(src)) = (h.get_mut(1..1 + n), l.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.emit(h.get(..1 + n).unwrap_or(&[]));
        for p in parts {
            self.emit(p);
        }
        self.records += 1;
    }

    /// RUN, NAME, PATH, VERSION.
    pub fn run(&mut self, r: &TmRun, name: &[u8], path: &[u8], version: &[u8]) {
        let (k, c) = r.exit.encode();
        let mut b = Buf::new();
        b.i32(r.pid)
            .u32(r.threads)
            .u16(k)
            .u16(0)
            .i32(c)
            .u64(r.wall_ns);
        self.record(TM_TAG_RUN, &[b.bytes()]);
        self.record(TM_TAG_NAME, &[name]);
        self.record(TM_TAG_PATH, &[path]);
        self.record(TM_TAG_VERSION, &[version]);
    }

    pub fn arg(&mut self, a: &[u8]) {
        self.record(TM_TAG_ARG, &[a]);
    }

    /// PARAM: `(value_kind, bits)` as `Value::encode` gives them.
    pub fn param(&mut self, name: &[u8], value_kind: u16, bits: u64, flags: u16) {
        let mut b = Buf::new();
        b.u16(value_kind).u16(flags).u32(0).u64(bits);
        self.record(TM_TAG_PARAM, &[b.bytes(), name]);
    }

    pub fn func(&mut self, name: &[u8], linkage: &[u8], file: &[u8], line: u32) {
        let mut b = Buf::new();
        b.u32(line).u32(name.len() as u32).u32(linkage.len() as u32);
        self.record(TM_TAG_FUNC, &[b.bytes(), name, linkage, file]);
    }

    pub fn loop_(&mut self, func: u32, file: &[u8], line: u32, column: u32) {
        let mut b = Buf::new();
        b.u32(func).u32(line).u32(column);
        self.record(TM_TAG_LOOP, &[b.bytes(), file]);
    }

    /// One side of a branch (shares the loops' ids: see the module comment).
    pub fn branch_side(
        &mut self,
        func: u32,
        file: &[u8],
        (line, column): (u32, u32),
        side: u32,
        target_line: u32,
    ) {
        let mut b = Buf::new();
        b.u32(func)
            .u32(line)
            .u32(column)
            .u32(side)
            .u32(target_line)
            .u32(0);
        self.record(TM_TAG_BRANCH, &[b.bytes(), file]);
    }

    pub fn thread(&mut self, tid: i32) {
        let mut b = Buf::new();
        b.i32(tid).u32(0);
        self.record(TM_TAG_THREAD, &[b.bytes()]);
    }

    pub fn node(&mut self, parent: u32, func: u32, visits: u64, inclusive_ns: u64) {
        let mut b = Buf::new();
        b.u32(parent).u32(func).u64(visits).u64(inclusive_ns);
        self.record(TM_TAG_NODE, &[b.bytes()]);
    }

    pub fn count(&mut self, node: u32, loop_: u32, iterations: u64) {
        let mut b = Buf::new();
        b.u32(node).u32(loop_).u64(iterations);
        self.record(TM_TAG_COUNT, &[b.bytes()]);
    }

    pub fn counter(&mut self, code: u32, value: u64) {
        let mut b = Buf::new();
        b.u32(code).u32(0).u64(value);
        self.record(TM_TAG_COUNTER, &[b.bytes()]);
    }

    /// END; the sink and the bytes written.
    pub fn finish(mut self) -> TmFinished<O> {
        let n = self.records;
        let mut b = Buf::new();
        b.u64(n);
        self.record(TAG_END, &[b.bytes()]);
        TmFinished {
            ok: !self.failed,
            bytes: self.bytes,
            out: self.out,
        }
    }
}

/// `NONE` as a parent: the node is a root of its thread.
pub const TM_ROOT: u32 = NONE;

#[cfg(feature = "std")]
pub use read::*;

#[cfg(feature = "std")]
mod read {
    use super::*;
    use std::path::Path;
    use std::prelude::rust_2021::*;
    use std::vec;

    /// A function of the record.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct TmFunc {
        pub name: String,
        pub linkage: String,
        pub file: String,
        pub line: u32,
    }

    /// A counted loop, or one side of a branch (`side`).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct TmLoop {
        pub func: u32,
        pub file: String,
        pub line: u32,
        pub column: u32,
        /// For a branch side: which one and where it goes.
        pub side: Option<TmSide>,
    }

    /// One side of a branch: its index among the branch's distinct successors, and the
    /// successor's first source line (0: unknown).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct TmSide {
        pub index: u32,
        pub target_line: u32,
    }

    /// A calling-context node.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct TmNode {
        /// Index in its thread's nodes, `TM_ROOT` for a root.
        pub parent: u32,
        pub func: u32,
        pub visits: u64,
        pub inclusive_ns: u64,
        /// (loop id, iterations).
        pub counts: Vec<(u32, u64)>,
    }

    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct TmThread {
        pub tid: i32,
        pub nodes: Vec<TmNode>,
    }

    /// A registered parameter.
    #[derive(Clone, Debug, PartialEq)]
    pub struct TmParam {
        pub name: String,
        pub value: crate::format::Value,
        pub implicit: bool,
    }

    /// A time record, read.
    #[derive(Clone, Debug, PartialEq)]
    pub struct TmRecord {
        pub run: TmRun,
        pub name: String,
        pub path: String,
        pub version: String,
        pub argv: Vec<String>,
        pub params: Vec<TmParam>,
        pub funcs: Vec<TmFunc>,
        pub loops: Vec<TmLoop>,
        pub threads: Vec<TmThread>,
        pub counters: Vec<(u32, u64)>,
    }

    impl TmRecord {
        pub fn counter(&self, code: u32) -> u64 {
            self.counters
                .iter()
                .filter(|c| c.0 == code)
                .map(|c| c.1)
                .sum()
        }
    }

    /// Why a time record cannot be read.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub enum TmError {
        BadMagic,
        NewerVersion { major: u16, minor: u16 },
        Truncated { offset: u64 },
        Corrupt { offset: u64, what: String },
    }

    impl std::fmt::Display for TmError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match self {
                TmError::BadMagic => write!(f, "not a taintprof time record"),
                TmError::NewerVersion { major, minor } => write!(
                    f,
                    "time record format {major}.{minor} is newer than this reader ({TM_VERSION_MAJOR}.x)"
                ),
                TmError::Truncated { offset } => {
                    write!(f, "time record truncated at byte {offset} (no END)")
                }
                TmError::Corrupt { offset, what } => {
                    write!(f, "corrupt time record at byte {offset}: {what}")
                }
            }
        }
    }

    impl std::error::Error for TmError {}

    struct Rd<'a> {
        b: &'a [u8],
        p: usize,
    }

    impl<'a> Rd<'a> {
        fn take(&mut self, n: usize) -> Option<&'a [u8]> {
            let s = self.b.get(self.p..self.p.checked_add(n)?)?;
            self.p += n;
            Some(s)
        }
        fn u16(&mut self) -> Option<u16> {
            self.take(2).map(|s| u16::from_le_bytes([s[0], s[1]]))
        }
        fn u32(&mut self) -> Option<u32> {
            self.take(4)
                .map(|s| u32::from_le_bytes(s.try_into().unwrap()))
        }
        fn i32(&mut self) -> Option<i32> {
            self.u32().map(|v| v as i32)
        }
        fn u64(&mut self) -> Option<u64> {
            self.take(8)
                .map(|s| u64::from_le_bytes(s.try_into().unwrap()))
        }
        fn rest(&mut self) -> &'a [u8] {
            let s = self.b.get(self.p..).unwrap_or(&[]);
            self.p = self.b.len();
            s
        }
    }

    fn text(b: &[u8]) -> String {
        String::from_utf8_lossy(b).into_owned()
    }

    /// Reads a time record.
    pub fn read(bytes: &[u8]) -> Result<TmRecord, TmError> {
        if bytes.len() < TM_HEADER_LEN || !bytes.starts_with(&TM_MAGIC) {
            return Err(
                if bytes.len() < TM_HEADER_LEN && TM_MAGIC.starts_with(bytes) {
                    TmError::Truncated {
                        offset: bytes.len() as u64,
                    }
                } else {
                    TmError::BadMagic
                },
            );
        }
        let major = u16::from_le_bytes([bytes[8], bytes[9]]);
        let minor = u16::from_le_bytes([bytes[10], bytes[11]]);
        if u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) != BYTE_ORDER_MARK {
            return Err(TmError::Corrupt {
                offset: 12,
                what: "a bad byte-order mark".into(),
            });
        }
        if major > TM_VERSION_MAJOR {
            return Err(TmError::NewerVersion { major, minor });
        }
        let mut r = TmRecord {
            run: TmRun {
                pid: 0,
                threads: 0,
                exit: Exit::Unknown(0, 0),
                wall_ns: 0,
            },
            name: String::new(),
            path: String::new(),
            version: String::new(),
            argv: vec![],
            params: vec![],
            funcs: vec![],
            loops: vec![],
            threads: vec![],
            counters: vec![],
        };
        let mut pos = TM_HEADER_LEN;
        let mut records: u64 = 0;
        loop {
            let at = pos as u64;
            let corrupt = |what: &str| TmError::Corrupt {
                offset: at,
                what: what.into(),
            };
            let truncated = TmError::Truncated {
                offset: bytes.len() as u64,
            };
            let Some(&tag) = bytes.get(pos) else {
                return Err(truncated);
            };
            pos += 1;
            let mut len: u64 = 0;
            let mut shift = 0;
            loop {
                let Some(&c) = bytes.get(pos) else {
                    return Err(truncated);
                };
                pos += 1;
                if shift > 28 {
                    return Err(corrupt("a bad length"));
                }
                len |= ((c & 0x7f) as u64) << shift;
                shift += 7;
                if c & 0x80 == 0 {
                    break;
                }
            }
            let Some(body) = bytes.get(pos..pos + len as usize) else {
                return Err(truncated);
            };
            pos += len as usize;
            let mut d = Rd { b: body, p: 0 };
            let short = || corrupt("a record shorter than its fields");
            match tag {
                TAG_END => {
                    let n = d.u64().ok_or_else(short)?;
                    if n != records {
                        return Err(corrupt("END counts another number of records"));
                    }
                    break;
                }
                TM_TAG_RUN => {
                    let pid = d.i32().ok_or_else(short)?;
                    let threads = d.u32().ok_or_else(short)?;
                    let k = d.u16().ok_or_else(short)?;
                    d.u16().ok_or_else(short)?;
                    let c = d.i32().ok_or_else(short)?;
                    let wall_ns = d.u64().ok_or_else(short)?;
                    r.run = TmRun {
                        pid,
                        threads,
                        exit: Exit::decode(k, c),
                        wall_ns,
                    };
                }
                TM_TAG_NAME => r.name = text(d.rest()),
                TM_TAG_PATH => r.path = text(d.rest()),
                TM_TAG_VERSION => r.version = text(d.rest()),
                TM_TAG_ARG => r.argv.push(text(d.rest())),
                TM_TAG_PARAM => {
                    let kind = d.u16().ok_or_else(short)?;
                    let flags = d.u16().ok_or_else(short)?;
                    d.u32().ok_or_else(short)?;
                    let bits = d.u64().ok_or_else(short)?;
                    r.params.push(TmParam {
                        name: text(d.rest()),
                        value: crate::format::Value::decode(kind, bits),
                        implicit: flags & TM_PARAM_IMPLICIT != 0,
                    });
                }
                TM_TAG_FUNC => {
                    let line = d.u32().ok_or_else(short)?;
                    let nl = d.u32().ok_or_else(short)? as usize;
                    let ll = d.u32().ok_or_else(short)? as usize;
                    let name = text(d.take(nl).ok_or_else(short)?);
                    let linkage = text(d.take(ll).ok_or_else(short)?);
                    r.funcs.push(TmFunc {
                        name,
                        linkage,
                        file: text(d.rest()),
                        line,
                    });
                }
                TM_TAG_LOOP => {
                    let func = d.u32().ok_or_else(short)?;
                    let line = d.u32().ok_or_else(short)?;
                    let column = d.u32().ok_or_else(short)?;
                    if func as usize >= r.funcs.len() {
                        return Err(corrupt("a loop of an unknown function"));
                    }
                    r.loops.push(TmLoop {
                        func,
                        file: text(d.rest()),
                        line,
                        column,
                        side: None,
                    });
                }
                TM_TAG_BRANCH => {
                    let func = d.u32().ok_or_else(short)?;
                    let line = d.u32().ok_or_else(short)?;
                    let column = d.u32().ok_or_else(short)?;
                    let index = d.u32().ok_or_else(short)?;
                    let target_line = d.u32().ok_or_else(short)?;
                    d.u32().ok_or_else(short)?;
                    if func as usize >= r.funcs.len() {
                        return Err(corrupt("a branch of an unknown function"));
                    }
                    r.loops.push(TmLoop {
                        func,
                        file: text(d.rest()),
                        line,
                        column,
                        side: Some(TmSide { index, target_line }),
                    });
                }
                TM_TAG_THREAD => {
                    let tid = d.i32().ok_or_else(short)?;
                    r.threads.push(TmThread { tid, nodes: vec![] });
                }
                TM_TAG_NODE => {
                    let parent = d.u32().ok_or_else(short)?;
                    let func = d.u32().ok_or_else(short)?;
                    let visits = d.u64().ok_or_else(short)?;
                    let inclusive_ns = d.u64().ok_or_else(short)?;
                    let nf = r.funcs.len();
                    let Some(t) = r.threads.last_mut() else {
                        return Err(corrupt("a node before any thread"));
                    };
                    if (parent != TM_ROOT && parent as usize >= t.nodes.len())
                        || func as usize >= nf
                    {
                        return Err(corrupt("a node with a bad parent or function"));
                    }
                    t.nodes.push(TmNode {
                        parent,
                        func,
                        visits,
                        inclusive_ns,
                        counts: vec![],
                    });
                }
                TM_TAG_COUNT => {
                    let node = d.u32().ok_or_else(short)? as usize;
                    let lp = d.u32().ok_or_else(short)?;
                    let n = d.u64().ok_or_else(short)?;
                    let nl = r.loops.len();
                    let Some(nd) = r.threads.last_mut().and_then(|t| t.nodes.get_mut(node)) else {
                        return Err(corrupt("a count of an unknown node"));
                    };
                    if lp as usize >= nl {
                        return Err(corrupt("a count of an unknown loop"));
                    }
                    nd.counts.push((lp, n));
                }
                TM_TAG_COUNTER => {
                    let code = d.u32().ok_or_else(short)?;
                    d.u32().ok_or_else(short)?;
                    let v = d.u64().ok_or_else(short)?;
                    r.counters.push((code, v));
                }
                _ => {}
            }
            records += 1;
        }
        Ok(r)
    }

    /// Reads the time record at `path` (errors name the file).
    pub fn read_file(path: &Path) -> Result<TmRecord, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        read(&bytes).map_err(|e| e.to_string())
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::write::IoOut;

        #[test]
        fn round_trip_and_damage() {
            let mut w = TmWriter::new(IoOut(Vec::new()));
            w.run(
                &TmRun {
                    pid: 7,
                    threads: 1,
                    exit: Exit::Normal(0),
                    wall_ns: 1234,
                },
                b"heat",
                b"/x/heat",
                b"0.1",
            );
            w.arg(b"./heat");
            w.param(b"n", 1, 64, 0);
            w.func(b"main", b"main", b"h.c", 41);
            w.func(b"step", b"step", b"h.c", 23);
            w.loop_(1, b"h.c", 24, 3);
            w.branch_side(1, b"h.c", (27, 9), 1, 30);
            w.thread(7);
            w.node(TM_ROOT, 0, 1, 1000);
            w.node(0, 1, 10, 800);
            w.count(1, 0, 620);
            w.count(1, 1, 4);
            w.counter(TM_COUNT_DROPPED_NODES, 0);
            let f = w.finish();
            assert!(f.ok);
            let bytes = f.out.0;
            let r = read(&bytes).unwrap();
            assert_eq!(r.name, "heat");
            assert_eq!(r.argv, vec!["./heat"]);
            assert_eq!(r.params[0].value, crate::format::Value::Int(64));
            assert_eq!(r.funcs[1].name, "step");
            assert_eq!(r.threads[0].nodes[1].counts, vec![(0, 620), (1, 4)]);
            assert_eq!(r.loops[0].side, None);
            assert_eq!(
                (r.loops[1].line, r.loops[1].column, r.loops[1].side),
                (
                    27,
                    9,
                    Some(TmSide {
                        index: 1,
                        target_line: 30
                    })
                )
            );
            assert_eq!(r.run.wall_ns, 1234);
            for cut in [0, 5, 20, bytes.len() - 1] {
                assert!(read(&bytes[..cut]).is_err(), "{cut}");
            }
            assert_eq!(read(b"0123456789abcdefgh"), Err(TmError::BadMagic));
        }
    }
}
