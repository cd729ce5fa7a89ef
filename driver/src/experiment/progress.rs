//! Progress lines and the estimated time left.
//!
//! One line per run on stderr: `[12/75] n=64 steps=20 rep 3/5: 1.21 s (ETA 1 m 14 s)`.
//! The estimate adds up, for each run still to make, the mean wall time of its point's
//! runs so far; a point not run yet counts as the mean of the points that were (so
//! during the first repetition the estimate is rough, and from the second on, when
//! every point has been run once, it follows each point's own time: repetitions are
//! interleaved).

/// Wall times per point.
pub struct Eta {
    /// `(sum of seconds, runs)` per point.
    per_point: Vec<(f64, u32)>,
}

impl Eta {
    pub fn new(points: usize) -> Eta {
        Eta {
            per_point: vec![(0.0, 0); points],
        }
    }

    /// A run of point `i` took `seconds`.
    pub fn add(&mut self, i: usize, seconds: f64) {
        let p = &mut self.per_point[i];
        p.0 += seconds;
        p.1 += 1;
    }

    /// Seconds left for runs of the points `remaining` (one index per run), or `None`
    /// before any run.
    pub fn left(&self, remaining: impl Iterator<Item = usize>) -> Option<f64> {
        let means: Vec<Option<f64>> = self
            .per_point
            .iter()
            .map(|&(s, n)| (n > 0).then(|| s / f64::from(n)))
            .collect();
        let known: Vec<f64> = means.iter().flatten().copied().collect();
        if known.is_empty() {
            return None;
        }
        let fallback = known.iter().sum::<f64>() / known.len() as f64;
        Some(remaining.map(|i| means[i].unwrap_or(fallback)).sum())
    }
}

/// `0.012 s`, `1.21 s`, `14.3 s`, `1 m 14 s`, `2 h 05 m`.
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() || seconds < 0.0 {
        return "?".to_string();
    }
    if seconds < 0.1 {
        return format!("{seconds:.3} s");
    }
    if seconds < 10.0 {
        return format!("{seconds:.2} s");
    }
    if seconds < 60.0 {
        return format!("{seconds:.1} s");
    }
    let s = seconds.round() as u64;
    if s < 3600 {
        return format!("{} m {} s", s / 60, s % 60);
    }
    format!("{} h {:02} m", s / 3600, (s % 3600) / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration(0.0123), "0.012 s");
        assert_eq!(duration(1.214), "1.21 s");
        assert_eq!(duration(14.33), "14.3 s");
        assert_eq!(duration(74.0), "1 m 14 s");
        assert_eq!(duration(7500.0), "2 h 05 m");
    }

    #[test]
    fn eta_uses_each_points_mean_and_the_mean_of_points_for_the_rest() {
        let mut e = Eta::new(3);
        assert_eq!(e.left([0, 1].into_iter()), None);
        e.add(0, 1.0);
        e.add(0, 3.0);
        e.add(1, 10.0);
        // Point 2 unknown: (2 + 10) / 2 = 6.
        assert_eq!(e.left([0, 1, 2].into_iter()), Some(2.0 + 10.0 + 6.0));
    }
}
