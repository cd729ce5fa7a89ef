//! Test-only builders of the descriptors the pass would emit (`SrcLoc`, inline chains),
//! leaked so that they live as long as the runtime's records that point at them. Shared
//! by the unit tests of the report and of the raw run record. Also [`model_report`]:
//! the taint report of some report inputs, as the driver makes it (the runtime's raw
//! run record analysed by `taintprof_model`).

use core::ffi::CStr;
use serde_json::Value;
use taintprof_abi::SrcLoc;

use crate::report::Inputs;

/// The `taintprof.taint` report of `inp`: the raw run record the runtime writes for it
/// (`crate::record::write_record`, into memory), read back (`taintprof_record::read`)
/// and analysed offline (`taintprof_model`), as `taintprof report` does.
pub fn model_report(inp: &Inputs<'_>) -> Value {
    let f = crate::record::write_record(inp, Vec::new());
    assert!(f.ok && f.complete, "the record is complete");
    let r = taintprof_record::read::read(&f.out).unwrap_or_else(|e| panic!("the record: {e}"));
    taintprof_model::taint_report_of_records(&[r])
        .unwrap_or_else(|e| panic!("the model of the record: {e}"))
}

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
