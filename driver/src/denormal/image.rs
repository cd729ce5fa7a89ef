//! Pictures of a denormal report, drawn into RGB canvases and written as PNG files:
//!
//! * [`heat_strip`]: an array's heatmaps over time — one frame per snapshot interval,
//!   left to right and row by row, denormal reads red, writes blue, both magenta,
//!   log-scaled on one scale for all frames (so a fading wavefront fades), with a
//!   legend; small grids are enlarged (nearest neighbour) so a cell is a visible block;
//! * [`origin_map`]: per element of `dest`, the denormals stored there that were loaded
//!   from `src`;
//! * [`stacked_bars`]: counts over time (the exception timeline, snapshot intervals);
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
pub const BOTH: Rgb = [255, 40, 255];
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

fn channel(n: u64, max: u64) -> u8 {
    if n == 0 {
        return 0;
    }
    (MIN_LEVEL + (255.0 - MIN_LEVEL) * level(n, max)).round() as u8
}

/// The colour of a heatmap cell: reads red, writes blue, both magenta, on dark.
pub fn heat_color(reads: u64, writes: u64, max_reads: u64, max_writes: u64) -> Rgb {
    if reads == 0 && writes == 0 {
        return EMPTY_CELL;
    }
    let r = channel(reads, max_reads);
    let b = channel(writes, max_writes);
    [r.max(EMPTY_CELL[0]), EMPTY_CELL[1], b.max(EMPTY_CELL[2])]
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
        };
        Some(g.binned())
    }

    /// Grids larger than 2 × [`FRAME_TARGET`] are summed into blocks.
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
                a[j] += self.a[i];
                if !b.is_empty() {
                    b[j] += self.b[i];
                }
            }
        }
        Grid {
            rows: nr,
            cols: nc,
            cell: (self.cell.0 * k as u64, self.cell.1 * k as u64),
            a,
            b,
        }
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

