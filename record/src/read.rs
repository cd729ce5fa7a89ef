//! The reader (feature `std`): a record's bytes into owned structs, checked.
//!
//! [`read`] wants a complete record; [`read_prefix`] keeps every section that was
//! completed before the bytes end or stop making sense, and says why it stopped. Neither
//! panics on any input: every length, count and index is checked before use, and a
//! problem is an [`Error`] naming the section (its ordinal in the file and its kind)
//! and the byte offset.
//!
//! What is checked when a section's END arrives (a section is kept only if all holds):
//! its record count; string ids, loop parents, functions, sites and branch successors
//! of a module against that module's tables; node parents (smaller index; node 0 the
//! root), functions, sites and loops of a thread against the modules before it;
//! in-flight entries against the threads before them; branch states against the
//! modules. The order of sections: RUN first, modules before everything that refers to
//! them, the trailer last.
//!
//! [`write`] writes an owned record back through the streaming writer (the same bytes,
//! for a record this crate wrote).

use std::collections::HashSet;
use std::fmt;
use std::ops::Range;
use std::path::Path;
use std::prelude::rust_2021::*;
use std::{format, vec};

use crate::format::*;
use crate::write::{Finished, Out, Writer};

/// Why a record cannot be read (or where reading a prefix stopped).
#[derive(Debug)]
pub enum Error {
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// Fewer than [`HEADER_LEN`] bytes.
    TruncatedHeader,
    /// The byte-order marker says the integers are big-endian.
    BigEndian,
    /// A format version this reader does not know.
    NewerVersion { major: u16, minor: u16 },
    /// The bytes end inside section `section` (`kind`), or, with `kind` `None`,
    /// between sections before the trailer.
    Truncated {
        section: u32,
        kind: Option<SectionKind>,
        offset: u64,
    },
    /// Bytes that no writer of this format produces.
    Corrupt {
        section: u32,
        kind: Option<SectionKind>,
        offset: u64,
        what: String,
    },
    /// Reading the file failed.
    Io(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadMagic => write!(f, "not a taintprof record (bad magic number)"),
            Error::TruncatedHeader => write!(f, "the record is truncated inside its file header"),
            Error::BigEndian => write!(
                f,
                "the record was written big-endian, which this reader does not support"
            ),
            Error::NewerVersion { major, minor } => write!(
                f,
                "record format version {major}.{minor} is newer than this reader (version {VERSION_MAJOR}): use the taintprof that wrote it"
            ),
            Error::Truncated {
                section,
                kind: Some(k),
                offset,
            } => write!(
                f,
                "the record is truncated in section {section} ({}) at byte {offset}: the writer stopped before finishing it",
                k.name()
            ),
            Error::Truncated {
                section,
                kind: None,
                offset,
            } => {
                if *section == 0 {
                    write!(f, "the record is truncated at byte {offset}: it has no sections")
                } else {
                    write!(
                        f,
                        "the record is truncated after section {} at byte {offset}: it has no trailer (the writer stopped before the end)",
                        section - 1
                    )
                }
            }
            Error::Corrupt {
                section,
                kind,
                offset,
                what,
            } => write!(
                f,
                "the record is corrupt in section {section} ({}) at byte {offset}: {what}",
                kind.map_or("none", |k| k.name())
            ),
            Error::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

// ---- Owned structs --------------------------------------------------------------------

/// The RUN section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    pub info: RunInfo,
    pub name: Vec<u8>,
    pub path: Vec<u8>,
    pub version: Vec<u8>,
    pub argv: Vec<Vec<u8>>,
    pub attrs: Vec<Attr>,
}

/// A named value of the RUN or TRAILER section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attr {
    pub key: Vec<u8>,
    pub value: Vec<u8>,
}

/// A loop of a module with its inline chain.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LoopEntry {
    pub desc: Loop,
    pub chain: Vec<Loc>,
}

/// A site of a module with its inline chain.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SiteEntry {
    pub site: Site,
    pub chain: Vec<Loc>,
}

/// A branch of a module with its successors' sites (module-local).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BranchEntry {
    pub branch: Branch,
    pub succ: Vec<u32>,
}

/// Where a module's tables start in the record's global index spaces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bases {
    pub funcs: u32,
    pub loops: u32,
    pub sites: u32,
    pub branches: u32,
}

/// One MODULE section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Module {
    pub info: ModuleInfo,
    pub source: Vec<u8>,
    /// Path of the ELF object (empty if unknown).
    pub object: Vec<u8>,
    /// GNU build id of the object (empty if unknown).
    pub build_id: Vec<u8>,
    pub strings: Vec<Vec<u8>>,
    pub funcs: Vec<Func>,
    pub loops: Vec<LoopEntry>,
    pub sites: Vec<SiteEntry>,
    pub branches: Vec<BranchEntry>,
    /// Computed by the reader: where this module's tables start globally.
    pub base: Bases,
    /// Computed by the reader: FNV-1a of the source path, flags and the function, loop
    /// and branch tables with strings resolved (not the sites, which depend on what
    /// ran): equal for the same module in records of the same binary.
    pub content_hash: u64,
}

