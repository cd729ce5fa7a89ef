//! Extra-P's experiment file (`.extra-p`), written: the measurements and named sets of
//! models that Extra-P 4.2.5's GUI and command line open (`extrap --experiment FILE`,
//! `extrap.fileio.experiment_io.read_experiment`).
//!
//! The file is a zip archive holding one member, `experiment.json`: the marshmallow
//! serialization of Extra-P's `Experiment` (`extrap/entities/experiment.py`,
//! `ExperimentSchema`), version key `"Extra-P": "4.2.5"`:
//!
//! * `parameters`: the names;
//! * `measurements`: `{callpath: {metric: [{coordinate, median, mean, minimum, maximum,
//!   std, repetitions, values}]}}` (`MeasurementSchema`; `values: null`, so no
//!   `values/*.vals` members are needed: Extra-P keeps only the statistics unless told
//!   `--keep-values`);
//! * `modelers`: one per model set, `{name, modeler, models: {callpath: {metric:
//!   {hypothesis, annotations}}}}` (`ModelGeneratorSchema`): the modeler is recorded as
//!   Extra-P's own (`SingleParameterModeler` or `MultiParameterModeler` with its default
//!   options) so that Extra-P can remodel from the GUI; the hypothesis is a
//!   `SingleParameterHypothesis`, `MultiParameterHypothesis` or `ConstantHypothesis` with
//!   the fit's RSS, SMAPE (%) and adjusted R² (`AR2`), the function's terms as
//!   `CompoundTerm`s of `polynomial` and `logarithm` simple terms (exponents that are
//!   fractions with small denominators as strings, `"3/2"`, as Extra-P writes its
//!   `Fraction`s).
//!
//! The archive is written stored (no compression) with CRC-32 checksums: Extra-P writes
//! deflated members, but reads any method `zipfile` knows.

use serde_json::{json, Map, Value};

use crate::experiment::Experiment;
use crate::fit::FitStats;
use crate::model::Model;

/// The Extra-P version the file says it was written by (its readers warn about newer
/// files, not older ones).
pub const EXTRAP_VERSION: &str = "4.2.5";

/// The member holding the experiment.
pub const DATA_FILE: &str = "experiment.json";

/// One model of a set: the call path and metric it belongs to, the model over the
/// experiment's parameters (`Factor::param` indexes `Experiment::params`), its fit.
#[derive(Clone, Debug)]
pub struct SetModel<'a> {
    pub callpath: &'a str,
    pub metric: &'a str,
    pub model: &'a Model,
    pub stats: &'a FitStats,
}

/// A named set of models (an Extra-P "model set", a `ModelGenerator`).
#[derive(Clone, Debug)]
pub struct ModelSet<'a> {
    pub name: &'a str,
    pub models: Vec<SetModel<'a>>,
}

fn number(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else if v.is_nan() {
        json!("nan")
    } else if v > 0.0 {
        json!("inf")
    } else {
        json!("-inf")
    }
}

/// An exponent as Extra-P's `Fraction` string when it is one with a denominator up to
/// 12 (`"2"`, `"3/2"`), else a number.
fn exponent(e: f64) -> Value {
    for q in 1..=12i64 {
        let p = e * q as f64;
        if (p - p.round()).abs() < 1e-9 {
            let p = p.round() as i64;
            return if q == 1 {
                json!(p.to_string())
            } else {
                json!(format!("{p}/{q}"))
            };
        }
    }
    json!(e)
}

/// Mean, median, min, max and population standard deviation (numpy's defaults).
fn statistics(reps: &[f64]) -> (f64, f64, f64, f64, f64) {
    let n = reps.len() as f64;
    let mean = reps.iter().sum::<f64>() / n;
    let mut sorted = reps.to_vec();
    sorted.sort_by(f64::total_cmp);
    let k = sorted.len();
    let median = if k % 2 == 1 {
        sorted[k / 2]
    } else {
        (sorted[k / 2 - 1] + sorted[k / 2]) / 2.0
    };
    let var = reps.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    (mean, median, sorted[0], sorted[k - 1], var.sqrt())
}

