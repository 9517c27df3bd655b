//! How each memory instruction of a kernel behaves across the 32 lanes of a warp, from a
//! static analysis of its address (docs/design.md, "Model v2": "static stride analysis
//! where it is enough").
//!
//! Every register gets a [`Lanes`] value: the same in every lane of a warp (uniform), an
//! affine function of the lane with a known byte stride (`%tid.x * 4 + base`), affine with a
//! stride known only at run time (`%tid.x * n`), or anything else (a loaded index). The
//! analysis is flow-insensitive: a register's value is the join over all its definitions,
//! iterated to a fixpoint, which is sound for LLVM's PTX (one definition per virtual
//! register, except the moves that carry loop values). From the address's value and the
//! access width:
//! - a global access moves the distinct 32-byte sectors and 128-byte lines its lanes touch
//!   (the coalescer's requests); an address with no known stride is taken as one line per
//!   lane (a gather);
//! - a shared access takes as many passes as the most words any of the 32 banks must serve
//!   (bank conflicts; a uniform address is a broadcast);
//! - a global load is charged the level it is most likely served from: a warp-uniform
//!   address (a value every lane reads, reused by every warp) the L1, unless the load is
//!   volatile (the L1 never serves those) or a loop moves it by a line or more each
//!   iteration (`affine::load_steps`: every iteration a line no warp of the SM has yet,
//!   which all of them wait for, the L2; a smaller step is noted in the access,
//!   `MemAccess::step_bytes`, for the GPU whose L1 fills smaller pieces); a per-lane address
//!   outside any loop is a first touch, from DRAM (or from the L2 where the architecture
//!   says the launch's data is there: `Architecture::served_from`); one inside a loop the
//!   L2 (data the work-group's neighbours or earlier iterations brought in). Stores and
//!   atomics go to the L2 (a store then completes in the background:
//!   `Architecture::describe_instr`).
//!
//! Assumptions: a warp is 32 consecutive work-items along x (`%tid.y` and `%tid.z` are
//! uniform in a warp), and addresses are aligned as the lane-0 address is at a line
//! boundary. Work-groups narrower than 32 are priced apart ([`crate::analysis::rows`]): their
//! warps span several rows along y (`%tid.z` is still taken as uniform).

use std::collections::HashMap;

use pipeline_model::sampling::{warp_access, LINE, SECTOR};
use pipeline_model::{MemAccess, MemLevel, OpClass};

use crate::analysis::affine::{integer_immediate, keeps_low_32_bits, load_steps, LoadStep};
use crate::front::cfg::Cfg;
use crate::front::opcode::{access_width, op_class};
use crate::front::ptx::{Function, Instruction, Operand};

/// Lanes in a warp: PTX fixes the warp size at 32 (`WARP_SZ`).
pub(crate) const WARP: i64 = 32;

/// The value of a register across the lanes of a warp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lanes {
    /// Not defined yet (the fixpoint's start).
    Undef,
    /// The same in every lane; the constant, when known.
    Uniform(Option<i64>),
    /// `base + lane * stride` with a known, non-zero stride.
    Stride(i64),
    /// `base + lane * stride` with a stride known only at run time.
    UnknownStride,
    /// Anything else.
    Varying,
}

impl Lanes {
    fn uniform() -> Self {
        Lanes::Uniform(None)
    }

    fn stride(s: i64) -> Self {
        if s == 0 {
            Lanes::uniform()
        } else {
            Lanes::Stride(s)
        }
    }

    /// The least value above both (the join of two definitions).
    pub fn join(self, other: Lanes) -> Lanes {
        use Lanes::*;
        match (self, other) {
            (Undef, x) | (x, Undef) => x,
            (Uniform(a), Uniform(b)) => Uniform(if a == b { a } else { None }),
            (Stride(a), Stride(b)) if a == b => Stride(a),
            (Stride(_) | UnknownStride, Stride(_) | UnknownStride) => UnknownStride,
            _ => Varying,
        }
    }

    fn add(self, other: Lanes) -> Lanes {
        use Lanes::*;
        match (self, other) {
            (Undef, _) | (_, Undef) => Undef,
            (Varying, _) | (_, Varying) => Varying,
            (Uniform(a), Uniform(b)) => Uniform(a.zip(b).map(|(a, b)| a.wrapping_add(b))),
            (Stride(s), Uniform(_)) | (Uniform(_), Stride(s)) => Stride(s),
            (Stride(a), Stride(b)) => Lanes::stride(a.wrapping_add(b)),
            (UnknownStride, _) | (_, UnknownStride) => UnknownStride,
        }
    }

