//! Unit tests of the raw run record: fake descriptors driven through the real hooks,
//! the record written into memory and read back with `taintprof_record::read`.

use super::*;
use crate::context::{__tp_enter, __tp_loop_exit, current_thread};
use crate::params::Registry;
use core::ffi::CStr;
use objects::build_id_of;
use taintprof_abi::{
    Label, FUNC_CONTEXT_TRACKED, LOOP_RECURSION, MODULE_CONTROL_FLOW, MODULE_MAGIC,
};
use taintprof_record::read;

use crate::test_descriptors::{leak, leak_chain as chain_of, src_loc};

fn l(function: &'static CStr, file: &'static CStr, fn_line: u32, line: u32) -> SrcLoc {
    src_loc(function, file, fn_line, line, 3)
}

fn site_at(v: Vec<SrcLoc>, loop_: usize) -> SiteDesc {
    let (c, n) = chain_of(v);
    SiteDesc {
        chain: c,
        n_chain: n,
        flags: 0,
        loop_: loop_ as *const LoopDesc,
    }
}

fn lp(v: Vec<SrcLoc>, flags: u32) -> LoopDesc {
    let (c, n) = chain_of(v);
    LoopDesc {
        chain: c,
        n_chain: n,
        flags,
        const_trip_count: 0,
        parent: core::ptr::null(),
        func: core::ptr::null(),
        routine: core::ptr::null(),
        cost: core::ptr::null(),
    }
}

fn fd(loc: SrcLoc) -> FuncDesc {
    FuncDesc {
        loc,
        flags: FUNC_CONTEXT_TRACKED,
        n_loops: 1,
    }
}

/// A leaked module; returns it and the addresses of its functions and loops.
fn module(
    src: &'static CStr,
    funcs: Vec<FuncDesc>,
    loops: Vec<LoopDesc>,
    branches: Vec<BranchRec>,
) -> (usize, Vec<usize>, Vec<usize>) {
    let (nf, nl, nb) = (funcs.len(), loops.len(), branches.len());
    let funcs = Box::leak(funcs.into_boxed_slice()).as_ptr();
    let loops = Box::leak(loops.into_boxed_slice()).as_mut_ptr();
    let branches = Box::leak(branches.into_boxed_slice()).as_mut_ptr();
    let m = leak(ModuleDesc {
        magic: MODULE_MAGIC,
        abi_version: ABI_VERSION,
        source_file: src.as_ptr(),
        funcs,
        n_funcs: nf as u32,
        n_loops: nl as u32,
        loops,
        branches,
        n_branches: nb as u32,
        flags: MODULE_CONTROL_FLOW,
        next: core::ptr::null_mut(),
    });
    // SAFETY: i < the length of the leaked array.
    let f = (0..nf).map(|i| unsafe { funcs.add(i) } as usize).collect();
    // SAFETY: as above.
    let lo = (0..nl).map(|i| unsafe { loops.add(i) } as usize).collect();
    (m, f, lo)
}

fn enter(p: usize, s: usize, f: usize) -> usize {
    // SAFETY: a node of this thread (or 0) and leaked descriptors, as the pass passes.
    unsafe { __tp_enter(p as *mut _, s as *const SiteDesc, f as *const FuncDesc) as usize }
}

fn exit(n: usize, l: usize, label: Label) {
    // SAFETY: a node of this thread and a leaked descriptor.
    unsafe { __tp_loop_exit(n as *mut _, l as *const LoopDesc, label) }
}

fn name_of(r: &read::Record, func: u32) -> &str {
    let (m, f) = r.modules.func(func).expect("a function of the record");
    std::str::from_utf8(m.str(f.loc.function)).unwrap()
}

fn write(inp: &Inputs<'_>) -> (Vec<u8>, u64) {
    let f = write_record(inp, Vec::new());
    assert!(f.ok && f.complete, "the record is complete");
    (f.out, f.refused)
}

