//! Round trips of the denormal record: what the writer writes, the reader reads back
//! field for field; truncated and corrupt bytes are errors, never panics.

use std::prelude::rust_2021::*;
use std::vec;

use super::read::{read, write, DnError, DnRecord};
use super::*;

fn sample() -> Vec<u8> {
    let mut w = DnWriter::new(Vec::new());
    w.run(
        &DnRun {
            pid: 4242,
            abi_version: 9,
            threads: 3,
            flags: DN_RUN_ALL_SITES,
            fp_operations: 1 << 40,
        },
        b"jacobi",
        b"/tmp/jacobi",
        b"0.1.0",
    );
    w.arg(b"./jacobi");
    w.arg(b"0.0");
    w.exit(Exit::Signal(15), 0);
    w.fpenv(&DnFpEnv {
        start: 0x1f80,
        end: 0x9fc0,
        flags: DN_FPENV_FTZ | DN_FPENV_CHANGED,
    });
    let src = w.string(b"jacobi.c");
    let f = w.string(b"main");
    let op = w.string(b"fadd");
    w.module(&DnModule {
        n_sites: 2,
        n_blocks: 10,
        flags: 0,
        source: src,
    });
    let s0 = w.site(&DnSite {
        function: f,
        linkage: f,
        file: src,
        line: 12,
        column: 7,
        op,
        ty: 2,
        lanes: 4,
        flags: 0,
        rflags: DN_SITE_HAS_LOC,
        counts: DnCounts {
            executions: 100,
            operands: 5,
            operand_ops: 4,
            results: 3,
            loads: 0,
            stores: 0,
        },
    });
    let s1 = w.site(&DnSite {
        op,
        function: NONE,
        linkage: NONE,
        file: NONE,
        ..DnSite::default()
    });
    assert_eq!((s0, s1), (0, 1));
    w.overflow(&DnOverflow {
        operands: 1,
        results: 2,
        loads: 3,
        stores: 4,
    });
    w.array(
        &DnArray {
            id: 0,
            kind: 0,
            flags: DN_ARRAY_READY,
            alloc_function: NONE,
            alloc_file: NONE,
            ..DnArray::default()
        },
        b"<other>",
    );
    w.array(
        &DnArray {
            id: 1,
            kind: 4,
            elem_ty: 2,
            flags: DN_ARRAY_READY | DN_ARRAY_TOUCHED | DN_ARRAY_ALLOCATED_AT,
            elements: 1 << 20,
            rows: 1024,
            cols: 1024,
            reads: 77,
            writes: 5,
            alloc_function: f,
            alloc_file: src,
            alloc_line: 30,
        },
        b"grid",
    );
    w.pair(&DnPair {
        dest: 1,
        src: 1,
        count: 9,
    });
    w.creator(&DnCreator {
        key: (1 << 48) | 0x5555_0000,
        site: s0,
        count: 12,
    });
    w.creator(&DnCreator {
        key: 7,
        site: NONE,
        count: 1,
    });
    w.snapshot(
        &DnSnapshot {
            index: 0,
            fp_operations: 10,
        },
        b"exit",
    );
    let a = DnSnapArray {
        id: 1,
        has_heatmap: true,
        reads: 3,
        writes: 4,
        hm_rows: 2,
        hm_cols: 300,
        cell_r: 512,
        cell_c: 4,
    };
    let rd: Vec<u32> = (0..600).collect();
    let wr: Vec<u32> = (0..600).map(|x| x * 2).collect();
    w.snap_array(&a, &rd, &wr);
    w.snap_array(
        &DnSnapArray {
            id: 0,
            reads: 1,
            ..DnSnapArray::default()
        },
        &[],
        &[],
    );
    let cells: Vec<(u64, u32)> = (0..200).map(|i| (i * 3 + 1, i as u32 + 1)).collect();
    w.origin_map(
        &DnOriginMap {
            dest: 1,
            src: 1,
            elements: 1 << 20,
            rows: 1024,
            cols: 1024,
        },
        cells.iter().copied(),
    );
    w.origin_map(
        &DnOriginMap {
            dest: 2,
            src: 1,
            elements: 1 << 41,
            rows: 0,
            cols: 0,
        },
        [(5u64, 1u32), (1 << 40, u32::MAX)].into_iter(),
    );
    w.snap_array(
        &DnSnapArray {
            id: 2,
            has_heatmap: true,
            hm_rows: 3,
            hm_cols: 3,
            cell_r: 1,
            cell_c: 1,
            ..DnSnapArray::default()
        },
        &[0; 9],
        &[0, 0, 0, 0, 0, 0, 0, 0, 4],
    );
    w.counter(DN_COUNT_MODULES, 1);
    w.counter(DN_LIMIT_MAX_ID, 65535);
    let f = w.finish();
    assert!(f.ok);
    assert_eq!(f.bytes, f.out.len() as u64);
    f.out
}

