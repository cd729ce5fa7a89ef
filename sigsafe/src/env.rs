//! Environment knobs read without allocation: looking a variable up, parsing booleans
//! and integers.
//!
//! Why: both runtimes read their knobs at start-up, before `main` (from
//! `.preinit_array` and from a shared object's constructor), where the loader hands
//! the environment to the function as `envp` and `environ` may not be set up yet, and
//! neither may use `std::env` (no std) or allocate.
//!
//! Invariants: values are borrowed from the environment strings themselves (which live
//! as long as the process unless the program rewrites them with `setenv`, which is why
//! the runtimes read every knob once, at start-up, and keep what they need); parsing
//! never fails other than by returning `None`.

use crate::buf::{cstr, StackBuf};

/// Looks `name` up in a NUL-terminated `envp` array (the third argument of
/// `.preinit_array` and `.init_array` functions), or with `getenv` when `envp` is null.
/// `None` when unset; a variable set to the empty string is `Some(b"")`.
///
/// # Safety
/// `envp` must be null or a valid environment array; the strings must stay unchanged
/// while the result is used (no `setenv`/`putenv` of the same name meanwhile).
pub unsafe fn lookup(envp: *const *const libc::c_char, name: &[u8]) -> Option<&'static [u8]> {
    if envp.is_null() {
        let mut key = StackBuf::<64>::new();
        key.push_bytes(name);
        let k = key.as_cstr()?;
        // SAFETY: k is NUL-terminated.
        let v = unsafe { libc::getenv(k) };
        return if v.is_null() {
            None
        } else {
            // SAFETY: getenv returns null or a NUL-terminated string of the environment.
            Some(unsafe { cstr(v) })
        };
    }
    let mut e = envp;
    loop {
        // SAFETY: envp is a NULL-terminated array and `e` has not passed its terminator.
        let s = unsafe { *e };
        if s.is_null() {
            return None;
        }
        // SAFETY: each entry is a NUL-terminated "NAME=value" string.
        let entry = unsafe { cstr(s) };
        if entry.len() > name.len()
            && entry.starts_with(name)
            && entry.get(name.len()) == Some(&b'=')
        {
            return entry.get(name.len() + 1..);
        }
        // SAFETY: still inside the array (the terminator was not reached).
        e = unsafe { e.add(1) };
    }
}

/// Parses a boolean knob value: `1`, `true`, `yes`, `on` (any case) are true; `0`,
/// `false`, `no`, `off` and the empty string are false; `None` for anything else.
pub fn parse_bool(v: &[u8]) -> Option<bool> {
    let mut low = [0u8; 8];
    if v.len() > low.len() {
        return None;
    }
    for (d, s) in low.iter_mut().zip(v) {
        *d = s.to_ascii_lowercase();
    }
    match low.get(..v.len()).unwrap_or(&[]) {
        b"1" | b"true" | b"yes" | b"on" => Some(true),
        b"0" | b"false" | b"no" | b"off" | b"" => Some(false),
        _ => None,
    }
}

/// Parses a non-negative decimal integer knob value (digits only, at most 19 of them,
/// so it cannot overflow).
pub fn parse_u64(v: &[u8]) -> Option<u64> {
    if v.is_empty() || v.len() > 19 || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(v.iter().fold(0u64, |a, &d| a * 10 + (d - b'0') as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn booleans() {
        assert_eq!(parse_bool(b"1"), Some(true));
        assert_eq!(parse_bool(b"TRUE"), Some(true));
        assert_eq!(parse_bool(b"On"), Some(true));
        assert_eq!(parse_bool(b"0"), Some(false));
        assert_eq!(parse_bool(b""), Some(false));
        assert_eq!(parse_bool(b"off"), Some(false));
        assert_eq!(parse_bool(b"maybe"), None);
        assert_eq!(parse_bool(b"123456789"), None);
    }

    #[test]
    fn integers() {
        assert_eq!(parse_u64(b"0"), Some(0));
        assert_eq!(parse_u64(b"250"), Some(250));
        assert_eq!(parse_u64(b"18446744073709551615"), None);
        assert_eq!(
            parse_u64(b"9999999999999999999"),
            Some(9_999_999_999_999_999_999)
        );
        assert_eq!(parse_u64(b""), None);
        assert_eq!(parse_u64(b"-1"), None);
        assert_eq!(parse_u64(b"1e6"), None);
        assert_eq!(parse_u64(b"99999999999999999999"), None);
    }

    #[test]
    fn lookup_finds_exact_names() {
        let a = c"TAINTPROF_OUTX=1";
        let b = c"TAINTPROF_OUT=/tmp/r";
        let c = c"TAINTPROF_EMPTY=";
        let env = [a.as_ptr(), b.as_ptr(), c.as_ptr(), core::ptr::null()];
        // SAFETY: a NULL-terminated array of NUL-terminated strings.
        unsafe {
            assert_eq!(lookup(env.as_ptr(), b"TAINTPROF_OUT"), Some(&b"/tmp/r"[..]));
            assert_eq!(lookup(env.as_ptr(), b"TAINTPROF_EMPTY"), Some(&b""[..]));
            assert_eq!(lookup(env.as_ptr(), b"TAINTPROF_QUIET"), None);
            // Null envp: the process environment (PATH is set under cargo test).
            assert!(lookup(core::ptr::null(), b"PATH").is_some());
            assert_eq!(
                lookup(core::ptr::null(), b"TAINTPROF_SURELY_UNSET_42"),
                None
            );
        }
    }
}
