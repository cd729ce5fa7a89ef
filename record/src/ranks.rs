//! The MPI ranks of records (feature `std`): which records are the processes of one MPI
//! run, and how a merged result names each of its records.
//!
//! A record's RUN section carries the attributes `mpi.rank` and `mpi.size` when the
//! process started with `PMI_RANK`/`OMPI_COMM_WORLD_RANK` and
//! `PMI_SIZE`/`OMPI_COMM_WORLD_SIZE` in its environment (`rt/src/record.rs`). Both are
//! read here as decimal integers; anything else counts as absent.
//!
//! * [`group`]: the records of one MPI run are those of one program name with the same
//!   `mpi.size` and distinct ranks. Records are taken in the order of their start time
//!   (then pid), each into the first group of its program and size that has no record
//!   of its rank yet, so two runs one after the other give two groups. A group of one
//!   record, and every record without both attributes or that is not a finished
//!   process (no trailer, or written before an `exec`), stays on its own.
//! * [`rank_ids`]: the number a merged result shows for each record (the `ranks` of
//!   `params_by_rank`, `docs/report-schema.md`): its `mpi.rank` when every record has
//!   one and no two share it, otherwise its index among the merged records.

use std::prelude::rust_2021::*;
use std::vec;

use crate::format::Exit;
use crate::read::{Record, Run};

/// The RUN attribute `key` of `run`.
pub fn attr<'a>(run: &'a Run, key: &[u8]) -> Option<&'a [u8]> {
    run.attrs
        .iter()
        .find(|a| a.key == key)
        .map(|a| &a.value[..])
}

/// A decimal `u32` (1 to 10 digits, nothing else).
fn decimal(v: &[u8]) -> Option<u32> {
    if v.is_empty() || v.len() > 10 || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = v.iter().fold(0u64, |a, &d| a * 10 + (d - b'0') as u64);
    u32::try_from(n).ok()
}

/// The record's MPI rank (`mpi.rank`), if it has a valid one.
pub fn mpi_rank(run: &Run) -> Option<u32> {
    attr(run, b"mpi.rank").and_then(decimal)
}

/// The record's MPI world size (`mpi.size`), if it has a valid one.
pub fn mpi_size(run: &Run) -> Option<u32> {
    attr(run, b"mpi.size").and_then(decimal)
}

/// `(rank, size)` if the record names both and the rank is inside the world.
pub fn mpi_place(run: &Run) -> Option<(u32, u32)> {
    let (r, s) = (mpi_rank(run)?, mpi_size(run)?);
    (r < s).then_some((r, s))
}

/// Records that make one result: the processes of one MPI run, or one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Indices into the input, in rank order for an MPI run.
    pub members: Vec<usize>,
    /// For an MPI run of two records or more: `mpi.size` (the members then have
    /// distinct `mpi.rank`s); `None` for a single record.
    pub mpi_size: Option<u32>,
}

