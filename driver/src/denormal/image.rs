//! Pictures of a denormal report, drawn into RGB canvases and written as PNG files:
//!
//! * [`heat_strip`]: an array's heatmaps over time — one frame per snapshot interval,
//!   left to right and row by row, each with axes (element row / column index).
//!   Brightness is a cell's denormal events (reads + writes, log-scaled on one scale for
//!   all frames, so a fading wavefront fades), hue the share of writes (red reads only,
//!   blue writes only, violet half and half), explained by a legend with the numeric
//!   range. Small grids are enlarged (nearest neighbour) so a cell is a visible block;
//!   grids larger than the picture are reduced by maximum, and cells with events are
//!   drawn at least [`MIN_MARK`] pixels wide, so one hot element of a huge array shows;
//! * [`origin_map`]: per element of `dest`, the denormals stored there that were loaded
//!   from `src` (axes and scale as above);
//! * [`stacked_bars`]: counts over time (the exception timeline, snapshot intervals),
//!   x labels spaced by their width so they never overlap ([`x_tick_boxes`]);
//! * [`site_bars`]: the top sites as horizontal bars split by event kind.
//!
//! Text is drawn with the public-domain 8×8 bitmap font (`font8x8`); non-ASCII
//! characters are replaced by ASCII look-alikes.

use super::thousands as th;
use std::path::Path;

pub type Rgb = [u8; 3];

pub const WHITE: Rgb = [255, 255, 255];
pub const INK: Rgb = [25, 25, 30];
pub const GREY: Rgb = [120, 120, 128];
pub const LIGHT: Rgb = [225, 225, 230];
/// An array cell without events.
pub const EMPTY_CELL: Rgb = [24, 24, 32];
pub const READ: Rgb = [255, 40, 40];
pub const WRITE: Rgb = [50, 90, 255];
pub const ORIGIN: Rgb = [255, 170, 0];
pub const LOAD: Rgb = [240, 150, 30];
pub const STORE: Rgb = [40, 170, 90];

/// The largest side of a heatmap frame, in pixels, that small grids are enlarged to.
pub const FRAME_TARGET: u32 = 240;
/// Frames per row of a strip, at most.
pub const MAX_PER_ROW: u32 = 6;
/// Least brightness of a non-empty cell (so a single event is visible).
const MIN_LEVEL: f64 = 90.0;

/// A rectangle in a canvas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

/// An RGB image.
#[derive(Debug, Clone)]
pub struct Canvas {
    pub w: u32,
    pub h: u32,
    px: Vec<u8>,
}

impl Canvas {
    pub fn new(w: u32, h: u32, bg: Rgb) -> Canvas {
        let w = w.max(1);
        let h = h.max(1);
        let mut px = Vec::with_capacity((w * h * 3) as usize);
        for _ in 0..w * h {
            px.extend_from_slice(&bg);
        }
        Canvas { w, h, px }
    }

    pub fn get(&self, x: u32, y: u32) -> Option<Rgb> {
        if x >= self.w || y >= self.h {
            return None;
        }
        let i = ((y * self.w + x) * 3) as usize;
        Some([self.px[i], self.px[i + 1], self.px[i + 2]])
    }

    pub fn set(&mut self, x: u32, y: u32, c: Rgb) {
        if x < self.w && y < self.h {
            let i = ((y * self.w + x) * 3) as usize;
            self.px[i..i + 3].copy_from_slice(&c);
        }
    }

    pub fn fill(&mut self, x: u32, y: u32, w: u32, h: u32, c: Rgb) {
        let x1 = x.saturating_add(w).min(self.w);
        let y1 = y.saturating_add(h).min(self.h);
        for yy in y.min(self.h)..y1 {
            for xx in x.min(self.w)..x1 {
                let i = ((yy * self.w + xx) * 3) as usize;
                self.px[i..i + 3].copy_from_slice(&c);
            }
        }
    }

    pub fn outline(&mut self, r: Rect, c: Rgb) {
        if r.w == 0 || r.h == 0 {
            return;
        }
        self.fill(r.x, r.y, r.w, 1, c);
        self.fill(r.x, r.y + r.h - 1, r.w, 1, c);
        self.fill(r.x, r.y, 1, r.h, c);
        self.fill(r.x + r.w - 1, r.y, 1, r.h, c);
    }

    /// Draws `s` with its top-left corner at (x, y), each font pixel `scale`×`scale`;
    /// returns the width drawn.
    pub fn text(&mut self, x: u32, y: u32, s: &str, scale: u32, c: Rgb) -> u32 {
        let s = ascii(s);
        let scale = scale.max(1);
        let mut cx = x;
        for ch in s.bytes() {
            let glyph = font8x8::legacy::BASIC_LEGACY[(ch & 0x7f) as usize];
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..8u32 {
                    if bits & (1 << col) != 0 {
                        self.fill(cx + col * scale, y + row as u32 * scale, scale, scale, c);
                    }
                }
            }
            cx += 8 * scale;
        }
        cx - x
    }

    /// Draws `s` right-aligned so that it ends at `x_end`.
    pub fn text_right(&mut self, x_end: u32, y: u32, s: &str, scale: u32, c: Rgb) {
        let w = text_width(s, scale);
        self.text(x_end.saturating_sub(w), y, s, scale, c);
    }

    /// The image as PNG bytes.
    pub fn png(&self) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, self.w, self.h);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            let mut w = enc
                .write_header()
                .map_err(|e| format!("cannot encode PNG: {e}"))?;
            w.write_image_data(&self.px)
                .map_err(|e| format!("cannot encode PNG: {e}"))?;
        }
        Ok(out)
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.png()?)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// The ASCII look-alike of `s` that the font can draw.
pub fn ascii(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            ' '..='~' => o.push(c),
            '←' => o.push_str("<-"),
            '→' => o.push_str("->"),
            '×' => o.push('x'),
            '—' | '–' => o.push('-'),
            '…' => o.push_str("..."),
            '≥' => o.push_str(">="),
            '≤' => o.push_str("<="),
            _ => o.push('?'),
        }
    }
    o
}

