//! `taintprof-cc`: a drop-in `cc` (see `taintprof_driver::cc`). Invoked through a link
//! whose name ends in `++` (`taintprof-c++ -> taintprof-cc`), it is the C++ wrapper.

use taintprof_driver::locate::Lang;

fn main() {
    let invoked_as = std::env::args_os()
        .next()
        .map(std::path::PathBuf::from)
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let lang = if invoked_as.ends_with("++") || invoked_as.ends_with("cxx") {
        Lang::Cxx
    } else {
        Lang::C
    };
    std::process::exit(taintprof_driver::cc::main(lang));
}
