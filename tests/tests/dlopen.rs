//! An instrumented shared library opened with `dlopen`: nothing on the link line refers
//! to it, so the runtime's hooks, TLS slots and wrappers reach it only because the
//! executable exports them (`libtaintprof_rt.exports`, passed as `--dynamic-list`). Its
//! loop reports the parameter, at -O0 and -O2.

use taintprof_tests::*;

#[test]
fn a_dlopened_instrumented_library_finds_the_runtime() {
    for opt in OPT_LEVELS {
        let link = compile_shared_library("dl_kernel.c", "dlkernel", opt, &[]);
        // `-L<dir>`: the directory the library was built in.
        let dir = link[0].trim_start_matches("-L").to_string();
        let b = compile(&["dl_main.c", "dl_kernel.c"][..1], opt, &["-ldl"]);
        let run = b.run(&["100", &dir]);
        assert!(run.output.status.success(), "[{opt}] {}", run.stderr());
        let mut r = run.report();
        r.sources = vec![
            programs_dir().join("dl_main.c"),
            programs_dir().join("dl_kernel.c"),
        ];
        r.opt = opt.to_string();
        r.assert_loop("kernel", "@kernel", &["n"]);
    }
}
