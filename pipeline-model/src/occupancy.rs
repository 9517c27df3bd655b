//! How many work-groups of a kernel run at once on one SM, and what limits them.

use serde::Serialize;

use crate::arch::Architecture;
use crate::l1_sharing::L1Sharing;
use crate::records::MAX_ARMS;

/// What a launch of a kernel needs: from an SM, per work-group (registers, local memory),
/// and from global memory (the buffers it is given).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct KernelResources {
    /// 32-bit registers per work-item (from the compiled kernel).
    pub registers_per_work_item: u32,
    /// Local (shared) memory per work-group in bytes: static `__local` arrays plus
    /// local-memory kernel arguments.
    pub local_memory_bytes: u64,
    /// Bytes of the distinct global and constant buffers bound to the launch's arguments:
    /// no launch moves more than this between DRAM and the SMs, because the caches keep
    /// what it touches again (an upper bound on the compulsory traffic). `None` when
    /// unknown (an argument is an SVM pointer): then every global access counts.
    pub global_memory_bytes: Option<u64>,
    /// Bytes of the distinct buffers among them the kernel reads (loads, atomics): what
    /// must be in the L2 for the launch to find its data there (a buffer it only writes
    /// need not be). `None` when unknown: then all of `global_memory_bytes`.
    pub read_memory_bytes: Option<u64>,
    /// PTX instructions of the kernel's code (its blocks, helpers inlined): what the
    /// instruction cache fetches on its first run (`[icache]`).
    pub code_instructions: u64,
    /// Of them, the divergent arms' ([`ArmCode`]): code a launch whose lanes never enter
    /// an arm does not fetch.
    pub arm_code: ArmCode,
    /// Bytes past the L1 one warp's first round of loads asks for: the loads it sends
    /// together before it waits for any (a streaming loop's first iteration, both loads of
    /// a vector add). Only that round of the first wave leaves at once; later rounds leave
    /// as the paths get there. `None` when unknown: the first wave's whole share.
    pub first_round_warp_bytes: Option<u64>,
    /// Bytes of each work-item's private frame kept in memory (`.local`: a private array
    /// indexed at run time, spilled registers). The GPU gives each work-item slot an SM
    /// holds its frame, and the frames pass through the L2 beside the buffers.
    pub frame_bytes: u64,
    /// A kernel of one block: what it costs in each class of warps sharing an L1
    /// ([`crate::l1_sharing`]); `None` for code with branches, or where no class costs
    /// otherwise.
    pub l1_sharing: Option<L1Sharing>,
}

impl KernelResources {
    /// The instructions of the code a launch ran, which the instruction cache fetched:
    /// all of it but the divergent arms no lane entered (`entered_arms`: bit `a` for arm
    /// counter `a`).
    pub fn fetched_instructions(&self, entered_arms: u32) -> u64 {
        self.code_instructions
            .saturating_sub(self.arm_code.unrun(entered_arms))
    }
}

/// The code of a kernel's divergent arms (`records.arms`), per arm counter: what a launch
/// whose lanes all decide a branch alike (both sides of an `if (T > 1000)` on one
/// temperature) never runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ArmCode {
    /// PTX instructions of the blocks charged to the arm (those of no arm nested in it),
    /// or 0 where no timing point in the arm or the arms nested in it counts its entries
    /// (a lane may run it unseen).
    pub instructions: [u64; MAX_ARMS],
    /// The arm and the arms nested in it (bit `a` for arm counter `a`): a lane that
    /// entered any of them ran the arm.
    pub holds: [u32; MAX_ARMS],
}

impl ArmCode {
    /// A kernel without divergent arms (the default, for a `const`).
    pub const NONE: ArmCode = ArmCode {
        instructions: [0; MAX_ARMS],
        holds: [0; MAX_ARMS],
    };

    /// The instructions of the arms that no lane ran, where `entered_arms` (bit `a` for
    /// arm counter `a`) are those whose entries the records count.
    ///
    /// ```
    /// use pipeline_model::ArmCode;
    ///
    /// // Arm 0 holds arm 1 (an `if` nested in its side); arm 2 is 0's other side.
    /// let mut arms = ArmCode::default();
    /// arms.instructions[..3].copy_from_slice(&[30, 10, 40]);
    /// arms.holds[..3].copy_from_slice(&[0b011, 0b010, 0b100]);
    /// assert_eq!(arms.unrun(0b111), 0);
    /// assert_eq!(arms.unrun(0b100), 30 + 10);
    /// // A lane in arm 1 passed through arm 0.
    /// assert_eq!(arms.unrun(0b010), 40);
    /// ```
    pub fn unrun(&self, entered_arms: u32) -> u64 {
        self.instructions
            .iter()
            .zip(&self.holds)
            .filter(|&(_, &holds)| entered_arms & holds == 0)
            .map(|(&n, _)| n)
            .sum()
    }
}