#[test]
fn modules_trees_parameters_and_branches_are_translated() {
    let p = c"prog.c";
    // prog.c: main, kernel, rec; kernel's loop, main's loop, rec's recursion loop.
    let (m1, f1, l1) = module(
        p,
        vec![
            fd(l(c"main", p, 40, 40)),
            fd(l(c"kernel", p, 10, 10)),
            fd(l(c"rec", p, 30, 30)),
        ],
        vec![
            lp(vec![l(c"kernel", p, 10, 12)], 0),
            lp(vec![l(c"main", p, 40, 45)], 0),
            lp(vec![l(c"rec", p, 30, 31)], LOOP_RECURSION),
        ],
        vec![],
    );
    let (f_main, f_kernel, f_rec) = (f1[0], f1[1], f1[2]);
    let (l_kernel, l_main, l_rec) = (l1[0], l1[1], l1[2]);
    // The loop's parent and function are module-local indices in the record.
    // SAFETY: a leaked descriptor nothing else reads yet.
    unsafe {
        let d = l_kernel as *mut LoopDesc;
        (*d).func = f_kernel as *const FuncDesc;
        (*d).parent = l_main as *const LoopDesc;
    }
    // lib.c: helper with one loop, and a branch that ran.
    let lib = c"lib.c";
    let branch_site = leak(site_at(vec![l(c"helper", lib, 3, 4)], 0));
    let succ = Box::leak(
        vec![
            site_at(vec![l(c"helper", lib, 3, 5)], 0),
            site_at(vec![l(c"helper", lib, 3, 7)], 0),
        ]
        .into_boxed_slice(),
    );
    let (m2, f2, l2) = module(
        lib,
        vec![fd(l(c"helper", lib, 3, 3))],
        vec![lp(vec![l(c"helper", lib, 3, 5)], 0)],
        vec![
            BranchRec {
                site: branch_site as *const SiteDesc,
                succ: succ.as_ptr(),
                n_succ: 2,
                label: 0b10,
                flags: 0,
                taken: 0b01,
                executions: 4,
            },
            // Never ran: no BRANCH_STATE.
            BranchRec {
                site: branch_site as *const SiteDesc,
                succ: succ.as_ptr(),
                n_succ: 2,
                label: 0,
                flags: 0,
                taken: 0,
                executions: 0,
            },
        ],
    );
    let (f_helper, l_helper) = (f2[0], l2[0]);
    // Call sites, in the caller's module.
    let s48 = leak(site_at(vec![l(c"main", p, 40, 48)], l_main));
    let s50 = leak(site_at(vec![l(c"main", p, 40, 50)], 0));
    let s13 = leak(site_at(vec![l(c"kernel", p, 10, 13)], l_kernel));
    let s33 = leak(site_at(vec![l(c"rec", p, 30, 33)], 0));
    let unregistered = leak(fd(l(c"elsewhere", c"other.c", 1, 1)));

    let reg: &'static Registry = Box::leak(Box::new(Registry::new()));
    // n registered twice with one value; m's second registration reads another.
    let e = "tp_register_variable";
    reg.register_from(e, Some(b"n"), rec::Value::Int(-5))
        .unwrap();
    reg.register_from(e, Some(b"m"), rec::Value::Int(1 << 40))
        .unwrap();
    reg.register_from(e, Some(b"n"), rec::Value::Int(-5))
        .unwrap();
    reg.register_from(e, Some(b"m"), rec::Value::Int(7))
        .unwrap();
    assert!(reg.register(Some(b"bad name")).is_err());

    let ts = std::thread::spawn(move || {
        let main = enter(0, s50, f_main); // a child of the root: its site is dropped
        let k = enter(main, s48, f_kernel);
        for _ in 0..3 {
            exit(k, l_kernel, 0b01);
        }
        exit(main, l_main, 0b10 | 0b01 << 8);
        let h = enter(k, s13, f_helper);
        exit(h, l_helper, 0);
        let r = enter(main, s50, f_rec);
        assert_eq!(enter(r, s33, f_rec), r, "the recursion is folded");
        exit(r, l_rec, 0b01);
        exit(r, l_rec, 0b01);
        // A function of a module that never registered, with a loop record: skipped.
        let u = enter(k, s13, unregistered);
        exit(u, l_kernel, 0b01);
        current_thread() as usize
    })
    .join()
    .unwrap();

    let argv = [c"prog".as_ptr(), c"42".as_ptr()];
    let modules = [m1 as *const ModuleDesc, m2 as *const ModuleDesc];
    let threads = [ts as *const ThreadState];
    let inp = Inputs {
        name: b"prog",
        path: b"/bin/prog",
        argv: &argv,
        pid: 1234,
        exit: Exit::Code(3),
        modules: &modules,
        threads: &threads,
        params: reg,
        context_oom: false,
        rejected_modules: false,
    };
    let (bytes, refused) = write(&inp);
    assert_eq!(refused, 0, "no record was refused");
    let r = read::read(&bytes).unwrap_or_else(|e| panic!("{e}"));

    // RUN.
    assert_eq!(r.run.info.pid, 1234);
    assert_eq!(r.run.info.abi_version, ABI_VERSION);
    assert_eq!(r.run.info.mode, rec::MODE_TAINT);
    assert_eq!(r.run.name, b"prog");
    assert_eq!(r.run.path, b"/bin/prog");
    assert_eq!(r.run.version, crate::VERSION.as_bytes());
    assert_eq!(r.run.argv, [b"prog".to_vec(), b"42".to_vec()]);

    // MODULEs: every function and loop, the sites reached, the branches.
    let mods = &r.modules.list;
    assert_eq!(mods.len(), 2);
    assert_eq!(mods[0].source, b"prog.c");
    assert_eq!(mods[0].info.flags, MODULE_CONTROL_FLOW);
    assert_eq!(mods[0].funcs.len(), 3);
    assert_eq!(mods[0].loops.len(), 3);
    assert_eq!(mods[1].source, b"lib.c");
    assert_eq!(mods[1].base.funcs, 3);
    assert_eq!(mods[1].base.loops, 3);
    let names: Vec<&str> = (0..4).map(|g| name_of(&r, g)).collect();
    assert_eq!(names, ["main", "kernel", "rec", "helper"]);
    let kl = &mods[0].loops[0];
    assert_eq!((kl.desc.func, kl.desc.parent), (1, 1));
    assert_eq!(kl.chain[0].line, 12);
    assert_eq!(mods[0].loops[2].desc.flags, LOOP_RECURSION);
    // Strings are interned once per module ("prog.c" once, though named everywhere).
    let prog_c = mods[0]
        .strings
        .iter()
        .filter(|s| &s[..] == b"prog.c")
        .count();
    assert_eq!(prog_c, 1);
    // prog.c: the four call sites reached (s50 only as rec's: main's, under the root, is
    // dropped);
    // lib.c: the branch's site and its two successors.
    let lines = |m: &read::Module| {
        let mut v: Vec<u32> = m.sites.iter().map(|s| s.chain[0].line).collect();
        v.sort();
        v
    };
    assert_eq!(lines(&mods[0]), [13, 33, 48, 50]);
    assert_eq!(lines(&mods[1]), [4, 5, 7]);
    let s48_entry = mods[0]
        .sites
        .iter()
        .find(|s| s.chain[0].line == 48)
        .unwrap();
    assert_eq!(s48_entry.site.loop_, 1, "the site's loop, module-local");
    assert_eq!(mods[1].branches.len(), 2);
    // Descriptors on the heap: no object file, no build id.
    assert!(mods
        .iter()
        .all(|m| m.object.is_empty() && m.build_id.is_empty()));

    // PARAMS.
    let shift = if crate::split::on() { 8 } else { 0 };
    assert_eq!(r.params.layout.shift, shift);
    let params: Vec<&[u8]> = r.params.params.iter().map(|p| &p.name[..]).collect();
    assert_eq!(params, [&b"n"[..], b"m"]);
    assert_eq!(r.params.params[1].info.bit, 1);
    let info = |i: usize| r.params.params[i].info;
    assert_eq!(
        (info(0).value, info(0).registrations, info(0).flags),
        (rec::Value::Int(-5), 2, 0)
    );
    assert_eq!(
        (info(1).value, info(1).registrations, info(1).flags),
        (rec::Value::Int(1 << 40), 2, rec::PARAM_VALUE_CHANGED),
        "the first value is kept, the change flagged"
    );
    assert_eq!(r.params.rejected.len(), 1);
    assert_eq!(r.params.rejected[0].name, b"bad name");
    assert_eq!(r.params.rejected[0].info.reason, rec::REJECT_BAD_CHARACTER);

    // THREAD: root, main, kernel, helper, rec in preorder; the unregistered function
    // and its loop record are skipped.
    assert_eq!(r.threads.len(), 1);
    let t = &r.threads[0];
    assert_eq!(t.nodes.len(), 5, "{:?}", t.nodes);
    assert_eq!(t.nodes[0], rec::Node::ROOT);
    for (i, n) in t.nodes.iter().enumerate().skip(1) {
        assert!((n.parent as usize) < i, "preorder: parents first");
    }
    let node_of = |name: &str| -> u32 {
        (1..t.nodes.len() as u32)
            .find(|&i| name_of(&r, t.nodes[i as usize].func) == name)
            .unwrap_or_else(|| panic!("no node of {name}"))
    };
    let (main, kernel, helper, recn) = (
        node_of("main"),
        node_of("kernel"),
        node_of("helper"),
        node_of("rec"),
    );
    assert_eq!(t.nodes[main as usize].parent, 0);
    assert_eq!(
        t.nodes[main as usize].site, NONE,
        "children of the root have no site"
    );
    assert_eq!(t.nodes[kernel as usize].parent, main);
    assert_eq!(t.nodes[helper as usize].parent, kernel);
    assert_eq!(t.nodes[recn as usize].parent, main);
    let (sm, se) = r.modules.site(t.nodes[kernel as usize].site).unwrap();
    assert_eq!((&sm.source[..], se.chain[0].line), (&b"prog.c"[..], 48));
    let (_, se) = r.modules.site(t.nodes[helper as usize].site).unwrap();
    assert_eq!(se.chain[0].line, 13);
    // Loop records: raw labels, executions.
    let loop_line = |g: u32| r.modules.loop_(g).unwrap().1.chain[0].line;
    let recs = |n: u32| -> Vec<(u32, u16, u64)> {
        let mut v: Vec<_> = t
            .loops_of(n)
            .iter()
            .map(|x| (loop_line(x.loop_), x.label, x.executions))
            .collect();
        v.sort();
        v
    };
    assert_eq!(recs(kernel), [(12, 0b01, 3)]);
    assert_eq!(recs(main), [(45, 0b10 | 0b01 << 8, 1)]);
    assert_eq!(recs(helper), [(5, 0, 1)]);
    assert_eq!(recs(recn), [(31, 0b01, 2)]);
    // The folded recursive call and the recursive function.
    assert_eq!(t.folded.len(), 1);
    let fo = t.folded[0];
    assert_eq!(fo.node, recn);
    assert_eq!(name_of(&r, fo.func), "rec");
    assert_eq!(r.modules.site(fo.site).unwrap().1.chain[0].line, 33);
    assert_eq!(t.folded_target(&fo), Some(recn));
    let recursive: Vec<&str> = t.recursive.iter().map(|&f| name_of(&r, f)).collect();
    assert_eq!(recursive, ["rec"]);

    // BRANCHES: only the branch that ran.
    assert_eq!(r.branches.len(), 1);
    let b = r.branches[0];
    assert_eq!((b.label, b.taken, b.executions), (0b10, 0b01, 4));
    let (bm, be) = r.modules.branch(b.branch).unwrap();
    assert_eq!(bm.source, b"lib.c");
    assert_eq!(bm.sites[be.branch.site as usize].chain[0].line, 4);
    assert_eq!(be.succ.len(), 2);
    assert_eq!(bm.sites[be.succ[1] as usize].chain[0].line, 7);

    // TRAILER.
    let tr = r.trailer.as_ref().unwrap();
    assert_eq!(tr.exit, rec::Exit::Normal(3));
    let warning = |code: u32| tr.warnings.iter().find(|w| w.warning.code == code);
    assert_eq!(
        warning(rec::WARN_UNKNOWN_CONTEXTS).unwrap().warning.value,
        1
    );
    assert!(
        warning(rec::WARN_UNKNOWN_LOOPS).is_none(),
        "its subtree was skipped"
    );
    assert!(warning(rec::WARN_WRITER_OOM).is_none());
    assert!(warning(rec::WARN_WRITER_REFUSED).is_none());
    assert!(r.inflight.is_empty());
}