    fn scale(self, by: Lanes) -> Lanes {
        use Lanes::*;
        match (self, by) {
            (Undef, _) | (_, Undef) => Undef,
            (Varying, _) | (_, Varying) => Varying,
            (Uniform(a), Uniform(b)) => Uniform(a.zip(b).map(|(a, b)| a.wrapping_mul(b))),
            (Stride(s), Uniform(Some(c))) | (Uniform(Some(c)), Stride(s)) => {
                Lanes::stride(s.wrapping_mul(c))
            }
            (Stride(_) | UnknownStride, Uniform(_)) | (Uniform(_), Stride(_) | UnknownStride) => {
                UnknownStride
            }
            _ => Varying,
        }
    }

    fn negate(self) -> Lanes {
        self.scale(Lanes::Uniform(Some(-1)))
    }

    /// Whether every lane has the same value.
    pub fn is_uniform(self) -> bool {
        matches!(self, Lanes::Uniform(_))
    }
}

/// Which of a warp's coordinates the analysis follows: its lanes along x (the 32 lanes of
/// one row), or its rows along y (the rows of a work-group narrower than a warp, the x
/// coordinate held fixed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Axis {
    /// `%tid.x` (and `%laneid`) step by one per lane.
    Lanes,
    /// `%tid.y` steps by one per row; `%tid.x` is held fixed.
    Rows,
}

/// The value of a special register along `axis`: `%tid.x` and `%laneid` step by one per
/// lane (`%tid.y` per row); the other ids, sizes and counters are the same in a warp.
fn special(name: &str, axis: Axis) -> Lanes {
    match (name, axis) {
        ("%tid.x" | "%laneid", Axis::Lanes) | ("%tid.y", Axis::Rows) => Lanes::Stride(1),
        ("%clock" | "%clock64" | "%globaltimer" | "%lanemask_lt" | "%lanemask_le", _)
        | ("%lanemask_gt" | "%lanemask_ge" | "%lanemask_eq", _) => Lanes::Varying,
        _ => Lanes::uniform(),
    }
}

fn immediate(text: &str) -> Lanes {
    Lanes::Uniform(integer_immediate(text))
}

/// The value across a warp's lanes of every register of one function: the join over all
/// its definitions, iterated to a fixpoint.
pub(crate) struct LaneValues<'f> {
    regs: HashMap<&'f str, Lanes>,
    axis: Axis,
}

impl<'f> LaneValues<'f> {
    /// The value of `op` (a register, special register, immediate or symbol).
    pub(crate) fn operand(&self, op: &Operand) -> Lanes {
        match op {
            Operand::Reg { name, .. } if name.contains('.') || !self.is_register(name) => {
                special(name, self.axis)
            }
            Operand::Reg { name, .. } => self
                .regs
                .get(name.as_str())
                .copied()
                .unwrap_or(Lanes::Undef),
            Operand::Imm(text) => immediate(text),
            Operand::Symbol(_) => Lanes::uniform(),
            Operand::Address { base, .. } => base
                .as_deref()
                .map_or(Lanes::uniform(), |b| self.operand(b)),
            Operand::Vector(_) | Operand::List(_) | Operand::Pair(..) => Lanes::Varying,
        }
    }

    /// Special registers (`%tid.x`, `%laneid`) are not declared; every declared one is in
    /// the map from the start.
    fn is_register(&self, name: &str) -> bool {
        self.regs.contains_key(name)
    }

    /// The address operand of a memory instruction, as a value across lanes.
    pub(crate) fn address(&self, instr: &Instruction) -> Lanes {
        instr.address().map_or(Lanes::Varying, |a| self.operand(a))
    }

