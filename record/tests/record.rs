//! The record end to end: a synthetic record written through the streaming writer as
//! the runtime would write it, read back, re-encoded, cut at every byte, corrupted at
//! every byte, merged; and the size and time of a 2-million-node record.

use std::time::Instant;

use taintprof_record::merge::merge;
use taintprof_record::read::{self, read, read_prefix, Error};
use taintprof_record::*;

// ---- The synthetic program -------------------------------------------------------------
//
// Module 0 `src/main.c`: main, solve, fib (recursive), with loops
//   L0 main:10            L1 solve:20           L2 solve:21 (inside L1)
//   L3 memset at solve:23 (library loop, in L2)  L4 fib:30 (recursion loop)
// and sites
//   S0 main:12 calls solve (in L0)   S1 solve:22 calls fib (in L2)
//   S2 fib:31 calls fib              S3 solve:25 branch, S4/S5 its successors
//   S6 solve:26 calls kernel
// Module 1 `src/lib.c`: kernel, with K0 at helper:5 inlined into kernel:40.

/// Variations for the merge tests.
#[derive(Clone, Copy, Default)]
struct Opts {
    /// Register `m` before `n` (bits swapped).
    swap_params: bool,
    /// Write the sites of module 0 in reverse order (the runtime interns them in the
    /// order it meets them, which depends on the run).
    reverse_sites: bool,
    /// Multiplies executions.
    scale: u64,
    pid: i32,
    /// An extra context: main -> kernel.
    extra_node: bool,
    /// Stop before the trailer.
    no_trailer: bool,
}

const CONTROL: u16 = 8;

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

