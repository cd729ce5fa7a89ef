//! The denormal summary as text: [`full`] for `taintprof denormals` and `taintprof dip`,
//! [`short`] for `taintprof run`. The tables follow the thesis's: the instruction
//! profile (Tables 4.6, 6.3, 6.5), arrays (6.7), origins (6.9), over time (4.5); and
//! the creator sites (where denormals are made from normal values), which the profile
//! tier keeps when it leaves out arrays, origins and heatmaps.

use super::summary::{tier_text, Summary, FOUND_NOT_MADE};
use super::thousands as th;
use crate::table::{shown_name, Align, Table};

/// Longest bar in the timeline.
const BAR: usize = 30;

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn opt(n: Option<u64>) -> String {
    n.map(th).unwrap_or_default()
}

/// A count in a site row: blank for zero, so the non-zero ones stand out (as in the
/// thesis's tables).
fn cell(n: u64) -> String {
    if n == 0 {
        String::new()
    } else {
        th(n)
    }
}

fn cell_opt(n: Option<u64>) -> String {
    cell(n.unwrap_or(0))
}

fn pct(p: f64) -> String {
    if p > 0.0 && p < 0.05 {
        "<0.1%".into()
    } else {
        format!("{p:.1}%")
    }
}

/// A share, with its 95 % interval when it is an estimate (sampled profile).
fn pct_ci(p: f64, ci: Option<(f64, f64)>) -> String {
    match ci {
        Some((lo, hi)) => format!("{} [{:.1}–{:.1}]", pct(p), lo, hi),
        None => pct(p),
    }
}

/// The sampling row of the header (exceptions mode).
fn sampling_text(s: &Summary) -> Option<String> {
    let sm = s.sampling.as_ref()?;
    if sm.mode != "sampled" {
        return Some("exact — every denormal exception counted".into());
    }
    let how = format!(
        "{}: a window every {} ms of each thread's CPU time, at most {} events each, overhead budget {}%",
        sm.scheme, sm.period_ms, sm.burst, sm.overhead_pct
    );
    Some(if sm.complete {
        format!(
            "sampled ({how}); no window filled up, so every event was counted: the counts are exact"
        )
    } else {
        format!(
            "sampled ({how}); {} of {} windows filled up: the counts are the events seen, the shares estimates [95% interval]; the run had at least {} events (--exact counts them all)",
            sm.full_windows,
            sm.windows,
            th(sm.events_at_least)
        )
    })
}

fn mode_text(s: &Summary) -> &'static str {
    if s.mode == "compiler" && s.profile_tier() {
        "compiler — every floating-point operation of the instrumented code checked: exact counts"
    } else if s.mode == "compiler" {
        "compiler — every floating-point operation of the instrumented code checked: exact counts, arrays, origins, creators"
    } else {
        "exceptions — the CPU's denormal exceptions in an unmodified binary: instructions, not arrays"
    }
}

