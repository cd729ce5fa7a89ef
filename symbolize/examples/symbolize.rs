//! `cargo run -p taintprof-symbolize --example symbolize -- X.dip-raw.json...`: writes
//! `<prog>.<pid>.dip.json` next to each raw report and prints the function groups.

fn main() {
    let mut failed = false;
    for arg in std::env::args().skip(1) {
        match taintprof_symbolize::symbolize_file(arg.as_ref()) {
            Ok((report, out)) => {
                println!("{}: {} sites -> {}", arg, report.sites.len(), out.display());
                for g in report.function_groups() {
                    println!(
                        "  {:6.2}%  {} ({} operand, {} result events)",
                        g.percent, g.function, g.denormal_operands, g.denormal_results
                    );
                    for s in g.sites {
                        println!(
                            "      {:>10} {:>8} {:>8}  {}:{}  {}",
                            s.address.as_deref().unwrap_or(""),
                            s.denormal_operands,
                            s.denormal_results,
                            s.file.rsplit('/').next().unwrap_or(""),
                            s.line,
                            s.instruction.as_deref().unwrap_or("")
                        );
                    }
                }
                for w in &report.warnings {
                    println!("  warning: {w}");
                }
            }
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}
