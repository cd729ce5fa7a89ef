//! The denormal record's reader (feature `std`): bytes into an owned [`DnRecord`],
//! every length and reference checked; no input makes it panic.

use std::fmt;
use std::path::Path;
use std::prelude::rust_2021::*;
use std::{format, vec};

use super::*;
use crate::format::{Exit, BYTE_ORDER_MARK, MAX_BODY, NONE, TAG_END, TAG_INVALID};
use crate::write::Out;

/// Why a denormal record cannot be read.
#[derive(Debug)]
pub enum DnError {
    /// The file does not start with [`DN_MAGIC`].
    BadMagic,
    /// The byte-order mark says big-endian.
    BigEndian,
    /// A newer major version.
    NewerVersion {
        major: u16,
        minor: u16,
    },
    /// The bytes end before the END record.
    Truncated {
        offset: u64,
    },
    /// Bytes no writer of this format produces.
    Corrupt {
        offset: u64,
        what: String,
    },
    Io(std::io::Error),
}

impl fmt::Display for DnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DnError::BadMagic => write!(f, "not a taintprof denormal record (bad magic number)"),
            DnError::BigEndian => write!(f, "the denormal record was written big-endian"),
            DnError::NewerVersion { major, minor } => write!(
                f,
                "denormal record format version {major}.{minor} is newer than this reader (version {DN_VERSION_MAJOR})"
            ),
            DnError::Truncated { offset } => write!(
                f,
                "the denormal record is truncated at byte {offset} (no END record)"
            ),
            DnError::Corrupt { offset, what } => {
                write!(f, "the denormal record is corrupt at byte {offset}: {what}")
            }
            DnError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DnError {}

/// A snapshot with its arrays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    pub info: DnSnapshot,
    pub label: Vec<u8>,
    /// (entry, reads cells, writes cells).
    pub arrays: Vec<(DnSnapArray, Vec<u32>, Vec<u32>)>,
}

/// An origin map with its non-zero elements.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OriginMap {
    pub info: DnOriginMap,
    /// (element, count), ascending.
    pub cells: Vec<(u64, u32)>,
}

/// A module and the range of its sites (global indices).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Module {
    pub info: DnModule,
    pub first_site: u32,
    pub sites: u32,
}

/// A denormal record, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DnRecord {
    pub run: DnRun,
    pub name: Vec<u8>,
    pub path: Vec<u8>,
    pub version: Vec<u8>,
    pub argv: Vec<Vec<u8>>,
    pub exit: Exit,
    pub loops_in_flight: u32,
    pub fpenv: DnFpEnv,
    pub strings: Vec<Vec<u8>>,
    pub modules: Vec<Module>,
    pub sites: Vec<DnSite>,
    pub overflow: DnOverflow,
    /// (array, name), in the order written (ids ascending).
    pub arrays: Vec<(DnArray, Vec<u8>)>,
    pub pairs: Vec<DnPair>,
    pub creators: Vec<DnCreator>,
    pub snapshots: Vec<Snapshot>,
    pub origin_maps: Vec<OriginMap>,
    /// (code, value), in the order written.
    pub counters: Vec<(u32, u64)>,
}

impl DnRecord {
    /// String `id` (empty for `NONE`).
    pub fn str(&self, id: u32) -> &[u8] {
        self.strings.get(id as usize).map_or(&[], |s| s.as_slice())
    }

    /// The value of counter `code` (the sum if repeated; 0 if absent).
    pub fn counter(&self, code: u32) -> u64 {
        self.counters
            .iter()
            .filter(|c| c.0 == code)
            .fold(0u64, |a, c| a.saturating_add(c.1))
    }

    /// Whether counter `code` was written.
    pub fn has_counter(&self, code: u32) -> bool {
        self.counters.iter().any(|c| c.0 == code)
    }
}

struct Body<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Body<'a> {
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
    fn rest(&self) -> &'a [u8] {
        self.b.get(self.pos..).unwrap_or(&[])
    }
}