/// The header: program, exit, mode, FP environment, totals.
pub fn header(s: &Summary) -> String {
    let mut o = String::new();
    o.push_str(&format!("Denormal report: {}\n", s.file));
    let mut t = Table::new(&[Align::Left, Align::Left]);
    t.row([
        "program".to_string(),
        format!(
            "{}  (pid {}, {})",
            s.command,
            s.pid,
            plural(s.threads.max(1) as usize, "thread", "threads")
        ),
    ]);
    t.row(["exit".to_string(), s.exit.clone()]);
    t.row(["mode".to_string(), mode_text(s).to_string()]);
    if let Some(tier) = &s.tier {
        t.row(["tier".to_string(), tier_text(tier)]);
    }
    if let Some(x) = sampling_text(s) {
        t.row(["counts".to_string(), x]);
    }
    let fp = &s.fp_environment;
    t.row([
        "FP env".to_string(),
        format!(
            "{}{}",
            fp.describe(|s| s.to_string()),
            if fp.changed_by_program {
                " — changed by the program during the run (see warnings)"
            } else if fp.nothing_to_trace {
                ""
            } else {
                " — denormals are computed by the CPU, slowly"
            }
        ),
    ]);
    let tt = &s.totals;
    let mut first = Vec::new();
    if let Some(n) = tt.fp_operations {
        first.push(format!("{} FP operations", th(n)));
    }
    if s.mode == "compiler" {
        first.push(format!(
            "{} denormal operands{}",
            th(tt.denormal_operands),
            tt.operand_percent
                .map(|p| format!(" ({p:.2}% of FP operations)"))
                .unwrap_or_default()
        ));
        first.push(format!("{} denormal results", th(tt.denormal_results)));
    } else {
        let seen = if s.sampling.as_ref().is_some_and(|x| x.estimated()) {
            " sampled"
        } else {
            ""
        };
        first.push(format!(
            "{} denormal-operand exceptions{seen}",
            th(tt.denormal_operands)
        ));
        first.push(format!(
            "{} underflow exceptions (denormal results)",
            th(tt.denormal_results)
        ));
    }
    t.row(["totals".to_string(), first.join(", ")]);
    if tt.denormal_loads.is_some() || tt.denormal_stores.is_some() {
        t.row([
            String::new(),
            format!(
                "{} denormal loads, {} denormal stores",
                opt(tt.denormal_loads),
                opt(tt.denormal_stores)
            ),
        ]);
    }
    o.push_str(&t.render("  "));
    if fp.nothing_to_trace {
        o.push_str(&format!(
            "\n  !! {} {} (MXCSR {}): denormal {} — there is nothing to trace,\n  !! and this program does not pay for denormals ({}).\n  !! Counts below are what little remains.\n",
            match (fp.ftz, fp.daz) {
                (true, true) => "FTZ and DAZ",
                (true, false) => "FTZ (flush-to-zero)",
                _ => "DAZ (denormals-are-zero)",
            },
            fp.alarm_verb(),
            fp.mxcsr_shown(),
            match (fp.ftz, fp.daz) {
                (true, true) => "results are flushed to zero and denormal inputs read as zero",
                (true, false) => "results are flushed to zero",
                _ => "inputs are read as zero",
            },
            fp.why_flushed()
        ));
    }
    o
}

/// A few lines that answer "where, which arrays, from where" before the tables.
pub fn in_short(s: &Summary) -> String {
    let lines = in_short_lines(s);
    if lines.is_empty() {
        return String::new();
    }
    let mut o = String::from("In short\n");
    for l in lines {
        o.push_str(&format!("  {l}\n"));
    }
    o
}

/// The lines of [`in_short`].
pub fn in_short_lines(s: &Summary) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    if s.totals.events == 0 {
        return lines;
    }
    if let Some(f) = s.functions.first() {
        let hot = s
            .lines
            .iter()
            .find(|l| l.function == f.function)
            .map(|l| format!(", most on {} ({})", l.source, pct(l.percent)))
            .or_else(|| {
                f.sites
                    .first()
                    .map(|x| format!(", most at {} ({})", x.source, pct(x.percent)))
            })
            .unwrap_or_default();
        lines.push(format!(
            "hottest function: {} with {} of all denormal events{hot}",
            shown_name(&f.function),
            pct(f.percent)
        ));
    }
    let mut by_role: Vec<(&str, Vec<&str>)> = Vec::new();
    for a in s
        .arrays
        .iter()
        .filter(|a| a.denormal_reads + a.denormal_writes > 0)
    {
        match by_role.iter_mut().find(|(r, _)| *r == a.role) {
            Some((_, v)) => v.push(&a.name),
            None => by_role.push((&a.role, vec![&a.name])),
        }
    }
    if !by_role.is_empty() {
        let parts: Vec<String> = by_role
            .iter()
            .map(|(role, names)| {
                let shown: Vec<&str> = names.iter().take(4).copied().collect();
                format!(
                    "{}{} {}",
                    shown.join(", "),
                    if names.len() > shown.len() {
                        ", …"
                    } else {
                        ""
                    },
                    match (*role, names.len()) {
                        ("source", 1) => "is a source".to_string(),
                        ("source", _) => "are sources".to_string(),
                        ("sink", 1) => "is a sink".to_string(),
                        ("sink", _) => "are sinks".to_string(),
                        ("propagates", 1) => "propagates them".to_string(),
                        ("propagates", _) => "propagate them".to_string(),
                        (r, _) => format!("({r})"),
                    }
                )
            })
            .collect();
        lines.push(format!("arrays: {}", parts.join("; ")));
    }
    let mut made: Vec<(String, Vec<&str>)> = Vec::new();
    for g in &s.creators {
        if let Some(c) = g.creators.first() {
            let mut what = format!("{} in {} at {}", c.op, shown_name(&c.function), c.source);
            if c.found_not_made() {
                what.push_str(", already denormal in memory");
            }
            match made.iter_mut().find(|(w, _)| *w == what) {
                Some((_, v)) => v.push(&g.array),
                None => made.push((what, vec![&g.array])),
            }
        }
    }
    if !made.is_empty() {
        let parts: Vec<String> = made
            .iter()
            .take(3)
            .map(|(w, arrays)| format!("{w} (for {})", arrays.join(", ")))
            .collect();
        lines.push(format!("created by: {}", parts.join("; ")));
    } else if let Some(cs) = s.creator_sites.as_ref().filter(|c| !c.rows.is_empty()) {
        // No per-array creators (the profile tier): where the results were made.
        let parts: Vec<String> = cs
            .rows
            .iter()
            .take(3)
            .map(|c| {
                format!(
                    "{} in {} at {} ({})",
                    c.op,
                    shown_name(&c.function),
                    c.source,
                    pct(c.percent)
                )
            })
            .collect();
        lines.push(format!("created at: {}", parts.join("; ")));
    }
    lines
}

