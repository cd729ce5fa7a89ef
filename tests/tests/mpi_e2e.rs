//! MPI programs, end to end (issue 24): built as a user builds them (`mpicc` with
//! `OMPI_CC`/`MPICH_CC` naming `taintprof-cc`, which links the MPI interception
//! library), run under `mpirun -np 4` (oversubscribed on these 2-core machines), every
//! rank's record merged into one report. Checked with Open MPI and MPICH, at -O0 and
//! -O2: `p` is a parameter, labels cross broadcasts, reductions, blocking and
//! non-blocking point-to-point messages, and the ranks' parameters are the union.
//!
//! Needs Open MPI and MPICH from Debian (`make setup` installs them): a missing one
//! fails the test, naming the package.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use taintprof_tests::*;

/// One MPI implementation: its compiler wrapper, the variable naming the compiler it
/// runs, its launcher and the launcher's flags.
struct Mpi {
    name: &'static str,
    cc: &'static str,
    cc_var: &'static str,
    cxx: &'static str,
    cxx_var: &'static str,
    run: &'static str,
    run_flags: &'static [&'static str],
    packages: &'static str,
}

const OPEN_MPI: Mpi = Mpi {
    name: "openmpi",
    cc: "mpicc.openmpi",
    cc_var: "OMPI_CC",
    cxx: "mpicxx.openmpi",
    cxx_var: "OMPI_CXX",
    run: "mpirun.openmpi",
    run_flags: &["--oversubscribe", "--allow-run-as-root"],
    packages: "openmpi-bin libopenmpi-dev",
};

const MPICH: Mpi = Mpi {
    name: "mpich",
    cc: "mpicc.mpich",
    cc_var: "MPICH_CC",
    cxx: "mpicxx.mpich",
    cxx_var: "MPICH_CXX",
    run: "mpirun.mpich",
    run_flags: &[],
    packages: "mpich libmpich-dev",
};

const RANKS: usize = 4;

fn on_path(prog: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(prog).is_file()))
        .unwrap_or(false)
}

/// Builds `src` (in tests/programs) with `mpi`'s compiler wrapper over taintprof-cc.
fn build(mpi: &Mpi, src: &str, opt: &str) -> (PathBuf, PathBuf) {
    build_with(mpi, src, opt, &[])
}