#[test]
fn a_run_without_threads_or_modules_is_a_complete_record() {
    let reg: &'static Registry = Box::leak(Box::new(Registry::new()));
    let inp = Inputs {
        name: b"empty",
        path: b"/empty",
        argv: &[],
        pid: 7,
        exit: Exit::Signal(15),
        modules: &[],
        threads: &[],
        params: reg,
        context_oom: true,
        rejected_modules: false,
    };
    let (bytes, refused) = write(&inp);
    assert_eq!(refused, 0);
    let r = read::read(&bytes).unwrap();
    assert!(r.modules.list.is_empty() && r.threads.is_empty() && r.params.params.is_empty());
    let tr = r.trailer.unwrap();
    assert_eq!(tr.exit, rec::Exit::Signal(15));
    assert_eq!(tr.warnings[0].warning.code, rec::WARN_CONTEXT_OOM);
}

#[test]
fn exits_map_to_the_documented_kinds_and_codes() {
    assert_eq!(exit_of(Exit::Code(5)).encode(), (1, 5));
    assert_eq!(
        exit_of(Exit::Code(256 + 3)).encode(),
        (1, 3),
        "as the shell sees it"
    );
    assert_eq!(exit_of(Exit::Signal(15)).encode(), (2, 15));
    assert_eq!(exit_of(Exit::Immediate(4)).encode(), (3, 4));
    assert_eq!(exit_of(Exit::Exec).encode(), (4, 0));
    assert_eq!(exit_of(Exit::Running).encode(), (5, 0));
}