/// The creator sites: the operations that made denormal results from normal operands
/// (both tiers; empty when the report has no such list).
pub fn creator_sites(s: &Summary) -> String {
    let mut o = String::new();
    let Some(cs) = &s.creator_sites else {
        return o;
    };
    if cs.rows.is_empty() {
        o.push_str("Creator sites: no instrumented operation made a denormal from normal operands");
        o.push_str(if s.totals.events > 0 {
            " (the denormals came from memory, arguments or uninstrumented code)\n"
        } else {
            "\n"
        });
        return o;
    }
    o.push_str(&format!(
        "Creator sites: {} denormal {} made from normal operands, at {}{}\n",
        th(cs.created),
        if cs.created == 1 { "result" } else { "results" },
        plural(cs.sites_total, "site", "sites"),
        if cs.rows.len() < cs.sites_total {
            format!(" (top {} shown)", cs.rows.len())
        } else {
            String::new()
        }
    ));
    let mut t = Table::new(&[
        Align::Left,
        Align::Left,
        Align::Left,
        Align::Left,
        Align::Right,
        Align::Right,
    ])
    .header(["function", "site", "op", "type", "created", "share"]);
    for c in &cs.rows {
        t.row([
            shown_name(&c.function),
            c.source.clone(),
            c.op.clone(),
            c.ty.clone(),
            th(c.created),
            pct(c.percent),
        ]);
    }
    o.push_str(&t.render("  "));
    o.push_str(
        "  created: result elements that were denormal while no operand of theirs was (a denormal\n  constant in the code does not count: the site brings it in)\n",
    );
    if cs.rows.len() < cs.sites_total {
        o.push_str(&format!(
            "  … {} more: --top 0 shows all\n",
            plural(cs.sites_total - cs.rows.len(), "site", "sites")
        ));
    }
    o
}

