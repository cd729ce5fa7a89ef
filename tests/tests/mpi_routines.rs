//! End to end: MPI routines of the routine database (`rt/routines.txt`, "# MPI").
//!
//! A call of an MPI routine is a library loop over its count; a collective (`comm=`)
//! also depends on the process count `p` once the MPI interception library registered
//! it (`__tp_mpi_size_label`), whatever its count, and a barrier (no count) on `p`
//! alone. `mpi_routines.c` calls stubs in another translation unit (no MPI needed) and
//! registers `p` itself (`__tp_implicit_p`, as the interception library's
//! `MPI_Comm_size` does) between two phases.

use taintprof_tests::*;

const SOURCES: &[&str] = &["mpi_routines.c", "mpi_stub.c"];

/// The library loops of the program: (function, marker, routine, cost).
const CALLS: &[(&str, &str, &str, &str)] = &[
    ("before_p", "@allreduce_before", "MPI_Allreduce", "n log p"),
    ("after_p", "@allreduce", "MPI_Allreduce", "n log p"),
    ("after_p", "@scalar", "MPI_Allreduce", "n log p"),
    ("after_p", "@barrier", "MPI_Barrier", "log p"),
    ("after_p", "@send", "MPI_Send", "n"),
];

#[test]
fn mpi_collectives_depend_on_their_count_and_the_process_count() {
    at_each_level(SOURCES, &[], |b| {
        let (r, _) = b.run_ok(&["5", "40"]);
        let o = &b.opt;
        assert_eq!(r.parameters(), ["iters", "n", "p"], "[{o}]");
        // Before p is registered: the count only; iters only through nesting.
        r.assert_loop("before_p", "@before", &["iters"]);
        r.assert_loop("before_p", "@allreduce_before", &["n"]);
        assert_eq!(r.function("before_p")["volume"], "iters*n", "[{o}]");
        // After: p joins every collective, even with a constant count (@scalar) or
        // none (@barrier); not the point-to-point send.
        r.assert_loop("after_p", "@after", &["iters"]);
        r.assert_loop("after_p", "@allreduce", &["n", "p"]);
        r.assert_loop("after_p", "@scalar", &["p"]);
        r.assert_loop("after_p", "@barrier", &["p"]);
        r.assert_loop("after_p", "@send", &["n"]);
        assert_eq!(
            r.function("after_p")["volume"],
            "iters*n + iters*(n,p) + iters*p",
            "[{o}]"
        );
        for &(func, marker, routine, cost) in CALLS {
            let l = r.loop_json(func, marker);
            assert_eq!(l["kind"], "library", "[{o}] {marker}");
            assert_eq!(l["routine"], routine, "[{o}] {marker}");
            assert_eq!(l["cost"], cost, "[{o}] {marker}");
            let outer = if func == "before_p" {
                "@before"
            } else {
                "@after"
            };
            assert_eq!(l["parent_line"], r.marker_line(outer), "[{o}] {marker}");
            assert_eq!(r.loop_at(func, marker).executions, 5, "[{o}] {marker}");
        }
        let text = r.text();
        assert!(
            text.contains("MPI_Allreduce over {n, p} (n log p)")
                && text.contains("MPI_Barrier over {p} (log p)"),
            "[{o}] {text}"
        );
    });
}

#[test]
fn without_p_collectives_depend_on_their_count_only() {
    // TAINTPROF_IMPLICIT_P=0: p is never registered, `__tp_mpi_size_label` stays 0.
    at_each_level(SOURCES, &[], |b| {
        let run = b.run_env(&["5", "40"], &[("TAINTPROF_IMPLICIT_P", "0")]);
        assert!(run.output.status.success(), "[{}] {}", b.opt, run.stderr());
        let mut r = run.report();
        r.sources = b.sources.clone();
        r.opt = b.opt.clone();
        assert_eq!(r.parameters(), ["iters", "n"], "[{}]", b.opt);
        r.assert_loop("after_p", "@allreduce", &["n"]);
        r.assert_loop("after_p", "@scalar", &[]);
        r.assert_loop("after_p", "@barrier", &[]);
        r.assert_loop("after_p", "@send", &["n"]);
        assert_eq!(r.function("after_p")["volume"], "iters*n", "[{}]", b.opt);
    });
}
