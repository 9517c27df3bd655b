//! The sections of a description as its TOML spells them: the launch cost, compile
//! target, SM limits, units, front end, instruction timings and memory system, with the
//! defaults of the fields a description may leave out.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::instr::{Addressing, OpClass, OpRow};

/// The fixed cost of a kernel launch: the front end and work distributor set the grid up,
/// the first work-groups reach the SMs, and the last one's completion is retired (fill and
/// drain). Charged once per launch, on top of the work-groups' own time.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaunchCost {
    /// Cycles a launch takes beyond its work-groups' time.
    pub fixed_cycles: u32,
}

impl LaunchCost {
    pub(super) fn is_free(&self) -> bool {
        self.fixed_cycles == 0
    }
}

/// An instruction cache that misses on a kernel's first run of its code and fetches no
/// line ahead (GPGPU-Sim's shader L1 instruction cache): every line of the kernel's code
/// but the first (fetched while the launch sets up: part of `[launch]`'s cost) is a miss
/// the SM's warps wait for, a DRAM trip each, with `misses_in_flight` of them outstanding
/// at a time. Charged once per launch on the latency path (every SM's first work-groups
/// run the code first, in parallel). Where the description gives the cache's sets and
/// ways, a loop whose iterations run more code than the cache keeps misses it again every
/// iteration ([`ColdInstructionCache::refetch_cycles`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColdInstructionCache {
    /// Bytes of code per PTX instruction.
    pub instruction_bytes: u32,
    /// Bytes a miss fetches.
    pub line_bytes: u32,
    /// Misses the cache keeps outstanding at once (its MSHR entries).
    pub misses_in_flight: u32,
    /// Its sets (consecutive lines in consecutive sets), where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sets: Option<u32>,
    /// Its ways (the least recently used line replaced), where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ways: Option<u32>,
}

impl ColdInstructionCache {
    /// The cycles a kernel of `instructions` PTX instructions waits for its code, each
    /// miss a trip of `miss_cycles`.
    ///
    /// ```
    /// let cache = pipeline_model::ColdInstructionCache {
    ///     instruction_bytes: 8,
    ///     line_bytes: 128,
    ///     misses_in_flight: 2,
    ///     sets: None,
    ///     ways: None,
    /// };
    /// // 40 instructions, 320 bytes: 3 lines, the 2 after the first: 2 x 500 / 2.
    /// assert_eq!(cache.cold_cycles(40, 500), 500);
    /// assert_eq!(cache.cold_cycles(16, 500), 0);
    /// ```
    pub fn cold_cycles(&self, instructions: u64, miss_cycles: u32) -> u64 {
        self.trips(self.lines(instructions).saturating_sub(1), miss_cycles)
    }

    /// The cycles each further iteration of a loop that runs `instructions` PTX
    /// instructions an iteration waits for the lines the cache could not keep since the
    /// last, each miss a trip of `miss_cycles`. The lines fall in consecutive sets; a set
    /// that must hold more of them than its ways, walked in a cycle with the least recently
    /// used line replaced, misses every one of them every iteration; the others keep
    /// theirs. 0 where the sets and ways are not given.
    ///
    /// ```
    /// let cache = pipeline_model::ColdInstructionCache {
    ///     instruction_bytes: 8,
    ///     line_bytes: 128,
    ///     misses_in_flight: 2,
    ///     sets: Some(4),
    ///     ways: Some(4),
    /// };
    /// // 256 instructions, 16 lines, 4 a set: all kept.
    /// assert_eq!(cache.refetch_cycles(256, 250), 0);
    /// // 17 lines: one set holds 5 and misses them all, 5 x 250 / 2.
    /// assert_eq!(cache.refetch_cycles(257, 250), 625);
    /// // 59 lines (934 instructions): 15, 15, 15 and 14 a set, all missed.
    /// assert_eq!(cache.refetch_cycles(934, 250), 59 * 250 / 2);
    /// ```
    pub fn refetch_cycles(&self, instructions: u64, miss_cycles: u32) -> u64 {
        let (Some(sets), Some(ways)) = (self.sets, self.ways) else {
            return 0;
        };
        let sets = u64::from(sets.max(1));
        let lines = self.lines(instructions);
        // `lines % sets` sets hold one line more than the others.
        let (fewer, more) = (lines / sets, lines / sets + 1);
        let missed = |held: u64| if held > u64::from(ways) { held } else { 0 };
        let misses = missed(fewer) * (sets - lines % sets) + missed(more) * (lines % sets);
        self.trips(misses, miss_cycles)
    }

