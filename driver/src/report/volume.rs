//! Volume terms (`docs/report-schema.md`, "Volume terms").
//!
//! A report gives every volume twice: the display string (`n^2*m + (a,b)`) and its
//! terms as data (`volume_terms`: terms of factors `{params, power}`). The driver reads
//! the terms, to name the term that couples two parameters; it never builds or
//! simplifies a volume. Reports written before the terms existed (schema versions 2 to
//! 4 have the strings) are read from the string, by [`old_report`].

use serde::{Deserialize, Serialize};

/// One factor of a term: the parameters of one loop level (several: a joint
/// dependency), to a power.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Factor {
    #[serde(default)]
    pub params: Vec<String>,
    #[serde(default = "one")]
    pub power: u32,
}

fn one() -> u32 {
    1
}

/// A product of factors (none: the constant 1).
pub type Term = Vec<Factor>;

/// `term` as the report prints it: `n^2*m`, `(a,b)`, `1`.
pub fn term_text(term: &[Factor]) -> String {
    if term.is_empty() {
        return "1".to_string();
    }
    term.iter()
        .map(|f| {
            let mut s = match f.params.as_slice() {
                [p] => p.clone(),
                ps => format!("({})", ps.join(",")),
            };
            if f.power > 1 {
                s.push_str(&format!("^{}", f.power));
            }
            s
        })
        .collect::<Vec<_>>()
        .join("*")
}

/// The first term of `terms` in which both `a` and `b` occur, as text.
pub fn coupling_term(terms: &[Term], a: &str, b: &str) -> Option<String> {
    let has = |t: &Term, p: &str| t.iter().any(|f| f.params.iter().any(|q| q == p));
    terms
        .iter()
        .find(|t| has(t, a) && has(t, b))
        .map(|t| term_text(t))
}

/// The coupling term of a volume given as `terms` or, in a report older than them, as
/// its display string `text`.
pub fn coupling_term_of(
    terms: Option<&[Term]>,
    text: Option<&str>,
    a: &str,
    b: &str,
) -> Option<String> {
    match terms {
        Some(t) => coupling_term(t, a, b),
        None => old_report::coupling_term(text?, a, b),
    }
}

/// Only for reports written before `volume_terms` existed: the coupling term from the
/// display string. Terms are joined by ` + ` and factors by `*`; a factor is `p`, `p^k`
/// or `(p,q)`. Parameter names contain none of ` +*^(),` (the runtime refuses such
/// names), so splitting at them is exact.
pub mod old_report {
    /// The first term of `volume` in which `a` and `b` both occur.
    pub fn coupling_term(volume: &str, a: &str, b: &str) -> Option<String> {
        volume
            .split(" + ")
            .find(|t| {
                let params: Vec<&str> = t
                    .split('*')
                    .flat_map(|f| {
                        let base = f.rsplit_once('^').map_or(f, |(base, _)| base);
                        base.trim_start_matches('(')
                            .trim_end_matches(')')
                            .split(',')
                    })
                    .collect();
                params.contains(&a) && params.contains(&b)
            })
            .map(|t| t.trim().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn factor(params: &[&str], power: u32) -> Factor {
        Factor {
            params: params.iter().map(|s| s.to_string()).collect(),
            power,
        }
    }

    fn terms(json: &str) -> Vec<Term> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn terms_read_and_print_as_the_report_prints_them() {
        let t = terms(
            r#"[[{"params":["n"],"power":2},{"params":["iters"],"power":1}],
                [{"params":["a","b"],"power":1},{"params":["c"]}], []]"#,
        );
        assert_eq!(t[0], vec![factor(&["n"], 2), factor(&["iters"], 1)]);
        assert_eq!(t[1][1], factor(&["c"], 1));
        let shown: Vec<String> = t.iter().map(|t| term_text(t)).collect();
        assert_eq!(shown, ["n^2*iters", "(a,b)*c", "1"]);
    }

    #[test]
    fn finds_the_coupling_term_in_the_terms() {
        // n^2*iters + n^2 + n + iters + algo
        let t = terms(
            r#"[[{"params":["n"],"power":2},{"params":["iters"],"power":1}],
                [{"params":["n"],"power":2}], [{"params":["n"],"power":1}],
                [{"params":["iters"],"power":1}], [{"params":["algo"],"power":1}]]"#,
        );
        assert_eq!(
            coupling_term(&t, "iters", "n").as_deref(),
            Some("n^2*iters")
        );
        assert_eq!(coupling_term(&t, "n", "algo"), None);
        // A joint factor couples its parameters.
        let t = terms(r#"[[{"params":["c"],"power":1},{"params":["a","b"],"power":3}]]"#);
        assert_eq!(coupling_term(&t, "a", "b").as_deref(), Some("c*(a,b)^3"));
        assert_eq!(coupling_term(&terms("[[]]"), "a", "b"), None);
    }

    #[test]
    fn terms_are_preferred_and_old_reports_are_read_from_the_string() {
        let t = terms(r#"[[{"params":["m"],"power":1},{"params":["n"],"power":1}]]"#);
        // With terms, the string is not looked at.
        assert_eq!(
            coupling_term_of(Some(&t), Some("garbage"), "m", "n").as_deref(),
            Some("m*n")
        );
        // Without (an old report), it is.
        assert_eq!(
            coupling_term_of(None, Some("m*n*k + n^2 + (a,b)^2 + 1"), "n", "k").as_deref(),
            Some("m*n*k")
        );
        assert_eq!(
            coupling_term_of(None, Some("c*(a,b)^2 + a"), "a", "b").as_deref(),
            Some("c*(a,b)^2")
        );
        assert_eq!(
            coupling_term_of(None, Some("n^2 + iters"), "n", "iters"),
            None
        );
        assert_eq!(coupling_term_of(None, None, "n", "iters"), None);
    }
}
