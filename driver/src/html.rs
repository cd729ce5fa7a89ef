//! Text in the driver's HTML pages (`taintprof denormals --html`, `taintprof model
//! --html`): one escaping rule for both.

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_special_character_is_escaped() {
        assert_eq!(
            super::escape("a<b> & \"c\" 'd'"),
            "a&lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;"
        );
    }
}
