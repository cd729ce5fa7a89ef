//! Extra-P's JSON input formats, read and written (issue 25, "Input"), as Extra-P 4.2.5
//! reads them (`extrap/fileio/file_reader/json_file_reader.py`,
//! `jsonlines_file_reader.py`):
//!
//! * **JSON**, the current form, which `taintprof experiment` writes:
//!   `{"parameters": ["n", "m"], "measurements": {"main->solve": {"time":
//!   [{"point": [64, 2], "values": [1.02, 0.98]}, ...]}}}`;
//! * **JSON**, the legacy form (Extra-P 3): `parameters`, `callpaths`, `metrics` and
//!   `coordinates` as id-numbered lists, one `measurements` entry per value with 1-based
//!   `coordinate_id`, `callpath_id` and `metric_id`;
//! * **JSON Lines**: one object per repetition, `{"params": {"n": 64, "m": 2},
//!   "callpath": "main->solve", "metric": "time", "value": 1.02}`; a missing callpath is
//!   `<root>` and a missing metric `<default>`, as in Extra-P; the parameters and their
//!   order come from the first line.
//!
//! [`read_json`] tells the three apart as Extra-P does: a text that is not one JSON
//! document but whose non-blank lines all start with `{` is JSON Lines; a document
//! with `callpaths` is legacy.

use serde_json::{json, Map, Value};

use crate::experiment::Experiment;

/// Reads any of the three forms (see the module comment).
pub fn read_json(text: &str) -> Result<Experiment, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(doc) => {
            if doc.get("callpaths").is_some() {
                read_legacy(&doc)
            } else {
                read_current(&doc)
            }
        }
        Err(e) => {
            let lines = text.lines().filter(|l| !l.trim().is_empty());
            if text.lines().any(|l| l.trim_start().starts_with('{'))
                && lines.clone().all(|l| l.trim_start().starts_with('{'))
            {
                read_lines(text)
            } else {
                Err(format!("not JSON or JSON Lines: {e}"))
            }
        }
    }
}

fn number(v: &Value, what: &str) -> Result<f64, String> {
    let x = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    x.filter(|x| x.is_finite())
        .ok_or_else(|| format!("{what}: `{v}` is not a finite number"))
}

fn string(v: &Value, what: &str) -> Result<String, String> {
    v.as_str()
        .map(String::from)
        .ok_or_else(|| format!("{what}: `{v}` is not a string"))
}

fn array<'a>(v: Option<&'a Value>, what: &str) -> Result<&'a Vec<Value>, String> {
    v.and_then(Value::as_array)
        .ok_or_else(|| format!("`{what}` is missing or not a list"))
}

fn read_current(doc: &Value) -> Result<Experiment, String> {
    let params = array(doc.get("parameters"), "parameters")?
        .iter()
        .map(|p| string(p, "parameters"))
        .collect::<Result<Vec<_>, _>>()?;
    let mut exp = Experiment::new(params);
    let measurements = doc
        .get("measurements")
        .and_then(Value::as_object)
        .ok_or("`measurements` is missing or not an object")?;
    for (callpath, metrics) in measurements {
        let metrics = metrics
            .as_object()
            .ok_or_else(|| format!("measurements of {callpath}: not an object of metrics"))?;
        for (metric, list) in metrics {
            let at = format!("{callpath} / {metric}");
            for m in array(Some(list), &at)? {
                let coords = array(m.get("point"), &format!("{at}: point"))?
                    .iter()
                    .map(|v| number(v, &at))
                    .collect::<Result<Vec<f64>, _>>()?;
                if coords.len() != exp.params.len() {
                    return Err(format!(
                        "{at}: a point has {} values for {} parameters",
                        coords.len(),
                        exp.params.len()
                    ));
                }
                let values = match m.get("values").or_else(|| m.get("value")) {
                    Some(Value::Array(vs)) => {
                        vs.iter()
                            .map(|v| number(v, &at))
                            .collect::<Result<Vec<f64>, _>>()?
                    }
                    Some(v) => vec![number(v, &at)?],
                    None => return Err(format!("{at}: a point without `values`")),
                };
                if values.is_empty() {
                    return Err(format!("{at}: a point with no values"));
                }
                exp.add(callpath, metric, &coords, &values);
            }
        }
    }
    Ok(exp)
}

