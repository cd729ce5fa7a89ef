//! A tiny JSON writer for the sidecar (the plugin has no serde dependency: it is loaded
//! into clang, and every dependency is code in the compiler's address space).

pub enum Json {
    Null,
    Bool(bool),
    Num(u64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
    /// Already rendered JSON, written as it is (compact sections of the sidecar).
    Raw(String),
}

pub fn escape(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

impl Json {
    pub fn obj() -> Json {
        Json::Obj(Vec::new())
    }

    fn with(mut self, k: &str, v: Json) -> Json {
        if let Json::Obj(ref mut fields) = self {
            fields.push((k.to_string(), v));
        }
        self
    }

    pub fn str(self, k: &str, v: &str) -> Json {
        self.with(k, Json::Str(v.to_string()))
    }
    pub fn num(self, k: &str, v: u64) -> Json {
        self.with(k, Json::Num(v))
    }
    pub fn opt_num(self, k: &str, v: Option<u64>) -> Json {
        self.with(k, v.map(Json::Num).unwrap_or(Json::Null))
    }
    pub fn opt_str(self, k: &str, v: Option<&str>) -> Json {
        self.with(k, v.map(|s| Json::Str(s.to_string())).unwrap_or(Json::Null))
    }
    pub fn boolean(self, k: &str, v: bool) -> Json {
        self.with(k, Json::Bool(v))
    }
    pub fn raw(self, k: &str, v: String) -> Json {
        self.with(k, Json::Raw(v))
    }
    pub fn arr(self, k: &str, v: Vec<Json>) -> Json {
        self.with(k, Json::Arr(v))
    }

    pub fn render(&self) -> String {
        let mut s = String::new();
        self.write(&mut s, 0);
        s.push('\n');
        s
    }

    fn write(&self, out: &mut String, indent: usize) {
        let pad = |n: usize| "  ".repeat(n);
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => out.push_str(&n.to_string()),
            Json::Str(s) => escape(s, out),
            Json::Raw(s) => out.push_str(s),
            Json::Arr(v) if v.is_empty() => out.push_str("[]"),
            Json::Arr(v) => {
                out.push_str("[\n");
                for (i, x) in v.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    x.write(out, indent + 1);
                    out.push_str(if i + 1 < v.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push(']');
            }
            Json::Obj(f) if f.is_empty() => out.push_str("{}"),
            Json::Obj(f) => {
                out.push_str("{\n");
                for (i, (k, v)) in f.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    escape(k, out);
                    out.push_str(": ");
                    v.write(out, indent + 1);
                    out.push_str(if i + 1 < f.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push('}');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_escaped_json() {
        let j = Json::obj()
            .str("a", "x\"y\\\n")
            .num("n", 3)
            .opt_num("c", None)
            .arr("l", vec![]);
        let s = j.render();
        assert!(s.contains(r#""a": "x\"y\\\n""#), "{s}");
        assert!(s.contains(r#""c": null"#));
        assert!(s.contains(r#""l": []"#));
    }
}
