//! # taintprof-symbolize
//!
//! Turns the raw report of the exception-based denormal profiler
//! (`libtaintprof_dip.so`, schema `taintprof.dip-raw`) into the documented denormal
//! report (`docs/report-schema.md`, `taintprof.denormal` v1, `"mode": "exceptions"`):
//!
//! 1. each event address is looked up in the process's executable mappings and turned
//!    into a file offset, then into the ELF virtual address through the program headers
//!    (so plain and PIE executables and shared libraries all resolve);
//! 2. function and `file:line:column` come from DWARF (`addr2line`/`gimli`/`object`),
//!    also from separate debug files (build id, `.gnu_debuglink`, dwz supplementary
//!    files under `/usr/lib/debug`, or `$TAINTPROF_DEBUG_DIR`), else from the symbol
//!    tables (`.symtab`, `.dynsym`), so stripped libraries such as libm still give
//!    function names;
//! 3. the instruction is disassembled with `iced-x86` in AT&T syntax, as `objdump -d`
//!    and `perf annotate` print it, and classified (`op`, `type`) with the compiler
//!    mode's names;
//! 4. sites are grouped by function (functions with most events first, then sites by
//!    events), the timeline buckets become a dense timeline, and warnings explain what
//!    the profile cannot show.
//!
//! ```no_run
//! let raw = taintprof_symbolize::read_raw("app.4242.dip-raw.json".as_ref())?;
//! let report = taintprof_symbolize::symbolize(&raw)?;
//! taintprof_symbolize::write_report(&report, "app.4242.dip.json".as_ref())?;
//! # Ok::<(), taintprof_symbolize::Error>(())
//! ```

pub mod disasm;
mod hex;
mod module;
pub mod raw;
pub mod report;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

pub use raw::RawReport;
pub use report::DenormalReport;
use report::{FpEnvironment, Site, TimelineEntry, Totals};

/// Timelines longer than this many buckets are coarsened (buckets merged) to stay
/// readable; a warning says so.
pub const MAX_TIMELINE: usize = 100_000;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not valid JSON for this report: {source}")]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("{0}")]
    Schema(String),
}

pub type Result<T> = std::result::Result<T, Error>;

/// Reads a raw report (`<prog>.<pid>.dip-raw.json`).
pub fn read_raw(path: &Path) -> Result<RawReport> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let raw: RawReport = serde_json::from_str(&text).map_err(|source| Error::Json {
        path: path.to_path_buf(),
        source,
    })?;
    if raw.schema != raw::SCHEMA || raw.version != raw::VERSION {
        return Err(Error::Schema(format!(
            "{}: a \"{}\" version {} report, expected \"{}\" version {}",
            path.display(),
            raw.schema,
            raw.version,
            raw::SCHEMA,
            raw::VERSION
        )));
    }
    Ok(raw)
}

/// Reads a denormal report (either mode).
pub fn read_report(path: &Path) -> Result<DenormalReport> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let r: DenormalReport = serde_json::from_str(&text).map_err(|source| Error::Json {
        path: path.to_path_buf(),
        source,
    })?;
    if r.schema != report::SCHEMA || !(report::MIN_VERSION..=report::VERSION).contains(&r.version) {
        return Err(Error::Schema(format!(
            "{}: a \"{}\" version {} report, expected \"{}\" version {} to {}",
            path.display(),
            r.schema,
            r.version,
            report::SCHEMA,
            report::MIN_VERSION,
            report::VERSION
        )));
    }
    Ok(r)
}

/// The report as JSON text (pretty-printed, with a final newline).
pub fn to_json(report: &DenormalReport) -> String {
    let mut s = serde_json::to_string_pretty(report).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

/// Writes the report atomically and durably: a temporary file in the same directory,
/// `fsync`, then rename (`taintprof_sigsafe::file::write_atomic`, the runtimes' atomic
/// write).
pub fn write_report(report: &DenormalReport, path: &Path) -> Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let json = to_json(report);
    taintprof_sigsafe::file::write_atomic(
        path.as_os_str().as_bytes(),
        taintprof_sigsafe::file::Durability::Fsync,
        |sink| {
            use taintprof_sigsafe::json::Sink;
            sink.put(json.as_bytes())
        },
    )
    .map(|_| ())
    .map_err(|errno| Error::Io {
        path: path.to_path_buf(),
        source: std::io::Error::from_raw_os_error(errno),
    })
}

