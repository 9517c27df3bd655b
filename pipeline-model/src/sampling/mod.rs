//! Accesses whose addresses only the run can tell: what a warp's lanes did, from the
//! addresses the annotated program sampled, in place of the static guess.
//!
//! The front end charges every memory access from a static analysis of its address across
//! a warp's lanes. Where the address comes from loaded data (`a[idx[i]]`, a pointer
//! chase) or a stride known only at run time, that analysis cannot tell how many lines a
//! warp touches, or how many passes the shared banks need: a global access is charged as a
//! gather (one line per lane), a shared one as conflict-free. For such an access the
//! annotated program records, per work-item, how many times it ran and the indices it
//! used the first and the last time ([`SAMPLE_COUNTERS`](crate::records::SAMPLE_COUNTERS); [`SampledAccess`]). [`measure`] groups
//! the work-items into warps as the model does and counts, per warp, the distinct 128-byte
//! lines and 32-byte sectors of the lanes' first addresses and of their last (global), or
//! the bank-conflict degree (shared), and takes the mean (module `measure`);
//! [`SampledLaunch::correct_all`] then moves every
//! work-item's cycles and usage from what was charged to what the warps did, execution
//! by execution (module `correct`).
//!
//! A launch in warps of such a kernel ([`crate::Grain::Warp`] with `sampled`) keeps the
//! lanes that ran a sampled access whole beside the warps' records
//! ([`crate::records::KeptLanes`]): the lanes that ran none add nothing to the measure
//! and are not corrected, so [`SampledLaunch::correct_warps`] measures and corrects the
//! kept lanes alone and folds each into its warp, to the estimate their work-items'
//! records give.
//!
//! Two samples per work-item stand for all of its executions: the lanes of a warp run the
//! access together, so their first addresses are one warp access and their last another;
//! the ones between are taken to be alike (a chase whose alignment drifts, a gather that
//! stays scattered).

use serde::{Deserialize, Serialize};

mod correct;
mod measure;

pub use correct::{timing_records, timing_records_in_place, warp_records, SampledLaunch};
pub use measure::{for_each_warp, measure, measure_all, warp_access};

#[cfg(test)]
mod tests;

/// Bytes of a cache line: one coalesced request.
pub const LINE: i64 = 128;
/// Bytes of a DRAM/L2 sector.
pub const SECTOR: i64 = 32;

/// An access of the kernel's source whose addresses the annotated program samples, and
/// what the static analysis charged for each of its executions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampledAccess {
    /// Where it is in the source (the subscript's first character).
    pub line: u32,
    /// Column, 1-based.
    pub column: u32,
    /// A `__local` (shared-memory) access; else global.
    pub shared: bool,
    /// An access of the work-item's own frame (`.local`: a private array indexed at run
    /// time), whose index is an offset in the lane's frame: the lanes' frames are
    /// interleaved word by word, so lanes at one offset share a line and each offset the
    /// lanes use is a line of its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub local: bool,
    /// Bytes between consecutive indices (the element's size).
    pub element_bytes: u32,
    /// Bytes one lane moves per execution.
    pub width: u32,
    /// Requests charged per execution: 128-byte lines (global) or bank passes (shared).
    pub charged_transactions: f64,
    /// 32-byte sectors charged per execution (global).
    pub charged_sectors: f64,
    /// The cycles a work-item's path gains per further request of one execution (the
    /// slope of the path steps the annotation charges).
    pub cycles_per_transaction: f64,
    /// Per resource (in the order of `Architecture::resources`), the usage one execution
    /// adds per further request, in cycles (bytes for the L2 and DRAM).
    pub usage_per_transaction: Vec<f64>,
    /// Per resource, the usage one execution adds per further sector.
    pub usage_per_sector: Vec<f64>,
    /// The kernel parameter its base is, if it is one (the buffer it reads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<u32>,
    /// The cycles one execution's path saves where the L1 serves it rather than the level
    /// it was charged at: non-zero only for a load inside a loop charged past the L1.
    #[serde(default)]
    pub l1_cycles: f64,
    /// The 128-byte lines a warp's other global loads of the same innermost loop bring
    /// into the L1 each iteration, as charged (a uniform `x[j]`: 1): what competes for
    /// the L1's sets with the lines this access's lanes keep.
    #[serde(default)]
    pub loop_lines: u32,
    /// The other sampled global loads of the same innermost loop (their line and column),
    /// whose lines the run measures rather than `loop_lines` counting them as charged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loop_peers: Vec<[u32; 2]>,
}

/// What the warps of one launch did at a sampled access: per execution, averaged over the
/// warps that ran it (weighted by how often each ran it).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Measured {
    /// Requests: lines (global) or bank passes (shared).
    pub transactions: f64,
    /// Sectors (global; 0 for shared).
    pub sectors: f64,
    /// Warps that ran it.
    pub warps: u64,
    /// Of its executions, the share whose lines the warp's lanes had just fetched
    /// themselves: each lane walking its own addresses in steps shorter than the L1's
    /// fill (a row per work-item, `a[row * n + j]` over `j`) enters a new one only every
    /// few executions. 0 where the lanes move a fill or more each time, or ran it once.
    pub stream_hits: f64,
    /// Of its executions, the share the L1 serves (1 where the buffer fits in it; the
    /// stream hits where only the lanes' own lines stay); 0 where the L1 serves none.
    pub l1_share: f64,
    /// The most of the lines its lanes first touched, over the warps of the work-groups
    /// one SM holds at once, that fall in one L1 set (`memory.l1_sets`); 0 where the
    /// description gives no sets.
    pub set_lines: u32,
    /// Its executions by warps, summed over the warps that ran it.
    pub executions: f64,
}

impl Measured {
    /// Whether the L1 serves it at all: a load in a loop whose buffer fits in the L1, or
    /// whose lanes each walk their own lines ([`Measured::stream_hits`]) while the L1
    /// holds those lines of every warp on the SM ([`Measured::l1_share`] above 0).
    pub fn l1_resident(&self) -> bool {
        self.l1_share > 0.0
    }
}
