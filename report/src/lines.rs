//! The line profile: per source line of each profiled kernel, executions, cycles and
//! instructions, from the launches' block counters ([`Report::line_profiles`]), and its
//! table.

use std::collections::BTreeMap;

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};

use super::{KernelLines, LineAmount, LineProfile, ProgramProfile, Report, SourceBlock};

impl Report {
    /// Whether any launch carries a profile.
    pub fn has_profile(&self) -> bool {
        self.launches.iter().any(|l| l.profile.is_some())
    }

    /// The id of the program of these `blocks` and `source_lines`: an equal one's if
    /// the report has it, else a new entry's.
    pub fn add_program(
        &mut self,
        blocks: &[SourceBlock],
        source_lines: &BTreeMap<u32, String>,
    ) -> usize {
        if let Some(p) = self
            .programs
            .iter()
            .find(|p| p.blocks == blocks && &p.source_lines == source_lines)
        {
            return p.id;
        }
        let id = self.programs.len();
        self.programs.push(ProgramProfile {
            id,
            blocks: blocks.to_vec(),
            source_lines: source_lines.clone(),
        });
        id
    }

    /// Per kernel (in order of first launch), per source line: executions, cycles and
    /// instructions summed over its profiled launches, hottest first (then by line). A
    /// block's cycles and instructions are divided over lines by its `by_line` (a block
    /// without, from an older report, keeps them on its first line); per line the parts
    /// are summed over blocks and launches and rounded so that the lines sum exactly to
    /// the kernel's totals ([`apportion`]). A line gets the largest executions of the
    /// blocks on it. Blocks of the kernel's launches are the same block when they have
    /// the same function and index in its CFG.
    pub fn line_profiles(&self) -> Vec<KernelLines> {
        /// A block's counters summed over a kernel's launches.
        #[derive(Default)]
        struct BlockSum {
            lines: Vec<u32>,
            executions: u64,
            cycles: u64,
            instructions: u64,
            by_line: Vec<LineAmount>,
        }
        let mut order: Vec<String> = Vec::new();
        // kernel -> (launches, (function, block) -> summed block, source lines)
        type Blocks = BTreeMap<(String, usize), BlockSum>;
        let mut kernels: BTreeMap<String, (usize, Blocks, BTreeMap<u32, String>)> = BTreeMap::new();
        for l in &self.launches {
            let Some(p) = &l.profile else { continue };
            let Some(program) = self.programs.get(p.program) else {
                continue;
            };
            let entry = kernels.entry(l.kernel.to_string()).or_insert_with(|| {
                order.push(l.kernel.to_string());
                Default::default()
            });
            entry.0 += 1;
            for b in &p.blocks {
                let Some(at) = program.blocks.get(b.index) else {
                    continue;
                };
                let sum = entry
                    .1
                    .entry((at.function.clone(), at.block))
                    .or_insert_with(|| BlockSum {
                        lines: at.lines.clone(),
                        ..Default::default()
                    });
                sum.executions += b.totals.executions;
                sum.cycles += b.totals.cycles;
                sum.instructions += b.totals.instructions;
                if b.totals.lines.is_empty() {
                    add_to_line(
                        &mut sum.by_line,
                        at.line,
                        b.totals.cycles as f64,
                        b.totals.instructions as f64,
                    );
                }
                for l in &b.totals.lines {
                    add_to_line(&mut sum.by_line, l.line, l.cycles, l.instructions);
                }
            }
            for (&line, text) in &program.source_lines {
                entry.2.entry(line).or_insert_with(|| text.clone());
            }
        }
        order
            .into_iter()
            .map(|kernel| {
                let (launches, blocks, text) = kernels.remove(&kernel).unwrap_or_default();
                let cycles: u64 = blocks.values().map(|b| b.cycles).sum();
                let instructions: u64 = blocks.values().map(|b| b.instructions).sum();
                // Per line: executions of the blocks on it, of the blocks charging it,
                // and its parts of cycles and instructions.
                #[derive(Default)]
                struct Sum {
                    on: Option<u64>,
                    charging: u64,
                    cycles: f64,
                    instructions: f64,
                }
                let mut sums: BTreeMap<u32, Sum> = BTreeMap::new();
                for b in blocks.values() {
                    for &line in &b.lines {
                        let s = sums.entry(line).or_default();
                        s.on = Some(s.on.unwrap_or(0).max(b.executions));
                    }
                    for l in &b.by_line {
                        let s = sums.entry(l.line).or_default();
                        s.cycles += l.cycles;
                        s.instructions += l.instructions;
                        if l.cycles > 0.0 || l.instructions > 0.0 {
                            s.charging = s.charging.max(b.executions);
                        }
                    }
                }
                let line_cycles =
                    apportion(cycles, &sums.values().map(|s| s.cycles).collect::<Vec<_>>());
                let line_instructions = apportion(
                    instructions,
                    &sums.values().map(|s| s.instructions).collect::<Vec<_>>(),
                );
                let mut lines: Vec<LineProfile> = sums
                    .iter()
                    .zip(line_cycles.into_iter().zip(line_instructions))
                    .map(|((&line, s), (c, i))| LineProfile {
                        line,
                        executions: s.on.unwrap_or(s.charging),
                        cycles: c,
                        share: if cycles == 0 {
                            0.0
                        } else {
                            c as f64 * 100.0 / cycles as f64
                        },
                        instructions: i,
                        source: text.get(&line).cloned().unwrap_or_default(),
                    })
                    .collect();
                lines.sort_by(|a, b| {
                    b.cycles
                        .cmp(&a.cycles)
                        .then(b.executions.cmp(&a.executions))
                        .then(a.line.cmp(&b.line))
                });
                KernelLines {
                    kernel,
                    launches,
                    cycles,
                    instructions,
                    lines,
                }
            })
            .collect()
    }
}

