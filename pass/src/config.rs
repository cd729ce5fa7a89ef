//! Every knob of the plugin, in one place.
//!
//! clang parses `-mllvm` options before it loads a `-fpass-plugin`, so options declared
//! by the plugin cannot be passed that way: the plugin reads environment variables
//! (which the `taintprof-cc` driver sets) and, under `opt`, pass parameters
//! (`-passes='taintprof-taint<no-pointer-labels;verbose>'`). Parameters override the
//! environment.

use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Taint tracking: labels, loop sinks, calling contexts (the default).
    Taint,
    /// Leave the module untouched.
    Off,
    /// Denormal tracing (`docs/internal/denormal-mode.md`, `crate::denormal`).
    Denormal,
    /// Time measurement for performance models (`docs/time-mode.md`, `crate::time`):
    /// done at pipeline start; the OptimizerLast pass leaves the module alone.
    Time,
}

#[derive(Debug, Clone)]
pub struct Config {
    /// `TAINTPROF_MODE`: `taint` (default), `off`, `denormal` or `time`. Pass parameters
    /// `mode=taint|off|denormal|time`; the opt pipeline name `taintprof-denormal` is
    /// `taintprof-taint<mode=denormal>`, `taintprof-time` runs the time-mode pass.
    pub mode: Mode,
    /// `TAINTPROF_TIME_SELECT` (time mode): the selection file `taintprof-cc` writes
    /// from `--tp-prior`/`--tp-filter` (`crate::time::Selection`). Default: none (every
    /// function with a loop or a call). Pass parameter `select=PATH`.
    pub time_select: Option<PathBuf>,
    /// `TAINTPROF_ABILIST`: colon-separated extra function-list files, read after the
    /// embedded `rt/abilist.txt`; later entries override earlier ones. Default: none.
    pub abilists: Vec<PathBuf>,
    /// `TAINTPROF_ROUTINES`: colon-separated extra routine-database files (library
    /// routines that are loops over their size, format in `rt/routines.txt`), read after
    /// the embedded `rt/routines.txt`; later entries override earlier ones. Default: none.
    pub routines: Vec<PathBuf>,
    /// `TAINTPROF_SIDECAR`: exact path of the compile-time JSON to write. Default: none.
    pub sidecar: Option<PathBuf>,
    /// `TAINTPROF_SIDECAR_DIR`: write `<dir>/<source-stem>.o.taintprof-static.json` instead
    /// (ignored when `TAINTPROF_SIDECAR` is set). Default: none.
    pub sidecar_dir: Option<PathBuf>,
    /// `TAINTPROF_POINTER_LABELS`: `1` (default, as in DFSan) makes the label of a
    /// loaded value include the label of the pointer it was loaded through, so that
    /// `table[param]` depends on `param`; `0` uses the memory's labels only.
    /// Pass parameters `pointer-labels` / `no-pointer-labels`.
    pub pointer_labels: bool,
    /// `TAINTPROF_VERBOSE`: `1` prints per-module statistics and warnings to stderr.
    /// Default `0`. Pass parameter `verbose`.
    pub verbose: bool,
    /// `TAINTPROF_CONTROL_FLOW`: `1` (default) adds explicit control-flow tainting
    /// (`docs/internal/control-flow.md`); `0` tracks data flow only
    /// (`taintprof-cc --tp-control-flow=off` sets it). Pass parameters `control-flow` /
    /// `no-control-flow`.
    pub control_flow: bool,
    /// `TAINTPROF_HOIST`: `1` (default) moves loop-invariant label code out of loops and
    /// collapses induction-variable label cycles after instrumentation (see
    /// `tp_hoist_labels` in the shim); `0` leaves the code as the rules emit it (a
    /// debugging aid; the lit tests use it to check the rules themselves). Pass
    /// parameters `hoist` / `no-hoist`.
    pub hoist: bool,
    /// `TAINTPROF_SPLIT_LABELS`: `1` (default) moves control labels onto the
    /// parameters' twin bits as they join a value (`FnInstr::to_control`, for the
    /// runtime's `TAINTPROF_CONTROL_SPLIT`); `0` ORs control labels as they are, which
    /// is what the runtime's split off means anyway (then no loop of this module says
    /// which parameters came only through control flow). Pass parameters `split` /
    /// `no-split` (the lit tests of the rules read the code without it).
    pub split: bool,
    /// `TAINTPROF_SHADOW_SR`: `1` (default) derives the shadow address of an access from
    /// the shadow address of the pointer it is computed from (`pass/src/taint/addr.rs`),
    /// so that loops step shadow addresses like application addresses; `0` computes the
    /// mapping at every access (a debugging aid). Pass parameters `shadow-sr` /
    /// `no-shadow-sr`.
    pub shadow_sr: bool,
    /// `TAINTPROF_FOLDED`: `1` (default) records every loop's position before
    /// optimization (the pipeline-start pass, -O1 and above) so that loops the optimizer
    /// folds are reported as folded and loops it turns into `memset`/`memcpy` keep their
    /// position (`crate::folded`); `0` skips the record (a debugging aid, and the
    /// baseline for measuring its cost). Environment only: the record runs under clang.
    pub folded: bool,
    /// `TAINTPROF_DN_INLINE_OPS` (denormal mode): `1` (default) handles the cold path of
    /// an FP operation inline: its counts go to per-thread counters and its result tags
    /// are computed with selects, with no call; `0` calls `__tpd_op` instead (the
    /// reference implementation, which the end-to-end tests compare against). Pass
    /// parameters `dn-inline-ops` / `no-dn-inline-ops`.
    pub dn_inline_ops: bool,
    /// `TAINTPROF_DN_INLINE_MEM` (denormal mode, with `dn_inline_ops`): `1` (default)
    /// gives contiguous float/double loads and stores an inline memory cache, so that
    /// their cold path calls `__tpd_load`/`__tpd_store` only when it misses; `0` always
    /// calls the hook. Pass parameters `dn-inline-mem` / `no-dn-inline-mem`.
    pub dn_inline_mem: bool,
    /// `TAINTPROF_DN_COVER` (denormal mode): `1` (default) leaves out of the fast-path
    /// test the sums, differences and constant multiples of tested values that the
    /// test already proves normal (raising the threshold of their inputs, see
    /// `DnFn::cover` in `pass/src/denormal/cover.rs`); `0` tests every value against
    /// the smallest normal. Counts are the same either way. Pass parameters
    /// `dn-cover` / `no-dn-cover`.
    pub dn_cover: bool,
    /// `TAINTPROF_DN_OUTLINE` (denormal mode): `1` (default) moves every cold region
    /// into a function of its own, called where it was (`DnFn::outline_cold_regions`):
    /// inline, the regions fought the loop around them for registers; `0` leaves them
    /// inline (the lit tests read the cold code in place). Pass parameters `dn-outline`
    /// / `no-dn-outline`.
    pub dn_outline: bool,
    /// `TAINTPROF_DENORMAL` (denormal mode): `full` (default) traces everything the
    /// report holds; `profile` (the tier `taintprof-cc --tp-denormal=profile` selects)
    /// counts the sites only — the instruction profile and the creator sites — with no
    /// tags, no marked arrays and no memory hooks (`abi::DN_MODULE_PROFILE`). Pass
    /// parameters `dn-profile` / `dn-full`.
    pub dn_profile: bool,
    /// `TAINTPROF_TEST_PANIC_IN`: the name of a function in whose instrumentation the
    /// pass panics on purpose, half way (shadow or tag PHIs created, not yet filled),
    /// to test that a panic becomes a compile error and leaves no invalid body for the
    /// code generator (`lit/internal-panic.ll`, `lit/dn-internal-panic.ll`). Default:
    /// none. Environment only.
    pub test_panic_in: Option<String>,
    /// `TAINTPROF_TIME_PHASES`: `1` prints, per module, the wall time of each phase of
    /// the pass (either mode) to stderr (`crate::phases`), for whoever makes it faster.
    /// Default `0`. Environment only.
    pub time_phases: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            mode: Mode::Taint,
            time_select: None,
            abilists: Vec::new(),
            routines: Vec::new(),
            sidecar: None,
            sidecar_dir: None,
            pointer_labels: true,
            verbose: false,
            control_flow: true,
            hoist: true,
            split: true,
            shadow_sr: true,
            folded: true,
            dn_inline_ops: true,
            dn_inline_mem: true,
            dn_cover: true,
            dn_profile: false,
            dn_outline: true,
            test_panic_in: None,
            time_phases: false,
        }
    }
}