impl Module {
    /// String `id` ([`NONE`] or out of range: empty).
    pub fn str(&self, id: u32) -> &[u8] {
        self.strings.get(id as usize).map_or(&[][..], |s| &s[..])
    }
}

/// The modules of a record, with lookups by global index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Modules {
    pub list: Vec<Module>,
}

fn find(
    list: &[Module],
    g: u32,
    base: impl Fn(&Module) -> u32,
    len: impl Fn(&Module) -> usize,
) -> Option<(&Module, usize)> {
    let i = list.partition_point(|m| base(m) as usize + len(m) <= g as usize);
    let m = list.get(i)?;
    let local = (g as usize).checked_sub(base(m) as usize)?;
    (local < len(m)).then_some((m, local))
}

impl Modules {
    /// Sizes of the global index spaces.
    pub fn totals(&self) -> Bases {
        self.list.last().map_or(Bases::default(), |m| Bases {
            funcs: m.base.funcs + m.funcs.len() as u32,
            loops: m.base.loops + m.loops.len() as u32,
            sites: m.base.sites + m.sites.len() as u32,
            branches: m.base.branches + m.branches.len() as u32,
        })
    }

    /// Global function `g` and its module.
    pub fn func(&self, g: u32) -> Option<(&Module, &Func)> {
        let (m, i) = find(&self.list, g, |m| m.base.funcs, |m| m.funcs.len())?;
        Some((m, m.funcs.get(i)?))
    }

    /// Global loop `g` and its module.
    pub fn loop_(&self, g: u32) -> Option<(&Module, &LoopEntry)> {
        let (m, i) = find(&self.list, g, |m| m.base.loops, |m| m.loops.len())?;
        Some((m, m.loops.get(i)?))
    }

    /// Global site `g` and its module.
    pub fn site(&self, g: u32) -> Option<(&Module, &SiteEntry)> {
        let (m, i) = find(&self.list, g, |m| m.base.sites, |m| m.sites.len())?;
        Some((m, m.sites.get(i)?))
    }

    /// Global branch `g` and its module.
    pub fn branch(&self, g: u32) -> Option<(&Module, &BranchEntry)> {
        let (m, i) = find(&self.list, g, |m| m.base.branches, |m| m.branches.len())?;
        Some((m, m.branches.get(i)?))
    }
}

/// A registered parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub info: ParamInfo,
    pub name: Vec<u8>,
}

/// A refused registration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    pub info: RejectedInfo,
    pub name: Vec<u8>,
}

/// The PARAMS section (empty if the record has none).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params {
    pub layout: LabelLayout,
    /// The parameter whose registration turned the control-flow split off (or empty).
    pub gave_up_at: Vec<u8>,
    /// In bit order.
    pub params: Vec<Param>,
    pub rejected: Vec<Rejected>,
}

impl Params {
    /// The name of label bit `bit` (folding the control twin), if a parameter has it.
    pub fn name_of_bit(&self, bit: u32) -> Option<&[u8]> {
        let s = self.layout.shift as u32;
        let p = if s > 0 && bit >= s { bit - s } else { bit };
        self.params
            .iter()
            .find(|x| x.info.bit == p)
            .map(|x| &x.name[..])
    }
}

/// One thread's tree: nodes in preorder (parents first), each node's loop records in
/// `loops[loop_start[i]..loop_start[i + 1]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thread {
    pub info: ThreadInfo,
    pub nodes: Vec<Node>,
    /// `nodes.len() + 1` offsets into `loops`.
    pub loop_start: Vec<u32>,
    pub loops: Vec<LoopRecord>,
    pub folded: Vec<Folded>,
    pub recursive: Vec<u32>,
}

impl Default for Thread {
    fn default() -> Self {
        Thread {
            info: ThreadInfo::default(),
            nodes: Vec::new(),
            loop_start: vec![0],
            loops: Vec::new(),
            folded: Vec::new(),
            recursive: Vec::new(),
        }
    }
}

impl Thread {
    /// The range of node `n`'s loop records in `loops`.
    pub fn loop_range(&self, n: u32) -> Range<usize> {
        let a = self.loop_start.get(n as usize).copied().unwrap_or(0) as usize;
        let b = self.loop_start.get(n as usize + 1).copied().unwrap_or(0) as usize;
        a..b.max(a)
    }

    /// Node `n`'s loop records.
    pub fn loops_of(&self, n: u32) -> &[LoopRecord] {
        self.loops.get(self.loop_range(n)).unwrap_or(&[])
    }

