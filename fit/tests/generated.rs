//! The modeler on generated measurements with known truth: 5 values per parameter,
//! 5 repetitions, 5–20% uniform multiplicative noise (the level drawn per data set from
//! its seed). Every test uses fixed seeds, so every run sees the same numbers.

use taintprof_fit::gen::{generate, XorShift};
use taintprof_fit::{
    black_box, model_json, with_prior, FitResult, Measurements, Model, Prior, WarningKind,
};

const VALUES: [f64; 5] = [10.0, 20.0, 30.0, 40.0, 50.0];

/// Two parameters `n`, `m` on VALUES × VALUES.
fn two(seed: u64, truth: impl Fn(f64, f64) -> f64) -> Measurements {
    let mut rng = XorShift::new(seed);
    let noise = rng.range(0.05, 0.20);
    generate(
        &["n", "m"],
        &[VALUES.to_vec(), VALUES.to_vec()],
        5,
        noise,
        |c| truth(c[0], c[1]),
        &mut rng,
    )
}

/// `terms`: each a list of (params, power).
fn prior(params: &[&str], terms: &[&[(&[&str], u32)]]) -> Prior {
    Prior::of(params, terms)
}

/// A model's structure: its non-zero terms, each a sorted list of
/// (parameter, exponent × 12, log exponent), sorted.
type Structure = Vec<Vec<(usize, i64, u32)>>;

fn structure(m: &Model) -> Structure {
    let mut s: Structure = m
        .terms
        .iter()
        .filter(|t| t.coefficient > 0.0)
        .map(|t| {
            let mut f: Vec<_> = t
                .factors
                .iter()
                .filter(|f| f.exponent != 0.0 || f.log_exponent != 0)
                .map(|f| (f.param, (f.exponent * 12.0).round() as i64, f.log_exponent))
                .collect();
            f.sort();
            f
        })
        .collect();
    s.sort();
    s
}

/// Structure from (param, exponent, log exponent) triples per term.
fn want(terms: &[&[(usize, f64, u32)]]) -> Structure {
    let mut s: Structure = terms
        .iter()
        .map(|t| {
            let mut f: Vec<_> = t
                .iter()
                .map(|&(p, e, l)| (p, (e * 12.0).round() as i64, l))
                .collect();
            f.sort();
            f
        })
        .collect();
    s.sort();
    s
}

