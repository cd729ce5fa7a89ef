//! Merged MPI ranks, from records built in memory with the streaming writer: which
//! records are one MPI run (`taintprof_record::ranks::group`), implicit parameters
//! through the merge into the report (`parameter_info[].implicit`), and where ranks
//! disagree (`merged_from`, `params_by_rank`, `exclusive_params_by_rank`).
//!
//! The program of every record: `main` (lines 1-9) with the loop `all` (line 3, on
//! `n`), a call of `work` at line 5, the loop `root` (line 7, on `n`: only rank 0 runs
//! it to its end; rank 3 was still inside it when its record was written, a loop in
//! flight) and the loop `exchange` (line 8, on the implicit `p`); `work` (lines 10-12)
//! with the loop `work` (line 11): on `n` in even ranks, on `n` and `rank` in odd ones.

use serde_json::{json, Value};
use taintprof_record::merge::merge;
use taintprof_record::ranks::{group, Group};
use taintprof_record::read::{read, Record};
use taintprof_record::*;

const N: u16 = 1 << 0;
const RANK: u16 = 1 << 1;
const P: u16 = 1 << 2;

fn loc(function: u32, file: u32, fn_line: u32, line: u32, column: u32) -> Loc {
    Loc {
        function,
        linkage: function,
        file,
        fn_line,
        line,
        column,
    }
}

/// The record of one process: `rank`/`size` are its RUN attributes (none if `None`).
fn record(pid: i32, start: u64, mpi: Option<(u32, u32)>) -> Record {
    let rank = mpi.map_or(0, |m| m.0);
    let mut w = Writer::new(Vec::new());
    w.begin_run(
        &RunInfo {
            pid,
            abi_version: 10,
            mode: MODE_TAINT,
            start_time_ns: start,
        },
        b"app",
        b"/home/u/app",
        b"0.1.0",
    );
    w.arg(b"./app");
    if let Some((r, s)) = mpi {
        w.attr(b"mpi.rank", r.to_string().as_bytes());
        w.attr(b"mpi.size", s.to_string().as_bytes());
    }
    w.begin_module(
        &ModuleInfo {
            flags: 0,
            abi_version: 10,
        },
        b"app.c",
        b"/home/u/app",
        b"",
    );
    let s_main = w.string(b"main");
    let s_file = w.string(b"app.c");
    let s_work = w.string(b"work");
    for (f, line) in [(s_main, 1), (s_work, 10)] {
        assert!(w.func(&Func {
            loc: loc(f, s_file, line, line, 1),
            flags: 0,
            n_loops: 1,
        }));
    }
    // Loops: 0 all (main:3), 1 work (work:11), 2 root (main:7), 3 exchange (main:8).
    for (func, f, line) in [
        (0, s_main, 3),
        (1, s_work, 11),
        (0, s_main, 7),
        (0, s_main, 8),
    ] {
        assert!(w.loop_(
            &Loop {
                func,
                ..Loop::default()
            },
            [loc(f, s_file, if func == 0 { 1 } else { 10 }, line, 5)]
        ));
    }
    assert!(w.site(
        &Site {
            flags: 0,
            loop_: NONE
        },
        [loc(s_main, s_file, 1, 5, 3)]
    ));
    w.begin_params(&LabelLayout { shift: 8, flags: 0 }, b"");
    for (bit, name, flags) in [(0, "n", 0), (1, "rank", 0), (2, "p", PARAM_IMPLICIT)] {
        assert!(w.param(
            &ParamInfo {
                bit,
                registrations: 1,
                flags,
                value: taintprof_record::Value::Int(bit as i64),
            },
            name.as_bytes()
        ));
    }
    w.begin_thread(&ThreadInfo {
        tid: pid,
        index: 0,
        flags: 0,
    });
    let root = w.node(&Node::ROOT);
    let main = w.node(&Node {
        parent: root,
        site: NONE,
        func: 0,
    });
    let mut rec = |loop_: u32, label: u16| {
        assert!(w.loop_record(&LoopRecord {
            loop_,
            label,
            flags: 0,
            executions: 1,
        }));
    };
    rec(0, N);
    if rank == 0 {
        rec(2, N);
    }
    rec(3, P);
    w.node(&Node {
        parent: main,
        site: 0,
        func: 1,
    });
    w.loop_record(&LoopRecord {
        loop_: 1,
        label: if rank % 2 == 1 { N | RANK } else { N },
        flags: 0,
        executions: 1,
    });
    if rank == 3 {
        w.begin_inflight();
        assert!(w.inflight(&InFlight {
            thread: 0,
            depth: 0,
            node: main,
            loop_: 2,
            label: N,
        }));
    }
    w.begin_trailer(Exit::Normal(0));
    let f = w.finish();
    assert!(f.ok && f.complete);
    read(&f.out).unwrap()
}

