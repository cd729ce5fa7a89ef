//! A fast hasher for the integer keys of the analysis' maps (paths, logical nodes,
//! items: millions of entries for a recursive parser). SipHash, the std default, made
//! the merge of a 2M-node record several times slower; keys come from records, not
//! from an adversary.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

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