/// The file name of the symbolized report: `<program>.<pid>.dip.json`.
pub fn report_file_name(raw: &RawReport) -> String {
    format!("{}.{}.dip.json", raw.program.name, raw.program.pid)
}

/// Reads `raw_path`, symbolizes it and writes `<program>.<pid>.dip.json` next to it.
/// Returns the report and where it was written.
pub fn symbolize_file(raw_path: &Path) -> Result<(DenormalReport, PathBuf)> {
    let raw = read_raw(raw_path)?;
    let report = symbolize(&raw)?;
    let out = raw_path
        .parent()
        .unwrap_or(Path::new("."))
        .join(report_file_name(&raw));
    write_report(&report, &out)?;
    Ok((report, out))
}

fn parse_hex32(s: &str) -> u32 {
    hex::parse(s).unwrap_or(0x1f80) as u32
}

const MX_DAZ: u32 = 1 << 6;
const MX_FTZ: u32 = 1 << 15;

/// What one event address became.
struct Resolved {
    module: Option<String>,
    /// Address relative to the module (ELF vaddr), or absolute without a module.
    address: u64,
    place: module::Place,
    decoded: Option<disasm::Decoded>,
}

/// Builds the `taintprof.denormal` report (mode `exceptions`) from a raw DIP report.
///
/// Only malformed input is an error; modules that cannot be read, missing debug info
/// and addresses outside every mapping still give sites (with what is known) and a
/// warning.
pub fn symbolize(raw: &RawReport) -> Result<DenormalReport> {
    if raw.schema != raw::SCHEMA {
        return Err(Error::Schema(format!(
            "not a raw DIP report (schema \"{}\")",
            raw.schema
        )));
    }
    let mut warnings: Vec<String> = Vec::new();
    let mut mappings: Vec<&raw::Mapping> = raw.mappings.iter().collect();
    mappings.sort_by_key(|m| m.start);

    let mut modules: HashMap<String, Option<module::Module>> = HashMap::new();
    let mut unreadable: BTreeMap<String, String> = BTreeMap::new();
    let mut unmapped = 0u64;
    let mut by_symbol: BTreeMap<String, u64> = BTreeMap::new();

    // One site per (module, relative address); the same instruction seen through two
    // mappings of one file is merged.
    let mut sites: BTreeMap<(String, u64), Site> = BTreeMap::new();
    for ev in &raw.events {
        let r = resolve(ev.address, &mappings, &mut modules, &mut unreadable);
        if r.module.is_none() {
            unmapped += ev.operands + ev.results;
        } else if !r.place.from_dwarf {
            *by_symbol
                .entry(r.module.clone().unwrap_or_default())
                .or_default() += ev.operands + ev.results;
        }
        let key = (r.module.clone().unwrap_or_default(), r.address);
        let site = sites.entry(key).or_insert_with(|| {
            let (op, ty, text) = match &r.decoded {
                Some(d) => (d.op.clone(), d.ty.clone(), Some(d.text.clone())),
                None => (String::new(), String::new(), None),
            };
            Site {
                function: if r.place.function.is_empty() {
                    "??".into()
                } else {
                    r.place.function.clone()
                },
                linkage: r.place.linkage.clone(),
                file: r.place.file.clone(),
                line: r.place.line,
                column: r.place.column,
                op,
                ty,
                lanes: Vec::new(),
                executions: None,
                denormal_operands: 0,
                operations_with_denormal_operands: None,
                denormal_results: 0,
                denormal_loads: None,
                denormal_stores: None,
                address: Some(hex::format(r.address)),
                module: Some(r.module.clone().unwrap_or_default()),
                instruction: text,
                share: None,
                weighted: Vec::new(),
                created: None,
            }
        });
        site.denormal_operands += ev.operands;
        site.denormal_results += ev.results;
        report::add_weights(&mut site.weighted, &ev.weighted);
    }
    let mut sites: Vec<Site> = sites.into_values().filter(|s| s.events() > 0).collect();
    // Group by function: functions with the most events first, then sites by events.
    let mut fn_total: HashMap<(String, Option<String>), u64> = HashMap::new();
    for s in &sites {
        *fn_total
            .entry((s.function.clone(), s.module.clone()))
            .or_default() += s.events();
    }
    sites.sort_by(|a, b| {
        let ta = fn_total[&(a.function.clone(), a.module.clone())];
        let tb = fn_total[&(b.function.clone(), b.module.clone())];
        tb.cmp(&ta)
            .then_with(|| a.function.cmp(&b.function))
            .then_with(|| a.module.cmp(&b.module))
            .then_with(|| b.events().cmp(&a.events()))
            .then_with(|| a.address.cmp(&b.address))
    });
    let (sampling, batch_weights) = sampling_of(raw, &mut sites);
    let totals = Totals {
        fp_operations: None,
        denormal_operands: sites.iter().map(|s| s.denormal_operands).sum(),
        denormal_results: sites.iter().map(|s| s.denormal_results).sum(),
        denormal_loads: None,
        denormal_stores: None,
        created: None,
    };

    let timeline = build_timeline(raw, &mut warnings);

    // Warnings, most important first.
    let env = &raw.fp_environment;
    let start_mx = parse_hex32(&env.mxcsr);
    if let Some(sm) = sampling.as_ref().filter(|s| s.estimated()) {
        warnings.push(format!(
            "sampled profile: the counts are the {} events seen in {} windows, not all events (the run had at least {}); the shares are estimates with 95% intervals; run with --exact to count every event",
            sm.samples, sm.windows, sm.events_at_least
        ));
    }
    if let Some(n) = raw
        .sampling
        .as_ref()
        .map(|r| r.timer_failures)
        .filter(|&n| n > 0)
    {
        warnings.push(format!(
            "the sampling timer could not be set up for {n} thread(s): they were sampled at their start only"
        ));
    }
    if raw
        .sampling
        .as_ref()
        .is_some_and(|r| r.signal_taken_by_program)
    {
        warnings.push(
            "the program installed a handler for the sampling timer's signal (SIGRTMAX-2): from then on only the start of each thread was sampled; run with --exact"
                .into(),
        );
    }
    if let Some(sig) = &raw.exit.signal {
        warnings.push(format!(
            "the program was killed by {sig}; the profile covers the run until then"
        ));
    }
    if start_mx & (MX_FTZ | MX_DAZ) != 0 {
        warnings.push(format!(
            "the program started with {} set (MXCSR {}): denormals are flushed to zero, so there is little or nothing to trace",
            ftz_daz_text(start_mx & MX_FTZ != 0, start_mx & MX_DAZ != 0),
            env.mxcsr
        ));
    } else if env.ftz || env.daz {
        warnings.push(format!(
            "the program set {} during the run (e.g. -ffast-math's crtfastmath start-up code, _mm_setcsr or fesetenv){}: from then on denormal results are flushed to zero and/or denormal inputs read as zero without an exception, so the profile is incomplete (thesis 4.4.6) — and the program's speed no longer depends on denormals",
            ftz_daz_text(env.ftz, env.daz),
            observed_at(env)
        ));
    }
    if env.masked_again {
        warnings.push(format!(
            "the program masked the denormal{} exception again during the run{} (e.g. fesetenv(FE_DFL_ENV), feholdexcept, _mm_setcsr or an x87 fldcw): instructions executed while it was masked were not counted, so the profile is incomplete (thesis 4.4.6)",
            if raw.options.underflow { "/underflow" } else { "" },
            observed_at(env)
        ));
    }
    if !raw.options.underflow {
        warnings.push(
            "denormal results (underflows) were not traced: denormal_results are 0; run with --underflow (TAINTPROF_DIP_UNDERFLOW=1) to count the instructions that produce denormals"
                .into(),
        );
    }
    if raw.options.x87 && !raw.x87.armed {
        warnings.push("x87 (long double) denormals could not be traced on this machine".into());
    }
    if raw.x87.replays.unverified > 0 {
        warnings.push(format!(
            "{} x87 instruction(s) were replayed without being able to check that they read the same operand again",
            raw.x87.replays.unverified
        ));
    }
    if raw.dropped_events > 0 {
        warnings.push(format!(
            "{} event(s) could not be counted (the address table was full)",
            raw.dropped_events
        ));
    }
    if raw.step_slots_exhausted > 0 {
        warnings.push(format!(
            "{} time(s) too many threads were stepping at once; the exception stayed masked on those threads afterwards, so the profile is incomplete",
            raw.step_slots_exhausted
        ));
    }
    if unmapped > 0 {
        warnings.push(format!(
            "{unmapped} event(s) at addresses outside every executable mapping at exit (code unloaded with dlclose, or generated at run time) are listed with absolute addresses"
        ));
    }
    for (m, why) in &unreadable {
        warnings.push(format!("cannot read {m} ({why}): its sites have no names"));
    }
    for (m, n) in &by_symbol {
        warnings.push(format!(
            "no debug information for {m}: {n} event(s) there are named from the symbol table, without source lines"
        ));
    }

    Ok(DenormalReport {
        schema: report::SCHEMA.into(),
        version: report::VERSION,
        mode: report::MODE_EXCEPTIONS.into(),
        tier: None,
        taintprof_version: if raw.taintprof_version.is_empty() {
            env!("CARGO_PKG_VERSION").to_string()
        } else {
            raw.taintprof_version.clone()
        },
        program: raw.program.clone(),
        exit: raw.exit.clone(),
        threads: raw.threads,
        fp_environment: FpEnvironment {
            ftz: env.ftz || start_mx & MX_FTZ != 0,
            daz: env.daz || start_mx & MX_DAZ != 0,
            mxcsr: format!("{start_mx:#06x}"),
            mxcsr_at_exit: env
                .mxcsr_at_exit
                .as_deref()
                .map(|m| format!("{:#06x}", parse_hex32(m))),
            changed_by_program: env.changed_by_program || env.ftz || env.daz || env.masked_again,
        },
        totals,
        sites,
        arrays: Vec::new(),
        origins: Vec::new(),
        creators: Vec::new(),
        creator_sites: None,
        snapshots: Vec::new(),
        origin_maps: Vec::new(),
        timeline,
        warnings,
        sampling,
        batch_weights,
    })
}