/// An id-numbered list of the legacy form, as `(id, entry)` sorted by id.
fn by_id<'a>(doc: &'a Value, key: &str) -> Result<Vec<&'a Value>, String> {
    let mut v: Vec<(f64, &Value)> = array(doc.get(key), key)?
        .iter()
        .map(|e| Ok((number(e.get("id").unwrap_or(&Value::Null), key)?, e)))
        .collect::<Result<_, String>>()?;
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(v.into_iter().map(|(_, e)| e).collect())
}

fn read_legacy(doc: &Value) -> Result<Experiment, String> {
    let name = |e: &Value, key: &str| string(e.get("name").unwrap_or(&Value::Null), key);
    let params = by_id(doc, "parameters")?
        .into_iter()
        .map(|e| name(e, "parameters"))
        .collect::<Result<Vec<_>, _>>()?;
    let callpaths = by_id(doc, "callpaths")?
        .into_iter()
        .map(|e| name(e, "callpaths"))
        .collect::<Result<Vec<_>, _>>()?;
    let metrics = by_id(doc, "metrics")?
        .into_iter()
        .map(|e| name(e, "metrics"))
        .collect::<Result<Vec<_>, _>>()?;
    let mut coords = Vec::new();
    for c in by_id(doc, "coordinates")? {
        let mut pairs: Vec<(f64, f64)> = array(c.get("parameter_value_pairs"), "coordinates")?
            .iter()
            .map(|p| {
                Ok((
                    number(p.get("parameter_id").unwrap_or(&Value::Null), "coordinates")?,
                    number(
                        p.get("parameter_value").unwrap_or(&Value::Null),
                        "coordinates",
                    )?,
                ))
            })
            .collect::<Result<_, String>>()?;
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        if pairs.len() != params.len() {
            return Err(format!(
                "a coordinate has {} values for {} parameters",
                pairs.len(),
                params.len()
            ));
        }
        coords.push(pairs.into_iter().map(|(_, v)| v).collect::<Vec<f64>>());
    }
    let mut exp = Experiment::new(params);
    for m in array(doc.get("measurements"), "measurements")? {
        let id = |key: &str, len: usize| -> Result<usize, String> {
            let v = number(m.get(key).unwrap_or(&Value::Null), key)?;
            let i = v as usize;
            if v < 1.0 || i > len || v.fract() != 0.0 {
                return Err(format!(
                    "measurements: {key} {v} is not between 1 and {len}"
                ));
            }
            Ok(i - 1)
        };
        let c = id("coordinate_id", coords.len())?;
        let p = id("callpath_id", callpaths.len())?;
        let k = id("metric_id", metrics.len())?;
        let value = number(m.get("value").unwrap_or(&Value::Null), "measurements")?;
        exp.add(&callpaths[p], &metrics[k], &coords[c], &[value]);
    }
    Ok(exp)
}

fn read_lines(text: &str) -> Result<Experiment, String> {
    let mut exp: Option<Experiment> = None;
    for (k, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |e: String| format!("line {}: {e}", k + 1);
        let v: Value = serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
        let params = v
            .get("params")
            .and_then(Value::as_object)
            .ok_or_else(|| at("`params` is missing or not an object".into()))?;
        let exp = exp.get_or_insert_with(|| Experiment::new(params.keys().cloned().collect()));
        let coords = exp
            .params
            .iter()
            .map(|p| {
                params
                    .get(p)
                    .ok_or_else(|| format!("parameter `{p}` is missing"))
                    .and_then(|x| number(x, p))
            })
            .collect::<Result<Vec<f64>, _>>()
            .map_err(at)?;
        let callpath = match v.get("callpath") {
            Some(c) => string(c, "callpath").map_err(at)?,
            None => "<root>".into(),
        };
        let metric = match v.get("metric") {
            Some(c) => string(c, "metric").map_err(at)?,
            None => "<default>".into(),
        };
        let value = number(
            v.get("value")
                .ok_or_else(|| at("`value` is missing".into()))?,
            "value",
        )
        .map_err(at)?;
        exp.add(&callpath, &metric, &coords, &[value]);
    }
    exp.ok_or_else(|| "no JSON Lines".into())
}

