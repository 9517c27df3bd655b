//! The pipeline model of srcsim: GPU architecture descriptions, instruction classes,
//! pipeline execution graphs, the best-case timing of basic blocks (Gerum et al. 2015,
//! section IV-A), and the analytical model that turns per-work-item counters into a
//! kernel's time (section IV-C): a launch's inputs ([`launch`]), [`mod@occupancy`], the
//! records reduced to warps and work-groups dealt to the SMs (`warps`), and the estimate
//! ([`kernel`]); the counter record's layout, defined once ([`records`]); sampled
//! accesses corrected first ([`sampling`]); a kernel of one block moved to the warps
//! sharing the L1 in its launch ([`l1_sharing`]); variants of a description for sweeps
//! ([`variant`]).
//!
//! It knows instruction classes, not PTX syntax nor OpenCL: a front end turns each
//! instruction into an [`Instr`] and asks for its block's [`BlockTiming`].
//!
//! ```
//! use pipeline_model::{Architecture, Instr, OpClass, ArithOp, DataKind, block_timing};
//!
//! let arch = Architecture::load("gtx480").unwrap();
//! let add = |dst, a, b| Instr::new(OpClass::Arith(DataKind::Fp32, ArithOp::Add), &[a, b], &[dst]);
//! // Three chained single-precision additions (docs/design.md's second worked example).
//! let block = [add(3, 1, 2), add(4, 3, 2), add(5, 4, 2)];
//! assert_eq!(block_timing(&arch, &block).cycles, 25);
//! ```
#![deny(missing_docs)]

pub mod arch;
pub mod graph;
pub mod instr;
mod interference;
pub mod kernel;
pub mod l1_sharing;
pub mod launch;
pub mod occupancy;
pub mod records;
pub mod rows;
pub mod sampling;
pub mod timing;
mod traffic;
pub mod variant;
mod warps;

pub use arch::{
    ArchError, Architecture, ColdInstructionCache, ConstantCache, InstrTiming, IssueOrder, L1Sets,
    OpenclEvent, Scope, SetIndex, Unit, DRAM, FETCH, ISSUE, L2, MSHR,
};

