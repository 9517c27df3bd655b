//! How an instruction behaves on a description: its unit, latency and initiation
//! interval, with analysed memory accesses charged by the level that serves them.

use super::Architecture;
use crate::instr::{Addressing, Instr, MemAccess, MemLevel, OpClass};
use crate::l1_sharing::SHARER_WARPS;
use crate::sampling::LINE;

impl Architecture {
    /// Cycles a warp instruction takes to dispatch on `unit`: `ceil(warp_size / lanes)`.
    pub fn dispatch_cycles(&self, unit: usize) -> u32 {
        self.warp_size.div_ceil(self.units[unit].lanes)
    }

    /// How an instruction of `class` behaves on this architecture. Its initiation interval
    /// is the larger of the class's own (`ops`) and the unit's dispatch cycles: the unit
    /// takes the next warp instruction once its pipeline and its lanes are both free.
    pub fn describe(&self, class: OpClass) -> InstrTiming {
        let row = self.ops.get(class);
        let unit = self
            .unit_index(&row.unit)
            .expect("validated: every op row names a unit");
        InstrTiming {
            unit,
            copies: self.units[unit].count,
            latency: row.latency,
            initiation: row.initiation.max(self.dispatch_cycles(unit)),
        }
    }

    /// Whether `instr` is absorbed into an access's addressing on this GPU: it takes no
    /// fetch, issue or unit ([`Frontend::native_addressing`](super::Frontend::native_addressing), [`Instr::addressing`]).
    pub fn folds(&self, instr: &Instr) -> bool {
        instr.addressing != Addressing::None && instr.addressing <= self.frontend.native_addressing
    }

    /// How `instr` behaves: [`Architecture::describe`] of its class, except for a memory
    /// access whose address was analysed: its latency is its level's (the shared memory's
    /// for a shared access), and it holds the memory pipeline once per transaction (line
    /// or bank-conflict pass), the last transaction's result arriving that much later.
    pub fn describe_instr(&self, instr: &Instr) -> InstrTiming {
        let mut t = self.describe(instr.class);
        if instr.class == OpClass::Texture && instr.writes.is_empty() {
            // An image write (a surface store) is a store: it completes in the
            // background, as a global store does.
            t.latency = self.describe(OpClass::Mem).latency;
        }
        if let Some(access) = instr.access {
            // A global or local store (or reduction) writes no register: nothing waits for
            // it, and it completes in the background (the warp's exit may wait for it:
            // `memory.store_ack_at_exit`); it keeps its row's latency.
            let background =
                matches!(instr.class, OpClass::GlobalMem | OpClass::Mem) && instr.writes.is_empty();
            let base = match (instr.class, self.serving_level(&access)) {
                _ if background => t.latency,
                (OpClass::SharedMem, _) => self.memory.shared,
                (_, MemLevel::L1 | MemLevel::Constant) => self.memory.l1_hit,
                (_, MemLevel::L2) => self.l2_trip(),
                (_, MemLevel::Dram) if self.first_touch_from_dram => self.unloaded_dram(),
                (_, MemLevel::Dram) => self.memory.dram,
            };
            let extra = access.transactions.max(1) - 1;
            let pass = match (access.level, &self.constant) {
                (MemLevel::Constant, Some(cache)) => cache.pass_for(access.reuse_lines),
                _ => t.initiation,
            };
            t.latency = base + extra * pass;
            t.initiation *= extra + 1;
        }
        t
    }

    /// The level that serves `access`: the constant cache for a constant load; the L1
    /// for a load whose sectors an earlier load brought in, where the L1 still holds them
    /// ([`Architecture::l1_keeps`]); the L2 for a warp-uniform load a loop moves by at
    /// least what the L1 fetches a miss in ([`MemAccess::step_bytes`] against
    /// `memory.fetch_bytes`: on a GPU whose L1 fills 32-byte sectors, a scalar walk of
    /// eight floats an iteration misses it every iteration); else
    /// [`Architecture::served_from`] its level.
    pub fn serving_level(&self, access: &MemAccess) -> MemLevel {
        match (access.level, access.reuse_lines) {
            (MemLevel::Constant, _) => MemLevel::Constant,
            (_, Some(lines)) if self.l1_keeps(lines) => MemLevel::L1,
            (MemLevel::L1, _)
                if access
                    .step_bytes
                    .is_some_and(|step| step >= self.memory.fetch_bytes) =>
            {
                self.served_from(MemLevel::L2)
            }
            (level, _) => self.served_from(level),
        }
    }

