//! The command template of `taintprof experiment`: the words after `--`, where `{param}`
//! stands for the point's value of `param`, in any word and anywhere in it (`{n}`,
//! `-s{size}`, `--grid={n}x{n}`). `{{` and `}}` are literal braces. A launcher
//! (`mpirun -np {p}`, `srun`, `env OMP_NUM_THREADS={t}`) is just part of the template.
//!
//! Checks made before anything runs: every placeholder has a value (a parameter of the
//! experiment), and every parameter of the experiment appears in the template (a
//! parameter the command never uses would measure the same command at every value).

use std::fmt::Write as _;

/// A piece of a template word.
#[derive(Clone, Debug, PartialEq)]
enum Piece {
    Text(String),
    Param(String),
}

/// A parsed command template.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    /// The words as given.
    pub raw: Vec<String>,
    words: Vec<Vec<Piece>>,
}

/// Programs that start another program: skipped when the program's name is looked for
/// ([`Template::program_name`]).
const LAUNCHERS: &[&str] = &[
    "mpirun",
    "mpiexec",
    "mpiexec.hydra",
    "orterun",
    "prterun",
    "srun",
    "aprun",
    "jsrun",
    "ibrun",
    "env",
    "time",
    "nice",
    "taskset",
    "numactl",
    "chrt",
    "stdbuf",
    "timeout",
    "likwid-pin",
    "sh",
    "bash",
];

impl Template {
    /// Parses the words of the command. Errors name the word: an unmatched `{` or `}`,
    /// an empty placeholder `{}`.
    pub fn parse(words: &[String]) -> Result<Template, String> {
        if words.is_empty() {
            return Err("no command: give it after `--`".to_string());
        }
        let mut parsed = Vec::with_capacity(words.len());
        for w in words {
            parsed.push(parse_word(w)?);
        }
        Ok(Template {
            raw: words.to_vec(),
            words: parsed,
        })
    }

    /// The parameters the template uses, in order of first appearance.
    pub fn placeholders(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for w in &self.words {
            for p in w {
                if let Piece::Param(name) = p {
                    if !out.contains(&name.as_str()) {
                        out.push(name);
                    }
                }
            }
        }
        out
    }

    /// Checks the template against the experiment's parameters: every placeholder is
    /// one of them, and each of them is used. `how`: how the parameters were given
    /// (`--grid`, `--design`), for the messages.
    pub fn check(&self, params: &[String], how: &str) -> Result<(), String> {
        let used = self.placeholders();
        for u in &used {
            if !params.iter().any(|p| p == u) {
                return Err(format!(
                    "the command uses {{{u}}}, but {u} has no values: give them with {how} {u}=V1,V2,... \
                     (the parameters given: {}); write {{{{ and }}}} for literal braces",
                    if params.is_empty() {
                        "none".to_string()
                    } else {
                        params.join(", ")
                    }
                ));
            }
        }
        for p in params {
            if !used.contains(&p.as_str()) {
                return Err(format!(
                    "{how}: the command never uses {{{p}}}, so every value of {p} would run the same command; \
                     put {{{p}}} where the program takes it (e.g. `-- ./app {{{p}}}`)"
                ));
            }
        }
        Ok(())
    }

    /// The command of one point: each placeholder replaced by its value in `values`
    /// (`(param, value)`; [`Template::check`] made sure every placeholder has one).
    pub fn substitute(&self, values: &[(String, String)]) -> Vec<String> {
        self.words
            .iter()
            .map(|w| {
                let mut s = String::new();
                for p in w {
                    match p {
                        Piece::Text(t) => s.push_str(t),
                        Piece::Param(name) => {
                            if let Some((_, v)) = values.iter().find(|(n, _)| n == name) {
                                s.push_str(v);
                            }
                        }
                    }
                }
                s
            })
            .collect()
    }

    /// The name of the measured program, the call path of a run measured by its wall
    /// time: the base name of the first word that is not a launcher ([`LAUNCHERS`]), an
    /// option (`-np`), a number, an assignment (`VAR=value`) or a word with a
    /// placeholder, preferring a word with a `/` (`./app`); the first word's base name
    /// if there is no such word.
    pub fn program_name(&self) -> String {
        let base = |w: &str| -> String {
            w.rsplit('/')
                .find(|s| !s.is_empty())
                .unwrap_or(w)
                .to_string()
        };
        let candidates: Vec<&String> = self
            .raw
            .iter()
            .zip(&self.words)
            .filter(|(w, pieces)| {
                !pieces.iter().any(|p| matches!(p, Piece::Param(_)))
                    && !w.starts_with('-')
                    && !w.contains('=')
                    && w.parse::<f64>().is_err()
                    && !LAUNCHERS.contains(&base(w).as_str())
            })
            .map(|(w, _)| w)
            .collect();
        candidates
            .iter()
            .find(|w| w.contains('/'))
            .or(candidates.first())
            .map(|w| base(w))
            .unwrap_or_else(|| base(&self.raw[0]))
    }
}

