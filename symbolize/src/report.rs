//! The denormal report, `docs/report-schema.md` § "Denormal report —
//! `taintprof.denormal` v2", as serde types. Both modes use them: `"compiler"` (written
//! by instrumented programs) and `"exceptions"` (made here from a raw DIP report).
//! Counts that a mode cannot know are `null` (`Option`), keys only one mode has are
//! omitted when absent; unknown keys are ignored on reading.

use serde::{Deserialize, Serialize};

pub const SCHEMA: &str = "taintprof.denormal";
/// Version 2: a site row is one source operation whatever the vector width (`type` is
/// the element type; `lanes` the widths of the merged copies). Version 1 had a row per
/// width (`"type": "<4 x float>"`). Readers accept both.
pub const VERSION: u32 = 2;
pub const MIN_VERSION: u32 = 1;
pub const MODE_EXCEPTIONS: &str = "exceptions";
pub const MODE_COMPILER: &str = "compiler";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Program {
    pub name: String,
    pub path: String,
    #[serde(default)]
    pub argv: Vec<String>,
    pub pid: i64,
}

/// `{"reason": "exit", "code": 0}`, `{"reason": "signal", "signal": "SIGSEGV",
/// "number": 11}` or `{"reason": "running"}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Exit {
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<i32>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FpEnvironment {
    pub ftz: bool,
    pub daz: bool,
    /// MXCSR at start, e.g. `"0x1f80"`.
    pub mxcsr: String,
    /// MXCSR at exit (absent from older reports, and from exception profiles of a run a
    /// signal ended).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mxcsr_at_exit: Option<String>,
    pub changed_by_program: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// Every checked FP operation (compiler mode); `null` in exceptions mode.
    pub fp_operations: Option<u64>,
    pub denormal_operands: u64,
    pub denormal_results: u64,
    /// `null` in exceptions mode (moves never trap).
    pub denormal_loads: Option<u64>,
    pub denormal_stores: Option<u64>,
    /// Compiler mode: denormal results created from normal operands (the sites'
    /// `created` summed). Absent in exceptions mode and in older compiler-mode reports
    /// (read as 0 there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Site {
    pub function: String,
    pub linkage: String,
    /// Source file ("" when unknown).
    pub file: String,
    /// Source line (0 when unknown).
    pub line: u32,
    pub column: u32,
    pub op: String,
    /// The element type: `float`, `double`, ... (exceptions mode: the instruction's).
    #[serde(rename = "type")]
    pub ty: String,
    /// Compiler mode: the vector widths of the copies merged into this row (`[1, 4]`:
    /// a vectorized loop and its scalar remainder). Absent in exceptions mode.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lanes: Vec<u32>,
    /// Element-wise executions (compiler mode); `null` in exceptions mode.
    pub executions: Option<u64>,
    pub denormal_operands: u64,
    /// Compiler mode: operations (per lane) with at least one denormal operand — the
    /// unit of the CPU's denormal-operand exception, which counts one per instruction
    /// however many of its operands are denormal. Absent in exceptions mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operations_with_denormal_operands: Option<u64>,
    pub denormal_results: u64,
    pub denormal_loads: Option<u64>,
    pub denormal_stores: Option<u64>,
    /// Exceptions mode: the instruction's address in `module` (the ELF virtual address,
    /// as `objdump -d` and `addr2line -e module` use it), hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Exceptions mode: the executable or shared library the instruction is in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// Exceptions mode: the instruction, AT&T syntax (as objdump prints it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction: Option<String>,
    /// Sampled exceptions profile: the site's estimated share of all denormal events,
    /// with its 95 % confidence interval ([`Sampling`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<Share>,
    /// Sampled exceptions profile: the site's weighted events by window batch (weight
    /// 1 = 1000), from which shares of groups of sites (lines, functions) and their
    /// intervals are computed ([`share_of`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weighted: Vec<u64>,
    /// Compiler mode: result lanes that were denormal while no operand of the lane
    /// was (the site *created* the denormal from normal values). Absent in exceptions
    /// mode and in older compiler-mode reports (read as 0 there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<u64>,
}

