//! Reading the runtime's volume expressions (`docs/report-schema.md`, "Volumes").
//!
//! The runtime prints a volume as terms joined by ` + `, each term as factors joined by
//! `*`; a factor is a parameter (`n`), a power (`n^2`), or an unresolved joint
//! dependency of one loop (`(a,b)`). A constant volume is `1`. The driver only splits
//! these strings to find which parameters share a term (to say which term couples two
//! parameters); it never builds or simplifies a volume.

/// One term of a volume: its text and the parameters it mentions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub text: String,
    pub params: Vec<String>,
}

/// Splits `s` at `sep` outside parentheses.
fn split_top(s: &str, sep: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ => {}
        }
        if depth == 0 && s[i..].starts_with(sep) {
            parts.push(s[start..i].to_string());
            i += sep.len();
            start = i;
            continue;
        }
        i += 1;
    }
    parts.push(s[start..].to_string());
    parts
}

/// The parameters a factor names, given the registered `parameters` (so names that
/// contain `^` or `,` are still recognized when they are exactly a factor).
fn factor_params(factor: &str, parameters: &[String]) -> Vec<String> {
    let f = factor.trim();
    if parameters.iter().any(|p| p == f) {
        return vec![f.to_string()];
    }
    if let Some(inner) = f.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        return inner
            .split(',')
            .flat_map(|x| factor_params(x, parameters))
            .collect();
    }
    if let Some((base, exp)) = f.rsplit_once('^') {
        if !exp.is_empty() && exp.bytes().all(|b| b.is_ascii_digit()) {
            return factor_params(base, parameters);
        }
    }
    Vec::new()
}

/// The terms of `volume`. Parameters of a term are listed once each, in registration
/// order; factors that name no registered parameter (constants) are ignored.
pub fn terms(volume: &str, parameters: &[String]) -> Vec<Term> {
    let volume = volume.trim();
    if volume.is_empty() {
        return Vec::new();
    }
    split_top(volume, " + ")
        .into_iter()
        .map(|t| {
            let text = t.trim().to_string();
            let mut params: Vec<String> = split_top(&text, "*")
                .iter()
                .flat_map(|f| factor_params(f, parameters))
                .collect();
            params.sort_by_key(|p| parameters.iter().position(|q| q == p));
            params.dedup();
            Term { text, params }
        })
        .collect()
}

/// The first term of `volume` that mentions both `a` and `b`.
pub fn coupling_term(volume: &str, parameters: &[String], a: &str, b: &str) -> Option<String> {
    terms(volume, parameters)
        .into_iter()
        .find(|t| t.params.iter().any(|p| p == a) && t.params.iter().any(|p| p == b))
        .map(|t| t.text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn splits_terms_and_factors() {
        let p = names(&["m", "n", "k", "a", "b"]);
        let t = terms("m*n*k + n^2 + (a,b) + 1", &p);
        assert_eq!(t.len(), 4);
        assert_eq!(t[0].params, names(&["m", "n", "k"]));
        assert_eq!(t[1].params, names(&["n"]));
        assert_eq!(t[1].text, "n^2");
        assert_eq!(t[2].params, names(&["a", "b"]));
        assert!(t[3].params.is_empty());
        assert!(terms("", &p).is_empty());
        assert_eq!(terms("1", &p)[0].params, Vec::<String>::new());
    }

    #[test]
    fn finds_the_coupling_term() {
        let p = names(&["n", "iters", "algo"]);
        assert_eq!(
            coupling_term("n^2*iters + n^2 + n + iters + algo", &p, "iters", "n").as_deref(),
            Some("n^2*iters")
        );
        assert_eq!(coupling_term("n^2 + iters", &p, "n", "iters"), None);
        let p = names(&["a", "b", "c"]);
        assert_eq!(
            coupling_term("c*(a,b) + a", &p, "a", "b").as_deref(),
            Some("c*(a,b)")
        );
    }

    #[test]
    fn odd_parameter_names_are_matched_whole() {
        let p = names(&["x^2", "p.size"]);
        let t = terms("x^2^2*p.size", &p);
        assert_eq!(t[0].params, names(&["x^2", "p.size"]));
    }
}