/// The report's `sampling` and, for a sampled profile that missed events, each site's
/// estimated share with its interval (sites keep their weighted batch counts; the
/// batch totals are returned for the shares of groups of sites).
fn sampling_of(raw: &RawReport, sites: &mut [Site]) -> (Option<report::Sampling>, Vec<u64>) {
    let Some(rs) = &raw.sampling else {
        return (
            Some(report::Sampling {
                mode: "exact".into(),
                ..Default::default()
            }),
            Vec::new(),
        );
    };
    if rs.mode != "sampled" {
        for s in sites.iter_mut() {
            s.weighted.clear();
        }
        return (
            Some(report::Sampling {
                mode: "exact".into(),
                ..Default::default()
            }),
            Vec::new(),
        );
    }
    let samples: u64 = sites.iter().map(|s| s.events()).sum();
    let complete = rs.full_windows == 0;
    let at_least = if complete || rs.full.window_ns == 0 {
        samples
    } else {
        let full = rs.full.samples as f64 * rs.full.interval_ns as f64 / rs.full.window_ns as f64;
        (rs.open.samples as f64 + full).max(samples as f64) as u64
    };
    let mut totals: Vec<u64> = Vec::new();
    for s in sites.iter() {
        report::add_weights(&mut totals, &s.weighted);
    }
    if complete {
        for s in sites.iter_mut() {
            s.weighted.clear();
        }
        totals.clear();
    } else {
        for s in sites.iter_mut() {
            s.share = Some(report::share_of(&s.weighted, &totals));
        }
    }
    let note = if complete {
        format!(
            "sampled, but no window filled up: all {samples} events were counted (exact counts)"
        )
    } else {
        format!(
            "sampled: {} of {} windows filled up, so events after their quota went unseen; counts are the {} events seen, shares are estimated from them (95% intervals); the run had at least {} events",
            rs.full_windows, rs.windows, samples, at_least
        )
    };
    (
        Some(report::Sampling {
            mode: "sampled".into(),
            scheme: rs.scheme.clone(),
            period_ms: rs.period_ms,
            overhead_pct: rs.overhead_pct,
            burst: rs.burst,
            windows: rs.windows,
            full_windows: rs.full_windows,
            samples,
            complete,
            event_cost_ns: rs.event_cost_ns,
            events_at_least: at_least,
            confidence: if complete { 1.0 } else { 0.95 },
            note,
        }),
        totals,
    )
}