fn synthetic(o: Opts) -> Vec<u8> {
    let scale = o.scale.max(1);
    let mut w = Writer::new(Vec::new());
    w.begin_run(
        &RunInfo {
            pid: o.pid,
            abi_version: 10,
            mode: MODE_TAINT,
            start_time_ns: 1_700_000_000_000_000_000,
        },
        b"app",
        b"/home/u/app",
        b"0.1.0",
    );
    w.arg(b"./app");
    w.arg(b"128");
    w.attr(b"mpi.rank", format!("{}", o.pid % 4).as_bytes());

    // Module 0.
    w.begin_module(
        &ModuleInfo {
            flags: 1,
            abi_version: 10,
        },
        b"src/main.c",
        b"/home/u/app",
        &[0xde, 0xad, 0xbe, 0xef],
    );
    let strs = ["main", "src/main.c", "solve", "fib", "memset", "n"];
    let ids: Vec<u32> = strs.iter().map(|s| w.string(s.as_bytes())).collect();
    let (s_main, s_file, s_solve, s_fib, s_memset, s_n) =
        (ids[0], ids[1], ids[2], ids[3], ids[4], ids[5]);
    for (f, line, flags) in [(s_main, 9, 0), (s_solve, 19, 0), (s_fib, 29, 4)] {
        assert!(w.func(&Func {
            loc: loc(f, s_file, line, line, 1),
            flags,
            n_loops: 1,
        }));
    }
    let loops: [(Loop, Loc); 5] = [
        (
            Loop {
                func: 0,
                ..Loop::default()
            },
            loc(s_main, s_file, 9, 10, 5),
        ),
        (
            Loop {
                func: 1,
                ..Loop::default()
            },
            loc(s_solve, s_file, 19, 20, 5),
        ),
        (
            Loop {
                func: 1,
                parent: 1,
                ..Loop::default()
            },
            loc(s_solve, s_file, 19, 21, 9),
        ),
        (
            Loop {
                flags: 1 << 3,
                func: 1,
                parent: 2,
                routine: s_memset,
                cost: s_n,
                ..Loop::default()
            },
            loc(s_solve, s_file, 19, 23, 13),
        ),
        (
            Loop {
                flags: 1 << 5,
                func: 2,
                const_trip_count: 0,
                ..Loop::default()
            },
            loc(s_fib, s_file, 29, 30, 7),
        ),
    ];
    for (l, c) in loops {
        assert!(w.loop_(&l, [c]));
    }
    let sites: [(Site, Loc); 7] = [
        (Site { flags: 0, loop_: 0 }, loc(s_main, s_file, 9, 12, 9)),
        (
            Site { flags: 0, loop_: 2 },
            loc(s_solve, s_file, 19, 22, 13),
        ),
        (
            Site {
                flags: 0,
                loop_: NONE,
            },
            loc(s_fib, s_file, 29, 31, 12),
        ),
        (Site { flags: 0, loop_: 1 }, loc(s_solve, s_file, 19, 25, 9)),
        (
            Site { flags: 0, loop_: 1 },
            loc(s_solve, s_file, 19, 25, 20),
        ),
        (Site { flags: 0, loop_: 1 }, loc(s_solve, s_file, 19, 27, 9)),
        (Site { flags: 0, loop_: 1 }, loc(s_solve, s_file, 19, 26, 9)),
    ];
    let order: Vec<usize> = if o.reverse_sites {
        (0..sites.len()).rev().collect()
    } else {
        (0..sites.len()).collect()
    };
    // Local index of site `i` of the table above.
    let s = |i: usize| order.iter().position(|&k| k == i).unwrap() as u32;
    for &k in &order {
        assert!(w.site(&sites[k].0, [sites[k].1]));
    }
    assert!(w.branch(
        &Branch {
            flags: 0,
            site: s(3)
        },
        [s(4), s(5)]
    ));

    // Module 1: one loop inlined from `helper`.
    w.begin_module(
        &ModuleInfo {
            flags: 1,
            abi_version: 10,
        },
        b"src/lib.c",
        b"/home/u/app",
        &[0xde, 0xad, 0xbe, 0xef],
    );
    let k_kernel = w.string(b"kernel");
    let k_file = w.string(b"src/lib.c");
    let k_helper = w.string(b"helper");
    assert!(w.func(&Func {
        loc: loc(k_kernel, k_file, 39, 39, 1),
        flags: 0,
        n_loops: 1,
    }));
    assert!(w.loop_(
        &Loop {
            func: 0,
            const_trip_count: 16,
            flags: 1 << 1,
            ..Loop::default()
        },
        [
            loc(k_kernel, k_file, 39, 40, 3),
            loc(k_helper, k_file, 4, 5, 3)
        ]
    ));
    // The open module counts once it is closed.
    assert_eq!(w.totals(), (3, 5, 7, 1));

    // Global indices: module 0 has 3 functions, 5 loops, 7 sites; module 1 starts after.
    let (main, solve, fib, kernel) = (0u32, 1u32, 2u32, 3u32);
    let (l0, l1, l2, l3, l4, k0) = (0u32, 1, 2, 3, 4, 5);
    let (bit_n, bit_m) = if o.swap_params { (1, 0) } else { (0, 1) };
    let (n, m) = (1u16 << bit_n, 1u16 << bit_m);

    w.begin_params(
        &LabelLayout {
            shift: CONTROL,
            flags: 0,
        },
        b"",
    );
    assert_eq!(w.totals(), (4, 6, 7, 1));
    let mut ps = [
        (
            ParamInfo {
                bit: bit_n,
                registrations: 1,
                flags: 0,
                value: Value::Int(128),
            },
            "n",
        ),
        (
            ParamInfo {
                bit: bit_m,
                registrations: 2,
                flags: PARAM_VALUE_CHANGED,
                value: Value::Float(0.5),
            },
            "m",
        ),
    ];
    ps.sort_by_key(|p| p.0.bit);
    for (p, name) in ps {
        assert!(w.param(&p, name.as_bytes()));
    }
    assert!(w.rejected(
        &RejectedInfo {
            reason: REJECT_BAD_CHARACTER,
            count: 3
        },
        b"bad name"
    ));

    // Thread 0: main -> solve -> fib (recursion folded), solve -> kernel.
    assert_eq!(
        w.begin_thread(&ThreadInfo {
            tid: o.pid,
            index: 0,
            flags: 0
        }),
        0
    );
    let root = w.node(&Node::ROOT);
    let nmain = w.node(&Node {
        parent: root,
        site: NONE,
        func: main,
    });
    w.loop_record(&LoopRecord {
        loop_: l0,
        label: n,
        flags: 0,
        executions: scale,
    });
    let nsolve = w.node(&Node {
        parent: nmain,
        site: s(0),
        func: solve,
    });
    for (lp, label, e) in [(l1, n, 10), (l2, m | (n << CONTROL), 100), (l3, n, 100)] {
        assert!(w.loop_record(&LoopRecord {
            loop_: lp,
            label,
            flags: 0,
            executions: e * scale,
        }));
    }
    let nfib = w.node(&Node {
        parent: nsolve,
        site: s(1),
        func: fib,
    });
    w.loop_record(&LoopRecord {
        loop_: l4,
        label: n << CONTROL,
        flags: 0,
        executions: 1000 * scale,
    });
    let nkernel = w.node(&Node {
        parent: nsolve,
        site: s(6),
        func: kernel,
    });
    w.loop_record(&LoopRecord {
        loop_: k0,
        label: 0,
        flags: 0,
        executions: 10 * scale,
    });
    if o.extra_node {
        w.node(&Node {
            parent: nmain,
            site: s(0),
            func: kernel,
        });
    }
    assert!(w.folded(&Folded {
        node: nfib,
        site: s(2),
        func: fib
    }));
    assert!(w.recursive(fib));
    assert_eq!((nmain, nsolve, nfib, nkernel), (1, 2, 3, 4));

    // Thread 1: a worker running kernel from its start routine.
    assert_eq!(
        w.begin_thread(&ThreadInfo {
            tid: o.pid + 1,
            index: 1,
            flags: THREAD_ALIVE
        }),
        1
    );
    let r1 = w.node(&Node::ROOT);
    w.node(&Node {
        parent: r1,
        site: NONE,
        func: kernel,
    });
    w.loop_record(&LoopRecord {
        loop_: k0,
        label: 0,
        flags: 0,
        executions: 5 * scale,
    });

    w.begin_inflight();
    for (thread, depth, node, lp, label) in
        [(0, 0, nsolve, l1, n), (0, 1, nfib, l4, 0), (1, 0, 1, k0, 0)]
    {
        assert!(w.inflight(&InFlight {
            thread,
            depth,
            node,
            loop_: lp,
            label,
        }));
    }
    w.begin_branches();
    assert!(w.branch_state(&BranchState {
        branch: 0,
        label: n | (m << CONTROL),
        flags: 0,
        taken: 0b01,
        executions: 7 * scale,
    }));
    if !o.no_trailer {
        w.begin_trailer(Exit::Signal(15));
        w.attr(b"control_split", b"1");
        w.warning(
            &Warning {
                code: WARN_CONTEXT_OOM,
                value: 0,
            },
            b"the runtime ran out of memory for calling contexts",
        );
    }
    let f = w.finish();
    assert!(f.ok);
    assert_eq!(f.refused, 0);
    assert_eq!(f.complete, !o.no_trailer);
    assert_eq!(f.bytes as usize, f.out.len());
    f.out
}