#[test]
fn the_environment_gives_mpi_attributes_and_options() {
    let vars = [
        c"HOME=/root",
        c"OMPI_COMM_WORLD_RANK=9",
        c"PMI_RANK=3",
        c"OMPI_COMM_WORLD_SIZE=16",
        c"TAINTPROF_OUT=/tmp/x",
        c"TAINTPROF_MAX_CONTEXTS=1000",
        c"NOT_TAINTPROF_X=1",
        c"BROKEN",
    ];
    let mut envp: Vec<*const libc::c_char> = vars.iter().map(|c| c.as_ptr()).collect();
    envp.push(core::ptr::null());
    // SAFETY: a NULL-terminated array of NUL-terminated strings.
    let info = unsafe { parse_environment(envp.as_ptr(), 77) };
    assert_eq!(info.start_time_ns, 77);
    assert_eq!(info.mpi_rank, b"3", "PMI_RANK first");
    assert_eq!(info.mpi_size, b"16");
    let opts: Vec<(&[u8], &[u8])> = info.options().to_vec();
    assert_eq!(
        opts,
        [
            (&b"TAINTPROF_OUT"[..], &b"/tmp/x"[..]),
            (&b"TAINTPROF_MAX_CONTEXTS"[..], &b"1000"[..])
        ]
    );
    // SAFETY: null is allowed.
    let none = unsafe { parse_environment(core::ptr::null(), 0) };
    assert!(none.mpi_rank.is_empty() && none.options().is_empty());
}

