//! The presentation model of a denormal report: what `taintprof denormals` shows, in
//! the order it shows it, for both modes and both tiers of compiler mode (`full`, and
//! `profile`: the instruction profile and the creator sites only). [`summarize`]
//! selects and counts; every analysis result (counts, roles, origins, creators,
//! creator sites, heatmaps) is the report's. The model serializes as the `--json`
//! output (stable keys).

use super::{basename, DenormalReport};
use serde::Serialize;
use std::collections::HashMap;
use taintprof_symbolize::report::{Site, MODE_COMPILER, TIER_PROFILE};

/// Default number of sites shown (`--top`).
pub const DEFAULT_TOP: usize = 30;
/// At most this many rows in the over-time tables (intervals beyond are merged).
pub const MAX_TIME_ROWS: usize = 40;
/// At most this many arrays get columns in the snapshot table.
pub const MAX_TIME_ARRAYS: usize = 4;
/// Source lines shown in the by-line summary, at most.
pub const MAX_LINES: usize = 15;
/// Up to this many arrays, origins are shown as a dest × src matrix.
pub const MAX_MATRIX: usize = 6;

#[derive(Debug, Clone)]
pub struct SummaryOptions {
    /// Sites to show (the ones with most events); `None`: all.
    pub top: Option<usize>,
}