/// The per-SM limit that bounds how many work-groups are resident.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limiter {
    /// Resident warps (`limits.max_warps`).
    Warps,
    /// Resident work-groups (`limits.max_work_groups`).
    WorkGroups,
    /// The register file (`limits.registers`).
    Registers,
    /// Shared (local) memory (`limits.shared_memory_bytes`).
    SharedMemory,
}

impl Limiter {
    /// A short human name.
    pub fn describe(self) -> &'static str {
        match self {
            Limiter::Warps => "warps",
            Limiter::WorkGroups => "work-groups",
            Limiter::Registers => "registers",
            Limiter::SharedMemory => "shared memory",
        }
    }
}

/// Work-groups resident per SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Occupancy {
    /// Work-groups that run at once on one SM.
    pub work_groups_per_sm: u32,
    /// Warps per work-group.
    pub warps_per_work_group: u32,
    /// The limit that bound it (the first of warps, work-groups, registers, shared memory
    /// when several bind equally).
    pub limiter: Limiter,
}

impl Occupancy {
    /// The work-groups the busiest SM holds at once of a launch of `work_groups`: the
    /// launch's dealt over `arch`'s SMs in turn, at most what this occupancy lets one SM
    /// hold.
    pub fn busiest_sm_groups(&self, arch: &Architecture, work_groups: u64) -> u64 {
        work_groups
            .div_ceil(u64::from(arch.sm_count).max(1))
            .min(u64::from(self.work_groups_per_sm))
    }

    /// The warps of those work-groups ([`Occupancy::busiest_sm_groups`]): what shares the
    /// busiest SM's issue slots and its L1.
    pub fn busiest_sm_warps(&self, arch: &Architecture, work_groups: u64) -> u64 {
        self.busiest_sm_groups(arch, work_groups) * u64::from(self.warps_per_work_group)
    }
}

/// A work-group that fits on no SM.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a work-group of {work_items} work-items does not fit on an SM of {arch}: it needs {needed} {what}, an SM has {available}")]
pub struct DoesNotFit {
    /// The architecture.
    pub arch: String,
    /// Work-items per work-group.
    pub work_items: u64,
    /// The resource that does not suffice.
    pub what: &'static str,
    /// What the work-group needs.
    pub needed: u64,
    /// What one SM has.
    pub available: u64,
}