/// Width of `s` drawn at `scale`.
pub fn text_width(s: &str, scale: u32) -> u32 {
    ascii(s).len() as u32 * 8 * scale.max(1)
}

/// `s` cut to `max` characters (with `...`).
pub fn clip(s: &str, max: usize) -> String {
    let a = ascii(s);
    if a.len() <= max {
        a
    } else {
        format!("{}...", &a[..max.saturating_sub(3)])
    }
}

/// 0..1 on a log scale: ln(1 + n) / ln(1 + max).
pub fn level(n: u64, max: u64) -> f64 {
    if n == 0 || max == 0 {
        return 0.0;
    }
    ((n as f64).ln_1p() / (max as f64).ln_1p()).clamp(0.0, 1.0)
}

/// The hue of a cell whose events are `writes / (reads + writes)` writes: [`READ`] for
/// reads only, [`WRITE`] for writes only, mixed in proportion in between (half and half
/// is a dull violet, clearly apart from both), so read-vs-write stays readable.
pub fn mix_hue(reads: u64, writes: u64) -> Rgb {
    let tot = reads + writes;
    let f = if tot == 0 {
        0.0
    } else {
        writes as f64 / tot as f64
    };
    let m = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * f).round() as u8;
    [
        m(READ[0], WRITE[0]),
        m(READ[1], WRITE[1]),
        m(READ[2], WRITE[2]),
    ]
}

/// The colour of a heatmap cell on dark: brightness from the cell's events
/// (`reads + writes`, log scale up to `max_events`), hue from the share of writes
/// ([`mix_hue`]).
pub fn heat_color(reads: u64, writes: u64, max_events: u64) -> Rgb {
    if reads == 0 && writes == 0 {
        return EMPTY_CELL;
    }
    mono_color(reads + writes, max_events, mix_hue(reads, writes))
}

/// The colour of a one-colour map cell (origin maps).
pub fn mono_color(n: u64, max: u64, c: Rgb) -> Rgb {
    if n == 0 {
        return EMPTY_CELL;
    }
    let t = (MIN_LEVEL + (255.0 - MIN_LEVEL) * level(n, max)) / 255.0;
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
    [
        mix(EMPTY_CELL[0], c[0]),
        mix(EMPTY_CELL[1], c[1]),
        mix(EMPTY_CELL[2], c[2]),
    ]
}

/// A grid of counts (row-major), `cell` elements per cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    pub rows: u32,
    pub cols: u32,
    pub cell: (u64, u64),
    pub a: Vec<u64>,
    /// Second series (writes), empty for one-series maps.
    pub b: Vec<u64>,
    /// Cells of the report merged (by maximum) into one cell per side: 1 unless the
    /// report's grid was larger than the picture.
    pub reduced: u64,
}

impl Grid {
    /// A grid from report data; missing counts are zero, extra ones ignored. `None` for
    /// an empty or absurd shape.
    pub fn new(rows: u64, cols: u64, cell: &[u64], a: &[u64], b: &[u64]) -> Option<Grid> {
        if rows == 0 || cols == 0 || rows > 1 << 14 || cols > 1 << 14 || rows * cols > 1 << 22 {
            return None;
        }
        let n = (rows * cols) as usize;
        let fit = |v: &[u64]| {
            let mut v: Vec<u64> = v.iter().copied().take(n).collect();
            v.resize(n, 0);
            v
        };
        let g = Grid {
            rows: rows as u32,
            cols: cols as u32,
            cell: (
                cell.first().copied().unwrap_or(1).max(1),
                cell.get(1).copied().unwrap_or(1).max(1),
            ),
            a: fit(a),
            b: if b.is_empty() { Vec::new() } else { fit(b) },
            reduced: 1,
        };
        Some(g.binned())
    }

    /// Grids larger than 2 × [`FRAME_TARGET`] are reduced into blocks by **maximum**
    /// (each series on its own): a block shows its hottest cell, so a single hot cell of
    /// a huge array keeps its count (a sum or an average would drown or dilute it).
    fn binned(self) -> Grid {
        let big = self.rows.max(self.cols);
        if big <= 2 * FRAME_TARGET {
            return self;
        }
        let k = big.div_ceil(FRAME_TARGET);
        let (nr, nc) = (self.rows.div_ceil(k), self.cols.div_ceil(k));
        let mut a = vec![0u64; (nr * nc) as usize];
        let mut b = vec![0u64; if self.b.is_empty() { 0 } else { a.len() }];
        for r in 0..self.rows {
            for c in 0..self.cols {
                let i = (r * self.cols + c) as usize;
                let j = ((r / k) * nc + c / k) as usize;
                a[j] = a[j].max(self.a[i]);
                if !b.is_empty() {
                    b[j] = b[j].max(self.b[i]);
                }
            }
        }
        Grid {
            rows: nr,
            cols: nc,
            cell: (self.cell.0 * k as u64, self.cell.1 * k as u64),
            a,
            b,
            reduced: self.reduced * k as u64,
        }
    }

