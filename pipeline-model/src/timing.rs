//! Block and block-pair times and resource usage: what the static analysis hands to the
//! annotator (t_B, t_(Bi,Bj), use(r, B)).

use serde::{Deserialize, Serialize};

use crate::arch::{Architecture, IssueOrder};
use crate::graph::{ExecutionGraph, Schedule};
use crate::instr::{Instr, MemLevel, OpClass};

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
/// instruction on it divided by the unit's copies; for [`crate::arch::MSHR`], the miss
/// entries taken over the entries there are (the model turns them into cycles); for
/// [`crate::arch::L2`], the bytes one work-item moves to and from global memory; for
/// [`crate::arch::DRAM`], the bytes it stores where the description has an L2 column (what
/// the L2 writes back where it cannot keep them: `kernel`'s traffic), else every byte, as
/// the L2's.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ResourceUsage(pub Vec<f64>);

impl ResourceUsage {
    /// Usage of `instrs` on `arch`.
    pub fn of(arch: &Architecture, instrs: &[Instr]) -> Self {
        let mut usage = vec![0.0; arch.resources().len()];
        // Every byte past the L1 crosses the L2; whether it also comes from DRAM the model
        // decides per launch. Beside the L2, the DRAM column counts the bytes stored, which
        // the L2 writes back where the launch's data exceeds it.
        let (l2, dram) = (arch.l2_resource(), arch.dram_resource());
        // What the addressing absorbs takes nothing.
        let issued: Vec<&Instr> = instrs.iter().filter(|i| !arch.folds(i)).collect();
        for &instr in &issued {
            let t = arch.describe_instr(instr);
            usage[0] += f64::from(arch.frontend.issue_interval);
            usage[t.unit + 1] += f64::from(t.initiation) / f64::from(t.copies);
            let bytes = memory_bytes(arch, instr);
            if let Some(l2) = l2 {
                usage[l2] += bytes;
            }
            if let Some(dram) = dram.filter(|_| l2.is_none() || stores(instr)) {
                usage[dram] += bytes;
            }
        }
        if let Some(f) = arch.fill_resource() {
            usage[f] = issued.iter().map(|i| filled_bytes(arch, i)).sum();
        }
        if let (Some(m), Some(entries)) = (arch.mshr_resource(), arch.memory.mshrs_per_sm) {
            usage[m] =
                issued.iter().map(|i| missed_lines(arch, i)).sum::<f64>() / f64::from(entries);
        }
        if let Some(f) = arch.fetch_resource() {
            let groups = issued.len().div_ceil(arch.frontend.fetch_group as usize);
            usage[f] = groups as f64 / f64::from(arch.frontend.sm_fetch_groups_per_cycle);
        }
        ResourceUsage(usage)
    }
}

/// Whether `instr` writes global memory without reading it (a store: no register
/// written; an atomic returns the old value).
fn stores(instr: &Instr) -> bool {
    instr.class == OpClass::GlobalMem && instr.writes.is_empty()
}

/// Bytes the warp's `instr` brings into the SM past the L1: a global load's (or an
/// atomic's) sectors or lines, the whole warp's (the SM's port carries them once, as its
/// unit issues the instruction once: the usage of a warp instruction, taken as the most
/// over a warp's lanes like a unit's), where the L1 does not serve them.
fn filled_bytes(arch: &Architecture, instr: &Instr) -> f64 {
    if instr.class != OpClass::GlobalMem || instr.writes.is_empty() {
        return 0.0;
    }
    memory_bytes(arch, instr) * f64::from(arch.warp_size)
}

/// Bytes one work-item's share of `instr` moves to and from global memory: the warp's
/// 32-byte sectors (or, for a load, 128-byte lines where the caches fill whole lines:
/// `memory.fetch_bytes`; a store moves its sectors, [`MemorySystem::stored_bytes`])
/// spread over its lanes when the access was analysed (an uncoalesced access moves whole
/// sectors for a few useful bytes), else the useful bytes.
///
/// A load the L1 serves because an earlier load brought its sectors in moves none.
///
/// [`MemorySystem::stored_bytes`]: crate::arch::MemorySystem::stored_bytes
fn memory_bytes(arch: &Architecture, instr: &Instr) -> f64 {
    match instr.access {
        Some(a) if a.reuse_lines.is_some() && arch.serving_level(&a) == MemLevel::L1 => 0.0,
        Some(a) if a.sectors > 0 && stores(instr) => {
            arch.memory.stored_bytes(a.sectors) as f64 / f64::from(arch.warp_size)
        }
        Some(a) if a.sectors > 0 => {
            arch.memory.fetched_bytes(a.transactions, a.sectors) as f64 / f64::from(arch.warp_size)
        }
        _ => f64::from(instr.global_bytes),
    }
}