fn truthy(name: &str, v: &str) -> Result<bool, String> {
    match v.trim() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        other => Err(format!("{name}={other:?}: expected 0 or 1")),
    }
}

impl Config {
    /// Read the environment, then apply opt pass parameters (`a;b;c`).
    pub fn load(params: &str) -> Result<Config, String> {
        Config::from_lookup(|k| std::env::var(k).ok(), params)
    }

    pub fn from_lookup(
        get: impl Fn(&str) -> Option<String>,
        params: &str,
    ) -> Result<Config, String> {
        let mut c = Config::default();
        if let Some(m) = get("TAINTPROF_MODE") {
            c.mode = match m.trim() {
                "" | "taint" => Mode::Taint,
                "off" => Mode::Off,
                "denormal" => Mode::Denormal,
                "time" => Mode::Time,
                other => {
                    return Err(format!(
                        "TAINTPROF_MODE={other:?} is not a mode; use `taint` (default), `off`, `denormal` or `time`"
                    ))
                }
            };
        }
        if let Some(t) = get("TAINTPROF_DENORMAL") {
            c.dn_profile = match t.trim() {
                "" | "full" => false,
                "profile" => true,
                other => {
                    return Err(format!(
                    "TAINTPROF_DENORMAL={other:?} is not a tier; use `full` (default) or `profile`"
                ))
                }
            };
        }
        if let Some(l) = get("TAINTPROF_ABILIST") {
            c.abilists = l
                .split(':')
                .filter(|s| !s.is_empty())
                .map(PathBuf::from)
                .collect();
        }
        if let Some(l) = get("TAINTPROF_ROUTINES") {
            c.routines = l
                .split(':')
                .filter(|s| !s.is_empty())
                .map(PathBuf::from)
                .collect();
        }
        c.sidecar = get("TAINTPROF_SIDECAR")
            .filter(|s| !s.is_empty())
            .map(PathBuf::from);
        c.time_select = get("TAINTPROF_TIME_SELECT")
            .filter(|s| !s.is_empty())
            .map(PathBuf::from);
        c.test_panic_in = get("TAINTPROF_TEST_PANIC_IN").filter(|v| !v.is_empty());
        c.sidecar_dir = get("TAINTPROF_SIDECAR_DIR")
            .filter(|s| !s.is_empty())
            .map(PathBuf::from);
        if let Some(v) = get("TAINTPROF_POINTER_LABELS") {
            c.pointer_labels = truthy("TAINTPROF_POINTER_LABELS", &v)?;
        }
        if let Some(v) = get("TAINTPROF_VERBOSE") {
            c.verbose = truthy("TAINTPROF_VERBOSE", &v)?;
        }
        if let Some(v) = get("TAINTPROF_TIME_PHASES") {
            c.time_phases = truthy("TAINTPROF_TIME_PHASES", &v)?;
        }
        // Switches that default to on: unset or empty keeps the default; only an
        // explicit value decides.
        for (name, field) in [
            ("TAINTPROF_HOIST", &mut c.hoist),
            ("TAINTPROF_SPLIT_LABELS", &mut c.split),
            ("TAINTPROF_SHADOW_SR", &mut c.shadow_sr),
            ("TAINTPROF_FOLDED", &mut c.folded),
            ("TAINTPROF_DN_INLINE_OPS", &mut c.dn_inline_ops),
            ("TAINTPROF_DN_INLINE_MEM", &mut c.dn_inline_mem),
            ("TAINTPROF_DN_COVER", &mut c.dn_cover),
            ("TAINTPROF_DN_OUTLINE", &mut c.dn_outline),
            ("TAINTPROF_CONTROL_FLOW", &mut c.control_flow),
        ] {
            if let Some(v) = get(name).filter(|v| !v.trim().is_empty()) {
                *field = truthy(name, &v)?;
            }
        }
        for p in params.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            match p {
                "pointer-labels" => c.pointer_labels = true,
                "no-pointer-labels" => c.pointer_labels = false,
                "verbose" => c.verbose = true,
                "control-flow" => c.control_flow = true,
                "no-control-flow" => c.control_flow = false,
                "hoist" => c.hoist = true,
                "no-hoist" => c.hoist = false,
                "split" => c.split = true,
                "no-split" => c.split = false,
                "shadow-sr" => c.shadow_sr = true,
                "no-shadow-sr" => c.shadow_sr = false,
                "dn-inline-ops" => c.dn_inline_ops = true,
                "no-dn-inline-ops" => c.dn_inline_ops = false,
                "dn-inline-mem" => c.dn_inline_mem = true,
                "no-dn-inline-mem" => c.dn_inline_mem = false,
                "dn-cover" => c.dn_cover = true,
                "no-dn-cover" => c.dn_cover = false,
                "dn-outline" => c.dn_outline = true,
                "no-dn-outline" => c.dn_outline = false,
                "dn-profile" => c.dn_profile = true,
                "dn-full" => c.dn_profile = false,
                "mode=off" => c.mode = Mode::Off,
                "mode=taint" => c.mode = Mode::Taint,
                "mode=denormal" => c.mode = Mode::Denormal,
                "mode=time" => c.mode = Mode::Time,
                p if p.starts_with("select=") => {
                    c.time_select = Some(PathBuf::from(&p["select=".len()..]))
                }
                other => {
                    return Err(format!(
                        "unknown pass parameter `{other}` (known: pointer-labels, no-pointer-labels, control-flow, no-control-flow, hoist, no-hoist, split, no-split, shadow-sr, no-shadow-sr, dn-inline-ops, no-dn-inline-ops, dn-inline-mem, no-dn-inline-mem, dn-cover, no-dn-cover, dn-outline, no-dn-outline, dn-profile, dn-full, verbose, mode=taint, mode=off, mode=denormal, mode=time, select=PATH)"
                    ))
                }
            }
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn cfg(env: &[(&str, &str)], params: &str) -> Result<Config, String> {
        let m: HashMap<String, String> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|k| m.get(k).cloned(), params)
    }

