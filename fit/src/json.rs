//! One model as JSON, and the document of several (`taintprof.model`, version 1; the
//! schema is docs/model-schema.md).

use serde_json::{json, Map, Value};

use crate::{FitResult, WarningKind};

/// The schema's name and version.
pub const SCHEMA: &str = "taintprof.model";
pub const VERSION: u64 = 1;

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
        "prior": if r.prior { "taint" } else { "none" },
    })
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
        assert_eq!(v["prior"], "taint");
        let doc = models_document(vec![v]);
        assert_eq!(doc["version"], 1);
        assert_eq!(doc["schema"], "taintprof.model");
        assert!(warning_kinds().contains(&"noisy"));
    }
}