/// [`build`] with more flags for the wrapper (`--tp-mode=time`).
fn build_with(mpi: &Mpi, src: &str, opt: &str, flags: &[&str]) -> (PathBuf, PathBuf) {
    let cxx = src.ends_with(".cpp");
    let (cc, var, wrapper) = if cxx {
        (mpi.cxx, mpi.cxx_var, "taintprof-c++")
    } else {
        (mpi.cc, mpi.cc_var, "taintprof-cc")
    };
    for prog in [cc, mpi.run] {
        assert!(
            on_path(prog),
            "{prog} is not installed: apt-get install {} (make setup installs it)",
            mpi.packages
        );
    }
    check_runtime_archive();
    let stem = Path::new(src)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let dir = scratch_dir(&format!("{stem}-{}{}", mpi.name, opt.replace('-', "_")));
    let exe = dir.join(&stem);
    let out = Command::new(cc)
        .env(var, bin_dir().join(wrapper))
        // The interception library is compiled once per MPI into this cache.
        .env(
            "TAINTPROF_CACHE_DIR",
            workspace_root().join("target/e2e/mpi-cache"),
        )
        .arg(opt)
        .args(flags)
        .arg(programs_dir().join(src))
        .arg("-o")
        .arg(&exe)
        .current_dir(&dir)
        .output()
        .expect("cannot run the MPI compiler wrapper");
    assert!(
        out.status.success(),
        "{} {opt} {src} failed:\n{}{}",
        cc,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (exe, dir)
}

/// Runs `exe` on `RANKS` processes; the records the ranks wrote.
fn run(mpi: &Mpi, exe: &Path, dir: &Path, args: &[&str]) -> Vec<PathBuf> {
    run_records(mpi, exe, dir, args, ".taintprof.rec")
}

/// Runs `exe` on [`RANKS`] ranks; the records whose names end in `suffix`, one per rank.
fn run_records(mpi: &Mpi, exe: &Path, dir: &Path, args: &[&str], suffix: &str) -> Vec<PathBuf> {
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = Command::new(mpi.run)
        .args(mpi.run_flags)
        .arg("-np")
        .arg(RANKS.to_string())
        .arg(exe)
        .args(args)
        .env("TAINTPROF_OUT", &out_dir)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .current_dir(dir)
        .output()
        .expect("cannot run mpirun");
    assert!(
        out.status.success(),
        "{} -np {RANKS} {} failed: {:?}\n{}{}",
        mpi.run,
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut recs: Vec<PathBuf> = std::fs::read_dir(&out_dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    recs.sort();
    assert_eq!(
        recs.len(),
        RANKS,
        "one record per rank in {}",
        out_dir.display()
    );
    recs
}

/// The report of `records` merged (as `taintprof report` makes it).
fn merged(records: &[PathBuf], src: &str, opt: &str, path: &Path) -> Report {
    let json = taintprof_model::taint_report_of_files(records)
        .unwrap_or_else(|e| panic!("cannot merge {records:?}: {e}"));
    Report {
        json,
        path: path.to_path_buf(),
        sources: vec![programs_dir().join(src)],
        opt: opt.to_string(),
    }
}

fn halo(mpi: &Mpi) {
    let src = "mpi_halo.c";
    for opt in OPT_LEVELS {
        let (exe, dir) = build(mpi, src, opt);
        let recs = run(mpi, &exe, &dir, &["64", "3", "5"]);
        let r = merged(&recs, src, opt, &dir);
        let mut params = r.parameters();
        params.sort();
        assert_eq!(
            params,
            ["iters", "m", "n", "p"],
            "[{} {opt}] parameters",
            mpi.name
        );
        // p is listed as implicit, the others are not.
        let implicit: BTreeSet<String> = r.json["parameter_info"]
            .as_array()
            .expect("parameter_info")
            .iter()
            .filter(|p| p["implicit"].as_bool() == Some(true))
            .filter_map(|p| p["name"].as_str().map(String::from))
            .collect();
        assert_eq!(
            implicit,
            names(&["p"]),
            "[{} {opt}] implicit parameters",
            mpi.name
        );
        // Broadcast from rank 0: every rank's loop depends on n.
        r.assert_loop("main", "@bcast", &["n"]);
        // The process count, and a local share n / p.
        r.assert_loop("main", "@ranks", &["p"]);
        r.assert_loop("main", "@share", &["n", "p"]);
        r.assert_loop("elem_work", "@elem", &["n", "p"]);
        // A bound reduced over the ranks.
        r.assert_loop("main", "@allreduce", &["m"]);
        // Blocking point-to-point (a ring of MPI_Sendrecv, and MPI_Send/MPI_Recv).
        r.assert_loop("main", "@sendrecv", &["iters"]);
        r.assert_loop("main", "@send", &["n"]);
        // Non-blocking halo exchange, completed by MPI_Waitall.
        r.assert_loop("main", "@fill", &["m"]);
        r.assert_loop("main", "@halo", &["m"]);
        r.assert_loop("main", "@time", &["iters"]);
        // An MPI_Allreduce of one value in the time loop: a library loop over the
        // process count (the routine database's comm=), nested in the loop over iters.
        r.assert_loop("main", "@dt", &["p"]);
        // One of m values: its count and the process count.
        r.assert_loop("main", "@sums", &["p", "m"]);
        let volume = r.function("main")["volume"]
            .as_str()
            .unwrap_or("")
            .to_string();
        assert!(
            volume.contains("p*iters"),
            "[{} {opt}] main's volume has the reductions of the time loop: {volume}",
            mpi.name
        );

        // p is on exactly the decomposition loops and the collectives, nowhere else
        // (not on the halo exchange, the error check or the loops after a reduction).
        let with_p: BTreeSet<u64> = ["main", "elem_work"]
            .iter()
            .flat_map(|f| r.loops(f))
            .filter(|l| l.params.contains("p"))
            .map(|l| l.line)
            .collect();
        let expected: BTreeSet<u64> = [
            "@ranks",
            "@share",
            "@elem",
            "@dt",
            "@sums",
            "@bcast_call",
            "@allreduce_call",
        ]
        .iter()
        .map(|m| r.marker_line(m))
        .collect();
        assert_eq!(
            with_p, expected,
            "[{} {opt}] the lines of the loops with p",
            mpi.name
        );

        // The merged report is the union of the ranks' reports, loop by loop.
        let per_rank: Vec<Report> = recs
            .iter()
            .map(|rec| merged(std::slice::from_ref(rec), src, opt, &dir))
            .collect();
        for marker in [
            "@bcast",
            "@ranks",
            "@share",
            "@allreduce",
            "@sendrecv",
            "@send",
            "@halo",
            "@time",
        ] {
            let union: BTreeSet<String> = per_rank
                .iter()
                .flat_map(|pr| pr.loop_at("main", marker).params)
                .collect();
            assert_eq!(
                r.loop_at("main", marker).params,
                union,
                "[{} {opt}] {marker}: the merged loop's parameters are the union over ranks",
                mpi.name
            );
        }
        // Rank 0 registered n, iters and m; the others learnt them from messages and
        // agree on the names (no label bits of unknown parameters were dropped).
        for pr in &per_rank {
            let warnings = pr.json["warnings"].to_string();
            assert!(
                !warnings.contains("no registered parameter"),
                "[{} {opt}] {}: {warnings}",
                mpi.name,
                pr.path.display()
            );
        }
    }
}

#[test]
fn open_mpi_halo_exchange_gives_p_and_carries_labels() {
    halo(&OPEN_MPI);
}

#[test]
fn mpich_halo_exchange_gives_p_and_carries_labels() {
    halo(&MPICH);
}

fn more(mpi: &Mpi) {
    let src = "mpi_more.c";
    for opt in OPT_LEVELS {
        let (exe, dir) = build(mpi, src, opt);
        let recs = run(mpi, &exe, &dir, &["20", "7"]);
        let r = merged(&recs, src, opt, &dir);
        let mut params = r.parameters();
        params.sort();
        assert_eq!(params, ["k", "n", "p"], "[{} {opt}] parameters", mpi.name);
        for (marker, expected) in [
            ("@persistent", &["k"][..]),
            ("@mrecv", &["n"]),
            ("@gather", &["n"]),
            ("@scatter", &["k"]),
            ("@alltoall", &["n"]),
            ("@inplace", &["k"]),
            ("@scan", &["k"]),
            ("@split_size", &["p"]),
            ("@split_bcast", &["n"]),
            ("@waitany", &["k"]),
        ] {
            r.assert_loop("main", marker, expected);
        }
    }
}

#[test]
fn open_mpi_persistent_probes_gathers_splits() {
    more(&OPEN_MPI);
}

#[test]
fn mpich_persistent_probes_gathers_splits() {
    more(&MPICH);
}

/// `TAINTPROF_IMPLICIT_P=0` switches p off: the loops over ranks are constant.
#[test]
fn p_can_be_switched_off() {
    let src = "mpi_halo.c";
    let (exe, dir) = build(&OPEN_MPI, src, "-O2");
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let st = Command::new(OPEN_MPI.run)
        .args(OPEN_MPI.run_flags)
        .args(["-np", "2", "-x", "TAINTPROF_IMPLICIT_P=0"])
        .arg(&exe)
        .args(["64", "3", "5"])
        .env("TAINTPROF_OUT", &out_dir)
        .env("TAINTPROF_IMPLICIT_P", "0")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .status()
        .unwrap();
    assert!(st.success());
    let recs: Vec<PathBuf> = std::fs::read_dir(&out_dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".taintprof.rec"))
        .collect();
    let r = merged(&recs, src, "-O2", &dir);
    let mut params = r.parameters();
    params.sort();
    assert_eq!(params, ["iters", "m", "n"]);
    r.assert_loop("main", "@share", &["n"]);
}

/// A CMake project that finds MPI with `find_package(MPI)`, built through the
/// toolchain file: CMake links libmpi by its path and passes the MPI include
/// directories to compiles only, and the wrapper still links the interception library.
#[test]
fn cmake_find_package_mpi_with_the_toolchain_file() {
    let cmake_runs = Command::new("cmake")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        cmake_runs,
        "cmake is not installed: apt-get install cmake (make setup installs it)"
    );
    assert!(
        on_path(OPEN_MPI.cc),
        "apt-get install {}",
        OPEN_MPI.packages
    );
    check_runtime_archive();
    let dir = scratch_dir("mpi-cmake");
    let build = dir.join("build");
    let root = workspace_root();
    let configure = Command::new("cmake")
        .arg("-S")
        .arg(root.join("cmake/mpi-example"))
        .arg("-B")
        .arg(&build)
        .arg(format!(
            "-DCMAKE_TOOLCHAIN_FILE={}",
            root.join("cmake/taintprof-toolchain.cmake").display()
        ))
        .arg(format!("-DTAINTPROF_ROOT={}", bin_dir().display()))
        .env("TAINTPROF_CACHE_DIR", root.join("target/e2e/mpi-cache"))
        .output()
        .unwrap();
    assert!(
        configure.status.success(),
        "cmake configure failed:\n{}{}",
        String::from_utf8_lossy(&configure.stdout),
        String::from_utf8_lossy(&configure.stderr)
    );
    let built = Command::new("cmake")
        .arg("--build")
        .arg(&build)
        .env("TAINTPROF_CACHE_DIR", root.join("target/e2e/mpi-cache"))
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "cmake --build failed:\n{}{}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );
    let recs = run(&OPEN_MPI, &build.join("halo"), &dir, &["64", "3", "5"]);
    let r = merged(&recs, "mpi_halo.c", "-O3", &dir);
    let mut params = r.parameters();
    params.sort();
    assert_eq!(params, ["iters", "m", "n", "p"]);
    r.assert_loop("main", "@share", &["n", "p"]);
    r.assert_loop("main", "@bcast", &["n"]);
    r.assert_loop("main", "@halo", &["m"]);
}

/// `taintprof run -- mpirun -np 4 ./app`: one merged report and one summary for the run,
/// whose header names p as implicit.
#[test]
fn taintprof_run_over_mpirun_summarizes_the_merged_run() {
    let (exe, dir) = build(&OPEN_MPI, "mpi_halo.c", "-O2");
    let out_dir = dir.join("run");
    let out = Command::new(bin_dir().join("taintprof"))
        .arg("run")
        .arg("--out")
        .arg(&out_dir)
        .arg("--")
        .arg(OPEN_MPI.run)
        .args(OPEN_MPI.run_flags)
        .args(["-np", "4"])
        .arg(&exe)
        .args(["64", "3", "5"])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(err.matches("merged from 4 ranks (0-3)").count(), 1, "{err}");
    assert!(err.contains("p (implicit)"), "{err}");
    let names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    let merged: Vec<&String> = names
        .iter()
        .filter(|n| n.ends_with(".taintprof.json"))
        .collect();
    assert_eq!(merged.len(), 1, "{names:?}");
    assert!(merged[0].starts_with("mpi_halo.mpi4."), "{names:?}");
    let ranks = names
        .iter()
        .filter(|n| n.contains(".rank") && n.ends_with(".taintprof.rec"))
        .count();
    assert_eq!(
        ranks, 4,
        "each rank's record is named by its rank: {names:?}"
    );
}

/// C++ through `mpicxx` (`OMPI_CXX`/`MPICH_CXX=taintprof-c++`): the interception library
/// is still compiled as C (its `MPI_*` names unmangled).
#[test]
fn cxx_programs_through_mpicxx() {
    for mpi in [&OPEN_MPI, &MPICH] {
        for opt in OPT_LEVELS {
            let src = "mpi_vector.cpp";
            let (exe, dir) = build(mpi, src, opt);
            let recs = run(mpi, &exe, &dir, &["40"]);
            let r = merged(&recs, src, opt, &dir);
            let mut params = r.parameters();
            params.sort();
            assert_eq!(params, ["n", "p"], "[{} {opt}]", mpi.name);
            r.assert_loop("main", "@fill", &["n", "p"]);
            r.assert_loop("main", "@sum", &["n", "p"]);
        }
    }
}

/// One-sided communication: MPI_Put, MPI_Accumulate and MPI_Get in fence epochs, and a
/// put under a passive lock, carry labels (and the parameters' names) to ranks that
/// never registered them.
#[test]
fn one_sided_put_get_accumulate() {
    for mpi in [&OPEN_MPI, &MPICH] {
        for opt in OPT_LEVELS {
            let src = "mpi_rma.c";
            let (exe, dir) = build(mpi, src, opt);
            let recs = run(mpi, &exe, &dir, &["9", "5"]);
            let r = merged(&recs, src, opt, &dir);
            let mut params = r.parameters();
            params.sort();
            assert_eq!(params, ["k", "n", "p"], "[{} {opt}]", mpi.name);
            r.assert_loop("main", "@put", &["n"]);
            r.assert_loop("main", "@get", &["k"]);
            r.assert_loop("main", "@accumulate", &["k"]);
            r.assert_loop("main", "@lock", &["k"]);
        }
    }
}

/// Time mode under MPI: one time record per rank, read back as one run (the ranks
/// averaged), with the implicit `p` among the parameters and the call path's visits
/// those of every rank; -O0 and -O2 alike.
fn time_mode(mpi: &Mpi) {
    for opt in ["-O0", "-O2"] {
        let (exe, dir) = build_with(mpi, "mpi_halo.c", opt, &["--tp-mode=time"]);
        let recs = run_records(mpi, &exe, &dir, &["64", "5", "3"], ".taintprof-time.rec");
        for (r, f) in recs.iter().enumerate() {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            assert!(name.starts_with(&format!("mpi_halo.rank{r}.")), "{name}");
        }
        let p = taintprof_model::time::profile_of_files(&recs).unwrap();
        assert_eq!(p.ranks, RANKS as u32, "[{} {opt}]", mpi.name);
        let value = |k: &str| p.params.iter().find(|(n, _)| n == k).map(|(_, v)| *v);
        assert_eq!(
            value("p"),
            Some(RANKS as f64),
            "[{} {opt}] {:?}",
            mpi.name,
            p.params
        );
        assert_eq!(
            value("n"),
            Some(64.0),
            "[{} {opt}] {:?}",
            mpi.name,
            p.params
        );
        let work = p
            .regions
            .iter()
            .find(|r| r.callpath == "main->elem_work")
            .unwrap_or_else(|| panic!("[{} {opt}] {:#?}", mpi.name, p.regions));
        assert_eq!(
            work.visits, 5.0,
            "[{} {opt}] iters calls on every rank",
            mpi.name
        );
        assert!(work.inclusive_seconds >= 0.0);
    }
}

#[test]
fn open_mpi_time_mode_one_record_per_rank_merged() {
    time_mode(&OPEN_MPI);
}

#[test]
fn mpich_time_mode_one_record_per_rank_merged() {
    time_mode(&MPICH);
}