/// The function name of global function `g`.
fn fname(r: &read::Modules, g: u32) -> String {
    let (m, f) = r.func(g).unwrap();
    String::from_utf8_lossy(m.str(f.loc.function)).into_owned()
}

/// Paths of a tree as `main/solve@22` strings with their loop records, sorted.
fn paths(mods: &read::Modules, t: &read::Thread) -> Vec<String> {
    let mut out = Vec::new();
    for i in 0..t.nodes.len() {
        let mut parts = Vec::new();
        let mut k = i as u32;
        while k != 0 {
            let n = t.nodes[k as usize];
            let at = if n.site == NONE {
                String::new()
            } else {
                let (_, s) = mods.site(n.site).unwrap();
                format!("@{}", s.chain.last().unwrap().line)
            };
            parts.push(format!("{}{}", fname(mods, n.func), at));
            k = n.parent;
        }
        parts.reverse();
        let loops: Vec<String> = t
            .loops_of(i as u32)
            .iter()
            .map(|l| {
                let (m, e) = mods.loop_(l.loop_).unwrap();
                let c = e.chain.last().unwrap();
                format!(
                    "{}:{}={:#x}x{}",
                    String::from_utf8_lossy(m.str(c.function)),
                    c.line,
                    l.label,
                    l.executions
                )
            })
            .collect();
        out.push(format!("/{} {}", parts.join("/"), loops.join(",")));
    }
    out.sort();
    out
}

