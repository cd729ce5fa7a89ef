//! -O0 and -O2 give the same loop-by-loop answers: every loop that ran at both levels
//! (found by function and source line) depends on the same parameters, on every taint
//! program of the suite. A loop the optimizer peeled so that its body never ran at -O2
//! (`executions == 0`) has nothing to compare.

use std::collections::BTreeMap;
use taintprof_tests::*;

type Answers = BTreeMap<(String, u64), std::collections::BTreeSet<String>>;

fn answers(src: &str, opt: &str, args: &[&str], extra: &[&str]) -> Answers {
    let b = compile(&[src], opt, extra);
    let (r, _) = b.run_ok(args);
    let mut m = BTreeMap::new();
    for f in r.function_names() {
        let base = base_name(&f).to_string();
        for l in r.loops(&base) {
            if l.executions > 0 {
                m.insert((base.clone(), l.line), l.params);
            }
        }
    }
    m
}

fn check(src: &str, args: &[&str], extra: &[&str], min_common: usize) {
    let o0 = answers(src, "-O0", args, extra);
    let o2 = answers(src, "-O2", args, extra);
    let mut common = 0;
    let mut diffs = Vec::new();
    for (k, p0) in &o0 {
        if let Some(p2) = o2.get(k) {
            common += 1;
            if p0 != p2 {
                diffs.push(format!("  {}:{} -O0 {p0:?} -O2 {p2:?}", k.0, k.1));
            }
        }
    }
    assert!(
        diffs.is_empty(),
        "{src}: loops differ between -O0 and -O2:\n{}",
        diffs.join("\n")
    );
    assert!(
        common >= min_common,
        "{src}: only {common} loops ran at both levels (O0 {o0:?}, O2 {o2:?})"
    );
}

#[test]
fn control_flow_programs_agree() {
    check("cf_error_exit.c", &["64", "5", "1.5"], &[], 5);
    check("cf_swap.c", &["32", "6"], &[], 3);
    check("cf_swap_std.cpp", &["32", "6"], &[], 3);
    check("cf_two_calls.c", &["10", "20"], &[], 1);
    check("cf_selector.c", &["50", "1", "4", "0.5"], &[], 5);
    check("cf_selector.cpp", &["50", "1", "4"], &[], 2);
    check("cf_perftaint_units.c", &["5", "10"], &[], 2);
    check("cf_identity.c", &["50", "20", "30", "10"], &[], 14);
    check(
        "cf_lulesh_mini.c",
        &["8", "11", "5", "1", "1"],
        &["-lm"],
        15,
    );
    check("cf_recursion.c", &["20", "4", "1000", "9"], &[], 3);
    check("cf_goto.c", &["999"], &[], 1);
    check("cf_memset.c", &["40", "3", "20"], &[], 4);
    check("cf_folded.c", &["9", "30"], &[], 1);
}

#[test]
fn paper_and_model_programs_agree() {
    check("paper_foo.c", &["1", "1"], &[], 1);
    check("iterate.c", &[], &[], 1);
    check("regelemsize.c", &[], &[], 2);
    check("structure.c", &["7", "1"], &[], 3);
    check("three_params.c", &[], &[], 3);
    check("slots.c", &[], &[], 2);
    check("contexts.c", &[], &[], 2);
    check("perftaint_compat.cpp", &[], &[], 1);
    check("vector.cpp", &[], &[], 1);
}
