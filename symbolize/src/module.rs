//! One executable or shared library: from a file offset to the ELF virtual address,
//! function, source line (DWARF, also from separate debug files) or symbol, and the
//! instruction bytes.

use std::borrow::Cow;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use addr2line::Context;
use gimli::{EndianArcSlice, RunTimeEndian};
use memmap2::Mmap;
use object::{Object, ObjectSection, ObjectSegment, ObjectSymbol, SymbolKind};

type Reader = EndianArcSlice<RunTimeEndian>;

/// A `PT_LOAD` segment: file range and where it is mapped.
#[derive(Clone, Copy, Debug)]
struct Segment {
    offset: u64,
    filesz: u64,
    vaddr: u64,
}

#[derive(Clone, Debug)]
struct Sym {
    addr: u64,
    size: u64,
    name: String,
}

/// Where an address is in the source.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Source-level (demangled) function name; for inlined code, the inlined function.
    pub function: String,
    /// Linkage (mangled) name; equal to `function` for C.
    pub linkage: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// Named from debug information (else from the symbol table).
    pub from_dwarf: bool,
}

pub struct Module {
    data: Mmap,
    segments: Vec<Segment>,
    dwarf: Option<Context<Reader>>,
    symbols: Vec<Sym>,
}

fn load_dwarf(obj: &object::File<'_>, sup: Option<&object::File<'_>>) -> Option<Context<Reader>> {
    let endian = if obj.is_little_endian() {
        RunTimeEndian::Little
    } else {
        RunTimeEndian::Big
    };
    let section = |o: &object::File<'_>, id: gimli::SectionId| -> Result<Reader, gimli::Error> {
        let data = o
            .section_by_name(id.name())
            .and_then(|s| s.uncompressed_data().ok())
            .unwrap_or(Cow::Borrowed(&[]));
        Ok(EndianArcSlice::new(Arc::from(&*data), endian))
    };
    let mut dwarf = gimli::Dwarf::load(|id| section(obj, id)).ok()?;
    if let Some(s) = sup {
        dwarf.load_sup(|id| section(s, id)).ok()?;
    }
    Context::from_dwarf(dwarf).ok()
}

fn has_dwarf(obj: &object::File<'_>) -> bool {
    obj.section_by_name(".debug_info")
        .is_some_and(|s| s.size() > 0)
        && obj
            .section_by_name(".debug_line")
            .is_some_and(|s| s.size() > 0)
}

fn map(path: &Path) -> Option<Mmap> {
    let f = File::open(path).ok()?;
    // SAFETY: read-only mapping of a file we only read; if another process truncates it
    // meanwhile we may fault, as every symbolizer (addr2line, perf) would.
    unsafe { Mmap::map(&f) }.ok()
}

