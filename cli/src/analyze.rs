//! `srcsim analyze`: per kernel, the table of PTX basic blocks, the block-pair times and,
//! on request, one block's pipeline timeline; or all of it as JSON.

use std::fmt::Write as _;

use annotator::analysis::blocks::{self, Analysis, FunctionAnalysis, Timeline};
use annotator::front::compile::Compiler;
use anyhow::{bail, Context, Result};
use clap::Args;
use comfy_table::{presets, CellAlignment, Table};
use pipeline_model::l1_sharing::{L1Sharing, CLASSES, SHARER_WARPS};
use pipeline_model::Stage;
use serde::Serialize;

use crate::build_args::BuildArgs;

#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    build: BuildArgs,
    /// Only this kernel.
    #[arg(long)]
    kernel: Option<String>,
    /// Print JSON (schema: docs/analysis-json.md) instead of tables.
    #[arg(long)]
    json: bool,
    /// Show the cycle-by-cycle pipeline chart of a block: B3, 3 or a PTX label, optionally
    /// prefixed by the kernel (vadd:B1).
    #[arg(long, value_name = "BLOCK")]
    timeline: Option<String>,
}

/// What `--json` prints: the analysis, plus the requested timeline.
#[derive(Serialize)]
struct JsonOutput<'a> {
    #[serde(flatten)]
    analysis: &'a Analysis,
    #[serde(skip_serializing_if = "Option::is_none")]
    timeline: Option<&'a Timeline>,
}

