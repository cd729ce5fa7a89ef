//! `taintprof-c++` (built as `taintprof-cxx`; build.rs adds the `taintprof-c++` link):
//! a drop-in `c++` (see `taintprof_driver::cc`).

fn main() {
    std::process::exit(taintprof_driver::cc::main(
        taintprof_driver::locate::Lang::Cxx,
    ));
}