fn ftz_daz_text(ftz: bool, daz: bool) -> &'static str {
    match (ftz, daz) {
        (true, true) => "flush-to-zero (FTZ) and denormals-are-zero (DAZ)",
        (true, false) => "flush-to-zero (FTZ)",
        (false, true) => "denormals-are-zero (DAZ)",
        (false, false) => "",
    }
}

fn observed_at(env: &raw::RawFpEnvironment) -> String {
    let mut places: Vec<&str> = Vec::new();
    for o in &env.observations {
        if !places.contains(&o.at.as_str()) {
            places.push(&o.at);
        }
    }
    if places.is_empty() {
        String::new()
    } else {
        format!(" (first seen at: {})", places.join(", "))
    }
}

fn resolve(
    addr: u64,
    mappings: &[&raw::Mapping],
    modules: &mut HashMap<String, Option<module::Module>>,
    unreadable: &mut BTreeMap<String, String>,
) -> Resolved {
    let i = mappings.partition_point(|m| m.start <= addr);
    let Some(m) = i
        .checked_sub(1)
        .map(|i| mappings[i])
        .filter(|m| addr < m.end)
    else {
        return Resolved {
            module: None,
            address: addr,
            place: module::Place::default(),
            decoded: None,
        };
    };
    let off = addr - m.start + m.offset;
    let pseudo = m.path.is_empty() || m.path.starts_with('[');
    let module = modules.entry(m.path.clone()).or_insert_with(|| {
        if pseudo {
            return None;
        }
        match module::Module::open(&m.path) {
            Ok(md) => Some(md),
            Err(e) => {
                unreadable.insert(m.path.clone(), e);
                None
            }
        }
    });
    let Some(md) = module else {
        return Resolved {
            module: Some(m.path.clone()),
            address: off,
            place: module::Place::default(),
            decoded: None,
        };
    };
    let vaddr = md.vaddr_of_offset(off).unwrap_or(off);
    Resolved {
        module: Some(m.path.clone()),
        address: vaddr,
        place: md.place(vaddr).unwrap_or_default(),
        decoded: disasm::decode(md.bytes_at(off), vaddr),
    }
}