/// A ULEB128 of at most 10 bytes from the front of `b`.
fn uleb(b: &mut &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for k in 0..10 {
        let (&c, rest) = b.split_first()?;
        *b = rest;
        v |= ((c & 0x7f) as u64).checked_shl(7 * k)?;
        if c & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// `n` sparse cells (`{gap, value}` ULEB128 pairs) from the front of `b`: (index,
/// value), ascending. None if the bytes end early or an index overflows.
fn sparse(b: &mut &[u8], n: usize) -> Option<Vec<(u64, u32)>> {
    let mut out = Vec::with_capacity(n.min(b.len() / 2));
    let mut next = 0u64;
    for _ in 0..n {
        let i = next.checked_add(uleb(b)?)?;
        let v = u32::try_from(uleb(b)?).ok()?;
        out.push((i, v));
        next = i.checked_add(1)?;
    }
    Some(out)
}

/// Reads a complete denormal record.
pub fn read(bytes: &[u8]) -> Result<DnRecord, DnError> {
    if bytes.len() < DN_HEADER_LEN || !bytes.starts_with(&DN_MAGIC) {
        return Err(
            if bytes.len() < DN_HEADER_LEN && DN_MAGIC.starts_with(bytes) {
                DnError::Truncated {
                    offset: bytes.len() as u64,
                }
            } else {
                DnError::BadMagic
            },
        );
    }
    let h = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let (major, minor) = (h(8), h(10));
    let bom = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]);
    if bom != BYTE_ORDER_MARK {
        return Err(if bom == BYTE_ORDER_MARK.swap_bytes() {
            DnError::BigEndian
        } else {
            DnError::Corrupt {
                offset: 12,
                what: "a bad byte-order mark".into(),
            }
        });
    }
    if major > DN_VERSION_MAJOR {
        return Err(DnError::NewerVersion { major, minor });
    }
    let mut r = DnRecord {
        run: DnRun::default(),
        name: vec![],
        path: vec![],
        version: vec![],
        argv: vec![],
        exit: Exit::Unknown(0, 0),
        loops_in_flight: 0,
        fpenv: DnFpEnv::default(),
        strings: vec![],
        modules: vec![],
        sites: vec![],
        overflow: DnOverflow::default(),
        arrays: vec![],
        pairs: vec![],
        creators: vec![],
        snapshots: vec![],
        origin_maps: vec![],
        counters: vec![],
    };
    let mut pos = DN_HEADER_LEN;
    let mut records: u64 = 0;
    loop {
        let at = pos as u64;
        let corrupt = |what: &str| DnError::Corrupt {
            offset: at,
            what: what.into(),
        };
        let truncated = DnError::Truncated {
            offset: bytes.len() as u64,
        };
        let Some(&tag) = bytes.get(pos) else {
            return Err(truncated);
        };
        let mut len: u64 = 0;
        let mut i = pos + 1;
        let mut shift = 0;
        loop {
            let Some(&c) = bytes.get(i) else {
                return Err(truncated);
            };
            i += 1;
            len |= ((c & 0x7f) as u64) << shift;
            if c & 0x80 == 0 {
                break;
            }
            shift += 7;
            if shift > 28 {
                return Err(corrupt("a record length longer than 5 bytes"));
            }
        }
        if len > MAX_BODY as u64 {
            return Err(corrupt("a record length above 4 GiB"));
        }
        let Some(body) = bytes.get(i..i + len as usize) else {
            return Err(truncated);
        };
        pos = i + len as usize;
        let need = |n: usize, what: &str| {
            if body.len() < n {
                Err(DnError::Corrupt {
                    offset: at,
                    what: format!("a {what} record is too short"),
                })
            } else {
                Ok(())
            }
        };
        let check_str = |r: &DnRecord, id: u32| {
            if id != NONE && id as usize >= r.strings.len() {
                Err(DnError::Corrupt {
                    offset: at,
                    what: format!("string id {id} before its STR record"),
                })
            } else {
                Ok(())
            }
        };
        let mut b = Body { b: body, pos: 0 };
        match tag {
            TAG_INVALID => return Err(corrupt("a record with tag 0 (zero-filled bytes?)")),
            TAG_END => {
                need(8, "END")?;
                if b.u64() != records {
                    return Err(corrupt("the END record's count does not match"));
                }
                if pos != bytes.len() {
                    return Err(corrupt("bytes after the END record"));
                }
                return Ok(r);
            }
            DN_TAG_RUN => {
                need(DN_RUN_LEN, "RUN")?;
                r.run = DnRun {
                    pid: b.i32(),
                    abi_version: b.u32(),
                    threads: b.u32(),
                    flags: b.u32(),
                    fp_operations: b.u64(),
                };
            }
            DN_TAG_NAME => r.name = body.to_vec(),
            DN_TAG_PATH => r.path = body.to_vec(),
            DN_TAG_VERSION => r.version = body.to_vec(),
            DN_TAG_ARG => r.argv.push(body.to_vec()),
            DN_TAG_EXIT => {
                need(DN_EXIT_LEN, "EXIT")?;
                let k = b.u16();
                b.u16();
                let c = b.i32();
                r.exit = Exit::decode(k, c);
                r.loops_in_flight = b.u32();
            }
            DN_TAG_FPENV => {
                need(DN_FPENV_LEN, "FPENV")?;
                r.fpenv = DnFpEnv {
                    start: b.u32(),
                    end: b.u32(),
                    flags: b.u32(),
                };
            }
            DN_TAG_STR => {
                if r.strings.len() >= NONE as usize - 1 {
                    return Err(corrupt("too many strings"));
                }
                r.strings.push(body.to_vec());
            }
            DN_TAG_MODULE => {
                need(DN_MODULE_LEN, "MODULE")?;
                let info = DnModule {
                    n_sites: b.u32(),
                    n_blocks: b.u32(),
                    flags: b.u32(),
                    source: b.u32(),
                };
                check_str(&r, info.source)?;
                r.modules.push(Module {
                    info,
                    first_site: r.sites.len() as u32,
                    sites: 0,
                });
            }
            DN_TAG_SITE => {
                need(DN_SITE_LEN, "SITE")?;
                let Some(m) = r.modules.last_mut() else {
                    return Err(corrupt("a SITE record before any MODULE"));
                };
                m.sites += 1;
                let mut s = DnSite {
                    function: b.u32(),
                    linkage: b.u32(),
                    file: b.u32(),
                    line: b.u32(),
                    column: b.u32(),
                    op: b.u32(),
                    ty: b.u16(),
                    lanes: b.u16(),
                    flags: b.u16(),
                    rflags: b.u16(),
                    counts: DnCounts::default(),
                };
                if body.len() >= DN_SITE_LEN + DN_SITE_COUNTS_LEN {
                    s.counts = DnCounts {
                        executions: b.u64(),
                        operands: b.u64(),
                        operand_ops: b.u64(),
                        results: b.u64(),
                        loads: b.u64(),
                        stores: b.u64(),
                        created: 0,
                    };
                    // Minor version 1 appended `created`.
                    if body.len() >= DN_SITE_LEN + DN_SITE_COUNTS_LEN + DN_SITE_CREATED_LEN {
                        s.counts.created = b.u64();
                    }
                }
                for id in [s.function, s.linkage, s.file, s.op] {
                    check_str(&r, id)?;
                }
                r.sites.push(s);
            }
            DN_TAG_OVERFLOW => {
                need(DN_OVERFLOW_LEN, "OVERFLOW")?;
                r.overflow = DnOverflow {
                    operands: b.u64(),
                    results: b.u64(),
                    loads: b.u64(),
                    stores: b.u64(),
                    created: 0,
                };
                if body.len() >= DN_OVERFLOW_LEN + DN_OVERFLOW_CREATED_LEN {
                    r.overflow.created = b.u64();
                }
            }
            DN_TAG_ARRAY => {
                need(DN_ARRAY_FIXED_LEN, "ARRAY")?;
                let a = DnArray {
                    id: b.u32(),
                    kind: b.u32(),
                    elem_ty: b.u16(),
                    flags: b.u16(),
                    elements: b.u64(),
                    rows: b.u64(),
                    cols: b.u64(),
                    reads: b.u64(),
                    writes: b.u64(),
                    alloc_function: b.u32(),
                    alloc_file: b.u32(),
                    alloc_line: b.u32(),
                };
                check_str(&r, a.alloc_function)?;
                check_str(&r, a.alloc_file)?;
                if r.arrays.last().is_some_and(|l| l.0.id >= a.id) {
                    return Err(corrupt("ARRAY records out of id order"));
                }
                r.arrays.push((a, b.rest().to_vec()));
            }
            DN_TAG_PAIR => {
                need(DN_PAIR_LEN, "PAIR")?;
                r.pairs.push(DnPair {
                    dest: b.u32(),
                    src: b.u32(),
                    count: b.u64(),
                });
            }
            DN_TAG_CREATOR => {
                need(DN_CREATOR_LEN, "CREATOR")?;
                let key = b.u64();
                let site = b.u32();
                b.u32();
                let count = b.u64();
                if site != NONE && site as usize >= r.sites.len() {
                    return Err(corrupt("a CREATOR record names a site not written before"));
                }
                r.creators.push(DnCreator { key, site, count });
            }
            DN_TAG_SNAPSHOT => {
                need(DN_SNAPSHOT_FIXED_LEN, "SNAPSHOT")?;
                let info = DnSnapshot {
                    index: b.u64(),
                    fp_operations: b.u64(),
                };
                r.snapshots.push(Snapshot {
                    info,
                    label: b.rest().to_vec(),
                    arrays: vec![],
                });
            }
            DN_TAG_SNAP_ARRAY => {
                need(DN_SNAP_ARRAY_FIXED_LEN, "SNAP_ARRAY")?;
                let a = DnSnapArray {
                    id: b.u32(),
                    has_heatmap: b.u32() != 0,
                    reads: b.u64(),
                    writes: b.u64(),
                    hm_rows: b.u64(),
                    hm_cols: b.u64(),
                    cell_r: b.u64(),
                    cell_c: b.u64(),
                };
                let (nr, nw) = (b.u32() as usize, b.u32() as usize);
                let n = a.cells();
                if n > 1 << 24 || (!a.has_heatmap && (nr > 0 || nw > 0)) {
                    return Err(corrupt("a SNAP_ARRAY record with an impossible grid"));
                }
                let mut rest = b.rest();
                let mut dense = |count: usize| -> Result<Vec<u32>, DnError> {
                    let mut v = vec![0u32; n];
                    let cells = sparse(&mut rest, count)
                        .ok_or_else(|| corrupt("a SNAP_ARRAY record's cells are cut"))?;
                    for (i, x) in cells {
                        let slot = usize::try_from(i).ok().and_then(|i| v.get_mut(i));
                        let Some(slot) = slot else {
                            return Err(corrupt("a SNAP_ARRAY cell outside its grid"));
                        };
                        *slot = x;
                    }
                    Ok(v)
                };
                let rd = dense(nr)?;
                let wr = dense(nw)?;
                let Some(s) = r.snapshots.last_mut() else {
                    return Err(corrupt("a SNAP_ARRAY record before any SNAPSHOT"));
                };
                s.arrays.push((a, rd, wr));
            }
            DN_TAG_ORIGIN_MAP => {
                need(DN_ORIGIN_MAP_FIXED_LEN, "ORIGIN_MAP")?;
                let info = DnOriginMap {
                    dest: b.u32(),
                    src: b.u32(),
                    elements: b.u64(),
                    rows: b.u64(),
                    cols: b.u64(),
                };
                let n = b.u32() as usize;
                b.u32();
                let mut rest = b.rest();
                let cells = sparse(&mut rest, n)
                    .ok_or_else(|| corrupt("an ORIGIN_MAP record's cells are cut"))?;
                r.origin_maps.push(OriginMap { info, cells });
            }
            DN_TAG_COUNTER => {
                need(DN_COUNTER_LEN, "COUNTER")?;
                let code = b.u32();
                b.u32();
                r.counters.push((code, b.u64()));
            }
            _ => {} // a later version's record
        }
        records += 1;
    }
}