    /// What `instr` writes into its destination(s).
    fn result(&self, instr: &Instruction) -> Lanes {
        let srcs = &instr.operands[1.min(instr.operands.len())..];
        let arg = |i: usize| srcs.get(i).map_or(Lanes::Varying, |o| self.operand(o));
        let all_uniform = || {
            let vals: Vec<Lanes> = srcs.iter().map(|o| self.operand(o)).collect();
            if vals.contains(&Lanes::Undef) {
                Lanes::Undef
            } else if vals.iter().all(|v| v.is_uniform()) {
                Lanes::uniform()
            } else {
                Lanes::Varying
            }
        };
        let hi = instr.modifiers().any(|m| m == "hi");
        match instr.base() {
            "mov" | "cvt" | "cvta" => arg(0),
            "add" => arg(0).add(arg(1)),
            "sub" => arg(0).add(arg(1).negate()),
            "neg" => arg(0).negate(),
            "mul" | "mul24" if !hi => arg(0).scale(arg(1)),
            // Clamping a per-lane index to a uniform bound (`max(i - 1, 0)`, or a select
            // of the index and the bound) keeps the stride in every lane but the edge ones.
            "min" | "max" => clamp(arg(0), arg(1)),
            "selp" | "slct" => clamp(arg(0), arg(1)),
            // `(x << 32) >> 30`: LLVM's sign extension of a 32-bit index times 4.
            "shr" => match (arg(0), arg(1)) {
                (Lanes::Undef, _) | (_, Lanes::Undef) => Lanes::Undef,
                (Lanes::Uniform(_), Lanes::Uniform(_)) => Lanes::uniform(),
                (Lanes::Stride(s), Lanes::Uniform(Some(k)))
                    if (0..63).contains(&k) && s % (1i64 << k) == 0 =>
                {
                    Lanes::stride(s >> k)
                }
                // `i / 256` (or its sign fix-up, `i >> 31`): a warp's 32 lanes span less
                // than one step of the quotient, the same in every lane of a warp whose
                // first index is aligned (as the analysis assumes of lane 0).
                (Lanes::Stride(s), Lanes::Uniform(Some(k)))
                    if (0..63).contains(&k) && s.unsigned_abs() * WARP as u64 <= 1u64 << k =>
                {
                    Lanes::uniform()
                }
                _ => Lanes::Varying,
            },
            "mad" | "mad24" if !hi => arg(0).scale(arg(1)).add(arg(2)),
            // `x & 0xffffffff`: LLVM's zero extension of a 32-bit index computed in 64 bits
            // (`i - 1` of an unsigned or non-negative `i`); a mask of at least the low 32
            // bits keeps every index an array in memory has.
            "and" => match (arg(0), arg(1)) {
                (x, Lanes::Uniform(Some(m))) | (Lanes::Uniform(Some(m)), x)
                    if keeps_low_32_bits(m) =>
                {
                    x
                }
                _ => all_uniform(),
            },
            "shl" => match arg(1) {
                Lanes::Uniform(Some(k)) if (0..63).contains(&k) => {
                    arg(0).scale(Lanes::Uniform(Some(1i64 << k)))
                }
                Lanes::Uniform(_) => arg(0).scale(Lanes::uniform()),
                Lanes::Undef => Lanes::Undef,
                _ => Lanes::Varying,
            },
            // A load reads the same value in every lane when every lane reads the same
            // address (parameters, constants, a warp-uniform global or shared address).
            "ld" | "ldu" => match self.address(instr) {
                Lanes::Uniform(_) => Lanes::uniform(),
                Lanes::Undef => Lanes::Undef,
                _ => Lanes::Varying,
            },
            "atom" | "call" | "shfl" | "vote" | "activemask" | "match" | "redux" => Lanes::Varying,
            _ => all_uniform(),
        }
    }
}

/// A per-lane value or a uniform bound, whichever each lane picks: the stride holds for
/// all lanes but the few at the bound.
fn clamp(a: Lanes, b: Lanes) -> Lanes {
    match (a, b) {
        (Lanes::Undef, _) | (_, Lanes::Undef) => Lanes::Undef,
        (Lanes::Stride(s), Lanes::Uniform(_)) | (Lanes::Uniform(_), Lanes::Stride(s)) => {
            Lanes::Stride(s)
        }
        (a, b) if a == b => a,
        (a, b) => a.join(b).join(Lanes::uniform()),
    }
}

/// The requests and sectors of a warp whose lanes address `lane * stride` bytes, `width`
/// each: what the model counts from sampled addresses (`pipeline_model::sampling`), here
/// for the addresses the analysis knows.
pub(crate) fn strided(stride: i64, width: u32, shared: bool) -> (u32, u32) {
    let addresses: Vec<i64> = (0..WARP).map(|lane| lane * stride).collect();
    warp_access(&addresses, width, shared)
}

/// The global access of a warp whose lanes address `lanes` with `width` bytes each.
pub fn global_access(lanes: Lanes, width: u32, level: MemLevel) -> MemAccess {
    let (transactions, sectors) = match lanes {
        Lanes::Undef | Lanes::Uniform(_) => strided(0, width, false),
        Lanes::Stride(s) => strided(s, width, false),
        // No known stride: every lane its own line (a gather, or rows of a runtime width).
        Lanes::UnknownStride | Lanes::Varying => (
            WARP as u32 * width.max(1).div_ceil(LINE as u32),
            WARP as u32 * width.max(1).div_ceil(SECTOR as u32),
        ),
    };
    MemAccess {
        level,
        transactions,
        sectors,
        reuse_lines: None,
        step_bytes: None,
    }
}