    /// Events of cell `i` (both series).
    pub fn events(&self, i: usize) -> u64 {
        self.a.get(i).copied().unwrap_or(0) + self.b.get(i).copied().unwrap_or(0)
    }

    /// The most events in one cell.
    pub fn max_events(&self) -> u64 {
        (0..self.a.len()).map(|i| self.events(i)).max().unwrap_or(0)
    }

    pub fn max_a(&self) -> u64 {
        self.a.iter().copied().max().unwrap_or(0)
    }

    pub fn max_b(&self) -> u64 {
        self.b.iter().copied().max().unwrap_or(0)
    }

    pub fn sum_a(&self) -> u64 {
        self.a.iter().sum()
    }

    pub fn sum_b(&self) -> u64 {
        self.b.iter().sum()
    }

    /// Adds `o` cell by cell (same shape; otherwise nothing happens and false).
    pub fn add(&mut self, o: &Grid) -> bool {
        if o.rows != self.rows || o.cols != self.cols {
            return false;
        }
        for (x, y) in self.a.iter_mut().zip(&o.a) {
            *x += y;
        }
        if self.b.is_empty() && !o.b.is_empty() {
            self.b = vec![0; self.a.len()];
        }
        for (x, y) in self.b.iter_mut().zip(&o.b) {
            *x += y;
        }
        true
    }

    /// Pixels per cell so that the larger side is about [`FRAME_TARGET`] (rounded, so
    /// a 160-cell side becomes 320 pixels rather than 160).
    pub fn scale(&self) -> u32 {
        let big = self.rows.max(self.cols).max(1);
        ((FRAME_TARGET + big / 2) / big).max(1)
    }

    /// Size of the drawn grid in pixels.
    pub fn pixels(&self) -> (u32, u32) {
        let s = self.scale();
        (self.cols * s, self.rows * s)
    }
}

/// Draws a grid at (x, y): two series as heat colours ([`heat_color`], up to `max`
/// events per cell), one series in `mono`. When a cell is smaller than
/// [`MIN_MARK`] pixels, cells with events are drawn as [`MIN_MARK`]-pixel squares
/// centred on the cell, coolest first, so that a single hot cell of a large array is
/// still a visible mark.
fn draw_grid(cv: &mut Canvas, g: &Grid, x: u32, y: u32, max: u64, mono: Rgb) -> Rect {
    let s = g.scale();
    let color = |i: usize| {
        if g.b.is_empty() {
            mono_color(g.a[i], max, mono)
        } else {
            heat_color(g.a[i], g.b[i], max)
        }
    };
    let (w, h) = g.pixels();
    cv.fill(x, y, w, h, EMPTY_CELL);
    let mut hot: Vec<(u64, u32, u32)> = Vec::new();
    for r in 0..g.rows {
        for c in 0..g.cols {
            let i = (r * g.cols + c) as usize;
            if g.events(i) == 0 {
                continue;
            }
            if s >= MIN_MARK {
                cv.fill(x + c * s, y + r * s, s, s, color(i));
            } else {
                hot.push((g.events(i), r, c));
            }
        }
    }
    hot.sort_unstable();
    for (_, r, c) in hot {
        let i = (r * g.cols + c) as usize;
        let (cx, cy) = (x + c * s + s / 2, y + r * s + s / 2);
        let x0 = cx
            .saturating_sub(MIN_MARK / 2)
            .clamp(x, x + w - MIN_MARK.min(w));
        let y0 = cy
            .saturating_sub(MIN_MARK / 2)
            .clamp(y, y + h - MIN_MARK.min(h));
        cv.fill(x0, y0, MIN_MARK.min(w), MIN_MARK.min(h), color(i));
    }
    Rect { x, y, w, h }
}

/// Smallest drawn size of a cell with events, in pixels.
pub const MIN_MARK: u32 = 3;

/// Tick positions along an axis `len` pixels long that covers `extent` units: nice
/// steps (1, 2, 5 × 10^k units) at least as far apart as the widest label plus a gap,
/// so labels never overlap. Returns (pixel offset, value).
pub fn axis_ticks(len: u32, extent: u64, fmt: &dyn Fn(u64) -> String) -> Vec<(u32, u64)> {
    if len == 0 || extent == 0 {
        return vec![(0, 0)];
    }
    let widest = text_width(&fmt(extent), 1) + 8;
    let mut step = 1u64;
    'outer: loop {
        for m in [1, 2, 5] {
            let st = step * m;
            let px = st as f64 * len as f64 / extent as f64;
            if px >= widest as f64 || st >= extent {
                step = st;
                break 'outer;
            }
        }
        step *= 10;
    }
    (0..)
        .map(|k| k * step)
        .take_while(|&v| v <= extent)
        .map(|v| (((v as f64 / extent as f64) * len as f64).round() as u32, v))
        .collect()
}

/// The label boxes of ticks along a horizontal axis at `y`, centred on `x + offset`
/// and kept between `x_min` and `x_max`; labels whose box would touch the previous one
/// are dropped.
pub fn tick_label_boxes(
    ticks: &[(u32, String)],
    x: u32,
    y: u32,
    x_min: u32,
    x_max: u32,
) -> Vec<(u32, Rect, String)> {
    let mut out: Vec<(u32, Rect, String)> = Vec::new();
    for (off, label) in ticks {
        let w = text_width(label, 1);
        let lx = (x + off)
            .saturating_sub(w / 2)
            .max(x_min)
            .min(x_max.saturating_sub(w));
        let r = Rect { x: lx, y, w, h: 8 };
        if out.last().is_some_and(|(_, p, _)| p.x + p.w + 4 > r.x) {
            continue;
        }
        out.push((x + off, r, label.clone()));
    }
    out
}

