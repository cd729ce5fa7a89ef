//! The ELF object of a module, from `/proc/self/maps`: its path (the record's OBJECT)
//! and its GNU build id (BUILD_ID).
//!
//! Both are found while the record is written, possibly in a signal handler: no
//! `dladdr` or `dl_iterate_phdr` (they take the dynamic loader's lock), only `open`,
//! `read` and `close` of `/proc/self/maps` and reads of the object's own mapped bytes.
//!
//! **The build id** is read from memory, not from the file (which may have been
//! replaced or deleted since it was loaded). The module's descriptor lies in a
//! mapping of the object (device, inode); the object's ELF header is the start of its
//! mapping at file offset 0 (the nearest one below the descriptor, should the file be
//! mapped twice). The header gives the program headers (file offset), each `PT_NOTE`
//! segment gives its notes (file offset and size), and every such file range is read
//! where a readable mapping of the same object holds it: at
//! `start + (file offset - mapping offset)`. Loaders map the first page (header,
//! program headers, notes) read-only; nothing here reads outside a readable mapping of
//! the object, and every size and offset is checked before it is used. The note is the
//! one named `GNU` of type `NT_GNU_BUILD_ID` (3); its descriptor is the id (20 bytes
//! for `--build-id=sha1`, the default; at most [`MAX_BUILD_ID`] are kept, a longer id
//! is treated as unknown). An object without one (linked with `--build-id=none`) has no
//! BUILD_ID record.
//!
//! Reading mapped memory of the object is what the writer does anyway: it reads the
//! module's descriptors and strings there. Modules must stay mapped until the report is
//! written (`crate::modules`), and so does the object's header.

use taintprof_sigsafe::{read_some, MmapVec};

/// Reads `/proc/self/maps` into `buf` (open/read/close only). False if it cannot.
pub(super) fn read_maps(buf: &mut MmapVec<u8>) -> bool {
    // SAFETY: NUL-terminated path; the descriptor is closed below.
    let fd = unsafe {
        libc::open(
            c"/proc/self/maps".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return false;
    }
    let mut chunk = [0u8; 4096];
    let mut ok = true;
    while let Some(n) = read_some(fd, &mut chunk) {
        if n == 0 {
            break;
        }
        for &c in chunk.get(..n).unwrap_or(&[]) {
            ok &= buf.push(c);
        }
    }
    // SAFETY: our descriptor.
    unsafe { libc::close(fd) };
    ok
}

fn parse_hex(b: &[u8]) -> Option<usize> {
    if b.is_empty() || b.len() > 16 {
        return None;
    }
    b.iter().try_fold(0usize, |a, &c| {
        let d = (c as char).to_digit(16)?;
        Some(a << 4 | d as usize)
    })
}

/// One line of `/proc/self/maps`: `lo-hi perms offset dev inode path`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Mapping<'a> {
    pub lo: usize,
    pub hi: usize,
    pub readable: bool,
    /// File offset of `lo`.
    pub offset: usize,
    pub dev: &'a [u8],
    pub inode: usize,
    /// The path (`" (deleted)"` removed), empty for anonymous and special mappings.
    pub path: &'a [u8],
}

impl Mapping<'_> {
    /// Same object file (device and inode; inode 0 is no file).
    fn same_file(&self, other: &Mapping<'_>) -> bool {
        self.inode != 0 && self.inode == other.inode && self.dev == other.dev
    }
}

/// The next space-separated field of `rest` (and what follows it).
fn field(rest: &[u8]) -> (&[u8], &[u8]) {
    let start = rest.iter().position(|&c| c != b' ').unwrap_or(rest.len());
    let rest = rest.get(start..).unwrap_or(&[]);
    let end = rest.iter().position(|&c| c == b' ').unwrap_or(rest.len());
    (
        rest.get(..end).unwrap_or(&[]),
        rest.get(end..).unwrap_or(&[]),
    )
}