    /// The cycles each wave of work-groups after a launch's first waits for the code
    /// again, each line a trip of `miss_cycles`: where the code is larger than the cache
    /// (its sets and ways given), the warps before them have long replaced its first
    /// lines, so every line misses again (and none is taken as part of `[launch]`). 0
    /// where the code fits, or the sets and ways are not given. Measured on GPGPU-Sim
    /// with AMD's `blackScholes` (1,824 instructions, no loop): its 36
    /// work-groups, 30 at a time, take 39,355 cycles with the GTX 480's 2 KiB cache and
    /// 31,985 with 64 sets, where its 16 (one wave) take 22,796 with either
    /// (validation/gpgpusim/README.md).
    ///
    /// ```
    /// let cache = pipeline_model::ColdInstructionCache {
    ///     instruction_bytes: 8,
    ///     line_bytes: 128,
    ///     misses_in_flight: 2,
    ///     sets: Some(4),
    ///     ways: Some(4),
    /// };
    /// // 16 lines fit.
    /// assert_eq!(cache.rerun_cycles(256, 250), 0);
    /// // 58 lines: all of them again, 58 x 250 / 2.
    /// assert_eq!(cache.rerun_cycles(58 * 16, 250), 7250);
    /// ```
    pub fn rerun_cycles(&self, instructions: u64, miss_cycles: u32) -> u64 {
        let (Some(sets), Some(ways)) = (self.sets, self.ways) else {
            return 0;
        };
        let lines = self.lines(instructions);
        if lines <= u64::from(sets) * u64::from(ways) {
            return 0;
        }
        self.trips(lines, miss_cycles)
    }

    /// The cache lines `instructions` PTX instructions take.
    fn lines(&self, instructions: u64) -> u64 {
        (instructions * u64::from(self.instruction_bytes)).div_ceil(u64::from(self.line_bytes))
    }

    /// The cycles `misses` trips of `miss_cycles` take, `misses_in_flight` at a time.
    fn trips(&self, misses: u64, miss_cycles: u32) -> u64 {
        misses * u64::from(miss_cycles) / u64::from(self.misses_in_flight.max(1))
    }
}

/// The SM's constant cache as divergent `__constant` loads see it: each further line a
/// warp's lanes touch costs a pass, short while the table fits, long once it does not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstantCache {
    /// Bytes it holds.
    pub bytes: u64,
    /// Cycles each further line takes when the table the load reads fits.
    pub pass_cycles: u32,
    /// Cycles each further line takes when it does not (a trip past the cache).
    pub miss_pass_cycles: u32,
}

/// The L1's associativity (`memory.l1_sets`): `l1_bytes / (128 * ways)` sets of `ways`
/// 128-byte lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct L1Sets {
    /// Lines each set holds.
    pub ways: u32,
    /// How a line's address picks its set.
    #[serde(default)]
    pub index: SetIndex,
}

/// How an address picks its cache set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetIndex {
    /// The line number modulo the sets.
    #[default]
    Linear,
    /// GPGPU-Sim's Fermi hash (`gpu-cache.cc`, `FERMI_HASH_SET_FUNCTION`, after Nugteren
    /// et al., HPCA 2014): address bits 7-11 XOR bits 13, 14, 15, 17 and 19; 32 or 64 sets
    /// (bit 12 above them for 64).
    FermiHash,
}

impl L1Sets {
    /// The set of the 128-byte line holding byte `address` in an L1 of `sets` sets.
    ///
    /// ```
    /// use pipeline_model::{L1Sets, SetIndex};
    /// let linear = L1Sets { ways: 4, index: SetIndex::Linear };
    /// assert_eq!(linear.set_of(33 * 128, 32), 1);
    /// let fermi = L1Sets { ways: 4, index: SetIndex::FermiHash };
    /// // Rows 2 KiB apart: bit 11 and bits 13-15 pick the set.
    /// assert_eq!(fermi.set_of(0, 32), 0);
    /// assert_eq!(fermi.set_of(2048, 32), 16);
    /// assert_eq!(fermi.set_of(4 * 2048, 32), 1);
    /// assert_eq!(fermi.set_of(2 * 2048, 32), 0);
    /// ```
    pub fn set_of(&self, address: u64, sets: u64) -> u64 {
        let line = address >> 7;
        match self.index {
            SetIndex::Linear => line % sets.max(1),
            SetIndex::FermiHash => {
                let lower = line & 0x1f;
                let upper = ((address & 0xe000) >> 13)
                    | ((address & 0x2_0000) >> 14)
                    | ((address & 0x8_0000) >> 15);
                let set = lower ^ upper;
                if sets == 64 {
                    set | ((address & 0x1000) >> 7)
                } else {
                    set
                }
            }
        }
    }
}

