//! The same source gives the same instrumented IR, build after build (reproducible
//! builds, and build caches that compare outputs). The pass once promoted its slots in
//! hash-map order, and the order of the PHIs it created changed from one compile to the
//! next (14 of 114 programs and levels differed between two compiles).

use std::process::Command;
use taintprof_tests::*;

/// Compiles `src` to IR `times` times with the real wrapper; the texts.
fn ir_texts(src: &str, opt: &str, extra: &[&str], times: usize) -> Vec<String> {
    let dir = scratch_dir(&format!("repro-{}{opt}", src.replace('.', "_")));
    (0..times)
        .map(|k| {
            let out = dir.join(format!("{k}.ll"));
            let st = Command::new(bin_dir().join("taintprof-cc"))
                .arg(opt)
                .args(extra)
                .args(["-S", "-emit-llvm"])
                .arg(programs_dir().join(src))
                .arg("-o")
                .arg(&out)
                .current_dir(&dir)
                .output()
                .expect("taintprof-cc runs");
            assert!(
                st.status.success(),
                "taintprof-cc {opt} {src} failed:\n{}",
                String::from_utf8_lossy(&st.stderr)
            );
            std::fs::read_to_string(&out).expect("the IR is written")
        })
        .collect()
}

fn check(src: &str, extra: &[&str]) {
    for opt in OPT_LEVELS {
        let texts = ir_texts(src, opt, extra, 4);
        for (k, t) in texts.iter().enumerate().skip(1) {
            if *t != texts[0] {
                let line = t
                    .lines()
                    .zip(texts[0].lines())
                    .position(|(a, b)| a != b)
                    .map_or(0, |n| n + 1);
                panic!("{src} {opt}: compile {k} differs from compile 0 (first at line {line})");
            }
        }
    }
}

#[test]
fn taint_mode_gives_the_same_ir_every_time() {
    // Each of these differed between two compiles before the fix, at -O2.
    for src in [
        "cf_selector.c",
        "cf_identity.c",
        "cf_error_exit.c",
        "process_ends.c",
    ] {
        check(src, &[]);
    }
}

#[test]
fn denormal_mode_gives_the_same_ir_every_time() {
    check("jacobi_dn.c", &["--tp-mode=denormal"]);
}