    /// The node a folded call lands on: the nearest ancestor-or-self of `f.node` that
    /// runs `f.func`.
    pub fn folded_target(&self, f: &Folded) -> Option<u32> {
        let mut n = f.node;
        for _ in 0..=self.nodes.len() {
            let node = self.nodes.get(n as usize)?;
            if node.func == f.func {
                return Some(n);
            }
            n = node.parent;
        }
        None
    }
}

/// A warning of the trailer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarningEntry {
    pub warning: Warning,
    pub text: Vec<u8>,
}

/// The TRAILER section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trailer {
    pub exit: Exit,
    pub attrs: Vec<Attr>,
    pub warnings: Vec<WarningEntry>,
}

/// A record.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Format version (major, minor).
    pub version: (u16, u16),
    pub run: Run,
    pub modules: Modules,
    pub params: Params,
    /// In the order of their sections (the ordinal of [`InFlight::thread`]).
    pub threads: Vec<Thread>,
    pub inflight: Vec<InFlight>,
    pub branches: Vec<BranchState>,
    /// `None` if the record was cut before its trailer.
    pub trailer: Option<Trailer>,
    /// Sections of kinds this reader does not know, skipped.
    pub skipped_sections: u32,
}

impl Record {
    /// True if the trailer was read (the writer finished).
    pub fn complete(&self) -> bool {
        self.trailer.is_some()
    }

    /// Number of calling-context nodes in all threads.
    pub fn node_count(&self) -> usize {
        self.threads.iter().map(|t| t.nodes.len()).sum()
    }
}

// ---- Parsing ---------------------------------------------------------------------------

/// Reads a complete record.
pub fn read(bytes: &[u8]) -> Result<Record, Error> {
    match read_prefix(bytes)? {
        (r, None) => Ok(r),
        (_, Some(e)) => Err(e),
    }
}

/// Reads a record file (see [`read`]).
pub fn read_file(path: &Path) -> Result<Record, Error> {
    read(&std::fs::read(path).map_err(Error::Io)?)
}

/// Reads what can be read: the sections completed before the bytes end (or before the
/// first corrupt byte), and the error that stopped it (`None` for a complete record).
/// Fails only when not even the RUN section is there.
pub fn read_prefix(bytes: &[u8]) -> Result<(Record, Option<Error>), Error> {
    let header = bytes.get(..HEADER_LEN);
    if bytes.len() < MAGIC.len() || bytes.get(..MAGIC.len()) != Some(&MAGIC[..]) {
        return Err(if bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
            Error::TruncatedHeader
        } else {
            Error::BadMagic
        });
    }
    let Some(h) = header else {
        return Err(Error::TruncatedHeader);
    };
    let mut b = Body::new(h.get(8..).unwrap_or(&[]));
    let (major, minor, bom) = (b.u16(), b.u16(), b.u32());
    if bom == BYTE_ORDER_MARK.swap_bytes() {
        return Err(Error::BigEndian);
    }
    if major > VERSION_MAJOR {
        return Err(Error::NewerVersion { major, minor });
    }
    if bom != BYTE_ORDER_MARK || major == 0 {
        return Err(Error::BadMagic);
    }
    let mut p = Parser {
        bytes,
        pos: HEADER_LEN,
        rec: Record {
            version: (major, minor),
            run: Run::default(),
            modules: Modules::default(),
            params: Params::default(),
            threads: Vec::new(),
            inflight: Vec::new(),
            branches: Vec::new(),
            trailer: None,
            skipped_sections: 0,
        },
        sections: 0,
        have_run: false,
        have_params: false,
        data_seen: false,
        open: None,
        cur: (0, None),
    };
    let stop = p.run().err();
    if !p.have_run {
        return Err(stop.unwrap_or(Error::Truncated {
            section: 0,
            kind: None,
            offset: bytes.len() as u64,
        }));
    }
    Ok((p.rec, stop))
}

/// A little-endian cursor over a record body; reads past the end give 0 (callers check
/// the length first).
struct Body<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Body<'a> {
    fn new(b: &'a [u8]) -> Self {
        Body { b, pos: 0 }
    }
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        if let Some(s) = self.b.get(self.pos..self.pos + N) {
            out.copy_from_slice(s);
        }
        self.pos += N;
        out
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
    fn loc(&mut self) -> Loc {
        Loc {
            function: self.u32(),
            linkage: self.u32(),
            file: self.u32(),
            fn_line: self.u32(),
            line: self.u32(),
            column: self.u32(),
        }
    }
    fn rest(&self) -> &'a [u8] {
        self.b.get(self.pos..).unwrap_or(&[])
    }
}

/// What is being collected for the open section.
enum Staging {
    Run(Run),
    Module(Box<Module>),
    Params(Params),
    Thread(Thread),
    InFlight(Vec<InFlight>),
    Branches(Vec<BranchState>),
    /// The trailer, and whether its EXIT record was read.
    Trailer(Trailer, bool),
    Skip,
}

