//! The warps that share an SM's L1, launch by launch. Whether the L1 still holds what a
//! warp's load brought in when a later load reads it again ([`Architecture::l1_keeps`])
//! depends on how many warps bring lines in meanwhile: every warp the SM holds runs the
//! same code. The annotation times a kernel's code once, before any launch, for 64 warps
//! an SM (the most any shipped description holds); a launch of one work-group of four
//! warps keeps far more. GPGPU-Sim's GTX 480 shows it on SHOC's S3D kernels (one
//! work-group of 128 work-items, each reading its `EG(q)` rows again and again between
//! stores that might alias them): `ratt9`'s global reads hit the L1 376 times of 632
//! (59%), where 18% of its loads are charged at the L1 for 64 warps and 64% for four.
//!
//! A kernel of one basic block (no branch: every work-item runs all of it once) is timed
//! for each class of sharers ([`SHARER_WARPS`]) where any class costs otherwise
//! ([`L1Sharing::of`]); the model takes the class of the launch's busiest SM (its
//! work-groups at once times their warps, [`sharer_class`]) and moves every work-group's
//! time and usage from the first class to that one (`L1Sharing::adjust`). Kernels with
//! branches keep the first class: which of their paths a work-item ran is not in its
//! record.
//!
//! ```
//! use pipeline_model::l1_sharing::{sharer_class, SHARER_WARPS};
//!
//! assert_eq!(SHARER_WARPS, [64, 32, 16, 8, 4, 2]);
//! assert_eq!((sharer_class(48), sharer_class(32), sharer_class(4), sharer_class(1)), (0, 1, 4, 5));
//! assert_eq!(sharer_class(200), 0);
//! ```

use serde::{Deserialize, Serialize};

use crate::arch::Architecture;
use crate::instr::Instr;
use crate::timing::block_timing;

/// Classes of warps sharing an L1.
pub const CLASSES: usize = 6;

/// The most warps sharing an SM's L1 in each class; the first is what every block is
/// timed for (a launch of more warps an SM is charged as 64).
pub const SHARER_WARPS: [u32; CLASSES] = [64, 32, 16, 8, 4, 2];

/// The class of a launch whose busiest SM holds `warps` warps at once: the last class
/// that holds that many, the first where none does.
pub fn sharer_class(warps: u64) -> usize {
    SHARER_WARPS
        .iter()
        .rposition(|&w| warps <= u64::from(w))
        .unwrap_or(0)
}

/// What a kernel of one block costs a work-item in each class of L1 sharers: the block's
/// cycles and its usage of each resource (in cycles, as [`crate::BlockTiming`] gives it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct L1Sharing {
    /// Per class, the block's cycles.
    pub cycles: [u64; CLASSES],
    /// Per class, its usage per resource.
    pub usage: Vec<Vec<f64>>,
}

impl L1Sharing {
    /// The block `instrs` timed on `arch` for each class; `None` where every class costs
    /// the same (no load's reuse is kept in one class and not in another).
    pub fn of(arch: &Architecture, instrs: &[Instr]) -> Option<Self> {
        let timings: Vec<_> = SHARER_WARPS
            .iter()
            .map(|&w| block_timing(&arch.with_l1_sharers(w), instrs))
            .collect();
        if timings.iter().all(|t| *t == timings[0]) {
            return None;
        }
        Some(L1Sharing {
            cycles: std::array::from_fn(|c| timings[c].cycles),
            usage: timings.into_iter().map(|t| t.usage.0).collect(),
        })
    }

    /// A work-group's time `t_last`, its usage per sub-core `usage` (records' units) and
    /// its bytes past the L1 (`memory`: the resource they are counted in), as the first
    /// class charged them, moved to class `class`. Every work-item ran the block once, so
    /// its time moves by the block's difference and its usage in proportion.
    pub(crate) fn adjust(
        &self,
        class: usize,
        t_last: u64,
        usage: &mut [u64],
        bytes: u64,
        memory: Option<usize>,
    ) -> (u64, u64) {
        let ratio = |r: usize| {
            let (first, now) = (self.usage[0][r], self.usage[class][r]);
            if first > 0.0 {
                now / first
            } else {
                1.0
            }
        };
        let resources = self.usage[0].len();
        for (i, u) in usage.iter_mut().enumerate() {
            *u = (*u as f64 * ratio(i % resources)).round() as u64;
        }
        let saved = self.cycles[0].saturating_sub(self.cycles[class]);
        let bytes = memory.map_or(bytes, |m| (bytes as f64 * ratio(m)).round() as u64);
        (t_last.saturating_sub(saved), bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instr::{MemAccess, MemLevel, OpClass};

    /// A load that reads what the load before it brought in, `lines_between` lines later
    /// (its reuse distance), at an address the first one loaded (it waits for it).
    fn block(lines_between: u32) -> Vec<Instr> {
        let load = |src, dst, reuse_lines: Option<u32>| {
            Instr::new(OpClass::GlobalMem, &[src], &[dst]).with_access(MemAccess {
                level: MemLevel::L2,
                transactions: 1,
                sectors: 4,
                reuse_lines,
                step_bytes: None,
            })
        };
        vec![load(1, 2, None), load(2, 3, Some(lines_between))]
    }

    #[test]
    fn a_reused_line_is_kept_in_the_classes_whose_warps_leave_room() {
        let arch = Architecture::load("gtx480").unwrap();
        // 16,384 bytes of L1 hold (7 + 1) lines of 128 bytes for 16 warps, not for 32.
        let s = L1Sharing::of(&arch, &block(7)).expect("the classes differ");
        let (l1, l2) = (arch.memory.l1_hit, arch.memory.l2_hit);
        // The first load is an L2 trip in every class; the second waits for its level.
        assert_eq!(s.cycles[0], s.cycles[1]);
        assert_eq!(s.cycles[1] - s.cycles[2], u64::from(l2 - l1));
        assert_eq!(s.cycles[2], s.cycles[5]);
        // Reused at a distance the L1 keeps in no class, or in every one: one timing.
        assert!(L1Sharing::of(&arch, &block(200)).is_none());
        assert!(L1Sharing::of(&arch, &block(0)).is_none());
    }

    #[test]
    fn a_group_moves_by_the_blocks_difference_and_its_usage_in_proportion() {
        let s = L1Sharing {
            cycles: [500, 500, 400, 400, 300, 300],
            usage: vec![vec![4.0, 10.0]; 4]
                .into_iter()
                .chain([vec![4.0, 5.0], vec![4.0, 5.0]])
                .collect(),
        };
        // Two sub-cores of two resources each; resource 1 counts the bytes.
        let mut usage = [40, 100, 40, 100];
        let (t, bytes) = s.adjust(4, 1_000, &mut usage, 6_400, Some(1));
        assert_eq!((t, bytes), (800, 3_200));
        assert_eq!(usage, [40, 50, 40, 50]);
        let mut same = [40, 100, 40, 100];
        assert_eq!(
            s.adjust(0, 1_000, &mut same, 6_400, Some(1)),
            (1_000, 6_400)
        );
        assert_eq!(same, [40, 100, 40, 100]);
    }
}
