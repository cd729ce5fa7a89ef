use std::process::Command;

fn llvm_config(arg: &str) -> String {
    let exe = std::env::var("LLVM_CONFIG").unwrap_or_else(|_| "llvm-config-19".into());
    let out = Command::new(&exe)
        .arg(arg)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {exe} (install llvm-19-dev): {e}"));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn main() {
    println!("cargo:rerun-if-changed=shim");
    println!("cargo:rerun-if-env-changed=LLVM_CONFIG");
    let mut b = cc::Build::new();
    b.cpp(true).file("shim/plugin.cpp");
    for flag in llvm_config("--cxxflags").split_whitespace() {
        // llvm-config's flags carry -fno-exceptions / -std=c++17 etc.; keep them all.
        b.flag(flag);
    }
    b.warnings(false).compile("taintprof_shim");
}