struct Open {
    records: u64,
    staging: Staging,
}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
    rec: Record,
    /// Sections begun.
    sections: u32,
    have_run: bool,
    have_params: bool,
    /// A section that refers to modules was seen: no module may follow.
    data_seen: bool,
    open: Option<Open>,
    /// The section errors are reported in: the open one, else the next.
    cur: (u32, Option<SectionKind>),
}

/// Body length checks: `$body` must have at least `$n` bytes.
macro_rules! need {
    ($self:ident, $body:expr, $n:expr, $what:literal) => {
        if $body.len() < $n {
            return Err($self.corrupt(concat!("a ", $what, " record is too short")));
        }
    };
}

impl<'a> Parser<'a> {
    fn corrupt(&self, what: impl Into<String>) -> Error {
        let (section, kind) = self.cur;
        Error::Corrupt {
            section,
            kind,
            offset: self.pos as u64,
            what: what.into(),
        }
    }

    fn truncated(&self) -> Error {
        let (section, kind) = self.cur;
        Error::Truncated {
            section,
            kind,
            offset: self.bytes.len() as u64,
        }
    }

    /// The next record: (tag, body); `None` at the end of the bytes.
    fn next(&mut self) -> Result<Option<(u8, &'a [u8])>, Error> {
        let Some(&tag) = self.bytes.get(self.pos) else {
            return Ok(None);
        };
        let mut len: u64 = 0;
        let mut i = self.pos + 1;
        let mut shift = 0;
        loop {
            let Some(&c) = self.bytes.get(i) else {
                return Err(self.truncated());
            };
            i += 1;
            len |= ((c & 0x7f) as u64) << shift;
            if c & 0x80 == 0 {
                break;
            }
            shift += 7;
            if shift > 28 {
                return Err(self.corrupt("a record length longer than 5 bytes"));
            }
        }
        if len > MAX_BODY as u64 {
            return Err(self.corrupt("a record length above 4 GiB"));
        }
        let end = i + len as usize;
        let bytes: &'a [u8] = self.bytes;
        let Some(body) = bytes.get(i..end) else {
            return Err(self.truncated());
        };
        if tag == TAG_INVALID {
            return Err(self.corrupt("a record with tag 0 (zero-filled bytes?)"));
        }
        self.pos = end;
        Ok(Some((tag, body)))
    }

    fn run(&mut self) -> Result<(), Error> {
        loop {
            let start = self.pos;
            let Some((tag, body)) = self.next()? else {
                if self.open.is_some() || self.rec.trailer.is_none() {
                    return Err(self.truncated());
                }
                return Ok(());
            };
            // Report problems at the start of the record.
            let end = self.pos;
            self.pos = start;
            match tag {
                TAG_BEGIN => self.begin(body)?,
                TAG_END => self.end(body)?,
                _ => self.record(tag, body)?,
            }
            self.pos = end;
        }
    }

    fn begin(&mut self, body: &[u8]) -> Result<(), Error> {
        if self.open.is_some() {
            return Err(self.corrupt("a section begins before the previous one ended"));
        }
        if self.rec.trailer.is_some() {
            return Err(self.corrupt("data after the trailer"));
        }
        need!(self, body, BEGIN_LEN, "BEGIN");
        let mut b = Body::new(body);
        let kind = SectionKind::from_code(b.u16());
        let _reserved = b.u16();
        let ordinal = b.u32();
        if ordinal != self.sections {
            return Err(self.corrupt(format!(
                "section ordinal {ordinal} where {} was expected (a section is missing)",
                self.sections
            )));
        }
        if (self.sections == 0) != (kind == SectionKind::Run) {
            return Err(self.corrupt("the RUN section must be the first, and only the first"));
        }
        let staging = match kind {
            SectionKind::Run => Staging::Run(Run::default()),
            SectionKind::Module => {
                if self.data_seen {
                    return Err(self.corrupt("a module after the sections that refer to modules"));
                }
                Staging::Module(Box::default())
            }
            SectionKind::Params => {
                if self.have_params {
                    return Err(self.corrupt("a second PARAMS section"));
                }
                Staging::Params(Params::default())
            }
            SectionKind::Thread => Staging::Thread(Thread::default()),
            SectionKind::InFlight => Staging::InFlight(Vec::new()),
            SectionKind::Branches => Staging::Branches(Vec::new()),
            SectionKind::Trailer => Staging::Trailer(
                Trailer {
                    exit: Exit::Unknown(0, 0),
                    attrs: Vec::new(),
                    warnings: Vec::new(),
                },
                false,
            ),
            SectionKind::Unknown(_) => Staging::Skip,
        };
        if matches!(
            kind,
            SectionKind::Params
                | SectionKind::Thread
                | SectionKind::InFlight
                | SectionKind::Branches
        ) {
            self.data_seen = true;
        }
        self.sections += 1;
        self.cur = (ordinal, Some(kind));
        self.open = Some(Open {
            records: 0,
            staging,
        });
        Ok(())
    }