#[test]
fn round_trip_of_a_synthetic_record() {
    let bytes = synthetic(Opts {
        pid: 4242,
        ..Opts::default()
    });
    let r = read(&bytes).unwrap();
    assert!(r.complete());
    assert_eq!(r.version, (VERSION_MAJOR, VERSION_MINOR));
    assert_eq!(r.run.info.pid, 4242);
    assert_eq!(r.run.name, b"app");
    assert_eq!(r.run.argv, vec![b"./app".to_vec(), b"128".to_vec()]);
    assert_eq!(r.run.attrs[0].key, b"mpi.rank");

    // Modules, strings, global index spaces.
    let mods = &r.modules;
    assert_eq!(mods.list.len(), 2);
    let (m0, m1) = (&mods.list[0], &mods.list[1]);
    assert_eq!(m0.source, b"src/main.c");
    assert_eq!(m0.build_id, [0xde, 0xad, 0xbe, 0xef]);
    assert_eq!((m1.base.funcs, m1.base.loops, m1.base.sites), (3, 5, 7));
    assert_eq!(mods.totals().branches, 1);
    assert_eq!(fname(mods, 2), "fib");
    assert_eq!(fname(mods, 3), "kernel");
    let (m, lib) = mods.loop_(3).unwrap();
    assert_eq!(m.str(lib.desc.routine), b"memset");
    assert_eq!(m.str(lib.desc.cost), b"n");
    assert_eq!(lib.desc.parent, 2);
    let (m, k0) = mods.loop_(5).unwrap();
    assert_eq!(m.source, b"src/lib.c");
    assert_eq!(k0.chain.len(), 2);
    assert_eq!(m.str(k0.chain[1].function), b"helper");
    assert_eq!(k0.desc.const_trip_count, 16);
    let b = &m0.branches[0];
    assert_eq!(b.succ.len(), 2);
    assert_eq!(m0.sites[b.branch.site as usize].chain[0].line, 25);

    // Parameters.
    assert_eq!(r.params.layout.shift, 8);
    assert_eq!(r.params.params.len(), 2);
    assert_eq!(r.params.params[1].info.value, Value::Float(0.5));
    assert_eq!(r.params.params[1].info.flags, PARAM_VALUE_CHANGED);
    assert_eq!(r.params.params[0].info.value, Value::Int(128));
    assert_eq!(r.params.params[0].info.flags, 0);
    assert_eq!(r.params.name_of_bit(9), Some(&b"m"[..]));
    assert_eq!(r.params.rejected[0].info.reason, REJECT_BAD_CHARACTER);

    // Trees.
    assert_eq!(r.threads.len(), 2);
    assert_eq!(r.node_count(), 7);
    let t0 = &r.threads[0];
    assert_eq!(
        paths(mods, t0),
        vec![
            "/ ",
            "/main main:10=0x1x1",
            "/main/solve@12 solve:20=0x1x10,solve:21=0x102x100,solve:23=0x1x100",
            "/main/solve@12/fib@22 fib:30=0x100x1000",
            "/main/solve@12/kernel@26 helper:5=0x0x10",
        ]
    );
    assert_eq!(t0.folded.len(), 1);
    assert_eq!(t0.folded_target(&t0.folded[0]), Some(3));
    assert_eq!(read::recursive_functions(&r), vec![2]);
    assert_eq!(r.threads[1].info.flags, THREAD_ALIVE);
    assert_eq!(r.inflight.len(), 3);
    assert_eq!(r.inflight[1].node, 3);
    assert_eq!(r.branches[0].taken, 1);
    let t = r.trailer.as_ref().unwrap();
    assert_eq!(t.exit, Exit::Signal(15));
    assert_eq!(t.warnings[0].warning.code, WARN_CONTEXT_OOM);

    // The owned record writes back to the same bytes.
    let again = read::write(&r, Vec::new());
    assert!(again.ok && again.complete);
    assert_eq!(again.out, bytes);
}