/// The instruction profile, grouped by function.
pub fn profile(s: &Summary) -> String {
    let mut o = String::new();
    let compiler = s.mode == "compiler";
    if s.sites_total == 0 {
        o.push_str("Instruction profile: no denormal ");
        o.push_str(if compiler {
            "operands, results, loads or stores\n"
        } else {
            "exceptions\n"
        });
        return o;
    }
    let nfun = {
        let mut f: Vec<(&str, Option<&str>)> = Vec::new();
        for x in &s.functions {
            if !f.contains(&(x.function.as_str(), x.module.as_deref())) {
                f.push((x.function.as_str(), x.module.as_deref()));
            }
        }
        f.len()
    };
    if compiler {
        o.push_str(&format!(
            "Instruction profile: {} with denormals{}, by denormal events\n",
            plural(s.sites_total, "site", "sites"),
            if s.sites_shown < s.sites_total {
                format!(" (top {} shown)", s.sites_shown)
            } else {
                format!(" in {}", plural(nfun, "function", "functions"))
            }
        ));
        let mut t = Table::new(&[
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
        ])
        .header([
            "function / site",
            "op",
            "type",
            "executions",
            "operands",
            "results",
            "loads",
            "stores",
            "share",
        ]);
        for f in &s.functions {
            t.row([
                shown_name(&f.function),
                String::new(),
                String::new(),
                String::new(),
                th(f.denormal_operands),
                th(f.denormal_results),
                opt(f.denormal_loads),
                opt(f.denormal_stores),
                pct(f.percent),
            ]);
            for x in &f.sites {
                t.row([
                    format!("  {}", x.source),
                    x.op.clone(),
                    x.ty.clone(),
                    opt(x.executions),
                    cell(x.denormal_operands),
                    cell(x.denormal_results),
                    cell_opt(x.denormal_loads),
                    cell_opt(x.denormal_stores),
                    pct(x.percent),
                ]);
            }
            if f.sites.len() < f.site_count {
                t.row([format!(
                    "  … {} more",
                    plural(f.site_count - f.sites.len(), "site", "sites")
                )]);
            }
        }
        o.push_str(&t.render("  "));
        o.push_str(
            "  operands: element operations with a denormal operand; results: that produced a denormal;\n  loads/stores: denormal values moved from/to memory (executions and counts per vector element)\n",
        );
    } else {
        o.push_str(&format!(
            "Instruction profile: {} raised denormal exceptions{}, by exceptions\n",
            plural(s.sites_total, "instruction", "instructions"),
            if s.sites_shown < s.sites_total {
                format!(" (top {} shown)", s.sites_shown)
            } else {
                format!(" in {}", plural(nfun, "function", "functions"))
            }
        ));
        let mut t = Table::new(&[
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Right,
        ])
        .header([
            "function / address",
            "instruction",
            "source",
            "operand exc.",
            "underflow exc.",
            "share",
        ]);
        let main = s.program.as_str();
        for f in &s.functions {
            let module = f
                .module
                .as_deref()
                .map(super::basename)
                .filter(|m| !m.is_empty() && *m != main)
                .map(|m| format!("  [{m}]"))
                .unwrap_or_default();
            t.row([
                format!("{}{module}", shown_name(&f.function)),
                String::new(),
                String::new(),
                th(f.denormal_operands),
                th(f.denormal_results),
                pct_ci(f.percent, f.ci),
            ]);
            for x in &f.sites {
                t.row([
                    format!("  {}", x.address.as_deref().unwrap_or("?")),
                    x.instruction.clone().unwrap_or_else(|| "?".into()),
                    x.source.clone(),
                    cell(x.denormal_operands),
                    cell(x.denormal_results),
                    pct_ci(x.percent, x.ci),
                ]);
            }
            if f.sites.len() < f.site_count {
                t.row([format!(
                    "  … {} more",
                    plural(f.site_count - f.sites.len(), "instruction", "instructions")
                )]);
            }
        }
        o.push_str(&t.render("  "));
        o.push_str(
            "  operand exc.: executions that read a denormal operand (once per instruction, not per vector element);\n  underflow exc.: that produced a denormal result. Moves and integer copies of denormals never trap.\n",
        );
        if s.sampling.as_ref().is_some_and(|x| x.estimated()) {
            o.push_str("  sampled: exc. columns count the events seen; share is the estimated share of all events [95% interval]\n");
        }
    }
    if s.sites_shown < s.sites_total {
        o.push_str(&format!(
            "  … {} more with {} events: --top 0 shows all\n",
            plural(
                s.sites_total - s.sites_shown,
                if compiler { "site" } else { "instruction" },
                if compiler { "sites" } else { "instructions" }
            ),
            th(s.events_not_shown)
        ));
    }
    o
}

/// The sites summed per source line, when several sites share a line.
pub fn by_line(s: &Summary) -> String {
    let mut o = String::new();
    if s.lines.is_empty() {
        return o;
    }
    let compiler = s.mode == "compiler";
    o.push_str(&format!(
        "By source line: the {} summed per line (most events first)\n",
        if compiler { "sites" } else { "instructions" }
    ));
    let mut head = vec![
        "line".to_string(),
        "function".to_string(),
        if compiler { "sites" } else { "instructions" }.to_string(),
    ];
    let mut aligns = vec![Align::Left, Align::Left, Align::Right];
    if compiler {
        head.extend(["operands", "results", "loads", "stores"].map(String::from));
    } else {
        head.extend(["operand exc.", "underflow exc."].map(String::from));
    }
    head.push("share".into());
    aligns.extend(std::iter::repeat(Align::Right).take(head.len() - aligns.len()));
    let mut t = Table::new(&aligns).header(head);
    for l in &s.lines {
        let mut row = vec![
            l.source.clone(),
            shown_name(&l.function),
            l.sites.to_string(),
        ];
        row.push(cell(l.denormal_operands));
        row.push(cell(l.denormal_results));
        if compiler {
            row.push(cell_opt(l.denormal_loads));
            row.push(cell_opt(l.denormal_stores));
        }
        row.push(pct_ci(l.percent, l.ci));
        t.row(row);
    }
    o.push_str(&t.render("  "));
    o
}

