//! Seeded generated measurements with known truth, for tests and benchmarks: xorshift64*
//! (no `rand` crate), full grids, uniform multiplicative noise.

use crate::{Measurements, Point};

/// xorshift64* (Vigna): small, fast, good enough for noise.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from `seed` (any value, 0 included).
    pub fn new(seed: u64) -> XorShift {
        // SplitMix64 of the seed, so that neighbouring seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        XorShift(if z == 0 { 1 } else { z })
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }
}

/// Measurements on the full grid of `values` (one list per parameter), `reps`
/// repetitions of `truth(coords) · (1 + u)`, `u` uniform in [-noise, noise].
pub fn generate(
    params: &[&str],
    values: &[Vec<f64>],
    reps: usize,
    noise: f64,
    truth: impl Fn(&[f64]) -> f64,
    rng: &mut XorShift,
) -> Measurements {
    let mut coords: Vec<Vec<f64>> = vec![Vec::new()];
    for vs in values {
        coords = coords
            .iter()
            .flat_map(|c| {
                vs.iter().map(move |&v| {
                    let mut c = c.clone();
                    c.push(v);
                    c
                })
            })
            .collect();
    }
    let points = coords
        .into_iter()
        .map(|c| {
            let t = truth(&c);
            let reps = (0..reps)
                .map(|_| t * (1.0 + rng.range(-noise, noise)))
                .collect();
            Point { coords: c, reps }
        })
        .collect();
    Measurements {
        params: params.iter().map(|s| s.to_string()).collect(),
        points,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_uniform() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut r = XorShift::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..4)
            .map({
                let mut r = XorShift::new(7);
                move |_| r.next_u64()
            })
            .collect();
        assert_eq!(a, b);
        let mut r = XorShift::new(0);
        let xs: Vec<f64> = (0..10_000).map(|_| r.uniform()).collect();
        assert!(xs.iter().all(|&x| (0.0..1.0).contains(&x)));
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        assert!((mean - 0.5).abs() < 0.02, "{mean}");
    }

    #[test]
    fn grid_shape() {
        let mut r = XorShift::new(1);
        let m = generate(
            &["n", "m"],
            &[vec![1.0, 2.0, 3.0], vec![10.0, 20.0]],
            4,
            0.1,
            |c| c[0] * c[1],
            &mut r,
        );
        assert_eq!(m.points.len(), 6);
        assert_eq!(m.points[1].coords, vec![1.0, 20.0]);
        for p in &m.points {
            assert_eq!(p.reps.len(), 4);
            let t = p.coords[0] * p.coords[1];
            assert!(p.reps.iter().all(|&y| (y / t - 1.0).abs() <= 0.1));
        }
    }
}
