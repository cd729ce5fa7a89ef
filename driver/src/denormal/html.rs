//! `taintprof denormals REPORT --html DIR`: `DIR/index.html` (self-contained: inline
//! CSS, no scripts, no external assets; opens from disk) with the same tables as the
//! text (a profile-tier report: the instruction profile and the creator sites, no
//! arrays), and PNG pictures next to it:
//!
//! | file | what |
//! |---|---|
//! | `sites.png` | the top sites as bars split into operands / results / loads / stores |
//! | `heat-<id>-<array>.png` | the array's heatmaps, one frame per snapshot interval, reads red, writes blue |
//! | `heat-<id>-<array>-total.png` | the same summed over the run |
//! | `origin-<k>-<dest>-from-<src>.png` | origin map: denormals stored into `dest` that were loaded from `src` |
//! | `over-time.png` | reads/writes per snapshot interval (compiler) or exceptions per interval (exceptions) |

use super::image::{self, Frame, Grid, Series, SiteBar};
use super::summary::{self, Summary};
use super::{thousands as th, DenormalReport};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Snapshots beyond this many are merged into this many heatmap frames per array.
pub const MAX_FRAMES: usize = 24;
/// Sites in `sites.png`.
pub const CHART_SITES: usize = 15;

/// What [`write`] produced.
#[derive(Debug, Clone)]
pub struct Written {
    pub index: PathBuf,
    pub images: Vec<PathBuf>,
}

pub use crate::html::escape as esc;

/// A file-name-safe version of an array name.
pub fn slug(s: &str) -> String {
    let mut o: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    o.truncate(40);
    if o.is_empty() {
        o.push('_');
    }
    o
}