/// The simple terms of one parameter: `x^exponent` and `log2(x)^log_exponent`.
fn simple_terms(exp: f64, log: u32) -> Vec<Value> {
    let mut v = Vec::new();
    if exp != 0.0 {
        v.push(json!({"term_type": "polynomial", "exponent": exponent(exp)}));
    }
    if log > 0 {
        v.push(json!({"term_type": "logarithm", "exponent": exponent(f64::from(log))}));
    }
    v
}

/// Each term's factors merged per parameter (a product of powers of one parameter is
/// one compound term in Extra-P): `(param, exponent, log exponent)` in parameter order.
fn merged_factors(t: &crate::model::Term) -> Vec<(usize, f64, u32)> {
    let mut out: Vec<(usize, f64, u32)> = Vec::new();
    for f in &t.factors {
        match out.iter_mut().find(|(p, _, _)| *p == f.param) {
            Some(e) => {
                e.1 += f.exponent;
                e.2 += f.log_exponent;
            }
            None => out.push((f.param, f.exponent, f.log_exponent)),
        }
    }
    out.sort_by_key(|e| e.0);
    out
}

fn hypothesis(m: &SetModel, n_params: usize) -> Value {
    let mut h = Map::new();
    let constant = m.model.terms.is_empty();
    let function = if constant {
        json!({"constant_coefficient": number(m.model.constant), "$type": "ConstantFunction"})
    } else if n_params == 1 {
        let terms: Vec<Value> = m
            .model
            .terms
            .iter()
            .map(|t| {
                let simple: Vec<Value> = merged_factors(t)
                    .into_iter()
                    .flat_map(|(_, e, l)| simple_terms(e, l))
                    .collect();
                json!({"coefficient": number(t.coefficient), "simple_terms": simple})
            })
            .collect();
        json!({"constant_coefficient": number(m.model.constant), "compound_terms": terms,
               "$type": "SingleParameterFunction"})
    } else {
        let terms: Vec<Value> = m
            .model
            .terms
            .iter()
            .map(|t| {
                let mut pairs = Map::new();
                for (p, e, l) in merged_factors(t) {
                    pairs.insert(
                        p.to_string(),
                        json!({"coefficient": 1.0, "simple_terms": simple_terms(e, l)}),
                    );
                }
                json!({"coefficient": number(t.coefficient), "parameter_term_pairs": pairs})
            })
            .collect();
        json!({"constant_coefficient": number(m.model.constant), "compound_terms": terms,
               "$type": "MultiParameterFunction"})
    };
    h.insert("function".into(), function);
    h.insert("RSS".into(), number(m.stats.rss));
    h.insert("rRSS".into(), json!(0.0));
    h.insert("nRSS".into(), json!(0.0));
    h.insert("SMAPE".into(), number(m.stats.smape));
    if !constant {
        // ConstantHypothesisSchema loads AR2 as the constant 1 and does not dump it.
        h.insert("AR2".into(), number(m.stats.adj_r2));
    }
    h.insert("RE".into(), json!(0.0));
    h.insert("_use_median".into(), json!(false));
    h.insert("_use_measure".into(), json!("MEAN"));
    h.insert("_costs_are_calculated".into(), json!(true));
    let kind = if constant {
        "ConstantHypothesis"
    } else if n_params == 1 {
        "SingleParameterHypothesis"
    } else {
        "MultiParameterHypothesis"
    };
    h.insert("$type".into(), json!(kind));
    Value::Object(h)
}