#[test]
fn a_record_reads_back_field_for_field() {
    let bytes = sample();
    assert!(is_denormal_record(&bytes));
    let r: DnRecord = read(&bytes).unwrap();
    assert_eq!(r.run.pid, 4242);
    assert_eq!(r.run.fp_operations, 1 << 40);
    assert_eq!(r.name, b"jacobi");
    assert_eq!(r.argv, vec![b"./jacobi".to_vec(), b"0.0".to_vec()]);
    assert_eq!(r.exit, Exit::Signal(15));
    assert_eq!(r.fpenv.end, 0x9fc0);
    assert_eq!(r.strings.len(), 3);
    assert_eq!(r.modules.len(), 1);
    assert_eq!((r.modules[0].first_site, r.modules[0].sites), (0, 2));
    assert_eq!(r.sites[0].counts.operand_ops, 4);
    assert_eq!(r.str(r.sites[0].function), b"main");
    assert!(r.sites[1].counts.is_zero());
    assert_eq!(r.str(r.sites[1].file), b"");
    assert_eq!(r.overflow.stores, 4);
    assert_eq!(r.arrays.len(), 2);
    assert_eq!(r.arrays[1].1, b"grid");
    assert_eq!(r.arrays[1].0.rows, 1024);
    assert_eq!(r.creators[1].site, NONE);
    assert_eq!(r.snapshots.len(), 1);
    let (a, rd, wr) = &r.snapshots[0].arrays[0];
    assert_eq!((a.hm_rows, a.hm_cols), (2, 300));
    assert_eq!(rd[599], 599);
    assert_eq!(wr[599], 1198);
    assert!(r.snapshots[0].arrays[1].1.is_empty());
    assert_eq!(r.origin_maps[0].cells.len(), 200);
    assert_eq!(r.origin_maps[0].cells[199], (598, 200));
    assert_eq!(r.origin_maps[1].cells, vec![(5, 1), (1 << 40, u32::MAX)]);
    let (_, rd, wr) = &r.snapshots[0].arrays[2];
    assert_eq!((rd.len(), wr.len(), wr[8]), (9, 9, 4));
    assert_eq!(r.counter(DN_LIMIT_MAX_ID), 65535);
    assert_eq!(r.counter(DN_COUNT_OTHER_ARRAYS), 0);
    // Written back, the same bytes (this sample writes its strings first).
    let again = write(&r, Vec::new());
    assert!(again.ok);
    assert_eq!(read(&again.out).unwrap(), r);
}

#[test]
fn truncated_and_corrupt_records_are_errors() {
    let bytes = sample();
    for cut in [0, 5, 16, 17, 40, bytes.len() / 2, bytes.len() - 1] {
        let e = read(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(e, DnError::Truncated { .. } | DnError::BadMagic),
            "cut at {cut}: {e}"
        );
    }
    let mut bad = bytes.clone();
    bad[0] = b'x';
    assert!(matches!(read(&bad), Err(DnError::BadMagic)));
    let mut newer = bytes.clone();
    newer[8] = 2;
    assert!(read(&newer).unwrap_err().to_string().contains("newer"));
    // A taint record is not a denormal record.
    assert!(!is_denormal_record(b"\x89TPREC\r\n"));
    // Any single byte flipped: an error or a record, never a panic.
    for i in 16..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x5a;
        let _ = read(&b);
    }
}