fn parse_word(w: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut chars = w.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let mut name = String::new();
                let mut closed = false;
                for d in chars.by_ref() {
                    if d == '}' {
                        closed = true;
                        break;
                    }
                    if d == '{' {
                        break;
                    }
                    name.push(d);
                }
                if !closed {
                    return Err(format!(
                        "command word `{w}`: `{{` without a closing `}}` (write `{{{{` for a literal brace)"
                    ));
                }
                let name = name.trim();
                if name.is_empty() {
                    return Err(format!(
                        "command word `{w}`: empty placeholder `{{}}` (write `{{{{}}}}` for literal braces)"
                    ));
                }
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                pieces.push(Piece::Param(name.to_string()));
            }
            '}' => {
                return Err(format!(
                    "command word `{w}`: `}}` without an opening `{{` (write `}}}}` for a literal brace)"
                ))
            }
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

/// The words as a shell would need them typed (single quotes where needed), for
/// messages.
pub fn shell_line(words: &[String]) -> String {
    let mut out = String::new();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let plain = !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^{}".contains(c));
        if plain {
            out.push_str(w);
        } else {
            let _ = write!(out, "'{}'", w.replace('\'', r"'\''"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(words: &[&str]) -> Result<Template, String> {
        Template::parse(&words.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    fn params(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn vals(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn substitutes_anywhere_in_a_word() {
        let tp = t(&[
            "mpirun",
            "-np",
            "{p}",
            "./app",
            "-s{size}",
            "{steps}",
            "--x={size}x{size}",
        ])
        .unwrap();
        assert_eq!(tp.placeholders(), ["p", "size", "steps"]);
        tp.check(&params(&["p", "size", "steps"]), "--grid")
            .unwrap();
        assert_eq!(
            tp.substitute(&vals(&[("p", "4"), ("size", "64"), ("steps", "10")])),
            ["mpirun", "-np", "4", "./app", "-s64", "10", "--x=64x64"]
        );
        assert_eq!(tp.program_name(), "app");
    }

    #[test]
    fn escaped_braces_are_literal() {
        let tp = t(&["awk", "{{print {n}}}"]).unwrap();
        assert_eq!(tp.placeholders(), ["n"]);
        assert_eq!(tp.substitute(&vals(&[("n", "3")])), ["awk", "{print 3}"]);
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(t(&["./app", "-s{size"])
            .unwrap_err()
            .contains("without a closing"));
        assert!(t(&["./app", "x}"])
            .unwrap_err()
            .contains("without an opening"));
        assert!(t(&["./app", "{}"])
            .unwrap_err()
            .contains("empty placeholder"));
        let tp = t(&["./app", "{n}", "{steps}"]).unwrap();
        let e = tp.check(&params(&["n"]), "--grid").unwrap_err();
        assert!(e.contains("uses {steps}, but steps has no values"), "{e}");
        let tp = t(&["./app", "{n}"]).unwrap();
        let e = tp.check(&params(&["n", "steps"]), "--grid").unwrap_err();
        assert!(e.contains("never uses {steps}"), "{e}");
    }

    #[test]
    fn program_names() {
        let name = |w: &[&str]| t(w).unwrap().program_name();
        assert_eq!(name(&["./heat", "{n}"]), "heat");
        assert_eq!(name(&["mpirun", "-np", "4", "app", "{n}"]), "app");
        assert_eq!(
            name(&["env", "OMP_NUM_THREADS={t}", "/opt/bin/solver", "{n}"]),
            "solver"
        );
        assert_eq!(name(&["/usr/bin/mpirun", "-np", "{p}", "./x"]), "x");
        assert_eq!(name(&["srun", "{n}"]), "srun");
    }

    #[test]
    fn shell_lines_quote_what_needs_it() {
        assert_eq!(
            shell_line(&params(&["./app", "-s", "64", "a b", "it's"])),
            r"./app -s 64 'a b' 'it'\''s'"
        );
    }
}