/// Marked arrays with their roles.
pub fn arrays(s: &Summary) -> String {
    let mut o = String::new();
    let with = s.arrays.len() - s.arrays_without_denormals;
    o.push_str(&format!(
        "Arrays: {} of {} marked {} denormals (reads vs writes tell the role, thesis 6.2.2)\n",
        with,
        s.arrays.len(),
        if with == 1 {
            "array holds"
        } else {
            "arrays hold"
        }
    ));
    let mut t = Table::new(&[
        Align::Left,
        Align::Left,
        Align::Left,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Left,
        Align::Left,
    ])
    .header([
        "array",
        "kind",
        "type",
        "elements",
        "reads",
        "writes",
        "role",
        "allocated at",
    ]);
    for a in s
        .arrays
        .iter()
        .filter(|a| a.denormal_reads + a.denormal_writes > 0)
    {
        t.row([
            a.name.clone(),
            a.kind.clone(),
            a.element_type.clone(),
            a.dimensions.clone(),
            th(a.denormal_reads),
            th(a.denormal_writes),
            a.role.clone(),
            a.allocated_at.clone().unwrap_or_default(),
        ]);
    }
    if with > 0 {
        o.push_str(&t.render("  "));
    }
    if s.arrays_without_denormals > 0 {
        let names: Vec<&str> = s
            .arrays
            .iter()
            .filter(|a| a.denormal_reads + a.denormal_writes == 0)
            .map(|a| a.name.as_str())
            .collect();
        let shown: Vec<&str> = names.iter().take(8).copied().collect();
        o.push_str(&format!(
            "  no denormals in {}: {}{}\n",
            plural(names.len(), "array", "arrays"),
            shown.join(", "),
            if names.len() > shown.len() {
                ", …"
            } else {
                ""
            }
        ));
    }
    let mut roles: Vec<&str> = Vec::new();
    for a in &s.arrays {
        if a.denormal_reads + a.denormal_writes > 0
            && !a.reading.is_empty()
            && !roles.contains(&a.role.as_str())
        {
            roles.push(&a.role);
        }
    }
    for r in roles {
        o.push_str(&format!("  {r:<10}  {}\n", super::summary::role_reading(r)));
    }
    o
}

fn show_name(n: &str) -> &str {
    if n.is_empty() {
        "(no array)"
    } else {
        n
    }
}

/// Origins: a dest × src matrix when few arrays, else a list.
pub fn origins(s: &Summary) -> String {
    let mut o = String::new();
    o.push_str(
        "Origins: denormals stored into an array (rows) by the array they were loaded from (columns), thesis 6.2.3\n",
    );
    if let Some(names) = &s.origin_matrix {
        let dests: Vec<&String> = names
            .iter()
            .filter(|n| s.origins.iter().any(|x| &x.dest == *n))
            .collect();
        let srcs: Vec<&String> = names
            .iter()
            .filter(|n| s.origins.iter().any(|x| &x.src == *n))
            .collect();
        let mut aligns = vec![Align::Left];
        aligns.extend(srcs.iter().map(|_| Align::Right));
        let mut head = vec!["stored into ↓  loaded from →".to_string()];
        head.extend(srcs.iter().map(|n| n.to_string()));
        let mut t = Table::new(&aligns).header(head);
        for d in dests {
            let mut row = vec![d.clone()];
            for src in &srcs {
                let n: u64 = s
                    .origins
                    .iter()
                    .filter(|x| &x.dest == d && &x.src == *src)
                    .map(|x| x.count)
                    .sum();
                row.push(if n == 0 { "—".into() } else { th(n) });
            }
            t.row(row);
        }
        o.push_str(&t.render("  "));
    } else {
        let mut t = Table::new(&[
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Right,
            Align::Right,
        ])
        .header([
            "stored into",
            "",
            "loaded from",
            "denormals",
            "of its writes",
        ]);
        for x in &s.origins {
            t.row([
                show_name(&x.dest).to_string(),
                "←".to_string(),
                show_name(&x.src).to_string(),
                th(x.count),
                x.percent_of_dest_writes.map(pct).unwrap_or_default(),
            ]);
        }
        o.push_str(&t.render("  "));
    }
    // Pairs that pass denormals both ways.
    let mut both: Vec<(String, String)> = Vec::new();
    for x in &s.origins {
        if x.dest < x.src
            && !x.src.is_empty()
            && s.origins.iter().any(|y| y.dest == x.src && y.src == x.dest)
        {
            both.push((x.dest.clone(), x.src.clone()));
        }
    }
    for (a, b) in both {
        o.push_str(&format!(
            "  {a} and {b} pass denormals back and forth (a stencil's two grids, an FFT's workspace): neither is their source\n"
        ));
    }
    o
}