/// The shared access of a warp: the bank-conflict degree (most distinct 4-byte words any
/// bank serves; one word read by many lanes is a broadcast). Addresses with no known
/// stride are charged as conflict-free.
pub fn shared_access(lanes: Lanes, width: u32) -> MemAccess {
    let stride = match lanes {
        Lanes::Stride(s) => s,
        _ => 0,
    };
    MemAccess {
        level: MemLevel::L1,
        transactions: strided(stride, width, true).0,
        sectors: 0,
        reuse_lines: None,
        step_bytes: None,
    }
}

/// A `.local` access of a work-item's frame (a private array the compiler keeps in memory,
/// spilled registers) of `frame_bytes` a work-item, its lanes at offsets `lanes` within
/// their frames. The lanes' frames are interleaved word by word (PTX ISA, "Local State
/// Space": local addresses are per-thread; GPGPU-Sim places word `k` of thread `t` at
/// `(k x threads + t) x 4`, NVIDIA's GPUs likewise), so a warp's access at one offset is
/// coalesced: one 128-byte line for 32 four-byte words. Lanes at different offsets (a
/// private array indexed by each lane's data, `counts[digit]++`) touch a line per offset
/// they use: charged as a gather, at most a line per offset the frame has, and sampled
/// ([`unresolved_accesses`]). Its data was the work-item's own, written or read before: a
/// frame the L1 holds for every warp of the SM is an L1 hit, else it comes from the L2
/// (the frame's lines a warp keeps are its reuse distance, `MemAccess::reuse_lines`).
pub fn local_access(lanes: Lanes, width: u32, frame_bytes: u64) -> MemAccess {
    let width = width.max(1);
    let at_one_offset = global_access(Lanes::Stride(i64::from(width)), width, MemLevel::L2);
    let mut access = if lanes.is_uniform() {
        at_one_offset
    } else {
        let mut gather = global_access(Lanes::Varying, width, MemLevel::L2);
        let offsets = u32::try_from(frame_bytes / u64::from(width)).unwrap_or(u32::MAX);
        if offsets > 0 {
            gather.transactions = gather
                .transactions
                .min(offsets.saturating_mul(at_one_offset.transactions));
        }
        gather
    };
    let frame_lines = (frame_bytes * WARP as u64).div_ceil(LINE as u64).max(1);
    access.reuse_lines = Some(u32::try_from(frame_lines - 1).unwrap_or(u32::MAX));
    access
}

/// A `__constant` load whose lanes read different addresses (a table lookup by each
/// lane's own value). The constant cache serves one line a pass: as many passes as the
/// lines the lanes touch, each lane its own where the address has no known stride (the
/// gather rule of [`global_access`]), from the constant cache (an L1 hit: the table is
/// read again and again), moving nothing past it. GPGPU-Sim's GTX 480 shows it on the
/// corpus's `crc32_slice8` (`crc32Lookup[k][byte]`): 54,037 constant-cache accesses for
/// 4,096 warp loads, 13 lines each. A uniform address is a broadcast, the `mem` row.
/// The table's size, where known, is put on the access later
/// ([`crate::analysis::reuse::constant_tables`]): the architecture's constant cache may not hold it.
pub fn constant_access(lanes: Lanes, width: u32) -> MemAccess {
    let lines = global_access(lanes, width, MemLevel::L1).transactions;
    MemAccess {
        level: MemLevel::Constant,
        transactions: lines,
        sectors: 0,
        reuse_lines: None,
        step_bytes: None,
    }
}

/// Whether `instr` accesses the local (per work-item) state space.
pub fn is_local(instr: &Instruction) -> bool {
    instr.modifiers().any(|m| m == "local")
}

/// Computes the lane values of `f`'s registers.
pub(crate) fn lane_values(f: &Function) -> LaneValues<'_> {
    values_along(f, Axis::Lanes)
}

