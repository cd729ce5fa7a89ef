//! Label folding: the record keeps labels raw, as instrumented code made them; the
//! analysis reads them one bit per parameter, as `rt/src/split.rs` does at exit.
//!
//! With the control-flow split (`shift` 8) bit `p` is parameter `p` through data flow
//! and bit `p + 8` the same parameter through control flow only; with `shift` 0 bit `p`
//! is parameter `p`. The merge keeps the split only if every record had it
//! ([`taintprof_record::merge::Merged::label_shift`]).

/// How the merged labels map to parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// 0 or 8.
    pub shift: u16,
}

impl Layout {
    /// One bit per parameter: both halves folded onto the data bits.
    pub fn params(self, l: u16) -> u16 {
        let s = self.shift.min(15);
        (l | l >> s) & (0xffff >> s)
    }

    /// The parameters that reached a value through data flow (all of them with the
    /// split off).
    pub fn data(self, l: u16) -> u16 {
        l & (0xffff >> self.shift.min(15))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_with_and_without_the_split() {
        // Parameter 0 by data, parameter 2 only by control (twin bit 10).
        let l: u16 = 0b1 | (0b100 << 8);
        let split = Layout { shift: 8 };
        assert_eq!(split.params(l), 0b101);
        assert_eq!(split.data(l), 0b1);
        let flat = Layout { shift: 0 };
        assert_eq!(flat.params(l), l);
        assert_eq!(flat.data(l), l);
        assert_eq!(split.params(0), 0);
        assert_eq!(split.params(0xff00), 0xff);
    }
}