/// The backward chain from `array`: the arrays its denormals were loaded from
/// (largest origin first) with the counts, until an array without origins; `true` if
/// it ends in a cycle (arrays passing denormals back and forth).
pub fn chain(s: &Summary, array: &str) -> (Vec<(String, u64)>, bool) {
    let mut out: Vec<(String, u64)> = Vec::new();
    let mut seen = vec![array.to_string()];
    let mut cur = array.to_string();
    while let Some(o) = s
        .origins
        .iter()
        .filter(|o| o.dest == cur && !o.src.is_empty())
        .max_by_key(|o| o.count)
    {
        out.push((o.src.clone(), o.count));
        if seen.contains(&o.src) {
            return (out, true);
        }
        seen.push(o.src.clone());
        cur = o.src.clone();
    }
    (out, false)
}

/// Creators per array: the backward chain's answer.
pub fn creators(s: &Summary) -> String {
    let mut o = String::new();
    o.push_str("Creators: where each array's denormals were first produced from normal values\n");
    for g in &s.creators {
        let name = show_name(&g.array);
        if g.creators.len() == 1 {
            let c = &g.creators[0];
            o.push_str(&format!(
                "  {name}: {} denormals created by {} in {} at {}\n",
                th(c.count),
                c.op,
                shown_name(&c.function),
                c.source
            ));
        } else {
            o.push_str(&format!(
                "  {name}: {} denormals, created by\n",
                th(g.total)
            ));
            let mut t = Table::new(&[
                Align::Right,
                Align::Right,
                Align::Left,
                Align::Left,
                Align::Left,
            ]);
            for c in &g.creators {
                t.row([
                    th(c.count),
                    pct(c.percent),
                    c.op.clone(),
                    format!("in {}", shown_name(&c.function)),
                    format!("at {}", c.source),
                ]);
            }
            o.push_str(&t.render("    "));
        }
        let (ch, cycle) = chain(s, &g.array);
        if !ch.is_empty() {
            let mut line = format!("    chain: {name}");
            for (n, count) in &ch {
                line.push_str(&format!(" ← {n} ({count})", count = th(*count)));
            }
            if cycle {
                line.push_str(": a cycle, the arrays pass denormals back and forth");
            } else if let Some(c) = ch.last().and_then(|(last, _)| {
                s.creators
                    .iter()
                    .find(|x| &x.array == last)
                    .and_then(|x| x.creators.first())
            }) {
                line.push_str(&format!(
                    " ← created by {} in {} at {}",
                    c.op,
                    shown_name(&c.function),
                    c.source
                ));
            }
            o.push_str(&line);
            o.push('\n');
        }
    }
    if s.creators
        .iter()
        .any(|g| g.creators.iter().any(|c| c.found_not_made()))
    {
        o.push_str(&format!("  {FOUND_NOT_MADE}\n"));
    }
    o
}

/// Over time: snapshot intervals (compiler mode) or the exception timeline.
pub fn over_time(s: &Summary) -> String {
    let mut o = String::new();
    if let Some(st) = &s.snapshots {
        o.push_str(&format!(
            "Over time: {} — denormal reads / writes of each array during each interval (thesis Table 4.5)\n",
            if st.rows.len() < st.snapshots {
                format!("{} snapshots, merged into {} rows", st.snapshots, st.rows.len())
            } else {
                plural(st.snapshots, "snapshot", "snapshots")
            }
        ));
        let mut aligns = vec![Align::Right, Align::Left, Align::Right];
        let mut head = vec![
            "#".to_string(),
            "snapshot".to_string(),
            "FP operations".to_string(),
        ];
        for a in &st.arrays {
            aligns.push(Align::Right);
            aligns.push(Align::Right);
            head.push(format!("{a} reads"));
            head.push(format!("{a} writes"));
        }
        if st.other_arrays > 0 || st.arrays.is_empty() {
            aligns.push(Align::Right);
            head.push("all arrays".to_string());
        }
        let mut t = Table::new(&aligns).header(head);
        for r in &st.rows {
            let mut row = vec![r.index.clone(), r.label.clone(), th(r.fp_operations)];
            for (rd, wr) in &r.counts {
                row.push(th(*rd));
                row.push(th(*wr));
            }
            if st.other_arrays > 0 || st.arrays.is_empty() {
                row.push(th(r.events));
            }
            t.row(row);
        }
        o.push_str(&t.render("  "));
        if st.other_arrays > 0 {
            o.push_str(&format!(
                "  {} more with denormals are counted in \"all arrays\" only (--json or --html has each)\n",
                plural(st.other_arrays, "array", "arrays")
            ));
        }
    }
    if let Some(tl) = &s.timeline {
        match tl.row_ms {
            Some(ms) => o.push_str(&format!(
                "Over time: denormal exceptions per {} ms ({} run)\n",
                th(ms),
                seconds(tl.duration_ms)
            )),
            None => o.push_str(
                "Over time: the run fit in one timeline interval (--interval-ms sets its width)\n",
            ),
        }
        let max = tl
            .rows
            .iter()
            .map(|r| r.denormal_operands + r.denormal_results)
            .max()
            .unwrap_or(0);
        let mut t = Table::new(&[Align::Right, Align::Right, Align::Right, Align::Left]).header([
            "t (ms)",
            "operand exc.",
            "underflow exc.",
            "",
        ]);
        for r in &tl.rows {
            let n = r.denormal_operands + r.denormal_results;
            let len = if max == 0 || n == 0 {
                0
            } else {
                ((n as f64 / max as f64) * BAR as f64).ceil() as usize
            };
            t.row([
                th(r.t_ms),
                th(r.denormal_operands),
                th(r.denormal_results),
                "█".repeat(len),
            ]);
        }
        o.push_str(&t.render("  "));
    }
    o
}