/// Computes the values of `f`'s registers along `axis`.
pub(crate) fn values_along(f: &Function, axis: Axis) -> LaneValues<'_> {
    let mut values = LaneValues {
        regs: HashMap::new(),
        axis,
    };
    for block in &f.blocks {
        for instr in &block.instrs {
            for op in instr.operands.iter() {
                for name in op.registers() {
                    if f.registers.iter().any(|d| d.declares(name)) {
                        values.regs.entry(name).or_insert(Lanes::Undef);
                    }
                }
            }
        }
    }
    // The fixpoint: each definition joins its value into its destination until nothing
    // changes. Joins only go up a lattice of height 4, so this ends; the bound is a guard.
    for _ in 0..64 {
        let mut changed = false;
        for instr in f.blocks.iter().flat_map(|b| &b.instrs) {
            let Some(dst) = instr.operands.first() else {
                continue;
            };
            if matches!(instr.base(), "st" | "red" | "bra" | "bar" | "ret" | "exit") {
                continue;
            }
            let mut value = values.result(instr);
            // A guarded definition keeps the register's other value in the lanes it skips.
            if instr.guard.is_some() && !value.is_uniform() && value != Lanes::Undef {
                value = value.join(Lanes::Varying);
            }
            if value == Lanes::Undef {
                continue;
            }
            for name in dst.registers() {
                if let Some(old) = values.regs.get_mut(name) {
                    let new = old.join(value);
                    if new != *old {
                        *old = new;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    values
}

/// The memory behaviour of every instruction of `f`, block by block (`None` for the
/// instructions that are no global, shared, local or divergent constant access).
pub fn analyze_accesses(f: &Function) -> Vec<Vec<Option<MemAccess>>> {
    accesses_with(f, &lane_values(f), &Cfg::new(f))
}

/// [`analyze_accesses`] from `f`'s lane values and control-flow graph, where the caller
/// has them already.
pub(crate) fn accesses_with(
    f: &Function,
    values: &LaneValues<'_>,
    cfg: &Cfg,
) -> Vec<Vec<Option<MemAccess>>> {
    let frame_bytes = f.frame_bytes();
    let steps = load_steps(f, cfg);
    f.blocks
        .iter()
        .enumerate()
        .map(|(b, block)| {
            block
                .instrs
                .iter()
                .enumerate()
                .map(|(i, instr)| {
                    let lanes = values.address(instr);
                    let width = access_width(instr);
                    match op_class(instr).0 {
                        OpClass::SharedMem => Some(shared_access(lanes, width)),
                        OpClass::GlobalMem => {
                            // A volatile load (OpenCL's `volatile`, PTX's `ld.volatile`)
                            // must see other threads' writes: the PTX ISA gives it the
                            // semantics of `ld.relaxed.sys` on sm_70 and later, a load at
                            // a scope beyond the work-group, which the SM's L1 (not
                            // coherent across SMs) does not serve; older GPUs bypass the L1
                            // for it too (NVIDIA, "Tuning CUDA Applications for Fermi").
                            let volatile = instr.modifiers().any(|m| m == "volatile");
                            let step = steps.get(&(b, i)).copied();
                            let level = match instr.base() {
                                "ld" | "ldu"
                                    if lanes.is_uniform()
                                        && !volatile
                                        && step != Some(LoadStep::Line) =>
                                {
                                    MemLevel::L1
                                }
                                "ld" | "ldu" if cfg.loop_depth(b) > 0 => MemLevel::L2,
                                "ld" | "ldu" => MemLevel::Dram,
                                _ => MemLevel::L2,
                            };
                            let mut access = global_access(lanes, width, level);
                            if let (MemLevel::L1, Some(LoadStep::Bytes(bytes))) = (level, step) {
                                access.step_bytes = Some(bytes);
                            }
                            Some(access)
                        }
                        OpClass::Mem if is_local(instr) => {
                            Some(local_access(lanes, width, frame_bytes))
                        }
                        OpClass::Mem
                            if instr.base() == "ld"
                                && instr.modifiers().any(|m| m == "const")
                                && !lanes.is_uniform() =>
                        {
                            Some(constant_access(lanes, width))
                        }
                        _ => None,
                    }
                })
                .collect()
        })
        .collect()
}

/// The global, shared and local accesses of `f` whose address across a warp's lanes the
/// analysis cannot tell (loaded from memory, or a stride known only at run time), as
/// (block, instruction) positions: the run samples their addresses instead
/// (`pipeline_model::sampling`).
pub fn unresolved_accesses(f: &Function) -> Vec<(usize, usize)> {
    let values = lane_values(f);
    let mut out = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            let class = op_class(instr).0;
            let memory = matches!(class, OpClass::SharedMem | OpClass::GlobalMem)
                || (class == OpClass::Mem && is_local(instr));
            if !memory {
                continue;
            }
            if matches!(values.address(instr), Lanes::Varying | Lanes::UnknownStride) {
                out.push((b, i));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::ptx::parse;

    fn accesses(body: &str) -> Vec<MemAccess> {
        let src = format!(
            ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n{{\n.reg .pred %p<3>;\n.reg .b32 %r<20>;\n.reg .f32 %f<9>;\n.reg .b64 %rd<20>;\n{body}\n}}\n"
        );
        let m = parse(&src).unwrap();
        analyze_accesses(&m.functions[0])
            .into_iter()
            .flatten()
            .flatten()
            .collect()
    }

    /// The address `param_0 + 4 * (ctaid.x * ntid.x + tid.x) * scale`, as clang emits it.
    const GID: &str = "ld.param.u64 %rd1, [k_param_0];\ncvta.to.global.u64 %rd2, %rd1;\n\
        mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %tid.x;\n\
        mad.lo.s32 %r4, %r1, %r2, %r3;\n";

    #[test]
    fn a_per_block_index_is_the_same_in_a_warp() {
        // `offsets[i / 256]` of a signed `i`: the sign fix-up, then the shift by 8.
        let a = accesses(&format!(
            "{GID}shr.s32 %r6, %r4, 31;\nshr.u32 %r7, %r6, 24;\nadd.s32 %r8, %r4, %r7;\n\
             shr.s32 %r9, %r8, 8;\nmul.wide.s32 %rd6, %r9, 4;\nadd.s64 %rd7, %rd2, %rd6;\n\
             ld.global.u32 %r10, [%rd7];\nshr.s32 %r11, %r4, 2;\nmul.wide.s32 %rd8, %r11, 4;\n\
             add.s64 %rd9, %rd2, %rd8;\nld.global.u32 %r12, [%rd9];"
        ));
        // One word for the whole warp: an L1 hit.
        assert_eq!(a[0].level, MemLevel::L1);
        assert_eq!((a[0].transactions, a[0].sectors), (1, 1));
        // `i / 4` changes within a warp: no known stride.
        assert_eq!(a[1].transactions, 32);
    }

    #[test]
    fn a_zero_extended_neighbour_index_keeps_its_stride() {
        // `x[i - 1]` of a 32-bit `i` computed in 64 bits: LLVM masks the low 32 bits.
        let a = accesses(&format!(
            "{GID}cvt.u64.u32 %rd5, %r4;\nadd.s64 %rd6, %rd5, -1;\nand.b64 %rd7, %rd6, 4294967295;\n\
             shl.b64 %rd8, %rd7, 2;\nadd.s64 %rd9, %rd2, %rd8;\nld.global.f32 %f1, [%rd9];\n\
             and.b64 %rd10, %rd6, 255;\nshl.b64 %rd11, %rd10, 2;\nadd.s64 %rd12, %rd2, %rd11;\n\
             ld.global.f32 %f2, [%rd12];"
        ));
        assert_eq!((a[0].transactions, a[0].sectors), (1, 4));
        // A narrower mask wraps the index: no known stride.
        assert_eq!(a[1].transactions, 32);
    }

    #[test]
    fn a_coalesced_float_load_is_four_sectors_on_one_line_from_dram() {
        let a = accesses(&format!(
            "{GID}mul.wide.s32 %rd3, %r4, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.f32 %f1, [%rd4];"
        ));
        assert_eq!(
            a,
            [MemAccess {
                level: MemLevel::Dram,
                transactions: 1,
                sectors: 4,
                reuse_lines: None,
                step_bytes: None,
            }]
        );
    }

    #[test]
    fn a_stride_of_32_floats_touches_a_line_and_a_sector_per_lane() {
        let a = accesses(&format!(
            "{GID}shl.b32 %r5, %r4, 5;\nmul.wide.s32 %rd3, %r5, 4;\nadd.s64 %rd4, %rd2, %rd3;\n\
             st.global.f32 [%rd4], %f1;"
        ));
        assert_eq!(
            (a[0].transactions, a[0].sectors, a[0].level),
            (32, 32, MemLevel::L2)
        );
        // Stride 2 floats: 8 bytes a lane, 256 bytes: 2 lines, 8 sectors.
        let a = accesses(&format!(
            "{GID}shl.b32 %r5, %r4, 1;\nmul.wide.s32 %rd3, %r5, 4;\nadd.s64 %rd4, %rd2, %rd3;\n\
             ld.global.f32 %f1, [%rd4];"
        ));
        assert_eq!((a[0].transactions, a[0].sectors), (2, 8));
    }

    #[test]
    fn a_runtime_row_width_and_a_loaded_index_are_gathers() {
        // in[gid * n]: the stride is a parameter.
        let a = accesses(&format!(
            "{GID}ld.param.u32 %r6, [k_param_1];\nmul.lo.s32 %r5, %r4, %r6;\n\
             mul.wide.s32 %rd3, %r5, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.f32 %f1, [%rd4];\n\
             ld.global.u32 %r7, [%rd4];\nmul.wide.s32 %rd5, %r7, 4;\nadd.s64 %rd6, %rd2, %rd5;\n\
             ld.global.f32 %f2, [%rd6];"
        ));
        assert_eq!((a[0].transactions, a[0].sectors), (32, 32));
        assert_eq!((a[2].transactions, a[2].sectors), (32, 32));
    }

    #[test]
    fn a_warp_uniform_load_is_one_sector_from_the_l1() {
        let a = accesses(
            "ld.param.u64 %rd1, [k_param_0];\nmov.u32 %r1, %ctaid.x;\nmul.wide.u32 %rd3, %r1, 4;\n\
             add.s64 %rd4, %rd1, %rd3;\nld.global.f32 %f1, [%rd4];",
        );
        assert_eq!(
            a,
            [MemAccess {
                level: MemLevel::L1,
                transactions: 1,
                sectors: 1,
                reuse_lines: None,
                step_bytes: None,
            }]
        );
    }

    #[test]
    fn a_volatile_load_is_never_an_l1_hit() {
        // One work-item chasing pointers in a loop: a warp-uniform address, from the L2
        // when volatile, from the L1 when not; outside loops a volatile load is a first
        // touch.
        let chase = |op: &str| {
            accesses(&format!(
                "ld.param.u64 %rd1, [k_param_0];
mov.u64 %rd2, 0;
$L__BB0_1:
                 shl.b64 %rd3, %rd2, 3;
add.s64 %rd4, %rd1, %rd3;
{op} %rd2, [%rd4];
                 setp.ne.s64 %p1, %rd2, 0;
@%p1 bra $L__BB0_1;
ret;"
            ))[0]
        };
        assert_eq!(chase("ld.volatile.global.u64").level, MemLevel::L2);
        assert_eq!(chase("ld.global.u64").level, MemLevel::L1);
        let a = accesses(
            "ld.param.u64 %rd1, [k_param_0];
ld.volatile.global.f32 %f1, [%rd1];",
        );
        assert_eq!(a[0].level, MemLevel::Dram);
    }

    #[test]
    fn a_loop_carried_grid_stride_index_keeps_its_stride_and_loads_in_loops_are_l2() {
        let a = accesses(&format!(
            "{GID}mov.u32 %r8, %nctaid.x;\nmul.lo.s32 %r9, %r8, %r2;\n\
             $L__BB0_1:\nmul.wide.s32 %rd3, %r4, 4;\nadd.s64 %rd4, %rd2, %rd3;\n\
             ld.global.f32 %f1, [%rd4];\nadd.s32 %r4, %r4, %r9;\nsetp.lt.s32 %p1, %r4, 100;\n\
             @%p1 bra $L__BB0_1;\nret;"
        ));
        assert_eq!(
            (a[0].transactions, a[0].sectors, a[0].level),
            (1, 4, MemLevel::L2)
        );
    }

    #[test]
    fn a_local_access_is_one_coalesced_line_kept_for_its_frame() {
        // A 128-byte frame (`float c[32]`): a warp's frames are 32 x 128 bytes, 32 lines,
        // so 31 lines come between two uses of one line.
        let a = accesses(
            ".local .align 4 .b8 __local_depot0[128];\nmov.u64 %rd1, __local_depot0;\n\
             ld.local.f32 %f1, [%rd1+8];\nst.local.f32 [%rd1+8], %f1;\nld.local.v2.f32 {%f2, %f3}, [%rd1];",
        );
        let local = |transactions, sectors| MemAccess {
            level: MemLevel::L2,
            transactions,
            sectors,
            reuse_lines: Some(31),
            step_bytes: None,
        };
        assert_eq!(a, [local(1, 4), local(1, 4), local(2, 8)]);
        // No frame declared (a callee's): one line.
        assert_eq!(local_access(Lanes::uniform(), 4, 0).reuse_lines, Some(0));
        // Lanes at offsets of their own (`counts[digit]` of a 16-word frame): a line per
        // offset, at most 16, and a sector per lane.
        let counts = local_access(Lanes::Varying, 4, 64);
        assert_eq!((counts.transactions, counts.sectors), (16, 32));
        assert_eq!(local_access(Lanes::Varying, 4, 1024).transactions, 32);
    }

    #[test]
    fn a_table_lookup_in_constant_memory_takes_a_pass_per_lane() {
        // `table[byte]`, the byte loaded: every lane its own line, 32 passes from the
        // constant cache; `table[tid]` (4-byte stride): one line; `table[3]`: a broadcast,
        // not analysed (the `mem` row).
        let a = accesses(&format!(
            "{GID}cvt.u64.u32 %rd9, %r4;\nadd.s64 %rd10, %rd2, %rd9;\nld.global.u8 %r5, [%rd10];\n\
             cvt.u64.u32 %rd3, %r5;\nshl.b64 %rd4, %rd3, 2;\n\
             mov.u64 %rd5, table;\nadd.s64 %rd6, %rd5, %rd4;\nld.const.u32 %r6, [%rd6];\n\
             mul.wide.u32 %rd7, %r3, 4;\nadd.s64 %rd8, %rd5, %rd7;\nld.const.u32 %r7, [%rd8];\n\
             ld.const.u32 %r8, [table+12];"
        ));
        let constant = |transactions| MemAccess {
            level: MemLevel::Constant,
            transactions,
            sectors: 0,
            reuse_lines: None,
            step_bytes: None,
        };
        // The global byte load, then the two analysed constant loads.
        assert_eq!(&a[1..], [constant(32), constant(1)]);
    }

    #[test]
    fn shared_bank_conflicts_follow_the_word_stride() {
        let body = |shift: u32| {
            format!(
                "mov.u32 %r3, %tid.x;\nshl.b32 %r5, %r3, {shift};\nmov.u32 %r6, smem;\n\
                 add.s32 %r7, %r6, %r5;\nld.shared.f32 %f1, [%r7];"
            )
        };
        // Consecutive words: no conflict; 2 words apart: 2-way; 32 words apart: 32-way.
        for (shift, degree) in [(2, 1), (3, 2), (7, 32)] {
            assert_eq!(
                accesses(&body(shift))[0].transactions,
                degree,
                "shift {shift}"
            );
        }
        // Every lane reads one word: a broadcast.
        let a = accesses("mov.u32 %r6, smem;\nld.shared.f32 %f1, [%r6+8];");
        assert_eq!(a[0].transactions, 1);
    }

    #[test]
    fn a_clamped_index_keeps_its_stride() {
        // in[max(i - 1, 0)] and in[min(i + 1, n - 1)]: coalesced but for the edge lanes.
        let a = accesses(&format!(
            "{GID}add.s32 %r5, %r4, -1;\nmax.s32 %r6, %r5, 0;\nmul.wide.s32 %rd3, %r6, 4;\n\
             add.s64 %rd4, %rd2, %rd3;\nld.global.f32 %f1, [%rd4];\n\
             ld.param.u32 %r7, [k_param_1];\nadd.s32 %r8, %r4, 1;\nmin.s32 %r9, %r8, %r7;\n\
             mul.wide.s32 %rd5, %r9, 4;\nadd.s64 %rd6, %rd2, %rd5;\nld.global.f32 %f2, [%rd6];"
        ));
        assert_eq!((a[0].transactions, a[0].sectors), (1, 4));
        assert_eq!((a[1].transactions, a[1].sectors), (1, 4));
        // clamp(j, 0, n - 1) as LLVM writes it, and the index sign-extended by shifts.
        let a = accesses(&format!(
            "{GID}ld.param.u32 %r7, [k_param_1];\nsetp.lt.s32 %p1, %r4, %r7;\n\
             max.s32 %r6, %r4, 0;\nselp.b32 %r8, %r6, %r7, %p1;\ncvt.u64.u32 %rd7, %r8;\n\
             shl.b64 %rd8, %rd7, 32;\nshr.s64 %rd9, %rd8, 30;\nadd.s64 %rd4, %rd2, %rd9;\n\
             st.global.f32 [%rd4], %f1;"
        ));
        assert_eq!((a[0].transactions, a[0].sectors), (1, 4));
    }

    #[test]
    fn the_join_is_a_lattice() {
        use Lanes::*;
        assert_eq!(Stride(4).join(Stride(4)), Stride(4));
        assert_eq!(Stride(4).join(Stride(8)), UnknownStride);
        assert_eq!(Uniform(Some(1)).join(Uniform(Some(2))), Uniform(None));
        assert_eq!(Uniform(None).join(Stride(4)), Varying);
        assert_eq!(Undef.join(Stride(4)), Stride(4));
        assert_eq!(Stride(4).scale(Uniform(Some(0))), Uniform(None));
    }
}