#[test]
fn header_errors_are_clear() {
    let bytes = synthetic(Opts::default());
    let err = |b: &[u8]| read(b).unwrap_err().to_string();
    assert!(err(b"{\"schema\": 1}").contains("not a taintprof record"));
    assert!(err(&bytes[..5]).contains("file header"));
    let mut newer = bytes.clone();
    newer[8] = 2;
    assert!(
        err(&newer).contains(&format!("version 2.{VERSION_MINOR} is newer")),
        "{}",
        err(&newer)
    );
    let mut big = bytes.clone();
    big[12..16].copy_from_slice(&BYTE_ORDER_MARK.to_be_bytes());
    assert!(err(&big).contains("big-endian"));
    // Cut inside the second section (module 0).
    let e = err(&bytes[..bytes.len() / 4]);
    assert!(e.contains("truncated in section 1 (module) at byte"), "{e}");
    // Cut before the trailer.
    let no_trailer = synthetic(Opts {
        no_trailer: true,
        ..Opts::default()
    });
    let e = err(&no_trailer);
    assert!(e.contains("no trailer"), "{e}");
    let (r, why) = read_prefix(&no_trailer).unwrap();
    assert!(matches!(why, Some(Error::Truncated { kind: None, .. })));
    assert_eq!(r.threads.len(), 2);
    assert!(!r.complete());
}

#[test]
fn unknown_sections_and_record_tags_are_skipped() {
    let bytes = synthetic(Opts::default());
    let full = read(&bytes).unwrap();
    // Insert, before the trailer's BEGIN, an unknown section with an unknown record,
    // and renumber the trailer.
    let trailer_at = (0..bytes.len() - 6)
        .rev()
        .find(|&i| {
            bytes[i] == TAG_BEGIN && bytes[i + 1] == 8 && bytes[i + 2] == 7 && bytes[i + 3] == 0
        })
        .unwrap();
    let ordinal = u32::from_le_bytes(bytes[trailer_at + 6..trailer_at + 10].try_into().unwrap());
    let mut x = bytes[..trailer_at].to_vec();
    x.extend_from_slice(&[TAG_BEGIN, 8, 0x99, 0, 0, 0]);
    x.extend_from_slice(&ordinal.to_le_bytes());
    x.extend_from_slice(&[0x42, 3, 1, 2, 3]);
    x.extend_from_slice(&[TAG_END, 8, 1, 0, 0, 0, 0, 0, 0, 0]);
    x.extend_from_slice(&bytes[trailer_at..trailer_at + 6]);
    x.extend_from_slice(&(ordinal + 1).to_le_bytes());
    // An unknown record inside the trailer, and one byte more in its EXIT body.
    let rest = &bytes[trailer_at + 10..];
    assert_eq!(rest[0], TAG_EXIT);
    x.extend_from_slice(&[TAG_EXIT, 9]);
    x.extend_from_slice(&rest[2..10]);
    x.push(0xff);
    x.extend_from_slice(&[0x77, 0]);
    let rest = &rest[10..];
    // The END of the trailer counts one record more.
    let end_at = rest.len() - 10;
    x.extend_from_slice(&rest[..end_at]);
    let n = u64::from_le_bytes(rest[end_at + 2..].try_into().unwrap());
    x.extend_from_slice(&[TAG_END, 8]);
    x.extend_from_slice(&(n + 1).to_le_bytes());
    let r = read(&x).unwrap();
    assert_eq!(r.skipped_sections, 1);
    assert_eq!(r.trailer, full.trailer);
    assert_eq!(r.threads, full.threads);
}