impl ConstantCache {
    /// Cycles each further line of a divergent load takes, the table it reads holding
    /// `table_lines` + 1 lines of 128 bytes (`MemAccess::reuse_lines`; unknown: taken to
    /// fit).
    ///
    /// ```
    /// let cache = pipeline_model::ConstantCache { bytes: 2048, pass_cycles: 10, miss_pass_cycles: 80 };
    /// assert_eq!(cache.pass_for(Some(15)), 10); // 2 KiB: fits
    /// assert_eq!(cache.pass_for(Some(63)), 80); // 8 KiB: does not
    /// assert_eq!(cache.pass_for(None), 10);
    /// ```
    pub fn pass_for(&self, table_lines: Option<u32>) -> u32 {
        match table_lines {
            Some(lines) if (u64::from(lines) + 1) * 128 > self.bytes => self.miss_pass_cycles,
            _ => self.pass_cycles,
        }
    }
}

/// What an OpenCL profiling event's START to END shows around a launch on the vendor's
/// OpenCL driver, beyond the kernel's own duration: the driver's and the front end's work
/// for each launch, and more for the first launch of a context (the driver's lazy set-up
/// of its kernel execution, which a fill the host waited for does instead). A user who times launches with events reads these; a profiler's kernel
/// duration does not hold them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenclEvent {
    /// Microseconds every launch's event adds to the kernel's duration.
    pub launch_us: f64,
    /// Microseconds more for the first launch of a context (not of each new queue), where
    /// no fill of the context was waited for before it.
    pub first_launch_us: f64,
}

impl OpenclEvent {
    /// What an event shows for a launch the model estimates at `kernel_micros`.
    ///
    /// ```
    /// let event = pipeline_model::OpenclEvent { launch_us: 5.0, first_launch_us: 12.0 };
    /// assert_eq!(event.micros(1.5, false), 6.5);
    /// assert_eq!(event.micros(1.5, true), 18.5);
    /// ```
    pub fn micros(&self, kernel_micros: f64, first_in_context: bool) -> f64 {
        kernel_micros
            + self.launch_us
            + if first_in_context {
                self.first_launch_us
            } else {
                0.0
            }
    }
}

/// The PTX target a kernel is compiled for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompileTarget {
    /// `sm_XX` handed to clang as `-march`.
    pub ptx_target: String,
}

/// Per-SM limits that bound how many work-groups run at once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmLimits {
    /// Resident warps.
    pub max_warps: u32,
    /// Resident work-groups (CTAs).
    pub max_work_groups: u32,
    /// 32-bit registers in the register file.
    pub registers: u32,
    /// 32-bit registers one work-item may hold at most: the compiler keeps a kernel
    /// within it (spilling the rest to its private frame), so no work-item takes more of
    /// the register file. `None`: no limit below the register file.
    #[serde(default)]
    pub registers_per_work_item: Option<u32>,
    /// Shared (OpenCL local) memory in bytes.
    pub shared_memory_bytes: u32,
    /// Work-items in one work-group (threads per block) at most.
    #[serde(default = "max_work_group_size")]
    pub max_work_group_size: u32,
    /// Work-items per dimension of a work-group at most.
    #[serde(default = "max_work_group_dims")]
    pub max_work_group_dims: [u32; 3],
}

fn max_work_group_size() -> u32 {
    1024
}

fn max_work_group_dims() -> [u32; 3] {
    [1024, 1024, 64]
}

/// Where a resource lives: in every sub-core (its own copy, used only by the warps dealt to
/// that sub-core), once in the SM (shared by all its warps), or once in the whole GPU (the
/// DRAM interface, shared by every SM).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Each sub-core has its own.
    SubCore,
    /// One for the whole SM.
    Sm,
    /// One for the whole GPU (only the DRAM resource; no unit may have it).
    Device,
}

