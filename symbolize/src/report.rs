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
    #[serde(default)]
    pub snapshots: Vec<Snapshot>,
    #[serde(default)]
    pub origin_maps: Vec<OriginMap>,
    #[serde(default)]
    pub timeline: Vec<TimelineEntry>,
    #[serde(default)]
    pub warnings: Vec<String>,
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