/// An estimated share of all events, in percent, with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Share {
    pub percent: f64,
    pub low: f64,
    pub high: f64,
}

/// How the exceptions profile was taken: `"exact"` (every event counted) or
/// `"sampled"` (events counted in windows; see `dip/src/sampling.rs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    pub mode: String,
    /// `"cpu-time windows"`: a window opens every `period_ms` of each thread's CPU time
    /// and takes at most `burst` events.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scheme: String,
    #[serde(default)]
    pub period_ms: u64,
    /// The overhead budget, percent of the program's CPU time.
    #[serde(default)]
    pub overhead_pct: u64,
    #[serde(default)]
    pub burst: u64,
    #[serde(default)]
    pub windows: u64,
    /// Windows that took their full quota: events after it went unseen.
    #[serde(default)]
    pub full_windows: u64,
    /// Events counted (the sites' `denormal_operands` + `denormal_results`).
    #[serde(default)]
    pub samples: u64,
    /// No window filled up: every event of the run was counted (the counts are exact).
    #[serde(default)]
    pub complete: bool,
    /// Measured CPU cost of one event, ns.
    #[serde(default)]
    pub event_cost_ns: u64,
    /// The run had at least this many denormal events (the windows' events per CPU
    /// second, trap time included, over their whole intervals); equals `samples` when
    /// `complete`.
    #[serde(default)]
    pub events_at_least: u64,
    /// Confidence level of the sites' `share` intervals.
    #[serde(default)]
    pub confidence: f64,
    /// What the numbers mean, in a sentence.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl Sampling {
    /// Sampled and incomplete: counts are samples, shares are estimates.
    pub fn estimated(&self) -> bool {
        self.mode == "sampled" && !self.complete
    }
}

/// Two-sided 97.5 % quantiles of Student's t for 1..=30 degrees of freedom.
const T975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// The share (percent, 95 % interval) of a group of sites whose weighted events by
/// batch are `part`, among all events whose batch totals are `all`: the ratio of the
/// sums, with a delete-one-batch jackknife interval (batches hold whole windows spread
/// round robin, so they are nearly independent while the events of one window are
/// not), Student's t with (batches used − 1) degrees of freedom. Fewer than two
/// non-empty batches give the interval 0–100 %.
pub fn share_of(part: &[u64], all: &[u64]) -> Share {
    let tot: f64 = all.iter().map(|&x| x as f64).sum();
    let p: f64 = part.iter().map(|&x| x as f64).sum();
    if tot <= 0.0 {
        return Share {
            percent: 0.0,
            low: 0.0,
            high: 100.0,
        };
    }
    let est = p / tot;
    let used: Vec<usize> = (0..all.len()).filter(|&b| all[b] > 0).collect();
    let g = used.len();
    if g < 2 {
        return Share {
            percent: 100.0 * est,
            low: 0.0,
            high: 100.0,
        };
    }
    let loo: Vec<f64> = used
        .iter()
        .map(|&b| {
            let pb = part.get(b).copied().unwrap_or(0) as f64;
            let ab = all[b] as f64;
            if tot - ab > 0.0 {
                (p - pb) / (tot - ab)
            } else {
                est
            }
        })
        .collect();
    let mean = loo.iter().sum::<f64>() / g as f64;
    let var = (g as f64 - 1.0) / g as f64 * loo.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
    let t = T975.get(g - 2).copied().unwrap_or(1.96);
    let half = t * var.sqrt();
    Share {
        percent: 100.0 * est,
        low: (100.0 * (est - half)).max(0.0),
        high: (100.0 * (est + half)).min(100.0),
    }
}

/// Element-wise sum of weighted batch vectors.
pub fn add_weights(into: &mut Vec<u64>, w: &[u64]) {
    if into.len() < w.len() {
        into.resize(w.len(), 0);
    }
    for (a, b) in into.iter_mut().zip(w) {
        *a = a.saturating_add(*b);
    }
}

