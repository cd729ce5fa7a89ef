//! Classifying a C/C++ compiler command line.
//!
//! The wrappers must know what a `cc`-style invocation will do before they add anything
//! to it: preprocess only, compile to objects, link an executable, link a shared
//! library, or just answer a query (`--version`). [`classify`] reads the (already
//! expanded) arguments the way the clang driver does, closely enough for that decision:
//!
//! - options that take their value as the next argument (`-o x`, `-x c`, `-MF f`,
//!   `-Xlinker arg`, `-I dir`, ...) are skipped together with that value, so the value is
//!   never mistaken for an input file;
//! - inputs are the other arguments not starting with `-`, plus `-` (stdin); each gets a
//!   kind from the `-x` language in force or from its extension;
//! - the action comes from `-E`/`-M`/`-MM`/`-fsyntax-only`, `-c`/`-S`, `-shared`/`-r`
//!   (also inside `-Wl,` and after `-Xlinker`), and query flags.
//!
//! Nothing here changes the arguments: the wrapper passes all of them to clang
//! untouched and in order, and only appends its own.

use std::path::Path;

/// What the compiler will do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Nothing to build: `--version`, `-v` or `--help` alone, `-print-*`, `-dumpversion`,
    /// or no input at all. The wrapper passes the command line straight through.
    Query,
    /// The preprocessor or front end only: `-E`, `-M`/`-MM` without `-c`,
    /// `-fsyntax-only`. No code is generated.
    Preprocess,
    /// `-c` or `-S`: compile each source to an object (or assembly) file.
    Compile,
    /// Link an executable, compiling any sources first.
    Link,
    /// Link a shared library (`-shared`) or a relocatable object (`-r`): never gets the
    /// runtime; the executable that loads it provides the runtime's symbols.
    SharedLink,
}

/// What an input file is, as far as the wrapper cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// C, C++, Objective-C(++), preprocessed C/C++ or LLVM IR: compiled, and instrumented.
    Source,
    /// Compiled by clang but not instrumented (assembly, headers for PCH, CUDA, Fortran ...).
    OtherCompiled,
    /// Handed to the linker (objects, archives, shared libraries, linker scripts, ...).
    Linker,
}

/// One input file of the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub path: String,
    pub kind: InputKind,
}

/// The debug-info level the user asked for (the last `-g` level flag wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DebugLevel {
    /// `-g0`
    None,
    /// `-gline-directives-only`: no line table in the IR, too little for taintprof.
    LineDirectives,
    /// `-gline-tables-only`, `-g1`, `-gmlt`
    LineTables,
    /// `-g`, `-g2`, `-g3`, `-ggdb*`, `-gdwarf*`, ...
    Full,
}

impl DebugLevel {
    /// Whether loops get source lines at this level.
    pub fn has_line_tables(self) -> bool {
        self >= DebugLevel::LineTables
    }
}

/// The result of [`classify`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    pub action: Action,
    /// Last `-o` value.
    pub output: Option<String>,
    pub inputs: Vec<Input>,
    /// Last debug level flag, if any.
    pub debug: Option<DebugLevel>,
    /// The `-x` language in force after the last argument (`None` if there was no `-x`
    /// or the last one was `-x none`). Anything appended after such an `-x` would be
    /// read as a source of that language.
    pub trailing_language: Option<String>,
    /// `-flto` or `-flto=...` is in force.
    pub lto: bool,
    /// `-static`, `-static-pie` or `-static-libgcc`: libgcc (and its unwinder) is linked
    /// statically, so there is no `libgcc_s` to link against.
    pub static_libgcc: bool,
    /// `-static` or `-static-pie`: a static executable, which loads no shared libraries.
    pub static_exe: bool,
}

impl CommandLine {
    /// Inputs clang compiles (instrumented or not).
    pub fn compiled_inputs(&self) -> impl Iterator<Item = &Input> {
        self.inputs.iter().filter(|i| i.kind != InputKind::Linker)
    }

