//! A fast hasher for the integer keys of the maps built from records: the merge's tree
//! (`merge.rs`) and the offline analysis' paths, logical nodes and items
//! (`taintprof-model`), millions of entries for a recursive parser. SipHash, the std
//! default, made the merge of a 2M-node record several times slower; keys come from
//! records, not from an adversary.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::prelude::rust_2021::*;

/// A multiply-rotate hasher with a final mix (MurmurHash3's finalizer).
#[derive(Default, Clone, Copy)]
pub struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

/// A `HashMap` with [`IntHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<IntHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;
    use std::vec;

    // From the old in-process analysis (`many_paths_of_one_function_spread_over_the_index`):
    // the `(path, function)` keys of the model's maps, whose buckets come from the
    // hash's low bits.
    #[test]
    fn many_paths_of_one_function_spread_over_the_index() {
        // A recursive parser: one function, tens of thousands of calling paths.
        let n = 50_000u32;
        let build = BuildHasherDefault::<IntHasher>::default();
        // Linear probing in a table at most half full, as the runtime's index.
        let size = (2 * n as usize).next_power_of_two();
        let mask = size - 1;
        let mut taken = vec![false; size];
        let mut sum = 0usize;
        for path in 0..n {
            let first = build.hash_one((path, 7u32)) as usize & mask;
            let mut i = first;
            while taken[i] {
                i = (i + 1) & mask;
            }
            taken[i] = true;
            sum += i.wrapping_sub(first) & mask;
        }
        let d = sum as f64 / n as f64;
        assert!(d < 4.0, "mean probe distance {d}");
        let mut map: FastMap<(u32, u32), u32> = FastMap::default();
        for path in 0..n {
            map.insert((path, 7), path);
        }
        for path in (0..n).step_by(997) {
            assert_eq!(map.get(&(path, 7)), Some(&path));
        }
        assert_eq!(map.get(&(n, 7)), None);
    }
}