/// Parses one line (None if it is not a mapping).
pub(super) fn parse_line(line: &[u8]) -> Option<Mapping<'_>> {
    let (range, rest) = field(line);
    let dash = range.iter().position(|&c| c == b'-')?;
    let lo = parse_hex(range.get(..dash)?)?;
    let hi = parse_hex(range.get(dash + 1..)?)?;
    let (perms, rest) = field(rest);
    let (offset, rest) = field(rest);
    let (dev, rest) = field(rest);
    let (inode, rest) = field(rest);
    let inode = inode.iter().try_fold(0usize, |a, &c| {
        let d = (c as char).to_digit(10)?;
        a.checked_mul(10)?.checked_add(d as usize)
    })?;
    let start = rest.iter().position(|&c| c != b' ').unwrap_or(rest.len());
    let path = rest.get(start..).unwrap_or(&[]);
    let path = path.strip_suffix(b" (deleted)").unwrap_or(path);
    Some(Mapping {
        lo,
        hi,
        readable: perms.first() == Some(&b'r'),
        offset: parse_hex(offset)?,
        dev,
        inode,
        path: if path.starts_with(b"/") { path } else { &[] },
    })
}

fn mappings(maps: &[u8]) -> impl Iterator<Item = Mapping<'_>> {
    maps.split(|&c| c == b'\n').filter_map(parse_line)
}

/// The mapping that holds `addr`.
fn mapping_at(maps: &[u8], addr: usize) -> Option<Mapping<'_>> {
    mappings(maps).find(|m| addr >= m.lo && addr < m.hi)
}

/// The path of the file mapped at `addr` in a `/proc/self/maps` text (empty if none).
pub(super) fn object_of(maps: &[u8], addr: usize) -> &[u8] {
    mapping_at(maps, addr).map_or(&[], |m| m.path)
}

/// Longest build id kept (`--build-id=sha1`, the default, is 20 bytes).
pub(super) const MAX_BUILD_ID: usize = 64;

/// A GNU build id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BuildId {
    bytes: [u8; MAX_BUILD_ID],
    len: usize,
}

impl BuildId {
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }
}

/// Reads file ranges of one loaded object from its readable mappings.
struct Object<'a> {
    maps: &'a [u8],
    /// The mapping holding the module (its file's identity).
    file: Mapping<'a>,
    /// Start of the object's mapping at file offset 0.
    base: usize,
}

impl<'a> Object<'a> {
    /// The `len` bytes at file offset `off`, where a readable mapping of this object
    /// (at or above its header) holds all of them.
    fn bytes(&self, off: usize, len: usize) -> Option<&'a [u8]> {
        let end = off.checked_add(len)?;
        let m = mappings(self.maps)
            .filter(|m| m.readable && m.lo >= self.base && m.same_file(&self.file))
            .filter(|m| off >= m.offset && end - m.offset <= m.hi.saturating_sub(m.lo))
            .min_by_key(|m| m.lo)?;
        let at = m.lo.checked_add(off - m.offset)?;
        // SAFETY: `[at, at + len)` lies inside a readable private mapping of the object
        // file, which stays mapped while its module is registered (module comment); the
        // loader never writes the header, program headers or notes.
        Some(unsafe { core::slice::from_raw_parts(at as *const u8, len) })
    }
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], at: usize) -> Option<usize> {
    let v = u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?);
    usize::try_from(v).ok()
}

const PT_NOTE: u32 = 4;
const NT_GNU_BUILD_ID: u32 = 3;
const EHDR_LEN: usize = 64;
const PHDR_LEN: usize = 56;
/// Larger note segments are not read (a build-id note is 36 bytes).
const MAX_NOTES: usize = 1 << 20;