    /// Whether any input gets instrumented.
    pub fn has_instrumentable_source(&self) -> bool {
        self.inputs.iter().any(|i| i.kind == InputKind::Source)
    }
}

/// Options whose value is the next argument when written alone (`-o out`). Their
/// joined forms (`-oout`, `-MFdeps.d`, `--output=out`) need no entry here.
const TAKES_VALUE: &[&str] = &[
    "-o",
    "-x",
    "-I",
    "-D",
    "-U",
    "-L",
    "-l",
    "-F",
    "-B",
    "-T",
    "-u",
    "-z",
    "-e",
    "-A",
    "-G",
    "-MF",
    "-MT",
    "-MQ",
    "-MJ",
    "-include",
    "-imacros",
    "-include-pch",
    "-isystem",
    "-isystem-after",
    "-idirafter",
    "-iquote",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-iwithsysroot",
    "-isysroot",
    "-iframework",
    "-iframeworkwithsysroot",
    "-imultilib",
    "-ivfsoverlay",
    "-cxx-isystem",
    "-Xlinker",
    "-Xassembler",
    "-Xpreprocessor",
    "-Xclang",
    "-Xanalyzer",
    "-Xopenmp-target",
    "-Xcuda-fatbinary",
    "-Xcuda-ptxas",
    "-Xarch_host",
    "-Xarch_device",
    "-mllvm",
    "-arch",
    "-target",
    "-rpath",
    "-aux-info",
    "-dumpbase",
    "-dumpbase-ext",
    "-dumpdir",
    "-resource-dir",
    "-working-directory",
    "-serialize-diagnostics",
    "-dependency-file",
    "-dependency-dot",
    "-ccc-gcc-name",
    "-ccc-install-dir",
    "-wrapper",
    "--param",
    "--sysroot",
    "--output",
    "--language",
    "--include",
    "--include-directory",
    "--include-directory-after",
    "--include-prefix",
    "--include-with-prefix",
    "--include-with-prefix-before",
    "--include-with-prefix-after",
    "--imacros",
    "--define-macro",
    "--undefine-macro",
    "--library-directory",
    "--prefix",
    "--for-linker",
    "--force-link",
    "--assert",
    "--serialize-diagnostics",
    "--target",
    "--gcc-toolchain",
    "--ld-path",
];

/// Flags after which there is nothing to build, whatever else is on the line.
fn is_query_flag(a: &str) -> bool {
    matches!(
        a,
        "--version"
            | "-dumpversion"
            | "-dumpfullversion"
            | "-dumpmachine"
            | "-dumpspecs"
            | "--help"
            | "-help"
            | "--help-hidden"
            | "--target-help"
    ) || a.starts_with("-print-")
        || a.starts_with("--print-")
}