/// The four ranks of one run, in an order that is not rank order.
fn ranks() -> Vec<Record> {
    [2, 0, 3, 1]
        .into_iter()
        .map(|r| record(100 + r as i32, 10 + r as u64, Some((r, 4))))
        .collect()
}

fn function<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

fn loop_at<'a>(report: &'a Value, func: &str, line: u64) -> &'a Value {
    function(report, func)["loops"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["line"] == line)
        .unwrap_or_else(|| panic!("no loop at {func}:{line}"))
}

#[test]
fn the_ranks_of_one_run_are_grouped_in_rank_order() {
    let mut recs = ranks();
    // A second run of the same program started later: rank 0 of its own group; a
    // record without MPI attributes alone.
    recs.push(record(200, 50, Some((0, 4))));
    recs.push(record(201, 51, Some((1, 4))));
    recs.push(record(300, 5, None));
    let refs: Vec<&Record> = recs.iter().collect();
    assert_eq!(
        group(&refs),
        vec![
            Group {
                members: vec![1, 3, 0, 2],
                mpi_size: Some(4)
            },
            Group {
                members: vec![4, 5],
                mpi_size: Some(4)
            },
            Group {
                members: vec![6],
                mpi_size: None
            },
        ]
    );
}

#[test]
fn implicit_parameters_survive_the_merge_into_the_report() {
    let recs = ranks();
    let m = merge(&recs).unwrap();
    assert_eq!(m.params, [&b"n"[..], b"rank", b"p"]);
    assert_eq!(
        m.param_flags
            .iter()
            .map(|f| f & PARAM_IMPLICIT != 0)
            .collect::<Vec<_>>(),
        [false, false, true]
    );
    let r = taintprof_model::taint_report(&m).unwrap();
    // `implicit` is written for implicit parameters only (absent: false).
    let info: Vec<(String, Option<bool>)> = r["parameter_info"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p.get("implicit").map(|x| x.as_bool().unwrap()),
            )
        })
        .collect();
    assert_eq!(
        info,
        [
            ("n".to_string(), None),
            ("rank".to_string(), None),
            ("p".to_string(), Some(true))
        ]
    );
    // Key order: `implicit` last, as the schema lists it.
    let keys: Vec<&str> = r["parameter_info"][2]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["name", "bit", "registrations", "implicit"]);
    // One record is enough to be implicit in the merge.
    let mut plain = record(400, 1, Some((0, 2)));
    for p in &mut plain.params.params {
        p.info.flags = 0;
    }
    let m = merge(&[plain.clone(), record(401, 2, Some((1, 2)))]).unwrap();
    assert_eq!(m.param_flags[2] & PARAM_IMPLICIT, PARAM_IMPLICIT);
    let one = taintprof_model::taint_report_of_records(&[plain]).unwrap();
    assert!(one["parameter_info"][2].get("implicit").is_none());
}

#[test]
fn each_record_keeps_its_own_loop_labels() {
    let m = merge(&ranks()).unwrap();
    // Experiment 0 is rank 2 (the input order), experiment 3 rank 1.
    let own = |e: usize| -> Vec<(u32, u16)> {
        m.experiments[e]
            .loops
            .iter()
            .map(|l| (l.loop_, l.label))
            .collect()
    };
    assert_eq!(own(0), [(0, N), (1, N), (3, P)]);
    assert_eq!(own(1), [(0, N), (1, N), (2, N), (3, P)]);
    assert_eq!(own(3), [(0, N), (1, N | RANK), (3, P)]);
}

