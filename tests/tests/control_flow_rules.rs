//! End to end: the control-flow rule on the shapes real codes have (issue: "right answers
//! on real codes"). Each program is checked loop by loop at -O0 and -O2, with the exact
//! parameter sets.

use taintprof_tests::*;

#[test]
fn error_exits_in_loops_add_nothing() {
    at_each_level(&["cf_error_exit.c"], &[], |b| {
        let (r, _) = b.run_ok(&["64", "5", "1.5"]);
        assert_eq!(r.parameters(), ["n", "steps", "scale"]);
        r.assert_loop("min_value", "@min", &["n"]);
        r.assert_loop("check", "@check", &["n"]);
        r.assert_loop("sweep", "@sweep", &["n"]);
        r.assert_loop("main", "@init", &["n"]);
        r.assert_loop("main", "@time", &["steps"]);
        r.assert_loop("main", "@after", &["steps"]);
    });
}

#[test]
fn swapped_buffers_keep_their_size_after_the_time_loop() {
    for src in ["cf_swap.c", "cf_swap_std.cpp"] {
        at_each_level(&[src], &[], |b| {
            let (r, _) = b.run_ok(&["32", "6"]);
            r.assert_loop("relax", "@relax", &["n"]);
            r.assert_loop("main", "@time", &["steps"]);
            // Which buffer `u` is was decided by the time loop; its size is n either way.
            r.assert_loop("total", "@total", &["n"]);
        });
    }
}
