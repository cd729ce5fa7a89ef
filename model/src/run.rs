//! What the report says about the run itself rather than its model, taken from the
//! records' RUN, PARAMS and TRAILER sections ([`Experiment`]s): the program, how it
//! ended, the options that change the report (`TAINTPROF_MAX_CONTEXTS`), the
//! parameters as registered and refused, and the trailer's warnings in the report's
//! words (the ports of `write_program_and_exit`, the parameter lists and the warnings
//! of `rt/src/report.rs`).
//!
//! With several records the first one names the program and its exit; thread counts
//! and registrations add up; refusals are listed per record.

use serde_json::{json, Map, Value};
use taintprof_record::merge::{Experiment, Merged};
use taintprof_record::read::Trailer;
use taintprof_record::{
    Exit, LAYOUT_SPLIT_GIVEN_UP, PARAM_IMPLICIT, REJECT_BAD_CHARACTER, REJECT_BAD_RANGE,
    REJECT_EMPTY_NAME, REJECT_NAME_TOO_LONG, REJECT_NULL_ADDRESS, REJECT_NULL_NAME,
    REJECT_TOO_MANY, REJECT_ZERO_SIZE, WARN_CONTEXT_OOM, WARN_MIXED_MODES, WARN_REJECTED_MODULE,
    WARN_UNKNOWN_CONTEXTS, WARN_UNKNOWN_LOOPS,
};

/// Bytes as the report writes them (invalid UTF-8 becomes U+FFFD).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The runtime's signal names (`rt/src/signals.rs`).
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        11 => "SIGSEGV",
        7 => "SIGBUS",
        8 => "SIGFPE",
        4 => "SIGILL",
        6 => "SIGABRT",
        15 => "SIGTERM",
        2 => "SIGINT",
        3 => "SIGQUIT",
        1 => "SIGHUP",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        10 => "SIGUSR1",
        12 => "SIGUSR2",
        9 => "SIGKILL",
        _ => "SIG?",
    }
}

/// The text of a refusal reason (`params::Reject::reason`).
pub fn reject_reason(code: u16) -> &'static str {
    match code {
        REJECT_TOO_MANY => "at most 16 parameters can be registered",
        REJECT_NULL_NAME => "the name is a null pointer",
        REJECT_EMPTY_NAME => "the name is empty",
        REJECT_NAME_TOO_LONG => "the name is longer than 64 bytes",
        REJECT_BAD_CHARACTER => {
            "the name may only contain ASCII letters, digits and _ . - : [ ] and must start with a letter, a digit or _"
        }
        REJECT_NULL_ADDRESS => "the address is a null pointer",
        REJECT_ZERO_SIZE => "the size is 0",
        REJECT_BAD_RANGE => "the address range is outside the user address space",
        _ => "refused",
    }
}

/// The first experiment's trailer (the report needs the exit).
pub fn trailer(merged: &Merged) -> Option<&Trailer> {
    merged.experiments.first()?.trailer.as_ref()
}

/// A TRAILER attribute of the first experiment that has it.
pub fn attr<'a>(merged: &'a Merged, key: &[u8]) -> Option<&'a [u8]> {
    merged
        .experiments
        .iter()
        .filter_map(|e| e.trailer.as_ref())
        .flat_map(|t| &t.attrs)
        .find(|a| a.key == key)
        .map(|a| &a.value[..])
}

/// `TAINTPROF_MAX_CONTEXTS` as the runtime read it (`usize::MAX` for 0; 32 by default
/// and for values that are not a non-negative integer).
pub fn max_contexts(merged: &Merged) -> usize {
    let parsed = attr(merged, b"TAINTPROF_MAX_CONTEXTS").and_then(|v| {
        if v.is_empty() || v.len() > 19 || !v.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(v.iter().fold(0u64, |a, &d| a * 10 + (d - b'0') as u64))
    });
    match parsed.unwrap_or(32) {
        0 => usize::MAX,
        n => usize::try_from(n).unwrap_or(usize::MAX),
    }
}

/// The number of loops in flight (entries of all records).
pub fn loops_in_flight(merged: &Merged) -> u64 {
    merged.inflight.len() as u64
}

/// The `program` object.
pub fn program(e: &Experiment) -> Value {
    json!({
        "name": text(&e.run.name),
        "path": text(&e.run.path),
        "argv": e.run.argv.iter().map(|a| Value::from(text(a))).collect::<Vec<_>>(),
        "pid": e.run.info.pid,
    })
}

