//! A tiny streaming JSON writer (no allocation, no serde in the runtimes).
//!
//! Why: both runtimes write their report as JSON from a signal handler, straight into a
//! file through a fixed buffer ([`crate::io::FdSink`]).
//!
//! Invariants: the output is always valid JSON text for any input bytes. Strings from
//! the program (file names, function names, parameter names, argv) are arbitrary bytes:
//! valid UTF-8 is copied through, `"` `\` and control characters (and DEL) are escaped,
//! and every invalid UTF-8 sequence becomes `\ufffd`. Containers are pretty-printed
//! (2-space indent) down to a configurable depth and compact below it, which keeps long
//! context lists readable but small. Numbers are written without `fmt` (no float, no
//! padding machinery).

/// Where bytes go: a file ([`crate::io::FdSink`]), or a `Vec<u8>` in tests.
pub trait Sink {
    fn put(&mut self, b: &[u8]);
}

#[cfg(any(test, feature = "alloc"))]
impl Sink for alloc::vec::Vec<u8> {
    fn put(&mut self, b: &[u8]) {
        self.extend_from_slice(b);
    }
}

const MAX_DEPTH: usize = 64;

/// Streaming writer. Misuse (a value where a key is expected, unbalanced ends) is not
/// detected beyond keeping the depth in range: the report code drives it statically.
pub struct Json<'a, S: Sink> {
    out: &'a mut S,
    /// `need_comma[d]`: container at depth d already has an element.
    need_comma: [bool; MAX_DEPTH],
    depth: usize,
    after_key: bool,
    /// Containers deeper than this are written on one line.
    pretty_depth: usize,
}

impl<'a, S: Sink> Json<'a, S> {
    pub fn new(out: &'a mut S, pretty_depth: usize) -> Self {
        Json {
            out,
            need_comma: [false; MAX_DEPTH],
            depth: 0,
            after_key: false,
            pretty_depth,
        }
    }

    fn newline(&mut self) {
        if self.depth <= self.pretty_depth {
            self.out.put(b"\n");
            for _ in 0..self.depth {
                self.out.put(b"  ");
            }
        }
    }

    fn before_value(&mut self) {
        if self.after_key {
            self.after_key = false;
            return;
        }
        if self.depth > 0 {
            let i = self.depth - 1;
            if let Some(c) = self.need_comma.get_mut(i) {
                if *c {
                    self.out.put(b",");
                }
                *c = true;
            }
            self.newline();
        }
    }

    fn open(&mut self, c: &[u8]) {
        self.before_value();
        self.out.put(c);
        if self.depth < MAX_DEPTH {
            self.depth += 1;
            if let Some(x) = self.need_comma.get_mut(self.depth - 1) {
                *x = false;
            }
        }
    }

    fn close(&mut self, c: &[u8]) {
        let inner = self.depth;
        let had = inner > 0 && self.need_comma.get(inner - 1).copied().unwrap_or(false);
        self.depth = self.depth.saturating_sub(1);
        if had && inner <= self.pretty_depth {
            self.newline();
        }
        self.out.put(c);
        if self.depth == 0 {
            self.out.put(b"\n");
        }
    }

    pub fn begin_object(&mut self) {
        self.open(b"{");
    }
    pub fn end_object(&mut self) {
        self.close(b"}");
    }
    pub fn begin_array(&mut self) {
        self.open(b"[");
    }
    pub fn end_array(&mut self) {
        self.close(b"]");
    }

    /// An object key; the next call writes its value.
    pub fn key(&mut self, k: &str) {
        self.before_value();
        escape(self.out, k.as_bytes());
        self.out.put(if self.depth <= self.pretty_depth {
            b": "
        } else {
            b":"
        });
        self.after_key = true;
    }

    /// A string value from arbitrary bytes.
    pub fn bytes(&mut self, v: &[u8]) {
        self.before_value();
        escape(self.out, v);
    }

    pub fn str(&mut self, v: &str) {
        self.bytes(v.as_bytes());
    }

    pub fn u64(&mut self, v: u64) {
        self.before_value();
        let mut buf = [0u8; 20];
        self.out.put(fmt_u64(v, &mut buf));
    }

    pub fn i64(&mut self, v: i64) {
        self.before_value();
        if v < 0 {
            self.out.put(b"-");
        }
        let mut buf = [0u8; 20];
        self.out.put(fmt_u64(v.unsigned_abs(), &mut buf));
    }

    pub fn bool(&mut self, v: bool) {
        self.before_value();
        self.out.put(if v { b"true" } else { b"false" });
    }

    pub fn null(&mut self) {
        self.before_value();
        self.out.put(b"null");
    }

