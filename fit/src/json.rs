//! One model as JSON, the entry `taintprof model` writes around it (the prior it was
//! matched with, the black-box model beside it, a prediction), and the document of
//! several (`taintprof.model`, version 2; the schema is docs/model-schema.md).

use serde_json::{json, Map, Value};

use crate::{FitResult, WarningKind};

/// The schema's name and version.
pub const SCHEMA: &str = "taintprof.model";
pub const VERSION: u64 = 2;

fn number(v: f64) -> Value {
    // JSON has no NaN or infinity.
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// The JSON object of one model (docs/model-schema.md, "Model"); `params` are the
/// measurements' parameter names, which the model's indices refer to.
pub fn model_json(callpath: &str, metric: &str, params: &[String], r: &FitResult) -> Value {
    let name = |i: usize| params.get(i).cloned().unwrap_or_default();
    let terms: Vec<Value> = r
        .model
        .terms
        .iter()
        .map(|t| {
            json!({
                "coefficient": number(t.coefficient),
                "factors": t.factors.iter().map(|f| json!({
                    "parameter": name(f.param),
                    "exponent": number(f.exponent),
                    "log_exponent": f.log_exponent,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut fit = Map::new();
    fit.insert("smape".into(), number(r.stats.smape));
    fit.insert("adj_r2".into(), number(r.stats.adj_r2));
    fit.insert("rss".into(), number(r.stats.rss));
    if let Some(v) = r.stats.cv_smape {
        fit.insert("cv_smape".into(), number(v));
    }
    if let Some(v) = r.stats.lack_of_fit_p {
        fit.insert("lack_of_fit_p".into(), number(v));
    }
    if let Some(s) = &r.spread {
        fit.insert("mean".into(), number(s.mean));
        fit.insert("cv".into(), number(s.cv));
    }
    if r.loop_levels {
        fit.insert("loop_levels".into(), Value::Bool(true));
    }
    if let Some(a) = r.volume_adequate {
        fit.insert("volume_adequate".into(), Value::Bool(a));
    }
    let warnings: Vec<Value> = r
        .warnings
        .iter()
        .map(|w| {
            let mut o = Map::new();
            o.insert("kind".into(), Value::String(w.kind.name().into()));
            if let Some(p) = &w.parameter {
                o.insert("parameter".into(), Value::String(p.clone()));
            }
            if let Some(pt) = &w.point {
                let coords: Map<String, Value> = pt
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (name(i), number(v)))
                    .collect();
                o.insert("point".into(), Value::Object(coords));
            }
            o.insert("detail".into(), Value::String(w.detail.clone()));
            Value::Object(o)
        })
        .collect();
    json!({
        "callpath": callpath,
        "metric": metric,
        "model": r.model.display(params),
        "params": r.model.params().into_iter().map(name).collect::<Vec<_>>(),
        "constant_term": number(r.model.constant),
        "terms": terms,
        "fit": Value::Object(fit),
        "warnings": warnings,
        "prior": { "used": r.prior },
    })
}

/// How a measured call path found its taint prior (docs/model-schema.md, `prior`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PriorInfo {
    /// Whether the model was fitted with the prior.
    pub used: bool,
    /// `"callpath"` (a context of the report with this call path), `"name"` (the
    /// function of the call path's last element, its contexts' volumes joined) or
    /// `"none"`.
    pub matched_by: &'static str,
    /// The report's function (its `name`).
    pub function: Option<String>,
    /// Whether the prior says the metric is constant (no parameter left).
    pub constant: bool,
    /// The volume the prior used, as text.
    pub volume: Option<String>,
    /// Parameters of the prior the measurements do not vary: held fixed, dropped.
    pub held_fixed: Vec<String>,
}

/// A prediction at one point: the point, the model's value, the black-box model's.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    pub point: Vec<(String, f64)>,
    pub value: f64,
    pub black_box: Option<f64>,
}

/// One entry of `taintprof model --json`, what [`model_entry`] writes.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    pub callpath: &'a str,
    pub metric: &'a str,
    /// The measurements' parameter names.
    pub params: &'a [String],
    /// The prior's model, or the black box when no prior was used.
    pub model: &'a FitResult,
    /// The black-box model beside a prior's model (`None` when `model` is it).
    pub black_box: Option<&'a FitResult>,
    pub prior: &'a PriorInfo,
    /// Warnings of the command (`tainted_branch`), appended to the model's.
    pub extra_warnings: &'a [Value],
    pub prediction: Option<&'a Prediction>,
}

/// The JSON of an [`Entry`]: `model_json` of its model with `prior` set from the match,
/// the black-box model (without `callpath`, `metric`, `prior`) under `black_box` (or
/// `null`), the extra warnings appended to `warnings`, and `prediction` when one was
/// asked for.
pub fn model_entry(e: &Entry) -> Value {
    let (callpath, metric, params, info) = (e.callpath, e.metric, e.params, e.prior);
    let (black_box, extra_warnings, prediction) = (e.black_box, e.extra_warnings, e.prediction);
    let mut v = model_json(callpath, metric, params, e.model);
    let o = v.as_object_mut().expect("an object");
    if let Some(Value::Array(w)) = o.get_mut("warnings") {
        w.extend(extra_warnings.iter().cloned());
    }
    let mut p = Map::new();
    p.insert("used".into(), Value::Bool(info.used));
    p.insert("matched_by".into(), Value::String(info.matched_by.into()));
    p.insert(
        "function".into(),
        info.function.clone().map_or(Value::Null, Value::String),
    );
    p.insert("constant".into(), Value::Bool(info.constant));
    p.insert(
        "volume".into(),
        info.volume.clone().map_or(Value::Null, Value::String),
    );
    p.insert("held_fixed".into(), json!(info.held_fixed));
    o.insert("prior".into(), Value::Object(p));
    let bb = black_box.map_or(Value::Null, |b| {
        let mut m = model_json(callpath, metric, params, b);
        if let Some(m) = m.as_object_mut() {
            m.shift_remove("callpath");
            m.shift_remove("metric");
            m.shift_remove("prior");
        }
        m
    });
    o.insert("black_box".into(), bb);
    if let Some(pr) = prediction {
        let point: Map<String, Value> = pr
            .point
            .iter()
            .map(|(k, x)| (k.clone(), number(*x)))
            .collect();
        o.insert(
            "prediction".into(),
            json!({
                "point": point,
                "value": number(pr.value),
                "black_box": pr.black_box.map_or(Value::Null, number),
            }),
        );
    }
    v
}

/// The document of several models.
pub fn models_document(models: Vec<Value>) -> Value {
    json!({ "schema": SCHEMA, "version": VERSION, "models": models })
}

/// The warning kinds of this schema version, by their JSON names.
pub fn warning_kinds() -> [&'static str; 3] {
    [
        WarningKind::ContradictsPrior.name(),
        WarningKind::Noisy.name(),
        WarningKind::NoRepetitions.name(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::FitStats;
    use crate::{Factor, Model, Term, Warning};

    #[test]
    fn schema_keys_and_values() {
        let params = vec!["n".to_string(), "p".to_string()];
        let r = FitResult {
            model: Model {
                constant: 2.0,
                terms: vec![Term {
                    coefficient: 0.5,
                    factors: vec![Factor {
                        param: 0,
                        exponent: 2.0,
                        log_exponent: 1,
                    }],
                }],
            },
            stats: FitStats {
                rss: 1.5,
                smape: 3.25,
                adj_r2: 0.99,
                cv_smape: Some(4.0),
                lack_of_fit_p: Some(0.5),
            },
            prior: true,
            spread: None,
            volume_adequate: Some(true),
            loop_levels: false,
            warnings: vec![
                Warning {
                    kind: WarningKind::ContradictsPrior,
                    parameter: Some("p".into()),
                    point: None,
                    detail: "d".into(),
                },
                Warning {
                    kind: WarningKind::Noisy,
                    parameter: None,
                    point: Some(vec![8.0, 2.0]),
                    detail: "e".into(),
                },
            ],
        };
        let v = model_json("main->solve", "time", &params, &r);
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "callpath",
                "metric",
                "model",
                "params",
                "constant_term",
                "terms",
                "fit",
                "warnings",
                "prior"
            ]
        );
        assert_eq!(v["prior"], json!({"used": true}));
        assert_eq!(v["model"], "2 + 0.5 * n^2 * log2(n)");
        assert_eq!(v["params"], json!(["n"]));
        assert_eq!(v["constant_term"], 2.0);
        assert_eq!(
            v["terms"],
            json!([{"coefficient": 0.5, "factors": [{"parameter": "n", "exponent": 2.0, "log_exponent": 1}]}])
        );
        assert_eq!(v["fit"]["smape"], 3.25);
        assert_eq!(v["fit"]["adj_r2"], 0.99);
        assert_eq!(v["fit"]["rss"], 1.5);
        assert_eq!(v["fit"]["volume_adequate"], true);
        assert_eq!(
            v["warnings"][0],
            json!({"kind": "contradicts_prior", "parameter": "p", "detail": "d"})
        );
        assert_eq!(v["warnings"][1]["point"], json!({"n": 8.0, "p": 2.0}));
        let info = PriorInfo {
            used: true,
            matched_by: "name",
            function: Some("solve".into()),
            constant: false,
            volume: Some("n^2".into()),
            held_fixed: vec!["q".into()],
        };
        let extra = [json!({"kind": "tainted_branch", "parameter": "n", "detail": "b"})];
        let pr = Prediction {
            point: vec![("n".into(), 10.0), ("p".into(), 1.0)],
            value: 52.0,
            black_box: Some(50.0),
        };
        let e = model_entry(&Entry {
            callpath: "main->solve",
            metric: "time",
            params: &params,
            model: &r,
            black_box: Some(&r),
            prior: &info,
            extra_warnings: &extra,
            prediction: Some(&pr),
        });
        assert_eq!(e["prior"]["matched_by"], "name");
        assert_eq!(e["prior"]["held_fixed"], json!(["q"]));
        assert_eq!(e["warnings"][2]["kind"], "tainted_branch");
        assert_eq!(e["black_box"]["model"], "2 + 0.5 * n^2 * log2(n)");
        assert!(e["black_box"].get("callpath").is_none());
        assert_eq!(e["prediction"]["point"], json!({"n": 10.0, "p": 1.0}));
        assert_eq!(e["prediction"]["black_box"], 50.0);
        let doc = models_document(vec![v]);
        assert_eq!(doc["version"], 2);
        assert_eq!(doc["schema"], "taintprof.model");
        assert!(warning_kinds().contains(&"noisy"));
    }
}
