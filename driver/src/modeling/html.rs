//! `taintprof model --html DIR`: `DIR/index.html`, self-contained (inline SVG, no
//! script, nothing fetched): per call path and metric, a plot per varied parameter of
//! the measured points (the mean of the repetitions with a min–max bar; the other
//! parameters at their most common value) against both fitted curves (taint prior and
//! black box) with a legend, log-scaled axes where the values span a factor of 10 or
//! more; then the models, the notes and the warnings. All text is escaped.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use taintprof_fit::model::{fmt_number, Model};

use super::{varied, Modeled, Outcome};

use crate::html::escape;

const W: f64 = 520.0;
const H: f64 = 320.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 20.0;
const BOTTOM: f64 = 90.0;

/// A linear or logarithmic axis over `[lo, hi]`.
#[derive(Clone, Copy, Debug)]
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Axis {
    fn new(lo: f64, hi: f64) -> Axis {
        let log = lo > 0.0 && hi / lo >= 10.0;
        let (mut lo, mut hi) = (lo, hi);
        // A constant (or nearly: rounding) range gets ±10%.
        if hi - lo <= 1e-9 * lo.abs().max(hi.abs()) {
            let d = if lo == 0.0 && hi == 0.0 {
                1.0
            } else {
                lo.abs().max(hi.abs()) * 0.1
            };
            lo -= d;
            hi += d;
        }
        Axis { lo, hi, log }
    }

    /// The position of `v` in [0, 1].
    fn frac(&self, v: f64) -> f64 {
        if self.log {
            (v.ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }

    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (a, b) = (
                self.lo.log10().floor() as i32,
                self.hi.log10().ceil() as i32,
            );
            let within = |v: &f64| *v >= self.lo * 0.999 && *v <= self.hi * 1.001;
            let decades: Vec<f64> = (a..=b).map(|e| 10f64.powi(e)).filter(within).collect();
            if decades.len() >= 3 {
                return decades;
            }
            // Less than three decades: 1, 2 and 5 times the powers of ten.
            let t: Vec<f64> = (a..=b)
                .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
                .filter(within)
                .collect();
            if t.len() < 2 {
                vec![self.lo, self.hi]
            } else {
                t
            }
        } else {
            let span = self.hi - self.lo;
            let raw = span / 5.0;
            let mag = 10f64.powf(raw.log10().floor());
            let step = [1.0, 2.0, 5.0, 10.0]
                .iter()
                .map(|m| m * mag)
                .find(|s| span / s <= 6.0)
                .unwrap_or(mag * 10.0);
            let first = (self.lo / step).ceil();
            let count = ((self.hi / step + 1e-9).floor() - first).clamp(0.0, 20.0) as usize;
            (0..=count).map(|k| (first + k as f64) * step).collect()
        }
    }
}

/// The most common value of each coordinate over the points (ties: the smallest).
fn modes(m: &taintprof_fit::Measurements) -> Vec<f64> {
    (0..m.params.len())
        .map(|d| {
            let mut vals: Vec<f64> = m.points.iter().map(|p| p.coords[d]).collect();
            vals.sort_by(f64::total_cmp);
            let mut best = (vals[0], 0usize);
            let mut i = 0;
            while i < vals.len() {
                let j = vals[i..].iter().take_while(|v| **v == vals[i]).count();
                if j > best.1 {
                    best = (vals[i], j);
                }
                i += j;
            }
            best.0
        })
        .collect()
}

/// A fitted curve: its name, colour, dash pattern, model string and points.
type Curve<'a> = (&'a str, &'a str, &'a str, String, Vec<(f64, f64)>);

