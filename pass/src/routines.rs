//! The routine database (`rt/routines.txt`, format in its header): library routines
//! that are loops over their size (`memset`, `qsort`, ...), so that a call of one is
//! reported as a *library loop* (`taintprof_abi::LOOP_LIBRARY`).
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
    /// 0-based argument indices whose product is the size (one for most routines).
    pub size_args: Vec<u32>,
    /// Cost formula in the size `n`, as written (default `n`).
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
            let mut cost = "n".to_string();
            for f in rest {
                if let Some(v) = f.strip_prefix("n=") {
                    let idx: Result<Vec<u32>, _> = v.split('*').map(|x| x.parse()).collect();
                    match idx {
                        Ok(v) if !v.is_empty() && v.iter().all(|&i| i < 64) => {
                            size_args = Some(v)
                        }
                        _ => {
                            return Err(format!(
                                "{}: `n={v}`: expected 0-based argument indices joined by `*` (`n=2`, `n=0*1`)",
                                at()
                            ))
                        }
                    }
                } else if let Some(v) = f.strip_prefix("cost=") {
                    if v.is_empty() {
                        return Err(format!("{}: empty `cost=`", at()));
                    }
                    cost = v.to_string();
                } else {
                    return Err(format!(
                        "{}: unexpected field `{f}` (expected `n=<args>`, `cost=<formula>` or `none`)",
                        at()
                    ));
                }
            }
            let Some(size_args) = size_args else {
                return Err(format!(
                    "{}: `{}`: expected `<routine> n=<args> [cost=<formula>]`",
                    at(),
                    raw.trim()
                ));
            };
            self.entries.insert(
                name.clone(),
                Routine {
                    name: name.clone(),
                    size_args,
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