/// A functional unit kind: how many copies, how wide, and where.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Name used by [`OpTiming::unit`] and in reports (`ALU`, `SFU`, `MEM`, ...).
    pub name: String,
    /// Copies (per sub-core, or per SM, as `scope` says); a unit with k copies accepts k
    /// warp instructions per initiation interval.
    pub count: u32,
    /// Lanes of one copy: a warp instruction takes `ceil(warp_size / lanes)` cycles to
    /// dispatch, and the unit accepts no other instruction meanwhile.
    pub lanes: u32,
    /// Whether each sub-core has `count` copies or the SM has `count` in all.
    pub scope: Scope,
}

/// Constants of the front end and write-back (docs/design.md, the pipeline execution graph).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frontend {
    /// Instructions fetched together (IF_i -> IF_{i+1}: 0 within a group).
    pub fetch_group: u32,
    /// Cycles before the next group is fetched (IF_i -> IF_{i+group}).
    pub refill_gap: u32,
    /// IF -> IS.
    pub fetch_to_issue: u32,
    /// IS -> OC.
    pub issue_to_operand: u32,
    /// OC -> EX per general-purpose register read (at least one read is charged): 1 on a
    /// banked register file read one operand a cycle (the paper's Fermi); 0 where operand
    /// reads are pipelined into the measured latency (Volta and later).
    pub operand_cycles_per_read: u32,
    /// Minimum issue distance of two instructions of one warp (IS_i -> IS_{i+1}).
    pub issue_interval: u32,
    /// Results written back per cycle (WB_i -> WB_{i+width}: 1).
    pub writeback_width: u32,
    /// WB of a producer -> IS of a consumer (read after write).
    pub writeback_to_issue: u32,
    /// Fetch groups the SM's one fetch unit reads a cycle, for all its warps together; with
    /// it the model has a resource [`FETCH`](super::FETCH) of the SM, each block holding it
    /// `ceil(instructions / fetch_group)` over this many cycles. Absent (0): each warp
    /// fetches on its own and only the per-warp edges apply.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sm_fetch_groups_per_cycle: u32,
    /// Cycles from a branch's execution to the fetch of the instruction after it (the
    /// warp's instruction buffer is refilled once the branch has resolved); absent: 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub branch_to_fetch: u32,
    /// The order a block's instructions issue in; absent: as the PTX gives them.
    #[serde(default, skip_serializing_if = "IssueOrder::is_ptx")]
    pub issue_order: IssueOrder,
    /// How much of the PTX's shared-memory address arithmetic the GPU's native code
    /// absorbs into its loads' and stores' addressing ([`Instr::addressing`](crate::instr::Instr::addressing)): `base`
    /// (`[R+UR+imm]`) or `scaled_index` (`[R.X4+UR+imm]`). Absent (`none`): every PTX
    /// instruction issues, as in a simulator of PTX (GPGPU-Sim).
    #[serde(default, skip_serializing_if = "Addressing::is_none")]
    pub native_addressing: Addressing,
}

/// The order in which a block's instructions reach the pipeline.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueOrder {
    /// The PTX order, as a simulator of PTX (GPGPU-Sim) runs it.
    #[default]
    Ptx,
    /// The order a backend compiler's list scheduler gives the machine code (ptxas on real
    /// GPUs): among the instructions whose operands are computed, the one with the longest
    /// latency path to the block's end first, so that loads are hoisted above independent
    /// work and their latency is paid at their first use. Stores, branches and barriers stay
    /// in place (nothing moves across them).
    ListScheduled,
}

impl IssueOrder {
    fn is_ptx(&self) -> bool {
        *self == IssueOrder::Ptx
    }
}

/// Latency and throughput of one instruction class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpTiming {
    /// The unit that executes it (a name from `units`).
    pub unit: String,
    /// EX -> WB in cycles.
    pub latency: u32,
    /// Cycles the unit stays busy before it accepts the next instruction.
    pub initiation: u32,
}

/// The timing of every instruction class ([`OpRow`]: its rows and their keys), the
/// `[ops]` table of a description; `mem_global` and `mem_shared` may be left out (they
/// fall back to `mem`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct OpTable(BTreeMap<OpRow, OpTiming>);