impl Default for SummaryOptions {
    fn default() -> Self {
        SummaryOptions {
            top: Some(DEFAULT_TOP),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The report file as given.
    pub file: String,
    pub program: String,
    pub pid: i64,
    pub command: String,
    pub threads: u32,
    /// `exited with code 0`, `killed by SIGSEGV (signal 11)`, `still running`.
    pub exit: String,
    pub exit_code: Option<i32>,
    pub signal: Option<String>,
    /// `compiler` or `exceptions`.
    pub mode: String,
    /// Compiler mode: `full` or `profile` (`full` for reports that do not say);
    /// `None` in exceptions mode.
    pub tier: Option<String>,
    pub fp_environment: FpEnv,
    pub totals: Totals,
    pub functions: Vec<FunctionRow>,
    /// Sites with events in the report, and how many of them `functions` shows.
    pub sites_total: usize,
    pub sites_shown: usize,
    /// Events of the sites not shown.
    pub events_not_shown: u64,
    /// The sites summed per source line (most events first), when that is shorter.
    pub lines: Vec<LineRow>,
    /// Compiler mode: the sites that created denormals from normal operands; `None`
    /// when the report has no such list (exceptions mode, older reports).
    pub creator_sites: Option<CreatorSites>,
    pub arrays: Vec<ArrayRow>,
    pub arrays_without_denormals: usize,
    pub origins: Vec<OriginRow>,
    /// Arrays (by name) of the origin matrix: rows and columns, when few enough.
    pub origin_matrix: Option<Vec<String>>,
    pub creators: Vec<CreatorGroup>,
    pub snapshots: Option<SnapshotTable>,
    pub timeline: Option<Timeline>,
    pub warnings: Vec<String>,
    /// Exceptions mode: exact or sampled (then the `percent`s are estimated shares
    /// with their intervals in `ci`).
    pub sampling: Option<taintprof_symbolize::report::Sampling>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FpEnv {
    /// MXCSR at start, e.g. `0x1f80`.
    pub mxcsr: String,
    /// MXCSR at exit, when the report has it (even when equal to the start value).
    pub mxcsr_at_exit: Option<String>,
    /// FTZ / DAZ seen set at any time (at start, during the run or at exit).
    pub ftz: bool,
    pub daz: bool,
    pub changed_by_program: bool,
    /// FTZ or DAZ: denormals are flushed, there is (nearly) nothing to trace.
    pub nothing_to_trace: bool,
}

const MX_DAZ: u32 = 1 << 6;
const MX_FTZ: u32 = 1 << 15;

/// FTZ and DAZ as set in an MXCSR value (`"0x9fc0"`); `None` if it does not parse.
fn mx_flags(v: &str) -> Option<(bool, bool)> {
    let m = u32::from_str_radix(v.trim().trim_start_matches("0x"), 16).ok()?;
    Some((m & MX_FTZ != 0, m & MX_DAZ != 0))
}

fn on_off(b: bool) -> &'static str {
    if b {
        "ON"
    } else {
        "off"
    }
}

impl FpEnv {
    fn start(&self) -> &str {
        if self.mxcsr.is_empty() {
            "?"
        } else {
            &self.mxcsr
        }
    }

    /// FTZ and DAZ in the start value.
    pub fn start_flags(&self) -> (bool, bool) {
        mx_flags(&self.mxcsr).unwrap_or((false, false))
    }

    /// FTZ and DAZ in the exit value, when known.
    pub fn exit_flags(&self) -> Option<(bool, bool)> {
        self.mxcsr_at_exit.as_deref().and_then(mx_flags)
    }

    /// The MXCSR as shown: `0x1f80`, `0x1f80 at start and at exit`, or
    /// `0x1f80 at start, 0x9fc0 at exit`.
    pub fn mxcsr_shown(&self) -> String {
        let start = self.start();
        match &self.mxcsr_at_exit {
            Some(end) if end == start => format!("{start} at start and at exit"),
            Some(end) => format!("{start} at start, {end} at exit"),
            None => start.to_string(),
        }
    }

    /// The FP environment line: each MXCSR value shown with the FTZ/DAZ bits *it*
    /// has, then what was seen in between (so value and flags always agree).
    /// `b` marks up an `ON` (HTML bold, or nothing for text).
    pub fn describe(&self, b: impl Fn(&str) -> String) -> String {
        let start = self.start();
        let (sf, sd) = self.start_flags();
        let flags = |(f, d): (bool, bool), long: bool| {
            if long {
                format!(
                    "flush-to-zero (FTZ) {}, denormals-are-zero (DAZ) {}",
                    b(on_off(f)),
                    b(on_off(d))
                )
            } else {
                format!("FTZ {}, DAZ {}", b(on_off(f)), b(on_off(d)))
            }
        };
        let mut o = match (&self.mxcsr_at_exit, self.exit_flags()) {
            (Some(end), Some(ef)) if end != start => format!(
                "MXCSR {start} at start ({}), {end} at exit ({})",
                flags((sf, sd), false),
                flags(ef, false)
            ),
            (Some(_), _) => format!(
                "MXCSR {start} at start and at exit: {}",
                flags((sf, sd), true)
            ),
            (None, _) => format!("MXCSR {start}: {}", flags((sf, sd), true)),
        };
        // Set during the run but in neither value shown (set, then cleared again; or
        // the exit value is unknown).
        let (ef, ed) = self.exit_flags().unwrap_or((false, false));
        let between = (self.ftz && !sf && !ef, self.daz && !sd && !ed);
        if between.0 || between.1 {
            o.push_str(&format!(
                "; {} {} ON during the run{}",
                match between {
                    (true, true) => "FTZ and DAZ",
                    (true, false) => "FTZ",
                    _ => "DAZ",
                },
                if between.0 && between.1 {
                    "were"
                } else {
                    "was"
                },
                if self.mxcsr_at_exit.is_some() {
                    ", not at exit"
                } else {
                    ""
                }
            ));
        }
        o
    }

    /// The verb of the alarm: the flags are still set in the last value shown ("are
    /// set"), or were set only for a while ("were set during the run").
    pub fn alarm_verb(&self) -> &'static str {
        let (f, d) = self.exit_flags().unwrap_or(self.start_flags());
        let current = (self.ftz && f) || (self.daz && d);
        match (current, self.ftz && self.daz) {
            (true, true) => "are set",
            (true, false) => "is set",
            (false, true) => "were set during the run",
            (false, false) => "was set during the run",
        }
    }

    /// What set FTZ/DAZ, for the "nothing to trace" alarm.
    pub fn why_flushed(&self) -> &'static str {
        let (sf, sd) = self.start_flags();
        if !(sf || sd) {
            "the program set them after start-up: -ffast-math / -Ofast link crtfastmath.o, whose constructor does; so does _mm_setcsr"
        } else {
            "-ffast-math / -Ofast link crtfastmath.o, which sets them at start-up; so does _mm_setcsr"
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Totals {
    pub fp_operations: Option<u64>,
    pub denormal_operands: u64,
    pub denormal_results: u64,
    pub denormal_loads: Option<u64>,
    pub denormal_stores: Option<u64>,
    /// All denormal events of all sites (operands + results + loads + stores).
    pub events: u64,
    /// Denormal operands per checked FP operation, in percent (compiler mode).
    pub operand_percent: Option<f64>,
    /// Compiler mode: denormal results created from normal operands (0 for reports
    /// that do not count them).
    pub created: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FunctionRow {
    pub function: String,
    /// The executable or library (exceptions mode).
    pub module: Option<String>,
    pub events: u64,
    pub percent: f64,
    /// Sampled profile: the 95 % interval of `percent`.
    pub ci: Option<(f64, f64)>,
    pub denormal_operands: u64,
    pub denormal_results: u64,
    pub denormal_loads: Option<u64>,
    pub denormal_stores: Option<u64>,
    /// All sites of the function with events.
    pub site_count: usize,
    /// The shown ones (`--top`), by events.
    pub sites: Vec<SiteRow>,
}

/// A site's type as the tables show it: the element type with the vector widths of the
/// copies merged into the row, widest first (`<4 x float> + float`: a vectorized loop
/// and its scalar remainder).
pub(crate) fn shown_type(ty: &str, lanes: &[u32]) -> String {
    if lanes.iter().all(|&w| w <= 1) {
        return ty.to_string();
    }
    let mut w = lanes.to_vec();
    w.sort_unstable_by(|a, b| b.cmp(a));
    w.dedup();
    w.iter()
        .map(|&n| {
            if n > 1 {
                format!("<{n} x {ty}>")
            } else {
                ty.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

#[derive(Debug, Clone, Serialize)]
pub struct SiteRow {
    /// `file:line:column` with the file's base name (`?` when unknown).
    pub source: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub op: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub executions: Option<u64>,
    pub denormal_operands: u64,
    pub denormal_results: u64,
    pub denormal_loads: Option<u64>,
    pub denormal_stores: Option<u64>,
    /// Compiler mode: result lanes made denormal from normal operands.
    pub created: Option<u64>,
    pub events: u64,
    pub percent: f64,
    /// Sampled profile: the 95 % interval of `percent`.
    pub ci: Option<(f64, f64)>,
    pub address: Option<String>,
    pub instruction: Option<String>,
}

/// The creator sites of a compiler-mode report: where denormals were made from normal
/// values (`creator_sites[]`), in the report's order (most first).
#[derive(Debug, Clone, Serialize)]
pub struct CreatorSites {
    /// Denormal results created from normal operands, all sites (`totals.created`).
    pub created: u64,
    /// Sites in the report, and the rows shown (`--top`).
    pub sites_total: usize,
    pub rows: Vec<CreatorSiteRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CreatorSiteRow {
    pub function: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// `gabor.c:12:18` (`?` when unknown).
    pub source: String,
    pub op: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub created: u64,
    /// Share of all created results, in percent.
    pub percent: f64,
}

/// All sites of one source line (thesis Table 6.6 groups instructions this way).
#[derive(Debug, Clone, Serialize)]
pub struct LineRow {
    /// `stencil.c:12`.
    pub source: String,
    pub file: String,
    pub line: u32,
    pub function: String,
    pub sites: usize,
    pub denormal_operands: u64,
    pub denormal_results: u64,
    pub denormal_loads: Option<u64>,
    pub denormal_stores: Option<u64>,
    pub events: u64,
    pub percent: f64,
    /// Sampled profile: the 95 % interval of `percent`.
    pub ci: Option<(f64, f64)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ArrayRow {
    pub id: u64,
    pub name: String,
    pub kind: String,
    pub element_type: String,
    pub elements: u64,
    pub shape: Option<Vec<u64>>,
    /// `512×512` or `1,039`.
    pub dimensions: String,
    pub denormal_reads: u64,
    pub denormal_writes: u64,
    pub role: String,
    /// The thesis's one-line reading of the role (6.2.2).
    pub reading: String,
    /// `main (jacobi.c:40)`.
    pub allocated_at: Option<String>,
    pub live: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct OriginRow {
    pub dest: String,
    pub src: String,
    pub count: u64,
    /// Share of `dest`'s denormal writes, in percent (when the array is known).
    pub percent_of_dest_writes: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CreatorGroup {
    pub array: String,
    pub total: u64,
    pub creators: Vec<CreatorRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CreatorRow {
    pub function: String,
    pub file: String,
    pub line: u32,
    /// `kernel.c:12`.
    pub source: String,
    pub op: String,
    pub count: u64,
    pub percent: f64,
    /// Creator sites merged into this row: copies of the operation that the optimizer
    /// made (vector body and remainder, unrolled iterations).
    pub copies: usize,
}

impl CreatorRow {
    /// A load or store named as the creator: the value was already denormal when the
    /// load read it (or the store wrote it) and nothing instrumented had computed it —
    /// uninitialized memory, data written by I/O or by code built without taintprof,
    /// float bits moved as integers, or a denormal constant. The chain stops here.
    pub fn found_not_made(&self) -> bool {
        matches!(self.op.as_str(), "load" | "store")
    }
}

/// What a load or store in the creators' place means (the text and HTML reports).
pub const FOUND_NOT_MADE: &str = "load or store as creator: the value was already denormal in memory (or a constant) and nothing instrumented computed it: uninitialized memory, I/O, code built without taintprof, or float bits moved as integers";

/// Snapshots as intervals: denormal reads/writes per array between consecutive
/// snapshots (the report's counters are cumulative), like thesis Table 4.5.
#[derive(Debug, Clone, Serialize)]
pub struct SnapshotTable {
    /// The arrays with columns (most events first).
    pub arrays: Vec<String>,
    /// Arrays with denormals that have no column.
    pub other_arrays: usize,
    pub rows: Vec<SnapshotRow>,
    /// Snapshots in the report (rows may merge several).
    pub snapshots: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct SnapshotRow {
    /// `3` or `3–10` when merged.
    pub index: String,
    pub label: String,
    /// FP operations during the interval.
    pub fp_operations: u64,
    /// Per column array: (reads, writes) during the interval.
    pub counts: Vec<(u64, u64)>,
    /// All arrays: reads + writes during the interval.
    pub events: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Timeline {
    /// Width of a row in milliseconds (the report's interval × merge factor); `None`
    /// when the timeline has one interval (its width is not in the report).
    pub row_ms: Option<u64>,
    pub rows: Vec<TimelineRow>,
    pub duration_ms: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct TimelineRow {
    pub t_ms: u64,
    pub denormal_operands: u64,
    pub denormal_results: u64,
}

/// The thesis's reading of an array role (6.2.2).
pub fn role_reading(role: &str) -> &'static str {
    match role {
        "source" => "few denormal writes, many reads: likely a source of denormals (written once, e.g. at initialisation, then read again and again)",
        "propagates" => "reads and writes balanced: denormals pass through (propagated within the array, or it holds intermediate results); not their source",
        "sink" => "many denormal writes, few reads: a sink (values overwritten without use, or filtered after they are written)",
        "none" => "no denormal reads or writes",
        _ => "",
    }
}

impl Summary {
    /// A compiler-mode report of the profile tier (no arrays, origins or heatmaps were
    /// recorded).
    pub fn profile_tier(&self) -> bool {
        self.tier.as_deref() == Some(TIER_PROFILE)
    }
}

/// What a compiler-mode report of `tier` holds, for its header.
pub fn tier_text(tier: &str) -> String {
    if tier == TIER_PROFILE {
        format!("{tier} (instruction profile and creator sites; build with --tp-denormal=full for arrays, heatmaps and origins)")
    } else {
        format!("{tier} (instruction profile, creator sites, arrays, heatmaps, origins)")
    }
}

/// `exited with code 0`, `killed by SIGSEGV (signal 11)`.
pub fn exit_text(e: &taintprof_symbolize::report::Exit) -> String {
    match e.reason.as_str() {
        "exit" => format!("exited with code {}", e.code.unwrap_or(0)),
        "signal" => match (&e.signal, e.number) {
            (Some(s), Some(n)) => format!("killed by {s} (signal {n})"),
            (Some(s), None) => format!("killed by {s}"),
            (None, Some(n)) => format!("killed by signal {n}"),
            (None, None) => "killed by a signal".into(),
        },
        "running" => "still running when the report was written".into(),
        other => other.to_string(),
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn add_opt(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (None, None) => None,
        _ => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
    }
}

/// `file:line:column` with the file's base name (`?` when the file is unknown).
fn source_of(file: &str, line: u32, column: u32) -> String {
    if file.is_empty() {
        "?".to_string()
    } else if column > 0 {
        format!("{}:{}:{}", basename(file), line, column)
    } else {
        format!("{}:{}", basename(file), line)
    }
}

fn site_row(r: &DenormalReport, s: &Site, total: u64) -> SiteRow {
    let (percent_, ci) = share(r, std::iter::once(s), s.events(), total);
    let source = source_of(&s.file, s.line, s.column);
    SiteRow {
        source,
        file: s.file.clone(),
        line: s.line,
        column: s.column,
        op: s.op.clone(),
        ty: shown_type(&s.ty, &s.lanes),
        executions: s.executions,
        denormal_operands: s.denormal_operands,
        denormal_results: s.denormal_results,
        denormal_loads: s.denormal_loads,
        denormal_stores: s.denormal_stores,
        created: (r.mode == MODE_COMPILER).then(|| s.created.unwrap_or(0)),
        events: s.events(),
        percent: percent_,
        ci,
        address: s.address.clone(),
        instruction: s.instruction.clone(),
    }
}

/// The share of a group of sites: of the counts, or (sampled profile) the estimate
/// with its interval.
fn share<'a>(
    r: &DenormalReport,
    sites: impl IntoIterator<Item = &'a Site>,
    events: u64,
    total: u64,
) -> (f64, Option<(f64, f64)>) {
    if r.sampled() {
        let sh = r.share_of_sites(sites);
        (sh.percent, Some((sh.low, sh.high)))
    } else {
        (percent(events, total), None)
    }
}

/// Merges `n` consecutive items into at most `max` groups: the (start, end) index
/// ranges, end exclusive.
pub fn groups(n: usize, max: usize) -> Vec<(usize, usize)> {
    if n == 0 {
        return Vec::new();
    }
    let per = n.div_ceil(max.max(1));
    (0..n).step_by(per).map(|s| (s, (s + per).min(n))).collect()
}

/// Builds the presentation model of `r`; `file` is how the report is named.
pub fn summarize(r: &DenormalReport, file: &str, opts: &SummaryOptions) -> Summary {
    let compiler = r.mode == MODE_COMPILER;
    let total_events: u64 = r.sites.iter().map(Site::events).sum();

    // Instruction profile: functions by events, their sites by events.
    let mut order: Vec<usize> = (0..r.sites.len())
        .filter(|&i| r.sites[i].events() > 0)
        .collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&r.sites[a], &r.sites[b]);
        y.events()
            .cmp(&x.events())
            .then_with(|| x.file.cmp(&y.file))
            .then_with(|| x.line.cmp(&y.line))
            .then_with(|| x.column.cmp(&y.column))
            .then_with(|| x.address.cmp(&y.address))
    });
    let sites_total = order.len();
    let shown: Vec<usize> = match opts.top {
        Some(n) if n > 0 => order.iter().copied().take(n).collect(),
        _ => order.clone(),
    };
    let mut is_shown = vec![false; r.sites.len()];
    for &i in &shown {
        is_shown[i] = true;
    }
    let events_not_shown: u64 = order
        .iter()
        .filter(|&&i| !is_shown[i])
        .map(|&i| r.sites[i].events())
        .sum();
    let mut functions: Vec<FunctionRow> = Vec::new();
    let mut fn_index: HashMap<(&str, Option<&str>), usize> = HashMap::new();
    for &i in &order {
        let s = &r.sites[i];
        let pos = match fn_index.get(&(s.function.as_str(), s.module.as_deref())) {
            Some(&p) => p,
            None => {
                fn_index.insert((s.function.as_str(), s.module.as_deref()), functions.len());
                functions.push(FunctionRow {
                    function: s.function.clone(),
                    module: s.module.clone(),
                    events: 0,
                    percent: 0.0,
                    ci: None,
                    denormal_operands: 0,
                    denormal_results: 0,
                    denormal_loads: None,
                    denormal_stores: None,
                    site_count: 0,
                    sites: Vec::new(),
                });
                functions.len() - 1
            }
        };
        let f = &mut functions[pos];
        f.events += s.events();
        f.denormal_operands += s.denormal_operands;
        f.denormal_results += s.denormal_results;
        f.denormal_loads = add_opt(f.denormal_loads, s.denormal_loads);
        f.denormal_stores = add_opt(f.denormal_stores, s.denormal_stores);
        f.site_count += 1;
        if is_shown[i] {
            f.sites.push(site_row(r, s, total_events));
        }
    }
    for f in &mut functions {
        let of_f = r
            .sites
            .iter()
            .filter(|x| x.function == f.function && x.module == f.module);
        (f.percent, f.ci) = share(r, of_f, f.events, total_events);
    }
    functions.sort_by(|a, b| {
        b.percent
            .total_cmp(&a.percent)
            .then_with(|| b.events.cmp(&a.events))
            .then_with(|| a.function.cmp(&b.function))
    });
    functions.retain(|f| !f.sites.is_empty());

    // By source line.
    let mut lines: Vec<LineRow> = Vec::new();
    let mut line_index: HashMap<(&str, u32, &str), usize> = HashMap::new();
    for &i in &order {
        let x = &r.sites[i];
        if x.file.is_empty() || x.line == 0 {
            continue;
        }
        let key = (x.file.as_str(), x.line, x.function.as_str());
        let pos = match line_index.get(&key) {
            Some(&p) => p,
            None => {
                line_index.insert(key, lines.len());
                lines.push(LineRow {
                    source: format!("{}:{}", basename(&x.file), x.line),
                    file: x.file.clone(),
                    line: x.line,
                    function: x.function.clone(),
                    sites: 0,
                    denormal_operands: 0,
                    denormal_results: 0,
                    denormal_loads: None,
                    denormal_stores: None,
                    events: 0,
                    percent: 0.0,
                    ci: None,
                });
                lines.len() - 1
            }
        };
        let l = &mut lines[pos];
        l.sites += 1;
        l.denormal_operands += x.denormal_operands;
        l.denormal_results += x.denormal_results;
        l.denormal_loads = add_opt(l.denormal_loads, x.denormal_loads);
        l.denormal_stores = add_opt(l.denormal_stores, x.denormal_stores);
        l.events += x.events();
    }
    for l in &mut lines {
        let of_l = r
            .sites
            .iter()
            .filter(|x| x.file == l.file && x.line == l.line && x.function == l.function);
        (l.percent, l.ci) = share(r, of_l, l.events, total_events);
    }
    lines.sort_by(|a, b| {
        b.percent
            .total_cmp(&a.percent)
            .then_with(|| b.events.cmp(&a.events))
            .then_with(|| a.source.cmp(&b.source))
    });
    if lines.len() >= sites_total {
        // Nothing to sum: every line has one site.
        lines.clear();
    }
    lines.truncate(MAX_LINES);

    // Arrays: with denormals first (most events first), then the others by name.
    let mut arrays: Vec<ArrayRow> = r
        .arrays
        .iter()
        .map(|a| ArrayRow {
            id: a.id,
            name: a.name.clone(),
            kind: a.kind.clone(),
            element_type: a.element_type.clone(),
            elements: a.elements,
            shape: a.shape.clone(),
            dimensions: match &a.shape {
                Some(s) if !s.is_empty() => s
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join("×"),
                _ => super::thousands(a.elements),
            },
            denormal_reads: a.denormal_reads,
            denormal_writes: a.denormal_writes,
            role: a.role.clone(),
            reading: role_reading(&a.role).to_string(),
            allocated_at: a.allocated_at.as_ref().map(|p| {
                if p.file.is_empty() {
                    p.function.clone()
                } else if p.function.is_empty() {
                    format!("{}:{}", basename(&p.file), p.line)
                } else {
                    format!("{} ({}:{})", p.function, basename(&p.file), p.line)
                }
            }),
            live: a.live,
        })
        .collect();
    arrays.sort_by(|a, b| {
        let ea = a.denormal_reads + a.denormal_writes;
        let eb = b.denormal_reads + b.denormal_writes;
        eb.cmp(&ea)
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.id.cmp(&b.id))
    });
    let arrays_without_denormals = arrays
        .iter()
        .filter(|a| a.denormal_reads + a.denormal_writes == 0)
        .count();

    // Origins.
    let writes_of = |name: &str| -> Option<u64> {
        let mut it = r.arrays.iter().filter(|a| a.name == name);
        let a = it.next()?;
        // Ambiguous names: no percentage.
        if it.next().is_some() {
            return None;
        }
        Some(a.denormal_writes)
    };
    let mut origins: Vec<OriginRow> = r
        .origins
        .iter()
        .filter(|o| o.count > 0)
        .map(|o| OriginRow {
            dest: o.dest.clone(),
            src: o.src.clone(),
            count: o.count,
            percent_of_dest_writes: writes_of(&o.dest)
                .filter(|w| *w > 0)
                .map(|w| percent(o.count, w)),
        })
        .collect();
    origins.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.dest.cmp(&b.dest))
            .then_with(|| a.src.cmp(&b.src))
    });
    let origin_matrix = {
        let mut names: Vec<String> = Vec::new();
        for o in &origins {
            for n in [&o.dest, &o.src] {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
        // Matrix order: the arrays table's order.
        names.sort_by_key(|n| {
            arrays
                .iter()
                .position(|a| &a.name == n)
                .unwrap_or(usize::MAX)
        });
        (!names.is_empty() && names.len() <= MAX_MATRIX && names.iter().all(|n| !n.is_empty()))
            .then_some(names)
    };

    // Creators grouped by array.
    let mut creators: Vec<CreatorGroup> = Vec::new();
    for c in r.creators.iter().filter(|c| c.count > 0) {
        let g = match creators.iter().position(|g| g.array == c.array) {
            Some(p) => &mut creators[p],
            None => {
                creators.push(CreatorGroup {
                    array: c.array.clone(),
                    total: 0,
                    creators: Vec::new(),
                });
                creators.last_mut().expect("just pushed")
            }
        };
        g.total += c.count;
        // Copies of one operation (vector body, remainder, unrolled) are one creator.
        if let Some(x) = g.creators.iter_mut().find(|x| {
            x.function == c.function && x.file == c.file && x.line == c.line && x.op == c.op
        }) {
            x.count += c.count;
            x.copies += 1;
            continue;
        }
        g.creators.push(CreatorRow {
            copies: 1,
            function: c.function.clone(),
            file: c.file.clone(),
            line: c.line,
            source: if c.file.is_empty() {
                "?".into()
            } else {
                format!("{}:{}", basename(&c.file), c.line)
            },
            op: c.op.clone(),
            count: c.count,
            percent: 0.0,
        });
    }
    for g in &mut creators {
        let t = g.total;
        for c in &mut g.creators {
            c.percent = percent(c.count, t);
        }
        g.creators
            .sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.source.cmp(&b.source)));
    }
    creators.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.array.cmp(&b.array)));

    // Creator sites: the report's order (most created first), `--top` of them.
    let creator_sites = r.creator_sites.as_ref().filter(|_| compiler).map(|all| {
        let listed: u64 = all.iter().map(|c| c.created).sum();
        let created = r.totals.created.unwrap_or(0).max(listed);
        let n = match opts.top {
            Some(n) if n > 0 => n,
            _ => all.len(),
        };
        CreatorSites {
            created,
            sites_total: all.len(),
            rows: all
                .iter()
                .take(n)
                .map(|c| CreatorSiteRow {
                    function: c.function.clone(),
                    file: c.file.clone(),
                    line: c.line,
                    column: c.column,
                    source: source_of(&c.file, c.line, c.column),
                    op: c.op.clone(),
                    ty: c.ty.clone(),
                    created: c.created,
                    percent: percent(c.created, created),
                })
                .collect(),
        }
    });

    // A profile-tier report's snapshots hold no arrays: no table of array counts.
    let profile = compiler && r.tier() == Some(TIER_PROFILE);
    let snapshots = if profile && r.snapshots.iter().all(|x| x.arrays.is_empty()) {
        None
    } else {
        snapshot_table(r, &arrays)
    };
    let timeline = (!compiler && !r.timeline.is_empty()).then(|| timeline(r));

    let fp = &r.fp_environment;
    let t = &r.totals;
    Summary {
        file: file.to_string(),
        program: r.program.name.clone(),
        pid: r.program.pid,
        command: if r.program.argv.is_empty() {
            r.program.path.clone()
        } else {
            r.program
                .argv
                .iter()
                .map(|a| crate::cc::shell_quote(a))
                .collect::<Vec<_>>()
                .join(" ")
        },
        threads: r.threads,
        exit: exit_text(&r.exit),
        exit_code: r.exit.code,
        signal: r.exit.signal.clone(),
        mode: r.mode.clone(),
        tier: r.tier().map(str::to_string),
        fp_environment: FpEnv {
            mxcsr: fp.mxcsr.clone(),
            mxcsr_at_exit: fp.mxcsr_at_exit.clone(),
            ftz: fp.ftz,
            daz: fp.daz,
            changed_by_program: fp.changed_by_program,
            nothing_to_trace: fp.ftz || fp.daz,
        },
        totals: Totals {
            fp_operations: t.fp_operations,
            denormal_operands: t.denormal_operands,
            denormal_results: t.denormal_results,
            denormal_loads: t.denormal_loads,
            denormal_stores: t.denormal_stores,
            events: total_events,
            operand_percent: t
                .fp_operations
                .filter(|&n| n > 0)
                .map(|n| percent(t.denormal_operands, n)),
            created: compiler.then(|| t.created.unwrap_or(0)),
        },
        functions,
        sites_total,
        sites_shown: shown.len(),
        events_not_shown,
        lines,
        creator_sites,
        arrays,
        arrays_without_denormals,
        origins,
        origin_matrix,
        creators,
        snapshots,
        timeline,
        warnings: r.warnings.clone(),
        sampling: r.sampling.clone(),
    }
}

/// Per-interval counts of each array at each snapshot: the difference of consecutive
/// cumulative counters (negative differences, from a counter reset, count as the new
/// value).
pub fn interval_counts(r: &DenormalReport) -> Vec<Vec<(u64, u64, u64)>> {
    // Per snapshot: (array id, reads, writes) during the interval.
    let mut last: std::collections::HashMap<u64, (u64, u64)> = Default::default();
    let mut out = Vec::new();
    for s in &r.snapshots {
        let mut row = Vec::new();
        for a in &s.arrays {
            let (pr, pw) = last.get(&a.id).copied().unwrap_or((0, 0));
            let dr = a.denormal_reads.checked_sub(pr).unwrap_or(a.denormal_reads);
            let dw = a
                .denormal_writes
                .checked_sub(pw)
                .unwrap_or(a.denormal_writes);
            last.insert(a.id, (a.denormal_reads, a.denormal_writes));
            row.push((a.id, dr, dw));
        }
        out.push(row);
    }
    out
}

fn snapshot_table(r: &DenormalReport, arrays: &[ArrayRow]) -> Option<SnapshotTable> {
    if r.snapshots.is_empty() {
        return None;
    }
    let with: Vec<&ArrayRow> = arrays
        .iter()
        .filter(|a| a.denormal_reads + a.denormal_writes > 0)
        .collect();
    let cols: Vec<&ArrayRow> = with.iter().take(MAX_TIME_ARRAYS).copied().collect();
    let intervals = interval_counts(r);
    let mut rows = Vec::new();
    let mut prev_ops = 0u64;
    let ops: Vec<u64> = r
        .snapshots
        .iter()
        .map(|s| {
            let d = s
                .fp_operations
                .checked_sub(prev_ops)
                .unwrap_or(s.fp_operations);
            prev_ops = s.fp_operations;
            d
        })
        .collect();
    for (a, b) in groups(r.snapshots.len(), MAX_TIME_ROWS) {
        let mut counts = vec![(0u64, 0u64); cols.len()];
        let mut events = 0u64;
        for iv in &intervals[a..b] {
            for &(id, dr, dw) in iv {
                events += dr + dw;
                if let Some(c) = cols.iter().position(|x| x.id == id) {
                    counts[c].0 += dr;
                    counts[c].1 += dw;
                }
            }
        }
        let first = &r.snapshots[a];
        let last = &r.snapshots[b - 1];
        rows.push(SnapshotRow {
            index: if b - a == 1 {
                first.index.to_string()
            } else {
                format!("{}–{}", first.index, last.index)
            },
            label: if b - a == 1 || first.label == last.label {
                last.label.clone()
            } else {
                format!("{} … {}", first.label, last.label)
            },
            fp_operations: ops[a..b].iter().sum(),
            counts,
            events,
        });
    }
    Some(SnapshotTable {
        arrays: cols.iter().map(|a| a.name.clone()).collect(),
        other_arrays: with.len() - cols.len(),
        rows,
        snapshots: r.snapshots.len(),
    })
}

fn timeline(r: &DenormalReport) -> Timeline {
    let tl = &r.timeline;
    let step = if tl.len() >= 2 {
        tl[1].t_ms.saturating_sub(tl[0].t_ms).max(1)
    } else {
        1
    };
    let mut rows = Vec::new();
    let g = groups(tl.len(), MAX_TIME_ROWS);
    let row_ms = if tl.len() < 2 {
        None
    } else {
        g.first().map(|(a, b)| step * (b - a) as u64)
    };
    for (a, b) in g {
        rows.push(TimelineRow {
            t_ms: tl[a].t_ms,
            denormal_operands: tl[a..b].iter().map(|e| e.denormal_operands).sum(),
            denormal_results: tl[a..b].iter().map(|e| e.denormal_results).sum(),
        });
    }
    Timeline {
        row_ms,
        rows,
        duration_ms: tl.last().map(|e| e.t_ms + step).unwrap_or(0),
    }
}

/// Compiler-mode reports as `taintprof-model` writes them, for the tests of the
/// summary, the text, the HTML and `--compare`.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::super::{parse, DenormalReport};

    /// One site row (`created` omitted when `None`, as in older reports).
    fn site(line: u32, column: u32, op: &str, counts: [u64; 4], created: Option<u64>) -> String {
        let [operands, results, loads, stores] = counts;
        format!(
            r#"{{"function":"compute","linkage":"compute","file":"/src/k.c","line":{line},"column":{column},"op":"{op}","type":"float","lanes":[1,4],"executions":400,"denormal_operands":{operands},"operations_with_denormal_operands":{operands},"denormal_results":{results},"denormal_loads":{loads},"denormal_stores":{stores}{}}}"#,
            created
                .map(|c| format!(r#","created":{c}"#))
                .unwrap_or_default()
        )
    }

    /// A report of `k.c`: `tier` (absent when `None`), the sites' `created` and
    /// `creator_sites` (both absent when `with_created` is false: an older report),
    /// and, when `arrays`, one array with its origin and creator.
    pub fn report(tier: Option<&str>, with_created: bool, arrays: bool) -> DenormalReport {
        let c = |n: u64| with_created.then_some(n);
        let sites = [
            site(12, 5, "call expf", [0, 7, 0, 0], c(7)),
            site(14, 9, "fmul", [4, 4, 0, 0], c(4)),
            site(13, 3, "load", [0, 0, 6, 0], c(0)),
            site(15, 3, "store", [0, 0, 0, 3], c(0)),
        ]
        .join(",");
        let creator_sites = if with_created {
            r#""creator_sites":[{"function":"compute","file":"/src/k.c","line":12,"column":5,"op":"call expf","type":"float","created":7},{"function":"compute","file":"/src/k.c","line":14,"column":9,"op":"fmul","type":"float","created":4}],"#
        } else {
            ""
        };
        let (arr, origins, creators, snap) = if arrays {
            (
                r#"[{"id":1,"name":"grid","kind":"heap","element_type":"float","elements":16,"shape":null,"allocated_at":{"function":"main","file":"/src/k.c","line":3},"denormal_reads":6,"denormal_writes":3,"role":"propagates","live":false}]"#,
                r#"[{"dest":"grid","src":"grid","count":2}]"#,
                r#"[{"array":"grid","function":"compute","file":"/src/k.c","line":12,"op":"call expf","count":9}]"#,
                r#"[{"id":1,"denormal_reads":6,"denormal_writes":3,"heatmap":{"rows":4,"cols":4,"cell":[1,1],"reads":[1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0],"writes":[1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0]}}]"#,
            )
        } else {
            ("[]", "[]", "[]", "[]")
        };
        let text = format!(
            r#"{{"schema":"taintprof.denormal","version":2,"mode":"compiler",{}"taintprof_version":"0.1.0",
              "program":{{"name":"k","path":"/k","argv":["./k"],"pid":5}},"exit":{{"reason":"exit","code":0}},"threads":1,
              "fp_environment":{{"ftz":false,"daz":false,"mxcsr":"0x1f80","mxcsr_at_exit":"0x1f80","changed_by_program":false}},
              "totals":{{"fp_operations":1600,"denormal_operands":4,"denormal_results":11,"denormal_loads":6,"denormal_stores":3{}}},
              "sites":[{sites}],"arrays":{arr},"origins":{origins},"creators":{creators},{creator_sites}
              "snapshots":[{{"index":0,"label":"exit","fp_operations":1600,"arrays":{snap}}}],
              "origin_maps":[],"timeline":[],"warnings":[]}}"#,
            tier.map(|t| format!(r#""tier":"{t}","#))
                .unwrap_or_default(),
            if with_created { r#","created":11"# } else { "" },
        );
        parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tier_and_the_created_counts_come_from_the_report() {
        let r = fixtures::report(Some("profile"), true, false);
        let s = summarize(&r, "k.5.denormal.json", &SummaryOptions::default());
        assert_eq!(s.tier.as_deref(), Some("profile"));
        assert!(s.profile_tier());
        assert_eq!(s.totals.created, Some(11));
        let row = |s: &Summary, op: &str| -> SiteRow {
            s.functions[0]
                .sites
                .iter()
                .find(|x| x.op == op)
                .cloned()
                .unwrap()
        };
        assert_eq!(row(&s, "call expf").created, Some(7));
        assert_eq!(row(&s, "load").created, Some(0));
        let cs = s.creator_sites.as_ref().unwrap();
        assert_eq!((cs.created, cs.sites_total, cs.rows.len()), (11, 2, 2));
        assert_eq!(cs.rows[0].source, "k.c:12:5");
        assert_eq!(cs.rows[1].op, "fmul");
        assert!((cs.rows[0].percent - 700.0 / 11.0).abs() < 1e-9);
        // Snapshots without arrays (the profile tier): no table of array counts.
        assert!(s.snapshots.is_none());
        // `--top` limits the creator sites like the sites.
        let one = summarize(&r, "k", &SummaryOptions { top: Some(1) });
        let cs = one.creator_sites.unwrap();
        assert_eq!((cs.sites_total, cs.rows.len()), (2, 1));
        // A report without `tier` is the full tier; without `created`, 0; without
        // `creator_sites`, no list.
        let old = summarize(
            &fixtures::report(None, false, true),
            "k",
            &SummaryOptions::default(),
        );
        assert_eq!(old.tier.as_deref(), Some("full"));
        assert!(!old.profile_tier());
        assert_eq!(old.totals.created, Some(0));
        assert_eq!(row(&old, "call expf").created, Some(0));
        assert!(old.creator_sites.is_none());
        assert!(old.snapshots.is_some());
    }

    fn env(start: &str, exit: Option<&str>, ftz: bool, daz: bool) -> FpEnv {
        FpEnv {
            mxcsr: start.into(),
            mxcsr_at_exit: exit.map(Into::into),
            ftz,
            daz,
            changed_by_program: ftz || daz,
            nothing_to_trace: ftz || daz,
        }
    }

    #[test]
    fn fp_env_flags_follow_each_value() {
        let t = |e: &FpEnv| e.describe(|s| s.to_string());
        // The program set FTZ/DAZ after start: each value with its own flags.
        let e = env("0x1f80", Some("0x9fc0"), true, true);
        assert_eq!(
            t(&e),
            "MXCSR 0x1f80 at start (FTZ off, DAZ off), 0x9fc0 at exit (FTZ ON, DAZ ON)"
        );
        assert_eq!(e.alarm_verb(), "are set");
        // Set from the start (older report without an exit value).
        let e = env("0x9fc0", None, true, true);
        assert_eq!(
            t(&e),
            "MXCSR 0x9fc0: flush-to-zero (FTZ) ON, denormals-are-zero (DAZ) ON"
        );
        // Set during the run, exit value unknown: the start value keeps its flags.
        let e = env("0x1f80", None, true, false);
        assert_eq!(
            t(&e),
            "MXCSR 0x1f80: flush-to-zero (FTZ) off, denormals-are-zero (DAZ) off; FTZ was ON during the run"
        );
        assert_eq!(e.alarm_verb(), "was set during the run");
        // Set, then cleared again before exit.
        let e = env("0x1f80", Some("0x1f80"), true, true);
        assert_eq!(
            t(&e),
            "MXCSR 0x1f80 at start and at exit: flush-to-zero (FTZ) off, denormals-are-zero (DAZ) off; FTZ and DAZ were ON during the run, not at exit"
        );
        // Nothing happened.
        let e = env("0x1f80", Some("0x1f80"), false, false);
        assert_eq!(
            t(&e),
            "MXCSR 0x1f80 at start and at exit: flush-to-zero (FTZ) off, denormals-are-zero (DAZ) off"
        );
    }

    #[test]
    fn grouping() {
        assert_eq!(groups(0, 5), vec![]);
        assert_eq!(groups(3, 5), vec![(0, 1), (1, 2), (2, 3)]);
        assert_eq!(groups(10, 4), vec![(0, 3), (3, 6), (6, 9), (9, 10)]);
        assert_eq!(groups(8, 4), vec![(0, 2), (2, 4), (4, 6), (6, 8)]);
    }

    #[test]
    fn a_site_shows_the_vector_widths_merged_into_it() {
        assert_eq!(shown_type("float", &[]), "float"); // version 1, exceptions mode
        assert_eq!(shown_type("<4 x float>", &[]), "<4 x float>");
        assert_eq!(shown_type("double", &[1]), "double");
        assert_eq!(shown_type("float", &[1, 4]), "<4 x float> + float");
        assert_eq!(
            shown_type("float", &[1, 8, 16]),
            "<16 x float> + <8 x float> + float"
        );
        assert_eq!(shown_type("double", &[2]), "<2 x double>");
    }

    #[test]
    fn roles_have_readings() {
        for r in ["source", "propagates", "sink", "none"] {
            assert!(!role_reading(r).is_empty());
        }
        assert_eq!(role_reading("weird"), "");
    }
}