/// Groups records given by their RUN sections (see the module comment). `None` marks a
/// record that is not grouped (unfinished, written before an `exec`, unreadable): it
/// makes a group of its own. Groups come in the order of their first member in the
/// input.
pub fn group_runs(runs: &[Option<&Run>]) -> Vec<Group> {
    // (first input index, program, size, members with their ranks)
    struct Open<'a> {
        first: usize,
        name: &'a [u8],
        size: u32,
        members: Vec<(u32, usize)>,
    }
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&i| {
        runs[i].map_or((0, 0, i), |r| (r.info.start_time_ns, r.info.pid as i64, i))
    });
    let mut open: Vec<Open<'_>> = Vec::new();
    let mut singles: Vec<usize> = Vec::new();
    for i in order {
        let Some((run, (rank, size))) = runs[i].and_then(|r| Some((r, mpi_place(r)?))) else {
            singles.push(i);
            continue;
        };
        let slot = open.iter_mut().find(|g| {
            g.name == &run.name[..] && g.size == size && g.members.iter().all(|m| m.0 != rank)
        });
        match slot {
            Some(g) => {
                g.members.push((rank, i));
                g.first = g.first.min(i);
            }
            None => open.push(Open {
                first: i,
                name: &run.name,
                size,
                members: vec![(rank, i)],
            }),
        }
    }
    let mut out: Vec<(usize, Group)> = singles
        .into_iter()
        .map(|i| {
            (
                i,
                Group {
                    members: vec![i],
                    mpi_size: None,
                },
            )
        })
        .collect();
    for mut g in open {
        if g.members.len() == 1 {
            out.push((
                g.first,
                Group {
                    members: vec![g.members[0].1],
                    mpi_size: None,
                },
            ));
            continue;
        }
        g.members.sort_unstable();
        out.push((
            g.first,
            Group {
                members: g.members.into_iter().map(|m| m.1).collect(),
                mpi_size: Some(g.size),
            },
        ));
    }
    out.sort_by_key(|(first, _)| *first);
    out.into_iter().map(|(_, g)| g).collect()
}

/// Whether a record takes part in the grouping: a finished process (a trailer that
/// does not say `exec`).
pub fn groupable(r: &Record) -> bool {
    r.trailer
        .as_ref()
        .is_some_and(|t| !matches!(t.exit, Exit::Exec | Exit::Running))
}

/// [`group_runs`] of records (those that are not [`groupable`] stay alone).
pub fn group(records: &[&Record]) -> Vec<Group> {
    let runs: Vec<Option<&Run>> = records
        .iter()
        .map(|r| groupable(r).then_some(&r.run))
        .collect();
    group_runs(&runs)
}

/// The number each record of a merged result is shown under (see the module comment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankIds {
    /// One per record, in record order.
    pub ids: Vec<u32>,
    /// The ids are the records' `mpi.rank`s (else their indices).
    pub mpi: bool,
}

/// [`RankIds`] of the records with these RUN sections (in merge order).
pub fn rank_ids<'a>(runs: impl IntoIterator<Item = &'a Run>) -> RankIds {
    let runs: Vec<&Run> = runs.into_iter().collect();
    let ranks: Vec<Option<u32>> = runs.iter().map(|r| mpi_rank(r)).collect();
    let mut seen: Vec<u32> = ranks.iter().flatten().copied().collect();
    seen.sort_unstable();
    seen.dedup();
    if !ranks.is_empty() && ranks.iter().all(Option::is_some) && seen.len() == ranks.len() {
        RankIds {
            ids: ranks.into_iter().flatten().collect(),
            mpi: true,
        }
    } else {
        RankIds {
            ids: (0..runs.len() as u32).collect(),
            mpi: false,
        }
    }
}