fn show(r: &FitResult, m: &Measurements) -> String {
    format!(
        "{} (volume adequate: {:?}, warnings: {:?})",
        r.model.display(&m.params),
        r.volume_adequate,
        r.warnings
            .iter()
            .map(|w| (w.kind, w.parameter.clone()))
            .collect::<Vec<_>>()
    )
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

#[test]
fn constant_function() {
    let mut false_deps = 0;
    for seed in 0..10 {
        let m = two(seed, |_, _| 5.0);
        let r = with_prior(&m, &prior(&[], &[])).unwrap();
        assert!(r.model.terms.is_empty(), "seed {seed}: {}", show(&r, &m));
        let s = r.spread.as_ref().unwrap();
        assert!(rel(s.mean, 5.0) < 0.05, "seed {seed}: mean {}", s.mean);
        assert!(s.cv > 0.0 && s.cv < 0.2);
        assert!(
            !r.warnings
                .iter()
                .any(|w| w.kind == WarningKind::ContradictsPrior),
            "seed {seed}: {}",
            show(&r, &m)
        );
        let b = black_box(&m).unwrap();
        if !b.model.terms.is_empty() {
            false_deps += 1;
        }
        eprintln!(
            "constant, seed {seed}: black box {}",
            b.model.display(&m.params)
        );
    }
    eprintln!("constant functions: black box false dependencies {false_deps} of 10, prior 0 of 10");
}

#[test]
fn product_with_prior_exact() {
    let p = prior(&["n", "m"], &[&[(&["n"], 2), (&["m"], 1)]]);
    for seed in 0..10 {
        let m = two(100 + seed, |n, mm| 2.0 + 0.5 * n * n * mm);
        let r = with_prior(&m, &p).unwrap();
        assert_eq!(
            structure(&r.model),
            want(&[&[(0, 2.0, 0), (1, 1.0, 0)]]),
            "seed {seed}: {}",
            show(&r, &m)
        );
        let c = r.model.terms[0].coefficient;
        assert!(rel(c, 0.5) < 0.10, "seed {seed}: coefficient {c}");
        // Prediction at twice the largest n.
        let at = [100.0, 50.0];
        let e = rel(r.model.eval(&at), 2.0 + 0.5 * 100.0 * 100.0 * 50.0);
        assert!(e < 0.15, "seed {seed}: extrapolation error {e}");
        let j = model_json("main->solve", "time", &m.params, &r);
        assert_eq!(j["params"], serde_json::json!(["n", "m"]));
        assert_eq!(j["prior"]["used"], true);
        assert_eq!(j["terms"][0]["factors"][0]["exponent"], 2.0);
        assert_eq!(j["fit"]["volume_adequate"].as_bool(), r.volume_adequate);
    }
}

#[test]
fn n_log_n_black_box() {
    let mut exact = 0;
    let seeds = 10;
    for seed in 0..seeds {
        let mut rng = XorShift::new(200 + seed);
        let noise = rng.range(0.05, 0.20);
        let m = generate(
            &["n"],
            &[vec![16.0, 64.0, 256.0, 1024.0, 4096.0]],
            5,
            noise,
            |c| c[0] * c[0].log2(),
            &mut rng,
        );
        let r = black_box(&m).unwrap();
        let s = structure(&r.model);
        eprintln!(
            "n log n, seed {seed} (noise {noise:.3}): {}",
            r.model.display(&m.params)
        );
        if s == want(&[&[(0, 1.0, 1)]]) {
            exact += 1;
            let e = rel(r.model.eval(&[8192.0]), 8192.0 * 13.0);
            assert!(e < 0.15, "seed {seed}: extrapolation error {e}");
        }
        if seed == 0 {
            assert_eq!(s, want(&[&[(0, 1.0, 1)]]), "{}", show(&r, &m));
        }
    }
    eprintln!("n log n black box: exact {exact} of {seeds}");
    assert!(exact >= 6, "exact {exact} of {seeds}");
}

#[test]
fn volume_exponents_fail_and_search_finds_one_and_a_half() {
    // The volume says n + m (trip counts), the time is n^1.5 + m. Exponent pairs near
    // 1.5 (n^(4/3)*log2(n), n*log2(n)^2) differ from it by about the noise on a short
    // range, so n spans 16..4096 (ratio of n^1.5 to n^(4/3)*log2(n): 17% over the range;
    // on 10..50 it is 13%, and 12 of 20 seeds are exact, reported below).
    let p = prior(&["n", "m"], &[&[(&["n"], 1)], &[(&["m"], 1)]]);
    let want_s = want(&[&[(0, 1.5, 0)], &[(1, 1.0, 0)]]);
    for (label, ns, at_least) in [
        ("n in 16..4096", vec![16.0, 64.0, 256.0, 1024.0, 4096.0], 17),
        ("n in 10..50", VALUES.to_vec(), 0),
    ] {
        let mut exact = 0;
        for seed in 0..20 {
            let mut rng = XorShift::new(300 + seed);
            let noise = rng.range(0.05, 0.20);
            let truth = |c: &[f64]| c[0].powf(1.5) + c[1];
            let m = generate(
                &["n", "m"],
                &[ns.clone(), VALUES.to_vec()],
                5,
                noise,
                truth,
                &mut rng,
            );
            let r = with_prior(&m, &p).unwrap();
            assert_eq!(
                r.volume_adequate,
                Some(false),
                "{label} seed {seed}: {}",
                show(&r, &m)
            );
            // The m term keeps the volume's exponent in every case.
            assert!(
                structure(&r.model).contains(&vec![(1, 12, 0)]),
                "{label} seed {seed}: {}",
                show(&r, &m)
            );
            if structure(&r.model) == want_s {
                exact += 1;
                let at = [2.0 * ns[4], 50.0];
                let e = rel(r.model.eval(&at), truth(&at));
                assert!(e < 0.15, "{label} seed {seed}: extrapolation error {e}");
            }
            if seed == 0 && at_least > 0 {
                assert_eq!(
                    structure(&r.model),
                    want_s,
                    "{label} seed 0: {}",
                    show(&r, &m)
                );
            }
        }
        eprintln!("n^1.5 + m with prior n + m, {label}: exact {exact} of 20");
        assert!(exact >= at_least, "{label}: exact {exact} of 20");
    }
}

#[test]
fn contended_kernel_flagged() {
    // Time grows with p (contention), the taint says only n.
    let p = prior(&["n"], &[&[(&["n"], 2)]]);
    for seed in 0..10 {
        let mut rng = XorShift::new(400 + seed);
        let noise = rng.range(0.05, 0.20);
        let m = generate(
            &["n", "p"],
            &[VALUES.to_vec(), vec![2.0, 4.0, 8.0, 16.0, 32.0]],
            5,
            noise,
            |c| c[0] * c[0] * (1.0 + 0.1 * c[1].log2()),
            &mut rng,
        );
        let r = with_prior(&m, &p).unwrap();
        let flagged: Vec<_> = r
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::ContradictsPrior)
            .collect();
        assert_eq!(flagged.len(), 1, "seed {seed}: {}", show(&r, &m));
        assert_eq!(flagged[0].parameter.as_deref(), Some("p"));
    }
}