fn hex_bytes(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Separate debug files, in gdb's order: by build id, then by `.gnu_debuglink` (next
/// to the file, in `.debug/`, under `/usr/lib/debug`).
fn debug_candidates(path: &Path, obj: &object::File<'_>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let roots: Vec<PathBuf> = std::env::var_os("TAINTPROF_DEBUG_DIR")
        .map(|d| vec![PathBuf::from(d)])
        .unwrap_or_default()
        .into_iter()
        .chain([PathBuf::from("/usr/lib/debug")])
        .collect();
    if let Ok(Some(id)) = obj.build_id() {
        if id.len() > 1 {
            let h = hex_bytes(id);
            for r in &roots {
                out.push(
                    r.join(".build-id")
                        .join(&h[..2])
                        .join(format!("{}.debug", &h[2..])),
                );
            }
        }
    }
    if let Ok(Some((name, _crc))) = obj.gnu_debuglink() {
        let name = String::from_utf8_lossy(name).into_owned();
        let dir = path.parent().unwrap_or(Path::new("/"));
        out.push(dir.join(&name));
        out.push(dir.join(".debug").join(&name));
        for r in &roots {
            let rel = dir.strip_prefix("/").unwrap_or(dir);
            out.push(r.join(rel).join(&name));
        }
    }
    out.retain(|p| p != path);
    out
}

fn collect_symbols(obj: &object::File<'_>, out: &mut Vec<Sym>) {
    for s in obj.symbols().chain(obj.dynamic_symbols()) {
        if s.kind() != SymbolKind::Text || !s.is_definition() || s.address() == 0 {
            continue;
        }
        let Ok(name) = s.name() else { continue };
        if name.is_empty() {
            continue;
        }
        out.push(Sym {
            addr: s.address(),
            size: s.size(),
            name: name.to_string(),
        });
    }
}

impl Module {
    /// Opens `path`. Err(reason) if it cannot be read or parsed.
    pub fn open(path: &str) -> Result<Module, String> {
        let p = Path::new(path);
        let data = map(p).ok_or_else(|| format!("cannot read {path}"))?;
        let (segments, mut symbols, dwarf) = {
            let obj = object::File::parse(&*data).map_err(|e| format!("{path}: {e}"))?;
            let segments: Vec<Segment> = obj
                .segments()
                .map(|s| {
                    let (offset, filesz) = s.file_range();
                    Segment {
                        offset,
                        filesz,
                        vaddr: s.address(),
                    }
                })
                .collect();
            let mut symbols = Vec::new();
            collect_symbols(&obj, &mut symbols);
            let mut dwarf = None;
            if has_dwarf(&obj) {
                dwarf = load_dwarf(&obj, None);
            }
            if dwarf.is_none() {
                for cand in debug_candidates(p, &obj) {
                    let Some(dmap) = map(&cand) else { continue };
                    let Ok(dobj) = object::File::parse(&*dmap) else {
                        continue;
                    };
                    if let (Ok(Some(a)), Ok(Some(b))) = (obj.build_id(), dobj.build_id()) {
                        if a != b {
                            continue;
                        }
                    }
                    collect_symbols(&dobj, &mut symbols);
                    if !has_dwarf(&dobj) {
                        continue;
                    }
                    // dwz-compressed debug info points to a shared supplementary file.
                    let sup_map = dobj
                        .gnu_debugaltlink()
                        .ok()
                        .flatten()
                        .and_then(|(name, _)| {
                            let n = PathBuf::from(String::from_utf8_lossy(name).into_owned());
                            let n = if n.is_absolute() {
                                n
                            } else {
                                cand.parent().unwrap_or(Path::new("/")).join(n)
                            };
                            map(&n)
                        });
                    let sup_obj = sup_map
                        .as_ref()
                        .and_then(|m| object::File::parse(&**m).ok());
                    dwarf = load_dwarf(&dobj, sup_obj.as_ref());
                    if dwarf.is_some() {
                        break;
                    }
                }
            }
            (segments, symbols, dwarf)
        };
        // Prefer sized symbols, then longer names (a local alias over `_start`-like ones).
        symbols.sort_by(|a, b| a.addr.cmp(&b.addr).then(b.size.cmp(&a.size)));
        symbols.dedup_by(|a, b| a.addr == b.addr && a.size == b.size && a.name == b.name);
        Ok(Module {
            data,
            segments,
            dwarf,
            symbols,
        })
    }

    /// File offset → ELF virtual address (through the `PT_LOAD` segments).
    pub fn vaddr_of_offset(&self, off: u64) -> Option<u64> {
        self.segments
            .iter()
            .find(|s| off >= s.offset && off < s.offset.saturating_add(s.filesz))
            .map(|s| off - s.offset + s.vaddr)
    }

    /// Up to 16 bytes of the file at `off` (an instruction is at most 15).
    pub fn bytes_at(&self, off: u64) -> &[u8] {
        let start = (off as usize).min(self.data.len());
        let end = start.saturating_add(16).min(self.data.len());
        &self.data[start..end]
    }

    /// Function and source position of the instruction at `vaddr`.
    pub fn place(&self, vaddr: u64) -> Option<Place> {
        if let Some(p) = self.dwarf_place(vaddr) {
            return Some(p);
        }
        self.symbol(vaddr).map(|s| {
            let name = addr2line::demangle_auto(Cow::Borrowed(s.name.as_str()), None).into_owned();
            Place {
                function: name,
                linkage: s.name.clone(),
                ..Place::default()
            }
        })
    }

    fn dwarf_place(&self, vaddr: u64) -> Option<Place> {
        let ctx = self.dwarf.as_ref()?;
        let mut frames = ctx.find_frames(vaddr).skip_all_loads().ok()?;
        // Innermost first: the function the code was written in (inlined or not).
        let frame = frames.next().ok()??;
        let func = frame.function.as_ref()?;
        let linkage = func.raw_name().ok()?.into_owned();
        let function = func
            .demangle()
            .map(Cow::into_owned)
            .unwrap_or_else(|_| linkage.clone());
        let loc = frame
            .location
            .or_else(|| ctx.find_location(vaddr).ok().flatten());
        Some(Place {
            function,
            linkage,
            file: loc.as_ref().and_then(|l| l.file).unwrap_or("").to_string(),
            line: loc.as_ref().and_then(|l| l.line).unwrap_or(0),
            column: loc.as_ref().and_then(|l| l.column).unwrap_or(0),
            from_dwarf: true,
        })
    }

    /// The function symbol containing `vaddr`. Symbols with a size must contain it;
    /// a symbol without size is taken only if it is the nearest one before `vaddr` and
    /// no sized symbol ends between them.
    fn symbol(&self, vaddr: u64) -> Option<&Sym> {
        let i = self.symbols.partition_point(|s| s.addr <= vaddr);
        let mut nearest_unsized: Option<&Sym> = None;
        for s in self.symbols[..i].iter().rev() {
            if vaddr - s.addr > 1 << 20 {
                break;
            }
            if s.size == 0 {
                nearest_unsized = nearest_unsized.or(Some(s));
                continue;
            }
            if vaddr < s.addr.saturating_add(s.size) {
                return Some(s);
            }
            // The nearest sized symbol ends before vaddr: only a nearer nearest_unsized one
            // can be the function.
            return nearest_unsized;
        }
        nearest_unsized
    }
}