/// Reads the complete denormal record at `path`.
pub fn read_file(path: &Path) -> Result<DnRecord, DnError> {
    read(&std::fs::read(path).map_err(DnError::Io)?)
}

/// Writes an owned record back through the streaming writer (the same bytes, for a
/// record the runtime wrote: strings first here, so not byte-identical in general).
pub fn write<O: Out>(r: &DnRecord, out: O) -> DnFinished<O> {
    let mut w = DnWriter::new(out);
    w.run(&r.run, &r.name, &r.path, &r.version);
    for a in &r.argv {
        w.arg(a);
    }
    w.exit(r.exit, r.loops_in_flight);
    w.fpenv(&r.fpenv);
    for s in &r.strings {
        w.string(s);
    }
    for m in &r.modules {
        w.module(&m.info);
        for s in r
            .sites
            .get(m.first_site as usize..(m.first_site + m.sites) as usize)
            .unwrap_or(&[])
        {
            w.site(s);
        }
    }
    w.overflow(&r.overflow);
    for (a, name) in &r.arrays {
        w.array(a, name);
    }
    for p in &r.pairs {
        w.pair(p);
    }
    for c in &r.creators {
        w.creator(c);
    }
    for s in &r.snapshots {
        w.snapshot(&s.info, &s.label);
        for (a, rd, wr) in &s.arrays {
            w.snap_array(a, rd, wr);
        }
    }
    for m in &r.origin_maps {
        w.origin_map(&m.info, m.cells.iter().copied());
    }
    for &(c, v) in &r.counters {
        w.counter(c, v);
    }
    w.finish()
}