#[test]
fn pointer_maps_grow_and_find_every_key() {
    let mut m = PtrMap::new();
    assert_eq!(m.get(8), None);
    for k in 1..20_000usize {
        assert!(m.insert(k * 8, k as u32));
    }
    for k in 1..20_000usize {
        assert_eq!(m.get(k * 8), Some(k as u32));
    }
    assert_eq!(m.get(8 * 20_001), None);
    m.update(16, 99);
    m.update(8 * 30_000, 1);
    assert_eq!(m.get(16), Some(99));
    assert_eq!(m.get(8 * 30_000), None, "update never inserts");
    assert!(!m.insert(0, 1), "0 is the empty key");
    assert!(m.reset(10));
    assert_eq!(m.get(16), None);
}

#[test]
fn descriptor_pointers_map_to_indices_by_address_range() {
    let a = [0u64; 4];
    let b = [0u64; 2];
    let mut s = Spans::new();
    assert!(s.add(a.as_ptr(), 4, 0, 0));
    assert!(s.add(b.as_ptr(), 2, 1, 4));
    assert!(s.add(core::ptr::null::<u64>(), 5, 2, 6));
    s.sort();
    assert_eq!(s.find(&a[2]), Some((0, 2)));
    assert_eq!(s.global(&b[1]), Some(5));
    assert_eq!(s.global(&a[3]), Some(3));
    assert_eq!(s.local_in(&b[0], 1), 0);
    assert_eq!(s.local_in(&b[0], 0), NONE, "another module's");
    let inside = (a.as_ptr() as usize + 3) as *const u64;
    assert_eq!(s.find(inside), None, "not the start of a descriptor");
    assert_eq!(s.find(core::ptr::null::<u64>()), None);
}