/// Width of the y-axis labels of a grid's frame.
fn y_axis_width(g: &Grid) -> u32 {
    text_width(&th(g.rows as u64 * g.cell.0), 1) + 8
}

/// Axes of a drawn grid: element column index along the bottom, element row index
/// along the left (each from 0 to the extent the grid covers), ticks at nice steps.
/// Returns the bottom of the x labels.
fn grid_axes(cv: &mut Canvas, g: &Grid, r: Rect) -> u32 {
    let fmt = |v: u64| th(v);
    let ext_c = g.cols as u64 * g.cell.1;
    let ext_r = g.rows as u64 * g.cell.0;
    cv.fill(r.x, r.y + r.h, r.w, 1, INK);
    cv.fill(r.x.saturating_sub(1), r.y, 1, r.h + 1, INK);
    let xt: Vec<(u32, String)> = axis_ticks(r.w, ext_c, &fmt)
        .into_iter()
        .map(|(p, v)| (p.min(r.w.saturating_sub(1)), fmt(v)))
        .collect();
    for (p, _) in &xt {
        cv.fill(r.x + p, r.y + r.h, 1, 4, INK);
    }
    for (_, b, l) in tick_label_boxes(
        &xt,
        r.x,
        r.y + r.h + 6,
        r.x.saturating_sub(6),
        r.x + r.w + 30,
    ) {
        cv.text(b.x, b.y, &l, 1, INK);
    }
    // Vertical: labels at least a line apart.
    let yt = axis_ticks(r.h, ext_r, &|_| "0000".into()); // 40 px: > a line
    let mut last: Option<u32> = None;
    for (p, v) in yt {
        let p = p.min(r.h.saturating_sub(1));
        cv.fill(r.x.saturating_sub(5), r.y + p, 4, 1, INK);
        let ly = (r.y + p).saturating_sub(3);
        if last.is_some_and(|l| ly < l + 10) {
            continue;
        }
        last = Some(ly);
        cv.text_right(r.x.saturating_sub(7), ly, &fmt(v), 1, INK);
    }
    r.y + r.h + 6 + 8
}

/// A labelled frame of a strip.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Snapshot label, e.g. `#3 iter 300`.
    pub label: String,
    pub grid: Grid,
}

const PAD: u32 = 12;
const GAP: u32 = 14;
const LINE: u32 = 12;

/// A legend gradient from 1 to `max` (log scale) in colour `c`, with tick labels
/// under it; returns its height.
fn gradient(cv: &mut Canvas, x: u32, y: u32, name: &str, max: u64, c: Rgb) -> u32 {
    let w = 200;
    let lw = cv.text(x, y + 2, name, 1, INK) + 6;
    for i in 0..w {
        let col = mono_color(gradient_value(i, w, max), max.max(1), c);
        cv.fill(x + lw + i, y, 1, 12, col);
    }
    gradient_ticks(cv, x + lw, y + 14, w, max);
    cv.text(x + lw + w + 8, y + 2, "(log scale)", 1, GREY);
    28
}

/// The count at pixel `i` of a `w`-pixel log gradient up to `max`.
fn gradient_value(i: u32, w: u32, max: u64) -> u64 {
    if max <= 1 {
        1
    } else {
        ((max as f64).ln_1p() * (i as f64 + 1.0) / w as f64)
            .exp_m1()
            .round()
            .max(1.0) as u64
    }
}

/// "1", the middle and the maximum under a gradient.
fn gradient_ticks(cv: &mut Canvas, x: u32, y: u32, w: u32, max: u64) {
    let max = max.max(1);
    let mut t = vec![(0, "1".to_string())];
    if max > 10 {
        t.push((w / 2, th(gradient_value(w / 2 - 1, w, max))));
    }
    if max > 1 {
        t.push((w - 1, th(max)));
    }
    for (p, _) in &t {
        cv.fill(x + p, y - 2, 1, 3, INK);
    }
    for (_, b, l) in tick_label_boxes(&t, x, y + 2, x, x + w + 40) {
        cv.text(b.x, b.y, &l, 1, INK);
    }
}

/// The legend of a read/write heatmap: brightness is the events of a cell (log scale,
/// 1 .. `max`), hue the share of writes — one row each for reads only, half and half,
/// writes only. Returns its height.
fn heat_legend(cv: &mut Canvas, x: u32, y: u32, max: u64, what: &str) -> u32 {
    let w = 200;
    cv.text(
        x,
        y,
        &format!("events per cell{what} (reads + writes), log scale:"),
        1,
        INK,
    );
    let rows = [
        ("reads only", 1u64, 0u64),
        ("half/half", 1, 1),
        ("writes only", 0, 1),
    ];
    let lw = text_width("writes only", 1) + 8;
    let mut yy = y + LINE + 2;
    for (name, r, wr) in rows {
        cv.text(x, yy + 2, name, 1, INK);
        for i in 0..w {
            cv.fill(
                x + lw + i,
                yy,
                1,
                12,
                mono_color(gradient_value(i, w, max), max.max(1), mix_hue(r, wr)),
            );
        }
        yy += 14;
    }
    gradient_ticks(cv, x + lw, yy + 2, w, max);
    let nx = x + lw + w + 16;
    cv.fill(nx, y + LINE + 2, 12, 12, EMPTY_CELL);
    cv.text(nx + 18, y + LINE + 4, "no events", 1, INK);
    cv.text(nx, y + LINE + 20, "hue: share of writes among", 1, GREY);
    cv.text(nx, y + LINE + 32, "the cell's events (red->blue)", 1, GREY);
    yy + 14 - y
}

