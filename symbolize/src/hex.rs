//! Addresses in JSON: hex strings (`"0x7f1c2a4051a0"`), since 64-bit integers do not
//! survive JSON readers that use doubles. Plain numbers are accepted on input too.

use serde::de::{self, Deserializer, Visitor};
use serde::Serializer;

pub fn parse(s: &str) -> Option<u64> {
    let t = s.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
}

pub fn format(v: u64) -> String {
    format!("{v:#x}")
}

pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format(*v))
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    struct V;
    impl Visitor<'_> for V {
        type Value = u64;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an address as a hex string or an integer")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
            parse(v).ok_or_else(|| E::custom(format!("not an address: {v:?}")))
        }
    }
    d.deserialize_any(V)
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_both_forms() {
        assert_eq!(super::parse("0x1f80"), Some(0x1f80));
        assert_eq!(super::parse("8064"), Some(8064));
        assert_eq!(super::parse("0xzz"), None);
        assert_eq!(super::format(255), "0xff");
    }
}
