//! The control-flow split of labels (`TAINTPROF_CONTROL_SPLIT`, on by default).
//!
//! With the split on, a label holds two bits per parameter, for the first
//! [`MAX_PARAMS_SPLIT`] parameters:
//!
//! ```text
//!   bit  15 ........ 8 7 ......... 0
//!        [ control twins ][ data bits ]
//!   bit p:     parameter p reached the value through data flow
//!   bit p + 8: parameter p reached it through a control-flow rule (a join, a loop's
//!              back edge, an update under a decision, a return under a decision)
//! ```
//!
//! Instrumented code moves every control label onto the twin bits as it joins a value
//! (`((c | c >> s) & (0xffff >> s)) << s` with `s` = [`__tp_ctrl_shift`]); data flow
//! ORs both halves along. A loop's parameters are the union of both halves; those it
//! has only on the twin side came only through control flow. With the split off `s` is
//! 0, the formula is the identity, and a label is one bit per parameter (up to 16).
//!
//! The runtime folds labels where it reads them from instrumented code (loop records,
//! branch records, `tp_read_label`): everything past those points sees one bit per
//! parameter, plus, for loops, the data bits.
//!
//! A ninth parameter needs bit 8: its registration turns the split off for the rest of
//! the run ([`give_up`]), so that up to 16 parameters still work. Twin bits made before
//! that moment (by a decision on a labelled value between the first and the ninth
//! registration) would then read as parameters 9 to 16; programs register their
//! parameters first, so there are normally none, and the report says the split was
//! given up and why.

use core::sync::atomic::{AtomicU16, Ordering::Relaxed};
use taintprof_abi::{Label, CTRL_SPLIT_SHIFT};

pub use taintprof_abi::MAX_PARAMS_SPLIT;

/// `__tp_ctrl_shift` (`taintprof_abi::GLOBAL_CTRL_SHIFT`): read by instrumented code
/// as a plain `i16`; 0 until start-up sets it.
#[no_mangle]
pub static __tp_ctrl_shift: AtomicU16 = AtomicU16::new(0);

/// Turns the split on or off (start-up, before `main`).
pub fn set(on: bool) {
    __tp_ctrl_shift.store(if on { CTRL_SPLIT_SHIFT as u16 } else { 0 }, Relaxed);
}

/// The name of the parameter whose registration turned the split off, if one did.
static GAVE_UP_AT: core::sync::atomic::AtomicPtr<&'static [u8]> =
    core::sync::atomic::AtomicPtr::new(core::ptr::null_mut());

/// A ninth parameter (`name`, leaked by the registry) is being registered: one bit per
/// parameter from now on. Called with the registry's lock held.
pub fn give_up(name: &'static [u8]) {
    if on() {
        set(false);
        GAVE_UP_AT.store(crate::leak(name), core::sync::atomic::Ordering::Release);
    }
}

/// The parameter whose registration turned the split off, if one did.
pub fn gave_up_at() -> Option<&'static [u8]> {
    let p = GAVE_UP_AT.load(core::sync::atomic::Ordering::Acquire);
    // SAFETY: null or a leaked, immutable record.
    (!p.is_null()).then(|| unsafe { *p })
}

/// Whether labels carry control twins.
pub fn on() -> bool {
    __tp_ctrl_shift.load(Relaxed) != 0
}

/// One bit per parameter: both halves folded onto the data bits.
pub fn params(l: Label) -> Label {
    fold(l, __tp_ctrl_shift.load(Relaxed))
}

/// The parameters that reached a value through data flow (all of them with the split
/// off).
pub fn data(l: Label) -> Label {
    data_bits(l, __tp_ctrl_shift.load(Relaxed))
}

fn fold(l: Label, s: u16) -> Label {
    (l | l >> s) & (0xffff >> s)
}

fn data_bits(l: Label, s: u16) -> Label {
    l & (0xffff >> s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_with_and_without_the_split() {
        // Parameter 0 by data, parameter 2 only by control (twin bit 10).
        let l: Label = 0b1 | (0b100 << 8);
        let s = CTRL_SPLIT_SHIFT as u16;
        assert_eq!(fold(l, s), 0b101);
        assert_eq!(data_bits(l, s), 0b1);
        assert_eq!(fold(l, 0), l);
        assert_eq!(data_bits(l, 0), l);
    }
}