/// The `exit` object.
pub fn exit(exit: Exit, in_flight: u64) -> Value {
    let mut m = Map::new();
    match exit {
        Exit::Normal(c) => {
            m.insert("reason".into(), "exit".into());
            m.insert("code".into(), (c & 0xff).into());
        }
        Exit::Signal(sig) => {
            m.insert("reason".into(), "signal".into());
            m.insert("signal".into(), signal_name(sig).into());
            m.insert("number".into(), sig.into());
        }
        Exit::Running => {
            m.insert("reason".into(), "running".into());
        }
        Exit::Immediate(c) => {
            m.insert("reason".into(), "_exit".into());
            m.insert("code".into(), (c & 0xff).into());
        }
        Exit::Exec => {
            m.insert("reason".into(), "exec".into());
        }
        Exit::Unknown(k, c) => {
            m.insert("reason".into(), format!("unknown ({k})").into());
            m.insert("code".into(), c.into());
        }
    }
    if in_flight > 0 {
        m.insert("loops_in_flight".into(), in_flight.into());
    }
    Value::Object(m)
}

/// Whether labels kept the control-flow split at the end of every run.
pub fn control_split(merged: &Merged) -> bool {
    merged.label_shift != 0
        && merged
            .experiments
            .iter()
            .all(|e| e.params.layout.shift != 0)
}

/// The parameter whose registration turned the split off, if one did.
pub fn split_given_up_at(merged: &Merged) -> Value {
    merged
        .experiments
        .iter()
        .find(|e| e.params.layout.flags & LAYOUT_SPLIT_GIVEN_UP != 0)
        .map_or(Value::Null, |e| text(&e.params.gave_up_at).into())
}

/// `parameter_info`: name, bit, registrations (summed over the records), and
/// `"implicit": true` for a parameter the runtime registered itself (`PARAM_IMPLICIT`
/// in any record; absent for the others, so that the entries of ordinary parameters
/// stay what they were).
pub fn parameter_info(merged: &Merged) -> Value {
    let v: Vec<Value> = merged
        .params
        .iter()
        .enumerate()
        .map(|(bit, name)| {
            let registrations: u64 = merged
                .experiments
                .iter()
                .flat_map(|e| &e.params.params)
                .filter(|p| p.name == *name)
                .map(|p| p.info.registrations as u64)
                .sum();
            let implicit = merged
                .param_flags
                .get(bit)
                .is_some_and(|f| f & PARAM_IMPLICIT != 0);
            let mut p = json!({
                "name": text(name),
                "bit": bit,
                "registrations": registrations,
            });
            if implicit {
                p["implicit"] = true.into();
            }
            p
        })
        .collect();
    Value::Array(v)
}

/// `rejected_parameters`, oldest first.
pub fn rejected_parameters(merged: &Merged) -> Value {
    let v: Vec<Value> = merged
        .experiments
        .iter()
        .flat_map(|e| &e.params.rejected)
        .map(|r| {
            json!({
                "name": text(&r.name),
                "reason": reject_reason(r.info.reason),
                "registrations": r.info.count,
            })
        })
        .collect();
    Value::Array(v)
}

/// The trailer's warnings the report states, by kind (first record).
#[derive(Debug, Default)]
pub struct TrailerWarnings {
    pub context_oom: bool,
    /// Mixed modes: the trailer's text ('a' ... and 'b' ...).
    pub mixed: Option<String>,
    /// Refused modules: (source text, ABI version) or `None` for a bad magic number.
    pub rejected_modules: Vec<Option<(String, u64)>>,
    pub unknown_contexts: u64,
    pub unknown_loops: u64,
}

const BAD_MAGIC: &[u8] = b"a module descriptor with a bad magic number was ignored";

pub fn trailer_warnings(merged: &Merged) -> TrailerWarnings {
    let mut w = TrailerWarnings::default();
    let Some(t) = trailer(merged) else {
        return w;
    };
    for x in &t.warnings {
        match x.warning.code {
            WARN_CONTEXT_OOM => w.context_oom = true,
            WARN_MIXED_MODES => w.mixed = Some(text(&x.text)),
            WARN_REJECTED_MODULE => w.rejected_modules.push(
                (!(x.warning.value == 0 && x.text == BAD_MAGIC))
                    .then(|| (text(&x.text), x.warning.value)),
            ),
            WARN_UNKNOWN_CONTEXTS => w.unknown_contexts += x.warning.value,
            WARN_UNKNOWN_LOOPS => w.unknown_loops += x.warning.value,
            _ => {}
        }
    }
    w
}
