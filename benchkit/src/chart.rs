//! The bench's PNG bar chart: one group of bars per workload (one bar per
//! configuration, slowdown against native on a log scale with grid lines at 1×, 2×, 5×,
//! 10×, ...), the geometric means as the last group, and a legend. Drawn with the
//! canvas and bitmap font of the denormal pictures ([`taintprof_driver::denormal::image`]).

use taintprof_driver::denormal::image::{
    clip, text_width, Canvas, Rect, Rgb, GREY, INK, LIGHT, WHITE,
};

/// A configuration: one bar per group.
#[derive(Debug, Clone)]
pub struct Series {
    pub name: String,
    pub color: Rgb,
}

/// A workload (or the geometric means): one value per series, `None` where there is
/// no figure.
#[derive(Debug, Clone)]
pub struct Group {
    pub label: String,
    pub values: Vec<Option<f64>>,
}

/// A drawn bar (for tests and image maps).
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub group: usize,
    pub series: usize,
    pub value: f64,
    pub rect: Rect,
}

const PAD: u32 = 14;
const BAR_W: u32 = 12;
const BAR_GAP: u32 = 2;
const GROUP_GAP: u32 = 30;
const PLOT_H: u32 = 340;
const LEFT: u32 = 64;

/// The color of a configuration's bars (fixed for the known ones, so charts of
/// different runs compare at a glance).
pub fn color_of(config: &str, index: usize) -> Rgb {
    match config {
        "native" => [150, 150, 155],
        "taint" => [214, 39, 40],
        "taint-nocf" => [250, 140, 130],
        "dfsan" => [31, 119, 180],
        "denormal" => [44, 160, 44],
        "denormal-profile" => [152, 223, 138],
        "valgrind-none" => [148, 103, 189],
        "dip" => [255, 127, 14],
        "dip-exact" => [255, 187, 120],
        _ => {
            const MORE: [Rgb; 5] = [
                [140, 86, 75],
                [227, 119, 194],
                [188, 189, 34],
                [23, 190, 207],
                [60, 60, 60],
            ];
            MORE[index % MORE.len()]
        }
    }
}

/// The 1-2-5 grid values from `lo` to `hi` (both on the grid).
pub fn grid_values(lo: f64, hi: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let mut decade = 10f64.powi(lo.log10().floor() as i32 - 1);
    while decade <= hi * 10.0 {
        for m in [1.0, 2.0, 5.0] {
            let v = m * decade;
            if v >= lo * 0.999 && v <= hi * 1.001 {
                out.push(v);
            }
        }
        decade *= 10.0;
    }
    out
}

/// The axis range: the grid value at or below the smallest figure (at most 0.5×, so a
/// bar at 1× has height) and the one at or above the largest (at least 2×).
pub fn axis_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut min, mut max) = (0.5f64, 2.0f64);
    for v in values.filter(|v| v.is_finite() && *v > 0.0) {
        min = min.min(v);
        max = max.max(v);
    }
    let below = |v: f64| {
        let d = 10f64.powf(v.log10().floor());
        [5.0, 2.0, 1.0]
            .iter()
            .map(|m| m * d)
            .find(|g| *g <= v * 1.0001)
            .unwrap_or(d)
    };
    let above = |v: f64| {
        let d = 10f64.powf(v.log10().floor());
        [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * d)
            .find(|g| *g >= v * 0.9999)
            .unwrap_or(10.0 * d)
    };
    (below(min), above(max))
}

/// `1x`, `0.5x`, `200x`.
fn factor_label(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.0}x")
    } else {
        format!("{v}x")
    }
}