    #[test]
    fn defaults() {
        let c = cfg(&[], "").unwrap();
        assert_eq!(c.mode, Mode::Taint);
        assert!(c.pointer_labels && !c.verbose && c.sidecar.is_none());
        assert!(c.control_flow);
    }

    #[test]
    fn control_flow_switch() {
        assert!(
            !cfg(&[("TAINTPROF_CONTROL_FLOW", "0")], "")
                .unwrap()
                .control_flow
        );
        assert!(
            cfg(&[("TAINTPROF_CONTROL_FLOW", "")], "")
                .unwrap()
                .control_flow
        );
        assert!(
            cfg(&[("TAINTPROF_CONTROL_FLOW", "1")], "")
                .unwrap()
                .control_flow
        );
        assert!(
            !cfg(&[("TAINTPROF_CONTROL_FLOW", "1")], "no-control-flow")
                .unwrap()
                .control_flow
        );
        assert!(cfg(&[("TAINTPROF_CONTROL_FLOW", "maybe")], "").is_err());
        assert!(cfg(&[], "").unwrap().hoist);
        assert!(!cfg(&[("TAINTPROF_HOIST", "0")], "").unwrap().hoist);
        assert!(!cfg(&[], "no-hoist").unwrap().hoist);
        assert!(cfg(&[], "").unwrap().folded);
        assert!(!cfg(&[("TAINTPROF_FOLDED", "0")], "").unwrap().folded);
        assert!(cfg(&[], "").unwrap().dn_inline_ops);
        assert!(
            !cfg(&[("TAINTPROF_DN_INLINE_OPS", "0")], "")
                .unwrap()
                .dn_inline_ops
        );
        assert!(!cfg(&[], "no-dn-inline-ops").unwrap().dn_inline_ops);
        assert!(cfg(&[("TAINTPROF_DN_INLINE_OPS", "2")], "").is_err());
        assert!(cfg(&[], "").unwrap().dn_inline_mem);
        assert!(
            !cfg(&[("TAINTPROF_DN_INLINE_MEM", "0")], "")
                .unwrap()
                .dn_inline_mem
        );
        assert!(!cfg(&[], "no-dn-inline-mem").unwrap().dn_inline_mem);
        assert!(cfg(&[], "").unwrap().dn_cover);
        assert!(cfg(&[("TAINTPROF_DN_COVER", " ")], "").unwrap().dn_cover);
        assert!(!cfg(&[("TAINTPROF_DN_COVER", "0")], "").unwrap().dn_cover);
        assert!(!cfg(&[], "no-dn-cover").unwrap().dn_cover);
        assert!(
            cfg(&[("TAINTPROF_DN_COVER", "0")], "dn-cover")
                .unwrap()
                .dn_cover
        );
        assert!(cfg(&[("TAINTPROF_DN_COVER", "maybe")], "").is_err());
        assert!(cfg(&[], "").unwrap().dn_outline);
        assert!(
            !cfg(&[("TAINTPROF_DN_OUTLINE", "0")], "")
                .unwrap()
                .dn_outline
        );
        assert!(!cfg(&[], "no-dn-outline").unwrap().dn_outline);
        assert!(!cfg(&[], "").unwrap().dn_profile);
        assert!(
            cfg(&[("TAINTPROF_DENORMAL", "profile")], "")
                .unwrap()
                .dn_profile
        );
        assert!(
            !cfg(&[("TAINTPROF_DENORMAL", "full")], "")
                .unwrap()
                .dn_profile
        );
        assert!(cfg(&[], "dn-profile").unwrap().dn_profile);
        assert!(
            !cfg(&[("TAINTPROF_DENORMAL", "profile")], "dn-full")
                .unwrap()
                .dn_profile
        );
        assert!(cfg(&[("TAINTPROF_DENORMAL", "cheap")], "").is_err());
    }