#[test]
fn every_truncation_gives_an_error_or_the_completed_prefix() {
    let bytes = synthetic(Opts::default());
    let full = read(&bytes).unwrap();
    let mut prefixes = 0;
    for cut in 0..bytes.len() {
        let b = &bytes[..cut];
        assert!(read(b).is_err(), "cut at {cut} read as complete");
        match read_prefix(b) {
            Err(e) => {
                assert!(
                    matches!(e, Error::TruncatedHeader | Error::Truncated { .. }),
                    "cut at {cut}: {e}"
                );
            }
            Ok((r, why)) => {
                prefixes += 1;
                assert!(
                    matches!(why, Some(Error::Truncated { .. })),
                    "cut at {cut}: {why:?}"
                );
                // Only complete sections, each equal to the full record's.
                assert_eq!(r.run, full.run);
                assert!(r.modules.list.len() <= full.modules.list.len());
                assert_eq!(
                    r.modules.list[..],
                    full.modules.list[..r.modules.list.len()]
                );
                assert!(r.params == full.params || r.params.params.is_empty());
                assert_eq!(r.threads[..], full.threads[..r.threads.len()]);
                assert!(r.inflight.is_empty() || r.inflight == full.inflight);
                assert!(r.branches.is_empty() || r.branches == full.branches);
                assert!(r.trailer.is_none());
            }
        }
    }
    assert!(prefixes > bytes.len() / 2);
    assert_eq!(read_prefix(&bytes).unwrap().0, full);
}

#[test]
fn corrupt_bytes_never_panic() {
    let bytes = synthetic(Opts::default());
    for i in 0..bytes.len() {
        for x in [0xff, 0x80, 0x01] {
            let mut b = bytes.clone();
            b[i] ^= x;
            // Either an error or a record (a flipped label or count is still a record);
            // what matters is no panic, and that a record read is internally valid.
            if let Ok((r, _)) = read_prefix(&b) {
                let totals = r.modules.totals();
                for t in &r.threads {
                    for (k, n) in t.nodes.iter().enumerate().skip(1) {
                        assert!((n.parent as usize) < k && n.func < totals.funcs);
                    }
                    assert_eq!(t.loop_start.len(), t.nodes.len() + 1);
                }
            }
        }
    }
}