    /// Shorthands for `key` + value.
    pub fn kv_str(&mut self, k: &str, v: &str) {
        self.key(k);
        self.str(v);
    }
    pub fn kv_bytes(&mut self, k: &str, v: &[u8]) {
        self.key(k);
        self.bytes(v);
    }
    pub fn kv_u64(&mut self, k: &str, v: u64) {
        self.key(k);
        self.u64(v);
    }
    pub fn kv_i64(&mut self, k: &str, v: i64) {
        self.key(k);
        self.i64(v);
    }
    pub fn kv_bool(&mut self, k: &str, v: bool) {
        self.key(k);
        self.bool(v);
    }
}

/// Decimal digits of `v` in `buf`.
pub fn fmt_u64(mut v: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        if let Some(d) = buf.get_mut(i) {
            *d = b'0' + (v % 10) as u8;
        }
        v /= 10;
        if v == 0 || i == 0 {
            break;
        }
    }
    buf.get(i..).unwrap_or(&[])
}

/// Writes `v` as a quoted, escaped JSON string.
pub fn escape<S: Sink + ?Sized>(out: &mut S, v: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.put(b"\"");
    for chunk in v.utf8_chunks() {
        let s = chunk.valid().as_bytes();
        let mut start = 0;
        for (i, &b) in s.iter().enumerate() {
            let esc: Option<&[u8]> = match b {
                b'"' => Some(b"\\\""),
                b'\\' => Some(b"\\\\"),
                b'\n' => Some(b"\\n"),
                b'\r' => Some(b"\\r"),
                b'\t' => Some(b"\\t"),
                0x08 => Some(b"\\b"),
                0x0c => Some(b"\\f"),
                0..=0x1f | 0x7f => None,
                _ => continue,
            };
            out.put(s.get(start..i).unwrap_or(&[]));
            match esc {
                Some(e) => out.put(e),
                None => {
                    let u = [
                        b'\\',
                        b'u',
                        b'0',
                        b'0',
                        HEX[(b >> 4) as usize & 15],
                        HEX[(b & 15) as usize],
                    ];
                    out.put(&u);
                }
            }
            start = i + 1;
        }
        out.put(s.get(start..).unwrap_or(&[]));
        if !chunk.invalid().is_empty() {
            out.put(b"\\ufffd");
        }
    }
    out.put(b"\"");
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;
    use std::vec::Vec;

    fn esc(v: &[u8]) -> String {
        let mut o = Vec::new();
        escape(&mut o, v);
        String::from_utf8(o).unwrap()
    }

    #[test]
    fn escaping_round_trips_through_a_real_parser() {
        let cases: &[&[u8]] = &[
            b"plain",
            b"quote \" backslash \\ slash /",
            b"\n\r\t\x08\x0c",
            b"\x00\x01\x1f\x7f",
            "ünïcødé ∑ 😀".as_bytes(),
            b"",
            b"operator<<(std::ostream&, matrix const&)",
        ];
        for &c in cases {
            let e = esc(c);
            let back: String = serde_json::from_str(&e).unwrap_or_else(|err| panic!("{e}: {err}"));
            assert_eq!(back.as_bytes(), c);
        }
        assert_eq!(esc(b"a\x01b"), "\"a\\u0001b\"");
        assert_eq!(esc(b"\x7f"), "\"\\u007f\"");
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters() {
        let e = esc(b"bad \xff\xfe end \xe2\x82");
        let back: String = serde_json::from_str(&e).unwrap();
        assert_eq!(back, "bad \u{fffd}\u{fffd} end \u{fffd}");
    }

    #[test]
    fn structure_is_valid_json_pretty_or_compact() {
        for pretty in [0, 1, 2, 10] {
            let mut o = Vec::new();
            {
                let mut j = Json::new(&mut o, pretty);
                j.begin_object();
                j.kv_str("schema", "x");
                j.kv_i64("neg", -42);
                j.kv_u64("max", u64::MAX);
                j.key("empty");
                j.begin_array();
                j.end_array();
                j.key("eo");
                j.begin_object();
                j.end_object();
                j.key("list");
                j.begin_array();
                for i in 0..3 {
                    j.begin_object();
                    j.kv_u64("i", i);
                    j.kv_bool("b", i % 2 == 0);
                    j.key("n");
                    j.null();
                    j.end_object();
                }
                j.end_array();
                j.kv_bytes("bytes", b"\"q\"");
                j.end_object();
            }
            let v: serde_json::Value = serde_json::from_slice(&o).unwrap();
            assert_eq!(v["neg"], -42);
            assert_eq!(v["max"], u64::MAX);
            assert_eq!(v["list"][2]["i"], 2);
            assert_eq!(v["list"][1]["b"], false);
            assert!(v["list"][0]["n"].is_null());
            assert_eq!(v["bytes"], "\"q\"");
            assert_eq!(v["empty"].as_array().unwrap().len(), 0);
        }
    }

    #[test]
    fn numbers() {
        let mut b = [0u8; 20];
        assert_eq!(fmt_u64(0, &mut b), b"0");
        assert_eq!(fmt_u64(1234567890, &mut b), b"1234567890");
        assert_eq!(fmt_u64(u64::MAX, &mut b), b"18446744073709551615");
    }
}