    fn end(&mut self, body: &[u8]) -> Result<(), Error> {
        need!(self, body, END_LEN, "END");
        let Some(open) = self.open.as_ref() else {
            return Err(self.corrupt("END outside a section"));
        };
        let n = Body::new(body).u64();
        if n != open.records {
            return Err(self.corrupt(format!(
                "END says {n} records, the section has {}",
                open.records
            )));
        }
        self.check_section()?;
        let Some(open) = self.open.take() else {
            return Ok(());
        };
        self.cur = (self.sections, None);
        let totals = self.rec.modules.totals();
        match open.staging {
            Staging::Run(r) => {
                self.rec.run = r;
                self.have_run = true;
            }
            Staging::Module(mut m) => {
                m.base = totals;
                m.content_hash = content_hash(&m);
                self.rec.modules.list.push(*m);
            }
            Staging::Params(p) => {
                self.rec.params = p;
                self.have_params = true;
            }
            Staging::Thread(t) => self.rec.threads.push(t),
            Staging::InFlight(v) => self.rec.inflight.extend(v),
            Staging::Branches(v) => self.rec.branches.extend(v),
            Staging::Trailer(t, _) => self.rec.trailer = Some(t),
            Staging::Skip => self.rec.skipped_sections += 1,
        }
        Ok(())
    }

    /// The checks of a section that can only be made once it is complete.
    fn check_section(&self) -> Result<(), Error> {
        let Some(open) = &self.open else {
            return Ok(());
        };
        match &open.staging {
            Staging::Module(m) => self.check_module(m),
            Staging::Trailer(_, false) => Err(self.corrupt("a trailer without its EXIT record")),
            _ => Ok(()),
        }
    }

    fn check_module(&self, m: &Module) -> Result<(), Error> {
        let ns = m.strings.len() as u32;
        let (nf, nl, nsite) = (
            m.funcs.len() as u32,
            m.loops.len() as u32,
            m.sites.len() as u32,
        );
        let s_ok = |id: u32| id == NONE || id < ns;
        let loc_ok = |l: &Loc| s_ok(l.function) && s_ok(l.linkage) && s_ok(l.file);
        let opt = |i: u32, n: u32| i == NONE || i < n;
        if !m.funcs.iter().all(|f| loc_ok(&f.loc)) {
            return Err(self.corrupt("a function refers to a missing string"));
        }
        for l in &m.loops {
            if !(opt(l.desc.parent, nl)
                && opt(l.desc.func, nf)
                && s_ok(l.desc.routine)
                && s_ok(l.desc.cost)
                && l.chain.iter().all(loc_ok))
            {
                return Err(self.corrupt("a loop refers to a missing string, loop or function"));
            }
        }
        for s in &m.sites {
            if !(opt(s.site.loop_, nl) && s.chain.iter().all(loc_ok)) {
                return Err(self.corrupt("a site refers to a missing string or loop"));
            }
        }
        for b in &m.branches {
            if b.branch.site >= nsite || b.succ.iter().any(|&s| s >= nsite) {
                return Err(self.corrupt("a branch refers to a missing site"));
            }
        }
        Ok(())
    }

    fn record(&mut self, tag: u8, body: &[u8]) -> Result<(), Error> {
        let totals = self.rec.modules.totals();
        let nthreads = self.rec.threads.len();
        let Some(mut open) = self.open.take() else {
            return Err(self.corrupt("a record outside a section"));
        };
        open.records += 1;
        let r = self.staged(&mut open.staging, tag, body, totals, nthreads);
        self.open = Some(open);
        r
    }

