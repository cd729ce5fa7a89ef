//! Test-only builders of the descriptors the pass would emit (`SrcLoc`, inline chains),
//! leaked so that they live as long as the runtime's records that point at them. Shared
//! by the unit tests of the report and of the raw run record.

use core::ffi::CStr;
use taintprof_abi::SrcLoc;

/// A source position in `function` (also its linkage name) of `file`.
pub fn src_loc(
    function: &'static CStr,
    file: &'static CStr,
    fn_line: u32,
    line: u32,
    column: u32,
) -> SrcLoc {
    SrcLoc {
        function: function.as_ptr(),
        linkage: function.as_ptr(),
        file: file.as_ptr(),
        fn_line,
        line,
        column,
        _reserved: 0,
    }
}

/// `v` moved to the heap for good; its address.
pub fn leak<T>(v: T) -> usize {
    Box::leak(Box::new(v)) as *mut T as usize
}

/// An inline chain for good: its first entry and its length.
pub fn leak_chain(v: Vec<SrcLoc>) -> (*const SrcLoc, u32) {
    let n = v.len() as u32;
    (Box::leak(v.into_boxed_slice()).as_ptr(), n)
}