/// Draws a grid at (x, y): two series as heat colours (maxima given), one series in
/// `mono`.
fn draw_grid(cv: &mut Canvas, g: &Grid, x: u32, y: u32, max: (u64, u64), mono: Rgb) -> Rect {
    let s = g.scale();
    for r in 0..g.rows {
        for c in 0..g.cols {
            let i = (r * g.cols + c) as usize;
            let col = if g.b.is_empty() {
                mono_color(g.a[i], max.0, mono)
            } else {
                heat_color(g.a[i], g.b[i], max.0, max.1)
            };
            cv.fill(x + c * s, y + r * s, s, s, col);
        }
    }
    let (w, h) = g.pixels();
    Rect { x, y, w, h }
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

/// A legend gradient from 1 to `max` (log scale) in colour `c`; returns its height.
fn gradient(cv: &mut Canvas, x: u32, y: u32, name: &str, max: u64, c: Rgb) -> u32 {
    let w = 160;
    let lw = cv.text(x, y + 2, name, 1, INK) + 6;
    for i in 0..w {
        let n = if max <= 1 {
            1
        } else {
            ((max as f64).ln_1p() * (i as f64 + 1.0) / w as f64)
                .exp_m1()
                .round() as u64
        };
        let col = mono_color(n.max(1), max.max(1), c);
        cv.fill(x + lw + i, y, 1, 12, col);
    }
    cv.text(
        x + lw + w + 6,
        y + 2,
        &format!("1 .. {} (log)", th(max.max(1))),
        1,
        INK,
    );
    16
}

/// An array's heatmaps over time on one scale: frames left to right, then wrapping;
/// returns the image and the rectangles of the frames' grids (for tests and image maps).
pub fn heat_strip(title: &str, subtitle: &str, frames: &[Frame]) -> (Canvas, Vec<Rect>) {
    let max_r = frames.iter().map(|f| f.grid.max_a()).max().unwrap_or(0);
    let max_w = frames.iter().map(|f| f.grid.max_b()).max().unwrap_or(0);
    let (gw, gh) = frames
        .iter()
        .map(|f| f.grid.pixels())
        .fold((0, 0), |(a, b), (w, h)| (a.max(w), b.max(h)));
    let fw = gw.max(140);
    let per_row = (MAX_PER_ROW).min(frames.len().max(1) as u32);
    let nrows = (frames.len() as u32).div_ceil(per_row).max(1);
    let fh = LINE + 4 + gh + 4 + 2 * LINE;
    let head = 2 * PAD + 16 + LINE;
    let legend = 3 * 18 + PAD;
    let width = (2 * PAD + per_row * fw + (per_row - 1) * GAP)
        .max(text_width(title, 2) + 2 * PAD)
        .max(text_width(subtitle, 1) + 2 * PAD)
        .max(520);
    let height = head + nrows * (fh + GAP) + legend;
    let mut cv = Canvas::new(width, height, WHITE);
    cv.text(PAD, PAD, title, 2, INK);
    cv.text(PAD, PAD + 20, subtitle, 1, GREY);
    let mut rects = Vec::new();
    let chars = (fw / 8) as usize;
    for (i, f) in frames.iter().enumerate() {
        let (col, row) = (i as u32 % per_row, i as u32 / per_row);
        let x = PAD + col * (fw + GAP);
        let y = head + row * (fh + GAP);
        cv.text(x, y, &clip(&f.label, chars), 1, INK);
        let r = draw_grid(&mut cv, &f.grid, x, y + LINE + 4, (max_r, max_w), READ);
        rects.push(r);
        let cy = r.y + r.h + 4;
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
    let mut y = ly;
    y += gradient(&mut cv, PAD, y, "reads ", max_r, READ) + 2;
    y += gradient(&mut cv, PAD, y, "writes", max_w, WRITE) + 2;
    let lw = cv.text(PAD, y + 2, "both  ", 1, INK);
    cv.fill(PAD + lw + 6, y, 24, 12, BOTH);
    cv.fill(PAD + lw + 40, y, 24, 12, EMPTY_CELL);
    cv.text(
        PAD + lw + 70,
        y + 2,
        "none; counts per cell and interval",
        1,
        INK,
    );
    (cv, rects)
}

/// One map in one colour (origin maps, whole-run totals of one series).
pub fn single_map(title: &str, subtitle: &str, caption: &str, g: &Grid, c: Rgb) -> (Canvas, Rect) {
    let (gw, gh) = g.pixels();
    let width = (gw + 2 * PAD)
        .max(text_width(title, 2) + 2 * PAD)
        .max(text_width(subtitle, 1) + 2 * PAD)
        .max(text_width(caption, 1) + 2 * PAD)
        .max(420);
    let head = 2 * PAD + 16 + LINE;
    let height = head + gh + 8 + LINE + 2 * 18 + PAD;
    let mut cv = Canvas::new(width, height, WHITE);
    cv.text(PAD, PAD, title, 2, INK);
    cv.text(PAD, PAD + 20, subtitle, 1, GREY);
    let r = draw_grid(&mut cv, g, PAD, head, (g.max_a(), g.max_b()), c);
    cv.text(PAD, head + gh + 6, caption, 1, INK);
    gradient(
        &mut cv,
        PAD,
        head + gh + 8 + LINE + 4,
        "count",
        g.max_a(),
        c,
    );
    (cv, r)
}

/// A two-series heatmap on its own (the whole run of an array).
pub fn single_heat(title: &str, subtitle: &str, g: &Grid) -> (Canvas, Rect) {
    let f = Frame {
        label: "whole run".into(),
        grid: g.clone(),
    };
    let (cv, r) = heat_strip(title, subtitle, std::slice::from_ref(&f));
    (cv, r[0])
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
    // X labels: up to 6.
    if bars > 0 {
        let ticks = bars.min(6);
        for k in 0..ticks {
            let b = if ticks == 1 {
                0
            } else {
                k * (bars - 1) / (ticks - 1)
            };
            let x = left + 1 + b as u32 * bw + bw / 2;
            cv.fill(x, top + plot_h, 1, 4, INK);
            let label = clip(&x_label(b * per), 18);
            let lw = text_width(&label, 1);
            let lx = x.saturating_sub(lw / 2).min(width.saturating_sub(lw + 2));
            cv.text(
                lx.max(left.saturating_sub(20)),
                top + plot_h + 8,
                &label,
                1,
                INK,
            );
        }
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

    #[test]
    fn colours() {
        assert_eq!(heat_color(0, 0, 10, 10), EMPTY_CELL);
        let r = heat_color(10, 0, 10, 10);
        assert_eq!(r, [255, EMPTY_CELL[1], EMPTY_CELL[2]]);
        let b = heat_color(0, 1, 10, 100);
        assert!(b[2] >= 90 && b[0] == EMPTY_CELL[0]);
        let m = heat_color(5, 5, 5, 5);
        assert_eq!(m, [255, EMPTY_CELL[1], 255]);
        assert!(mono_color(1, 1000, ORIGIN) != EMPTY_CELL);
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
        assert_eq!(big.sum_a(), 10000);
        assert_eq!(big.sum_b(), 20000);
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