    /// Whether the L1 still holds what a warp's load brought in once the warp has brought
    /// `lines_between` more 128-byte lines: every warp sharing the L1 runs the same code
    /// at about the same pace and brings as many, so the L1 must hold that many lines and
    /// the reused one for each of them (an LRU cache). The sharers are the first class's
    /// 64 warps unless this description was made for another class
    /// ([`Architecture::with_l1_sharers`], [`crate::l1_sharing`]). No L1 size in the
    /// description (`memory.l1_bytes`): nothing is kept.
    pub fn l1_keeps(&self, lines_between: u32) -> bool {
        let warps = u64::from(self.l1_sharers.unwrap_or(SHARER_WARPS[0]));
        self.memory
            .l1_bytes
            .is_some_and(|bytes| (u64::from(lines_between) + 1) * LINE as u64 * warps <= bytes)
    }

    /// This description with `warps` warps sharing each SM's L1 where the annotation
    /// decides whether it keeps a reused line ([`Architecture::l1_keeps`]).
    pub fn with_l1_sharers(&self, warps: u32) -> Architecture {
        Architecture {
            l1_sharers: Some(warps),
            ..self.clone()
        }
    }

    /// This description timing a first touch ([`MemLevel::Dram`]) at the DRAM's unloaded
    /// trip (`memory.dram_unloaded`, else `memory.dram`), as a launch whose reads exceed
    /// the L2 waits for it ([`crate::l1_sharing`]).
    pub fn with_first_touch_from_dram(&self) -> Architecture {
        Architecture {
            first_touch_from_dram: true,
            ..self.clone()
        }
    }

    /// This description timing every L2 trip at the unloaded one (`memory.l2_unloaded`,
    /// else `memory.l2_hit`): what a block's path takes when the L2 is idle.
    pub fn with_unloaded_l2(&self) -> Architecture {
        Architecture {
            unloaded_l2: true,
            ..self.clone()
        }
    }

    /// The L2 trip an access served there waits: `memory.l2_hit`, or the unloaded trip
    /// where this description was made for it ([`Architecture::with_unloaded_l2`]).
    pub fn l2_trip(&self) -> u32 {
        match self.memory.l2_unloaded {
            Some(unloaded) if self.unloaded_l2 => unloaded,
            _ => self.memory.l2_hit,
        }
    }

    /// A DRAM trip with few requests in flight: `memory.dram_unloaded`, else `memory.dram`.
    pub fn unloaded_dram(&self) -> u32 {
        self.memory.dram_unloaded.unwrap_or(self.memory.dram)
    }

    /// The L1's sets (`memory.l1_sets`): `l1_bytes / (128 * ways)`; `None` without sets
    /// or an L1 too small for one line a way.
    pub fn l1_set_count(&self) -> Option<u64> {
        let ways = u64::from(self.memory.l1_sets?.ways);
        let sets = self.memory.l1_bytes? / (LINE as u64 * ways.max(1));
        (ways > 0 && sets > 0).then_some(sets)
    }

    /// The level whose latency an access the front end charged at `level` waits for. A
    /// first touch ([`MemLevel::Dram`]) comes from the L2 where the description gives its
    /// capacity (`memory.l2_bytes`): block times are fixed before any launch, and a
    /// launch's data is in the L2 when its buffers fit (what the host or an earlier launch
    /// wrote is still there). A launch whose buffers exceed the L2 pays DRAM's trip in the
    /// model's throughput terms (misses in flight, DRAM), and in its paths' latency only
    /// for a kernel of one block ([`Architecture::with_first_touch_from_dram`]).
    pub fn served_from(&self, level: MemLevel) -> MemLevel {
        match level {
            MemLevel::Dram if self.memory.l2_bytes.is_some() && !self.first_touch_from_dram => {
                MemLevel::L2
            }
            level => level,
        }
    }
}

/// The resolved timing of one instruction class (llvm-mca's `InstrDesc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstrTiming {
    /// Index into [`Architecture::units`].
    pub unit: usize,
    /// Copies of that unit.
    pub copies: u32,
    /// EX -> WB.
    pub latency: u32,
    /// Initiation interval on the unit (dispatch cycles included).
    pub initiation: u32,
}