fn modeler(n_params: usize) -> Value {
    if n_params == 1 {
        json!({
            "use_median": false, "use_measure": "MEAN", "allow_log_terms": true,
            "use_crossvalidation": true, "compare_with_RSS": false,
            "minimum_term_contribution": 0.0005, "poly_exponents": "", "log_exponents": "",
            "retain_default_exponents": false, "force_combination_exponents": false,
            "allow_negative_exponents": false, "$type": "SingleParameterModeler"
        })
    } else {
        json!({
            "use_median": false, "use_measure": "MEAN",
            "single_parameter_point_selection": "auto",
            "allow_combinations_of_sums_and_products": true, "compare_with_RSS": false,
            "$type": "MultiParameterModeler"
        })
    }
}

/// The `experiment.json` document (see the module comment).
pub fn experiment_json(exp: &Experiment, sets: &[ModelSet]) -> Value {
    let mut measurements = Map::new();
    for s in &exp.series {
        let mut data = s.data.clone();
        data.sort_by_key(|(i, _)| *i);
        let list: Vec<Value> = data
            .iter()
            .filter(|(_, reps)| !reps.is_empty())
            .map(|(i, reps)| {
                let (mean, median, min, max, std) = statistics(reps);
                json!({
                    "coordinate": exp.points[*i].iter().map(|&c| number(c)).collect::<Vec<_>>(),
                    "median": number(median), "mean": number(mean), "minimum": number(min),
                    "maximum": number(max), "std": number(std), "repetitions": reps.len(),
                    "values": Value::Null,
                })
            })
            .collect();
        let entry = measurements
            .entry(s.callpath.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(m) = entry {
            m.insert(s.metric.clone(), Value::Array(list));
        }
    }
    let n = exp.params.len();
    let modelers: Vec<Value> = sets
        .iter()
        .map(|set| {
            let mut models = Map::new();
            for m in &set.models {
                if exp.series(m.callpath, m.metric).is_none() {
                    // Extra-P attaches every model to its measurements.
                    continue;
                }
                let entry = models
                    .entry(m.callpath.to_string())
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(o) = entry {
                    o.insert(
                        m.metric.to_string(),
                        json!({"hypothesis": hypothesis(m, n), "annotations": []}),
                    );
                }
            }
            json!({"name": set.name, "modeler": modeler(n), "models": models})
        })
        .collect();
    json!({
        "Extra-P": EXTRAP_VERSION,
        "parameters": exp.params,
        "measurements": measurements,
        "modelers": modelers,
    })
}

/// The `.extra-p` file's bytes: a zip archive with `experiment.json`.
pub fn write_experiment(exp: &Experiment, sets: &[ModelSet]) -> Vec<u8> {
    let doc = experiment_json(exp, sets);
    let text = serde_json::to_string(&doc).expect("JSON of numbers and strings");
    stored_zip(&[(DATA_FILE, text.as_bytes())])
}

/// CRC-32 (IEEE 802.3, reflected, as zip uses).
pub fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, e) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *e = c;
    }
    let mut c = 0xFFFF_FFFFu32;
    for &b in data {
        c = table[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
    }
    c ^ 0xFFFF_FFFF
}