const CSS: &str = r#"
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a1a20; margin: 24px 32px; max-width: 1500px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 6px; }
.sub { color: #666; margin: 0 0 16px; }
table { border-collapse: collapse; margin: 6px 0 10px; }
th, td { padding: 3px 10px; text-align: left; vertical-align: top; }
th { background: #f1f1f4; font-weight: 600; border-bottom: 1px solid #ccc; }
tr:nth-child(even) td { background: #fafafc; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.fn td { background: #eef1f8; font-weight: 600; border-top: 1px solid #d5d9e6; }
td.site { padding-left: 26px; }
code, td.code { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 13px; }
dl.head { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; margin: 8px 0; }
dl.head dt { color: #666; }
dl.head dd { margin: 0; }
.alarm { background: #fff0f0; border: 2px solid #d33; padding: 10px 14px; margin: 12px 0; font-weight: 600; }
.warn { background: #fff8e6; border-left: 4px solid #e0a000; padding: 6px 12px; margin: 4px 0; }
.note { color: #555; font-size: 13px; }
.pics { overflow-x: auto; padding: 4px 0; }
.pics img { image-rendering: pixelated; border: 1px solid #ddd; margin: 4px 8px 4px 0; vertical-align: top; max-width: none; }
.role-source { color: #b00; font-weight: 600; }
.role-sink { color: #05a; font-weight: 600; }
.role-propagates { color: #707; font-weight: 600; }
nav a { margin-right: 14px; }
"#;

fn img(o: &mut String, file: &str, alt: &str) {
    let _ = writeln!(
        o,
        "<img src=\"{}\" alt=\"{}\" title=\"{}\">",
        esc(file),
        esc(alt),
        esc(alt)
    );
}

fn num(n: u64) -> String {
    format!("<td class=\"n\">{}</td>", th(n))
}

fn num_blank(n: Option<u64>) -> String {
    match n {
        Some(n) if n > 0 => num(n),
        _ => "<td class=\"n\"></td>".into(),
    }
}

fn pct(p: f64) -> String {
    if p > 0.0 && p < 0.05 {
        "<td class=\"n\">&lt;0.1%</td>".into()
    } else {
        format!("<td class=\"n\">{p:.1}%</td>")
    }
}

/// The heatmap frames of array `id`, one per snapshot that has its heatmap, merged
/// into at most [`MAX_FRAMES`].
///
/// Snapshots without a heatmap for the array (the runtime leaves out empty ones) get an
/// empty frame of the same shape, so the strip shows when nothing happened too.
pub fn frames_of(r: &DenormalReport, id: u64) -> Vec<Frame> {
    let grids: Vec<Option<Grid>> = r
        .snapshots
        .iter()
        .map(|s| {
            let h = s
                .arrays
                .iter()
                .find(|a| a.id == id)
                .and_then(|a| a.heatmap.as_ref())?;
            Grid::new(h.rows, h.cols, &h.cell, &h.reads, &h.writes)
        })
        .collect();
    let Some(template) = grids.iter().flatten().next().cloned() else {
        return Vec::new();
    };
    let empty = Grid {
        a: vec![0; template.a.len()],
        b: vec![0; template.a.len()],
        ..template
    };
    let all: Vec<Frame> = r
        .snapshots
        .iter()
        .zip(grids)
        .map(|(s, g)| Frame {
            label: format!("#{} {}", s.index, s.label),
            grid: g.unwrap_or_else(|| empty.clone()),
        })
        .collect();
    if all.len() <= MAX_FRAMES {
        return all;
    }
    summary::groups(all.len(), MAX_FRAMES)
        .into_iter()
        .map(|(a, b)| {
            let mut g = all[a].grid.clone();
            for f in &all[a + 1..b] {
                g.add(&f.grid);
            }
            let first = all[a].label.split(' ').next().unwrap_or("").to_string();
            let last = &all[b - 1].label;
            Frame {
                label: if b - a == 1 {
                    last.clone()
                } else {
                    format!("{first}..{}", last.trim_start_matches('#'))
                },
                grid: g,
            }
        })
        .collect()
}

/// Writes `dir/index.html` and the pictures.
pub fn write(r: &DenormalReport, s: &Summary, dir: &Path) -> Result<Written, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut images: Vec<PathBuf> = Vec::new();
    let mut save = |cv: &image::Canvas, name: &str| -> Result<String, String> {
        let p = dir.join(name);
        cv.save(&p)?;
        images.push(p);
        Ok(name.to_string())
    };
    let compiler = s.mode == "compiler";
    // Arrays are shown for a full-tier report (or whatever arrays a report has).
    let show_arrays = (compiler && !s.profile_tier()) || !s.arrays.is_empty();
    let mut o = String::new();
    let title = format!("Denormals in {} (pid {})", s.program, s.pid);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>{}</title>\n<style>{CSS}</style></head><body>\n",
        esc(&title)
    );
    let _ = writeln!(o, "<h1>{}</h1>", esc(&title));
    let _ = writeln!(
        o,
        "<p class=\"sub\">taintprof denormal report <code>{}</code> — {} mode{}</p>",
        esc(&s.file),
        esc(&s.mode),
        s.tier
            .as_deref()
            .map(|t| format!(", {} tier", esc(t)))
            .unwrap_or_default()
    );
    let _ = writeln!(o, "<nav><a href=\"#profile\">Instruction profile</a>{}{}{}{}{}<a href=\"#warnings\">Warnings</a></nav>",
        if s.creator_sites.is_some() { "<a href=\"#creator-sites\">Creator sites</a>" } else { "" },
        if show_arrays { "<a href=\"#arrays\">Arrays</a>" } else { "" },
        if !s.origins.is_empty() { "<a href=\"#origins\">Origins</a>" } else { "" },
        if !s.creators.is_empty() { "<a href=\"#creators\">Creators</a>" } else { "" },
        if s.snapshots.is_some() || s.timeline.is_some() { "<a href=\"#time\">Over time</a>" } else { "" },
    );

    // Header.
    let fp = &s.fp_environment;
    if fp.nothing_to_trace {
        let _ = writeln!(
            o,
            "<div class=\"alarm\">{} {} (MXCSR {}): denormals are flushed to zero, so there is nothing to trace — and this program does not pay for denormals ({}).</div>",
            match (fp.ftz, fp.daz) {
                (true, true) => "Flush-to-zero (FTZ) and denormals-are-zero (DAZ)",
                (true, false) => "Flush-to-zero (FTZ)",
                _ => "Denormals-are-zero (DAZ)",
            },
            fp.alarm_verb(),
            esc(&fp.mxcsr_shown()),
            esc(fp.why_flushed())
        );
    }
    o.push_str("<dl class=\"head\">\n");
    let mut dd = |k: &str, v: String| {
        let _ = writeln!(o, "<dt>{}</dt><dd>{}</dd>", esc(k), v);
    };
    dd(
        "program",
        format!(
            "<code>{}</code> (pid {}, {} thread{})",
            esc(&s.command),
            s.pid,
            s.threads.max(1),
            if s.threads > 1 { "s" } else { "" }
        ),
    );
    dd("exit", esc(&s.exit));
    dd(
        "mode",
        esc(if compiler && s.profile_tier() {
            "compiler: every floating-point operation of the instrumented code checked — exact counts"
        } else if compiler {
            "compiler: every floating-point operation of the instrumented code checked — exact counts, arrays, origins, creators"
        } else {
            "exceptions: the CPU's denormal exceptions in an unmodified binary — instructions, not arrays"
        }),
    );
    if let Some(tier) = &s.tier {
        dd("tier", esc(&summary::tier_text(tier)));
    }
    dd(
        "FP environment",
        format!(
            "{}{}",
            esc(&fp.describe(|s| format!("\u{1}{s}\u{2}")))
                .replace('\u{1}', "<b>")
                .replace('\u{2}', "</b>")
                .replace("<b>off</b>", "off"),
            if fp.changed_by_program {
                " — changed by the program during the run"
            } else {
                ""
            }
        ),
    );
    let t = &s.totals;
    if let Some(n) = t.fp_operations {
        dd("FP operations", th(n));
    }
    if compiler {
        dd(
            "denormal operands",
            format!(
                "{}{}",
                th(t.denormal_operands),
                t.operand_percent
                    .map(|p| format!(" ({p:.2}% of FP operations)"))
                    .unwrap_or_default()
            ),
        );
        dd("denormal results", th(t.denormal_results));
        dd(
            "denormal loads / stores",
            format!(
                "{} / {}",
                th(t.denormal_loads.unwrap_or(0)),
                th(t.denormal_stores.unwrap_or(0))
            ),
        );
    } else {
        dd("denormal-operand exceptions", th(t.denormal_operands));
        dd("underflow exceptions", th(t.denormal_results));
    }
    o.push_str("</dl>\n");

    let short = super::render::in_short_lines(s);
    if !short.is_empty() {
        o.push_str("<h2>In short</h2>\n<ul>\n");
        for l in short {
            let _ = writeln!(o, "<li>{}</li>", esc(&l));
        }
        o.push_str("</ul>\n");
    }

    // Instruction profile.
    let _ = writeln!(
        o,
        "<h2 id=\"profile\">Instruction profile</h2>\n<p class=\"note\">{} {} with denormal events{}, grouped by function, by events (cf. thesis Tables {}).</p>",
        s.sites_total,
        if compiler { "sites" } else { "instructions" },
        if s.sites_shown < s.sites_total {
            format!(", the top {} shown (--top)", s.sites_shown)
        } else {
            String::new()
        },
        if compiler { "6.3, 6.6" } else { "4.6, 6.2, 6.5" }
    );
    if s.sites_total > 0 {
        o.push_str("<table>\n");
        if compiler {
            o.push_str("<tr><th>function / site</th><th>op</th><th>type</th><th class=\"n\">executions</th><th class=\"n\">operands</th><th class=\"n\">results</th><th class=\"n\">loads</th><th class=\"n\">stores</th><th class=\"n\">share</th></tr>\n");
        } else {
            o.push_str("<tr><th>function / address</th><th>instruction</th><th>source</th><th class=\"n\">operand exc.</th><th class=\"n\">underflow exc.</th><th class=\"n\">share</th></tr>\n");
        }
        for f in &s.functions {
            if compiler {
                let _ = writeln!(
                    o,
                    "<tr class=\"fn\"><td>{}</td><td></td><td></td><td></td>{}{}{}{}{}</tr>",
                    esc(&f.function),
                    num(f.denormal_operands),
                    num(f.denormal_results),
                    num(f.denormal_loads.unwrap_or(0)),
                    num(f.denormal_stores.unwrap_or(0)),
                    pct(f.percent)
                );
                for x in &f.sites {
                    let _ = writeln!(
                        o,
                        "<tr><td class=\"site code\" title=\"{}\">{}</td><td class=\"code\">{}</td><td class=\"code\">{}</td>{}{}{}{}{}{}</tr>",
                        esc(&x.file),
                        esc(&x.source),
                        esc(&x.op),
                        esc(&x.ty),
                        num_blank(x.executions),
                        num_blank(Some(x.denormal_operands)),
                        num_blank(Some(x.denormal_results)),
                        num_blank(x.denormal_loads),
                        num_blank(x.denormal_stores),
                        pct(x.percent)
                    );
                }
            } else {
                let module = f
                    .module
                    .as_deref()
                    .map(super::basename)
                    .filter(|m| !m.is_empty() && *m != s.program)
                    .map(|m| format!(" <span class=\"note\">[{}]</span>", esc(m)))
                    .unwrap_or_default();
                let _ = writeln!(
                    o,
                    "<tr class=\"fn\"><td colspan=\"3\">{}{module}</td>{}{}{}</tr>",
                    esc(&f.function),
                    num(f.denormal_operands),
                    num(f.denormal_results),
                    pct(f.percent)
                );
                for x in &f.sites {
                    let _ = writeln!(
                        o,
                        "<tr><td class=\"site code\">{}</td><td class=\"code\">{}</td><td class=\"code\" title=\"{}\">{}</td>{}{}{}</tr>",
                        esc(x.address.as_deref().unwrap_or("?")),
                        esc(x.instruction.as_deref().unwrap_or("?")),
                        esc(&x.file),
                        esc(&x.source),
                        num_blank(Some(x.denormal_operands)),
                        num_blank(Some(x.denormal_results)),
                        pct(x.percent)
                    );
                }
            }
        }
        o.push_str("</table>\n");
        if s.sites_shown < s.sites_total {
            let _ = writeln!(
                o,
                "<p class=\"note\">… {} more with {} events (--top 0 shows all).</p>",
                s.sites_total - s.sites_shown,
                th(s.events_not_shown)
            );
        }
        if !s.lines.is_empty() {
            let _ = writeln!(
                o,
                "<h3>By source line</h3>\n<table><tr><th>line</th><th>function</th><th class=\"n\">{}</th>{}<th class=\"n\">share</th></tr>",
                if compiler { "sites" } else { "instructions" },
                if compiler {
                    "<th class=\"n\">operands</th><th class=\"n\">results</th><th class=\"n\">loads</th><th class=\"n\">stores</th>"
                } else {
                    "<th class=\"n\">operand exc.</th><th class=\"n\">underflow exc.</th>"
                }
            );
            for l in &s.lines {
                let _ = write!(
                    o,
                    "<tr><td class=\"code\" title=\"{}\">{}</td><td class=\"code\">{}</td><td class=\"n\">{}</td>{}{}",
                    esc(&l.file),
                    esc(&l.source),
                    esc(&l.function),
                    l.sites,
                    num_blank(Some(l.denormal_operands)),
                    num_blank(Some(l.denormal_results))
                );
                if compiler {
                    o.push_str(&num_blank(l.denormal_loads));
                    o.push_str(&num_blank(l.denormal_stores));
                }
                let _ = writeln!(o, "{}</tr>", pct(l.percent));
            }
            o.push_str("</table>\n");
        }
        // Bar chart of the top sites.
        let mut bars: Vec<(String, &summary::SiteRow)> = s
            .functions
            .iter()
            .flat_map(|f| {
                f.sites.iter().map(move |x| {
                    (
                        if compiler {
                            format!("{} {} {}", f.function, x.source, x.op)
                        } else {
                            format!(
                                "{} {} {} {}",
                                f.function,
                                x.source,
                                x.address.as_deref().unwrap_or("?"),
                                x.instruction.as_deref().unwrap_or("")
                            )
                        },
                        x,
                    )
                })
            })
            .collect();
        bars.sort_by_key(|b| std::cmp::Reverse(b.1.events));
        bars.truncate(CHART_SITES);
        let chart = if compiler {
            image::site_bars(
                &format!("Top {} sites by denormal events", bars.len()),
                &[
                    ("operands", image::READ),
                    ("results", image::WRITE),
                    ("loads", image::LOAD),
                    ("stores", image::STORE),
                ],
                &bars
                    .iter()
                    .map(|(l, x)| SiteBar {
                        label: l.clone(),
                        values: vec![
                            x.denormal_operands,
                            x.denormal_results,
                            x.denormal_loads.unwrap_or(0),
                            x.denormal_stores.unwrap_or(0),
                        ],
                    })
                    .collect::<Vec<_>>(),
            )
        } else {
            image::site_bars(
                &format!("Top {} instructions by denormal exceptions", bars.len()),
                &[
                    ("denormal-operand exceptions", image::READ),
                    ("underflow exceptions", image::WRITE),
                ],
                &bars
                    .iter()
                    .map(|(l, x)| SiteBar {
                        label: l.clone(),
                        values: vec![x.denormal_operands, x.denormal_results],
                    })
                    .collect::<Vec<_>>(),
            )
        };
        let f = save(&chart, "sites.png")?;
        o.push_str("<div class=\"pics\">");
        img(&mut o, &f, "top sites");
        o.push_str("</div>\n");
    }

    // Creator sites.
    if let Some(cs) = &s.creator_sites {
        o.push_str("<h2 id=\"creator-sites\">Creator sites</h2>\n");
        if cs.rows.is_empty() {
            let _ = writeln!(
                o,
                "<p class=\"note\">No instrumented operation made a denormal from normal operands{}.</p>",
                if s.totals.events > 0 {
                    " (the denormals came from memory, arguments or uninstrumented code)"
                } else {
                    ""
                }
            );
        } else {
            let _ = writeln!(
                o,
                "<p class=\"note\">Where denormals are made: {} result elements that were denormal while no operand of theirs was (a denormal constant in the code does not count), at {} site{}{}.</p>",
                th(cs.created),
                cs.sites_total,
                if cs.sites_total == 1 { "" } else { "s" },
                if cs.rows.len() < cs.sites_total {
                    format!(", the top {} shown (--top)", cs.rows.len())
                } else {
                    String::new()
                }
            );
            o.push_str("<table>\n<tr><th>function</th><th>site</th><th>op</th><th>type</th><th class=\"n\">created</th><th class=\"n\">share</th></tr>\n");
            for c in &cs.rows {
                let _ = writeln!(
                    o,
                    "<tr><td class=\"code\">{}</td><td class=\"code\" title=\"{}\">{}</td><td class=\"code\">{}</td><td class=\"code\">{}</td>{}{}</tr>",
                    esc(&c.function),
                    esc(&c.file),
                    esc(&c.source),
                    esc(&c.op),
                    esc(&c.ty),
                    num(c.created),
                    pct(c.percent)
                );
            }
            o.push_str("</table>\n");
        }
    }

    // Arrays.
    if show_arrays {
        let with = s.arrays.len() - s.arrays_without_denormals;
        let _ = writeln!(
            o,
            "<h2 id=\"arrays\">Arrays</h2>\n<p class=\"note\">{with} of {} marked arrays hold denormals. Reads vs writes tell the role (thesis 6.2.2).</p>",
            s.arrays.len()
        );
        if !s.arrays.is_empty() {
            o.push_str("<table>\n<tr><th>array</th><th>kind</th><th>type</th><th class=\"n\">elements</th><th class=\"n\">reads</th><th class=\"n\">writes</th><th>role</th><th>allocated at</th><th>reading</th></tr>\n");
            for a in &s.arrays {
                let _ = writeln!(
                    o,
                    "<tr><td class=\"code\"><a href=\"#array-{}\">{}</a></td><td>{}</td><td class=\"code\">{}</td><td class=\"n\">{}</td>{}{}<td class=\"role-{}\">{}</td><td>{}</td><td class=\"note\">{}</td></tr>",
                    a.id,
                    esc(&a.name),
                    esc(&a.kind),
                    esc(&a.element_type),
                    esc(&a.dimensions),
                    num(a.denormal_reads),
                    num(a.denormal_writes),
                    esc(&a.role),
                    esc(&a.role),
                    esc(a.allocated_at.as_deref().unwrap_or("")),
                    esc(&a.reading)
                );
            }
            o.push_str("</table>\n");
        }
        for a in s
            .arrays
            .iter()
            .filter(|a| a.denormal_reads + a.denormal_writes > 0)
        {
            let frames = frames_of(r, a.id);
            let _ = writeln!(
                o,
                "<h3 id=\"array-{}\">{} <span class=\"note\">({} {}, {} elements, {})</span></h3>",
                a.id,
                esc(&a.name),
                esc(&a.kind),
                esc(&a.element_type),
                esc(&a.dimensions),
                esc(&a.role)
            );
            if frames.is_empty() {
                o.push_str(
                    "<p class=\"note\">No heatmaps for this array in the report's snapshots.</p>\n",
                );
                continue;
            }
            let g0 = &frames[0].grid;
            let sub = format!(
                "denormal reads (red) and writes (blue) per snapshot interval; one block = {}x{} elements",
                g0.cell.0, g0.cell.1
            );
            let base = format!("heat-{}-{}", a.id, slug(&a.name));
            let (strip, _) = image::heat_strip(&format!("{} over time", a.name), &sub, &frames);
            let f1 = save(&strip, &format!("{base}.png"))?;
            o.push_str("<div class=\"pics\">");
            img(&mut o, &f1, &format!("{} over time", a.name));
            o.push_str("</div>\n");
            if frames.len() > 1 {
                let mut total = g0.clone();
                for f in &frames[1..] {
                    total.add(&f.grid);
                }
                let (whole, _) = image::single_heat(
                    &format!("{}: whole run", a.name),
                    &format!(
                        "all intervals summed; one block = {}x{} elements",
                        total.cell.0, total.cell.1
                    ),
                    &total,
                );
                let f2 = save(&whole, &format!("{base}-total.png"))?;
                o.push_str("<div class=\"pics\">");
                img(&mut o, &f2, &format!("{} whole run", a.name));
                o.push_str("</div>\n");
            }
        }
    }

    // Origins.
    if !s.origins.is_empty() {
        o.push_str("<h2 id=\"origins\">Origins</h2>\n<p class=\"note\">Denormals stored into an array (rows) by the array they were loaded from (columns), thesis 6.2.3.</p>\n");
        if let Some(names) = &s.origin_matrix {
            o.push_str("<table><tr><th>stored into ↓ / loaded from →</th>");
            for n in names {
                let _ = write!(o, "<th class=\"n\">{}</th>", esc(n));
            }
            o.push_str("</tr>\n");
            for d in names {
                let _ = write!(o, "<tr><td class=\"code\">{}</td>", esc(d));
                for src in names {
                    let n: u64 = s
                        .origins
                        .iter()
                        .filter(|x| &x.dest == d && &x.src == src)
                        .map(|x| x.count)
                        .sum();
                    if n == 0 {
                        o.push_str("<td class=\"n\">—</td>");
                    } else {
                        o.push_str(&num(n));
                    }
                }
                o.push_str("</tr>\n");
            }
            o.push_str("</table>\n");
        } else {
            o.push_str("<table><tr><th>stored into</th><th>loaded from</th><th class=\"n\">denormals</th><th class=\"n\">of its writes</th></tr>\n");
            for x in &s.origins {
                let _ = writeln!(
                    o,
                    "<tr><td class=\"code\">{}</td><td class=\"code\">{}</td>{}<td class=\"n\">{}</td></tr>",
                    esc(&x.dest),
                    esc(if x.src.is_empty() { "(no array)" } else { &x.src }),
                    num(x.count),
                    x.percent_of_dest_writes
                        .map(|p| format!("{p:.1}%"))
                        .unwrap_or_default()
                );
            }
            o.push_str("</table>\n");
        }
        let mut pics = String::new();
        for (k, m) in r.origin_maps.iter().enumerate() {
            let Some(g) = Grid::new(m.rows, m.cols, &m.cell, &m.counts, &[]) else {
                continue;
            };
            if g.sum_a() == 0 {
                continue;
            }
            let (cv, _) = image::single_map(
                &format!("{} <- {}", m.dest, m.src),
                &format!(
                    "denormals stored into {} that were loaded from {}",
                    m.dest, m.src
                ),
                &format!(
                    "{} in total; one block = {}x{} elements",
                    th(g.sum_a()),
                    g.cell.0,
                    g.cell.1
                ),
                &g,
                image::ORIGIN,
            );
            let f = save(
                &cv,
                &format!("origin-{k}-{}-from-{}.png", slug(&m.dest), slug(&m.src)),
            )?;
            img(&mut pics, &f, &format!("{} from {}", m.dest, m.src));
        }
        if !pics.is_empty() {
            let _ = writeln!(o, "<div class=\"pics\">{pics}</div>");
        }
    }

    // Creators.
    if !s.creators.is_empty() {
        o.push_str("<h2 id=\"creators\">Creators</h2>\n<p class=\"note\">Where each array's denormals were first produced from normal values — the answer to the backward chain of thesis 6.5.8.</p>\n<table><tr><th>array</th><th class=\"n\">denormals</th><th class=\"n\">share</th><th>created by</th><th>in function</th><th>at</th></tr>\n");
        for g in &s.creators {
            for (i, c) in g.creators.iter().enumerate() {
                let _ = writeln!(
                    o,
                    "<tr><td class=\"code\">{}</td>{}{}<td class=\"code\">{}</td><td class=\"code\">{}</td><td class=\"code\" title=\"{}\">{}</td></tr>",
                    if i == 0 { esc(&g.array) } else { String::new() },
                    num(c.count),
                    pct(c.percent),
                    esc(&c.op),
                    esc(&c.function),
                    esc(&c.file),
                    esc(&c.source)
                );
            }
        }
        o.push_str("</table>\n");
        if s.creators
            .iter()
            .any(|g| g.creators.iter().any(|c| c.found_not_made()))
        {
            let _ = writeln!(
                o,
                "<p class=\"note\">{}</p>",
                esc(&super::summary::FOUND_NOT_MADE[..1].to_uppercase())
                    + &esc(&super::summary::FOUND_NOT_MADE[1..])
                    + "."
            );
        }
        for g in &s.creators {
            let (ch, cycle) = super::render::chain(s, &g.array);
            if ch.is_empty() {
                continue;
            }
            let mut line = format!("<b>{}</b>", esc(&g.array));
            for (n, count) in &ch {
                let _ = write!(line, " ← {} ({})", esc(n), th(*count));
            }
            if cycle {
                line.push_str(": a cycle — the arrays pass denormals back and forth");
            } else if let Some(c) = ch.last().and_then(|(last, _)| {
                s.creators
                    .iter()
                    .find(|x| &x.array == last)
                    .and_then(|x| x.creators.first())
            }) {
                let _ = write!(
                    line,
                    " ← created by <code>{}</code> in {} at {}",
                    esc(&c.op),
                    esc(&c.function),
                    esc(&c.source)
                );
            }
            let _ = writeln!(o, "<p>Backward chain: {line}</p>");
        }
    }

    // Over time.
    if let Some(st) = &s.snapshots {
        o.push_str("<h2 id=\"time\">Over time</h2>\n");
        let _ = writeln!(
            o,
            "<p class=\"note\">{} snapshots{}; denormal reads / writes of each array during each interval (thesis Table 4.5).</p>",
            st.snapshots,
            if st.rows.len() < st.snapshots {
                format!(", merged into {} rows", st.rows.len())
            } else {
                String::new()
            }
        );
        o.push_str(
            "<table><tr><th class=\"n\">#</th><th>snapshot</th><th class=\"n\">FP operations</th>",
        );
        for a in &st.arrays {
            let _ = write!(
                o,
                "<th class=\"n\">{} reads</th><th class=\"n\">{} writes</th>",
                esc(a),
                esc(a)
            );
        }
        o.push_str("<th class=\"n\">all arrays</th></tr>\n");
        for row in &st.rows {
            let _ = write!(
                o,
                "<tr><td class=\"n\">{}</td><td>{}</td>{}",
                esc(&row.index),
                esc(&row.label),
                num(row.fp_operations)
            );
            for (rd, wr) in &row.counts {
                o.push_str(&num(*rd));
                o.push_str(&num(*wr));
            }
            o.push_str(&num(row.events));
            o.push_str("</tr>\n");
        }
        o.push_str("</table>\n");
        let iv = summary::interval_counts(r);
        let reads: Vec<u64> = iv.iter().map(|x| x.iter().map(|a| a.1).sum()).collect();
        let writes: Vec<u64> = iv.iter().map(|x| x.iter().map(|a| a.2).sum()).collect();
        let labels: Vec<String> = r
            .snapshots
            .iter()
            .map(|x| format!("#{} {}", x.index, x.label))
            .collect();
        let cv = image::stacked_bars(
            "Denormal reads and writes per snapshot interval",
            "all marked arrays; one bar per interval",
            &[
                Series {
                    name: "reads".into(),
                    color: image::READ,
                    values: reads,
                },
                Series {
                    name: "writes".into(),
                    color: image::WRITE,
                    values: writes,
                },
            ],
            &|i| labels.get(i).cloned().unwrap_or_default(),
        );
        let f = save(&cv, "over-time.png")?;
        o.push_str("<div class=\"pics\">");
        img(&mut o, &f, "reads and writes over time");
        o.push_str("</div>\n");
    }
    if s.timeline.is_some() && !r.timeline.is_empty() {
        let tl = &r.timeline;
        let step = if tl.len() >= 2 {
            tl[1].t_ms.saturating_sub(tl[0].t_ms).max(1)
        } else {
            1
        };
        o.push_str("<h2 id=\"time\">Over time</h2>\n");
        let _ = writeln!(
            o,
            "<p class=\"note\">Denormal exceptions per {step} ms interval (thesis Table 4.5: denormals building up and dying away).</p>"
        );
        let per = image::bar_merge(tl.len()) as u64;
        let seconds = tl.last().map(|e| e.t_ms).unwrap_or(0) >= 10_000;
        let cv = image::stacked_bars(
            "Denormal exceptions over time",
            &format!(
                "exceptions per {} ms{}",
                th(step * per),
                if per > 1 {
                    format!(" (one bar = {per} of the report's {step} ms intervals)")
                } else {
                    String::new()
                }
            ),
            &[
                Series {
                    name: "denormal-operand exceptions".into(),
                    color: image::READ,
                    values: tl.iter().map(|e| e.denormal_operands).collect(),
                },
                Series {
                    name: "underflow exceptions".into(),
                    color: image::WRITE,
                    values: tl.iter().map(|e| e.denormal_results).collect(),
                },
            ],
            &|i| {
                tl.get(i)
                    .map(|e| {
                        if seconds {
                            format!("{:.1} s", e.t_ms as f64 / 1000.0)
                        } else {
                            format!("{} ms", e.t_ms)
                        }
                    })
                    .unwrap_or_default()
            },
        );
        let f = save(&cv, "over-time.png")?;
        o.push_str("<div class=\"pics\">");
        img(&mut o, &f, "exceptions over time");
        o.push_str("</div>\n");
        if let Some(tt) = &s.timeline {
            o.push_str("<table><tr><th class=\"n\">t (ms)</th><th class=\"n\">operand exc.</th><th class=\"n\">underflow exc.</th></tr>\n");
            for row in &tt.rows {
                let _ = writeln!(
                    o,
                    "<tr>{}{}{}</tr>",
                    num(row.t_ms),
                    num(row.denormal_operands),
                    num(row.denormal_results)
                );
            }
            o.push_str("</table>\n");
        }
    }

    // Warnings.
    o.push_str("<h2 id=\"warnings\">Warnings</h2>\n");
    if s.warnings.is_empty() {
        o.push_str("<p class=\"note\">None.</p>\n");
    }
    for w in &s.warnings {
        let _ = writeln!(o, "<div class=\"warn\">{}</div>", esc(w));
    }
    let _ = writeln!(
        o,
        "<p class=\"note\">Written by taintprof {} from <code>{}</code>.</p>\n</body></html>",
        env!("CARGO_PKG_VERSION"),
        esc(&s.file)
    );
    let index = dir.join("index.html");
    std::fs::write(&index, o).map_err(|e| format!("cannot write {}: {e}", index.display()))?;
    Ok(Written { index, images })
}

#[cfg(test)]
mod tests {
    use super::super::summary::{fixtures::report, summarize, SummaryOptions};
    use super::*;

    fn html(tier: Option<&str>, arrays: bool, name: &str) -> (String, Written) {
        let r = report(tier, true, arrays);
        let s = summarize(&r, "k.5.denormal.json", &SummaryOptions::default());
        let dir =
            std::env::temp_dir().join(format!("taintprof-dn-html-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let w = write(&r, &s, &dir).unwrap();
        let page = std::fs::read_to_string(&w.index).unwrap();
        (page, w)
    }

    #[test]
    fn a_profile_tier_page_has_the_tier_and_the_creator_sites_and_no_arrays() {
        let (page, w) = html(Some("profile"), false, "profile");
        assert!(page.contains("— compiler mode, profile tier</p>"), "{page}");
        assert!(
            page.contains("<dt>tier</dt><dd>profile (instruction profile and creator sites; build with --tp-denormal=full for arrays, heatmaps and origins)</dd>"),
            "{page}"
        );
        assert!(
            page.contains("<a href=\"#creator-sites\">Creator sites</a>"),
            "{page}"
        );
        assert!(
            page.contains("<h2 id=\"creator-sites\">Creator sites</h2>"),
            "{page}"
        );
        assert!(
            page.contains("<td class=\"code\">compute</td><td class=\"code\" title=\"/src/k.c\">k.c:12:5</td><td class=\"code\">call expf</td><td class=\"code\">float</td><td class=\"n\">7</td><td class=\"n\">63.6%</td>"),
            "{page}"
        );
        for absent in [
            "id=\"arrays\"",
            "href=\"#arrays\"",
            "id=\"origins\"",
            "id=\"time\"",
        ] {
            assert!(!page.contains(absent), "{absent}: {page}");
        }
        // Only the sites chart: no heatmaps, origin maps or over-time pictures.
        let names: Vec<String> = w
            .images
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["sites.png"]);
        let _ = std::fs::remove_dir_all(w.index.parent().unwrap());
    }

    #[test]
    fn a_full_tier_page_has_the_tier_the_creator_sites_and_the_arrays() {
        let (page, w) = html(Some("full"), true, "full");
        assert!(page.contains("— compiler mode, full tier</p>"), "{page}");
        assert!(page.contains("<dt>tier</dt><dd>full ("), "{page}");
        assert!(
            page.contains("<h2 id=\"creator-sites\">Creator sites</h2>"),
            "{page}"
        );
        assert!(page.contains("<h2 id=\"arrays\">Arrays</h2>"), "{page}");
        assert!(page.contains("<h2 id=\"creators\">Creators</h2>"), "{page}");
        assert!(w.images.iter().any(|p| p.ends_with("heat-1-grid.png")));
        let _ = std::fs::remove_dir_all(w.index.parent().unwrap());
    }
}