fn build_timeline(raw: &RawReport, warnings: &mut Vec<String>) -> Vec<TimelineEntry> {
    let iv = raw.interval_ms.max(1);
    let last_event = raw.timeline.iter().map(|b| b.t_ms / iv).max();
    let end = (raw.duration_ms / iv).max(last_event.unwrap_or(0));
    let n = end.saturating_add(1) as usize;
    let factor = n.div_ceil(MAX_TIMELINE).max(1);
    let len = n.div_ceil(factor);
    let mut out: Vec<TimelineEntry> = (0..len)
        .map(|i| TimelineEntry {
            t_ms: (i * factor) as u64 * iv,
            denormal_operands: 0,
            denormal_results: 0,
        })
        .collect();
    for b in &raw.timeline {
        let i = ((b.t_ms / iv) as usize / factor).min(len.saturating_sub(1));
        if let Some(e) = out.get_mut(i) {
            e.denormal_operands += b.operands;
            e.denormal_results += b.results;
        }
    }
    if factor > 1 {
        warnings.push(format!(
            "the timeline has {n} intervals of {iv} ms; shown merged into {len} intervals of {} ms",
            factor as u64 * iv
        ));
    }
    if raw.timeline_truncated {
        warnings.push(
            "the run was longer than the timeline buffer: the last interval also holds every later event"
                .into(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use raw::*;

    fn raw_with(events: Vec<RawEvent>, mappings: Vec<Mapping>) -> RawReport {
        RawReport {
            schema: raw::SCHEMA.into(),
            version: 1,
            program: report::Program {
                name: "t".into(),
                path: "/t".into(),
                argv: vec!["t".into()],
                pid: 1,
            },
            exit: report::Exit {
                reason: "exit".into(),
                code: Some(0),
                ..Default::default()
            },
            threads: 1,
            interval_ms: 100,
            duration_ms: 250,
            timeline: vec![RawBucket {
                t_ms: 100,
                operands: 3,
                results: 1,
            }],
            events,
            mappings,
            ..Default::default()
        }
    }

    #[test]
    fn unmapped_addresses_still_give_sites() {
        let raw = raw_with(
            vec![RawEvent {
                address: 0xdead0000,
                operands: 3,
                results: 1,
                weighted: Vec::new(),
            }],
            vec![],
        );
        let r = symbolize(&raw).unwrap();
        assert_eq!(r.mode, "exceptions");
        assert_eq!(r.sites.len(), 1);
        assert_eq!(r.sites[0].function, "??");
        assert_eq!(r.sites[0].address.as_deref(), Some("0xdead0000"));
        assert_eq!(r.totals.denormal_operands, 3);
        assert_eq!(r.timeline.len(), 3);
        assert_eq!(r.timeline[1].denormal_operands, 3);
        assert!(r
            .warnings
            .iter()
            .any(|w| w.contains("outside every executable mapping")));
        let text = to_json(&r);
        let back: DenormalReport = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(v["sites"][0]["executions"].is_null());
        assert!(v["totals"]["fp_operations"].is_null());
        assert_eq!(v["arrays"], serde_json::json!([]));
    }

    #[test]
    fn long_timelines_are_merged() {
        let mut raw = raw_with(vec![], vec![]);
        raw.interval_ms = 1;
        raw.duration_ms = 250_000;
        raw.timeline = vec![RawBucket {
            t_ms: 249_999,
            operands: 5,
            results: 0,
        }];
        let mut w = Vec::new();
        let t = build_timeline(&raw, &mut w);
        assert!(t.len() <= MAX_TIMELINE);
        assert_eq!(t.iter().map(|e| e.denormal_operands).sum::<u64>(), 5);
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn resolves_own_test_binary() {
        // This test binary: map its text as the kernel would and look up a function.
        let exe = std::env::current_exe().unwrap();
        let f = resolves_own_test_binary as fn() as usize as u64;
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
        let mut mappings = Vec::new();
        for l in maps.lines() {
            let parts: Vec<&str> = l.split_whitespace().collect();
            if parts.len() >= 6 && parts[1].contains('x') {
                let (s, e) = parts[0].split_once('-').unwrap();
                mappings.push(Mapping {
                    path: parts[5..].join(" "),
                    start: u64::from_str_radix(s, 16).unwrap(),
                    end: u64::from_str_radix(e, 16).unwrap(),
                    offset: u64::from_str_radix(parts[2], 16).unwrap(),
                });
            }
        }
        let raw = raw_with(
            vec![RawEvent {
                address: f,
                operands: 1,
                results: 0,
                weighted: Vec::new(),
            }],
            mappings,
        );
        let r = symbolize(&raw).unwrap();
        let s = &r.sites[0];
        assert_eq!(s.module.as_deref(), Some(exe.to_str().unwrap()));
        assert!(s.function.contains("resolves_own_test_binary"), "{s:?}");
        assert!(s.instruction.is_some());
    }
}
