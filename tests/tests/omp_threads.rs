//! The OpenMP thread count as the implicit parameter `threads`: off by default (the
//! loops it bounds are constant), on with `TAINTPROF_IMPLICIT_THREADS=1`, at -O0 and -O2.

use taintprof_tests::*;

#[test]
fn thread_count_is_a_parameter_only_when_asked_for() {
    for opt in OPT_LEVELS {
        let b = compile(&["omp_threads.c"], opt, &["-fopenmp"]);
        let (r, _) = b.run_ok(&["100"]);
        assert_eq!(r.parameters(), ["n"], "[{opt}] off by default");
        r.assert_loop("main", "@share", &["n"]);
        let l = r.loop_at("main", "@threads");
        assert!(l.params.is_empty(), "[{opt}] {l:?}");

        let run = b.run_env(
            &["100"],
            &[
                ("TAINTPROF_IMPLICIT_THREADS", "1"),
                ("OMP_NUM_THREADS", "2"),
            ],
        );
        assert!(run.output.status.success(), "{}", run.stderr());
        let mut r = run.report();
        r.sources = b.sources.clone();
        r.opt = opt.to_string();
        assert_eq!(r.parameters(), ["n", "threads"], "[{opt}]");
        r.assert_loop("main", "@share", &["n", "threads"]);
        r.assert_loop("main", "@threads", &["threads"]);
    }
}