/// `0-3`, `0,2`, `0-2,5`: ascending ids, runs of three or more as ranges.
pub fn ranges(ids: &[u32]) -> String {
    let mut v = ids.to_vec();
    v.sort_unstable();
    v.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(std::format!("{}-{}", v[i], v[j]));
        } else {
            parts.extend(v[i..=j].iter().map(|x| std::format!("{x}")));
        }
        i = j + 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::Attr;

    fn run(name: &str, pid: i32, t: u64, attrs: &[(&str, &str)]) -> Run {
        let mut r = Run {
            name: name.as_bytes().to_vec(),
            ..Run::default()
        };
        r.info.pid = pid;
        r.info.start_time_ns = t;
        r.attrs = attrs
            .iter()
            .map(|(k, v)| Attr {
                key: k.as_bytes().to_vec(),
                value: v.as_bytes().to_vec(),
            })
            .collect();
        r
    }

    fn rank(name: &str, pid: i32, t: u64, r: u32, s: u32) -> Run {
        run(
            name,
            pid,
            t,
            &[("mpi.rank", &r.to_string()), ("mpi.size", &s.to_string())],
        )
    }

    #[test]
    fn the_ranks_of_one_run_are_one_group_in_rank_order() {
        let rs = [
            rank("app", 13, 3, 2, 4),
            rank("app", 11, 1, 0, 4),
            run("helper", 20, 2, &[]),
            rank("app", 14, 4, 3, 4),
            rank("app", 12, 2, 1, 4),
        ];
        let g = group_runs(&rs.iter().map(Some).collect::<Vec<_>>());
        assert_eq!(
            g,
            vec![
                Group {
                    members: vec![1, 4, 0, 3],
                    mpi_size: Some(4)
                },
                Group {
                    members: vec![2],
                    mpi_size: None
                },
            ]
        );
    }

    #[test]
    fn two_runs_one_after_the_other_are_two_groups() {
        let rs = [
            rank("app", 1, 1, 0, 2),
            rank("app", 2, 2, 1, 2),
            rank("app", 3, 3, 0, 2),
            rank("app", 4, 4, 1, 2),
            // Another size, another program: groups of their own.
            rank("app", 5, 5, 0, 3),
            rank("other", 6, 6, 1, 2),
        ];
        let g = group_runs(&rs.iter().map(Some).collect::<Vec<_>>());
        let members: Vec<Vec<usize>> = g.iter().map(|g| g.members.clone()).collect();
        assert_eq!(members, vec![vec![0, 1], vec![2, 3], vec![4], vec![5]]);
        assert_eq!(g[0].mpi_size, Some(2));
        assert_eq!(g[1].mpi_size, Some(2));
        assert_eq!(g[2].mpi_size, None, "one rank is one record");
    }

    #[test]
    fn records_without_valid_mpi_attributes_stay_alone() {
        let rs = [
            run("app", 1, 1, &[("mpi.rank", "0")]),
            run("app", 2, 2, &[("mpi.rank", "1")]),
            run("app", 3, 3, &[("mpi.rank", "x"), ("mpi.size", "2")]),
            run("app", 4, 4, &[("mpi.rank", "5"), ("mpi.size", "2")]),
            rank("app", 5, 5, 0, 2),
        ];
        let mut input: Vec<Option<&Run>> = rs.iter().map(Some).collect();
        let g = group_runs(&input);
        assert!(g
            .iter()
            .all(|g| g.members.len() == 1 && g.mpi_size.is_none()));
        assert_eq!(g.len(), 5);
        // A record left out (None) is alone even beside its partner ranks.
        let r1 = rank("app", 6, 6, 1, 2);
        input.push(Some(&r1));
        input[4] = None;
        let g = group_runs(&input);
        assert_eq!(g.len(), 6);
        assert!(g.iter().all(|g| g.mpi_size.is_none()));
    }

    #[test]
    fn rank_ids_are_mpi_ranks_only_when_all_are_distinct() {
        let a = [rank("a", 1, 0, 3, 4), rank("a", 2, 0, 1, 4)];
        assert_eq!(
            rank_ids(&a),
            RankIds {
                ids: vec![3, 1],
                mpi: true
            }
        );
        let b = [rank("a", 1, 0, 1, 4), rank("a", 2, 0, 1, 4)];
        assert_eq!(
            rank_ids(&b),
            RankIds {
                ids: vec![0, 1],
                mpi: false
            }
        );
        let c = [rank("a", 1, 0, 1, 4), run("a", 2, 0, &[])];
        assert!(!rank_ids(&c).mpi);
    }

    #[test]
    fn rank_lists_compress_runs() {
        assert_eq!(ranges(&[0, 1, 2, 3]), "0-3");
        assert_eq!(ranges(&[2, 0]), "0,2");
        assert_eq!(ranges(&[0, 1]), "0,1");
        assert_eq!(ranges(&[5, 0, 1, 2, 7, 8]), "0-2,5,7,8");
        assert_eq!(ranges(&[]), "");
    }
}