/// The memory hierarchy: load-to-use latencies in cycles and the DRAM bandwidth. A memory
/// instruction whose address the front end analysed ([`crate::MemAccess`]) is charged the
/// latency of the level it is served from; one it did not analyse keeps its `ops` row. The
/// bandwidth bounds the kernel as a whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemorySystem {
    /// Shared (local) memory load to use, without bank conflicts.
    pub shared: u32,
    /// Global load to use on an L1 data cache hit.
    pub l1_hit: u32,
    /// Global load to use on an L1 miss that hits in the L2.
    pub l2_hit: u32,
    /// Global load to use on a miss in both caches (the whole trip to DRAM and back).
    pub dram: u32,
    /// The same trip when few requests are in flight, where it is shorter than `dram`
    /// (a description whose `dram` is the trip under load, as its throughput terms see
    /// it): what a first touch on a work-item's path waits in a launch whose reads exceed
    /// the L2 ([`crate::l1_sharing`]). Absent: `dram`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dram_unloaded: Option<u32>,
    /// An L2 trip with few requests in flight, where it is shorter than `l2_hit` (a
    /// description whose `l2_hit` is the trip at the load its launches typically put on
    /// the L2). With it the model has a resource [`L2_TRIP`](super::L2_TRIP): the cycles
    /// a block's path spends beyond its L2 trips at this latency; the launch's paths
    /// shed them as the L2 is idle (the L2's bytes over its bandwidth against the paths:
    /// `kernel`). Absent: every trip is `l2_hit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_unloaded: Option<u32>,
    /// Bytes a miss moves from DRAM: 32 where the caches fill 32-byte sectors (Volta and
    /// later), 128 where they fill whole 128-byte lines (Fermi's L1). An uncoalesced
    /// access moves this much per lane.
    #[serde(default = "sector_bytes")]
    pub fetch_bytes: u32,
    /// Misses to the L2 an SM can have in flight (its L1's miss status holding
    /// registers). With it the model has a resource [`MSHR`](super::MSHR) of the SM: every load request
    /// that misses the L1 holds an entry for its latency, so that the SM's memory-level
    /// parallelism bounds how much latency its warps hide (Hong and Kim, ISCA 2009).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mshrs_per_sm: Option<u32>,
    /// Bytes a cycle the interconnect delivers into one SM (its share of the network
    /// that brings the L2's replies back). With it the model has a resource
    /// [`FILL`](super::FILL) of the SM: the lines its loads bring past the L1 cross that
    /// port one after another, so a few SMs whose lanes each miss their own lines wait on
    /// it where the L2 as a whole is far from busy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill_bytes_per_cycle: Option<f64>,
    /// DRAM bandwidth in GB/s (10^9 bytes a second). With it the model has a resource
    /// [`DRAM`](super::DRAM) of the whole GPU: the bytes a launch must move between the SMs and DRAM over
    /// this bandwidth bound its time. Without it, global memory costs only latency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dram_gb_per_s: Option<f64>,
    /// L2 capacity in bytes. With it a launch whose buffers fit in the L2 is served from
    /// it: what the host or an earlier launch last wrote is still there (the L2 is the
    /// point every access to device memory passes, copies included), so the launch moves
    /// nothing from DRAM and its misses in flight wait an L2 trip, not a DRAM one. A launch
    /// whose buffers exceed it streams through an LRU cache that keeps nothing it needs
    /// again: everything comes from DRAM, as without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_bytes: Option<u64>,
    /// The L2's ways (its sets being `l2_bytes / (128 * ways)`), with `l2_bytes`. With
    /// them a launch whose reads need a little more than the L2 misses only in the sets
    /// that must hold a line more than they have ways: consecutive lines fill the sets in
    /// turn, so `e` extra lines (fewer than the sets) overfill `e` sets, whose lines an
    /// LRU cache read in a cycle misses every time, and the other sets hit. Without them
    /// any excess misses everywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_ways: Option<u32>,
    /// L1 data cache capacity per SM in bytes. With it a sampled load inside a loop
    /// ([`crate::sampling`]) whose buffer fits in the L1 the SM has left is served from the
    /// L1: the loop's first pass brought the buffer in and nothing pushes it out. Without
    /// it such loads stay where the front end charged them (the L2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l1_bytes: Option<u64>,
    /// The L1's sets: its ways and how an address picks its set. With them a sampled load
    /// whose lanes each walk their own lines is served from the L1 only where no set must
    /// hold more of those lines, with the loop's other loads', than it has ways (a row
    /// pitch of a power of two puts every lane's line in a few sets). Without them the
    /// L1's capacity alone decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l1_sets: Option<L1Sets>,
    /// Whether the L1 and shared memory are one array of `l1_bytes` (Volta and later): the
    /// L1 then holds what the shared memory of the SM's work-groups leaves.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub l1_with_shared: bool,
    /// L2 bandwidth in GB/s, all slices together. With it the model has a resource [`L2`](super::L2)
    /// of the whole GPU (every byte past the L1 crosses it), and the first wave of a launch
    /// served from the L2 queues there (see [`crate::kernel`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_gb_per_s: Option<f64>,
    /// What the L2 sustains over a launch's whole traffic, in GB/s, where it is less than
    /// `l2_gb_per_s`: the L2's term (the launch's bytes over it) and its station in the
    /// warps' queueing network take it, while the miss entries' drain and the first wave's
    /// burst, which find every SM's requests queued at the L2, take `l2_gb_per_s`.
    /// Without it both are `l2_gb_per_s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_sustained_gb_per_s: Option<f64>,
    /// Whether a warp exits only once its stores are acknowledged: then every warp's time
    /// ends an L2 trip (`l2_hit`) after its last instruction, as GPGPU-Sim's warps do.
    /// Either way a store does not hold up the instructions after it: it completes in the
    /// background, and a block's time does not wait for it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub store_ack_at_exit: bool,
}

