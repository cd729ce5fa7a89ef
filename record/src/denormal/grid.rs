//! How an array's elements map to heatmap cells: one rule for the runtime, which bins
//! snapshots as it takes them (`rt/src/denormal/snapshot.rs`), and for the offline
//! analysis, which bins the cumulative origin maps (`taintprof-model`'s `denormal.rs`).
//! Written once so that a heatmap and an origin map of the same array always have the
//! same cells.

/// Most heatmap cells per side.
pub const MAX_CELLS: u64 = 256;

/// How an array's elements map to heatmap cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// The 2-D layout of the elements (`shape`, or the near-square fold).
    pub rows: u64,
    pub cols: u64,
    /// Elements per cell, per side.
    pub cell_r: u64,
    pub cell_c: u64,
    /// Cells per side.
    pub hm_rows: u64,
    pub hm_cols: u64,
}

fn ceil_div(a: u64, b: u64) -> u64 {
    if b == 0 {
        0
    } else {
        a.div_ceil(b)
    }
}

/// Near-square 2-D layout of `n` elements: `cols = ⌈√n⌉`, `rows = ⌈n / cols⌉`.
pub fn fold(n: u64) -> (u64, u64) {
    if n == 0 {
        return (1, 1);
    }
    let mut c = n.isqrt();
    while c * c < n {
        c += 1;
    }
    while c > 1 && (c - 1) * (c - 1) >= n {
        c -= 1;
    }
    (ceil_div(n, c), c)
}

impl Grid {
    /// The grid of `elements` elements laid out as `shape` (rows, columns) if known,
    /// else folded near-square.
    pub fn new(elements: u64, shape: Option<(u64, u64)>) -> Grid {
        let (rows, cols) = match shape {
            Some((r, c)) if r > 0 && c > 0 => (r, c),
            _ => fold(elements),
        };
        let cell_r = ceil_div(rows, MAX_CELLS).max(1);
        let cell_c = ceil_div(cols, MAX_CELLS).max(1);
        Grid {
            rows,
            cols,
            cell_r,
            cell_c,
            hm_rows: ceil_div(rows, cell_r).max(1),
            hm_cols: ceil_div(cols, cell_c).max(1),
        }
    }

    pub fn cells(&self) -> usize {
        (self.hm_rows * self.hm_cols) as usize
    }

    /// Cell of element `i` (elements past `rows × cols` go to the last row).
    #[inline]
    pub fn cell(&self, i: u64) -> usize {
        let r = (i / self.cols / self.cell_r).min(self.hm_rows - 1);
        let c = (i % self.cols / self.cell_c).min(self.hm_cols - 1);
        (r * self.hm_cols + c) as usize
    }

    /// Bins `counts` (one per element) into `out` (one per cell, saturating).
    pub fn bin(&self, counts: &[u32], out: &mut [u32]) {
        for (i, &v) in counts.iter().enumerate() {
            if v != 0 {
                if let Some(o) = out.get_mut(self.cell(i as u64)) {
                    *o = o.saturating_add(v);
                }
            }
        }
    }
}
