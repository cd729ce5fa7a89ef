//! Tags outside the runtime are 32 bits, (origin id, creator index): in shadow
//! memory, in the instrumented code's registers and in the hooks' buffers
//! (`taintprof_abi`, "Shadow memory (denormal mode)"). A vector of floats then has 4
//! tag bytes per value, as many as it has value bytes, in memory and in registers.
//! With 64-bit tags (origin id, address of the creator's `FpSiteDesc`) Jacobi's
//! denormal wavefront read twice the shadow bytes and selected tags in twice the
//! registers; those were the largest costs left against the hand-written floor. The
//! runtime still works on the 64-bit form inside and converts at its hooks.
//!
//! A creator gets its index the first time a tag naming it leaves the runtime
//! ([`encode`]) or inline code asks for it (`__tpd_creator_index`), from a
//! process-wide counter. Two tables, both static (no allocation, no lock, safe in
//! signal handlers):
//!
//! * `CREATOR`: index → creator address, written before the index is published;
//! * `BY_ADDR`: creator address → index, open addressing, each entry one word
//!   `(index << 48) | address` installed by one compare-and-swap. Two threads that
//!   meet the same new creator may both take an index; one entry wins, the other
//!   index still maps back to the same creator, so decoding never goes wrong.
//!
//! Index 0 is "no creator". After [`MAX_CREATORS`] creators (distinct source
//! operations that made a denormal in one run) a new creator gets none: the next
//! operation or load that sees such a value names itself as the creator, as for a
//! denormal read from a file. The runtime says so once on standard error.

use core::cell::Cell;
use core::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::*};

use taintprof_abi::{STAG_CREATOR_MASK, STAG_ORIGIN_SHIFT};

use super::{make_tag, tag_creator, tag_origin};

/// Creator indices available (index 0 is "none").
pub const MAX_CREATORS: usize = STAG_CREATOR_MASK as usize;
/// Entries of the address → index table: a power of two, at least twice the indices,
/// so probing always ends.
const BY_ADDR_LEN: usize = 1 << 17;
const ADDR_BITS: u32 = 48;
const ADDR_MASK: u64 = (1 << ADDR_BITS) - 1;

static CREATOR: [AtomicU64; MAX_CREATORS + 1] = [const { AtomicU64::new(0) }; MAX_CREATORS + 1];
static BY_ADDR: [AtomicU64; BY_ADDR_LEN] = [const { AtomicU64::new(0) }; BY_ADDR_LEN];
static NEXT: AtomicU32 = AtomicU32::new(1);
static FULL_SAID: AtomicBool = AtomicBool::new(false);

#[inline(always)]
fn slot_of(addr: u64) -> usize {
    ((addr >> 3).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - 17)) as usize
}

/// The creator index of creator address `creator` (0 for none), assigning one when it
/// has none yet; 0 when every index is taken.
#[inline]
pub fn index_of(creator: u64) -> u32 {
    let creator = creator & ADDR_MASK;
    if creator == 0 {
        return 0;
    }
    let mut i = slot_of(creator);
    let mut mine = 0u32;
    loop {
        let e = BY_ADDR[i].load(Acquire);
        if e == 0 {
            if mine == 0 {
                mine = NEXT.fetch_add(1, Relaxed);
                if mine as usize > MAX_CREATORS {
                    NEXT.store(MAX_CREATORS as u32 + 1, Relaxed);
                    if !FULL_SAID.swap(true, Relaxed) {
                        crate::diag!(
                            "warning: more than {} floating-point operations created denormals that reached memory; the later ones are not named as creators of what is loaded back (the loads are)",
                            MAX_CREATORS
                        );
                    }
                    return 0;
                }
                CREATOR[mine as usize].store(creator, Release);
            }
            let new = (mine as u64) << ADDR_BITS | creator;
            match BY_ADDR[i].compare_exchange(0, new, AcqRel, Acquire) {
                Ok(_) => return mine,
                Err(other) if other & ADDR_MASK == creator => {
                    return (other >> ADDR_BITS) as u32;
                }
                Err(_) => {}
            }
        } else if e & ADDR_MASK == creator {
            return (e >> ADDR_BITS) as u32;
        }
        i = (i + 1) & (BY_ADDR_LEN - 1);
    }
}

/// The creator address of creator index `ix` (0 for none or an unknown index).
#[inline]
pub fn creator_of(ix: u32) -> u64 {
    CREATOR.get(ix as usize).map_or(0, |c| c.load(Acquire))
}

/// The stored (32-bit) form of tag `t`.
#[inline]
pub fn encode(t: u64) -> u32 {
    if t == 0 {
        return 0;
    }
    (tag_origin(t) & 0xffff) << STAG_ORIGIN_SHIFT | index_of(tag_creator(t))
}

/// Entries of a thread's [`Memo`].
const MEMO: usize = 4;

/// A thread's last creator indices, `(index << 48) | address` as in `BY_ADDR`,
/// direct-mapped by the address (descriptors are 64 bytes apart). The store hook
/// writes a stored tag per denormal lane; looking its creator up in `BY_ADDR` each
/// time cost some 20 instructions, a sixth of the hook on a store site whose inline
/// cache keeps missing.
pub struct Memo([Cell<u64>; MEMO]);

