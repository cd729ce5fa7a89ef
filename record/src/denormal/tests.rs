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
            created: 2,
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
        created: 5,
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
    assert_eq!(r.sites[0].counts.created, 2);
    assert_eq!(r.str(r.sites[0].function), b"main");
    assert!(r.sites[1].counts.is_zero());
    assert_eq!(r.str(r.sites[1].file), b"");
    assert_eq!(r.overflow.stores, 4);
    assert_eq!(r.overflow.created, 5);
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

/// A record body: tag, ULEB128 length, bytes.
fn raw(out: &mut Vec<u8>, tag: u8, body: &[u8]) {
    out.push(tag);
    let mut n = body.len();
    loop {
        let low = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(low);
            break;
        }
        out.push(low | 0x80);
    }
    out.extend_from_slice(body);
}

#[test]
fn created_counts_round_trip_and_only_a_non_zero_created_writes_the_counters() {
    let mut w = DnWriter::new(Vec::new());
    let op = w.string(b"fmul");
    w.module(&DnModule {
        n_sites: 3,
        n_blocks: 4,
        flags: 4,
        source: NONE,
    });
    // Only `created` is non-zero: the counters block is written all the same.
    let only = DnCounts {
        created: 7,
        ..DnCounts::default()
    };
    for counts in [
        only,
        DnCounts::default(),
        DnCounts {
            created: u64::MAX,
            results: 9,
            ..only
        },
    ] {
        w.site(&DnSite {
            function: NONE,
            linkage: NONE,
            file: NONE,
            op,
            counts,
            ..DnSite::default()
        });
    }
    w.overflow(&DnOverflow {
        created: 3,
        ..DnOverflow::default()
    });
    let f = w.finish();
    assert!(f.ok);
    let r = read(&f.out).unwrap();
    assert_eq!(r.modules[0].info.flags, 4);
    assert_eq!(r.sites[0].counts, only);
    assert!(r.sites[1].counts.is_zero());
    assert_eq!(
        (r.sites[2].counts.created, r.sites[2].counts.results),
        (u64::MAX, 9)
    );
    assert_eq!(r.overflow.created, 3);
    assert_eq!(&f.out[10..12], &DN_VERSION_MINOR.to_le_bytes());
    assert_eq!(DN_VERSION_MINOR, 1);
}

#[test]
fn a_minor_version_0_record_without_created_reads_with_created_0() {
    // What a writer of minor version 0 wrote: SITE counters of 48 bytes, OVERFLOW of 32.
    let mut b = Vec::new();
    b.extend_from_slice(&DN_MAGIC);
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&0u16.to_le_bytes());
    b.extend_from_slice(&crate::format::BYTE_ORDER_MARK.to_le_bytes());
    raw(&mut b, DN_TAG_STR, b"fadd");
    let mut m = Vec::new();
    for v in [1u32, 2, 0, NONE] {
        m.extend_from_slice(&v.to_le_bytes());
    }
    raw(&mut b, DN_TAG_MODULE, &m);
    let mut site = Vec::new();
    for v in [NONE, NONE, NONE, 12, 3, 0] {
        site.extend_from_slice(&v.to_le_bytes());
    }
    for v in [2u16, 4, 0, 0] {
        site.extend_from_slice(&v.to_le_bytes());
    }
    for v in [100u64, 5, 4, 3, 2, 1] {
        site.extend_from_slice(&v.to_le_bytes());
    }
    assert_eq!(site.len(), DN_SITE_LEN + DN_SITE_COUNTS_LEN);
    raw(&mut b, DN_TAG_SITE, &site);
    let mut ov = Vec::new();
    for v in [1u64, 2, 3, 4] {
        ov.extend_from_slice(&v.to_le_bytes());
    }
    raw(&mut b, DN_TAG_OVERFLOW, &ov);
    raw(&mut b, crate::format::TAG_END, &4u64.to_le_bytes());
    let r = read(&b).unwrap();
    assert_eq!(
        r.sites[0].counts,
        DnCounts {
            executions: 100,
            operands: 5,
            operand_ops: 4,
            results: 3,
            loads: 2,
            stores: 1,
            created: 0,
        }
    );
    assert_eq!(r.str(r.sites[0].op), b"fadd");
    assert_eq!(
        r.overflow,
        DnOverflow {
            operands: 1,
            results: 2,
            loads: 3,
            stores: 4,
            created: 0,
        }
    );
    // Written back by this version, the counts are the same and `created` 0 again.
    let again = write(&r, Vec::new());
    assert_eq!(read(&again.out).unwrap().sites, r.sites);
}