/// Classifies an expanded compiler command line (without the program name and without
/// the wrapper's own `--tp-` flags).
pub fn classify(args: &[String]) -> CommandLine {
    let mut preprocess = false;
    let mut compile = false;
    let mut shared = false;
    let mut dep_only = false; // -M / -MM (imply -E unless -c/-S)
    let mut query = false;
    let mut output = None;
    let mut inputs = Vec::new();
    let mut debug = None;
    let mut language: Option<String> = None;
    let mut lto = false;
    let mut static_libgcc = false;
    let mut static_exe = false;

    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let a = arg.as_str();
        if a == "-" || !a.starts_with('-') {
            inputs.push(Input {
                path: arg.clone(),
                kind: input_kind(a, language.as_deref()),
            });
            continue;
        }
        if TAKES_VALUE.contains(&a) {
            let value = it.next().map(String::as_str);
            match a {
                "-o" | "--output" => output = value.map(str::to_string),
                "-x" | "--language" => language = value.and_then(language_in_force),
                "-Xlinker" | "--for-linker" if value.is_some_and(is_shared_linker_flag) => {
                    shared = true
                }
                _ => {}
            }
            continue;
        }
        match a {
            "-E" | "-fsyntax-only" | "--preprocess" => preprocess = true,
            "-c" | "-S" | "--compile" | "--assemble" => compile = true,
            "-M" | "-MM" | "--dependencies" | "--user-dependencies" => dep_only = true,
            "-shared" | "--shared" | "-r" | "--relocatable" => shared = true,
            "-flto" | "-flto=full" | "-flto=thin" | "-flto=auto" | "-flto=jobserver" => lto = true,
            "-fno-lto" => lto = false,
            "-static" | "--static" | "-static-pie" => {
                static_exe = true;
                static_libgcc = true;
            }
            "-static-libgcc" => static_libgcc = true,
            _ if is_query_flag(a) => query = true,
            _ if a.starts_with("-Wl,") && a[4..].split(',').any(is_shared_linker_flag) => {
                shared = true
            }
            _ if a.starts_with("--output=") => output = Some(a["--output=".len()..].to_string()),
            _ if a.starts_with("--language=") => {
                language = language_in_force(&a["--language=".len()..])
            }
            _ if a.starts_with("-o") && !a.starts_with("-obj") => output = Some(a[2..].to_string()),
            _ if a.starts_with("-x") => language = language_in_force(&a[2..]),
            _ if a.starts_with("-g") => {
                if let Some(level) = debug_level(a) {
                    debug = Some(level);
                }
            }
            _ => {}
        }
    }

    let action = if query {
        Action::Query
    } else if inputs.is_empty() {
        // `cc -v`, `cc -O2`, ...: clang prints a version or an error; nothing to add.
        Action::Query
    } else if preprocess || (dep_only && !compile) {
        Action::Preprocess
    } else if compile {
        Action::Compile
    } else if shared {
        Action::SharedLink
    } else {
        Action::Link
    };
    CommandLine {
        action,
        output,
        inputs,
        debug,
        trailing_language: language,
        lto,
        static_libgcc,
        static_exe,
    }
}

/// `-x none` ends a language override.
fn language_in_force(lang: &str) -> Option<String> {
    (lang != "none").then(|| lang.to_string())
}

fn is_shared_linker_flag(f: &str) -> bool {
    matches!(
        f,
        "-shared" | "--shared" | "-Bshareable" | "-r" | "--relocatable" | "-i"
    )
}

/// Kind of input `path` under the `-x` language `language` (if any).
pub fn input_kind(path: &str, language: Option<&str>) -> InputKind {
    if let Some(lang) = language {
        return match lang {
            "c"
            | "c++"
            | "objective-c"
            | "objective-c++"
            | "cpp-output"
            | "c++-cpp-output"
            | "objective-c-cpp-output"
            | "objc-cpp-output"
            | "objective-c++-cpp-output"
            | "ir" => InputKind::Source,
            _ => InputKind::OtherCompiled,
        };
    }
    if path == "-" {
        // clang needs -x for stdin; without it this is an error clang reports.
        return InputKind::OtherCompiled;
    }
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    match ext {
        "c" | "i" | "cc" | "cp" | "cxx" | "cpp" | "CPP" | "c++" | "C" | "ii" | "m" | "mi"
        | "mm" | "M" | "mii" | "ll" | "bc" | "cppm" | "ixx" | "cxxm" | "c++m" | "ccm" => {
            InputKind::Source
        }
        "s" | "S" | "sx" | "asm" | "h" | "hh" | "hpp" | "hxx" | "H" | "h++" | "cu" | "hip"
        | "cl" | "f" | "F" | "for" | "FOR" | "f77" | "f90" | "F90" | "f95" | "F95" | "f03"
        | "F03" | "f08" | "F08" | "ftn" | "pcm" => InputKind::OtherCompiled,
        _ => InputKind::Linker,
    }
}

