//! The function list (`rt/abilist.txt`, format in `docs/internal/abilist-format.md`):
//! how direct calls to functions taintprof does not instrument are treated.
//!
//! The default list is embedded at build time; files named in `TAINTPROF_ABILIST` are
//! read at compile time and override it entry by entry. A malformed line is a compile
//! error naming the file and line, never silently ignored: a typo in a `wrap` entry
//! would otherwise lose labels without a trace.

use std::collections::HashMap;

/// The embedded default list (written by the runtime, which defines the wrappers).
pub const DEFAULT_LIST: &str = include_str!("../../rt/abilist.txt");
pub const DEFAULT_LIST_NAME: &str = "rt/abilist.txt (embedded)";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetRule {
    /// Label of argument N.
    Arg(u32),
    /// Label 0.
    Zero,
    /// Union of the argument labels, computed inline.
    Union,
    /// Whatever the wrapper left in the return-label TLS slot.
    Tls,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// No call-ABI traffic; result = union of the argument labels.
    Pure,
    /// No call-ABI traffic; result = 0.
    Zero,
    /// Call `__tpw_<name>` instead; result per the rule.
    Wrap(RetRule),
}

#[derive(Debug, Clone, Default)]
pub struct AbiList {
    entries: HashMap<String, Kind>,
}

impl AbiList {
    pub fn get(&self, name: &str) -> Option<Kind> {
        self.entries.get(name).copied()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Parse `text` (read from `file`, used in error messages) and add its entries,
    /// overriding earlier ones.
    pub fn add(&mut self, text: &str, file: &str) -> Result<(), String> {
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("");
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.is_empty() {
                continue;
            }
            let at = || format!("{file}:{}", n + 1);
            if fields.len() < 2 {
                return Err(format!(
                    "{}: `{}`: expected `<symbol> <kind> [ret=<rule>]`",
                    at(),
                    raw.trim()
                ));
            }
            let name = fields[0];
            let mut ret: Option<RetRule> = None;
            for extra in &fields[2..] {
                let Some(rule) = extra.strip_prefix("ret=") else {
                    return Err(format!(
                        "{}: unexpected field `{extra}` (only `ret=<rule>` may follow the kind)",
                        at()
                    ));
                };
                ret = Some(match rule {
                    "zero" => RetRule::Zero,
                    "union" => RetRule::Union,
                    "tls" => RetRule::Tls,
                    r => match r.strip_prefix("arg").and_then(|d| d.parse::<u32>().ok()) {
                        Some(i) => RetRule::Arg(i),
                        None => {
                            return Err(format!(
                                "{}: unknown return rule `ret={r}` (expected arg<N>, zero, union or tls)",
                                at()
                            ))
                        }
                    },
                });
            }
            let kind = match fields[1] {
                "pure" | "zero" if ret.is_some() => {
                    return Err(format!("{}: `ret=` is only allowed with kind `wrap`", at()));
                }
                "pure" => Kind::Pure,
                "zero" => Kind::Zero,
                "wrap" => Kind::Wrap(ret.unwrap_or(RetRule::Tls)),
                k => {
                    return Err(format!(
                        "{}: unknown kind `{k}` for `{name}` (expected pure, zero or wrap)",
                        at()
                    ))
                }
            };
            self.entries.insert(name.to_string(), kind);
        }
        Ok(())
    }

    /// The embedded default list plus the given files, in order.
    pub fn load(extra: &[std::path::PathBuf]) -> Result<AbiList, String> {
        let mut l = AbiList::default();
        l.add(DEFAULT_LIST, DEFAULT_LIST_NAME)?;
        for p in extra {
            let text = std::fs::read_to_string(p).map_err(|e| {
                format!(
                    "cannot read function list {} (from TAINTPROF_ABILIST): {e}",
                    p.display()
                )
            })?;
            l.add(&text, &p.display().to_string())?;
        }
        Ok(l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kinds_rules_and_comments() {
        let mut l = AbiList::default();
        l.add(
            "# comment\n\nmemcpy wrap ret=arg0  # trailing\nmalloc  wrap ret=zero\nsqrt pure\nrand zero\nstrlen wrap\nfoo wrap ret=union\n",
            "t",
        )
        .unwrap();
        assert_eq!(l.get("memcpy"), Some(Kind::Wrap(RetRule::Arg(0))));
        assert_eq!(l.get("malloc"), Some(Kind::Wrap(RetRule::Zero)));
        assert_eq!(l.get("sqrt"), Some(Kind::Pure));
        assert_eq!(l.get("rand"), Some(Kind::Zero));
        assert_eq!(l.get("strlen"), Some(Kind::Wrap(RetRule::Tls)));
        assert_eq!(l.get("foo"), Some(Kind::Wrap(RetRule::Union)));
        assert_eq!(l.get("bar"), None);
    }

    #[test]
    fn later_entries_override() {
        let mut l = AbiList::default();
        l.add("sqrt pure", "a").unwrap();
        l.add("sqrt zero", "b").unwrap();
        assert_eq!(l.get("sqrt"), Some(Kind::Zero));
    }

    #[test]
    fn errors_name_file_and_line() {
        let mut l = AbiList::default();
        let e = l.add("ok pure\n\nfoo frobnicate\n", "my.txt").unwrap_err();
        assert!(e.contains("my.txt:3") && e.contains("frobnicate"), "{e}");
        assert!(l
            .add("x pure ret=arg0", "f")
            .unwrap_err()
            .contains("only allowed"));
        assert!(l
            .add("x wrap ret=argX", "f")
            .unwrap_err()
            .contains("ret=argX"));
        assert!(l.add("lonely", "f").unwrap_err().contains("f:1"));
    }

    #[test]
    fn embedded_list_parses() {
        let l = AbiList::load(&[]).unwrap();
        assert!(!l.is_empty());
    }
}