/// Draws the chart; returns it and the bars drawn (missing values have none).
pub fn slowdown_chart(
    title: &str,
    subtitle: &str,
    series: &[Series],
    groups: &[Group],
) -> (Canvas, Vec<Bar>) {
    let n = series.len().max(1) as u32;
    let group_w = n * (BAR_W + BAR_GAP) + GROUP_GAP;
    let plot_w = group_w * groups.len().max(1) as u32;
    let top = PAD + 16 + 8 + 8 + 16;
    let width = (LEFT + plot_w + PAD).max(LEFT + text_width(title, 2) + PAD);
    // Legend rows: as many swatches per row as fit.
    let legend_items: Vec<(String, Rgb)> = series
        .iter()
        .map(|s| (s.name.clone(), s.color))
        .chain(std::iter::once(("x  no figure".to_string(), GREY)))
        .collect();
    let mut legend_rows: Vec<Vec<(String, Rgb, u32)>> = vec![Vec::new()];
    let mut x = LEFT;
    for (name, c) in &legend_items {
        let w = 18 + text_width(name, 1) + 20;
        if x + w > width - PAD && !legend_rows.last().unwrap().is_empty() {
            legend_rows.push(Vec::new());
            x = LEFT;
        }
        legend_rows.last_mut().unwrap().push((name.clone(), *c, x));
        x += w;
    }
    let legend_top = top + PLOT_H + 34;
    let height = legend_top + legend_rows.len() as u32 * 20 + PAD;
    let mut cv = Canvas::new(width, height, WHITE);
    cv.text(PAD, PAD, title, 2, INK);
    cv.text(PAD, PAD + 24, subtitle, 1, GREY);

    let (lo, hi) = axis_range(
        groups
            .iter()
            .flat_map(|g| g.values.iter().flatten().copied()),
    );
    let (llo, lhi) = (lo.ln(), hi.ln());
    let y_of = |v: f64| -> u32 {
        let f = ((v.clamp(lo, hi).ln() - llo) / (lhi - llo)).clamp(0.0, 1.0);
        top + PLOT_H - (f * PLOT_H as f64).round() as u32
    };
    // Grid lines and their labels; 1x darker.
    for g in grid_values(lo, hi) {
        let y = y_of(g);
        let c = if (g - 1.0).abs() < 1e-9 {
            [90, 90, 100]
        } else {
            LIGHT
        };
        cv.fill(LEFT, y, plot_w, 1, c);
        cv.text_right(LEFT - 6, y.saturating_sub(3), &factor_label(g), 1, INK);
    }
    cv.fill(LEFT, top, 1, PLOT_H + 1, INK);
    cv.fill(LEFT, top + PLOT_H, plot_w, 1, INK);

    let mut bars = Vec::new();
    let base = top + PLOT_H;
    for (gi, g) in groups.iter().enumerate() {
        let gx = LEFT + gi as u32 * group_w + GROUP_GAP / 2;
        if gi + 1 == groups.len() && g.label == "geomean" && gi > 0 {
            // Set the geometric means apart.
            let sx = gx - GROUP_GAP / 2;
            let mut y = top;
            while y < base {
                cv.fill(sx, y, 1, 3, GREY);
                y += 6;
            }
        }
        for (si, v) in g.values.iter().enumerate().take(series.len()) {
            let x = gx + si as u32 * (BAR_W + BAR_GAP);
            match v {
                Some(v) if v.is_finite() && *v > 0.0 => {
                    let y = y_of(*v).min(base - 1);
                    let rect = Rect {
                        x,
                        y,
                        w: BAR_W,
                        h: base - y,
                    };
                    cv.fill(rect.x, rect.y, rect.w, rect.h, series[si].color);
                    bars.push(Bar {
                        group: gi,
                        series: si,
                        value: *v,
                        rect,
                    });
                }
                _ => {
                    cv.text(x + 2, base - 10, "x", 1, GREY);
                }
            }
        }
        let label = clip(&g.label, (group_w / 8) as usize);
        let lw = text_width(&label, 1);
        let cx = gx + (n * (BAR_W + BAR_GAP)) / 2;
        cv.text(cx.saturating_sub(lw / 2), base + 8, &label, 1, INK);
    }

    for (r, row) in legend_rows.iter().enumerate() {
        let y = legend_top + r as u32 * 20;
        for (name, c, x) in row {
            if let Some(rest) = name.strip_prefix("x  ") {
                cv.text(*x + 2, y + 2, "x", 1, *c);
                cv.text(*x + 18, y + 2, rest, 1, INK);
            } else {
                cv.fill(*x, y, 12, 12, *c);
                cv.text(*x + 18, y + 2, name, 1, INK);
            }
        }
    }
    (cv, bars)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_is_one_two_five() {
        assert_eq!(grid_values(0.5, 20.0), [0.5, 1.0, 2.0, 5.0, 10.0, 20.0]);
        assert_eq!(grid_values(1.0, 1.0), [1.0]);
        assert_eq!(axis_range([1.0, 3.0].into_iter()), (0.5, 5.0));
        assert_eq!(axis_range([0.98, 17.6].into_iter()), (0.5, 20.0));
        assert_eq!(axis_range([0.3, 120.0].into_iter()), (0.2, 200.0));
        assert_eq!(axis_range(std::iter::empty()), (0.5, 2.0));
        assert_eq!(factor_label(0.5), "0.5x");
        assert_eq!(factor_label(20.0), "20x");
    }

    #[test]
    fn bars_are_drawn_in_their_color_with_heights_in_order() {
        let series = vec![
            Series {
                name: "native".into(),
                color: color_of("native", 0),
            },
            Series {
                name: "taint".into(),
                color: color_of("taint", 1),
            },
        ];
        let groups = vec![
            Group {
                label: "a".into(),
                values: vec![Some(1.0), Some(10.0)],
            },
            Group {
                label: "geomean".into(),
                values: vec![Some(1.0), None],
            },
        ];
        let (cv, bars) = slowdown_chart("t", "s", &series, &groups);
        assert_eq!(bars.len(), 3);
        for b in &bars {
            let c = series[b.series].color;
            assert_eq!(
                cv.get(b.rect.x + b.rect.w / 2, b.rect.y + b.rect.h / 2),
                Some(c)
            );
        }
        // 10x is taller than 1x; the axis starts at 0.5x so 1x has height.
        assert!(bars[1].rect.h > bars[0].rect.h && bars[0].rect.h > 10);
    }
}