impl MemorySystem {
    /// Bytes a warp's access of `transactions` 128-byte lines and `sectors` 32-byte
    /// sectors moves past the L1: whole lines where the caches fill lines
    /// (`fetch_bytes` 128), else its sectors.
    ///
    /// ```
    /// let mut m = pipeline_model::Architecture::load("gtx480").unwrap().memory;
    /// assert_eq!(m.fetched_bytes(2, 5), 256);
    /// m.fetch_bytes = 32;
    /// assert_eq!(m.fetched_bytes(2, 5), 160);
    /// ```
    pub fn fetched_bytes(&self, transactions: u32, sectors: u32) -> u64 {
        let units = if self.fetch_bytes >= 128 {
            transactions
        } else {
            sectors
        };
        u64::from(units) * u64::from(self.fetch_bytes)
    }

    /// Bytes a warp's store of `sectors` 32-byte sectors moves past the L1: its sectors,
    /// whatever the lines a load fetches (`fetch_bytes`). The L1 writes a store through
    /// without filling a line, and the L2 takes the sectors written: in GPGPU-Sim's GTX 480
    /// a store of one float a lane into 7,680 lines made 7,770 L2 accesses and took 1,884
    /// cycles, the same lines written whole 30,870 accesses and 5,610 cycles
    /// (`validation/gpgpusim/probes/`, `store_strided`, `store_whole`).
    ///
    /// ```
    /// let m = pipeline_model::Architecture::load("gtx480").unwrap().memory;
    /// assert_eq!(m.stored_bytes(5), 160);
    /// assert_eq!(m.fetched_bytes(2, 5), 256);
    /// ```
    pub fn stored_bytes(&self, sectors: u32) -> u64 {
        u64::from(sectors) * crate::sampling::SECTOR as u64
    }
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

fn sector_bytes() -> u32 {
    32
}

impl OpTable {
    /// The timing row of an instruction class.
    pub fn get(&self, class: OpClass) -> &OpTiming {
        let row = class.row();
        self.0
            .get(&row)
            .or_else(|| self.0.get(&OpRow::Mem))
            .expect("validated: every required row is given")
    }

    /// Every row the description gives, in table order.
    pub fn rows(&self) -> impl Iterator<Item = (OpRow, &OpTiming)> {
        self.0.iter().map(|(r, t)| (*r, t))
    }

    /// The required rows the description lacks.
    pub(super) fn missing(&self) -> impl Iterator<Item = OpRow> + '_ {
        OpRow::ALL
            .iter()
            .copied()
            .filter(|r| r.required() && !self.0.contains_key(r))
    }
}

impl std::ops::Index<OpRow> for OpTable {
    type Output = OpTiming;

    /// The row `row` (for an optional one the description leaves out: `mem`).
    fn index(&self, row: OpRow) -> &OpTiming {
        self.0
            .get(&row)
            .or_else(|| self.0.get(&OpRow::Mem))
            .expect("validated: every required row is given")
    }
}

impl std::ops::IndexMut<OpRow> for OpTable {
    /// The row `row`, which the description must give (panics otherwise).
    fn index_mut(&mut self, row: OpRow) -> &mut OpTiming {
        self.0.get_mut(&row).expect("a row the description gives")
    }
}
