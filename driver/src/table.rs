//! Aligned text columns for terminal output.
//!
//! Widths count characters, not bytes, so `—` and `→` line up. Trailing spaces are
//! trimmed from every line.

/// A call path (`main->solve->sweep`) as the text reports show it: each function by
/// [`shown_name`], a C++ parameter list still long after that shown as `(…)`, and at most
/// [`shown_name`]'s 100 characters in all: the functions in the middle elided
/// (`main->…->sweep`). The JSON keeps every call path whole.
pub fn shown_callpath(path: &str) -> String {
    const MAX: usize = 100;
    let parts: Vec<String> = path
        .split("->")
        .map(|f| {
            let f = shown_name(f);
            if f.chars().count() > 40 && f.ends_with(')') {
                if let Some(open) = f.find('(') {
                    return format!("{}(…)", &f[..open]);
                }
            }
            f
        })
        .collect();
    let all = parts.join("->");
    if all.chars().count() <= MAX || parts.len() <= 2 {
        return all;
    }
    // The root and as many of the innermost functions as fit.
    let mut tail: Vec<&str> = Vec::new();
    let mut len = parts[0].chars().count() + "->…".chars().count();
    for p in parts[1..].iter().rev() {
        let w = p.chars().count() + 2;
        if !tail.is_empty() && len + w > MAX {
            break;
        }
        len += w;
        tail.push(p);
    }
    tail.reverse();
    if tail.len() == parts.len() - 1 {
        return all;
    }
    format!("{}->…->{}", parts[0], tail.join("->"))
}

/// A function name as the text reports show it. C++ names longer than 60 characters
/// lose the insides of their template arguments (`std::vector<…>::push_back(mu::Parser
/// const&)`), and what is still longer than 100 is cut: one instantiation's name made
/// every row of a table hundreds of characters wide. The JSON keeps every name whole.
pub fn shown_name(name: &str) -> String {
    const LONG: usize = 60;
    const MAX: usize = 100;
    if name.chars().count() <= LONG {
        return name.to_string();
    }
    let mut short = String::new();
    if name.contains("operator<") || name.contains("operator>") || name.contains("operator-") {
        // `<`/`>` of an operator's name are not brackets.
        short.push_str(name);
    } else {
        let mut depth = 0usize;
        for c in name.chars() {
            match c {
                '<' => {
                    if depth == 0 {
                        short.push_str("<…");
                    }
                    depth += 1;
                }
                '>' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        short.push('>');
                    }
                }
                _ if depth == 0 => short.push(c),
                _ => {}
            }
        }
    }
    if short.chars().count() > MAX {
        short = short.chars().take(MAX - 1).collect();
        short.push('…');
    }
    short
}

/// Column alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A table: an optional header row and data rows, rendered with two spaces between
/// columns.
#[derive(Debug, Clone, Default)]
pub struct Table {
    aligns: Vec<Align>,
    header: Option<Vec<String>>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table whose columns have the given alignments.
    pub fn new(aligns: &[Align]) -> Table {
        Table {
            aligns: aligns.to_vec(),
            header: None,
            rows: Vec::new(),
        }
    }

    /// Sets the header row.
    pub fn header<S: Into<String>>(mut self, cells: impl IntoIterator<Item = S>) -> Table {
        self.header = Some(cells.into_iter().map(Into::into).collect());
        self
    }

    /// Adds a row. Missing cells are empty.
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    /// Number of data rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has no data rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The rendered lines (header first), each prefixed with `indent`.
    pub fn lines(&self, indent: &str) -> Vec<String> {
        let all: Vec<&Vec<String>> = self.header.iter().chain(self.rows.iter()).collect();
        let ncols = all.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut widths = vec![0usize; ncols];
        for r in &all {
            for (i, cell) in r.iter().enumerate() {
                widths[i] = widths[i].max(width(cell));
            }
        }
        all.iter()
            .map(|r| {
                let mut line = String::from(indent);
                for (i, w) in widths.iter().enumerate() {
                    let cell = r.get(i).map(String::as_str).unwrap_or("");
                    let pad = w - width(cell);
                    if i > 0 {
                        line.push_str("  ");
                    }
                    match self.aligns.get(i).copied().unwrap_or(Align::Left) {
                        Align::Left => {
                            line.push_str(cell);
                            line.push_str(&" ".repeat(pad));
                        }
                        Align::Right => {
                            line.push_str(&" ".repeat(pad));
                            line.push_str(cell);
                        }
                    }
                }
                line.trim_end().to_string()
            })
            .collect()
    }

    /// The rendered table as one string (lines ending in `\n`).
    pub fn render(&self, indent: &str) -> String {
        let mut s = String::new();
        for l in self.lines(indent) {
            s.push_str(&l);
            s.push('\n');
        }
        s
    }
}

/// Display width of `s` (characters).
pub fn width(s: &str) -> usize {
    s.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_paths_are_shortened_for_people() {
        assert_eq!(shown_callpath("main->solve->sweep"), "main->solve->sweep");
        let ctor = "std::vector<double, std::allocator<double>>::vector(unsigned long, double const&, std::allocator<double> const&)";
        let fill = "std::vector<double, std::allocator<double>>::_M_fill_initialize(unsigned long, double const&)";
        let deep = format!("main->{ctor}->{fill}->{fill}->{fill}->leaf(int)");
        let shown = shown_callpath(&deep);
        assert!(shown.chars().count() <= 100, "{shown}");
        assert!(shown.starts_with("main->…->"), "{shown}");
        assert!(shown.ends_with("->leaf(int)"), "{shown}");
        assert_eq!(
            shown_callpath(&format!("main->{ctor}")),
            "main->std::vector<…>::vector(…)"
        );
    }

    #[test]
    fn aligns_columns_and_trims() {
        let mut t = Table::new(&[Align::Left, Align::Right, Align::Left]).header(["name", "n", ""]);
        t.row(["a", "1", "x"]);
        t.row(["longer", "100", ""]);
        t.row(["—", "→", "ü"]);
        assert_eq!(
            t.render("  "),
            "  name      n\n  a         1  x\n  longer  100\n  —         →  ü\n"
        );
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn ragged_rows() {
        let mut t = Table::new(&[Align::Left]);
        t.row(["a", "b"]);
        t.row(["ccc"]);
        assert_eq!(t.lines(""), vec!["a    b", "ccc"]);
    }

    #[test]
    fn long_cxx_names_lose_their_template_arguments() {
        assert_eq!(shown_name("multiply"), "multiply");
        assert_eq!(
            shown_name(
                "std::vector<mu::Parser, std::allocator<mu::Parser>>::push_back(mu::Parser const&)"
            ),
            "std::vector<…>::push_back(mu::Parser const&)"
        );
        let op = "std::basic_ostream<char, std::char_traits<char>>& std::operator<<<std::char_traits<char>>(std::basic_ostream<char, std::char_traits<char>>&, char const*)";
        let shown = shown_name(op);
        assert_eq!(shown.chars().count(), 100);
        assert!(
            shown.starts_with("std::basic_ostream<char, std::char_traits<char>>& std::operator<<")
        );
        assert!(shown.ends_with('…'));
    }
}