impl Memo {
    pub const fn new() -> Memo {
        Memo([const { Cell::new(0) }; MEMO])
    }
}

impl Default for Memo {
    fn default() -> Memo {
        Memo::new()
    }
}

/// [`encode`] through the calling thread's memo `m`.
#[inline]
pub fn encode_memo(t: u64, m: &Memo) -> u32 {
    if t == 0 {
        return 0;
    }
    let c = tag_creator(t) & ADDR_MASK;
    let ix = if c == 0 {
        0
    } else {
        let slot = &m.0[(c >> 6) as usize & (MEMO - 1)];
        let e = slot.get();
        if e & ADDR_MASK == c {
            (e >> ADDR_BITS) as u32
        } else {
            let ix = index_of(c);
            if ix != 0 {
                slot.set((ix as u64) << ADDR_BITS | c);
            }
            ix
        }
    };
    (tag_origin(t) & 0xffff) << STAG_ORIGIN_SHIFT | ix
}

/// The tag that stored tag `st` stands for.
#[inline]
pub fn decode(st: u32) -> u64 {
    if st == 0 {
        return 0;
    }
    make_tag(st >> STAG_ORIGIN_SHIFT, creator_of(st & STAG_CREATOR_MASK))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_survives_its_stored_form() {
        let a = 0x5555_0000_1040u64;
        let b = 0x5555_0000_1080u64;
        for t in [
            make_tag(3, a),
            make_tag(0, a),
            make_tag(65535, b),
            make_tag(7, 0),
        ] {
            assert_eq!(decode(encode(t)), t, "{t:#x}");
        }
        assert_eq!(encode(0), 0);
        assert_eq!(decode(0), 0);
        // One index per creator, whatever the origin.
        assert_eq!(
            encode(make_tag(1, a)) & STAG_CREATOR_MASK,
            encode(make_tag(2, a)) & STAG_CREATOR_MASK
        );
        assert_ne!(index_of(a), index_of(b));
        assert_eq!(creator_of(index_of(b)), b);
    }

    /// Run in a process of its own (this test binary again, filtered to this test):
    /// it uses up every creator index, which would starve the other tests of theirs.
    #[test]
    fn creators_past_the_last_index_are_stored_as_none_with_one_warning() {
        const CHILD: &str = "TAINTPROF_TEST_CREATOR_OVERFLOW_CHILD";
        if std::env::var_os(CHILD).is_some() {
            let base = 0x5600_0000_0000u64;
            let mut last = 0;
            // Every index this process has left, and then some.
            for k in 0..(MAX_CREATORS as u64 + 10) {
                let c = base + 64 * k;
                let ix = index_of(c);
                if ix != 0 {
                    assert_eq!(creator_of(ix), c);
                    assert_eq!(index_of(c), ix, "an index is stable");
                    last = k;
                }
            }
            assert!(last > 60_000, "most creators got an index: {last}");
            // Past the end: stored as none, the origin kept.
            let late = base + 64 * (MAX_CREATORS as u64 + 9);
            assert_eq!(index_of(late), 0);
            assert_eq!(decode(encode(make_tag(5, late))), make_tag(5, 0));
            // Earlier creators still decode.
            assert_eq!(decode(encode(make_tag(2, base))), make_tag(2, base));
            return;
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "denormal::creators::tests::creators_past_the_last_index_are_stored_as_none_with_one_warning",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "child failed:\n{stdout}\n{stderr}");
        assert!(
            stdout.contains("1 passed"),
            "the child ran the test: {stdout}"
        );
        assert_eq!(
            stderr
                .matches("floating-point operations created denormals")
                .count(),
            1,
            "one warning: {stderr}"
        );
    }

    #[test]
    fn the_memo_encodes_as_the_tables_do() {
        let m = Memo::new();
        let sites: Vec<u64> = (0..9).map(|k| 0x5555_0000_4000u64 + 64 * k).collect();
        for round in 0..3 {
            for (k, &c) in sites.iter().enumerate() {
                let t = make_tag(k as u32 + round, c);
                assert_eq!(encode_memo(t, &m), encode(t), "{t:#x}");
                assert_eq!(decode(encode_memo(t, &m)), t);
            }
        }
        assert_eq!(encode_memo(0, &m), 0);
        assert_eq!(encode_memo(make_tag(3, 0), &m), 3 << STAG_ORIGIN_SHIFT);
    }

    #[test]
    fn threads_racing_for_a_new_creator_agree_on_what_it_decodes_to() {
        let c = 0x5555_0000_2000u64;
        let ix: [u32; 4] = core::array::from_fn(|_| 0);
        let got = std::thread::scope(|s| {
            let hs: Vec<_> = ix.iter().map(|_| s.spawn(move || index_of(c))).collect();
            hs.into_iter()
                .map(|h| h.join().unwrap())
                .collect::<Vec<_>>()
        });
        for i in got {
            assert_eq!(creator_of(i), c);
        }
    }
}