fn seconds(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.2} s", ms as f64 / 1000.0)
    }
}

/// Everything, for `taintprof denormals` and `taintprof dip`.
pub fn full(s: &Summary) -> String {
    let mut parts = vec![header(s)];
    let short = in_short(s);
    if !short.is_empty() {
        parts.push(short);
    }
    parts.push(profile(s));
    if !s.lines.is_empty() {
        parts.push(by_line(s));
    }
    let made = creator_sites(s);
    if !made.is_empty() {
        parts.push(made);
    }
    // The profile tier records no arrays (its header says so).
    if (s.mode == "compiler" && !s.profile_tier()) || !s.arrays.is_empty() {
        if s.arrays.is_empty() {
            parts.push("Arrays: no marked arrays in this report\n".to_string());
        } else {
            parts.push(arrays(s));
        }
    }
    if !s.origins.is_empty() {
        parts.push(origins(s));
    }
    if !s.creators.is_empty() {
        parts.push(creators(s));
    }
    if s.snapshots.is_some() || s.timeline.is_some() {
        parts.push(over_time(s));
    }
    if !s.warnings.is_empty() {
        let mut w = String::from("Warnings\n");
        for x in &s.warnings {
            w.push_str(&format!("  - {x}\n"));
        }
        parts.push(w);
    }
    parts.join("\n")
}

/// A few lines for `taintprof run`: header, the top sites and arrays, where to look.
pub fn short(s: &Summary) -> String {
    let mut o = header(s);
    let mut t = Table::new(&[Align::Left, Align::Left, Align::Left, Align::Right]);
    let mut sites: Vec<(&str, &super::summary::SiteRow)> = s
        .functions
        .iter()
        .flat_map(|f| f.sites.iter().map(move |x| (f.function.as_str(), x)))
        .collect();
    sites.sort_by_key(|b| std::cmp::Reverse(b.1.events));
    for (f, x) in sites.iter().take(5) {
        t.row([
            f.to_string(),
            x.source.clone(),
            if s.mode == "compiler" {
                format!("{} {}", x.op, x.ty)
            } else {
                x.instruction.clone().unwrap_or_default()
            },
            format!("{} events", th(x.events)),
        ]);
    }
    if !t.is_empty() {
        o.push_str("  top sites\n");
        o.push_str(&t.render("    "));
    }
    let with: Vec<_> = s
        .arrays
        .iter()
        .filter(|a| a.denormal_reads + a.denormal_writes > 0)
        .take(5)
        .collect();
    if !with.is_empty() {
        let mut t = Table::new(&[Align::Left, Align::Right, Align::Right, Align::Left]);
        for a in with {
            t.row([
                a.name.clone(),
                format!("{} reads", th(a.denormal_reads)),
                format!("{} writes", th(a.denormal_writes)),
                a.role.clone(),
            ]);
        }
        o.push_str("  arrays\n");
        o.push_str(&t.render("    "));
    }
    if !s.warnings.is_empty() {
        o.push_str(&format!(
            "  {} (see the full report)\n",
            plural(s.warnings.len(), "warning", "warnings")
        ));
    }
    o.push_str(&format!(
        "  full report: taintprof denormals {}   pictures: --html DIR\n",
        crate::cc::shell_quote(&s.file)
    ));
    o
}