/// The revision of the model's arithmetic (this crate's, not an architecture's numbers):
/// raised whenever the same records and description give other estimates, so that a
/// baseline can tell the simulator's changes from the program's. 1: the paper's model with
/// sub-cores. 2: the DRAM term. 3: "Model v2": the launch cost, memory levels (latency by
/// level, DRAM traffic in sectors or lines, the DRAM's last trip), divergent arms, the
/// compiler's issue order, the branch's fetch delay, the SM's fetch unit and its misses in
/// flight. 4: the L2: a launch whose buffers fit in it is served from it (no DRAM traffic,
/// misses wait an L2 trip), its bandwidth bounds the launch, and the first wave's requests
/// queue at the level that serves them; a warp that exits only once its stores are
/// acknowledged ends an L2 trip later. 5: divergence inside loops: a warp runs an arm in
/// as many iterations as its lanes' entries can fill, at their mean cycles an entry
/// (`records`: each arm's entries and its branch's decisions). 6: the instruction
/// cache's first-run misses (`[icache]`, the kernel's code size). 7: a load whose sectors
/// an earlier load of the work-group brought in is an L1 hit while the L1 holds every
/// warp's lines between the two (`MemAccess::reuse_lines`, `Architecture::l1_keeps`).
/// 8: a divergent `__constant` load's further lines cost the constant cache's pass, long
/// where its table exceeds the cache (`[constant]`, `MemLevel::Constant`). 9: a sampled
/// load in a loop whose lanes each walk their own lines is served by the L1 in the share
/// of executions that find their lines held, where the L1's sets hold every resident
/// warp's lines (`sampling::Measured::stream_hits`). 10: only the first wave's first round
/// of loads queues at once; the later rounds queue by what their transfer takes beyond the
/// wave's run (`KernelResources::first_round_warp_bytes`). 11: what the L2 must hold is
/// what the launch reads (`KernelResources::read_memory_bytes`); reads a little larger
/// than it miss in the sets they overfill (`Architecture::l2_miss_share`). 12: image reads
/// and writes are timed on the texture path (`OpClass::Texture`, the `texture` row). 13:
/// the code's first run adds to whichever term bounds the launch, not to the latency term
/// alone (`KernelEstimate::icache_cycles`). 14: the code's first run fetches no divergent
/// arm that no lane entered (`KernelResources::arm_code`). 15: a loop whose iterations run
/// more code than the instruction cache keeps fetches it again every iteration
/// (`ColdInstructionCache::refetch_cycles`, `[icache] sets, ways`). 16: a work-group
/// after the first wave fetches code larger than the instruction cache again
/// (`ColdInstructionCache::rerun_cycles`). 17: the work-items' private frames
/// (`KernelResources::frame_bytes`) take their room in the L2 beside the buffers. 18: no
/// work-item takes more registers than a thread may hold (`limits.registers_per_work_item`).
/// 19: a walked line stays in the L1 unless every warp's other loads of the loop, spread
/// over the sets and the sampled ones as measured (`SampledAccess::loop_peers`), fill its
/// set between two of its warp's touches. 20: near the knee between the latency and issue
/// terms the warps' paths wait for their scheduler's issue slot (`issue_wait_cycles`,
/// mean value analysis of each scheduler's warps). 21: a kernel of one block moves to the
/// class of warps sharing the L1 its launch has (`KernelResources::l1_sharing`,
/// [`l1_sharing`]). 22: a warp-uniform load a loop moves by at least what the L1 fetches
/// a miss in is served by the L2 (`MemAccess::step_bytes`, `Architecture::serving_level`).
/// 23: a kernel of one block whose launch reads more than the L2 holds waits the DRAM's
/// unloaded trip for its first touches (`memory.dram_unloaded`, `L1Sharing::from_dram`).
/// 24: work-groups that finish together make way in the order the first wave was dealt,
/// so the groups taking their places go to the SMs in turn, not all to the first SM.
/// 25: the lines an SM's loads bring past its L1 cross its port of the interconnect one
/// after another (`memory.fill_bytes_per_cycle`, the resource `fill`): a few SMs whose
/// lanes each miss their own lines wait on it where the L2 as a whole is far from busy.
/// 26: near the knee the warps' requests also wait for the L2, the second station of each
/// scheduler's queueing network (`l2_wait_cycles`, module `interference`).
/// 27: a loop's loads of buffers the L1 holds whole bring no lines into the set test of a
/// walk beside them (`sampling::correct::loop_lines`). 28: the DRAM column counts the bytes
/// stored (beside an L2 column), and what the launch stores beyond what the L2 keeps with
/// its reads is written back to DRAM (`traffic::written_back`). 29: a store moves the
/// sectors it writes past the L1, not the lines a load fetches
/// (`MemorySystem::stored_bytes`). 30: the L2's term and station take what it sustains
/// over a launch's traffic (`memory.l2_sustained_gb_per_s`), the miss entries' drain and
/// the first wave's burst its bandwidth with every request queued (`l2_gb_per_s`).
/// 31: the first wave's stores drain at the L2's rate, where its reads may come from
/// DRAM (`traffic::stored_share`). 32: the paths' L2 trips shed what they take beyond
/// the unloaded trip as the L2 is idle (`memory.l2_unloaded`, resource `L2_trip`).
pub const MODEL_REVISION: u32 = 32;
pub use graph::{ExecutionGraph, Schedule, Stage, Step};
pub use instr::{Addressing, ArithOp, DataKind, Instr, MemAccess, MemLevel, OpClass, OpRow, Reg};
pub use kernel::{estimate, estimate_summarized, Bound, KernelEstimate, LaunchSummary, ModelError};
pub use launch::{Grain, LaunchGeometry, Records};
pub use occupancy::{occupancy, ArmCode, DoesNotFit, KernelResources, Limiter, Occupancy};
pub use records::{KeptLanes, RecordFormat};
pub use sampling::{Measured, SampledAccess};
pub use timing::{block_timing, issue_order, pair_cycles, schedule, BlockTiming, ResourceUsage};