/// Layout of a [`heat_strip`]: where its parts are (for tests and image maps).
#[derive(Debug, Clone, Default)]
pub struct HeatLayout {
    /// The frames' grids.
    pub grids: Vec<Rect>,
    /// The legend (colour scale with its range).
    pub legend: Rect,
}

/// An array's heatmaps over time on one scale: frames left to right, then wrapping,
/// each with axes (element row and column index); a legend with the colour scale.
/// Returns the image and the rectangles of the frames' grids (for tests and image maps).
pub fn heat_strip(title: &str, subtitle: &str, frames: &[Frame]) -> (Canvas, Vec<Rect>) {
    let (cv, l) = heat_strip_layout(title, subtitle, frames);
    (cv, l.grids)
}

/// [`heat_strip`] with the whole layout (grids and legend).
pub fn heat_strip_layout(title: &str, subtitle: &str, frames: &[Frame]) -> (Canvas, HeatLayout) {
    let max = frames
        .iter()
        .map(|f| f.grid.max_events())
        .max()
        .unwrap_or(0);
    let (gw, gh) = frames
        .iter()
        .map(|f| f.grid.pixels())
        .fold((0, 0), |(a, b), (w, h)| (a.max(w), b.max(h)));
    let ax = frames
        .iter()
        .map(|f| y_axis_width(&f.grid))
        .max()
        .unwrap_or(16);
    let fw = (ax + gw + 24).max(160);
    let per_row = (MAX_PER_ROW).min(frames.len().max(1) as u32);
    let nrows = (frames.len() as u32).div_ceil(per_row).max(1);
    let fh = LINE + 4 + gh + 16 + 4 + 2 * LINE;
    let head = 2 * PAD + 16 + LINE;
    let legend_h = 2 * LINE + 3 * 14 + 14 + PAD;
    let width = (2 * PAD + per_row * fw + (per_row - 1) * GAP)
        .max(text_width(title, 2) + 2 * PAD)
        .max(text_width(subtitle, 1) + 2 * PAD)
        .max(620);
    let height = head + nrows * (fh + GAP) + legend_h;
    let mut cv = Canvas::new(width, height, WHITE);
    cv.text(PAD, PAD, title, 2, INK);
    cv.text(PAD, PAD + 20, subtitle, 1, GREY);
    let mut layout = HeatLayout::default();
    let chars = (fw / 8) as usize;
    for (i, f) in frames.iter().enumerate() {
        let (col, row) = (i as u32 % per_row, i as u32 / per_row);
        let x = PAD + col * (fw + GAP);
        let y = head + row * (fh + GAP);
        cv.text(x, y, &clip(&f.label, chars), 1, INK);
        let r = draw_grid(&mut cv, &f.grid, x + ax, y + LINE + 4, max, READ);
        let below = grid_axes(&mut cv, &f.grid, r);
        layout.grids.push(r);
        let cy = below + 4;
        cv.text(
            x,
            cy,
            &clip(&format!("R {}", th(f.grid.sum_a())), chars),
            1,
            [200, 20, 20],
        );
        cv.text(
            x,
            cy + LINE,
            &clip(&format!("W {}", th(f.grid.sum_b())), chars),
            1,
            [30, 60, 220],
        );
    }
    let ly = head + nrows * (fh + GAP);
    let reduced = frames.first().map_or(1, |f| f.grid.reduced);
    let what = if reduced > 1 {
        " and interval, hottest of each block"
    } else {
        " and interval"
    };
    let h = heat_legend(&mut cv, PAD, ly, max, what);
    layout.legend = Rect {
        x: PAD,
        y: ly,
        w: width - 2 * PAD,
        h,
    };
    (cv, layout)
}

/// One map in one colour (origin maps, whole-run totals of one series), with axes and
/// its colour scale.
pub fn single_map(title: &str, subtitle: &str, caption: &str, g: &Grid, c: Rgb) -> (Canvas, Rect) {
    let (gw, gh) = g.pixels();
    let ax = y_axis_width(g);
    let width = (ax + gw + 2 * PAD + 24)
        .max(text_width(title, 2) + 2 * PAD)
        .max(text_width(subtitle, 1) + 2 * PAD)
        .max(text_width(caption, 1) + 2 * PAD)
        .max(420);
    let head = 2 * PAD + 16 + LINE;
    let height = head + gh + 16 + 8 + LINE + 32 + PAD;
    let mut cv = Canvas::new(width, height, WHITE);
    cv.text(PAD, PAD, title, 2, INK);
    cv.text(PAD, PAD + 20, subtitle, 1, GREY);
    let r = draw_grid(&mut cv, g, PAD + ax, head, g.max_a(), c);
    let below = grid_axes(&mut cv, g, r);
    cv.text(PAD, below + 6, caption, 1, INK);
    gradient(&mut cv, PAD, below + 8 + LINE, "count", g.max_a(), c);
    (cv, r)
}

/// A two-series heatmap on its own (the whole run of an array).
pub fn single_heat(title: &str, subtitle: &str, g: &Grid) -> (Canvas, Rect) {
    let f = Frame {
        label: "whole run".into(),
        grid: g.clone(),
    };
    let (cv, l) = heat_strip(title, subtitle, std::slice::from_ref(&f));
    (cv, l[0])
}

/// A series of a bar chart.
#[derive(Debug, Clone)]
pub struct Series {
    pub name: String,
    pub color: Rgb,
    pub values: Vec<u64>,
}

