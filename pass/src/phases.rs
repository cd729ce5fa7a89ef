//! Where the pass spends its time, for whoever makes it faster:
//! `TAINTPROF_TIME_PHASES=1` prints one line per module to stderr with the wall time of
//! each phase, summed over the module's functions (`docs/performance.md` uses it). The
//! module driver (`crate::module`) times the phases both modes share (pre-check,
//! preparation, instrumentation, descriptors, sidecar); a mode times its own inside.
//! Off, [`time`] is one thread-local read around the closure.

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static TIMES: RefCell<Vec<(&'static str, Duration)>> = const { RefCell::new(Vec::new()) };
}

/// Start timing this module's phases (or not).
pub fn start(on: bool) {
    ON.with(|o| o.set(on));
    TIMES.with(|t| t.borrow_mut().clear());
}

/// Run `f` as (part of) phase `name`.
pub fn time<R>(name: &'static str, f: impl FnOnce() -> R) -> R {
    if !ON.with(|o| o.get()) {
        return f();
    }
    let t0 = Instant::now();
    let r = f();
    add(name, t0.elapsed());
    r
}

fn add(name: &'static str, dt: Duration) {
    TIMES.with(|t| {
        let mut t = t.borrow_mut();
        match t.iter_mut().find(|(n, _)| *n == name) {
            Some((_, d)) => *d += dt,
            None => t.push((name, dt)),
        }
    });
}

/// Times the rest of the enclosing scope as phase `name` (for blocks that return early
/// or borrow too much for a closure).
pub struct Lap(&'static str, Option<Instant>);

impl Lap {
    pub fn new(name: &'static str) -> Lap {
        Lap(name, ON.with(|o| o.get()).then(Instant::now))
    }
}

impl Drop for Lap {
    fn drop(&mut self) {
        if let Some(t0) = self.1 {
            add(self.0, t0.elapsed());
        }
    }
}

/// The line to print for the module (phases in first-seen order), if timing is on.
pub fn finish(module: &str) -> Option<String> {
    if !ON.with(|o| o.get()) {
        return None;
    }
    let parts: Vec<String> = TIMES.with(|t| {
        t.borrow()
            .iter()
            .map(|(n, d)| format!("{n} {:.2}s", d.as_secs_f64()))
            .collect()
    });
    Some(format!("taintprof: {module}: phases: {}", parts.join(", ")))
}
