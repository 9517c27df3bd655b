//! Block and block-pair times and resource usage: what the static analysis hands to the
//! annotator (t_B, t_(Bi,Bj), use(r, B)).

use serde::{Deserialize, Serialize};

use crate::arch::Architecture;
use crate::graph::{ExecutionGraph, Schedule};
use crate::instr::Instr;

/// The best-case timing of one basic block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockTiming {
    /// t_B: cycles from the first fetch to the last step, one warp alone on the SM.
    pub cycles: u64,
    /// use(r, B) for every resource of [`Architecture::resources`], in cycles.
    pub usage: ResourceUsage,
}

/// Cycles each resource is held, indexed like [`Architecture::resources`]: the issue stage
/// one cycle (issue interval) per instruction, a unit the initiation interval of each
/// instruction on it divided by the unit's copies; for [`crate::arch::DRAM`], the bytes one
/// work-item moves to and from global memory.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ResourceUsage(pub Vec<f64>);

impl ResourceUsage {
    /// Usage of `instrs` on `arch`.
    pub fn of(arch: &Architecture, instrs: &[Instr]) -> Self {
        let mut usage = vec![0.0; arch.resources().len()];
        let dram = arch.dram_resource();
        for instr in instrs {
            let t = arch.describe_instr(instr);
            usage[0] += f64::from(arch.frontend.issue_interval);
            usage[t.unit + 1] += f64::from(t.initiation) / f64::from(t.copies);
            if let Some(d) = dram {
                usage[d] += dram_bytes(arch, instr);
            }
        }
        ResourceUsage(usage)
    }
}

/// Bytes one work-item's share of `instr` moves to and from global memory: the warp's
/// 32-byte sectors spread over its lanes when the access was analysed (an uncoalesced
/// access moves whole sectors for a few useful bytes), else the useful bytes.
fn dram_bytes(arch: &Architecture, instr: &Instr) -> f64 {
    match instr.access {
        Some(a) if a.sectors > 0 => f64::from(a.sectors * 32) / f64::from(arch.warp_size),
        _ => f64::from(instr.global_bytes),
    }
}

/// Schedules `instrs` alone on the pipeline.
pub fn schedule(arch: &Architecture, instrs: &[Instr]) -> Schedule {
    ExecutionGraph::build(arch, instrs).schedule()
}

/// t_B and use(r, B) of a basic block.
pub fn block_timing(arch: &Architecture, instrs: &[Instr]) -> BlockTiming {
    BlockTiming {
        cycles: schedule(arch, instrs).length,
        usage: ResourceUsage::of(arch, instrs),
    }
}

/// t_(Bi,Bj): the time of `first`'s instructions followed by `second`'s, so that the
/// overlap of adjacent blocks in the pipeline is counted once.
pub fn pair_cycles(arch: &Architecture, first: &[Instr], second: &[Instr]) -> u64 {
    let both: Vec<Instr> = first.iter().chain(second).cloned().collect();
    schedule(arch, &both).length
}