#[test]
fn the_object_of_an_address_comes_from_the_maps() {
    let maps = b"55d0c8a4e000-55d0c8a50000 r--p 00000000 08:01 1234   /usr/bin/prog\n\
55d0c8a50000-55d0c8a60000 rw-p 00002000 08:01 1234   /tmp/my prog (deleted)\n\
7ffd1000-7ffd2000 rw-p 00000000 00:00 0                  [stack]\n\
7ffd3000-7ffd4000 rw-p 00000000 00:00 0\n";
    assert_eq!(object_of(maps, 0x55d0c8a4e010), b"/usr/bin/prog");
    assert_eq!(object_of(maps, 0x55d0c8a50000), b"/tmp/my prog");
    assert_eq!(object_of(maps, 0x7ffd1008), b"");
    assert_eq!(object_of(maps, 0x7ffd3008), b"");
    assert_eq!(object_of(maps, 0x10), b"");
    assert_eq!(object_of(b"garbage\n-\nzz-yy a\n", 5), b"");
    // This test binary's own code is in a file.
    let mut own = MmapVec::new();
    assert!(read_maps(&mut own));
    let code = exits_map_to_the_documented_kinds_and_codes as fn() as usize;
    let here = object_of(own.as_slice(), code);
    assert!(here.starts_with(b"/"), "{}", String::from_utf8_lossy(here));
}

