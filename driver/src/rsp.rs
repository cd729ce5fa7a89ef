//! Response files (`@file`): reading them the way clang and GCC do, and writing them.
//!
//! A command-line argument `@path` stands for the arguments stored in the file `path`,
//! split with the GNU quoting rules (the rules of LLVM's `TokenizeGNUCommandLine`):
//!
//! - arguments are separated by runs of whitespace (space, tab, newline, CR, FF, VT);
//! - a backslash takes the next character literally, inside or outside quotes;
//! - `'...'` and `"..."` quote everything up to the matching quote (backslash still
//!   escapes); quotes may appear in the middle of an argument (`-DX="a b"`);
//! - an argument that was only quotes (`''`) is an empty argument.
//!
//! Response files may name other response files. As in clang, a relative path in a
//! nested `@file` is looked up next to the file that names it first, then in the working
//! directory. An `@path` whose file does not exist stays a literal argument (GCC and clang
//! do the same). A file that includes itself, directly or not, is an error.
//!
//! The wrappers expand response files to see every argument, then hand clang the
//! expanded list; when that list is too long for one command line, [`write`] stores it
//! in a new response file instead.

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a command line could not be expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RspError {
    /// `@file` exists but could not be read.
    Unreadable { path: PathBuf, reason: String },
    /// A response file names itself, directly or through other response files.
    Cycle { path: PathBuf },
    /// Nesting deeper than [`MAX_DEPTH`].
    TooDeep { path: PathBuf },
}

impl fmt::Display for RspError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RspError::Unreadable { path, reason } => {
                write!(f, "cannot read response file {}: {reason}", path.display())
            }
            RspError::Cycle { path } => {
                write!(f, "response file {} includes itself", path.display())
            }
            RspError::TooDeep { path } => write!(
                f,
                "response files nested more than {MAX_DEPTH} deep (at {})",
                path.display()
            ),
        }
    }
}

impl std::error::Error for RspError {}

/// Deepest nesting of response files accepted.
pub const MAX_DEPTH: usize = 32;

/// Splits the contents of a response file into arguments (GNU rules, see the module doc).
pub fn tokenize(src: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut token = String::new();
    // True once the current token has started, even if it is still empty (`''`).
    let mut in_token = false;
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                in_token = true;
                match chars.next() {
                    Some(next) => token.push(next),
                    None => token.push('\\'),
                }
            }
            '\'' | '"' => {
                in_token = true;
                let quote = c;
                while let Some(q) = chars.next() {
                    if q == quote {
                        break;
                    }
                    if q == '\\' {
                        if let Some(next) = chars.next() {
                            token.push(next);
                            continue;
                        }
                    }
                    token.push(q);
                }
            }
            c if is_space(c) => {
                if in_token {
                    args.push(std::mem::take(&mut token));
                    in_token = false;
                }
            }
            c => {
                in_token = true;
                token.push(c);
            }
        }
    }
    if in_token {
        args.push(token);
    }
    args
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
}

/// Expands every `@file` argument (recursively) relative to the working directory `cwd`.
pub fn expand(args: &[String], cwd: &Path) -> Result<Vec<String>, RspError> {
    let mut out = Vec::with_capacity(args.len());
    let mut stack = Vec::new();
    expand_into(args, None, cwd, &mut stack, &mut out)?;
    Ok(out)
}

