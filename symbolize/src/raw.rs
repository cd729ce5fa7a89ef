//! The raw report written by `libtaintprof_dip.so`: schema `taintprof.dip-raw`,
//! version 1, file `<prog>.<pid>.dip-raw.json`. The writer documents every key (see
//! `dip/src/report.rs`); these types read it. Unknown keys are ignored and optional
//! ones default, so newer writers stay readable.

use serde::{Deserialize, Serialize};

use crate::report::{Exit, Program};

pub const SCHEMA: &str = "taintprof.dip-raw";
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RawReport {
    pub schema: String,
    pub version: u32,
    #[serde(default)]
    pub taintprof_version: String,
    pub program: Program,
    pub exit: Exit,
    #[serde(default)]
    pub threads: u32,
    /// Created threads that started with the creator's (armed) FP state.
    #[serde(default)]
    pub threads_inherited_arming: u32,
    #[serde(default)]
    pub options: RawOptions,
    #[serde(default = "default_interval")]
    pub interval_ms: u64,
    #[serde(default)]
    pub duration_ms: u64,
    #[serde(default)]
    pub fp_environment: RawFpEnvironment,
    /// Non-empty timeline buckets only.
    #[serde(default)]
    pub timeline: Vec<RawBucket>,
    /// Executable mappings of the process when the report was written.
    #[serde(default)]
    pub mappings: Vec<Mapping>,
    #[serde(default)]
    pub events: Vec<RawEvent>,
    #[serde(default)]
    pub dropped_events: u64,
    #[serde(default)]
    pub timeline_truncated: bool,
    #[serde(default)]
    pub x87: RawX87,
    #[serde(default)]
    pub step_slots_exhausted: u64,
    /// Exact or sampled, and the sampling windows (absent from older profilers: exact).
    #[serde(default)]
    pub sampling: Option<RawSampling>,
}

/// `"sampling"`: `{"mode": "exact"}`, or the sampled mode's windows (see
/// `dip/src/sampling.rs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RawSampling {
    pub mode: String,
    #[serde(default)]
    pub scheme: String,
    #[serde(default)]
    pub period_ms: u64,
    #[serde(default)]
    pub overhead_pct: u64,
    /// The window size when the report was written.
    #[serde(default)]
    pub burst: u64,
    #[serde(default)]
    pub windows: u64,
    /// Windows that took their full quota (events after it were not seen).
    #[serde(default)]
    pub full_windows: u64,
    #[serde(default)]
    pub stray_events: u64,
    /// Measured CPU cost of one event.
    #[serde(default)]
    pub event_cost_ns: u64,
    #[serde(default)]
    pub full: RawIntervals,
    #[serde(default)]
    pub open: RawIntervals,
    #[serde(default)]
    pub timer_failures: u64,
    /// The program installed a handler for the timer's signal: no more ticks.
    #[serde(default)]
    pub signal_taken_by_program: bool,
    /// Weighted events per window batch (weight 1 = 1000).
    #[serde(default)]
    pub batch_weights: Vec<u64>,
    #[serde(default)]
    pub first_event_wait_us_log2: Vec<u64>,
}

/// Intervals (window opening to the next opening) of one kind: the events counted in
/// them, the CPU time until the window filled up (full ones) and the intervals' CPU time.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RawIntervals {
    #[serde(default)]
    pub samples: u64,
    #[serde(default)]
    pub window_ns: u64,
    #[serde(default)]
    pub interval_ns: u64,
}

fn default_interval() -> u64 {
    100
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RawOptions {
    /// `TAINTPROF_DIP_UNDERFLOW=1`: underflow exceptions (denormal results) counted.
    #[serde(default)]
    pub underflow: bool,
    /// `TAINTPROF_DIP_X87` (x87 profiling requested).
    #[serde(default)]
    pub x87: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RawFpEnvironment {
    /// The program's MXCSR at start, before the profiler unmasked anything.
    pub mxcsr: String,
    #[serde(default)]
    pub x87_cw: String,
    #[serde(default)]
    pub armed_mxcsr: String,
    #[serde(default)]
    pub armed_x87_cw: String,
    /// The program's MXCSR at a normal exit (our masks set again, sticky flags
    /// dropped); absent after a fatal signal and from older profilers.
    #[serde(default)]
    pub mxcsr_at_exit: Option<String>,
    /// FTZ seen set at start or later.
    #[serde(default)]
    pub ftz: bool,
    /// DAZ seen set at start or later.
    #[serde(default)]
    pub daz: bool,
    /// The profiler's exceptions seen masked again.
    #[serde(default)]
    pub masked_again: bool,
    #[serde(default)]
    pub changed_by_program: bool,
    /// How many observations differed from the armed state.
    #[serde(default)]
    pub changes: u64,
    #[serde(default)]
    pub observations: Vec<Observation>,
}

impl Default for RawFpEnvironment {
    fn default() -> Self {
        RawFpEnvironment {
            mxcsr: "0x1f80".into(),
            x87_cw: "0x037f".into(),
            armed_mxcsr: String::new(),
            armed_x87_cw: String::new(),
            mxcsr_at_exit: None,
            ftz: false,
            daz: false,
            masked_again: false,
            changed_by_program: false,
            changes: 0,
            observations: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// `start`, `signal handler`, `thread start`, `thread exit`, `exit`, or the `fe*`
    /// function after which it was seen.
    pub at: String,
    pub mxcsr: String,
    pub x87_cw: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RawBucket {
    pub t_ms: u64,
    pub operands: u64,
    pub results: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mapping {
    pub path: String,
    #[serde(with = "crate::hex")]
    pub start: u64,
    #[serde(with = "crate::hex")]
    pub end: u64,
    #[serde(with = "crate::hex")]
    pub offset: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RawEvent {
    /// Absolute instruction address in the process.
    #[serde(with = "crate::hex")]
    pub address: u64,
    /// Denormal-operand exceptions.
    pub operands: u64,
    /// Underflow exceptions.
    pub results: u64,
    /// Sampled mode: the events by window batch, weighted (weight 1 = 1000).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weighted: Vec<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RawX87 {
    #[serde(default)]
    pub armed: bool,
    #[serde(default)]
    pub fld_completes: bool,
    #[serde(default)]
    pub replays: X87Replays,
    #[serde(default)]
    pub completed_loads: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct X87Replays {
    pub exact: u64,
    pub adjusted: u64,
    pub unverified: u64,
}