/// The build id `readelf -n` shows for `path` (hex), if any.
fn readelf_build_id(path: &[u8]) -> Option<String> {
    use std::os::unix::ffi::OsStrExt;
    let out = std::process::Command::new("readelf")
        .arg("-n")
        .arg(std::ffi::OsStr::from_bytes(path))
        .output()
        .expect("readelf runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .find_map(|l| l.trim().strip_prefix("Build ID: "))
        .map(|s| s.trim().to_string())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn build_ids_are_read_from_the_mapped_notes() {
    let mut maps = MmapVec::new();
    assert!(read_maps(&mut maps));
    let maps = maps.as_slice();
    // This test executable and the C library (a shared object): the id in memory is the
    // one readelf finds in the file.
    let here = build_ids_are_read_from_the_mapped_notes as fn() as usize;
    let libc_code = libc::getpid as unsafe extern "C" fn() -> libc::pid_t as usize;
    let mut ids = objects::BuildIds::new();
    for addr in [here, libc_code] {
        let path = object_of(maps, addr);
        assert!(path.starts_with(b"/"), "{}", String::from_utf8_lossy(path));
        let want = readelf_build_id(path)
            .unwrap_or_else(|| panic!("{} has no build id", String::from_utf8_lossy(path)));
        let got = build_id_of(maps, addr).expect("a build id in memory");
        assert_eq!(
            hex(got.as_bytes()),
            want,
            "{}",
            String::from_utf8_lossy(path)
        );
        assert_eq!(ids.of(maps, addr), Some(got), "the cache");
        assert_eq!(ids.of(maps, addr + 1), Some(got), "the cache, a hit");
    }
    // Anonymous memory, the stack, an unmapped address: none.
    let heap = Box::new(0u64);
    let local = 0u64;
    for addr in [
        &*heap as *const u64 as usize,
        &local as *const u64 as usize,
        0x10,
    ] {
        assert_eq!(build_id_of(maps, addr), None);
        assert_eq!(ids.of(maps, addr), None);
    }
}

/// One note: `name` (NUL included), type, descriptor, padded to `align`.
fn note(name: &[u8], kind: u32, desc: &[u8], align: usize) -> Vec<u8> {
    let pad = |v: &mut Vec<u8>| v.resize(v.len().div_ceil(align) * align, 0);
    let mut v = Vec::new();
    v.extend_from_slice(&(name.len() as u32).to_le_bytes());
    v.extend_from_slice(&(desc.len() as u32).to_le_bytes());
    v.extend_from_slice(&kind.to_le_bytes());
    v.extend_from_slice(name);
    pad(&mut v);
    v.extend_from_slice(desc);
    pad(&mut v);
    v
}

#[test]
fn the_build_id_note_is_found_among_others_and_bad_notes_are_refused() {
    use objects::build_id_in_notes as find;
    for align in [4, 8] {
        let mut notes = note(b"GNU\0", 5, &[1; 16], align); // a property note first
        notes.extend(note(b"Go\0\0", 3, &[9; 20], align)); // type 3, not GNU's
        notes.extend(note(b"GNU\0", 3, &[0xab, 0xcd, 0xef], align));
        let id = find(&notes, align).expect("found");
        assert_eq!(id.as_bytes(), [0xab, 0xcd, 0xef], "align {align}");
        // Cut anywhere before the end of the id: not found, no panic.
        let last = notes.len() - note(b"GNU\0", 3, &[0xab, 0xcd, 0xef], align).len();
        let id_end = last + 16 + 3; // header, "GNU\0" padded, 3 bytes of id
        for cut in last..id_end {
            assert_eq!(find(&notes[..cut], align), None, "cut at {cut}");
        }
    }
    assert!(find(&note(b"GNU\0", 3, &[7; 64], 4), 4).is_some());
    assert_eq!(find(&note(b"GNU\0", 3, &[7; 65], 4), 4), None, "too long");
    assert_eq!(find(&note(b"GNU\0", 3, &[], 4), 4), None, "empty");
    // Sizes that point far beyond the notes.
    let mut huge = note(b"GNU\0", 3, &[1; 4], 4);
    huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(find(&huge, 4), None);
    assert_eq!(find(&[], 4), None);
}

#[test]
fn maps_lines_are_parsed_field_by_field() {
    use objects::{parse_line, Mapping};
    assert_eq!(
        parse_line(b"7f00-7f10 r-xp 00001000 fd:01 98765   /lib/x86_64-linux-gnu/libc.so.6"),
        Some(Mapping {
            lo: 0x7f00,
            hi: 0x7f10,
            readable: true,
            offset: 0x1000,
            dev: b"fd:01",
            inode: 98765,
            path: b"/lib/x86_64-linux-gnu/libc.so.6",
        })
    );
    let anon = parse_line(b"7f00-7f10 ---p 00000000 00:00 0 ").unwrap();
    assert!(!anon.readable && anon.path.is_empty() && anon.inode == 0);
    assert_eq!(
        parse_line(b"7f00-7f10 rw-p 00000000 00:00 0 [heap]")
            .unwrap()
            .path,
        b""
    );
    for bad in [
        &b""[..],
        b"7f00 r-xp",
        b"x-y r 0 0:0 0",
        b"1-2 r 0 0:0 notanumber /a",
    ] {
        assert_eq!(parse_line(bad), None, "{}", String::from_utf8_lossy(bad));
    }
}