#[test]
fn control_kernel_not_flagged() {
    let p = prior(&["n"], &[&[(&["n"], 2)]]);
    let mut alarms = 0;
    for seed in 0..20 {
        let mut rng = XorShift::new(500 + seed);
        let noise = rng.range(0.05, 0.20);
        let m = generate(
            &["n", "p"],
            &[VALUES.to_vec(), vec![2.0, 4.0, 8.0, 16.0, 32.0]],
            5,
            noise,
            |c| c[0] * c[0],
            &mut rng,
        );
        let r = with_prior(&m, &p).unwrap();
        if r.warnings
            .iter()
            .any(|w| w.kind == WarningKind::ContradictsPrior)
        {
            alarms += 1;
        }
        assert_eq!(
            structure(&r.model),
            want(&[&[(0, 2.0, 0)]]),
            "seed {seed}: {}",
            show(&r, &m)
        );
    }
    eprintln!("control kernels: {alarms} false alarms of 20");
    assert!(alarms <= 1, "{alarms} false alarms of 20");
}

/// Figures: generated kernels, exact structure with the prior vs black box.
#[test]
fn kernel_suite_figures() {
    type Truth = fn(f64, f64) -> f64;
    let kernels: Vec<(&str, Truth, Prior, Structure)> = vec![
        (
            "n^2*m",
            |n, m| 1.0 + 0.5 * n * n * m,
            prior(&["n", "m"], &[&[(&["n"], 2), (&["m"], 1)]]),
            want(&[&[(0, 2.0, 0), (1, 1.0, 0)]]),
        ),
        (
            "n+m",
            |n, m| 3.0 * n + 2.0 * m,
            prior(&["n", "m"], &[&[(&["n"], 1)], &[(&["m"], 1)]]),
            want(&[&[(0, 1.0, 0)], &[(1, 1.0, 0)]]),
        ),
        (
            "n^2",
            |n, _| 5.0 + n * n,
            prior(&["n"], &[&[(&["n"], 2)]]),
            want(&[&[(0, 2.0, 0)]]),
        ),
        (
            "n*m^2",
            |n, m| 0.1 * n * m * m,
            prior(&["n", "m"], &[&[(&["n"], 1), (&["m"], 2)]]),
            want(&[&[(0, 1.0, 0), (1, 2.0, 0)]]),
        ),
        (
            "n^3",
            |n, _| 1e-3 * n * n * n,
            prior(&["n"], &[&[(&["n"], 3)]]),
            want(&[&[(0, 3.0, 0)]]),
        ),
        (
            "n^1.5+m",
            |n, m| n.powf(1.5) + m,
            prior(&["n", "m"], &[&[(&["n"], 1)], &[(&["m"], 1)]]),
            want(&[&[(0, 1.5, 0)], &[(1, 1.0, 0)]]),
        ),
        (
            "n*log2(n)*m",
            |n, m| n * n.log2() * m,
            prior(&["n", "m"], &[&[(&["n"], 1), (&["m"], 1)]]),
            want(&[&[(0, 1.0, 1), (1, 1.0, 0)]]),
        ),
        (
            "n^2+n*m",
            |n, m| n * n + 4.0 * n * m,
            prior(&["n", "m"], &[&[(&["n"], 2)], &[(&["n"], 1), (&["m"], 1)]]),
            want(&[&[(0, 2.0, 0)], &[(0, 1.0, 0), (1, 1.0, 0)]]),
        ),
    ];
    let seeds = 10;
    let (mut prior_exact, mut bb_exact, mut total) = (0, 0, 0);
    for (k, (name, truth, p, s)) in kernels.iter().enumerate() {
        let (mut pe, mut be) = (0, 0);
        for seed in 0..seeds {
            let m = two(1000 + 100 * k as u64 + seed, truth);
            let r = with_prior(&m, p).unwrap();
            let b = black_box(&m).unwrap();
            pe += usize::from(structure(&r.model) == *s);
            be += usize::from(structure(&b.model) == *s);
            if structure(&r.model) != *s {
                eprintln!("  {name} seed {seed}: prior gave {}", show(&r, &m));
            }
        }
        eprintln!("{name}: prior exact {pe}/{seeds}, black box {be}/{seeds}");
        prior_exact += pe;
        bb_exact += be;
        total += seeds as usize;
    }
    eprintln!("kernels: prior exact {prior_exact} of {total}, black box {bb_exact} of {total}");
    assert!(
        prior_exact * 10 >= total * 9,
        "prior exact {prior_exact} of {total}"
    );
}