#[cfg(test)]
mod tests {
    use super::super::summary::{fixtures::report, summarize, SummaryOptions};
    use super::*;

    fn text(tier: Option<&str>, with_created: bool, arrays: bool) -> String {
        let r = report(tier, with_created, arrays);
        full(&summarize(
            &r,
            "k.5.denormal.json",
            &SummaryOptions::default(),
        ))
    }

    #[test]
    fn a_profile_tier_report_says_its_tier_and_shows_creator_sites_without_arrays() {
        let t = text(Some("profile"), true, false);
        assert!(
            t.contains("\n  tier     profile (instruction profile and creator sites; build with --tp-denormal=full for arrays, heatmaps and origins)\n"),
            "{t}"
        );
        // The mode line promises no arrays.
        assert!(
            t.contains("  mode     compiler — every floating-point operation of the instrumented code checked: exact counts\n"),
            "{t}"
        );
        assert!(
            t.contains(
                "Creator sites: 11 denormal results made from normal operands, at 2 sites\n"
            ),
            "{t}"
        );
        let row = t
            .lines()
            .find(|l| {
                l.contains("k.c:12:5") && l.contains("call expf") && l.starts_with("  compute")
            })
            .unwrap_or_else(|| panic!("no creator site row:\n{t}"));
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            cells,
            ["compute", "k.c:12:5", "call", "expf", "float", "7", "63.6%"]
        );
        assert!(t.contains("k.c:14:9") && t.contains("36.4%"), "{t}");
        // The creator sites come right after the instruction profile (by line).
        let at = |needle: &str| t.find(needle).unwrap_or_else(|| panic!("{needle}:\n{t}"));
        assert!(at("Instruction profile:") < at("Creator sites:"));
        // No arrays, origins, creators or snapshot table in the profile tier.
        for absent in ["Arrays:", "Origins:", "Creators:", "Over time:"] {
            assert!(!t.contains(absent), "{absent}:\n{t}");
        }
        // In short: where the denormals were made.
        assert!(
            t.contains("  created at: call expf in compute at k.c:12:5 (63.6%); fmul in compute at k.c:14:9 (36.4%)\n"),
            "{t}"
        );
    }

    #[test]
    fn a_full_tier_report_says_its_tier_and_shows_both_kinds_of_creators() {
        let t = text(Some("full"), true, true);
        assert!(
            t.contains("\n  tier     full (instruction profile, creator sites, arrays, heatmaps, origins)\n"),
            "{t}"
        );
        assert!(
            t.contains("exact counts, arrays, origins, creators\n"),
            "{t}"
        );
        assert!(t.contains("Creator sites: 11 denormal results"), "{t}");
        assert!(
            t.contains("Arrays: 1 of 1 marked array holds denormals"),
            "{t}"
        );
        assert!(t.contains("Creators: where each array's denormals"), "{t}");
        assert!(t.contains("Over time: 1 snapshot"), "{t}");
        // In short, the per-array creators as before.
        assert!(
            t.contains("  created by: call expf in compute at k.c:12"),
            "{t}"
        );
        assert!(!t.contains("created at:"), "{t}");
    }

    #[test]
    fn older_reports_are_the_full_tier_and_an_empty_list_is_explained() {
        // No `tier`, no `created`, no `creator_sites`: full, and no creator sites section.
        let t = text(None, false, true);
        assert!(t.contains("\n  tier     full ("), "{t}");
        assert!(!t.contains("Creator sites"), "{t}");
        // A list without rows: nothing made a denormal from normal operands.
        let mut r = report(Some("full"), true, true);
        r.creator_sites = Some(Vec::new());
        let t = full(&summarize(&r, "k", &SummaryOptions::default()));
        assert!(
            t.contains("Creator sites: no instrumented operation made a denormal from normal operands (the denormals came from memory, arguments or uninstrumented code)\n"),
            "{t}"
        );
    }

    #[test]
    fn top_limits_the_creator_sites_and_says_so() {
        let r = report(Some("profile"), true, false);
        let t = full(&summarize(&r, "k", &SummaryOptions { top: Some(1) }));
        assert!(t.contains("at 2 sites (top 1 shown)\n"), "{t}");
        assert!(t.contains("  … 1 site more: --top 0 shows all\n"), "{t}");
    }

    #[test]
    fn the_short_summary_states_the_tier() {
        let r = report(Some("profile"), true, false);
        let t = short(&summarize(&r, "k", &SummaryOptions::default()));
        assert!(t.contains("  tier     profile ("), "{t}");
    }
}