    fn staged(
        &self,
        st: &mut Staging,
        tag: u8,
        body: &[u8],
        totals: Bases,
        nthreads: usize,
    ) -> Result<(), Error> {
        let mut b = Body::new(body);
        let opt = |i: u32, n: u32| i == NONE || i < n;
        match st {
            Staging::Run(r) => match tag {
                TAG_RUN_INFO => {
                    need!(self, body, RUN_INFO_LEN, "RUN_INFO");
                    r.info = RunInfo {
                        pid: b.i32(),
                        abi_version: b.u32(),
                        mode: b.u16(),
                        start_time_ns: {
                            let _ = b.u16();
                            b.u64()
                        },
                    };
                }
                TAG_RUN_NAME => r.name = body.to_vec(),
                TAG_RUN_PATH => r.path = body.to_vec(),
                TAG_RUN_VERSION => r.version = body.to_vec(),
                TAG_RUN_ARG => r.argv.push(body.to_vec()),
                TAG_ATTR => r.attrs.push(self.attr(body)?),
                _ => {}
            },
            Staging::Module(m) => match tag {
                TAG_MOD_INFO => {
                    need!(self, body, MOD_INFO_LEN, "MOD_INFO");
                    m.info = ModuleInfo {
                        flags: b.u32(),
                        abi_version: b.u32(),
                    };
                }
                TAG_MOD_SOURCE => m.source = body.to_vec(),
                TAG_MOD_OBJECT => m.object = body.to_vec(),
                TAG_MOD_BUILD_ID => m.build_id = body.to_vec(),
                TAG_STR => m.strings.push(body.to_vec()),
                TAG_FUNC => {
                    need!(self, body, FUNC_LEN, "FUNC");
                    m.funcs.push(Func {
                        loc: b.loc(),
                        flags: b.u32(),
                        n_loops: b.u32(),
                    });
                }
                TAG_LOOP => {
                    need!(self, body, LOOP_FIXED_LEN, "LOOP");
                    let flags = b.u32();
                    let n = b.u32() as usize;
                    let desc = Loop {
                        flags,
                        const_trip_count: b.u64(),
                        parent: b.u32(),
                        func: b.u32(),
                        routine: b.u32(),
                        cost: b.u32(),
                    };
                    let chain = self.chain(&mut b, n)?;
                    m.loops.push(LoopEntry { desc, chain });
                }
                TAG_SITE => {
                    need!(self, body, SITE_FIXED_LEN, "SITE");
                    let flags = b.u32();
                    let n = b.u32() as usize;
                    let site = Site {
                        flags,
                        loop_: b.u32(),
                    };
                    let chain = self.chain(&mut b, n)?;
                    m.sites.push(SiteEntry { site, chain });
                }
                TAG_BRANCH => {
                    need!(self, body, BRANCH_FIXED_LEN, "BRANCH");
                    let flags = b.u16();
                    let _ = b.u16();
                    let site = b.u32();
                    let n = b.u32() as usize;
                    if b.rest().len() / 4 < n {
                        return Err(self.corrupt("a BRANCH record is shorter than its successors"));
                    }
                    let succ = (0..n).map(|_| b.u32()).collect();
                    m.branches.push(BranchEntry {
                        branch: Branch { flags, site },
                        succ,
                    });
                }
                _ => {}
            },
            Staging::Params(p) => match tag {
                TAG_LABEL_LAYOUT => {
                    need!(self, body, LAYOUT_FIXED_LEN, "LABEL_LAYOUT");
                    p.layout = LabelLayout {
                        shift: b.u16(),
                        flags: b.u16(),
                    };
                    p.gave_up_at = b.rest().to_vec();
                }
                TAG_PARAM => {
                    need!(self, body, PARAM_FIXED_LEN, "PARAM");
                    let bit = b.u32();
                    let registrations = b.u32();
                    let kind = b.u16();
                    let flags = b.u16();
                    let value = Value::decode(kind, b.u64());
                    p.params.push(Param {
                        info: ParamInfo {
                            bit,
                            registrations,
                            flags,
                            value,
                        },
                        name: b.rest().to_vec(),
                    });
                }
                TAG_REJECTED => {
                    need!(self, body, REJECTED_FIXED_LEN, "REJECTED");
                    let reason = b.u16();
                    let _ = b.u16();
                    p.rejected.push(Rejected {
                        info: RejectedInfo {
                            reason,
                            count: b.u32(),
                        },
                        name: b.rest().to_vec(),
                    });
                }
                _ => {}
            },
            Staging::Thread(t) => {
                let nn = t.nodes.len() as u32;
                match tag {
                    TAG_THREAD_INFO => {
                        need!(self, body, THREAD_INFO_LEN, "THREAD_INFO");
                        t.info = ThreadInfo {
                            tid: b.i32(),
                            index: b.u32(),
                            flags: b.u32(),
                        };
                    }
                    TAG_NODE => {
                        need!(self, body, NODE_LEN, "NODE");
                        let n = Node {
                            parent: b.u32(),
                            site: b.u32(),
                            func: b.u32(),
                        };
                        let ok = if nn == 0 {
                            n == Node::ROOT
                        } else {
                            n.parent < nn && n.func < totals.funcs && opt(n.site, totals.sites)
                        };
                        if !ok {
                            return Err(self.corrupt(if nn == 0 {
                                "the first node is not a root"
                            } else {
                                "a node refers to a later parent or a missing function or site"
                            }));
                        }
                        if t.loops.len() >= u32::MAX as usize {
                            return Err(self.corrupt("more than 2^32 loop records in a thread"));
                        }
                        // The last offset is where the records of the node to come
                        // start (loop records before the first node are refused).
                        t.nodes.push(n);
                        t.loop_start.push(t.loops.len() as u32);
                    }
                    TAG_LOOP_REC => {
                        need!(self, body, LOOP_REC_LEN, "LOOP_REC");
                        let r = LoopRecord {
                            loop_: b.u32(),
                            label: b.u16(),
                            flags: b.u16(),
                            executions: b.u64(),
                        };
                        if nn == 0 || r.loop_ >= totals.loops {
                            return Err(
                                self.corrupt("a loop record before any node or of a missing loop")
                            );
                        }
                        t.loops.push(r);
                        if let Some(last) = t.loop_start.last_mut() {
                            *last = t.loops.len() as u32;
                        }
                    }
                    TAG_FOLDED => {
                        need!(self, body, FOLDED_LEN, "FOLDED");
                        let f = Folded {
                            node: b.u32(),
                            site: b.u32(),
                            func: b.u32(),
                        };
                        if f.node >= nn || f.func >= totals.funcs || !opt(f.site, totals.sites) {
                            return Err(
                                self.corrupt("a folded call of a missing node, function or site")
                            );
                        }
                        t.folded.push(f);
                    }
                    TAG_RECURSIVE => {
                        need!(self, body, RECURSIVE_LEN, "RECURSIVE");
                        let f = b.u32();
                        if f >= totals.funcs {
                            return Err(self.corrupt("a recursive function that is missing"));
                        }
                        t.recursive.push(f);
                    }
                    _ => {}
                }
            }
            Staging::InFlight(v) => {
                if tag == TAG_INFLIGHT {
                    need!(self, body, INFLIGHT_LEN, "INFLIGHT");
                    let e = InFlight {
                        thread: b.u32(),
                        depth: b.u32(),
                        node: b.u32(),
                        loop_: b.u32(),
                        label: b.u16(),
                    };
                    let nodes = self
                        .rec
                        .threads
                        .get(e.thread as usize)
                        .map_or(0, |t| t.nodes.len());
                    if (e.thread as usize) >= nthreads
                        || (e.node as usize) >= nodes
                        || e.loop_ >= totals.loops
                    {
                        return Err(
                            self.corrupt("an in-flight loop of a missing thread, node or loop")
                        );
                    }
                    v.push(e);
                }
            }
            Staging::Branches(v) => {
                if tag == TAG_BRANCH_STATE {
                    need!(self, body, BRANCH_STATE_LEN, "BRANCH_STATE");
                    let s = BranchState {
                        branch: b.u32(),
                        label: b.u16(),
                        flags: b.u16(),
                        taken: b.u64(),
                        executions: b.u64(),
                    };
                    if s.branch >= totals.branches {
                        return Err(self.corrupt("the state of a missing branch"));
                    }
                    v.push(s);
                }
            }
            Staging::Trailer(t, has_exit) => match tag {
                TAG_EXIT => {
                    need!(self, body, EXIT_LEN, "EXIT");
                    let kind = b.u16();
                    let _ = b.u16();
                    t.exit = Exit::decode(kind, b.i32());
                    *has_exit = true;
                }
                TAG_WARNING => {
                    need!(self, body, WARNING_FIXED_LEN, "WARNING");
                    let code = b.u32();
                    let _ = b.u32();
                    t.warnings.push(WarningEntry {
                        warning: Warning {
                            code,
                            value: b.u64(),
                        },
                        text: b.rest().to_vec(),
                    });
                }
                TAG_ATTR => t.attrs.push(self.attr(body)?),
                _ => {}
            },
            Staging::Skip => {}
        }
        Ok(())
    }