/// A zip archive of `files`, stored (method 0), without zip64 (each member and the
/// archive below 4 GiB), dated 1980-01-01 so that the same input gives the same bytes.
pub fn stored_zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    fn u16le(out: &mut Vec<u8>, v: u16) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    fn u32le(out: &mut Vec<u8>, v: u32) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    const TIME: u16 = 0;
    const DATE: u16 = 1 << 5 | 1; // 1980-01-01
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in files {
        let offset = out.len() as u32;
        let crc = crc32(data);
        let size = data.len() as u32;
        // Local file header.
        u32le(&mut out, 0x0403_4b50);
        u16le(&mut out, 20); // version needed
        u16le(&mut out, 1 << 11); // flags: UTF-8 names
        u16le(&mut out, 0); // stored
        u16le(&mut out, TIME);
        u16le(&mut out, DATE);
        u32le(&mut out, crc);
        u32le(&mut out, size);
        u32le(&mut out, size);
        u16le(&mut out, name.len() as u16);
        u16le(&mut out, 0); // extra
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        // Central directory entry.
        u32le(&mut central, 0x0201_4b50);
        u16le(&mut central, 0x0314); // made by: Unix, 2.0
        u16le(&mut central, 20);
        u16le(&mut central, 1 << 11);
        u16le(&mut central, 0);
        u16le(&mut central, TIME);
        u16le(&mut central, DATE);
        u32le(&mut central, crc);
        u32le(&mut central, size);
        u32le(&mut central, size);
        u16le(&mut central, name.len() as u16);
        u16le(&mut central, 0); // extra
        u16le(&mut central, 0); // comment
        u16le(&mut central, 0); // disk
        u16le(&mut central, 0); // internal attributes
        u32le(&mut central, 0o100644 << 16); // external: a regular file, rw-r--r--
        u32le(&mut central, offset);
        central.extend_from_slice(name.as_bytes());
    }
    let cd_offset = out.len() as u32;
    let cd_size = central.len() as u32;
    out.extend_from_slice(&central);
    u32le(&mut out, 0x0605_4b50);
    u16le(&mut out, 0);
    u16le(&mut out, 0);
    u16le(&mut out, files.len() as u16);
    u16le(&mut out, files.len() as u16);
    u32le(&mut out, cd_size);
    u32le(&mut out, cd_offset);
    u16le(&mut out, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Factor, Term};

    #[test]
    fn crc32_of_known_strings() {
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
    }

    #[test]
    fn zip_layout() {
        let z = stored_zip(&[("a.txt", b"hello")]);
        assert_eq!(&z[..4], b"PK\x03\x04");
        assert_eq!(&z[30..35], b"a.txt");
        assert_eq!(&z[35..40], b"hello");
        let end = &z[z.len() - 22..];
        assert_eq!(&end[..4], b"PK\x05\x06");
        let cd_offset = u32::from_le_bytes(end[16..20].try_into().unwrap()) as usize;
        assert_eq!(cd_offset, 40);
        assert_eq!(&z[40..44], b"PK\x01\x02");
    }

    #[test]
    fn experiment_document() {
        let mut e = Experiment::new(vec!["n".into(), "m".into()]);
        e.add("main", "time", &[4.0, 1.0], &[1.0, 3.0]);
        e.add("main", "time", &[2.0, 1.0], &[1.0]);
        let model = Model {
            constant: 1.0,
            terms: vec![Term {
                coefficient: 0.5,
                factors: vec![
                    Factor {
                        param: 0,
                        exponent: 1.5,
                        log_exponent: 1,
                    },
                    Factor {
                        param: 1,
                        exponent: 1.0,
                        log_exponent: 0,
                    },
                ],
            }],
        };
        let stats = FitStats {
            rss: 0.0,
            smape: 1.0,
            adj_r2: 0.5,
            cv_smape: None,
            lack_of_fit_p: None,
        };
        let set = ModelSet {
            name: "taint prior",
            models: vec![SetModel {
                callpath: "main",
                metric: "time",
                model: &model,
                stats: &stats,
            }],
        };
        let d = experiment_json(&e, &[set]);
        assert_eq!(d["Extra-P"], "4.2.5");
        let ms = &d["measurements"]["main"]["time"];
        assert_eq!(ms[0]["coordinate"], json!([4.0, 1.0]));
        assert_eq!(ms[0]["mean"], 2.0);
        assert_eq!(ms[0]["std"], 1.0);
        assert_eq!(ms[0]["repetitions"], 2);
        let h = &d["modelers"][0]["models"]["main"]["time"]["hypothesis"];
        assert_eq!(h["$type"], "MultiParameterHypothesis");
        let t = &h["function"]["compound_terms"][0];
        assert_eq!(t["coefficient"], 0.5);
        assert_eq!(
            t["parameter_term_pairs"]["0"]["simple_terms"],
            json!([{"term_type": "polynomial", "exponent": "3/2"},
                   {"term_type": "logarithm", "exponent": "1"}])
        );
    }
}