fn expand_into(
    args: &[String],
    including_dir: Option<&Path>,
    cwd: &Path,
    stack: &mut Vec<PathBuf>,
    out: &mut Vec<String>,
) -> Result<(), RspError> {
    for arg in args {
        let Some(name) = arg.strip_prefix('@').filter(|n| !n.is_empty()) else {
            out.push(arg.clone());
            continue;
        };
        let Some(path) = resolve(name, including_dir, cwd) else {
            // Not a file: a literal argument, as for GCC and clang.
            out.push(arg.clone());
            continue;
        };
        let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
        if stack.contains(&canonical) {
            return Err(RspError::Cycle { path });
        }
        if stack.len() >= MAX_DEPTH {
            return Err(RspError::TooDeep { path });
        }
        let bytes = std::fs::read(&path).map_err(|e| RspError::Unreadable {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        let text = String::from_utf8_lossy(&bytes);
        let inner = tokenize(&text);
        let dir = path.parent().map(Path::to_path_buf);
        stack.push(canonical);
        expand_into(&inner, dir.as_deref(), cwd, stack, out)?;
        stack.pop();
    }
    Ok(())
}

/// Where `@name` points: next to the including response file first (clang), then
/// relative to the working directory; `None` if there is no such file.
fn resolve(name: &str, including_dir: Option<&Path>, cwd: &Path) -> Option<PathBuf> {
    let p = Path::new(name);
    if p.is_absolute() {
        return p.is_file().then(|| p.to_path_buf());
    }
    if let Some(dir) = including_dir {
        let candidate = dir.join(p);
        if candidate.is_file() {
            return Some(candidate);
        }
    }
    let candidate = cwd.join(p);
    candidate.is_file().then_some(candidate)
}

/// Quotes one argument so that [`tokenize`] (and clang, and GCC) read it back unchanged.
pub fn quote(arg: &str) -> String {
    if !arg.is_empty()
        && !arg
            .chars()
            .any(|c| is_space(c) || matches!(c, '\\' | '\'' | '"'))
    {
        return arg.to_string();
    }
    let mut s = String::with_capacity(arg.len() + 2);
    s.push('"');
    for c in arg.chars() {
        if matches!(c, '\\' | '"') {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    s
}

/// Contents of a response file holding `args`, one per line.
pub fn write(args: &[String]) -> String {
    let mut s = String::new();
    for a in args {
        s.push_str(&quote(a));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Vec<String> {
        tokenize(s)
    }

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn splits_on_any_whitespace() {
        assert_eq!(
            t("-c  foo.c\n-o\tfoo.o\r\n"),
            v(&["-c", "foo.c", "-o", "foo.o"])
        );
        assert_eq!(t(""), Vec::<String>::new());
        assert_eq!(t("   \n\t "), Vec::<String>::new());
    }

    #[test]
    fn double_and_single_quotes_group() {
        assert_eq!(t(r#""a b" 'c d'"#), v(&["a b", "c d"]));
        assert_eq!(t(r#"-DX="a b""#), v(&["-DX=a b"]));
        assert_eq!(t(r#"'it"s'"#), v(&["it\"s"]));
        assert_eq!(t(r#""it's""#), v(&["it's"]));
    }

    #[test]
    fn quotes_join_with_adjacent_text() {
        assert_eq!(t(r#"a"b c"d"#), v(&["ab cd"]));
        assert_eq!(t(r#"'x'"y"z"#), v(&["xyz"]));
    }

    #[test]
    fn backslash_escapes_everywhere() {
        assert_eq!(t(r"a\ b"), v(&["a b"]));
        assert_eq!(t(r#"\"q\""#), v(&["\"q\""]));
        assert_eq!(t(r#""a\"b""#), v(&["a\"b"]));
        assert_eq!(t(r"'a\'b'"), v(&["a'b"]));
        assert_eq!(t(r"C:\\dir\\x"), v(&[r"C:\dir\x"]));
        assert_eq!(t(r"trailing\"), v(&[r"trailing\"]));
    }

    #[test]
    fn empty_quotes_are_an_empty_argument() {
        assert_eq!(t(r#"a "" b ''"#), v(&["a", "", "b", ""]));
    }

    #[test]
    fn unterminated_quote_runs_to_the_end() {
        assert_eq!(t("\"abc def"), v(&["abc def"]));
    }

    #[test]
    fn quote_roundtrips_through_tokenize() {
        let nasty = v(&[
            "plain",
            "",
            "with space",
            "tab\there",
            "new\nline",
            r#"dq"in"#,
            "sq'in",
            r"back\slash",
            r#"-DSTR="x y""#,
            "ünïcödé",
        ]);
        assert_eq!(tokenize(&write(&nasty)), nasty);
    }

    #[test]
    fn expands_files_recursively_and_relative_to_the_including_file() {
        let dir = tempdir("nested");
        let sub = dir.join("sub");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(dir.join("outer.rsp"), "-O2 @sub/inner.rsp 'last arg'").unwrap();
        // inner.rsp names deeper.rsp relative to its own directory.
        std::fs::write(sub.join("inner.rsp"), "-c \"a b.c\" @deeper.rsp").unwrap();
        std::fs::write(sub.join("deeper.rsp"), "-DX=1\n").unwrap();
        let got = expand(&v(&["-Wall", "@outer.rsp", "-g"]), &dir).unwrap();
        assert_eq!(
            got,
            v(&["-Wall", "-O2", "-c", "a b.c", "-DX=1", "last arg", "-g"])
        );
    }

    #[test]
    fn missing_file_stays_literal() {
        let dir = tempdir("missing");
        let got = expand(&v(&["@nope.rsp", "@", "x"]), &dir).unwrap();
        assert_eq!(got, v(&["@nope.rsp", "@", "x"]));
    }

    #[test]
    fn cycles_are_errors() {
        let dir = tempdir("cycle");
        std::fs::write(dir.join("a.rsp"), "-x @b.rsp").unwrap();
        std::fs::write(dir.join("b.rsp"), "@a.rsp").unwrap();
        let err = expand(&v(&["@a.rsp"]), &dir).unwrap_err();
        assert!(matches!(err, RspError::Cycle { .. }), "{err}");
        assert!(err.to_string().contains("includes itself"));
    }

    #[test]
    fn same_file_twice_is_not_a_cycle() {
        let dir = tempdir("twice");
        std::fs::write(dir.join("f.rsp"), "-DA").unwrap();
        let got = expand(&v(&["@f.rsp", "@f.rsp"]), &dir).unwrap();
        assert_eq!(got, v(&["-DA", "-DA"]));
    }

    fn tempdir(name: &str) -> PathBuf {
        taintprof_tests::tmp_scratch_dir("test-rsp", name)
    }
}
