//! `rt/abilist.txt` is well-formed, covers what the runtime promises, and every `wrap`
//! entry has its `__tpw_<name>` defined in `libtaintprof_rt.a`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn entries() -> BTreeMap<String, (String, Option<String>)> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("abilist.txt")).unwrap();
    assert!(
        text.starts_with('#'),
        "the file starts with its documentation"
    );
    assert!(
        text.contains("TAINTPROF_ABILIST"),
        "the header says how users extend the list"
    );
    let mut m = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        assert!(f.len() == 2 || f.len() == 3, "line {}: {raw}", i + 1);
        let kind = f[1];
        assert!(
            ["pure", "zero", "wrap"].contains(&kind),
            "line {}: bad kind {kind}",
            i + 1
        );
        let ret = f.get(2).map(|r| {
            assert_eq!(kind, "wrap", "line {}: ret= only for wrap", i + 1);
            let rule = r
                .strip_prefix("ret=")
                .unwrap_or_else(|| panic!("line {}: {r}", i + 1));
            let ok = ["zero", "union", "tls"].contains(&rule)
                || rule
                    .strip_prefix("arg")
                    .map(|n| n.parse::<u32>().is_ok())
                    .unwrap_or(false);
            assert!(ok, "line {}: bad rule {rule}", i + 1);
            rule.to_string()
        });
        assert!(
            m.insert(f[0].to_string(), (kind.to_string(), ret))
                .is_none(),
            "line {}: duplicate {}",
            i + 1,
            f[0]
        );
    }
    m
}

#[test]
fn the_list_covers_the_promised_functions() {
    let m = entries();
    let kind = |n: &str| {
        m.get(n)
            .map(|e| e.0.as_str())
            .unwrap_or_else(|| panic!("{n} missing"))
    };
    for n in [
        "memcpy",
        "memmove",
        "memset",
        "strcpy",
        "strncpy",
        "strcat",
        "strncat",
        "stpcpy",
        "strdup",
        "strndup",
        "fread",
        "read",
        "pread",
        "realloc",
        "calloc",
        "malloc",
        "aligned_alloc",
        "memalign",
        "posix_memalign",
        "valloc",
        "mmap",
        "_Znwm",
        "_Znam",
        "_ZnwmRKSt9nothrow_t",
        "_ZnamRKSt9nothrow_t",
        "_ZnwmSt11align_val_t",
        "_ZnamSt11align_val_t",
        "_ZnwmSt11align_val_tRKSt9nothrow_t",
        "_ZnamSt11align_val_tRKSt9nothrow_t",
        "strtol",
        "strtoul",
        "strtoll",
        "strtoull",
        "strtod",
        "strtof",
        "atoi",
        "atol",
        "atoll",
        "atof",
    ] {
        assert_eq!(kind(n), "wrap", "{n}");
    }
    for base in [
        "sqrt",
        "cbrt",
        "pow",
        "exp",
        "exp2",
        "expm1",
        "log",
        "log2",
        "log10",
        "log1p",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "atan2",
        "sinh",
        "cosh",
        "tanh",
        "floor",
        "ceil",
        "round",
        "lround",
        "llround",
        "trunc",
        "rint",
        "nearbyint",
        "fabs",
        "fmin",
        "fmax",
        "fmod",
        "remainder",
        "hypot",
        "ldexp",
        "scalbn",
        "copysign",
        "erf",
        "erfc",
        "tgamma",
        "lgamma",
    ] {
        for n in [base.to_string(), format!("{base}f"), format!("{base}l")] {
            assert_eq!(kind(&n), "pure", "{n}");
        }
    }
    for n in ["abs", "labs", "llabs"] {
        assert_eq!(kind(n), "pure");
    }
    for n in [
        "rand",
        "random",
        "clock",
        "time",
        "omp_get_thread_num",
        "omp_get_wtime",
        "getpid",
    ] {
        assert_eq!(kind(n), "zero", "{n}");
    }
    // The thread counts: wrapped, the implicit parameter `threads` when asked for.
    for n in ["omp_get_num_threads", "omp_get_max_threads"] {
        assert_eq!(kind(n), "wrap", "{n}");
        assert_eq!(m[n].1.as_deref(), Some("tls"), "{n}");
    }
    assert_eq!(m["memcpy"].1.as_deref(), Some("arg0"));
    assert_eq!(m["malloc"].1.as_deref(), Some("zero"));
    assert_eq!(m["strtol"].1.as_deref(), Some("tls"));
}

/// The runtime archive programs link (`scripts/build-runtime.sh`), checked to be newer
/// than the runtime's sources.
fn staticlib() -> PathBuf {
    taintprof_tests::runtime_archive()
}

#[test]
fn every_wrap_entry_has_its_wrapper_in_the_runtime() {
    let out = Command::new("nm")
        .args(["--defined-only", "-g"])
        .arg(staticlib())
        .output()
        .expect("nm");
    let text = String::from_utf8_lossy(&out.stdout);
    let defined: BTreeSet<&str> = text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && f[1] == "T").then(|| f[2])
        })
        .collect();
    let missing: Vec<String> = entries()
        .iter()
        .filter(|(_, (k, _))| k == "wrap")
        .map(|(n, _)| format!("{}{n}", taintprof_abi::WRAPPER_PREFIX))
        .filter(|w| !defined.contains(w.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "wrappers missing from the runtime: {missing:?}"
    );
    // And the hooks and TLS accessors the pass and the API rely on.
    use taintprof_abi as abi;
    for s in [
        abi::HOOK_ENTER,
        abi::HOOK_LOOP_EXIT,
        abi::HOOK_REGISTER_MODULE,
        abi::HOOK_SHADOW_COPY,
        abi::HOOK_SHADOW_SET,
        abi::HOOK_SHADOW_UNION,
        "tp_register_variable",
        "tp_write_report",
        "tp_read_label",
        "perf_taint_register_variable",
        "__tp_tls_args",
        "__tp_tls_ret",
    ] {
        assert!(defined.contains(s), "{s} missing");
    }
    for tls in [
        abi::TLS_ARG_LABELS,
        abi::TLS_RET_LABEL,
        abi::TLS_ARG_ITER_LABELS,
        abi::TLS_RET_ITER_LABEL,
        abi::TLS_CTRL_LABEL,
        abi::TLS_VA_LABEL,
        abi::TLS_VA_STACK_BYTES,
        abi::TLS_BYVAL_SRC,
        abi::TLS_CONTEXT,
        abi::TLS_CALL_SITE,
    ] {
        assert!(
            text.lines().any(|l| l.ends_with(&format!(" B {tls}"))),
            "TLS {tls} missing"
        );
    }
}