pub fn run(args: &AnalyzeArgs) -> Result<()> {
    let arch = args.build.architecture()?;
    let file = &args.build.file;
    let compiler = Compiler::locate()?;
    let (mut analysis, module) =
        blocks::analyze_file(&compiler, file, &args.build.build_options(), &arch)?;

    if let Some(name) = &args.kernel {
        if !analysis.kernels.iter().any(|k| &k.name == name) {
            bail!(
                "{}: no kernel `{name}` (kernels: {})",
                file.display(),
                kernel_names(&analysis)
            );
        }
        analysis.kernels.retain(|k| &k.name == name);
    }
    let timeline = match &args.timeline {
        Some(spec) => {
            let (kernel, block) = resolve_block(&analysis, spec)?;
            let f = module
                .function(&kernel)
                .context("the analyzed kernel is in the module")?;
            Some(blocks::timeline(&module, f, block, &arch))
        }
        None => None,
    };

    if args.json {
        let out = JsonOutput {
            analysis: &analysis,
            timeline: timeline.as_ref(),
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    for w in &analysis.warnings {
        let at = match (&w.source, w.ptx_line) {
            (Some(s), _) => format!("{}:{}: ", s.file, s.line),
            (None, Some(l)) => format!("PTX line {l}: "),
            _ => String::new(),
        };
        eprintln!("warning: {at}{}", w.message);
    }
    let mut out = String::new();
    for f in analysis.kernels.iter().chain(&analysis.functions) {
        render_function(&mut out, &analysis, f);
    }
    if let Some(t) = &timeline {
        render_timeline(&mut out, t);
    }
    print!("{out}");
    Ok(())
}

fn kernel_names(a: &Analysis) -> String {
    a.kernels
        .iter()
        .map(|k| k.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `[KERNEL:]BLOCK` -> (kernel, block index).
fn resolve_block(a: &Analysis, spec: &str) -> Result<(String, usize)> {
    let (kernel, block) = match spec.split_once(':') {
        Some((k, b)) if a.kernels.iter().any(|f| f.name == k) => (Some(k), b),
        _ => (None, spec),
    };
    let f = match kernel {
        Some(k) => a.kernels.iter().find(|f| f.name == k),
        None if a.kernels.len() == 1 => a.kernels.first(),
        None => bail!(
            "--timeline {spec}: name the kernel too, as KERNEL:BLOCK (kernels: {})",
            kernel_names(a)
        ),
    }
    .context("kernel present")?;
    let index = block
        .strip_prefix('B')
        .unwrap_or(block)
        .parse::<usize>()
        .ok()
        .or_else(|| {
            f.blocks
                .iter()
                .position(|b| b.label.as_deref() == Some(block))
        });
    match index {
        Some(i) if i < f.blocks.len() => Ok((f.name.clone(), i)),
        _ => bail!(
            "--timeline {spec}: kernel `{}` has blocks B0..B{}",
            f.name,
            f.blocks.len().saturating_sub(1)
        ),
    }
}

/// `1 block`, `3 blocks`.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn fmt_usage(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn render_function(out: &mut String, a: &Analysis, f: &FunctionAnalysis) {
    let kind = match f.kind {
        annotator::front::ptx::FunctionKind::Kernel => "kernel",
        annotator::front::ptx::FunctionKind::Function => "function",
    };
    let _ = writeln!(
        out,
        "{kind} {} ({} on {}, {}): {}, {}, about {}{}",
        f.name,
        a.source,
        a.arch.name,
        a.arch.ptx_target,
        count(f.blocks.len(), "block"),
        count(f.edges.len(), "edge"),
        count(f.registers as usize, "register"),
        match f.shared_memory_bytes {
            0 => String::new(),
            b => format!(", {b} bytes of local memory"),
        }
    );
    let mut t = Table::new();
    t.load_preset(presets::ASCII_BORDERS_ONLY_CONDENSED);
    let mut header = vec!["block", "label", "lines", "instrs", "t_B"];
    // Usage is in cycles, but for the L2 and DRAM: bytes per work-item. Beside an L2
    // column (every byte past the L1) the DRAM column counts the bytes stored, which the
    // L2 writes back where it cannot keep them.
    let has_l2 = a.resources.iter().any(|r| r == pipeline_model::L2);
    header.extend(a.resources.iter().map(|r| match r.as_str() {
        pipeline_model::L2 => "L2 bytes",
        pipeline_model::DRAM if has_l2 => "stored bytes",
        pipeline_model::DRAM => "DRAM bytes",
        r => r,
    }));
    header.push("succ");
    t.set_header(header);
    for b in &f.blocks {
        let mut row = vec![
            format!("B{}", b.id),
            b.label.clone().unwrap_or_default(),
            blocks::format_lines(&b.lines, &a.source),
            b.instructions.to_string(),
            b.cycles.to_string(),
        ];
        row.extend(b.usage.iter().map(|&u| fmt_usage(u)));
        row.push(
            b.successors
                .iter()
                .map(|s| format!("B{s}"))
                .collect::<Vec<_>>()
                .join(" "),
        );
        t.add_row(row);
    }
    for i in 3..5 + a.resources.len() {
        if let Some(c) = t.column_mut(i) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    let _ = writeln!(out, "{t}");
    if let Some(s) = &f.l1_sharing {
        write_one_block_classes(out, s);
    }
    if !f.edges.is_empty() {
        let mut e = Table::new();
        e.load_preset(presets::ASCII_BORDERS_ONLY_CONDENSED);
        e.set_header(["edge", "t_(Bi,Bj)", "t_Bi + t_Bj", "overlap", ""]);
        for edge in &f.edges {
            let sum = f.blocks[edge.from].cycles + f.blocks[edge.to].cycles;
            e.add_row([
                format!("B{} -> B{}", edge.from, edge.to),
                edge.cycles.to_string(),
                sum.to_string(),
                (sum as i64 - edge.cycles as i64).to_string(),
                if edge.back_edge { "loop back edge" } else { "" }.to_string(),
            ]);
        }
        for i in 1..4 {
            if let Some(c) = e.column_mut(i) {
                c.set_cell_alignment(CellAlignment::Right);
            }
        }
        let _ = writeln!(out, "{e}");
    }
    let accesses: Vec<_> = f
        .blocks
        .iter()
        .flat_map(|b| b.memory.iter().map(move |m| (b.id, m)))
        .collect();
    if !accesses.is_empty() {
        let mut m = Table::new();
        m.load_preset(presets::ASCII_BORDERS_ONLY_CONDENSED);
        m.set_header([
            "block",
            "line",
            "access",
            "charged at",
            "latency",
            "lines / passes",
            "sectors",
        ]);
        for (b, a) in accesses {
            m.add_row([
                format!("B{b}"),
                if a.line == 0 {
                    "-".to_string()
                } else {
                    a.line.to_string()
                },
                a.opcode.clone(),
                a.level.clone().unwrap_or_else(|| "shared".to_string()),
                a.latency.to_string(),
                a.transactions.to_string(),
                if a.space == "shared" {
                    "-".to_string()
                } else {
                    a.sectors.to_string()
                },
            ]);
        }
        for i in [1, 4, 5, 6] {
            if let Some(c) = m.column_mut(i) {
                c.set_cell_alignment(CellAlignment::Right);
            }
        }
        let _ = writeln!(
            out,
            "memory accesses (per warp: 128-byte lines or bank-conflict passes, 32-byte sectors):\n{m}"
        );
    }
    for l in &f.loops {
        let body: Vec<String> = l.body.iter().map(|b| format!("B{b}")).collect();
        let _ = writeln!(out, "loop: header B{}, body {}", l.header, body.join(" "));
    }
    if !f.calls.is_empty() {
        let _ = writeln!(out, "calls: {}", f.calls.join(", "));
    }
    let _ = writeln!(out);
}

/// Charts wider than this many cycles are shown as numbers only.
const MAX_CHART_CYCLES: u64 = 160;

fn render_timeline(out: &mut String, t: &Timeline) {
    let _ = writeln!(
        out,
        "Timeline of {} B{}: {} instructions, t_B = {} cycles",
        t.function,
        t.block,
        t.rows.len(),
        t.cycles
    );
    let _ = writeln!(
        out,
        "chart: F fetch, = waiting, I issue, O operand collect, E execute, e in flight, W write-back"
    );
    let chart = t.cycles <= MAX_CHART_CYCLES;
    let width = t.cycles as usize + 1;
    let mut header = String::from("[idx]  line   IF   IS   OC   EX   WB  ");
    if chart {
        header.extend((0..width).map(|c| char::from(b'0' + (c % 10) as u8)));
        header.push_str("  ");
    }
    header.push_str("instruction");
    let _ = writeln!(out, "{header}");
    for (i, r) in t.rows.iter().enumerate() {
        let [f, is, oc, ex, wb] = r.starts;
        let line = if r.line == 0 {
            "-".to_string()
        } else {
            r.line.to_string()
        };
        let _ = write!(
            out,
            "[{i:>3}] {line:>5} {f:>4} {is:>4} {oc:>4} {ex:>4} {wb:>4}  "
        );
        if chart {
            let mut row = vec![' '; width];
            for c in f..wb {
                row[c as usize] = '=';
            }
            for c in ex..wb {
                row[c as usize] = 'e';
            }
            for (stage, at) in Stage::ALL.iter().zip(r.starts) {
                row[at as usize] = match stage {
                    Stage::Fetch => 'F',
                    Stage::Issue => 'I',
                    Stage::Operand => 'O',
                    Stage::Execute => 'E',
                    Stage::Writeback => 'W',
                };
            }
            out.extend(row);
            out.push_str("  ");
        }
        let _ = writeln!(out, "{}", r.text);
    }
    if !chart {
        let _ = writeln!(
            out,
            "(chart omitted: wider than {MAX_CHART_CYCLES} cycles; the columns give each stage's start)"
        );
    }
}

/// A kernel of one block timed per class of L1 sharers and with its first touches from
/// DRAM (`pipeline_model::l1_sharing`): the lines that differ from its `t_B`.
fn write_one_block_classes(out: &mut String, s: &L1Sharing) {
    // A launch of fewer warps an SM keeps more reloads in the L1: the model takes the
    // class of the launch's busiest SM; a launch whose reads exceed the L2 moves
    // toward the timing with first touches from DRAM (pipeline_model::l1_sharing).
    let by_class = |cycles: [u64; CLASSES]| {
        let classes: Vec<String> = SHARER_WARPS
            .iter()
            .zip(cycles)
            .map(|(w, c)| format!("{w}: {c}"))
            .collect();
        classes.join(", ")
    };
    if s.cycles.iter().any(|&c| c != s.cycles[0]) {
        let _ = writeln!(
            out,
            "t_B by the warps sharing the L1 (a launch takes its busiest SM's): {}",
            by_class(s.cycles)
        );
    }
    if let Some(dram) = s.from_dram {
        let _ = writeln!(
            out,
            "t_B with first touches from DRAM (a launch reading beyond the L2): {}",
            by_class(dram)
        );
    }
}