/// The order in which the instructions of one block issue on `arch`
/// ([`IssueOrder`]): positions into `instrs`.
pub fn issue_order(arch: &Architecture, instrs: &[Instr]) -> Vec<usize> {
    match arch.frontend.issue_order {
        IssueOrder::Ptx => (0..instrs.len()).collect(),
        IssueOrder::ListScheduled => list_schedule(arch, instrs),
    }
}

/// A list scheduler: dependencies are read-after-write, write-after-read and
/// write-after-write on registers, and every instruction that writes no register (a
/// store, branch, barrier or fence) is a wall nothing crosses; among the ready
/// instructions the one with the longest latency path to the block's end goes first (ties:
/// the earlier one).
fn list_schedule(arch: &Architecture, instrs: &[Instr]) -> Vec<usize> {
    let n = instrs.len();
    let wall = |i: usize| instrs[i].writes.is_empty();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for j in 0..n {
        for i in 0..j {
            let (a, b) = (&instrs[i], &instrs[j]);
            let raw = b.reads.iter().any(|r| a.writes.contains(r));
            let war = b.writes.iter().any(|w| a.reads.contains(w));
            let waw = b.writes.iter().any(|w| a.writes.contains(w));
            if raw || war || waw || wall(i) || wall(j) {
                preds[j].push(i);
            }
        }
    }
    // Height: the instruction's latency plus the highest of its successors.
    let latency: Vec<u64> = instrs
        .iter()
        .map(|i| u64::from(arch.describe_instr(i).latency))
        .collect();
    let mut height = latency.clone();
    for j in (0..n).rev() {
        for &i in &preds[j] {
            height[i] = height[i].max(latency[i] + height[j]);
        }
    }
    let mut waiting: Vec<usize> = preds.iter().map(Vec::len).collect();
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (j, ps) in preds.iter().enumerate() {
        for &i in ps {
            succs[i].push(j);
        }
    }
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let next = (0..n)
            .filter(|&i| !done[i] && waiting[i] == 0)
            .max_by_key(|&i| (height[i], std::cmp::Reverse(i)))
            .expect("dependencies go forward, so some instruction is ready");
        done[next] = true;
        order.push(next);
        for &j in &succs[next] {
            waiting[j] -= 1;
        }
    }
    order
}

fn reordered(instrs: &[Instr], order: &[usize]) -> Vec<Instr> {
    order.iter().map(|&i| instrs[i].clone()).collect()
}

/// Miss entries `instr` takes: a global load charged at DRAM (a first touch) takes one
/// per line, held for the trip to wherever the launch's data is (the model multiplies by
/// that latency: [`crate::kernel`]). Loads charged at the L2 (inside loops) are not
/// counted: the analysis cannot tell how many of their lines the L1 merges or keeps.
fn missed_lines(arch: &Architecture, instr: &Instr) -> f64 {
    match instr.access {
        Some(a)
            if instr.class == OpClass::GlobalMem
                && !instr.writes.is_empty()
                && a.level == MemLevel::Dram
                && arch.serving_level(&a) != MemLevel::L1 =>
        {
            f64::from(a.transactions)
        }
        _ => 0.0,
    }
}

/// Schedules `instrs` alone on the pipeline, in the order they issue on `arch`; the
/// schedule is indexed by the positions in `instrs`.
pub fn schedule(arch: &Architecture, instrs: &[Instr]) -> Schedule {
    let order = issue_order(arch, instrs);
    ExecutionGraph::build(arch, &reordered(instrs, &order))
        .schedule()
        .in_original_order(&order)
}

/// t_B and use(r, B) of a basic block. Where the description gives the L2's unloaded
/// trip, the block's [`crate::arch::L2_TRIP`] is the cycles its path takes beyond the
/// same path with every L2 trip unloaded (the block timed twice).
pub fn block_timing(arch: &Architecture, instrs: &[Instr]) -> BlockTiming {
    let cycles = schedule(arch, instrs).length;
    let mut usage = ResourceUsage::of(arch, instrs);
    if let Some(r) = arch.l2_trip_resource().filter(|_| !arch.unloaded_l2) {
        let unloaded = schedule(&arch.with_unloaded_l2(), instrs).length;
        usage.0[r] = cycles.saturating_sub(unloaded) as f64;
    }
    BlockTiming { cycles, usage }
}

/// t_(Bi,Bj): the time of `first`'s instructions followed by `second`'s, so that the
/// overlap of adjacent blocks in the pipeline is counted once.
/// Each block is ordered on its own (a compiler schedules within basic blocks).
pub fn pair_cycles(arch: &Architecture, first: &[Instr], second: &[Instr]) -> u64 {
    let mut both = reordered(first, &issue_order(arch, first));
    both.extend(reordered(second, &issue_order(arch, second)));
    ExecutionGraph::build(arch, &both).schedule().length
}