/// Width of the plot of [`stacked_bars`] in pixels.
pub const PLOT_W: u32 = 900;

/// How many consecutive slots [`stacked_bars`] merges into one bar for `n` slots (so
/// that a bar is at least 2 pixels wide).
pub fn bar_merge(n: usize) -> usize {
    (n as u32).div_ceil(PLOT_W / 2).max(1) as usize
}

/// Stacked vertical bars over `n` slots (time): x labels at a few slots.
pub fn stacked_bars(
    title: &str,
    subtitle: &str,
    series: &[Series],
    x_label: &dyn Fn(usize) -> String,
) -> Canvas {
    let n = series.iter().map(|s| s.values.len()).max().unwrap_or(0);
    let plot_w: u32 = PLOT_W;
    let plot_h: u32 = 220;
    let left: u32 = 96;
    let top: u32 = 2 * PAD + 16 + LINE + 8;
    let width = left + plot_w + PAD + 8;
    let height = top + plot_h + 3 * LINE + 18 + PAD;
    let mut cv = Canvas::new(width, height, WHITE);
    cv.text(PAD, PAD, title, 2, INK);
    cv.text(PAD, PAD + 20, subtitle, 1, GREY);
    let per = bar_merge(n);
    let bars = n.div_ceil(per);
    let sums: Vec<Vec<u64>> = series
        .iter()
        .map(|s| {
            (0..bars)
                .map(|b| s.values.iter().skip(b * per).take(per).sum())
                .collect()
        })
        .collect();
    let max = (0..bars)
        .map(|b| sums.iter().map(|s| s[b]).sum::<u64>())
        .max()
        .unwrap_or(0)
        .max(1);
    let bw = if bars == 0 {
        plot_w
    } else {
        plot_w / bars as u32
    };
    // Axes and grid lines.
    for k in 0..=4u32 {
        let y = top + plot_h - plot_h * k / 4;
        cv.fill(left, y, plot_w, 1, if k == 0 { INK } else { LIGHT });
        let v = (max as f64 * k as f64 / 4.0).round() as u64;
        cv.text_right(left - 6, y.saturating_sub(4), &th(v), 1, INK);
    }
    cv.fill(left, top, 1, plot_h, INK);
    for b in 0..bars {
        let x = left + 1 + b as u32 * bw;
        let mut y = top + plot_h;
        for (s, sum) in series.iter().zip(&sums) {
            let v = sum[b];
            if v == 0 {
                continue;
            }
            let h = ((v as f64 / max as f64) * plot_h as f64).round().max(1.0) as u32;
            let h = h.min(y - top);
            y -= h;
            cv.fill(
                x,
                y,
                bw.saturating_sub(if bw > 3 { 1 } else { 0 }).max(1),
                h,
                s.color,
            );
        }
    }
    // X labels: every k-th bar, k chosen from the widest label so none overlap.
    for (tx, r, label) in x_tick_boxes(bars, bw, left, width, top + plot_h + 8, &|b| {
        clip(&x_label(b * per), 24)
    }) {
        cv.fill(tx, top + plot_h, 1, 4, INK);
        cv.text(r.x, r.y, &label, 1, INK);
    }
    // Legend.
    let mut x = left;
    let y = top + plot_h + 2 * LINE + 8;
    for s in series {
        cv.fill(x, y, 12, 12, s.color);
        x += 18 + cv.text(x + 18, y + 2, &s.name, 1, INK) + 16;
    }
    cv
}

/// The x labels of [`stacked_bars`]: one every `k` bars, `k` the least step at which
/// the widest label (plus a gap) fits between two ticks; each label centred under its
/// bar and kept inside the image. The boxes never overlap.
pub fn x_tick_boxes(
    bars: usize,
    bw: u32,
    left: u32,
    width: u32,
    y: u32,
    label: &dyn Fn(usize) -> String,
) -> Vec<(u32, Rect, String)> {
    if bars == 0 {
        return Vec::new();
    }
    let widest = (0..bars)
        .map(|b| text_width(&label(b), 1))
        .max()
        .unwrap_or(0);
    let k = ((widest + 12) as usize).div_ceil(bw.max(1) as usize).max(1);
    let ticks: Vec<(u32, String)> = (0..bars)
        .step_by(k)
        .map(|b| (1 + b as u32 * bw + bw / 2, label(b)))
        .collect();
    tick_label_boxes(&ticks, left, y, PAD, width.saturating_sub(2))
}

/// A horizontal bar of a site chart.
#[derive(Debug, Clone)]
pub struct SiteBar {
    pub label: String,
    /// Stacked parts in the order of `parts` given to [`site_bars`].
    pub values: Vec<u64>,
}