#[test]
fn merge_of_two_records() {
    let a = read(&synthetic(Opts {
        pid: 100,
        scale: 1,
        ..Opts::default()
    }))
    .unwrap();
    let b = read(&synthetic(Opts {
        pid: 200,
        scale: 2,
        swap_params: true,
        reverse_sites: true,
        extra_node: true,
        ..Opts::default()
    }))
    .unwrap();
    // The sites differ in order, not the modules' identity.
    assert_ne!(a.modules.list[0].sites, b.modules.list[0].sites);
    assert_eq!(
        a.modules.list[0].content_hash,
        b.modules.list[0].content_hash
    );
    let m = merge(&[a.clone(), b.clone()]).unwrap();
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    assert_eq!(m.modules.list.len(), 2);
    assert_eq!(m.modules.list[0].sites.len(), 7);
    assert_eq!(m.params, vec![b"n".to_vec(), b"m".to_vec()]);
    assert_eq!(m.label_shift, 8);
    // Record b registered m first: its bit 0 is m, now bit 1; its twin bit 8 is n's
    // twin... in b, bit 1 is n: now bit 0.
    assert_eq!(m.experiments[1].label_map[0], 1 << 1);
    assert_eq!(m.experiments[1].label_map[1], 1 << 0);
    assert_eq!(m.experiments[1].label_map[9], 1 << 8);
    assert_eq!(m.experiments.len(), 2);
    assert_eq!(m.experiments[1].run.info.pid, 200);

    // Both threads of both records in one tree; b's extra context added; labels the
    // same after remapping, executions summed (1 + 2 times).
    let mods = &m.modules;
    assert_eq!(
        paths(mods, &m.tree),
        vec![
            "/ ",
            "/kernel helper:5=0x0x15",
            "/main main:10=0x1x3",
            "/main/kernel@12 ",
            "/main/solve@12 solve:20=0x1x30,solve:21=0x102x300,solve:23=0x1x300",
            "/main/solve@12/fib@22 fib:30=0x100x3000",
            "/main/solve@12/kernel@26 helper:5=0x0x30",
        ]
    );
    assert_eq!(m.tree.folded.len(), 1);
    assert_eq!(m.tree.recursive, vec![2]);
    assert_eq!(m.inflight.len(), 6);
    assert!(m.inflight.iter().all(|e| e.label == 0 || e.label == 1));
    assert_eq!(m.branches.len(), 1);
    assert_eq!(m.branches[0].executions, 21);
    assert_eq!(m.branches[0].label, 1 | (2 << 8));

    // The merge of one record is that record's tree with its threads joined.
    let one = merge(std::slice::from_ref(&a)).unwrap();
    assert_eq!(one.tree.nodes.len(), 6);
    assert_eq!(one.modules.list, a.modules.list);

    // Another build of src/main.c is kept apart, and said so; too many parameters fail.
    let mut c = b.clone();
    c.modules.list[0].content_hash ^= 1;
    let m = merge(&[a.clone(), c]).unwrap();
    assert_eq!(m.modules.list.len(), 3);
    assert!(m.warnings[0].contains("src/main.c"), "{:?}", m.warnings);
    let mut d = b.clone();
    for i in 0..15 {
        d.params.params.push(read::Param {
            info: ParamInfo {
                bit: 2 + i,
                ..ParamInfo::default()
            },
            name: format!("p{i}").into_bytes(),
        });
    }
    let e = merge(&[a, d]).unwrap_err();
    assert!(e.to_string().contains("17 distinct parameters"), "{e}");
}

#[test]
fn parameter_values_flags_and_build_ids_round_trip() {
    let values = [
        Value::None,
        Value::Int(-1),
        Value::Int(i64::MIN),
        Value::Uint(u64::MAX),
        Value::Float(-0.25),
    ];
    let mut w = Writer::new(Vec::new());
    w.begin_run(&RunInfo::default(), b"p", b"/p", b"0");
    let id: Vec<u8> = (0..20).collect();
    w.begin_module(&ModuleInfo::default(), b"p.c", b"/p", &id);
    w.begin_module(&ModuleInfo::default(), b"q.c", b"/libq.so", b"");
    w.begin_params(&LabelLayout::default(), b"");
    for (i, &value) in values.iter().enumerate() {
        let info = ParamInfo {
            bit: i as u32,
            registrations: 1 + i as u32,
            flags: if i % 2 == 1 { PARAM_VALUE_CHANGED } else { 0 },
            value,
        };
        assert!(w.param(&info, format!("p{i}").as_bytes()));
    }
    w.begin_trailer(Exit::Normal(0));
    let f = w.finish();
    assert!(f.ok && f.complete);
    let r = read(&f.out).unwrap();
    assert_eq!(r.version, (VERSION_MAJOR, VERSION_MINOR));
    assert_eq!(r.modules.list[0].build_id, id);
    assert!(r.modules.list[1].build_id.is_empty());
    for (i, p) in r.params.params.iter().enumerate() {
        assert_eq!(p.info.value, values[i]);
        assert_eq!(p.info.value.encode(), values[i].encode());
        assert_eq!(p.info.registrations, 1 + i as u32);
        assert_eq!(p.info.flags != 0, i % 2 == 1);
    }
    assert_eq!(read::write(&r, Vec::new()).out, f.out);
}

// ---- 2 million calling contexts ---------------------------------------------------------

