//! The modeler benchmark end to end on two seeds: our modeler and the real Extra-P 4.2.5
//! (PyPI package `extrap`, installed by `make setup`; the test fails, naming it, when it
//! is missing) on the same generated text files; the taint prior's targets met, and
//! Extra-P's models actually read.

use taintprof_bench::modeler::suite::{Role, SPECS};
use taintprof_bench::modeler::{extrap, run, to_json, ModelerOptions};

#[test]
fn small_modeler_benchmark_with_extrap() {
    if let Err(e) = extrap::locate() {
        panic!("{e:#}");
    }
    let dir = std::env::temp_dir().join(format!("tp-modeler-bench-{}", std::process::id()));
    let r = run(&ModelerOptions {
        seeds: 2,
        first_seed: 1,
        json: None,
        dir: Some(dir.clone()),
        threads: Some(2),
    })
    .unwrap();
    assert_eq!(r.cases.len(), 2 * SPECS.len());
    // The files Extra-P read are there.
    assert!(dir.join("seed-1.txt").is_file() && dir.join("seed-2.txt").is_file());
    let _ = std::fs::remove_dir_all(&dir);

    // Extra-P's models were parsed: every function has one, the kernels' depend on
    // their parameters.
    let kernels: Vec<_> = r.cases.iter().filter(|c| c.role().is_kernel()).collect();
    assert!(r.cases.iter().all(|c| !c.outcomes[0].display.is_empty()));
    let with_terms = kernels.iter().filter(|c| c.outcomes[0].uses_params).count();
    assert!(
        with_terms * 10 >= kernels.len() * 9,
        "Extra-P's models of {with_terms} of {} kernels use a parameter",
        kernels.len()
    );
    assert!(r.figures[0].error_median.is_finite() && r.figures[0].error_median > 0.0);
    assert!(r.figures[0].exact.of == kernels.len() && r.figures[0].seconds > 0.0);

    // The prior's targets.
    let p = &r.figures[2];
    assert_eq!(p.false_dependencies.count, 0, "false dependencies");
    assert_eq!(p.false_dependencies.of, 2 * 3);
    assert!(
        p.exact.count * 10 >= p.exact.of * 9,
        "exact structures {} of {}",
        p.exact.count,
        p.exact.of
    );
    let flagged = p.flagged.unwrap();
    assert_eq!(
        (flagged.count, flagged.of),
        (4, 4),
        "contended kernels flagged"
    );
    let alarms = p.false_alarms.unwrap();
    assert!(
        alarms.of >= 20 && alarms.count * 100 <= alarms.of,
        "{alarms:?}"
    );
    assert!(
        p.error_median <= r.figures[0].error_median,
        "median extrapolation error {} vs Extra-P's {}",
        p.error_median,
        r.figures[0].error_median
    );
    assert!(r.targets.iter().all(|t| t.met), "{:?}", r.targets);
    for c in r.cases.iter().filter(|c| c.role() == Role::Constant) {
        assert!(!c.outcomes[2].uses_params);
    }

    let j = to_json(&r, "test");
    assert_eq!(j["figures"]["prior"]["false_dependencies"]["count"], 0);
    assert_eq!(j["cases"].as_array().unwrap().len(), r.cases.len());
    assert!(j["cases"][0]["models"]["extrap"]["model"]
        .as_str()
        .is_some_and(|s| !s.is_empty()));
}