/// The top sites as horizontal stacked bars (linear), with their totals.
pub fn site_bars(title: &str, parts: &[(&str, Rgb)], bars: &[SiteBar]) -> Canvas {
    let label_chars = bars
        .iter()
        .map(|b| ascii(&b.label).len())
        .max()
        .unwrap_or(10)
        .clamp(10, 56);
    let left = PAD + label_chars as u32 * 8 + 10;
    let bar_w: u32 = 520;
    let row: u32 = 16;
    let top = 2 * PAD + 16 + 8;
    let width = left + bar_w + 120 + PAD;
    let height = top + row * bars.len().max(1) as u32 + 18 + 2 * PAD;
    let mut cv = Canvas::new(width, height, WHITE);
    cv.text(PAD, PAD, title, 2, INK);
    let max = bars
        .iter()
        .map(|b| b.values.iter().sum::<u64>())
        .max()
        .unwrap_or(0)
        .max(1);
    for (i, b) in bars.iter().enumerate() {
        let y = top + i as u32 * row;
        cv.text(PAD, y + 4, &clip(&b.label, label_chars), 1, INK);
        let mut x = left;
        let total: u64 = b.values.iter().sum();
        for (v, (_, c)) in b.values.iter().zip(parts) {
            if *v == 0 {
                continue;
            }
            let w = ((*v as f64 / max as f64) * bar_w as f64).round().max(1.0) as u32;
            cv.fill(x, y + 2, w, row - 4, *c);
            x += w;
        }
        cv.text(x + 6, y + 4, &th(total), 1, INK);
    }
    let mut x = PAD;
    let y = top + row * bars.len().max(1) as u32 + 8;
    for (name, c) in parts {
        cv.fill(x, y, 12, 12, *c);
        x += 18 + cv.text(x + 18, y + 2, name, 1, INK) + 16;
    }
    cv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(a: Rgb, b: Rgb) -> u32 {
        (0..3)
            .map(|i| (a[i] as i32 - b[i] as i32).unsigned_abs())
            .sum()
    }

    #[test]
    fn colours() {
        assert_eq!(heat_color(0, 0, 10), EMPTY_CELL);
        assert_eq!(heat_color(10, 0, 10), READ);
        assert_eq!(heat_color(0, 10, 10), WRITE);
        let b = heat_color(0, 1, 100);
        assert!(b[2] >= 90 && b[2] > b[0]);
        assert!(mono_color(1, 1000, ORIGIN) != EMPTY_CELL);
    }

    /// Read-only, write-only and both render as three colours far apart, and a cell
    /// with both keeps its balance visible: mostly reads looks like reads, mostly writes
    /// like writes (a single "both" colour once swamped the distinction).
    #[test]
    fn read_write_and_both_are_distinguishable() {
        let max = 500;
        let r = heat_color(400, 0, max);
        let w = heat_color(0, 400, max);
        let both = heat_color(200, 200, max);
        for (x, y) in [(r, w), (r, both), (w, both)] {
            assert!(dist(x, y) >= 120, "{x:?} vs {y:?}");
        }
        let mostly_r = heat_color(400, 100, max);
        let mostly_w = heat_color(100, 400, max);
        assert!(dist(mostly_r, r) < dist(mostly_r, w), "{mostly_r:?}");
        assert!(dist(mostly_w, w) < dist(mostly_w, r), "{mostly_w:?}");
        assert!(dist(mostly_r, mostly_w) >= 120);
        // Drawn: the three cells of a grid come out in three distinct colours.
        let g = Grid::new(1, 3, &[1, 1], &[9, 0, 9], &[0, 9, 9]).unwrap();
        let (cv, l) = heat_strip_layout(
            "t",
            "s",
            &[Frame {
                label: "f".into(),
                grid: g,
            }],
        );
        let r0 = l.grids[0];
        let s = r0.w / 3;
        let px: Vec<Rgb> = (0..3)
            .map(|i| cv.get(r0.x + i * s + s / 2, r0.y + r0.h / 2).unwrap())
            .collect();
        assert!(
            dist(px[0], px[1]) >= 120 && dist(px[0], px[2]) >= 60 && dist(px[1], px[2]) >= 60,
            "{px:?}"
        );
    }

    /// One hot element of a 1,000,000-element array (1000 × 1000, reduced for the
    /// picture) shows as a mark of at least MIN_MARK × MIN_MARK pixels at its column,
    /// with its own count (reduced by maximum, not diluted by its block).
    #[test]
    fn a_single_hot_cell_of_a_huge_array_is_visible() {
        let n = 1_000_000usize;
        let (hr, hc) = (500usize, 700usize);
        let mut reads = vec![0u64; n];
        reads[hr * 1000 + hc] = 3;
        // Its block also has a few cold neighbours: a sum would show 3 + 4.
        reads[hr * 1000 + hc + 1] = 1;
        reads[(hr + 1) * 1000 + hc] = 3;
        let g = Grid::new(1000, 1000, &[1, 1], &reads, &vec![0; n]).unwrap();
        assert!(g.rows < 1000 && g.reduced > 1);
        assert_eq!(g.max_a(), 3, "reduced by maximum");
        let (cv, l) = heat_strip_layout(
            "big",
            "",
            &[Frame {
                label: "f".into(),
                grid: g.clone(),
            }],
        );
        let r = l.grids[0];
        let col = r.x + (hc as u32 / g.reduced as u32) * g.scale();
        let row = r.y + (hr as u32 / g.reduced as u32) * g.scale();
        let lit = |x: u32, y: u32| cv.get(x, y).is_some_and(|c| c != EMPTY_CELL && c != WHITE);
        assert!(
            (r.y..r.y + r.h).any(|y| lit(col, y)),
            "nothing in column {col}"
        );
        // A mark, not a lone pixel.
        let mut n_lit = 0;
        for y in row.saturating_sub(3)..row + 4 {
            for x in col.saturating_sub(3)..col + 4 {
                n_lit += lit(x, y) as u32;
            }
        }
        assert!(n_lit >= MIN_MARK * MIN_MARK, "{n_lit} pixels lit");
        // Nothing far away is lit.
        assert!(!(r.y..r.y + r.h).any(|y| lit(r.x + 5, y)));
    }

    fn disjoint(boxes: &[Rect]) {
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                let apart =
                    a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
                assert!(apart, "{a:?} overlaps {b:?}");
            }
        }
    }

    /// The over-time chart's x labels (snapshot labels like jacobi's) never overlap,
    /// for few wide bars and for many narrow ones, and every tick gets a label box
    /// inside the image.
    #[test]
    fn time_axis_labels_do_not_overlap() {
        let label = |b: usize| format!("#{b} iteration {}", (b + 1) * 50);
        for bars in [1usize, 2, 9, 40, 450] {
            let bw = PLOT_W / bars as u32;
            let boxes = x_tick_boxes(bars, bw, 96, 96 + PLOT_W + 20, 300, &label);
            assert!(!boxes.is_empty());
            assert!(boxes.len() > 1 || bars < 3, "{bars}: {boxes:?}");
            let rects: Vec<Rect> = boxes.iter().map(|b| b.1).collect();
            disjoint(&rects);
            assert!(rects.iter().all(|r| r.x + r.w <= 96 + PLOT_W + 20));
        }
        // Drawn: the chart renders the same labels.
        let series = [Series {
            name: "r".into(),
            color: READ,
            values: vec![5; 9],
        }];
        let cv = stacked_bars("t", "s", &series, &|i| label(i));
        assert!(cv.w >= PLOT_W);
    }

    /// Heatmaps and origin maps have axes (tick marks and labels next to the grid) and
    /// a colour legend with its numeric range.
    #[test]
    fn heatmaps_have_axes_and_a_legend() {
        let g = Grid::new(64, 64, &[8, 8], &[3; 4096], &[1; 4096]).unwrap();
        let (cv, l) = heat_strip_layout(
            "t",
            "s",
            &[Frame {
                label: "f".into(),
                grid: g.clone(),
            }],
        );
        let r = l.grids[0];
        // The x axis: a line under the grid; the y axis: a line left of it.
        assert!((r.x..r.x + r.w).all(|x| cv.get(x, r.y + r.h) == Some(INK)));
        assert!((r.y..r.y + r.h).all(|y| cv.get(r.x - 1, y) == Some(INK)));
        // Tick labels: ink under the axis and left of it.
        let ink = |x0: u32, x1: u32, y0: u32, y1: u32| {
            (y0..y1).any(|y| (x0..x1).any(|x| cv.get(x, y) == Some(INK)))
        };
        assert!(
            ink(r.x, r.x + r.w, r.y + r.h + 5, r.y + r.h + 15),
            "x labels"
        );
        assert!(ink(0, r.x - 6, r.y, r.y + r.h), "y labels");
        // The legend: below the frames, with the colour ramps.
        assert!(l.legend.y >= r.y + r.h && l.legend.h > 0);
        let has = |c: Rgb| {
            (l.legend.y..l.legend.y + l.legend.h)
                .any(|y| (l.legend.x..l.legend.x + l.legend.w).any(|x| cv.get(x, y) == Some(c)))
        };
        assert!(
            has(READ) && has(WRITE),
            "legend ramps end in the full colours"
        );
        assert!(ink(
            l.legend.x,
            l.legend.x + l.legend.w,
            l.legend.y,
            l.legend.y + l.legend.h
        ));
        // Axis ticks: nice steps whose labels fit.
        let t = axis_ticks(256, 512, &|v| th(v));
        assert_eq!(t.first(), Some(&(0, 0)));
        assert!(
            t.len() >= 3
                && t.windows(2)
                    .all(|w| w[1].0 - w[0].0 >= text_width("512", 1) + 8)
        );
        // An origin map has axes too.
        let (cv, r) = single_map(
            "t",
            "s",
            "c",
            &Grid::new(10, 10, &[1, 1], &[1; 100], &[]).unwrap(),
            ORIGIN,
        );
        assert!((r.x..r.x + r.w).all(|x| cv.get(x, r.y + r.h) == Some(INK)));
    }

    #[test]
    fn grids_are_fitted_scaled_and_binned() {
        let g = Grid::new(2, 3, &[4, 4], &[1, 2], &[]).unwrap();
        assert_eq!(g.a, vec![1, 2, 0, 0, 0, 0]);
        assert!(g.b.is_empty());
        assert_eq!(g.scale(), 80);
        assert_eq!(g.pixels(), (240, 160));
        let g = Grid::new(160, 160, &[1, 1], &[], &[]).unwrap();
        assert_eq!(g.pixels(), (320, 320));
        let g = Grid::new(32, 32, &[1, 1], &[], &[]).unwrap();
        assert_eq!(g.pixels(), (256, 256));
        assert!(Grid::new(0, 3, &[], &[], &[]).is_none());
        let big = Grid::new(1000, 10, &[1, 1], &[1; 10000], &[2; 10000]).unwrap();
        assert_eq!((big.rows, big.cols), (200, 2));
        assert_eq!(big.cell, (5, 5));
        assert_eq!(big.reduced, 5);
        // Reduced by maximum.
        assert_eq!((big.max_a(), big.max_b()), (1, 2));
    }

    #[test]
    fn text_and_png() {
        let mut c = Canvas::new(100, 20, WHITE);
        let w = c.text(2, 2, "a←b", 1, INK);
        assert_eq!(w, 4 * 8);
        assert!((0..100).any(|x| c.get(x, 5) == Some(INK)));
        let bytes = c.png().unwrap();
        let dec = png::Decoder::new(std::io::Cursor::new(bytes));
        let r = dec.read_info().unwrap();
        assert_eq!((r.info().width, r.info().height), (100, 20));
        assert_eq!(clip("abcdefgh", 5), "ab...");
    }
}