/// Adds a part to `line` of `lines` (kept ascending by line).
fn add_to_line(lines: &mut Vec<LineAmount>, line: u32, cycles: f64, instructions: f64) {
    match lines.binary_search_by_key(&line, |l| l.line) {
        Ok(i) => {
            lines[i].cycles += cycles;
            lines[i].instructions += instructions;
        }
        Err(i) => lines.insert(
            i,
            LineAmount {
                line,
                cycles,
                instructions,
            },
        ),
    }
}

/// Whole numbers summing to `total`, in proportion to `parts` (largest remainder: each
/// part scaled to the total and rounded down, then one more to the parts with the
/// largest fractions, the first of equal ones, until the total is reached). The parts
/// of a kernel's cycles are sums of shares that floating point holds to about 1e-16 of
/// the total, so scaling them only removes that error. All parts 0: the first takes all.
pub fn apportion(total: u64, parts: &[f64]) -> Vec<u64> {
    let sum: f64 = parts.iter().map(|p| p.max(0.0)).sum();
    if parts.is_empty() {
        return Vec::new();
    }
    if sum <= 0.0 {
        let mut out = vec![0; parts.len()];
        out[0] = total;
        return out;
    }
    let exact: Vec<f64> = parts
        .iter()
        .map(|p| p.max(0.0) * total as f64 / sum)
        .collect();
    let mut out: Vec<u64> = exact
        .iter()
        .map(|e| (e.floor() as u64).min(total))
        .collect();
    let mut given: u64 = out.iter().sum();
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by(|&a, &b| {
        let fa = exact[a] - exact[a].floor();
        let fb = exact[b] - exact[b].floor();
        fb.total_cmp(&fa).then(a.cmp(&b))
    });
    // Over by rounding (floors of values a hair above a whole): take back from the
    // smallest fractions; under: give to the largest.
    while given > total {
        let i = *order
            .iter()
            .rev()
            .find(|&&i| out[i] > 0)
            .expect("a positive part while over the total");
        out[i] -= 1;
        given -= 1;
    }
    for &i in order.iter().cycle().take((total - given) as usize) {
        out[i] += 1;
    }
    out
}

/// The line profile of one kernel as a table, its `top` hottest lines (all with `None`).
pub fn lines_table(k: &KernelLines, top: Option<usize>) -> String {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED).set_header(vec![
        "line",
        "executions",
        "cycles",
        "%",
        "instructions",
        "source",
    ]);
    let shown = top.unwrap_or(usize::MAX).min(k.lines.len());
    for l in &k.lines[..shown] {
        t.add_row(vec![
            Cell::new(l.line).set_alignment(CellAlignment::Right),
            Cell::new(l.executions).set_alignment(CellAlignment::Right),
            Cell::new(l.cycles).set_alignment(CellAlignment::Right),
            Cell::new(format!("{:.1}", l.share)).set_alignment(CellAlignment::Right),
            Cell::new(l.instructions).set_alignment(CellAlignment::Right),
            Cell::new(l.source.trim()),
        ]);
    }
    format!(
        "srcsim: line profile of {} ({} launch(es), {} work-item cycles, {} PTX instructions){}\n{t}\n",
        k.kernel,
        k.launches,
        k.cycles,
        k.instructions,
        if shown < k.lines.len() {
            format!(", the {shown} hottest of {} lines", k.lines.len())
        } else {
            String::new()
        }
    )
}
