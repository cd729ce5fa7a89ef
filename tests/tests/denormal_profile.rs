//! End to end, the denormal mode's profile tier (`taintprof-cc --tp-denormal=profile`,
//! issue 26): the instruction profile and the creator sites for long runs, without
//! arrays, heatmaps or origins. Every count it reports must be the full tier's, at -O0
//! and -O3, and the two levels must agree.

use serde_json::Value;
use taintprof_tests::*;

const FULL: &str = "--tp-mode=denormal";
const PROFILE: &str = "--tp-denormal=profile";

fn u(v: &Value) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("expected an integer, got {v}"))
}

fn list(r: &Value, key: &str) -> Vec<Value> {
    r[key]
        .as_array()
        .unwrap_or_else(|| panic!("no `{key}` array in the report: {r}"))
        .clone()
}

fn creator_lines(r: &Value) -> Vec<(u64, String, u64)> {
    let mut v: Vec<(u64, String, u64)> = list(r, "creator_sites")
        .iter()
        .map(|c| {
            (
                u(&c["line"]),
                c["op"].as_str().unwrap().to_string(),
                u(&c["created"]),
            )
        })
        .collect();
    v.sort();
    v
}

/// Builds `src` in both tiers at -O0 and -O3, runs each with `args`, and checks that
/// the profile tier says what it is, leaves out what it does not trace, and counts
/// every site exactly as the full tier does; with `levels_agree`, also that -O0 and
/// -O3 give the same profile (not so where -O3 removes loads the source has, as in
/// `dn_ops_mix.c`). Returns the profile tier's reports.
fn both_tiers(src: &str, args: &[&str], levels_agree: bool) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for opt in ["-O0", "-O3"] {
        let full = compile(&[src], opt, &[FULL]);
        let prof = compile(&[src], opt, &[PROFILE]);
        let (rf, rp) = (full.run(args), prof.run(args));
        assert!(rf.output.status.success(), "{}", rf.stderr());
        assert!(rp.output.status.success(), "{}", rp.stderr());
        assert_eq!(
            rf.stdout(),
            rp.stdout(),
            "{src} {opt}: the program's output"
        );
        let (f, p) = (rf.denormal_report(), rp.denormal_report());
        assert_eq!(f["tier"], "full", "{src} {opt}");
        assert_eq!(p["tier"], "profile", "{src} {opt}");
        assert!(
            u(&f["totals"]["denormal_results"]) > 0,
            "{src} {opt}: nothing denormal to compare: {}",
            f["totals"]
        );
        assert!(
            !list(&f, "arrays").is_empty(),
            "{src} {opt}: full tier arrays"
        );
        for key in ["arrays", "origins", "origin_maps", "creators"] {
            assert!(
                list(&p, key).is_empty(),
                "{src} {opt}: the profile tier has no `{key}`: {}",
                p[key]
            );
        }
        assert_eq!(f["totals"], p["totals"], "{src} {opt}: totals");
        assert_eq!(
            denormal_site_rows(&f),
            denormal_site_rows(&p),
            "{src} {opt}: the instruction profiles of the two tiers"
        );
        assert_eq!(
            creator_lines(&f),
            creator_lines(&p),
            "{src} {opt}: creator sites"
        );
        assert!(p["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|w| !w.to_string().contains("tier")));
        let mut p = p;
        p["__path"] = Value::String(rp.denormal_reports[0].display().to_string());
        out.push((opt.to_string(), p));
    }
    if levels_agree {
        assert_eq!(
            denormal_site_rows(&out[0].1),
            denormal_site_rows(&out[1].1),
            "{src}: the profile tier at -O0 and -O3"
        );
    }
    assert_eq!(creator_lines(&out[0].1), creator_lines(&out[1].1), "{src}");
    out
}

/// A creator in a callee, its denormals returned, stored to the heap, copied with
/// memcpy and carried on through an argument: the creator site is `shrink`'s multiply
/// and nothing else, with one denormal made per element whose `i % 16` is not 15.
#[test]
fn the_profile_tier_counts_calls_copies_and_the_creator_like_the_full_tier() {
    let src = "dn_profile.c";
    let path = [programs_dir().join(src)];
    let shrink = line_of_marker(&path, "@shrink");
    for (opt, r) in both_tiers(src, &["4096"], true) {
        let c = creator_lines(&r);
        assert_eq!(
            c,
            [(shrink, "fmul".to_string(), 4096 / 16 * 15)],
            "[{opt}] creator sites: {}",
            r["creator_sites"]
        );
        // The text and the HTML say which tier made the report and name the creator.
        let json = r["__path"].as_str().unwrap().to_string();
        let text =
            run_ok_text(std::process::Command::new(taintprof_bin()).args(["denormals", &json]));
        assert!(
            text.contains("  tier     profile (instruction profile and creator sites;"),
            "[{opt}] {text}"
        );
        let creators = text
            .split("Creator sites:")
            .nth(1)
            .unwrap_or_else(|| panic!("[{opt}] no Creator sites section:\n{text}"));
        assert!(
            creators.contains(&format!("dn_profile.c:{shrink}:")) && creators.contains("3,840"),
            "[{opt}] {creators}"
        );
        assert!(!text.contains("\nArrays"), "[{opt}] {text}");
        let html = scratch_dir("dn_profile_html");
        run_ok_text(
            std::process::Command::new(taintprof_bin())
                .args(["denormals", &json, "--html"])
                .arg(&html),
        );
        let page = std::fs::read_to_string(html.join("index.html")).unwrap();
        assert!(
            page.contains("<dt>tier</dt><dd>profile (") && page.contains("Creator sites"),
            "[{opt}] {page}"
        );
        let grow = line_of_marker(&path, "@grow");
        let carried: u64 = list(&r, "sites")
            .iter()
            .filter(|s| s["line"] == grow)
            .map(|s| u(&s["denormal_operands"]))
            .sum();
        assert!(carried >= 4096 / 16 * 15, "[{opt}] {}", r["sites"]);
    }
}

/// The stencil (vectorized at -O3, with a scalar remainder), a mix of every kind of
/// operation site (conversions, fma, libm calls, comparisons) and the creator chain
/// through a libm call and a memcpy.
#[test]
fn the_profile_tier_keeps_the_instruction_profile_of_the_full_tier() {
    both_tiers("jacobi_dn.c", &["0.0", "120", "254"], true);
    both_tiers("dn_ops_mix.c", &[], false);
    let src = "creator_chain.c";
    let expf = line_of_marker(&[programs_dir().join(src)], "@expf");
    for (opt, r) in both_tiers(src, &[], false) {
        let lines: Vec<u64> = creator_lines(&r).iter().map(|c| c.0).collect();
        assert_eq!(lines, [expf], "[{opt}] {}", r["creator_sites"]);
    }
}