#[test]
fn where_ranks_disagree_the_report_says_which_saw_what() {
    let r = taintprof_model::taint_report_of_records(&ranks()).unwrap();
    // The records: numbered by their MPI ranks, in merge order.
    assert_eq!(
        r["merged_from"],
        json!({
            "rank_source": "mpi.rank",
            "mpi_size": 4,
            "records": [
                {"rank": 2, "pid": 102, "program": "app"},
                {"rank": 0, "pid": 100, "program": "app"},
                {"rank": 3, "pid": 103, "program": "app"},
                {"rank": 1, "pid": 101, "program": "app"},
            ],
        })
    );
    let top: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
    let at = |k: &str| top.iter().position(|x| *x == k).unwrap();
    assert!(at("program") < at("merged_from") && at("merged_from") < at("exit"));

    // The loop in `work`: the union, and which ranks saw which part of it.
    let work = loop_at(&r, "work", 11);
    assert_eq!(work["params"], json!(["n", "rank"]));
    assert_eq!(
        work["params_by_rank"],
        json!([
            {"ranks": [0, 2], "params": ["n"]},
            {"ranks": [1, 3], "params": ["n", "rank"]},
        ])
    );
    let keys: Vec<&str> = work
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let at = |k: &str| keys.iter().position(|x| *x == k).unwrap();
    assert!(at("control_only_params") + 1 == at("params_by_rank"));
    assert!(at("params_by_rank") + 1 == at("executions"));
    // A loop only rank 0 finished, rank 3 was inside when it wrote its record: the two
    // that ran it agree, and ranks that never reached it are no disagreement.
    assert_eq!(loop_at(&r, "main", 7)["params"], json!(["n"]));
    assert!(loop_at(&r, "main", 7).get("params_by_rank").is_none());
    // Where all ranks agree, nothing is added.
    assert!(loop_at(&r, "main", 3).get("params_by_rank").is_none());
    assert!(loop_at(&r, "main", 8).get("params_by_rank").is_none());
    assert_eq!(loop_at(&r, "main", 8)["params"], json!(["p"]));
    // Functions, by their own loops: `main`'s agree ({n, p} everywhere), `work`'s not.
    assert!(function(&r, "main")
        .get("exclusive_params_by_rank")
        .is_none());
    assert_eq!(
        function(&r, "work")["exclusive_params_by_rank"],
        work["params_by_rank"]
    );
    let f = function(&r, "work").as_object().unwrap();
    let keys: Vec<&str> = f.keys().map(String::as_str).collect();
    let at = |k: &str| keys.iter().position(|x| *x == k).unwrap();
    assert_eq!(at("exclusive_params") + 1, at("exclusive_params_by_rank"));
    // The merged report's program is its first record's.
    assert_eq!(r["program"]["pid"], 102);
}

#[test]
fn records_without_ranks_are_numbered_by_position() {
    let recs = vec![
        record(500, 1, Some((1, 4))),
        record(501, 2, None),
        record(502, 3, Some((1, 4))),
    ];
    let r = taintprof_model::taint_report_of_records(&recs).unwrap();
    assert_eq!(r["merged_from"]["rank_source"], "index");
    assert_eq!(r["merged_from"]["mpi_size"], Value::Null);
    assert_eq!(
        r["merged_from"]["records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["rank"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [0, 1, 2]
    );
    // Records 0 and 2 run as odd ranks, record 1 (no rank: 0) as rank 0.
    assert_eq!(
        loop_at(&r, "work", 11)["params_by_rank"],
        json!([
            {"ranks": [0, 2], "params": ["n", "rank"]},
            {"ranks": [1], "params": ["n"]},
        ])
    );
    // Only record 1 ran this loop: nothing to compare.
    assert!(loop_at(&r, "main", 7).get("params_by_rank").is_none());
}

#[test]
fn one_record_has_no_merge_keys() {
    let r = taintprof_model::taint_report_of_records(&[record(600, 1, Some((1, 4)))]).unwrap();
    assert!(r.get("merged_from").is_none());
    for f in r["functions"].as_array().unwrap() {
        assert!(f.get("exclusive_params_by_rank").is_none());
        for l in f["loops"].as_array().unwrap() {
            assert!(l.get("params_by_rank").is_none(), "{l}");
        }
    }
}