/// The debug level a `-g...` flag sets, or `None` for flags that only modify debug info
/// (`-gsplit-dwarf`, `-gz`, `-gno-column-info`, `-gcolumn-info`, ...).
pub fn debug_level(flag: &str) -> Option<DebugLevel> {
    let rest = flag.strip_prefix("-g")?;
    match rest {
        "0" => Some(DebugLevel::None),
        "line-directives-only" => Some(DebugLevel::LineDirectives),
        "1" | "line-tables-only" | "mlt" => Some(DebugLevel::LineTables),
        "" | "2" | "3" | "full" | "used" | "codeview" => Some(DebugLevel::Full),
        _ if rest.starts_with("gdb") || rest.starts_with("dwarf") || rest.starts_with("lldb") => {
            // -ggdb0 turns debug info off like -g0.
            if rest.ends_with('0') && !rest.starts_with("dwarf") {
                Some(DebugLevel::None)
            } else {
                Some(DebugLevel::Full)
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(line: &str) -> CommandLine {
        let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        classify(&args)
    }

    fn paths(cl: &CommandLine) -> Vec<(&str, InputKind)> {
        cl.inputs
            .iter()
            .map(|i| (i.path.as_str(), i.kind))
            .collect()
    }

    use InputKind::*;

    #[test]
    fn compile_only() {
        let cl = c("-O2 -c foo.c");
        assert_eq!(cl.action, Action::Compile);
        assert_eq!(cl.output, None);
        assert_eq!(paths(&cl), vec![("foo.c", Source)]);
        assert_eq!(c("-S foo.cpp -o foo.s").action, Action::Compile);
        assert_eq!(c("foo.c -c").action, Action::Compile);
    }

    #[test]
    fn output_forms() {
        assert_eq!(c("-c foo.c -o foo.o").output.as_deref(), Some("foo.o"));
        assert_eq!(c("-c foo.c -ofoo.o").output.as_deref(), Some("foo.o"));
        assert_eq!(c("-c foo.c --output=x.o").output.as_deref(), Some("x.o"));
        assert_eq!(c("-c foo.c --output x.o").output.as_deref(), Some("x.o"));
        // The last -o wins; the value of -o is not an input.
        let cl = c("-o a.out main.c -o prog");
        assert_eq!(cl.output.as_deref(), Some("prog"));
        assert_eq!(paths(&cl), vec![("main.c", Source)]);
        // -o with a value that looks like a source is still the output.
        let cl = c("-E x.c -o y.c");
        assert_eq!(paths(&cl), vec![("x.c", Source)]);
        assert_eq!(cl.output.as_deref(), Some("y.c"));
        // -objcmt-... is not -o.
        assert_eq!(c("-objcmt-migrate-literals -c a.m").output, None);
    }

    #[test]
    fn preprocess_and_dependency_modes() {
        assert_eq!(c("-E foo.c").action, Action::Preprocess);
        assert_eq!(c("-M foo.c").action, Action::Preprocess);
        assert_eq!(c("-MM foo.c -MF foo.d").action, Action::Preprocess);
        assert_eq!(c("-fsyntax-only foo.c").action, Action::Preprocess);
        // -M with -c: dependencies while compiling.
        assert_eq!(c("-M -c foo.c").action, Action::Compile);
        // -MD/-MMD are side effects of a compile.
        assert_eq!(c("-MD -MF foo.d -c foo.c").action, Action::Compile);
        assert_eq!(c("-MMD -MT foo.o -c foo.c").action, Action::Compile);
        // -E wins over -c.
        assert_eq!(c("-E -c foo.c").action, Action::Preprocess);
    }

    #[test]
    fn dependency_option_values_are_not_inputs() {
        let cl = c("-MD -MF deps.d -MT target.o -MQ $(q) -c foo.c");
        assert_eq!(paths(&cl), vec![("foo.c", Source)]);
    }

    #[test]
    fn link_modes() {
        assert_eq!(c("main.c -o prog").action, Action::Link);
        assert_eq!(c("a.o b.o -o prog -lm").action, Action::Link);
        assert_eq!(
            c("-shared -fPIC lib.c -o libx.so").action,
            Action::SharedLink
        );
        assert_eq!(c("-r a.o b.o -o both.o").action, Action::SharedLink);
        assert_eq!(c("a.o -Wl,-shared -o libx.so").action, Action::SharedLink);
        assert_eq!(
            c("a.o -Wl,--as-needed,-shared -o l.so").action,
            Action::SharedLink
        );
        assert_eq!(
            c("a.o -Xlinker -shared -o libx.so").action,
            Action::SharedLink
        );
        // -shared with -c is still a compile.
        assert_eq!(c("-shared -c lib.c").action, Action::Compile);
    }

    #[test]
    fn linker_arguments_are_not_inputs() {
        let cl = c("main.o -Wl,-rpath,/opt/lib -Xlinker --gc-sections -Xlinker -Map=x.map -o p");
        assert_eq!(paths(&cl), vec![("main.o", Linker)]);
        let cl = c("main.o -L /opt/lib -l m -T link.ld -u sym -z now -o p");
        assert_eq!(paths(&cl), vec![("main.o", Linker)]);
        let cl = c("main.o -L/opt/lib -lm -lfoo /usr/lib/libz.a libq.so.1");
        assert_eq!(
            paths(&cl),
            vec![
                ("main.o", Linker),
                ("/usr/lib/libz.a", Linker),
                ("libq.so.1", Linker)
            ]
        );
        assert_eq!(cl.action, Action::Link);
    }

    #[test]
    fn objects_and_libraries_only() {
        let cl = c("a.o b.o libc.a -o app");
        assert_eq!(cl.action, Action::Link);
        assert!(!cl.has_instrumentable_source());
        assert_eq!(cl.compiled_inputs().count(), 0);
    }

    #[test]
    fn language_override_with_x() {
        let cl = c("-x c weird.txt -x none other.o");
        assert_eq!(paths(&cl), vec![("weird.txt", Source), ("other.o", Linker)]);
        assert_eq!(cl.trailing_language, None);
        let cl = c("-xc++ a.inl -c");
        assert_eq!(paths(&cl), vec![("a.inl", Source)]);
        assert_eq!(cl.trailing_language.as_deref(), Some("c++"));
        let cl = c("-x assembler-with-cpp start.txt -c");
        assert_eq!(paths(&cl), vec![("start.txt", OtherCompiled)]);
        let cl = c("--language=c q.dat -c");
        assert_eq!(paths(&cl), vec![("q.dat", Source)]);
        // A -x only applies to inputs after it.
        let cl = c("before.o -x c after.src");
        assert_eq!(
            paths(&cl),
            vec![("before.o", Linker), ("after.src", Source)]
        );
    }

    #[test]
    fn stdin_input() {
        let cl = c("-x c - -c -o out.o");
        assert_eq!(paths(&cl), vec![("-", Source)]);
        assert_eq!(cl.action, Action::Compile);
        assert_eq!(cl.output.as_deref(), Some("out.o"));
        let cl = c("-E -x c++ -");
        assert_eq!(cl.action, Action::Preprocess);
        assert_eq!(paths(&cl), vec![("-", Source)]);
    }

    #[test]
    fn source_extensions() {
        for (f, k) in [
            ("a.c", Source),
            ("a.cc", Source),
            ("a.cpp", Source),
            ("a.cxx", Source),
            ("a.C", Source),
            ("a.c++", Source),
            ("a.i", Source),
            ("a.ii", Source),
            ("a.ll", Source),
            ("a.bc", Source),
            ("a.s", OtherCompiled),
            ("a.S", OtherCompiled),
            ("a.h", OtherCompiled),
            ("a.f90", OtherCompiled),
            ("a.o", Linker),
            ("liba.a", Linker),
            ("liba.so", Linker),
            ("liba.so.1.2", Linker),
            ("noext", Linker),
            ("dir.d/x.o", Linker),
        ] {
            assert_eq!(input_kind(f, None), k, "{f}");
        }
    }

    #[test]
    fn queries_pass_through() {
        assert_eq!(c("--version").action, Action::Query);
        assert_eq!(c("-v").action, Action::Query);
        assert_eq!(c("-dumpversion").action, Action::Query);
        assert_eq!(c("-print-search-dirs").action, Action::Query);
        assert_eq!(c("-print-file-name=libc.a").action, Action::Query);
        assert_eq!(c("--print-prog-name=ld").action, Action::Query);
        assert_eq!(c("").action, Action::Query);
        assert_eq!(c("-O2 -Wall").action, Action::Query);
        // --version wins even with inputs (clang prints the version and stops).
        assert_eq!(c("--version foo.c").action, Action::Query);
        // -v with inputs is a verbose build (CMake parses it), not a query.
        assert_eq!(c("-v foo.c -o foo").action, Action::Link);
        assert_eq!(c("-### -c foo.c").action, Action::Compile);
    }

    #[test]
    fn debug_levels() {
        assert_eq!(c("-c a.c").debug, None);
        assert_eq!(c("-g -c a.c").debug, Some(DebugLevel::Full));
        assert_eq!(c("-g3 -c a.c").debug, Some(DebugLevel::Full));
        assert_eq!(c("-ggdb -c a.c").debug, Some(DebugLevel::Full));
        assert_eq!(c("-gdwarf-4 -c a.c").debug, Some(DebugLevel::Full));
        assert_eq!(c("-g1 -c a.c").debug, Some(DebugLevel::LineTables));
        assert_eq!(
            c("-gline-tables-only -c a.c").debug,
            Some(DebugLevel::LineTables)
        );
        assert_eq!(
            c("-gline-directives-only -c a.c").debug,
            Some(DebugLevel::LineDirectives)
        );
        assert_eq!(c("-g -g0 -c a.c").debug, Some(DebugLevel::None));
        assert_eq!(c("-g0 -g -c a.c").debug, Some(DebugLevel::Full));
        assert_eq!(c("-ggdb0 -c a.c").debug, Some(DebugLevel::None));
        // Modifiers do not set a level.
        assert_eq!(c("-gsplit-dwarf -gz -gno-column-info -c a.c").debug, None);
        assert_eq!(c("-g -gsplit-dwarf -c a.c").debug, Some(DebugLevel::Full));
    }

    #[test]
    fn include_and_define_values_are_not_inputs() {
        let cl = c("-I inc -isystem sys -include pre.h -D X=1 -U Y -c a.c");
        assert_eq!(paths(&cl), vec![("a.c", Source)]);
        let cl = c("-Xclang -load -Xclang plug.so -mllvm -x=1 -c a.c");
        assert_eq!(paths(&cl), vec![("a.c", Source)]);
        assert_eq!(cl.trailing_language, None);
        let cl = c("-target x86_64-linux-gnu --sysroot /sr -c a.c");
        assert_eq!(paths(&cl), vec![("a.c", Source)]);
    }

    #[test]
    fn multiple_sources_and_mixed_inputs() {
        let cl = c("a.c b.cpp start.S lib.o -lm -o app");
        assert_eq!(cl.action, Action::Link);
        assert_eq!(cl.compiled_inputs().count(), 3);
        assert!(cl.has_instrumentable_source());
        let cl = c("start.S -c");
        assert!(!cl.has_instrumentable_source());
    }

    #[test]
    fn lto_is_noticed() {
        assert!(c("-flto -c a.c").lto);
        assert!(c("-flto=thin -c a.c").lto);
        assert!(!c("-flto -fno-lto -c a.c").lto);
    }
}
