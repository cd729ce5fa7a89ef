//! Compiles the two C pieces of the runtime:
//!
//! * `src/tls.c` — the initial-exec thread-local slots that instrumented IR reads and
//!   writes directly (names from `taintprof-abi`), plus tiny accessors for Rust.
//! * `src/new_shim.c` — the C++ `operator new` wrappers. They call the real operator
//!   from C compiled with `-fexceptions`, so a `std::bad_alloc` thrown by it unwinds
//!   through the wrapper to the program's handler without crossing a Rust frame.
//!
//! * `src/exec_shim.c` — the exec-family wrappers (the variadic `execl` forms need C),
//!   which write the report of the run so far before the program is replaced.
//!
//! * `src/omp_shim.c` — the OpenMP thread-count wrappers (the implicit parameter
//!   `threads`), with weak references to libomp's functions.
//!
//! Each file is its own object inside `libtaintprof_rt.a`, so a C program that never
//! calls `operator new` does not pull `new_shim.o`. One that links an instrumented C++
//! shared library does (the library's wrapper calls resolve in the executable); its
//! references to libstdc++'s operators are weak, so the C link needs no libstdc++.

fn main() {
    println!("cargo:rerun-if-changed=src/tls.c");
    println!("cargo:rerun-if-changed=src/new_shim.c");
    println!("cargo:rerun-if-changed=src/exec_shim.c");
    println!("cargo:rerun-if-changed=src/omp_shim.c");
    cc::Build::new()
        .file("src/tls.c")
        .file("src/new_shim.c")
        .file("src/exec_shim.c")
        .file("src/omp_shim.c")
        .opt_level(2)
        .pic(true)
        .flag("-fexceptions")
        .flag("-fno-strict-aliasing")
        .warnings(true)
        .extra_warnings(true)
        .compile("taintprof_rt_c");
}