/// Writes a record with `nodes` contexts in one thread (fan-out 8, one loop record per
/// node, as the runtime would emit them walking its tree with an explicit stack) into
/// `out`.
fn big<O: Out>(out: O, nodes: u32) -> Finished<O> {
    let mut w = Writer::new(out);
    w.begin_run(&RunInfo::default(), b"big", b"/big", b"0");
    w.begin_module(&ModuleInfo::default(), b"big.c", b"", b"");
    for i in 0..64 {
        w.string(format!("f{i}").as_bytes());
    }
    for i in 0..64 {
        w.func(&Func {
            loc: loc(i, i, i, i, 1),
            flags: 0,
            n_loops: 1,
        });
    }
    for i in 0..64 {
        w.loop_(
            &Loop {
                func: i,
                ..Loop::default()
            },
            [loc(i, i, i, i + 1, 1)],
        );
    }
    for i in 0..64 {
        w.site(&Site { flags: 0, loop_: i }, [loc(i, i, i, i + 2, 1)]);
    }
    w.begin_thread(&ThreadInfo::default());
    let root = w.node(&Node::ROOT);
    // Preorder of a complete 8-ary tree: (parent index, depth-first) with an explicit stack.
    let mut stack: Vec<(u32, u32)> = vec![(root, 0)];
    let mut written = 1u32;
    while let Some((parent, k)) = stack.pop() {
        if written >= nodes {
            break;
        }
        if k < 8 {
            stack.push((parent, k + 1));
            let f = (written * 7 + k) % 64;
            let n = w.node(&Node {
                parent,
                site: k * 8 % 64,
                func: f,
            });
            w.loop_record(&LoopRecord {
                loop_: f,
                label: (written & 0xffff) as u16,
                flags: 0,
                executions: written as u64,
            });
            written += 1;
            if stack.len() < 12 {
                stack.push((n, 0));
            }
        }
    }
    assert_eq!(written, nodes);
    w.begin_trailer(Exit::Normal(0));
    w.finish()
}

#[test]
fn two_million_contexts_fit_the_budget() {
    const N: u32 = 2_000_000;
    // Bound: 16-byte header; the RUN, MODULE and THREAD sections' fixed records (well
    // under 64 KiB for 64 functions, loops and sites); per node a NODE record (2 + 12
    // bytes) and a LOOP_REC record (2 + 16 bytes).
    let bound =
        16 + 65_536 + N as u64 * (2 + NODE_LEN as u64) + N as u64 * (2 + LOOP_REC_LEN as u64);
    assert!(bound < 300 << 20);

    let t = Instant::now();
    let f = big(CountOut::default(), N);
    let encode = t.elapsed();
    assert!(f.ok && f.complete);

    let t = Instant::now();
    let f = big(Vec::with_capacity(bound as usize), N);
    let to_vec = t.elapsed();
    assert!(f.bytes <= bound, "{} > {bound}", f.bytes);
    assert_eq!(f.bytes as usize, f.out.len());

    let t = Instant::now();
    let r = read(&f.out).unwrap();
    let read_time = t.elapsed();
    assert_eq!(r.threads[0].nodes.len(), N as usize);
    assert_eq!(r.threads[0].loops.len(), N as usize - 1);

    let t = Instant::now();
    let m = merge(&[r]).unwrap();
    let merge_time = t.elapsed();
    assert_eq!(m.tree.nodes.len(), N as usize);

    let path = std::env::temp_dir().join(format!("taintprof-record-{}.bin", std::process::id()));
    let t = Instant::now();
    let file = std::io::BufWriter::with_capacity(1 << 16, std::fs::File::create(&path).unwrap());
    let f2 = big(IoOut(file), N);
    let mut file = f2.out.0;
    std::io::Write::flush(&mut file).unwrap();
    let to_file = t.elapsed();
    drop(file);
    let _ = std::fs::remove_file(&path);
    assert!(f2.ok);

    println!(
        "2M contexts: {} bytes ({:.1} MiB, bound {:.1} MiB); writer state {} bytes; encode only {:?}, into a Vec {:?}, into a file {:?}; read {:?}, merge {:?}",
        f.bytes,
        f.bytes as f64 / (1 << 20) as f64,
        bound as f64 / (1 << 20) as f64,
        std::mem::size_of::<Writer<CountOut>>(),
        encode,
        to_vec,
        to_file,
        read_time,
        merge_time
    );
}
