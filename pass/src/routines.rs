//! The routine database (`rt/routines.txt`, format in its header): library routines
//! that are loops over their size (`memset`, `qsort`, ...), so that a call of one is
//! reported as a *library loop* (`taintprof_abi::LOOP_LIBRARY`). Routines with an MPI
//! communicator argument (`comm=`: collectives such as `MPI_Allreduce`) also depend on
//! the process count `p`, the implicit parameter the MPI interception library
//! registers (`taintprof_abi::GLOBAL_MPI_SIZE_LABEL`).
//!
//! The default database is embedded at build time; files named in `TAINTPROF_ROUTINES`
//! are read at compile time and override it entry by entry. A malformed line is a
//! compile error naming the file and line (as for the function list): a typo would
//! otherwise make loops vanish without a trace.

use std::collections::HashMap;

pub const DEFAULT_DB: &str = include_str!("../../rt/routines.txt");
pub const DEFAULT_DB_NAME: &str = "rt/routines.txt (embedded)";

/// One routine: which arguments carry its size, and its cost in that size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Routine {
    pub name: String,
    /// 0-based argument indices the size is made of (one for most routines; `n=0*1`
    /// a product, `n=1+6` a sum: either way the loop's label is the union of theirs).
    /// Empty for a routine with a communicator and no size (`MPI_Barrier comm=0`).
    pub size_args: Vec<u32>,
    /// 0-based index of an MPI communicator argument (`comm=`): the routine's cost
    /// depends on the process count `p`, whose label (`__tp_mpi_size_label`) joins the
    /// loop's at run time, and a call of it is a loop even with constant sizes.
    pub comm: Option<u32>,
    /// Cost formula in the size `n` (and the process count `p`), as written (default
    /// `n`, or `p` without a size).
    pub cost: String,
}

#[derive(Debug, Clone, Default)]
pub struct Routines {
    entries: HashMap<String, Routine>,
}

impl Routines {
    pub fn get(&self, name: &str) -> Option<&Routine> {
        self.entries.get(name)
    }

    /// The entry a memory intrinsic uses: `llvm.memset.*` is `memset`,
    /// `llvm.memcpy.*` (and `.inline`) `memcpy`, `llvm.memmove.*` `memmove`.
    pub fn for_intrinsic(&self, name: &str) -> Option<&Routine> {
        let base = ["memset", "memcpy", "memmove"]
            .into_iter()
            .find(|b| name.starts_with(&format!("llvm.{b}.")))?;
        self.get(base)
    }

    /// Parse `text` (read from `file`, for error messages) and add its entries,
    /// overriding earlier ones.
    pub fn add(&mut self, text: &str, file: &str) -> Result<(), String> {
        for (k, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("");
            let at = || format!("{file}:{}", k + 1);
            let fields = split_fields(line).map_err(|e| format!("{}: {e}", at()))?;
            let Some((name, rest)) = fields.split_first() else {
                continue;
            };
            if rest == ["none"] {
                self.entries.remove(name.as_str());
                continue;
            }
            let mut size_args: Option<Vec<u32>> = None;
            let mut comm: Option<u32> = None;
            let mut cost: Option<String> = None;
            for f in rest {
                let unexpected = || {
                    format!(
                        "{}: unexpected field `{f}` (expected `n=<args>`, `comm=<arg>`, `cost=<formula>` or `none`)",
                        at()
                    )
                };
                let Some((key, v)) = f.split_once('=') else {
                    return Err(unexpected());
                };
                let dup = match key {
                    "n" => size_args.is_some(),
                    "comm" => comm.is_some(),
                    "cost" => cost.is_some(),
                    _ => false,
                };
                if dup {
                    return Err(format!("{}: duplicate field `{key}=`", at()));
                }
                match key {
                    "n" => {
                        size_args = Some(parse_size(v).ok_or_else(|| {
                            format!(
                                "{}: `n={v}`: expected 0-based argument indices, one or joined by `*` or `+` (`n=2`, `n=0*1`, `n=1+6`)",
                                at()
                            )
                        })?)
                    }
                    "comm" => {
                        comm = Some(parse_index(v).ok_or_else(|| {
                            format!(
                                "{}: `comm={v}`: expected the 0-based index of the communicator argument (`comm=5`)",
                                at()
                            )
                        })?)
                    }
                    "cost" => {
                        if v.is_empty() {
                            return Err(format!("{}: empty `cost=`", at()));
                        }
                        cost = Some(v.to_string());
                    }
                    _ => return Err(unexpected()),
                }
            }
            if size_args.is_none() && comm.is_none() {
                return Err(format!(
                    "{}: `{}`: expected `<routine> [n=<args>] [comm=<arg>] [cost=<formula>]` with `n=` or `comm=`",
                    at(),
                    raw.trim()
                ));
            }
            // Default cost: linear in the size; a routine without one (`MPI_Barrier`)
            // in the process count.
            let cost =
                cost.unwrap_or_else(|| if size_args.is_some() { "n" } else { "p" }.to_string());
            self.entries.insert(
                name.clone(),
                Routine {
                    name: name.clone(),
                    size_args: size_args.unwrap_or_default(),
                    comm,
                    cost,
                },
            );
        }
        Ok(())
    }