/// One plot: the metric of `d` against parameter `q`.
fn plot(d: &Modeled, q: usize, id: usize) -> String {
    let m = &d.measurements;
    let base = modes(m);
    let pts: Vec<(f64, f64, f64, f64)> = m
        .points
        .iter()
        .filter(|p| (0..p.coords.len()).all(|k| k == q || p.coords[k] == base[k]))
        .map(|p| {
            let mean = p.reps.iter().sum::<f64>() / p.reps.len() as f64;
            let lo = p.reps.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = p.reps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (p.coords[q], mean, lo, hi)
        })
        .collect();
    let xs: Vec<f64> = pts.iter().map(|p| p.0).collect();
    let xlo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let xhi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let xa = Axis::new(xlo, xhi);
    let samples: Vec<f64> = (0..=64)
        .map(|i| {
            let f = f64::from(i) / 64.0;
            if xa.log {
                (xlo.ln() + f * (xhi.ln() - xlo.ln())).exp()
            } else {
                xlo + f * (xhi - xlo)
            }
        })
        .collect();
    let curve = |model: &Model| -> Vec<(f64, f64)> {
        samples
            .iter()
            .map(|&x| {
                let mut c = base.clone();
                c[q] = x;
                (x, model.eval(&c))
            })
            .filter(|(_, y)| y.is_finite())
            .collect()
    };
    let mut curves: Vec<Curve> = Vec::new();
    if let Some(p) = &d.prior {
        curves.push((
            "taint prior",
            "#1f5fbf",
            "",
            p.model.display(&m.params),
            curve(&p.model),
        ));
    }
    curves.push((
        "black box",
        "#d9730d",
        "6 4",
        d.black_box.model.display(&m.params),
        curve(&d.black_box.model),
    ));
    let mut ys: Vec<f64> = pts.iter().flat_map(|p| [p.2, p.3]).collect();
    ys.extend(curves.iter().flat_map(|c| c.4.iter().map(|p| p.1)));
    let ylo_data = pts.iter().map(|p| p.2).fold(f64::INFINITY, f64::min);
    let yhi_data = pts.iter().map(|p| p.3).fold(f64::NEG_INFINITY, f64::max);
    // The curves widen the range, but not beyond a decade around the data.
    let span = (yhi_data - ylo_data).abs().max(yhi_data.abs() * 0.1);
    let ylo = ys
        .iter()
        .copied()
        .filter(|y| *y >= ylo_data - span && (ylo_data <= 0.0 || *y >= ylo_data / 10.0))
        .fold(ylo_data, f64::min);
    let yhi = ys
        .iter()
        .copied()
        .filter(|y| *y <= yhi_data + 10.0 * span)
        .fold(yhi_data, f64::max);
    let ya = Axis::new(ylo, yhi);
    let pw = W - LEFT - RIGHT;
    let ph = H - TOP - BOTTOM;
    let px = |x: f64| LEFT + xa.frac(x) * pw;
    let py = |y: f64| TOP + (1.0 - ya.frac(y)) * ph;
    let inside = |y: f64| (!ya.log || y > 0.0) && (-0.05..=1.05).contains(&ya.frac(y));
    // Curves are clipped to the plot area (they may leave it between the points).
    let drawable = |y: f64| (!ya.log || y > 0.0) && (-10.0..=11.0).contains(&ya.frac(y));
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img"><title>{}</title>"#,
        escape(&format!(
            "{} / {} against {}",
            d.callpath, d.metric, m.params[q]
        ))
    );
    let _ = write!(
        s,
        r##"<defs><clipPath id="plot{id}"><rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}"/></clipPath></defs><rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>"##
    );
    for t in xa.ticks() {
        let x = px(t);
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{}" stroke="#888"/><text x="{x:.1}" y="{}" font-size="11" text-anchor="middle">{}</text>"##,
            TOP + ph,
            TOP + ph + 4.0,
            TOP + ph + 16.0,
            escape(&fmt_number(t))
        );
    }
    for t in ya.ticks() {
        let y = py(t);
        let _ = write!(
            s,
            r##"<line x1="{}" y1="{y:.1}" x2="{LEFT}" y2="{y:.1}" stroke="#888"/><text x="{}" y="{:.1}" font-size="11" text-anchor="end">{}</text>"##,
            LEFT - 4.0,
            LEFT - 6.0,
            y + 4.0,
            escape(&fmt_number(t))
        );
    }
    let _ = write!(
        s,
        r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}{}</text>"#,
        LEFT + pw / 2.0,
        TOP + ph + 32.0,
        escape(&m.params[q]),
        if xa.log { " (log)" } else { "" }
    );
    let _ = write!(
        s,
        r#"<text x="14" y="{:.1}" font-size="12" text-anchor="middle" transform="rotate(-90 14 {:.1})">{}{}</text>"#,
        TOP + ph / 2.0,
        TOP + ph / 2.0,
        escape(&d.metric),
        if ya.log { " (log)" } else { "" }
    );
    for (name, color, dash, _, pts) in &curves {
        let path: Vec<String> = pts
            .iter()
            .filter(|(_, y)| drawable(*y))
            .map(|(x, y)| format!("{:.1},{:.1}", px(*x), py(*y)))
            .collect();
        if path.len() > 1 {
            let _ = write!(
                s,
                r#"<polyline class="curve" data-curve="{}" clip-path="url(#plot{id})" points="{}" fill="none" stroke="{color}" stroke-width="2"{}/>"#,
                escape(name),
                path.join(" "),
                if dash.is_empty() {
                    String::new()
                } else {
                    format!(r#" stroke-dasharray="{dash}""#)
                }
            );
        }
    }
    for (x, mean, lo, hi) in &pts {
        let x = px(*x);
        if inside(*lo) && inside(*hi) && lo < hi {
            let _ = write!(
                s,
                r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#222"/>"##,
                py(*lo),
                py(*hi)
            );
        }
        if inside(*mean) {
            let _ = write!(
                s,
                r##"<circle cx="{x:.1}" cy="{:.1}" r="3.5" fill="#222"><title>{}</title></circle>"##,
                py(*mean),
                escape(&format!(
                    "mean {} (min {}, max {})",
                    fmt_number(*mean),
                    fmt_number(*lo),
                    fmt_number(*hi)
                ))
            );
        }
    }
    // Legend under the plot.
    let mut ly = TOP + ph + 48.0;
    let _ = write!(
        s,
        r##"<circle cx="{}" cy="{:.1}" r="3.5" fill="#222"/><text x="{}" y="{:.1}" font-size="11">measured: mean, min–max of the repetitions{}</text>"##,
        LEFT + 10.0,
        ly - 4.0,
        LEFT + 28.0,
        ly,
        escape(&others(m, q, &base))
    );
    for (name, color, dash, model, _) in &curves {
        ly += 16.0;
        let _ = write!(
            s,
            r#"<line x1="{}" y1="{:.1}" x2="{}" y2="{:.1}" stroke="{color}" stroke-width="2"{}/><text x="{}" y="{:.1}" font-size="11">{}: {}</text>"#,
            LEFT,
            ly - 4.0,
            LEFT + 22.0,
            ly - 4.0,
            if dash.is_empty() {
                String::new()
            } else {
                format!(r#" stroke-dasharray="{dash}""#)
            },
            LEFT + 28.0,
            ly,
            escape(name),
            escape(model)
        );
    }
    s.push_str("</svg>");
    s
}

/// `; m=2, p=4` for the other parameters held at their most common value.
fn others(m: &taintprof_fit::Measurements, q: usize, base: &[f64]) -> String {
    let v: Vec<String> = (0..m.params.len())
        .filter(|&k| k != q)
        .map(|k| format!("{}={}", m.params[k], fmt_number(base[k])))
        .collect();
    if v.is_empty() {
        String::new()
    } else {
        format!("; {}", v.join(", "))
    }
}

/// The page.
pub fn page(o: &Outcome) -> String {
    let params = &o.experiment.params;
    let mut s = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>taintprof model</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}td.num{text-align:right}.warn{color:#a40000}.note{color:#555}section{margin-bottom:2.5em}svg{margin:4px;border:1px solid #eee}</style></head><body>\n<h1>Performance models</h1>\n",
    );
    let _ = writeln!(
        s,
        "<p>Parameters: {}. {} model{} (taint prior: fitted with the taint report's volume; black box: Extra-P's search without it).</p>",
        escape(&params.join(", ")),
        o.modeled.len(),
        if o.modeled.len() == 1 { "" } else { "s" },
    );
    let mut last = "";
    let mut plots = 0usize;
    for d in &o.modeled {
        if d.callpath != last {
            if !last.is_empty() {
                s.push_str("</section>\n");
            }
            let _ = writeln!(s, "<section><h2>{}</h2>", escape(&d.callpath));
            last = &d.callpath;
        }
        let _ = writeln!(s, "<h3>{}</h3>", escape(&d.metric));
        s.push_str("<table><tr><th>fit</th><th>model</th><th>SMAPE</th><th>adj. R²</th>");
        if o.predict.is_some() {
            s.push_str("<th>prediction</th>");
        }
        s.push_str("</tr>\n");
        let mut rows = Vec::new();
        if let Some(p) = &d.prior {
            rows.push((super::how(d, true), p));
        }
        rows.push((super::how(d, false), &d.black_box));
        for (how, r) in rows {
            let _ = write!(
                s,
                "<tr><td>{}</td><td>{}</td><td class=\"num\">{:.2}%</td><td class=\"num\">{:.4}</td>",
                escape(&how),
                escape(&r.model.display(params)),
                r.stats.smape,
                r.stats.adj_r2
            );
            if let Some(c) = &o.predict {
                let _ = write!(
                    s,
                    "<td class=\"num\">{}</td>",
                    escape(&fmt_number(r.model.eval(c)))
                );
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table>\n");
        for n in &d.notes {
            let _ = writeln!(s, "<p class=\"note\">{}</p>", escape(n));
        }
        for w in &d.main().warnings {
            let _ = writeln!(s, "<p class=\"warn\">warning: {}</p>", escape(&w.detail));
        }
        for w in &d.branch_warnings {
            let _ = writeln!(
                s,
                "<p class=\"warn\">warning: {}</p>",
                escape(w["detail"].as_str().unwrap_or_default())
            );
        }
        let vary = varied(&d.measurements);
        if vary.is_empty() {
            s.push_str("<p class=\"note\">one point: nothing to plot</p>\n");
        }
        s.push_str("<div>");
        for q in vary {
            plots += 1;
            s.push_str(&plot(d, q, plots));
        }
        s.push_str("</div>\n");
    }
    if !last.is_empty() {
        s.push_str("</section>\n");
    }
    s.push_str("</body></html>\n");
    s
}

/// Writes `dir/index.html`; returns its path.
pub fn write(o: &Outcome, dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let index = dir.join("index.html");
    std::fs::write(&index, page(o))
        .map_err(|e| format!("cannot write {}: {e}", index.display()))?;
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_axes() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
        let a = Axis::new(1.0, 1000.0);
        assert!(a.log);
        assert_eq!(a.ticks(), vec![1.0, 10.0, 100.0, 1000.0]);
        assert!((a.frac(10.0) - 1.0 / 3.0).abs() < 1e-12);
        let b = Axis::new(0.0, 10.0);
        assert!(!b.log);
        assert_eq!(b.ticks(), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        // A range of rounding errors is widened, and ticks end.
        let c = Axis::new(2.0, 2.0 + 4e-16);
        assert!(c.lo < 1.9 && c.hi > 2.1, "{c:?}");
        assert!(c.ticks().len() <= 21);
    }
}
