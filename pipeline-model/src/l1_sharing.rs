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
//! The same kernels are timed a second way in each class: with their first touches (a
//! per-lane load outside loops, [`crate::MemLevel::Dram`]) at the DRAM's unloaded trip
//! (`memory.dram_unloaded`) rather than the L2's. The model moves a launch toward it by
//! the share of its reads the L2 cannot hold (`Architecture::l2_miss_share`): the code
//! is timed before any launch, for data in the L2, and a launch of one work-group over
//! buffers larger than the L2 waits for DRAM on its path. GPGPU-Sim's GTX 480 shows it
//! on SHOC's S3D kernels (one work-group, 11 MB buffers that miss its 768 KB L2 nine
//! times in ten): their first loads wait 310 to 355 cycles from issue to write-back,
//! where the L2's trip is 250 (validation/gpgpusim/README.md).
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
use crate::timing::{block_timing, schedule};

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
/// cycles and its usage of each resource (in cycles, as [`crate::BlockTiming`] gives it),
/// and its cycles where its first touches come from DRAM.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct L1Sharing {
    /// Per class, the block's cycles.
    pub cycles: [u64; CLASSES],
    /// Per class, its usage per resource.
    pub usage: Vec<Vec<f64>>,
    /// Per class, the block's cycles with its first touches at the DRAM's unloaded trip
    /// ([`Architecture::with_first_touch_from_dram`]); `None` where that changes nothing
    /// (no first touch, or a description without an L2 already times them so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_dram: Option<[u64; CLASSES]>,
}

impl L1Sharing {
    /// The block `instrs` timed on `arch` for each class, with its first touches from the
    /// L2 and from DRAM; `None` where every class costs the same both ways.
    pub fn of(arch: &Architecture, instrs: &[Instr]) -> Option<Self> {
        let timings: Vec<_> = SHARER_WARPS
            .iter()
            .map(|&w| block_timing(&arch.with_l1_sharers(w), instrs))
            .collect();
        let cycles: [u64; CLASSES] = std::array::from_fn(|c| timings[c].cycles);
        let from_dram = arch
            .memory
            .l2_bytes
            .map(|_| {
                let dram = arch.with_first_touch_from_dram();
                std::array::from_fn(|c| {
                    schedule(&dram.with_l1_sharers(SHARER_WARPS[c]), instrs).length
                })
            })
            .filter(|dram: &[u64; CLASSES]| *dram != cycles);
        if from_dram.is_none() && timings.iter().all(|t| *t == timings[0]) {
            return None;
        }
        Some(L1Sharing {
            cycles,
            usage: timings.into_iter().map(|t| t.usage.0).collect(),
            from_dram,
        })
    }

    /// The block's cycles in class `class` where a share `dram_share` of its first
    /// touches miss the L2.
    fn cycles_at(&self, class: usize, dram_share: f64) -> u64 {
        let l2 = self.cycles[class];
        self.from_dram.map_or(l2, |dram| {
            (l2 as f64 + dram_share * (dram[class] as f64 - l2 as f64)).round() as u64
        })
    }

    /// A work-group's time `t_last`, its usage per sub-core `usage` (records' units) and
    /// its bytes past the L1 (`memory`: the resource they are counted in), as the first
    /// class charged them from the L2, moved to class `class` with a share `dram_share`
    /// of its first touches from DRAM. Every work-item ran the block once, so its time
    /// moves by the block's difference and its usage in proportion (a wait does not
    /// change what a unit does).
    pub(crate) fn adjust(
        &self,
        class: usize,
        dram_share: f64,
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
        let now = self.cycles_at(class, dram_share);
        let t = (t_last + now).saturating_sub(self.cycles[0]);
        let bytes = memory.map_or(bytes, |m| (bytes as f64 * ratio(m)).round() as u64);
        (t, bytes)
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

    /// A first touch (a per-lane load outside loops) feeding a dependent load.
    fn first_touch_block() -> Vec<Instr> {
        let first = Instr::new(OpClass::GlobalMem, &[1], &[2]).with_access(MemAccess {
            level: MemLevel::Dram,
            transactions: 1,
            sectors: 4,
            reuse_lines: None,
            step_bytes: None,
        });
        let mut block = vec![first];
        block.extend(self::block(200).into_iter().map(|i| {
            let mut i = i;
            i.reads = i.reads.iter().map(|r| r + 1).collect();
            i.writes = i.writes.iter().map(|w| w + 1).collect();
            i
        }));
        block
    }

    #[test]
    fn a_first_touch_waits_the_dram_trip_where_the_launch_misses_the_l2() {
        let arch = Architecture::load("gtx480").unwrap();
        let s = L1Sharing::of(&arch, &first_touch_block()).expect("the levels differ");
        let dram = s.from_dram.expect("a first touch is timed from DRAM too");
        // The first touch waits 310 cycles (`dram_unloaded`) instead of the L2's 250, in
        // every class; the loads after it are no first touches.
        let more = u64::from(arch.memory.dram_unloaded.unwrap() - arch.memory.l2_hit);
        assert_eq!(more, 60);
        for (c, (dram, l2)) in dram.iter().zip(s.cycles).enumerate() {
            assert_eq!(dram - l2, more, "class {c}");
        }
        assert_eq!(s.cycles_at(4, 0.0), s.cycles[4]);
        assert_eq!(s.cycles_at(4, 1.0), dram[4]);
        assert_eq!(s.cycles_at(4, 0.5), s.cycles[4] + 30);
        // Without an L2 size a first touch is DRAM's already: no second timing.
        let mut no_l2 = arch.clone();
        no_l2.memory.l2_bytes = None;
        assert!(L1Sharing::of(&no_l2, &first_touch_block()).is_none());
        // Nor for a block without a first touch.
        assert!(L1Sharing::of(&arch, &block(200)).is_none());
    }

    #[test]
    fn a_group_moves_by_the_blocks_difference_and_its_usage_in_proportion() {
        let s = L1Sharing {
            cycles: [500, 500, 400, 400, 300, 300],
            usage: vec![vec![4.0, 10.0]; 4]
                .into_iter()
                .chain([vec![4.0, 5.0], vec![4.0, 5.0]])
                .collect(),
            from_dram: None,
        };
        // Two sub-cores of two resources each; resource 1 counts the bytes.
        let mut usage = [40, 100, 40, 100];
        let (t, bytes) = s.adjust(4, 0.0, 1_000, &mut usage, 6_400, Some(1));
        assert_eq!((t, bytes), (800, 3_200));
        assert_eq!(usage, [40, 50, 40, 50]);
        let mut same = [40, 100, 40, 100];
        assert_eq!(
            s.adjust(0, 0.0, 1_000, &mut same, 6_400, Some(1)),
            (1_000, 6_400)
        );
        assert_eq!(same, [40, 100, 40, 100]);
    }
}
