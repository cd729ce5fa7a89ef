//! An experiment: measurements of several call paths and metrics over one set of
//! parameters and points, as every input format holds them (Extra-P text, JSON and JSON
//! Lines; time records through `taintprof experiment`).

use crate::{Measurements, Point};

/// The parameters, the measured points, and the data of each (call path, metric) pair
/// in the order the input gives them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Experiment {
    pub params: Vec<String>,
    pub points: Vec<Vec<f64>>,
    pub series: Vec<Series>,
}

/// The measurements of one call path and metric: `(point index, repetitions)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    pub callpath: String,
    pub metric: String,
    pub data: Vec<(usize, Vec<f64>)>,
}

impl Series {
    /// As [`Measurements`] over `exp`'s parameters.
    pub fn measurements(&self, exp: &Experiment) -> Measurements {
        Measurements {
            params: exp.params.clone(),
            points: self
                .data
                .iter()
                .map(|(i, reps)| Point {
                    coords: exp.points[*i].clone(),
                    reps: reps.clone(),
                })
                .collect(),
        }
    }
}

impl Experiment {
    /// An empty experiment over `params`.
    pub fn new(params: Vec<String>) -> Experiment {
        Experiment {
            params,
            ..Experiment::default()
        }
    }

    /// The index of the point `coords`, added if new (coordinates compare exactly:
    /// they are the values the runs were given).
    pub fn point(&mut self, coords: &[f64]) -> usize {
        match self.points.iter().position(|c| c.as_slice() == coords) {
            Some(i) => i,
            None => {
                self.points.push(coords.to_vec());
                self.points.len() - 1
            }
        }
    }

    /// Adds repetitions of `callpath`/`metric` at `coords` (to those already there).
    pub fn add(&mut self, callpath: &str, metric: &str, coords: &[f64], reps: &[f64]) {
        let i = self.point(coords);
        let s = match self
            .series
            .iter()
            .position(|s| s.callpath == callpath && s.metric == metric)
        {
            Some(k) => &mut self.series[k],
            None => {
                self.series.push(Series {
                    callpath: callpath.to_string(),
                    metric: metric.to_string(),
                    data: Vec::new(),
                });
                self.series.last_mut().expect("just pushed")
            }
        };
        match s.data.iter_mut().find(|(j, _)| *j == i) {
            Some((_, r)) => r.extend_from_slice(reps),
            None => s.data.push((i, reps.to_vec())),
        }
    }

    /// The series of `callpath` and `metric`.
    pub fn series(&self, callpath: &str, metric: &str) -> Option<&Series> {
        self.series
            .iter()
            .find(|s| s.callpath == callpath && s.metric == metric)
    }

    /// Every series' data in point order (what the text format needs).
    pub fn sort_data(&mut self) {
        for s in &mut self.series {
            s.data.sort_by_key(|(i, _)| *i);
        }
    }

    /// The metrics, first appearance order.
    pub fn metrics(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for s in &self.series {
            if !out.contains(&s.metric.as_str()) {
                out.push(&s.metric);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_merges_points_and_series() {
        let mut e = Experiment::new(vec!["n".into()]);
        e.add("main", "time", &[4.0], &[1.0]);
        e.add("main", "time", &[8.0], &[2.0]);
        e.add("main", "time", &[4.0], &[1.5]);
        e.add("main->f", "time", &[8.0], &[0.5]);
        assert_eq!(e.points, vec![vec![4.0], vec![8.0]]);
        assert_eq!(e.series.len(), 2);
        assert_eq!(e.series[0].data, vec![(0, vec![1.0, 1.5]), (1, vec![2.0])]);
        assert_eq!(
            e.series("main->f", "time").unwrap().data,
            vec![(1, vec![0.5])]
        );
        assert_eq!(e.metrics(), vec!["time"]);
    }
}