    #[test]
    fn env_and_params() {
        let c = cfg(
            &[
                ("TAINTPROF_POINTER_LABELS", "0"),
                ("TAINTPROF_ABILIST", "a.txt::b.txt"),
                ("TAINTPROF_ROUTINES", "r.txt"),
            ],
            "verbose",
        )
        .unwrap();
        assert!(!c.pointer_labels && c.verbose);
        assert_eq!(c.abilists.len(), 2);
        assert_eq!(c.routines, vec![PathBuf::from("r.txt")]);
        let c = cfg(&[("TAINTPROF_POINTER_LABELS", "0")], "pointer-labels").unwrap();
        assert!(c.pointer_labels);
        assert!(cfg(&[("TAINTPROF_MODE", "fast")], "").is_err());
        assert!(cfg(&[], "bogus").is_err());
        assert_eq!(
            cfg(&[("TAINTPROF_MODE", "denormal")], "").unwrap().mode,
            Mode::Denormal
        );
        // The pipeline name `taintprof-denormal` passes `mode=denormal` first; later
        // parameters and the environment do not undo it.
        assert_eq!(
            cfg(&[("TAINTPROF_MODE", "taint")], "mode=denormal;verbose")
                .unwrap()
                .mode,
            Mode::Denormal
        );
    }
}