    fn chain(&self, b: &mut Body<'_>, n: usize) -> Result<Vec<Loc>, Error> {
        if b.rest().len() / LOC_LEN < n {
            return Err(self.corrupt("a record is shorter than its inline chain"));
        }
        Ok((0..n).map(|_| b.loc()).collect())
    }

    fn attr(&self, body: &[u8]) -> Result<Attr, Error> {
        need!(self, body, ATTR_FIXED_LEN, "ATTR");
        let mut b = Body::new(body);
        let k = b.u32() as usize;
        let rest = b.rest();
        if rest.len() < k {
            return Err(self.corrupt("an ATTR record is shorter than its key"));
        }
        let (key, value) = rest.split_at(k);
        Ok(Attr {
            key: key.to_vec(),
            value: value.to_vec(),
        })
    }
}

// ---- Content hash ----------------------------------------------------------------------

/// FNV-1a, 64 bits: stable across platforms and Rust versions (unlike `DefaultHasher`).
pub(crate) struct Fnv(pub u64);

impl Fnv {
    pub(crate) fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub(crate) fn bytes(&mut self, b: &[u8]) {
        for &c in b {
            self.0 = (self.0 ^ c as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
    pub(crate) fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    /// A string, length-prefixed (so concatenations differ).
    pub(crate) fn str(&mut self, s: &[u8]) {
        self.u64(s.len() as u64);
        self.bytes(s);
    }
}

fn hash_loc(h: &mut Fnv, m: &Module, l: &Loc) {
    h.str(m.str(l.function));
    h.str(m.str(l.linkage));
    h.str(m.str(l.file));
    h.u32(l.fn_line);
    h.u32(l.line);
    h.u32(l.column);
}

fn hash_site(h: &mut Fnv, m: &Module, s: Option<&SiteEntry>) {
    match s {
        Some(s) => {
            h.u32(s.site.flags);
            h.u32(s.site.loop_);
            h.u64(s.chain.len() as u64);
            for l in &s.chain {
                hash_loc(h, m, l);
            }
        }
        None => h.u32(NONE),
    }
}

/// See [`Module::content_hash`].
pub(crate) fn content_hash(m: &Module) -> u64 {
    let mut h = Fnv::new();
    h.str(&m.source);
    h.u32(m.info.flags);
    h.u32(m.info.abi_version);
    h.u64(m.funcs.len() as u64);
    for f in &m.funcs {
        hash_loc(&mut h, m, &f.loc);
        h.u32(f.flags);
        h.u32(f.n_loops);
    }
    h.u64(m.loops.len() as u64);
    for l in &m.loops {
        let d = &l.desc;
        h.u32(d.flags);
        h.u64(d.const_trip_count);
        h.u32(d.parent);
        h.u32(d.func);
        h.str(m.str(d.routine));
        h.str(m.str(d.cost));
        h.u64(l.chain.len() as u64);
        for c in &l.chain {
            hash_loc(&mut h, m, c);
        }
    }
    h.u64(m.branches.len() as u64);
    for b in &m.branches {
        h.u32(b.branch.flags as u32);
        hash_site(&mut h, m, m.sites.get(b.branch.site as usize));
        h.u64(b.succ.len() as u64);
        for &s in &b.succ {
            hash_site(&mut h, m, m.sites.get(s as usize));
        }
    }
    h.0
}

// ---- Writing an owned record -------------------------------------------------------------

/// Writes `r` through the streaming writer: the same bytes this crate's writer produced
/// for it (sections in the canonical order; a record without trailer stays without).
pub fn write<O: Out>(r: &Record, out: O) -> Finished<O> {
    let mut w = Writer::new(out);
    let run = &r.run;
    w.begin_run(&run.info, &run.name, &run.path, &run.version);
    for a in &run.argv {
        w.arg(a);
    }
    for a in &run.attrs {
        w.attr(&a.key, &a.value);
    }
    for m in &r.modules.list {
        w.begin_module(&m.info, &m.source, &m.object, &m.build_id);
        for s in &m.strings {
            w.string(s);
        }
        for f in &m.funcs {
            w.func(f);
        }
        for l in &m.loops {
            w.loop_(&l.desc, l.chain.iter().copied());
        }
        for s in &m.sites {
            w.site(&s.site, s.chain.iter().copied());
        }
        for b in &m.branches {
            w.branch(&b.branch, b.succ.iter().copied());
        }
    }
    let p = &r.params;
    w.begin_params(&p.layout, &p.gave_up_at);
    for x in &p.params {
        w.param(&x.info, &x.name);
    }
    for x in &p.rejected {
        w.rejected(&x.info, &x.name);
    }
    for t in &r.threads {
        w.begin_thread(&t.info);
        for (i, n) in t.nodes.iter().enumerate() {
            w.node(n);
            for l in t.loops_of(i as u32) {
                w.loop_record(l);
            }
        }
        for f in &t.folded {
            w.folded(f);
        }
        for &f in &t.recursive {
            w.recursive(f);
        }
    }
    if !r.inflight.is_empty() {
        w.begin_inflight();
        for e in &r.inflight {
            w.inflight(e);
        }
    }
    if !r.branches.is_empty() {
        w.begin_branches();
        for s in &r.branches {
            w.branch_state(s);
        }
    }
    if let Some(t) = &r.trailer {
        w.begin_trailer(t.exit);
        for a in &t.attrs {
            w.attr(&a.key, &a.value);
        }
        for x in &t.warnings {
            // The writer adds its own refusal warning again if it refuses anything.
            w.warning(&x.warning, &x.text);
        }
    }
    w.finish()
}

/// Distinct functions found recursive in any thread (the union of the threads'
/// RECURSIVE records and the targets of folded calls).
pub fn recursive_functions(r: &Record) -> Vec<u32> {
    let mut set: HashSet<u32> = HashSet::new();
    for t in &r.threads {
        set.extend(t.recursive.iter().copied());
        set.extend(t.folded.iter().map(|f| f.func));
    }
    let mut v: Vec<u32> = set.into_iter().collect();
    v.sort_unstable();
    v
}