    /// The embedded database, then `files` in order.
    pub fn load(files: &[std::path::PathBuf]) -> Result<Routines, String> {
        let mut r = Routines::default();
        r.add(DEFAULT_DB, DEFAULT_DB_NAME)?;
        for p in files {
            let text = std::fs::read_to_string(p).map_err(|e| {
                format!(
                    "TAINTPROF_ROUTINES: cannot read the routine database {}: {e}",
                    p.display()
                )
            })?;
            r.add(&text, &p.display().to_string())?;
        }
        Ok(r)
    }
}

/// An argument index (below 64: no routine has more arguments).
fn parse_index(v: &str) -> Option<u32> {
    let i: u32 = v.parse().ok()?;
    (i < 64 && v.bytes().all(|b| b.is_ascii_digit())).then_some(i)
}

/// `n=`'s value: indices joined by `*` (a product) or `+` (a sum), not both.
fn parse_size(v: &str) -> Option<Vec<u32>> {
    let sep = if v.contains('+') { '+' } else { '*' };
    v.split(sep).map(parse_index).collect()
}

/// Whitespace-separated fields; `"..."` quotes a field's value (`cost="n log n"`).
fn split_fields(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err("unterminated `\"`".into());
    }
    if any {
        out.push(cur);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sizes_products_costs_and_removal() {
        let mut r = Routines::default();
        r.add(
            "# c\nqsort n=1 cost=\"n log n\"  # t\ncalloc n=0*1\nbsearch n=2 cost=log\n",
            "t",
        )
        .unwrap();
        let q = r.get("qsort").unwrap();
        assert_eq!((q.size_args.clone(), q.cost.as_str()), (vec![1], "n log n"));
        assert_eq!(r.get("calloc").unwrap().size_args, vec![0, 1]);
        assert_eq!(r.get("calloc").unwrap().cost, "n");
        assert_eq!(r.get("bsearch").unwrap().cost, "log");
        r.add("qsort none", "u").unwrap();
        assert!(r.get("qsort").is_none());
    }

    #[test]
    fn errors_name_file_and_line() {
        let mut r = Routines::default();
        let e = r.add("memset n=2\nfoo n=x\n", "my.txt").unwrap_err();
        assert!(e.contains("my.txt:2") && e.contains("n=x"), "{e}");
        assert!(r.add("foo", "f").unwrap_err().contains("f:1"));
        assert!(r.add("foo n=1 bar", "f").unwrap_err().contains("bar"));
        assert!(r.add("foo n=1 cost=\"n", "f").unwrap_err().contains("f:1"));
    }

    #[test]
    fn parses_communicators_and_sums_of_sizes() {
        let mut r = Routines::default();
        r.add(
            "MPI_Allreduce n=2 comm=5 cost=\"n log p\"\nMPI_Barrier comm=0\n\
             MPI_Sendrecv n=1+6\nmemset n=2\n",
            "t",
        )
        .unwrap();
        let a = r.get("MPI_Allreduce").unwrap();
        assert_eq!(
            (a.size_args.clone(), a.comm, a.cost.as_str()),
            (vec![2], Some(5), "n log p")
        );
        let b = r.get("MPI_Barrier").unwrap();
        assert_eq!(
            (b.size_args.clone(), b.comm, b.cost.as_str()),
            (vec![], Some(0), "p")
        );
        let s = r.get("MPI_Sendrecv").unwrap();
        assert_eq!(
            (s.size_args.clone(), s.comm, s.cost.as_str()),
            (vec![1, 6], None, "n")
        );
        assert_eq!(r.get("memset").unwrap().comm, None);
        // A later file overrides, and removes.
        r.add("MPI_Barrier comm=1 cost=1\nMPI_Allreduce none", "u")
            .unwrap();
        assert_eq!(r.get("MPI_Barrier").unwrap().comm, Some(1));
        assert!(r.get("MPI_Allreduce").is_none());
    }

    #[test]
    fn rejects_bad_communicators_sizes_and_duplicate_fields() {
        let err = |text: &str| Routines::default().add(text, "f.txt").unwrap_err();
        for bad in [
            "comm=x", "comm=", "comm=-1", "comm=64", "comm=1*2", "comm=+1",
        ] {
            let e = err(&format!("MPI_Foo n=1 {bad}"));
            assert!(e.contains("f.txt:1") && e.contains(bad), "{bad}: {e}");
            assert!(e.contains("communicator"), "{bad}: {e}");
        }
        for bad in ["n=1*", "n=1+2*3", "n=", "n=+", "n=64"] {
            let e = err(&format!("foo {bad}"));
            assert!(e.contains("f.txt:1") && e.contains(bad), "{bad}: {e}");
        }
        for (line, field) in [
            ("MPI_Bcast n=1 comm=4 comm=4", "comm="),
            ("MPI_Bcast n=1 n=2 comm=4", "n="),
            ("qsort n=1 cost=n cost=\"n log n\"", "cost="),
        ] {
            let e = err(&format!("memset n=2\n{line}"));
            assert!(
                e.contains("f.txt:2") && e.contains(&format!("duplicate field `{field}`")),
                "{line}: {e}"
            );
        }
        // Neither a size nor a communicator.
        let e = err("MPI_Wait cost=1");
        assert!(
            e.contains("f.txt:1") && e.contains("`n=` or `comm=`"),
            "{e}"
        );
        assert!(err("MPI_Barrier comm").contains("unexpected field `comm`"));
    }

    #[test]
    fn embedded_database_lists_mpi_routines() {
        let r = Routines::load(&[]).unwrap();
        let get = |n: &str| {
            let x = r.get(n).unwrap_or_else(|| panic!("{n} missing"));
            (x.size_args.clone(), x.comm, x.cost.clone())
        };
        assert_eq!(get("MPI_Allreduce"), (vec![2], Some(5), "n log p".into()));
        assert_eq!(get("MPI_Bcast"), (vec![1], Some(4), "n log p".into()));
        assert_eq!(get("MPI_Reduce"), (vec![2], Some(6), "n log p".into()));
        assert_eq!(get("MPI_Barrier"), (vec![], Some(0), "log p".into()));
        assert_eq!(get("MPI_Send"), (vec![1], None, "n".into()));
        assert_eq!(get("MPI_Sendrecv"), (vec![1, 6], None, "n".into()));
        assert_eq!(get("MPI_Iallreduce").1, Some(5));
        assert!(r.get("MPI_Wait").is_none() && r.get("MPI_Waitall").is_none());
    }

    #[test]
    fn embedded_database_maps_the_intrinsics() {
        let r = Routines::load(&[]).unwrap();
        assert_eq!(
            r.for_intrinsic("llvm.memset.p0.i64").unwrap().name,
            "memset"
        );
        assert_eq!(
            r.for_intrinsic("llvm.memcpy.inline.p0.p0.i64")
                .unwrap()
                .name,
            "memcpy"
        );
        assert_eq!(
            r.for_intrinsic("llvm.memmove.p0.p0.i32").unwrap().name,
            "memmove"
        );
        assert_eq!(r.get("bsearch").unwrap().size_args, vec![2]);
        assert!(r.for_intrinsic("llvm.fmuladd.f64").is_none());
    }
}