impl Site {
    /// All denormal events of the site.
    pub fn events(&self) -> u64 {
        self.denormal_operands
            .saturating_add(self.denormal_results)
            .saturating_add(self.denormal_loads.unwrap_or(0))
            .saturating_add(self.denormal_stores.unwrap_or(0))
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SourcePlace {
    pub function: String,
    pub file: String,
    pub line: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Array {
    pub id: u64,
    pub name: String,
    pub kind: String,
    pub element_type: String,
    pub elements: u64,
    #[serde(default)]
    pub shape: Option<Vec<u64>>,
    #[serde(default)]
    pub allocated_at: Option<SourcePlace>,
    pub denormal_reads: u64,
    pub denormal_writes: u64,
    pub role: String,
    #[serde(default)]
    pub live: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Origin {
    pub dest: String,
    pub src: String,
    pub count: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Creator {
    pub array: String,
    pub function: String,
    pub file: String,
    pub line: u32,
    pub op: String,
    pub count: u64,
}

/// Compiler mode: a site row that created denormals from normal operands
/// (`creator_sites[]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CreatorSite {
    pub function: String,
    pub file: String,
    pub line: u32,
    #[serde(default)]
    pub column: u32,
    pub op: String,
    #[serde(rename = "type", default)]
    pub ty: String,
    pub created: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Heatmap {
    pub rows: u64,
    pub cols: u64,
    pub cell: Vec<u64>,
    #[serde(default)]
    pub reads: Vec<u64>,
    #[serde(default)]
    pub writes: Vec<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SnapshotArray {
    pub id: u64,
    pub denormal_reads: u64,
    pub denormal_writes: u64,
    #[serde(default)]
    pub heatmap: Option<Heatmap>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub index: u64,
    pub label: String,
    #[serde(default)]
    pub fp_operations: u64,
    #[serde(default)]
    pub arrays: Vec<SnapshotArray>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OriginMap {
    pub dest: String,
    pub src: String,
    pub rows: u64,
    pub cols: u64,
    pub cell: Vec<u64>,
    #[serde(default)]
    pub counts: Vec<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TimelineEntry {
    pub t_ms: u64,
    pub denormal_operands: u64,
    pub denormal_results: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DenormalReport {
    pub schema: String,
    pub version: u32,
    pub mode: String,
    /// Compiler mode: `"full"` or `"profile"` (`--tp-denormal=profile`: the instruction
    /// profile and the creator sites, no arrays, origins or heatmaps). Absent in
    /// exceptions mode and in older compiler-mode reports, which are `"full"`
    /// ([`DenormalReport::tier`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<String>,
    #[serde(default)]
    pub taintprof_version: String,
    pub program: Program,
    pub exit: Exit,
    #[serde(default)]
    pub threads: u32,
    pub fp_environment: FpEnvironment,
    pub totals: Totals,
    /// Exceptions mode: one per instruction, grouped by function (functions with the
    /// most events first), then by events descending.
    #[serde(default)]
    pub sites: Vec<Site>,
    #[serde(default)]
    pub arrays: Vec<Array>,
    #[serde(default)]
    pub origins: Vec<Origin>,
    #[serde(default)]
    pub creators: Vec<Creator>,
    /// Compiler mode: the sites that created denormals from normal operands, most
    /// first. `None` in exceptions mode and in older compiler-mode reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creator_sites: Option<Vec<CreatorSite>>,
    #[serde(default)]
    pub snapshots: Vec<Snapshot>,
    #[serde(default)]
    pub origin_maps: Vec<OriginMap>,
    #[serde(default)]
    pub timeline: Vec<TimelineEntry>,
    #[serde(default)]
    pub warnings: Vec<String>,
    /// Exceptions mode: exact or sampled, and how ([`Sampling`]); absent from older
    /// reports and from compiler mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Sampling>,
    /// Sampled exceptions profile: all weighted events by window batch (the
    /// denominators of the shares).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub batch_weights: Vec<u64>,
}

/// [`DenormalReport::tier`] of a profile-tier report.
pub const TIER_PROFILE: &str = "profile";
/// [`DenormalReport::tier`] of a full-tier report.
pub const TIER_FULL: &str = "full";

impl DenormalReport {
    /// Compiler mode: the report's tier, `"full"` when it does not say (older
    /// reports); `None` in exceptions mode.
    pub fn tier(&self) -> Option<&str> {
        (self.mode == MODE_COMPILER).then(|| self.tier.as_deref().unwrap_or(TIER_FULL))
    }

    /// Whether the counts are samples and the shares estimates.
    pub fn sampled(&self) -> bool {
        self.sampling.as_ref().is_some_and(Sampling::estimated)
    }

    /// The estimated share of a group of sites (see [`share_of`]).
    pub fn share_of_sites<'a>(&self, sites: impl IntoIterator<Item = &'a Site>) -> Share {
        let mut w = Vec::new();
        for s in sites {
            add_weights(&mut w, &s.weighted);
        }
        share_of(&w, &self.batch_weights)
    }
}

/// One function's share of a report: the rows of thesis Tables 4.6 / 6.5 are the
/// function's `sites` (consecutive in `DenormalReport::sites`), its totals and share.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionGroup<'a> {
    pub function: &'a str,
    pub module: Option<&'a str>,
    pub sites: &'a [Site],
    pub denormal_operands: u64,
    pub denormal_results: u64,
    /// Share of all events of the report, in percent.
    pub percent: f64,
}

impl DenormalReport {
    /// Sums of all sites' events (`totals` as a single number).
    pub fn total_events(&self) -> u64 {
        self.sites.iter().map(Site::events).sum()
    }

    /// The sites grouped by function, in report order (see [`FunctionGroup`]).
    pub fn function_groups(&self) -> Vec<FunctionGroup<'_>> {
        let total = self.total_events().max(1) as f64;
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.sites.len() {
            let f = &self.sites[i];
            let mut j = i + 1;
            while j < self.sites.len()
                && self.sites[j].function == f.function
                && self.sites[j].module == f.module
            {
                j += 1;
            }
            let sites = &self.sites[i..j];
            let ops: u64 = sites.iter().map(|s| s.denormal_operands).sum();
            let res: u64 = sites.iter().map(|s| s.denormal_results).sum();
            let ev: u64 = sites.iter().map(Site::events).sum();
            out.push(FunctionGroup {
                function: &f.function,
                module: f.module.as_deref(),
                sites,
                denormal_operands: ops,
                denormal_results: res,
                percent: 100.0 * ev as f64 / total,
            });
            i = j;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_and_their_jackknife_intervals() {
        // The same mix (1/4) in every batch: the interval is the point.
        let all = [400u64; 16];
        let part = [100u64; 16];
        let s = share_of(&part, &all);
        assert!((s.percent - 25.0).abs() < 1e-9);
        assert!((s.high - s.low).abs() < 1e-9);
        // Spread between batches widens it; the estimate is the ratio of the sums.
        let part: Vec<u64> = (0..16).map(|b| if b % 2 == 0 { 60 } else { 140 }).collect();
        let s = share_of(&part, &all);
        assert!((s.percent - 25.0).abs() < 1e-9);
        assert!(
            s.low < 25.0 && s.high > 25.0 && s.high - s.low < 20.0,
            "{s:?}"
        );
        // One batch: no interval worth the name.
        let s = share_of(&[5, 0], &[10, 0]);
        assert_eq!((s.percent, s.low, s.high), (50.0, 0.0, 100.0));
        // Nothing sampled.
        assert_eq!(share_of(&[], &[]).high, 100.0);
        let mut w = vec![1, 2];
        add_weights(&mut w, &[1, 1, 1]);
        assert_eq!(w, [2, 3, 1]);
    }
}