/// A coordinate or value as JSON: integers without a fraction (Extra-P prints the
/// points as the file gives them).
fn num(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

/// Writes the current JSON form (see the module comment).
pub fn write_json(exp: &Experiment) -> String {
    let mut measurements = Map::new();
    for s in &exp.series {
        let entry = measurements
            .entry(s.callpath.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        let list: Vec<Value> = s
            .data
            .iter()
            .map(|(i, reps)| {
                json!({
                    "point": exp.points[*i].iter().map(|&c| num(c)).collect::<Vec<_>>(),
                    "values": reps,
                })
            })
            .collect();
        if let Value::Object(m) = entry {
            m.insert(s.metric.clone(), Value::Array(list));
        }
    }
    let doc = json!({"parameters": exp.params, "measurements": measurements});
    serde_json::to_string_pretty(&doc).expect("JSON of numbers and strings") + "\n"
}

/// Writes JSON Lines: one line per repetition.
pub fn write_jsonl(exp: &Experiment) -> String {
    let mut out = String::new();
    for s in &exp.series {
        for (i, reps) in &s.data {
            let mut params = Map::new();
            for (p, &c) in exp.params.iter().zip(&exp.points[*i]) {
                params.insert(p.clone(), num(c));
            }
            for r in reps {
                let line = json!({
                    "params": params,
                    "callpath": s.callpath,
                    "metric": s.metric,
                    "value": r,
                });
                out.push_str(&line.to_string());
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Experiment {
        let mut e = Experiment::new(vec!["n".into(), "p".into()]);
        e.add("main", "time", &[64.0, 2.0], &[1.25, 1.5]);
        e.add("main", "time", &[128.0, 2.0], &[4.0, 4.5]);
        e.add("main->solve", "time", &[64.0, 2.0], &[0.1 + 0.2]);
        e.add("main->solve", "visits", &[128.0, 2.0], &[10.0]);
        e.add("main", "time", &[64.5, 4.0], &[2.0]);
        e
    }

    #[test]
    fn json_and_json_lines_round_trip() {
        let e = sample();
        assert_eq!(read_json(&write_json(&e)).unwrap(), e);
        assert_eq!(read_json(&write_jsonl(&e)).unwrap(), e);
    }

    #[test]
    fn legacy_form_is_read() {
        let doc = r#"{
          "parameters": [{"id": 2, "name": "p"}, {"id": 1, "name": "n"}],
          "callpaths": [{"id": 1, "name": "main"}],
          "metrics": [{"id": 1, "name": "time"}],
          "coordinates": [
            {"id": 1, "parameter_value_pairs": [{"parameter_id": 2, "parameter_value": 4},
                                                {"parameter_id": 1, "parameter_value": 64}]}],
          "measurements": [
            {"coordinate_id": 1, "callpath_id": 1, "metric_id": 1, "value": 1.5},
            {"coordinate_id": 1, "callpath_id": 1, "metric_id": 1, "value": "2.5"}]}"#;
        let e = read_json(doc).unwrap();
        assert_eq!(e.params, vec!["n", "p"]);
        assert_eq!(e.points, vec![vec![64.0, 4.0]]);
        assert_eq!(
            e.series("main", "time").unwrap().data,
            vec![(0, vec![1.5, 2.5])]
        );
    }

    #[test]
    fn defaults_and_errors_follow_extrap() {
        let e = read_json(
            "{\"params\": {\"n\": 2}, \"value\": 3}\n\n{\"params\": {\"n\": 4}, \"value\": 5}\n",
        )
        .unwrap();
        assert_eq!(e.series("<root>", "<default>").unwrap().data.len(), 2);
        let err = read_json(
            "{\"params\": {\"n\": 2}, \"value\": 3}\n{\"params\": {\"m\": 2}, \"value\": 3}\n",
        )
        .unwrap_err();
        assert!(err.contains("line 2") && err.contains("`n`"), "{err}");
        let err = read_json(r#"{"parameters": ["n"], "measurements": {"f": {"t": [{"point": [1, 2], "values": [1]}]}}}"#).unwrap_err();
        assert!(err.contains("2 values for 1 parameters"), "{err}");
        assert!(read_json("n,time\n1,2\n").unwrap_err().contains("not JSON"));
        let err = read_json(r#"{"parameters": ["n"], "measurements": {"f": {"t": [{"point": [1], "values": [null]}]}}}"#).unwrap_err();
        assert!(err.contains("not a finite number"), "{err}");
    }
}
