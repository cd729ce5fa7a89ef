//! `taintprof denormals`, `taintprof dip` and the denormal side of `taintprof run` and
//! `taintprof bench`, run as processes.
//!
//! Reports come from hand-made fixtures (`fixtures/make-denormal-fixtures.py`): a
//! jacobi-like compiler-mode report (two arrays, origins both ways, snapshots), a
//! facerec-like expf creator chain, an exceptions-mode report with a timeline. The
//! `dip` tests at the end compile a small stencil with plain clang-19 and run it under
//! the real profiler; they fail, naming what is missing, when clang-19 or
//! `libtaintprof_dip.so` (built by `make build`: `scripts/build-dip.sh`) is absent or
//! older than its sources.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use taintprof_driver::denormal::{self, html, image};

const TAINTPROF: &str = env!("CARGO_BIN_EXE_taintprof");

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// `<tmp>/taintprof-denormals-<name>-<pid>`, kept for inspection; the next run removes it
/// once this process is gone.
fn tempdir(name: &str) -> PathBuf {
    common::scratch_dir("denormals", name)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Copies a fixture into `dir` (so the report is named without a path).
fn copy(dir: &Path, name: &str) {
    std::fs::copy(fixture(name), dir.join(name)).unwrap();
}

fn taintprof_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(TAINTPROF)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// A clear one-line error, a non-zero status, no panic.
#[track_caller]
fn assert_clean_error(out: &Output, needle: &str) {
    let err = text(&out.stderr);
    assert!(!out.status.success(), "expected failure; stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{err}");
    assert!(err.contains(needle), "expected `{needle}` in: {err}");
}

#[track_caller]
fn golden(report: &str, want: &str) {
    let dir = tempdir(&format!("golden-{report}"));
    copy(&dir, report);
    let out = taintprof_in(&dir, &["denormals", report]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let want = std::fs::read_to_string(fixture(want)).unwrap();
    let got = text(&out.stdout);
    if got != want {
        let at = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{report}: output differs from {} at line {}:\n got: {:?}\nwant: {:?}\n\nfull output:\n{got}",
            want.len(),
            at + 1,
            got.lines().nth(at),
            want.lines().nth(at)
        );
    }
}

#[test]
fn compiler_mode_jacobi_golden_text() {
    golden("jacobi.77.denormal.json", "jacobi.denormals.txt");
    let want = std::fs::read_to_string(fixture("jacobi.denormals.txt")).unwrap();
    // What a reader must find, whatever the layout.
    for needle in [
        "mode     compiler",
        "Instruction profile: 10 sites with denormals in 2 functions",
        "    jacobi.c:22:51  fadd   <4 x float>",
        "  b      heap  float   512×512",
        "propagates  main (jacobi.c:47)",
        "no denormals in 1 array: weights",
        "stored into ↓  loaded from →",
        "a and b pass denormals back and forth",
        "a: 2,200,400 denormals created by fmul in sweep at jacobi.c:22",
        "chain: a ← b (220,040) ← a (225,232): a cycle",
        "Over time: 4 snapshots",
        "  3  exit        201,326,592",
    ] {
        assert!(want.contains(needle), "missing `{needle}`:\n{want}");
    }
}

#[test]
fn compiler_mode_expf_creator_chain_golden_text() {
    golden("gabor.78.denormal.json", "gabor.denormals.txt");
    let want = std::fs::read_to_string(fixture("gabor.denormals.txt")).unwrap();
    for needle in [
        "kernel: 57,024 denormals created by call expf in compute_kernel at gabor.c:12",
        "fctemp: 43,912 denormals, created by",
        "35,129  80.0%  call expf  in compute_kernel  at gabor.c:12",
        "chain: fctemp ← kernel (42,240) ← created by call expf in compute_kernel at gabor.c:12",
        "kernel  heap  float   256×256  56,320     704  source",
        "fctemp  heap  float   256×256   1,672  42,240  sink",
        "source      few denormal writes, many reads",
        "sink        many denormal writes, few reads",
        "    gabor.c:12:18  call expf  float",
    ] {
        assert!(want.contains(needle), "missing `{needle}`:\n{want}");
    }
}

#[test]
fn exceptions_mode_golden_text() {
    golden("stencil.79.dip.json", "stencil.denormals.txt");
    let want = std::fs::read_to_string(fixture("stencil.denormals.txt")).unwrap();
    for needle in [
        "mode     exceptions",
        "1,699,418 denormal-operand exceptions, 1,566,618 underflow exceptions",
        "Instruction profile: 7 instructions raised denormal exceptions in 3 functions",
        "    0x1328                     addps %xmm3,%xmm4    stencil.c:12:101       351,532",
        "  __printf_fphex  [libc.so.6]",
        "Over time: denormal exceptions per 100 ms (1.20 s run)",
        "     500       414,497         382,105  ██████████████████████████████",
        "  - no debug information for /usr/lib/x86_64-linux-gnu/libc.so.6",
    ] {
        assert!(want.contains(needle), "missing `{needle}`:\n{want}");
    }
    // No arrays section in exceptions mode: the profiler cannot see arrays.
    assert!(!want.contains("Arrays:"), "{want}");
}

#[test]
fn top_limits_the_sites_and_says_so() {
    let dir = tempdir("top");
    copy(&dir, "stencil.79.dip.json");
    let out = taintprof_in(&dir, &["denormals", "stencil.79.dip.json", "--top", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("(top 2 shown)"), "{s}");
    assert!(s.contains("0x1328") && s.contains("0x1318"), "{s}");
    assert!(!s.contains("0x1310"), "{s}");
    assert!(s.contains("… 3 instructions more"), "{s}");
    assert!(s.contains("… 5 instructions more with "), "{s}");
    assert!(s.contains("--top 0 shows all"), "{s}");
    let all = taintprof_in(&dir, &["denormals", "stencil.79.dip.json", "--top", "0"]);
    assert!(text(&all.stdout).contains("0x55cb4"));
}

#[test]
fn json_is_normalized() {
    let dir = tempdir("json");
    copy(&dir, "jacobi.77.denormal.json");
    let out = taintprof_in(&dir, &["denormals", "jacobi.77.denormal.json", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    for k in [
        "file",
        "program",
        "pid",
        "command",
        "exit",
        "mode",
        "fp_environment",
        "totals",
        "functions",
        "sites_total",
        "arrays",
        "origins",
        "origin_matrix",
        "creators",
        "snapshots",
        "timeline",
        "warnings",
    ] {
        assert!(keys.contains(&k), "missing {k} in {keys:?}");
    }
    assert_eq!(v["mode"], "compiler");
    assert_eq!(v["exit"], "exited with code 0");
    assert_eq!(v["functions"][0]["function"], "sweep");
    assert_eq!(v["functions"][0]["sites"][0]["source"], "jacobi.c:22:51");
    assert_eq!(v["functions"][0]["sites"][0]["type"], "<4 x float>");
    assert_eq!(v["arrays"][0]["role"], "propagates");
    assert!(v["arrays"][0]["reading"]
        .as_str()
        .unwrap()
        .contains("not their source"));
    assert_eq!(v["origin_matrix"], serde_json::json!(["b", "a"]));
    assert_eq!(v["creators"][0]["creators"][0]["op"], "fmul");
    assert_eq!(v["snapshots"]["rows"].as_array().unwrap().len(), 4);
    assert_eq!(v["snapshots"]["arrays"], serde_json::json!(["b", "a"]));
    assert!(v["timeline"].is_null());
    // Exceptions mode: the timeline, no arrays.
    copy(&dir, "stencil.79.dip.json");
    let out = taintprof_in(&dir, &["denormals", "stencil.79.dip.json", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["mode"], "exceptions");
    assert_eq!(v["timeline"]["row_ms"], 100);
    assert_eq!(v["timeline"]["rows"].as_array().unwrap().len(), 12);
    assert!(v["totals"]["fp_operations"].is_null());
    assert_eq!(
        v["functions"][2]["module"],
        "/usr/lib/x86_64-linux-gnu/libc.so.6"
    );
}

fn decode(path: &Path) -> (u32, u32, Vec<u8>) {
    let f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut r = png::Decoder::new(f).read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn pixel(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 3] {
    let i = ((y * img.0 + x) * 3) as usize;
    [img.2[i], img.2[i + 1], img.2[i + 2]]
}

#[test]
fn html_pages_and_pictures() {
    let dir = tempdir("html");
    copy(&dir, "jacobi.77.denormal.json");
    let out = taintprof_in(
        &dir,
        &["denormals", "jacobi.77.denormal.json", "--html", "pages"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("pages/index.html and 8 pictures"),
        "{}",
        text(&out.stderr)
    );
    let pages = dir.join("pages");
    let index = std::fs::read_to_string(pages.join("index.html")).unwrap();
    let pngs = [
        "sites.png",
        "heat-1-a.png",
        "heat-1-a-total.png",
        "heat-2-b.png",
        "heat-2-b-total.png",
        "origin-0-a-from-b.png",
        "origin-1-b-from-a.png",
        "over-time.png",
    ];
    for p in pngs {
        assert!(pages.join(p).is_file(), "{p}");
        assert!(
            index.contains(&format!("src=\"{p}\"")),
            "{p} not referenced"
        );
    }
    // Self-contained: inline CSS, no scripts, nothing fetched.
    assert!(index.contains("<style>"));
    assert!(!index.contains("<script"));
    assert!(!index.contains("http://") && !index.contains("https://"));
    assert!(!index.contains("<link"));
    // The same tables as the text.
    for needle in [
        "jacobi.c:22:51",
        "&lt;4 x float&gt;",
        "propagates",
        "Backward chain: <b>a</b> ← b (220,040) ← a (225,232)",
        "iter 384",
    ] {
        assert!(index.contains(needle), "missing {needle}");
    }

    // The heatmap strip of `a`: four frames of a 32×32 grid enlarged to 256×256, each
    // coloured where the snapshot's interval has counts and dark where it has none.
    let r = denormal::load(&dir.join("jacobi.77.denormal.json")).unwrap();
    let frames = html::frames_of(&r, 1);
    assert_eq!(frames.len(), 4);
    let (cv, rects) = image::heat_strip("a over time", "sub", &frames);
    let img = decode(&pages.join("heat-1-a.png"));
    assert_eq!((img.0, img.1), (cv.w, cv.h));
    assert!(img.0 >= 4 * 256 && img.1 >= 256, "{}x{}", img.0, img.1);
    for (f, rect) in frames.iter().zip(&rects) {
        assert_eq!((rect.w, rect.h), (256, 256));
        let g = &f.grid;
        let s = g.scale();
        assert_eq!(s, 8);
        let mut lit = 0;
        for row in 0..g.rows {
            for col in 0..g.cols {
                let k = (row * g.cols + col) as usize;
                let p = pixel(&img, rect.x + col * s + s / 2, rect.y + row * s + s / 2);
                if g.a[k] + g.b[k] > 0 {
                    assert_ne!(p, image::EMPTY_CELL, "cell {row},{col} of {}", f.label);
                    assert!(p[0] > 80, "reads are red: {p:?}");
                    lit += 1;
                } else {
                    assert_eq!(p, image::EMPTY_CELL, "cell {row},{col} of {}", f.label);
                }
            }
        }
        assert!(lit > 0, "{}", f.label);
    }
    // Origin maps: one colour where the map counts.
    let om = decode(&pages.join("origin-0-a-from-b.png"));
    let m = &r.origin_maps[0];
    let g = image::Grid::new(m.rows, m.cols, &m.cell, &m.counts, &[]).unwrap();
    let (cv, rect) = image::single_map("t", "s", "c", &g, image::ORIGIN);
    assert_eq!((om.0, om.1), (cv.w, cv.h));
    let k = g.a.iter().position(|&c| c > 0).unwrap() as u32;
    let (row, col) = (k / g.cols, k % g.cols);
    let p = pixel(
        &om,
        rect.x + col * g.scale() + 1,
        rect.y + row * g.scale() + 1,
    );
    assert_ne!(p, image::EMPTY_CELL);
    assert_eq!(pixel(&om, rect.x + 1, rect.y + 1), image::EMPTY_CELL);
    // Charts decode and are not blank.
    for p in ["sites.png", "over-time.png"] {
        let c = decode(&pages.join(p));
        assert!(c.2.chunks(3).any(|px| px == image::READ), "{p}");
    }
}

#[test]
fn html_for_an_exceptions_report_has_the_timeline() {
    let dir = tempdir("html-exc");
    copy(&dir, "stencil.79.dip.json");
    let out = taintprof_in(
        &dir,
        &[
            "denormals",
            "stencil.79.dip.json",
            "--html",
            "out",
            "--top",
            "3",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let index = std::fs::read_to_string(dir.join("out/index.html")).unwrap();
    assert!(index.contains("src=\"over-time.png\""));
    assert!(index.contains("src=\"sites.png\""));
    assert!(index.contains("addps %xmm3,%xmm4"));
    let chart = decode(&dir.join("out/over-time.png"));
    // Operand exceptions red, underflow exceptions blue.
    assert!(chart.2.chunks(3).any(|px| px == image::READ));
    assert!(chart.2.chunks(3).any(|px| px == image::WRITE));
    // No array pictures in exceptions mode.
    assert!(!dir.join("out/heat-1-a.png").exists());
}

#[test]
fn ftz_daz_is_a_prominent_warning() {
    let dir = tempdir("ftz");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("stencil.79.dip.json")).unwrap())
            .unwrap();
    v["fp_environment"]["ftz"] = true.into();
    v["fp_environment"]["daz"] = true.into();
    v["fp_environment"]["mxcsr"] = "0x9fc0".into();
    std::fs::write(dir.join("fast.5.dip.json"), v.to_string()).unwrap();
    let out = taintprof_in(&dir, &["denormals", "fast.5.dip.json", "--html", "h"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("  !! FTZ and DAZ are set (MXCSR 0x9fc0): denormal results are flushed to zero and denormal inputs read as zero — there is nothing to trace,"),
        "{s}"
    );
    assert!(s.contains("FTZ) ON, denormals-are-zero (DAZ) ON"), "{s}");
    let index = std::fs::read_to_string(dir.join("h/index.html")).unwrap();
    assert!(index.contains("class=\"alarm\""));
}

#[test]
fn denormals_errors_are_one_clear_line() {
    let dir = tempdir("errors");
    assert_clean_error(
        &taintprof_in(&dir, &["denormals", "nope.json"]),
        "cannot read nope.json",
    );
    copy(&dir, "matmul.4242.taintprof.json");
    assert_clean_error(
        &taintprof_in(&dir, &["denormals", "matmul.4242.taintprof.json"]),
        "a taint report, not a denormal report: read it with `taintprof report`",
    );
    std::fs::write(
        dir.join("p.1.dip-raw.json"),
        r#"{"schema":"taintprof.dip-raw","version":1}"#,
    )
    .unwrap();
    assert_clean_error(
        &taintprof_in(&dir, &["denormals", "p.1.dip-raw.json"]),
        "a raw report of the exception profiler",
    );
    std::fs::write(
        dir.join("cut.1.denormal.json"),
        r#"{"schema":"taintprof.den"#,
    )
    .unwrap();
    assert_clean_error(
        &taintprof_in(&dir, &["denormals", "cut.1.denormal.json"]),
        "was the report cut short?",
    );
    // A denormal report given to `taintprof report` names the right command.
    copy(&dir, "gabor.78.denormal.json");
    let out = taintprof_in(&dir, &["report", "gabor.78.denormal.json"]);
    assert_clean_error(&out, "read it with `taintprof denormals FILE`");
    // --compare needs the right modes.
    copy(&dir, "stencil.79.dip.json");
    assert_clean_error(
        &taintprof_in(
            &dir,
            &[
                "denormals",
                "stencil.79.dip.json",
                "--compare",
                "stencil.79.dip.json",
            ],
        ),
        "needs a compiler-mode report",
    );
    // An HTML directory that cannot be created.
    std::fs::write(dir.join("file"), "x").unwrap();
    assert_clean_error(
        &taintprof_in(
            &dir,
            &["denormals", "gabor.78.denormal.json", "--html", "file/sub"],
        ),
        "cannot create file/sub",
    );
}

#[test]
fn compare_matches_lines_and_explains_differences() {
    let dir = tempdir("compare");
    // An exceptions report of the jacobi fixture's program: the sweep on lines 22-23.
    let mut exc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("stencil.79.dip.json")).unwrap())
            .unwrap();
    let sites = exc["sites"].as_array_mut().unwrap();
    for (i, s) in sites.iter_mut().enumerate() {
        if s["function"] == "sweep" {
            s["file"] = "/src/jacobi.c".into();
            s["line"] = (if i < 2 { 22 } else { 23 }).into();
        }
    }
    std::fs::write(dir.join("jacobi.80.dip.json"), exc.to_string()).unwrap();
    copy(&dir, "jacobi.77.denormal.json");
    let out = taintprof_in(
        &dir,
        &[
            "denormals",
            "jacobi.80.dip.json",
            "--compare",
            "jacobi.77.denormal.json",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("Comparison by source line: exceptions (jacobi.80.dip.json) vs compiler mode (jacobi.77.denormal.json)"),
        "{s}"
    );
    let cmp = &s[s.find("Comparison by source line").unwrap()..];
    let line22 = cmp
        .lines()
        .find(|l| l.starts_with("  jacobi.c:22 "))
        .unwrap_or_else(|| panic!("{s}"));
    assert!(line22.contains("sweep"), "{line22}");
    assert!(line22.contains("fadd,fmul <4 x float>"), "{line22}");
    assert!(line22.contains("exceptions 3.19× fewer"), "{line22}");
    assert!(s.contains("2× addps"), "{s}");
    // Vector code: exceptions count instructions, the compiler elements.
    assert!(s.contains("v: vector code"), "{s}");
    // checksum's fpext is compiler-only; libc's ucomisd exceptions-only.
    assert!(s.contains("jacobi.c:30"), "{s}");
    assert!(s.contains("compiler only"), "{s}");
    assert!(s.contains("exceptions only"), "{s}");
    assert!(
        s.contains("x: no instrumented operation on this line"),
        "{s}"
    );
    assert!(
        s.contains("note: the reports are of different programs (stencil and jacobi)"),
        "{s}"
    );
    let out = taintprof_in(
        &dir,
        &[
            "denormals",
            "jacobi.80.dip.json",
            "--compare",
            "jacobi.77.denormal.json",
            "--json",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["comparison"]["rows"].as_array().unwrap().len() >= 4);
    assert_eq!(v["summary"]["mode"], "exceptions");
}

/// A shell script that plays an instrumented program: it writes `fixture` as its
/// report into $TAINTPROF_OUT and exits with `code`.
fn fake_program(dir: &Path, fixture_name: &str, report_name: &str, code: i32) -> PathBuf {
    let script = dir.join("fake.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho program output\ncp '{}' \"$TAINTPROF_OUT/{report_name}.$$.denormal.json\"\nexit {code}\n",
            fixture(fixture_name).display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[test]
fn run_summarizes_denormal_reports() {
    let dir = tempdir("run");
    let prog = fake_program(&dir, "gabor.78.denormal.json", "gabor", 3);
    let out = Command::new(TAINTPROF)
        .args(["run", "--out", "reports", "--"])
        .arg(&prog)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "program output\n");
    let err = text(&out.stderr);
    assert!(err.contains("Denormal report: reports/gabor."), "{err}");
    assert!(err.contains("  top sites"), "{err}");
    assert!(
        err.contains("gabor_filter  gabor.c:30:30  fmul float"),
        "{err}"
    );
    assert!(err.contains("kernel  56,320 reads"), "{err}");
    assert!(
        err.contains("full report: taintprof denormals reports/gabor."),
        "{err}"
    );
}

#[test]
fn help_lists_the_new_commands() {
    let out = Command::new(TAINTPROF).arg("--help").output().unwrap();
    let s = text(&out.stdout);
    for c in ["denormals", "dip", "--tp-mode=denormal"] {
        assert!(s.contains(c), "{c}: {s}");
    }
    let out = Command::new(TAINTPROF)
        .args(["dip", "--help"])
        .output()
        .unwrap();
    let s = text(&out.stdout);
    for f in [
        "--underflow",
        "--interval-ms",
        "--out",
        "--compare",
        "--html",
    ] {
        assert!(s.contains(f), "{f}: {s}");
    }
}

#[test]
fn bench_knows_the_denormal_configurations_and_workload() {
    let out = Command::new(TAINTPROF)
        .args(["bench", "--config", "nope"])
        .output()
        .unwrap();
    assert_clean_error(&out, "unknown configuration `nope`");
    let err = text(&out.stderr);
    for c in ["denormal", "valgrind-none", "dip"] {
        assert!(err.contains(c), "{c}: {err}");
    }
    let out = Command::new(TAINTPROF)
        .args(["bench", "--workload", "nope"])
        .output()
        .unwrap();
    assert!(text(&out.stderr).contains("jacobi-denormal"));
    let out = Command::new(TAINTPROF)
        .args(["bench", "--timeout", "0"])
        .output()
        .unwrap();
    assert_clean_error(&out, "--timeout must be at least 1 second");
}

// ---------------------------------------------------------------------------------
// taintprof dip

/// A minimal x86-64 ELF header without PT_INTERP: a statically linked program as far
/// as the check goes (never run).
fn fake_static_elf(path: &Path) {
    let mut b = vec![0u8; 64 + 56];
    b[..4].copy_from_slice(b"\x7fELF");
    b[4] = 2;
    b[5] = 1;
    b[6] = 1;
    b[16] = 2; // ET_EXEC
    b[18..20].copy_from_slice(&62u16.to_le_bytes());
    b[32..40].copy_from_slice(&64u64.to_le_bytes());
    b[54..56].copy_from_slice(&56u16.to_le_bytes());
    b[56..58].copy_from_slice(&1u16.to_le_bytes());
    b[64..68].copy_from_slice(&1u32.to_le_bytes()); // PT_LOAD
    std::fs::write(path, b).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn dip_cli_errors() {
    let dir = tempdir("dip-errors");
    // No program.
    let out = taintprof_in(&dir, &["dip"]);
    assert_clean_error(&out, "PROG ARGS");
    // Program not found.
    assert_clean_error(
        &taintprof_in(&dir, &["dip", "--", "./no-such-program"]),
        "cannot run ./no-such-program: no such file",
    );
    assert_clean_error(
        &taintprof_in(&dir, &["dip", "--", "no-such-program-on-path-xyz"]),
        "not found on PATH",
    );
    // Statically linked.
    fake_static_elf(&dir.join("static"));
    let out = taintprof_in(&dir, &["dip", "--", "./static"]);
    assert_clean_error(&out, "is statically linked (no program interpreter), so LD_PRELOAD cannot load the profiler into it");
    assert_eq!(
        text(&out.stderr).lines().count(),
        1,
        "{}",
        text(&out.stderr)
    );
    // Missing profiler library.
    let out = Command::new(TAINTPROF)
        .args(["dip", "--", "/bin/true"])
        .env("TAINTPROF_DIP_LIB", dir.join("missing.so"))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_clean_error(
        &out,
        "the denormal exception profiler (libtaintprof_dip.so) not found",
    );
    assert!(text(&out.stderr).contains("TAINTPROF_DIP_LIB="));
    // Bad interval.
    assert_clean_error(
        &taintprof_in(&dir, &["dip", "--interval-ms", "0", "--", "/bin/true"]),
        "--interval-ms must be between 1 and 3600000",
    );
    // --compare with a report of the wrong mode fails before running.
    copy(&dir, "stencil.79.dip.json");
    assert_clean_error(
        &taintprof_in(
            &dir,
            &["dip", "--compare", "stencil.79.dip.json", "--", "/bin/true"],
        ),
        "compare with a compiler-mode report",
    );
}

const STENCIL_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static void sweep(float *cur, const float *prev, int n) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      cur[i * n + j] = 0.25f * (prev[(i - 1) * n + j] + prev[(i + 1) * n + j] + prev[i * n + j - 1] + prev[i * n + j + 1]);
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 160;
  int iters = argc > 2 ? atoi(argv[2]) : 90;
  float interior = argc > 3 ? (float)atof(argv[3]) : 0.0f;
  float *a = malloc(sizeof(float) * n * n), *b = malloc(sizeof(float) * n * n);
  for (int i = 0; i < n * n; i++) a[i] = b[i] = interior;
  for (int i = 0; i < n; i++) {
    a[i] = b[i] = a[(n - 1) * n + i] = b[(n - 1) * n + i] = 1.0f;
    a[i * n] = b[i * n] = a[i * n + n - 1] = b[i * n + n - 1] = 1.0f;
  }
  for (int it = 0; it < iters; it++) {
    if (it & 1) sweep(a, b, n);
    else sweep(b, a, n);
  }
  double s = 0;
  for (int i = 0; i < n * n; i++) s += a[i];
  printf("checksum %.9g\n", s);
  return argc > 4 ? atoi(argv[4]) : 0;
}
"#;

/// The line of the stencil statement in [`STENCIL_C`].
const STENCIL_LINE: usize = 6;

/// Builds the stencil with plain clang-19; panics, naming what is missing, if the real
/// dip tests cannot run.
fn real_setup(name: &str) -> PathBuf {
    let lib = taintprof_driver::locate::Locator::new(
        |k| std::env::var_os(k),
        Path::new(TAINTPROF).parent().map(Path::to_path_buf),
        None,
    )
    .dip_lib();
    match lib {
        Ok(so) => taintprof_tests::check_dip_library_at(&so),
        Err(e) => panic!("{name}: {e}\n(run `make build`, or scripts/build-dip.sh)"),
    }
    let dir = tempdir(name);
    std::fs::write(dir.join("stencil.c"), STENCIL_C).unwrap();
    let built = Command::new("clang-19")
        .args(["-g", "-O2", "stencil.c", "-o", "stencil"])
        .current_dir(&dir)
        .output();
    match built {
        Ok(o) if o.status.success() => dir,
        Ok(o) => panic!("clang-19 failed: {}", text(&o.stderr)),
        Err(e) => panic!(
            "{name}: cannot run clang-19 ({e}): run scripts/setup.sh or apt-get install clang-19"
        ),
    }
}

#[test]
fn dip_profiles_a_real_stencil() {
    let dir = real_setup("dip-real");
    let native = Command::new(dir.join("stencil"))
        .current_dir(&dir)
        .output()
        .unwrap();
    let out = taintprof_in(
        &dir,
        &[
            "dip",
            // Every event: the run spans several timeline intervals.
            "--exact",
            "--out",
            "reports",
            "--underflow",
            "--interval-ms",
            "20",
            "--html",
            "pages",
            "--",
            "./stencil",
        ],
    );
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    // The program's output is forwarded, unchanged by the profiler.
    assert_eq!(out.stdout, native.stdout, "{err}");
    assert!(text(&out.stdout).starts_with("checksum "));
    // The tables name the stencil line and its instructions.
    assert!(err.contains("Denormal report: reports/stencil."), "{err}");
    assert!(err.contains("mode     exceptions"), "{err}");
    assert!(err.contains("  sweep"), "{err}");
    assert!(
        err.contains(&format!("stencil.c:{STENCIL_LINE}:")),
        "no site on the stencil line {STENCIL_LINE}:\n{err}"
    );
    assert!(err.contains("ps %xmm") || err.contains("ss %xmm"), "{err}");
    assert!(err.contains("Over time: denormal exceptions per"), "{err}");
    assert!(err.contains("wrote pages/index.html"), "{err}");
    // The symbolized report sits next to the raw one and reads back.
    let reports: Vec<PathBuf> = std::fs::read_dir(dir.join("reports"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    let dip = reports
        .iter()
        .find(|p| p.to_string_lossy().ends_with(".dip.json"))
        .expect("a .dip.json report");
    assert!(reports
        .iter()
        .any(|p| p.to_string_lossy().ends_with(".dip-raw.json")));
    let r = denormal::load(dip).unwrap();
    assert_eq!(r.mode, "exceptions");
    let on_line: u64 = r
        .sites
        .iter()
        .filter(|s| s.line as usize == STENCIL_LINE && s.file.ends_with("stencil.c"))
        .map(|s| s.denormal_operands)
        .sum();
    assert!(on_line > 0, "{:?}", r.sites);
    assert!(r.totals.denormal_results > 0, "--underflow counts results");
    assert!(dir.join("pages/sites.png").is_file());
    assert!(dir.join("pages/over-time.png").is_file());
    // `taintprof denormals` prints the same tables from the file.
    let again = taintprof_in(&dir, &["denormals", &dip.display().to_string()]);
    assert!(text(&again.stdout).contains(&format!("stencil.c:{STENCIL_LINE}:")));
}

#[test]
fn dip_passes_the_exit_status_and_profiles_children() {
    let dir = real_setup("dip-status");
    // A normal interior: no denormals, and the program's exit status comes back.
    let out = taintprof_in(
        &dir,
        &[
            "dip",
            "--out",
            "r1",
            "--",
            "./stencil",
            "160",
            "20",
            "0.5",
            "7",
        ],
    );
    assert_eq!(out.status.code(), Some(7), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("exited with code 7"), "{err}");
    assert!(
        err.contains("Instruction profile: no denormal exceptions"),
        "{err}"
    );
    // A script: the shell and the program it starts are both profiled.
    std::fs::write(
        dir.join("run.sh"),
        "#!/bin/sh\n./stencil 160 90 0\n./stencil 160 20 0.5\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = taintprof_in(&dir, &["dip", "--out", "r2", "--", "./run.sh"]);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("processes wrote reports during the run"),
        "{err}"
    );
    assert!(err.contains(&format!("stencil.c:{STENCIL_LINE}:")), "{err}");
    let dips = std::fs::read_dir(dir.join("r2"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".dip.json"))
        .count();
    // (The shell may exec its last command instead of forking it.)
    assert!(dips >= 2, "{dips}");
}

#[test]
fn odd_reports_do_not_break_the_tables_or_the_pictures() {
    let dir = tempdir("odd");
    // Minimal: no sites, arrays, snapshots; then malformed heatmaps and maps, a
    // signal exit, one timeline bucket, unknown keys and roles.
    let minimal = r#"{"schema":"taintprof.denormal","version":1,"mode":"compiler",
      "program":{"name":"p","path":"/p","pid":1},"exit":{"reason":"running"},
      "fp_environment":{"ftz":false,"daz":false,"mxcsr":"0x1f80","changed_by_program":true},
      "totals":{"fp_operations":0,"denormal_operands":0,"denormal_results":0,
                "denormal_loads":0,"denormal_stores":0},"future_key":{"x":1}}"#;
    std::fs::write(dir.join("p.1.denormal.json"), minimal).unwrap();
    let out = taintprof_in(&dir, &["denormals", "p.1.denormal.json", "--html", "h1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("still running when the report was written"),
        "{s}"
    );
    assert!(
        s.contains("no denormal operands, results, loads or stores"),
        "{s}"
    );
    assert!(s.contains("Arrays: no marked arrays"), "{s}");
    assert!(s.contains("changed by the program during the run"), "{s}");

    let odd = r#"{"schema":"taintprof.denormal","version":1,"mode":"compiler",
      "program":{"name":"q","path":"/q","argv":["./q","a b"],"pid":2},
      "exit":{"reason":"signal","signal":"SIGSEGV","number":11},
      "fp_environment":{"ftz":false,"daz":false,"mxcsr":"0x1f80","changed_by_program":false},
      "totals":{"fp_operations":10,"denormal_operands":3,"denormal_results":0,
                "denormal_loads":0,"denormal_stores":0},
      "sites":[{"function":"f","linkage":"f","file":"","line":0,"column":0,"op":"fadd",
                "type":"float","executions":10,"denormal_operands":3,"denormal_results":0,
                "denormal_loads":0,"denormal_stores":0}],
      "arrays":[{"id":1,"name":"x<&>","kind":"heap","element_type":"float","elements":7,
                 "shape":null,"allocated_at":null,"denormal_reads":5,"denormal_writes":1,
                 "role":"mystery","live":true},
                {"id":2,"name":"","kind":"stack","element_type":"double","elements":0,
                 "denormal_reads":1,"denormal_writes":1,"role":"propagates"}],
      "origins":[{"dest":"x<&>","src":"","count":4},{"dest":"","src":"x<&>","count":0}],
      "creators":[{"array":"x<&>","function":"f","file":"","line":0,"op":"fadd","count":6}],
      "snapshots":[
        {"index":0,"label":"<b>","fp_operations":5,"arrays":[
          {"id":1,"denormal_reads":5,"denormal_writes":1,
           "heatmap":{"rows":3,"cols":3,"cell":[],"reads":[1,2],"writes":[1,2,3,4,5,6,7,8,9,10,11]}},
          {"id":2,"denormal_reads":1,"denormal_writes":1,
           "heatmap":{"rows":0,"cols":3,"cell":[1,1],"reads":[],"writes":[]}}]},
        {"index":1,"label":"exit","fp_operations":3,"arrays":[
          {"id":1,"denormal_reads":2,"denormal_writes":1,
           "heatmap":{"rows":9999999,"cols":9999999,"cell":[1,1],"reads":[],"writes":[]}}]}],
      "origin_maps":[{"dest":"x<&>","src":"","rows":2,"cols":2,"cell":[1],"counts":[4]},
                     {"dest":"x<&>","src":"","rows":1,"cols":1,"cell":[1,1],"counts":[]}],
      "timeline":[{"t_ms":0,"denormal_operands":3,"denormal_results":0}],
      "warnings":["w <1>"]}"#;
    std::fs::write(dir.join("q.2.denormal.json"), odd).unwrap();
    for extra in [&["--json"][..], &["--html", "h2"][..], &["--top", "1"][..]] {
        let mut args = vec!["denormals", "q.2.denormal.json"];
        args.extend_from_slice(extra);
        let out = taintprof_in(&dir, &args);
        assert!(out.status.success(), "{extra:?}: {}", text(&out.stderr));
        assert!(!text(&out.stderr).contains("panicked"));
    }
    let s = text(&taintprof_in(&dir, &["denormals", "q.2.denormal.json"]).stdout);
    assert!(s.contains("killed by SIGSEGV (signal 11)"), "{s}");
    assert!(s.contains("./q 'a b'"), "{s}");
    assert!(s.contains("(no array)"), "{s}");
    let index = std::fs::read_to_string(dir.join("h2/index.html")).unwrap();
    assert!(index.contains("x&lt;&amp;&gt;"), "names are escaped");
    assert!(!index.contains("<b>exit"), "labels are escaped");
    assert!(index.contains("w &lt;1&gt;"));
}

#[test]
fn a_load_as_creator_is_explained() {
    // Denormals found in memory that nothing instrumented computed (uninitialized
    // stack memory in libsamplerate's termination test): the load that first saw them
    // is their creator, and the report says what that means.
    let dir = tempdir("found");
    let report = r#"{"schema":"taintprof.denormal","version":1,"mode":"compiler",
      "program":{"name":"t","path":"/t","pid":3},"exit":{"reason":"exit","code":0},
      "fp_environment":{"ftz":false,"daz":false,"mxcsr":"0x1f80","changed_by_program":false},
      "totals":{"fp_operations":100,"denormal_operands":0,"denormal_results":0,
                "denormal_loads":7,"denormal_stores":0},
      "sites":[{"function":"calc","linkage":"calc","file":"src_sinc.c","line":420,"column":21,
                "op":"load","type":"float","executions":100,"denormal_operands":0,
                "denormal_results":0,"denormal_loads":7,"denormal_stores":0}],
      "arrays":[{"id":1,"name":"buffer","kind":"heap","element_type":"float","elements":64,
                 "denormal_reads":7,"denormal_writes":0,"role":"source"}],
      "creators":[{"array":"buffer","function":"calc","file":"src_sinc.c","line":420,
                   "op":"load","count":7}]}"#;
    std::fs::write(dir.join("t.3.denormal.json"), report).unwrap();
    let out = taintprof_in(&dir, &["denormals", "t.3.denormal.json", "--html", "h"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("created by: load in calc at src_sinc.c:420, already denormal in memory"),
        "{s}"
    );
    assert!(
        s.contains("load or store as creator: the value was already denormal in memory"),
        "{s}"
    );
    let index = std::fs::read_to_string(dir.join("h/index.html")).unwrap();
    assert!(index.contains("Load or store as creator"), "{index}");
    // An operation as creator needs no such note.
    let jacobi = text(
        &taintprof_in(
            &dir,
            &[
                "denormals",
                &fixture("jacobi.77.denormal.json").to_string_lossy(),
            ],
        )
        .stdout,
    );
    assert!(!jacobi.contains("as creator"), "{jacobi}");
}