/// The GNU build id in the notes `notes` (aligned to `align`: 4, or 8 for a `PT_NOTE`
/// whose `p_align` is 8, as `.note.gnu.property` has).
pub(super) fn build_id_in_notes(notes: &[u8], align: usize) -> Option<BuildId> {
    let pad = |n: usize| n.checked_add(align - 1).map(|x| x & !(align - 1));
    let mut at = 0usize;
    while at.checked_add(12)? <= notes.len() {
        let namesz = u32_at(notes, at)? as usize;
        let descsz = u32_at(notes, at + 4)? as usize;
        let kind = u32_at(notes, at + 8)?;
        // As glibc's `ELF_NOTE_NEXT_OFFSET`: the descriptor and the next note start at
        // multiples of `align` from the note's start (which is aligned).
        let name_at = at + 12;
        let desc_at = at.checked_add(pad(namesz.checked_add(12)?)?)?;
        let next = desc_at.checked_add(pad(descsz)?)?;
        let name = notes.get(name_at..name_at.checked_add(namesz)?)?;
        let desc = notes.get(desc_at..desc_at.checked_add(descsz)?)?;
        if kind == NT_GNU_BUILD_ID && name == b"GNU\0" {
            if desc.is_empty() || desc.len() > MAX_BUILD_ID {
                return None;
            }
            let mut id = BuildId {
                bytes: [0; MAX_BUILD_ID],
                len: desc.len(),
            };
            id.bytes.get_mut(..desc.len())?.copy_from_slice(desc);
            return Some(id);
        }
        if next <= at {
            return None;
        }
        at = next;
    }
    None
}

/// The GNU build id of the ELF object whose mapping holds `addr`, read from the
/// object's mapped notes (module comment). None: not a file, not a 64-bit
/// little-endian ELF object, no build id, or a header or note not mapped readable.
pub(super) fn build_id_of(maps: &[u8], addr: usize) -> Option<BuildId> {
    let file = mapping_at(maps, addr)?;
    if file.inode == 0 {
        return None;
    }
    let base = mappings(maps)
        .filter(|m| m.offset == 0 && m.readable && m.lo <= addr && m.same_file(&file))
        .map(|m| m.lo)
        .max()?;
    let obj = Object { maps, file, base };
    let ehdr = obj.bytes(0, EHDR_LEN)?;
    // 64-bit (ELFCLASS64), little-endian (ELFDATA2LSB), version 1.
    if ehdr.get(..7)? != b"\x7fELF\x02\x01\x01" {
        return None;
    }
    let phoff = u64_at(ehdr, 32)?;
    let (phentsize, phnum) = (u16_at(ehdr, 54)? as usize, u16_at(ehdr, 56)? as usize);
    // PN_XNUM (0xffff) would put the count in a section header: not for real objects.
    if phentsize != PHDR_LEN || phnum == 0 || phnum == 0xffff {
        return None;
    }
    let phdrs = obj.bytes(phoff, phnum * PHDR_LEN)?;
    for ph in phdrs.chunks_exact(PHDR_LEN) {
        if u32_at(ph, 0)? != PT_NOTE {
            continue;
        }
        let (off, size, align) = (u64_at(ph, 8)?, u64_at(ph, 32)?, u64_at(ph, 48)?);
        if size == 0 || size > MAX_NOTES {
            continue;
        }
        let Some(notes) = obj.bytes(off, size) else {
            continue;
        };
        if let Some(id) = build_id_in_notes(notes, if align == 8 { 8 } else { 4 }) {
            return Some(id);
        }
    }
    None
}

/// [`build_id_of`] for the modules in turn, remembering the last answer: the modules of
/// one object are registered one after the other (its constructors run together), and
/// their descriptors share its data mapping, so most lookups are one scan for the
/// mapping instead of one per program header.
pub(super) struct BuildIds {
    /// `[lo, hi)` of the mapping of the last lookup, and its answer.
    last: Option<(usize, usize, Option<BuildId>)>,
}

impl BuildIds {
    pub const fn new() -> Self {
        BuildIds { last: None }
    }

    pub fn of(&mut self, maps: &[u8], addr: usize) -> Option<BuildId> {
        if let Some((lo, hi, id)) = self.last {
            if addr >= lo && addr < hi {
                return id;
            }
        }
        let m = mapping_at(maps, addr)?;
        let id = build_id_of(maps, addr);
        self.last = Some((m.lo, m.hi, id));
        id
    }
}