/// Figures for the validity warning: 10 contended kernels of each of two shapes, and 200
/// kernels the prior describes correctly (target: at most 1% false alarms).
#[test]
fn contradiction_figures() {
    let p = prior(&["n"], &[&[(&["n"], 2)]]);
    let ps = vec![2.0, 4.0, 8.0, 16.0, 32.0];
    let contended: [fn(f64, f64) -> f64; 2] = [
        |n, p| n * n * (1.0 + 0.1 * p.log2()),
        |n, p| n * n + 2.0 * n * p,
    ];
    let mut flagged = 0;
    for (k, truth) in contended.iter().enumerate() {
        for seed in 0..10 {
            let mut rng = XorShift::new(600 + 100 * k as u64 + seed);
            let noise = rng.range(0.05, 0.20);
            let m = generate(
                &["n", "p"],
                &[VALUES.to_vec(), ps.clone()],
                5,
                noise,
                |c| truth(c[0], c[1]),
                &mut rng,
            );
            let r = with_prior(&m, &p).unwrap();
            flagged += usize::from(r.warnings.iter().any(|w| {
                w.kind == WarningKind::ContradictsPrior && w.parameter.as_deref() == Some("p")
            }));
        }
    }
    let mut alarms = 0;
    for seed in 0..200 {
        let mut rng = XorShift::new(10_000 + seed);
        let noise = rng.range(0.05, 0.20);
        let m = generate(
            &["n", "p"],
            &[VALUES.to_vec(), ps.clone()],
            5,
            noise,
            |c| 3.0 + c[0] * c[0],
            &mut rng,
        );
        let r = with_prior(&m, &p).unwrap();
        alarms += usize::from(
            r.warnings
                .iter()
                .any(|w| w.kind == WarningKind::ContradictsPrior),
        );
    }
    eprintln!("contended kernels flagged: {flagged} of 20; false alarms: {alarms} of 200");
    assert_eq!(flagged, 20);
    assert!(alarms <= 2, "{alarms} false alarms of 200");
}
