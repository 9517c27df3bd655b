//! Reports of [`REPORT_SCHEMA_V1`](super::REPORT_SCHEMA_V1), read and turned into the current schema.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{BlockCounts, BlockTotals, ProgramProfile, SourceBlock, REPORT_SCHEMA};

#[derive(Deserialize)]
pub struct Report {
    arch: String,
    clock_mhz: f64,
    launches: Vec<Launch>,
}

/// A launch: the current form but for its profile.
#[derive(Deserialize)]
struct Launch {
    #[serde(flatten)]
    launch: super::Launch,
    #[serde(default)]
    profile: Option<LaunchProfile>,
}

#[derive(Deserialize)]
struct LaunchProfile {
    blocks: Vec<BlockProfile>,
    source_lines: BTreeMap<u32, String>,
}

#[derive(Deserialize)]
struct BlockProfile {
    block: usize,
    function: String,
    lines: Vec<u32>,
    line: u32,
    column: u32,
    #[serde(flatten)]
    totals: BlockTotals,
}

impl Report {
    /// The same report in the current schema: per kernel one program, holding the
    /// blocks (by function and index, the first launch's place) and the line texts
    /// (the first launch's text) of all its launches.
    pub fn upgrade(self) -> super::Report {
        let mut report = super::Report::new(&self.arch, self.clock_mhz);
        report.schema = REPORT_SCHEMA.to_string();
        let mut program_of: BTreeMap<String, usize> = BTreeMap::new();
        for Launch {
            mut launch,
            profile,
        } in self.launches
        {
            if let Some(profile) = profile {
                let id = *program_of
                    .entry(launch.kernel.to_string())
                    .or_insert_with(|| {
                        report.programs.push(ProgramProfile {
                            id: report.programs.len(),
                            blocks: Vec::new(),
                            source_lines: BTreeMap::new(),
                        });
                        report.programs.len() - 1
                    });
                let program = &mut report.programs[id];
                for (line, text) in profile.source_lines {
                    program.source_lines.entry(line).or_insert(text);
                }
                let blocks = profile
                    .blocks
                    .into_iter()
                    .map(|b| {
                        let index = match program
                            .blocks
                            .iter()
                            .position(|s| s.function == b.function && s.block == b.block)
                        {
                            Some(i) => i,
                            None => {
                                program.blocks.push(SourceBlock {
                                    function: b.function,
                                    block: b.block,
                                    lines: b.lines,
                                    line: b.line,
                                    column: b.column,
                                });
                                program.blocks.len() - 1
                            }
                        };
                        BlockCounts {
                            index,
                            totals: b.totals,
                        }
                    })
                    .collect();
                launch.profile = Some(super::LaunchProfile {
                    program: id,
                    blocks,
                });
            }
            report.launches.push(launch);
        }
        report
    }
}