/// The occupancy of work-groups of `work_items` work-items with `res` on `arch`.
pub fn occupancy(
    arch: &Architecture,
    work_items: u64,
    res: &KernelResources,
) -> Result<Occupancy, DoesNotFit> {
    let warp = u64::from(arch.warp_size);
    let warps = work_items.div_ceil(warp).max(1);
    let lim = &arch.limits;
    // Registers are allocated for whole warps. The compiler keeps a work-item within the
    // architecture's per-thread limit, spilling the rest (an estimate above it is what the
    // kernel would want, not what it gets).
    let per_item = lim
        .registers_per_work_item
        .map_or(res.registers_per_work_item, |cap| {
            res.registers_per_work_item.min(cap)
        });
    let registers = u64::from(per_item) * warps * warp;
    let candidates = [
        (Limiter::Warps, "warps", warps, u64::from(lim.max_warps)),
        (
            Limiter::WorkGroups,
            "work-group slots",
            1,
            u64::from(lim.max_work_groups),
        ),
        (
            Limiter::Registers,
            "registers",
            registers,
            u64::from(lim.registers),
        ),
        (
            Limiter::SharedMemory,
            "bytes of local memory",
            res.local_memory_bytes,
            u64::from(lim.shared_memory_bytes),
        ),
    ];
    let mut best: Option<(Limiter, u64)> = None;
    for (limiter, what, needed, available) in candidates {
        if needed == 0 {
            continue;
        }
        let fit = available / needed;
        if fit == 0 {
            return Err(DoesNotFit {
                arch: arch.name.clone(),
                work_items,
                what,
                needed,
                available,
            });
        }
        if best.is_none_or(|(_, b)| fit < b) {
            best = Some((limiter, fit));
        }
    }
    let (limiter, fit) = best.expect("the work-group slot limit always applies");
    Ok(Occupancy {
        work_groups_per_sm: u32::try_from(fit).unwrap_or(u32::MAX),
        warps_per_work_group: u32::try_from(warps).unwrap_or(u32::MAX),
        limiter,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gtx480() -> Architecture {
        Architecture::load("gtx480").unwrap()
    }

    fn res(registers: u32, local: u64) -> KernelResources {
        KernelResources {
            registers_per_work_item: registers,
            local_memory_bytes: local,
            global_memory_bytes: None,
            read_memory_bytes: None,
            code_instructions: 0,
            arm_code: ArmCode::NONE,
            first_round_warp_bytes: None,
            frame_bytes: 0,
            l1_sharing: None,
        }
    }

    #[test]
    fn small_groups_are_limited_by_work_group_slots() {
        // 64 work-items = 2 warps; 48 / 2 = 24 by warps, 8 by slots.
        let o = occupancy(&gtx480(), 64, &res(16, 0)).unwrap();
        assert_eq!(o.work_groups_per_sm, 8);
        assert_eq!(o.warps_per_work_group, 2);
        assert_eq!(o.limiter, Limiter::WorkGroups);
    }

    #[test]
    fn large_groups_are_limited_by_warps() {
        // 512 work-items = 16 warps; 48 / 16 = 3; registers 8 x 512 = 4096 -> 8.
        let o = occupancy(&gtx480(), 512, &res(8, 0)).unwrap();
        assert_eq!((o.work_groups_per_sm, o.limiter), (3, Limiter::Warps));
    }

    #[test]
    fn register_hungry_kernels_are_limited_by_registers() {
        // 256 work-items x 40 registers = 10240 per group; 32768 / 10240 = 3 (< 6 by warps).
        let o = occupancy(&gtx480(), 256, &res(40, 0)).unwrap();
        assert_eq!((o.work_groups_per_sm, o.limiter), (3, Limiter::Registers));
        // A partial warp still takes a whole warp's registers: 257 work-items = 9 warps,
        // 288 x 60 = 17280 registers: one group (257 x 60 = 15420 would fit two).
        let o = occupancy(&gtx480(), 257, &res(60, 0)).unwrap();
        assert_eq!((o.work_groups_per_sm, o.limiter), (1, Limiter::Registers));
    }

    #[test]
    fn no_work_item_takes_more_registers_than_a_thread_may_hold() {
        // An estimate of 80 registers on the GTX 480, whose threads hold at most 63: a
        // group of 256 takes 256 x 63 = 16128 of 32768, so two groups (80: 20480, one).
        let o = occupancy(&gtx480(), 256, &res(80, 0)).unwrap();
        assert_eq!((o.work_groups_per_sm, o.limiter), (2, Limiter::Registers));
        let mut uncapped = gtx480();
        uncapped.limits.registers_per_work_item = None;
        let o = occupancy(&uncapped, 256, &res(80, 0)).unwrap();
        assert_eq!(o.work_groups_per_sm, 1);
        // Below the limit the estimate is taken as it is: 60 x 256 = 15360, two groups.
        let o = occupancy(&gtx480(), 256, &res(60, 0)).unwrap();
        assert_eq!(o.work_groups_per_sm, 2);
    }

    #[test]
    fn local_memory_limits() {
        // 20 KiB per group of 128: 49152 / 20480 = 2.
        let o = occupancy(&gtx480(), 128, &res(16, 20480)).unwrap();
        assert_eq!(
            (o.work_groups_per_sm, o.limiter),
            (2, Limiter::SharedMemory)
        );
    }

    #[test]
    fn a_group_that_cannot_fit_is_explained() {
        let e = occupancy(&gtx480(), 64, &res(16, 64 * 1024)).unwrap_err();
        assert_eq!((e.needed, e.available), (65536, 49152));
        assert!(e.to_string().contains("bytes of local memory"), "{e}");
        let e = occupancy(&gtx480(), 2048, &res(0, 0)).unwrap_err();
        assert_eq!(e.what, "warps");
    }
}
