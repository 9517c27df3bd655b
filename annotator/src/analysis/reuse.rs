//! Global loads whose bytes an earlier load of the same work-group brought into the L1.
//!
//! `x[i]` then `x[i + 1]` (an unrolled sum, a stencil's neighbours, a struct's fields):
//! the second load's warp touches the sectors the first load's warp and its neighbour
//! warps just fetched, so the L1 serves it. GPGPU-Sim's GTX 480 shows it on the corpus's
//! `read_linear` (32 loads `input[gid + k]`, k = 0..31): 8,192 L1 accesses, 272 misses
//! (3.3%), where every load was charged a trip past the L1.
//!
//! Each address is written as an affine sum over opaque values ([`Affine`]: kernel
//! parameters, special registers, loaded values, products of two unknowns) plus a byte
//! offset. A load is an L1 hit when an earlier global load that runs exactly as often
//! (same block, or a dominating block in the same loops) has the same opaque part, and
//! every 32-byte sector the load's warp touches is one the earlier load touched in that
//! warp or a neighbour warp along x: the lanes' addresses follow the access's stride
//! ([`Lanes::Stride`]), lane 0 at a line boundary as [`crate::analysis::access`] assumes. A uniform
//! address is an L1 hit anyway; one that is the same in the whole launch (parameters and
//! the launch's sizes only: `input[3]`) is reused at distance 0 too, which moves no bytes
//! past the L1 (the corpus's `read_single`: 32 such loads, GPGPU-Sim's L1 missed 527 of
//! 16,896). Loads the L1 never serves (`volatile`, `.cg`, `.cv`) neither reuse nor count
//! as bringing anything in.
//!
//! Assumed: the work-group holds the neighbour warp (work-groups of at least two warps
//! along x), and nothing between the two loads evicts the lines (they are a few
//! instructions apart in one pass of the code). A store between them is not looked at.

use std::collections::{BTreeMap, HashMap, HashSet};

use pipeline_model::sampling::SECTOR;

use pipeline_model::MemLevel;

use crate::analysis::access::{
    global_access, integer_immediate, keeps_low_32_bits, LaneValues, Lanes,
};
use crate::front::cfg::Cfg;
use crate::front::opcode::access_width;
use crate::front::ptx::{Function, Instruction, Operand};

/// Lanes in a warp.
const WARP: i64 = 32;

/// A value as `offset + sum(coefficient * atom)`: atoms are values the analysis does not
/// look into (a parameter, a special register, a loaded value, a register defined more
/// than once), named by their register.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Affine {
    terms: BTreeMap<String, i64>,
    offset: i64,
}

impl Affine {
    fn constant(c: i64) -> Self {
        Affine {
            terms: BTreeMap::new(),
            offset: c,
        }
    }

    fn atom(name: &str) -> Self {
        Affine {
            terms: BTreeMap::from([(name.to_string(), 1)]),
            offset: 0,
        }
    }

    fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.offset)
    }

    fn plus(mut self, other: &Affine, sign: i64) -> Self {
        for (atom, c) in &other.terms {
            let t = self.terms.entry(atom.clone()).or_insert(0);
            *t = t.wrapping_add(c.wrapping_mul(sign));
        }
        self.terms.retain(|_, c| *c != 0);
        self.offset = self.offset.wrapping_add(other.offset.wrapping_mul(sign));
        self
    }

    fn scaled(mut self, by: i64) -> Self {
        for c in self.terms.values_mut() {
            *c = c.wrapping_mul(by);
        }
        self.terms.retain(|_, c| *c != 0);
        self.offset = self.offset.wrapping_mul(by);
        self
    }
}

/// The affine form of every register of one function, computed on demand.
struct AffineValues<'f> {
    /// The one unguarded definition of each register defined exactly once.
    defs: HashMap<&'f str, &'f Instruction>,
    memo: HashMap<&'f str, Affine>,
    /// Definitions being evaluated, one inside the other.
    depth: usize,
}

/// The deepest chain of definitions followed from one register.
const MAX_DEPTH: usize = 256;

/// Special registers with one value in every work-item of a launch.
const LAUNCH_CONSTANT: &[&str] = &[
    "%ntid.x",
    "%ntid.y",
    "%ntid.z",
    "%nctaid.x",
    "%nctaid.y",
    "%nctaid.z",
];

impl<'f> AffineValues<'f> {
    fn new(f: &'f Function) -> Self {
        let mut count: HashMap<&str, (usize, Option<&Instruction>)> = HashMap::new();
        for instr in f.blocks.iter().flat_map(|b| &b.instrs) {
            if matches!(instr.base(), "st" | "red" | "bra" | "bar" | "ret" | "exit") {
                continue;
            }
            let Some(dst) = instr.operands.first() else {
                continue;
            };
            for name in dst.registers() {
                let e = count.entry(name).or_insert((0, None));
                e.0 += 1;
                e.1 = instr.guard.is_none().then_some(instr);
            }
        }
        let defs = count
            .into_iter()
            .filter_map(|(name, (n, def))| (n == 1).then_some((name, def?)))
            .collect();
        AffineValues {
            defs,
            memo: HashMap::new(),
            depth: 0,
        }
    }

    fn operand(&mut self, op: &'f Operand) -> Option<Affine> {
        match op {
            Operand::Reg { name, negated } if !negated => Some(self.register(name)),
            Operand::Imm(text) => integer_immediate(text).map(Affine::constant),
            Operand::Symbol(name) => Some(Affine::atom(name)),
            Operand::Address { base, offset } => {
                let base = match base.as_deref() {
                    Some(b) => self.operand(b)?,
                    None => Affine::constant(0),
                };
                Some(base.plus(&Affine::constant(*offset), 1))
            }
            _ => None,
        }
    }

    /// Whether `a` has one value in every work-item of a launch: its atoms are kernel
    /// parameters, the launch's sizes and variables' addresses.
    fn launch_constant(&self, a: &Affine) -> bool {
        a.terms.keys().all(|atom| {
            let param = || {
                self.defs
                    .get(atom.as_str())
                    .is_some_and(|d| d.base() == "ld" && d.modifiers().any(|m| m == "param"))
            };
            !atom.starts_with('%') || LAUNCH_CONSTANT.contains(&atom.as_str()) || param()
        })
    }

    fn register(&mut self, name: &'f str) -> Affine {
        if let Some(v) = self.memo.get(name) {
            return v.clone();
        }
        // An atom until its definition is known: a cycle through a register resolves to it.
        self.memo.insert(name, Affine::atom(name));
        // A chain of definitions deeper than this (a pointer bumped through a long
        // unrolled loop) is cut into atoms: the recursion stays within a thread's stack.
        let value = match self.defs.get(name).copied() {
            Some(def) if self.depth < MAX_DEPTH => {
                self.depth += 1;
                let v = self.definition(def);
                self.depth -= 1;
                v.unwrap_or_else(|| Affine::atom(name))
            }
            _ => Affine::atom(name),
        };
        self.memo.insert(name, value.clone());
        value
    }

    /// What `instr` writes, where it is affine in its operands.
    fn definition(&mut self, instr: &'f Instruction) -> Option<Affine> {
        let srcs = instr.operands.get(1..)?;
        let arg = |s: &mut Self, i: usize| srcs.get(i).and_then(|o| s.operand(o));
        let integer = !instr.modifiers().any(|m| m.starts_with('f') || m == "hi");
        if !integer {
            return None;
        }
        match instr.base() {
            // Widening or narrowing an index: taken as exact (indices stay in range).
            "mov" | "cvt" | "cvta" => arg(self, 0),
            "add" => Some(arg(self, 0)?.plus(&arg(self, 1)?, 1)),
            "sub" => Some(arg(self, 0)?.plus(&arg(self, 1)?, -1)),
            "neg" => Some(arg(self, 0)?.scaled(-1)),
            "mul" | "mul24" => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                match (a.as_constant(), b.as_constant()) {
                    (_, Some(k)) => Some(a.scaled(k)),
                    (Some(k), _) => Some(b.scaled(k)),
                    _ => None,
                }
            }
            "mad" | "mad24" => {
                let (a, b, c) = (arg(self, 0)?, arg(self, 1)?, arg(self, 2)?);
                let product = match (a.as_constant(), b.as_constant()) {
                    (_, Some(k)) => a.scaled(k),
                    (Some(k), _) => b.scaled(k),
                    _ => return None,
                };
                Some(product.plus(&c, 1))
            }
            "shl" => {
                let k = arg(self, 1)?.as_constant()?;
                (0..63)
                    .contains(&k)
                    .then(|| arg(self, 0))
                    .flatten()
                    .map(|a| a.scaled(1i64 << k))
            }
            "and" => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                match (a.as_constant(), b.as_constant()) {
                    (_, Some(m)) if keeps_low_32_bits(m) => Some(a),
                    (Some(m), _) if keeps_low_32_bits(m) => Some(b),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// A global load the L1 may serve or fill: where it is, its address and its lanes.
struct Load {
    block: usize,
    index: usize,
    /// `None` where the address is not affine in what the analysis tracks.
    address: Option<Affine>,
    lanes: Lanes,
    width: u32,
    /// 128-byte lines it brings into the L1 for one warp.
    lines: u32,
}

/// Whether the L1 takes part in `instr`, a global load: not for `volatile` (a scope
/// beyond the work-group), `.cg` (cached in the L2 only) or `.cv` (fetched again).
fn through_l1(instr: &Instruction) -> bool {
    !instr
        .modifiers()
        .any(|m| matches!(m, "volatile" | "cg" | "cv"))
}

/// The 32-byte sectors a warp's lanes touch, `lane * stride + delta` for `width` bytes each
/// over `lanes`.
fn sectors(lanes: std::ops::Range<i64>, stride: i64, delta: i64, width: u32) -> HashSet<i64> {
    let mut out = HashSet::new();
    for lane in lanes {
        let start = lane * stride + delta;
        let end = start + i64::from(width.max(1)) - 1;
        for s in start.div_euclid(SECTOR)..=end.div_euclid(SECTOR) {
            out.insert(s);
        }
    }
    out
}

/// Whether every sector `later` touches in warp 0 is one `earlier` touched in warps -1, 0
/// or 1, where `later`'s address is `earlier`'s plus `delta` bytes.
fn covered(stride: i64, earlier_width: u32, later_width: u32, delta: i64) -> bool {
    let brought = sectors(-WARP..2 * WARP, stride, 0, earlier_width);
    sectors(0..WARP, stride, delta, later_width).is_subset(&brought)
}

/// The global loads of `f` whose sectors an earlier load of the work-group brought into
/// the L1, by (block, instruction) position, each with the 128-byte lines one warp brings
/// in between the two (its reuse distance: whether the L1 still holds them is the
/// architecture's call, `pipeline_model::Architecture::l1_keeps`).
/// `lanes` and `cfg` are `f`'s lane values and control-flow graph.
pub(crate) fn reused_loads(
    f: &Function,
    lanes: &LaneValues<'_>,
    cfg: &Cfg,
) -> HashMap<(usize, usize), u32> {
    let mut affine = AffineValues::new(f);
    let mut loads: Vec<Load> = Vec::new();
    let mut launch_wide = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            let global_load =
                matches!(instr.base(), "ld" | "ldu") && instr.modifiers().any(|m| m == "global");
            if !global_load || !through_l1(instr) {
                continue;
            }
            let Some(op) = instr.address() else {
                continue;
            };
            let lanes = lanes.operand(op);
            let width = access_width(instr);
            // What it brings into the L1 for one warp: nothing for a warp-uniform address
            // (one line for every warp of the SM).
            let lines = match lanes {
                Lanes::Uniform(_) | Lanes::Undef => 0,
                _ => global_access(lanes, width, MemLevel::L2).transactions,
            };
            let address = affine.operand(op);
            // One address for the whole launch (`input[3]`, `*count`): the first warp on
            // each SM brings it in, for all the others.
            if matches!(lanes, Lanes::Uniform(_))
                && address.as_ref().is_some_and(|a| affine.launch_constant(a))
            {
                launch_wide.push((b, i));
            }
            loads.push(Load {
                block: b,
                index: i,
                address,
                lanes,
                width,
                lines,
            });
        }
    }
    let loops_of = |b: usize| -> Vec<usize> {
        cfg.loops
            .iter()
            .filter(|l| l.body.contains(&b))
            .map(|l| l.header)
            .collect()
    };
    let mut out: HashMap<(usize, usize), u32> =
        launch_wide.into_iter().map(|pos| (pos, 0)).collect();
    for n in 0..loads.len() {
        let later = &loads[n];
        let (Lanes::Stride(stride), Some(address)) = (later.lanes, &later.address) else {
            continue;
        };
        // The nearest earlier load that brought this one's sectors, and the lines the
        // loads between brought.
        let mut between = 0u32;
        let mut found = None;
        for earlier in loads[..n].iter().rev() {
            let runs_as_often = if earlier.block == later.block {
                earlier.index < later.index
            } else {
                cfg.dominates(earlier.block, later.block)
                    && loops_of(earlier.block) == loops_of(later.block)
            };
            let brought = runs_as_often
                && earlier.lanes == later.lanes
                && earlier.address.as_ref().is_some_and(|e| {
                    e.terms == address.terms
                        && covered(
                            stride,
                            earlier.width,
                            later.width,
                            address.offset.wrapping_sub(e.offset),
                        )
                });
            if brought {
                found = Some(between);
                break;
            }
            between = between.saturating_add(earlier.lines);
        }
        if let Some(lines) = found {
            out.insert((later.block, later.index), lines);
            // A hit brings nothing in.
            loads[n].lines = 0;
        }
    }
    out
}

/// The global loads of `f` inside a loop whose address moves by a 128-byte line or more
/// each iteration of the innermost loop around them, by (block, instruction) position:
/// their address is affine in a register the loop steps (`add %rd5, %rd5, 512`, or a
/// step known only at run time: a matrix's rows), by at least a line in all. A
/// warp-uniform load of such an address finds a line no warp of the SM has brought in
/// yet at every iteration: the SM's warps reach it together and every one waits for the
/// first one's trip past the L1 (the corpus's `DCT`: one row of the input a step,
/// `input[(gy * 8 + k) * width + gx * 8 + j]`), where a uniform address walked in small
/// steps (`pos[j]`) stays in the L1's line for several iterations. A load whose address the analysis cannot
/// follow, or a register the loop changes in some other way, is left out.
pub(crate) fn loads_moving_a_line(f: &Function, cfg: &Cfg) -> HashSet<(usize, usize)> {
    let mut affine = AffineValues::new(f);
    // Every definition of each register, by block.
    let mut defs: HashMap<&str, Vec<(usize, &Instruction)>> = HashMap::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for instr in &block.instrs {
            if matches!(instr.base(), "st" | "red" | "bra" | "bar" | "ret" | "exit") {
                continue;
            }
            if let Some(dst) = instr.operands.first() {
                for name in dst.registers() {
                    defs.entry(name).or_default().push((b, instr));
                }
            }
        }
    }
    let mut out = HashSet::new();
    for (b, block) in f.blocks.iter().enumerate() {
        // The innermost loop around the block: the smallest body holding it.
        let Some(lp) = cfg
            .loops
            .iter()
            .filter(|l| l.body.contains(&b))
            .min_by_key(|l| l.body.len())
        else {
            continue;
        };
        for (i, instr) in block.instrs.iter().enumerate() {
            let global_load =
                matches!(instr.base(), "ld" | "ldu") && instr.modifiers().any(|m| m == "global");
            if !global_load {
                continue;
            }
            let Some(address) = instr.address().and_then(|op| affine.operand(op)) else {
                continue;
            };
            // The bytes the address moves an iteration: per atom the loop steps, its
            // coefficient times the step; `None` once a step is known only at run time.
            let mut moved = Some(0i64);
            let mut stepped = false;
            let mut followed = true;
            for (atom, coefficient) in &address.terms {
                let in_loop: Vec<&Instruction> = defs
                    .get(atom.as_str())
                    .into_iter()
                    .flatten()
                    .filter(|(d, _)| lp.body.contains(d))
                    .map(|&(_, d)| d)
                    .collect();
                if in_loop.is_empty() {
                    continue; // the same in every iteration
                }
                let step = match in_loop.as_slice() {
                    [def] => step_of(&mut affine, def, atom),
                    _ => None,
                };
                let Some(step) = step else {
                    followed = false;
                    break;
                };
                stepped = true;
                moved = match (moved, step.as_constant()) {
                    (Some(m), Some(s)) => Some(m.wrapping_add(coefficient.wrapping_mul(s))),
                    _ => None,
                };
            }
            let a_line = moved.is_none_or(|m| m.unsigned_abs() >= LINE_BYTES);
            if followed && stepped && a_line {
                out.insert((b, i));
            }
        }
    }
    out
}

/// 128-byte lines, as the L1 holds them.
const LINE_BYTES: u64 = 128;

/// What `def`, an instruction that writes `reg` inside a loop, adds to it each iteration:
/// `add reg, reg, X` or `add reg, X, reg` gives `X`, `sub reg, reg, X` its negation;
/// `None` for any other definition.
fn step_of<'f>(affine: &mut AffineValues<'f>, def: &'f Instruction, reg: &str) -> Option<Affine> {
    let integer = !def.modifiers().any(|m| m.starts_with('f'));
    let ops = &def.operands;
    let is_reg = |o: &Operand| matches!(o, Operand::Reg { name, negated: false } if name == reg);
    if !integer || ops.len() != 3 || !is_reg(&ops[0]) {
        return None;
    }
    match def.base() {
        "add" if is_reg(&ops[1]) => affine.operand(&ops[2]),
        "add" if is_reg(&ops[2]) => affine.operand(&ops[1]),
        "sub" if is_reg(&ops[1]) => Some(affine.operand(&ops[2])?.scaled(-1)),
        _ => None,
    }
}

/// The `__constant` variable each `ld.const` of `f` reads, by (block, instruction)
/// position: the one symbol its address is affine in (a table indexed by the lanes'
/// data), where there is one.
pub fn constant_tables(f: &Function) -> HashMap<(usize, usize), String> {
    let mut affine = AffineValues::new(f);
    let mut out = HashMap::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            if instr.base() != "ld" || !instr.modifiers().any(|m| m == "const") {
                continue;
            }
            let Some(address) = instr.address().and_then(|op| affine.operand(op)) else {
                continue;
            };
            let mut symbols = address.terms.keys().filter(|a| !a.starts_with('%'));
            if let (Some(name), None) = (symbols.next(), symbols.next()) {
                out.insert((b, i), name.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::ptx::parse;

    /// `of` for each global load, in order, of a kernel with `body`: given the function and
    /// the load's (block, instruction) position.
    fn per_load<T>(body: &str, of: impl Fn(&Function, (usize, usize)) -> T) -> Vec<T> {
        let src = format!(
            ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<20>;\n.reg .f32 %f<20>;\n.reg .b64 %rd<40>;\n\
             {body}\n}}\n"
        );
        let m = parse(&src).unwrap();
        let f = &m.functions[0];
        f.blocks
            .iter()
            .enumerate()
            .flat_map(|(b, block)| block.instrs.iter().enumerate().map(move |(i, x)| (b, i, x)))
            .filter(|(_, _, x)| x.base() == "ld" && x.modifiers().any(|m| m == "global"))
            .map(|(b, i, _)| of(f, (b, i)))
            .collect()
    }

    /// Each global load's reuse distance, in order, of a kernel with `body`.
    fn reuse(body: &str) -> Vec<Option<u32>> {
        per_load(body, |f, at| {
            let lanes = crate::analysis::access::lane_values(f);
            reused_loads(f, &lanes, &Cfg::new(f)).get(&at).copied()
        })
    }

    /// `%rd5` = the global id (64 bits), `%rd1` and `%rd2` the two buffers, as clang emits
    /// them for `uint gid = get_global_id(0)`.
    const GID: &str = "ld.param.u64 %rd1, [k_param_0];\nld.param.u64 %rd2, [k_param_1];\n\
        mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %ctaid.x;\n\
        mul.wide.u32 %rd3, %r2, %r3;\ncvt.u64.u32 %rd4, %r1;\nadd.s64 %rd5, %rd3, %rd4;\n";

    /// `x[gid + k]` of the buffer in `%rd{buf}` into `%f{dst}`, as clang emits it for a
    /// 32-bit index (the add, the zero extension's mask, the scaling).
    fn load(buf: u32, k: i64, dst: u32) -> String {
        let r = 10 + 4 * dst;
        format!(
            "add.s64 %rd{r}, %rd5, {k};\nand.b64 %rd{}, %rd{r}, 4294967295;\n\
             shl.b64 %rd{}, %rd{}, 2;\nadd.s64 %rd{}, %rd{buf}, %rd{};\n\
             ld.global.f32 %f{dst}, [%rd{}];\n",
            r + 1,
            r + 2,
            r + 1,
            r + 3,
            r + 2,
            r + 3
        )
    }

    /// A loop of warp-uniform loads: a row pointer stepped by a run-time stride (the
    /// second parameter), a word pointer stepped 16 bytes, one stepped 512, the first
    /// parameter's address itself (the same every iteration), and a pointer the loop
    /// copies from another register (not followed).
    const UNIFORM_LOOP: &str = "ld.param.u64 %rd1, [k_param_0];\nld.param.u64 %rd2, [k_param_1];\n\
        mov.u32 %r1, 0;\nmov.u64 %rd3, %rd1;\nmov.u64 %rd4, %rd1;\nmov.u64 %rd6, %rd1;\n\
        mov.u64 %rd8, %rd1;\nmov.u64 %rd9, %rd1;\n\
        $L__BB0_1:\n\
        ld.global.f32 %f1, [%rd3];\nld.global.f32 %f2, [%rd4+4];\nld.global.f32 %f3, [%rd6];\n\
        ld.global.f32 %f4, [%rd1+8];\nld.global.f32 %f5, [%rd8];\n\
        add.s64 %rd3, %rd3, %rd2;\nadd.s64 %rd4, %rd4, 16;\nadd.s64 %rd6, %rd6, 512;\n\
        mov.u64 %rd8, %rd9;\nadd.s64 %rd9, %rd9, 4096;\n\
        add.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 8;\n@%p1 bra $L__BB0_1;\nret;";

    #[test]
    fn a_loop_that_steps_a_load_by_a_line_or_a_run_time_stride_moves_it() {
        // The run-time stride and the 512-byte step move a line; 16 bytes and the
        // parameter's own address do not; the copied pointer is not followed.
        let moving = per_load(UNIFORM_LOOP, |f, at| {
            loads_moving_a_line(f, &Cfg::new(f)).contains(&at)
        });
        assert_eq!(moving, [true, false, true, false, false]);
        // So the warp-uniform loads that move a line wait for the L2, the others for the
        // L1.
        use MemLevel::{L1, L2};
        let levels = per_load(UNIFORM_LOOP, |f, (b, i)| {
            crate::analysis::access::analyze_accesses(f)[b][i].map(|a| a.level)
        });
        assert_eq!(levels, [Some(L2), Some(L1), Some(L2), Some(L1), Some(L1)]);
    }

    #[test]
    fn a_neighbour_of_an_earlier_load_is_reused_and_a_far_one_not() {
        // x[gid], x[gid + 1], x[gid + 31], x[gid + 4096], y[gid + 1], x[gid + 2]: the
        // second and third touch this warp's and the next warp's sectors of the first; the
        // fourth is 16 KiB away, the fifth another buffer; the sixth follows the second
        // with two loads' lines between (the far one and y's).
        let body = [
            load(1, 0, 1),
            load(1, 1, 2),
            load(1, 31, 3),
            load(1, 4096, 4),
            load(2, 1, 5),
            load(1, 2, 6),
        ]
        .concat();
        assert_eq!(
            reuse(&format!("{GID}{body}")),
            [None, Some(0), Some(0), None, None, Some(2)]
        );
    }

    #[test]
    fn a_load_the_l1_never_serves_brings_nothing_in() {
        let body = [load(1, 0, 1), load(1, 1, 2)].concat().replacen(
            "ld.global.f32",
            "ld.volatile.global.f32",
            1,
        );
        assert_eq!(reuse(&format!("{GID}{body}")), [None, None]);
        let body = [load(1, 0, 1), load(1, 1, 2)].concat().replacen(
            "ld.global.f32",
            "ld.global.cg.f32",
            1,
        );
        assert_eq!(reuse(&format!("{GID}{body}")), [None, None]);
    }

    #[test]
    fn only_an_earlier_load_that_runs_as_often_counts() {
        // The first load in a loop, the second after it: the loop's last pass brought
        // other sectors, so no reuse; inside the loop a neighbour of the loop's own load
        // is reused in every pass.
        let body = format!(
            "{GID}$L__BB0_1:\n{}{}setp.lt.u64 %p1, %rd5, 100;\n@%p1 bra $L__BB0_1;\n{}ret;",
            load(1, 0, 1),
            load(1, 1, 2),
            load(1, 2, 3)
        );
        assert_eq!(reuse(&body), [None, Some(0), None]);
        // A load under a branch does not dominate the one after the join.
        let body = format!(
            "{GID}setp.lt.u64 %p1, %rd5, 100;\n@%p1 bra $L__BB0_2;\n{}$L__BB0_2:\n{}ret;",
            load(1, 0, 1),
            load(1, 1, 2)
        );
        assert_eq!(reuse(&body), [None, None]);
        // Before the branch it does.
        let body = format!(
            "{GID}{}setp.lt.u64 %p1, %rd5, 100;\n@%p1 bra $L__BB0_2;\n{}$L__BB0_2:\n{}ret;",
            load(1, 0, 1),
            load(2, 0, 2),
            load(1, 1, 3)
        );
        assert_eq!(reuse(&body), [None, None, Some(1)]);
    }

    #[test]
    fn an_address_the_whole_launch_shares_is_reused_and_a_per_group_one_not() {
        // x[3] (the parameter plus 12 bytes), x[ntid.x] and x[ctaid.x]: the first two are
        // the same for every work-item of the launch, the third one per work-group.
        let body = "ld.param.u64 %rd1, [k_param_0];\nld.global.f32 %f1, [%rd1+12];\n\
            mov.u32 %r1, %ntid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
            ld.global.f32 %f2, [%rd3];\nmov.u32 %r2, %ctaid.x;\nmul.wide.u32 %rd4, %r2, 4;\n\
            add.s64 %rd5, %rd1, %rd4;\nld.global.f32 %f3, [%rd5];\n\
            ld.volatile.global.f32 %f4, [%rd1+12];";
        assert_eq!(reuse(body), [Some(0), Some(0), None, None]);
    }

    #[test]
    fn the_same_address_read_again_after_a_store_is_reused() {
        // `EG(2)` read twice with a store to another buffer between (clang keeps both
        // loads: the buffers may alias).
        let body = format!(
            "{GID}{}add.s64 %rd30, %rd2, %rd3;\nst.global.f32 [%rd30], %f1;\n{}",
            load(1, 0, 1),
            load(1, 0, 2)
        );
        assert_eq!(reuse(&body), [None, Some(0)]);
    }

    #[test]
    fn a_constant_lookup_names_its_table() {
        // table[byte]: affine in the symbol `table` and the loaded byte; a lookup whose
        // address mixes two tables names none.
        let body = "ld.param.u64 %rd1, [k_param_0];\nld.global.u8 %r1, [%rd1];\n\
            cvt.u64.u32 %rd2, %r1;\nshl.b64 %rd3, %rd2, 2;\nmov.u64 %rd4, table;\n\
            add.s64 %rd5, %rd4, %rd3;\nld.const.u32 %r2, [%rd5+1024];\n\
            mov.u64 %rd6, other;\nadd.s64 %rd7, %rd5, %rd6;\nld.const.u32 %r3, [%rd7];";
        let src = format!(
            ".visible .entry k(.param .u64 k_param_0)\n{{\n.reg .b32 %r<4>;\n\
             .reg .b64 %rd<8>;\n{body}\n}}\n"
        );
        let m = parse(&src).unwrap();
        let tables = constant_tables(&m.functions[0]);
        assert_eq!(tables.len(), 1);
        assert_eq!(tables.values().next().map(String::as_str), Some("table"));
    }

    #[test]
    fn a_long_chain_of_definitions_ends_in_an_atom() {
        // p1 = p0 + 4, p2 = p1 + 4, ... 10,000 deep: the forms stay finite and the loads
        // at the chain's end still compare (both cut at the same depth).
        let mut body = String::from("ld.param.u64 %rd0, [k_param_0];\n");
        for k in 1..=10_000 {
            body.push_str(&format!("add.s64 %rd{k}, %rd{}, 4;\n", k - 1));
        }
        body.push_str("ld.global.f32 %f1, [%rd10000];\nld.global.f32 %f2, [%rd10000+4];\n");
        let src = format!(
            ".visible .entry k(.param .u64 k_param_0)\n{{\n.reg .f32 %f<3>;\n\
             .reg .b64 %rd<10001>;\n{body}\n}}\n"
        );
        let m = parse(&src).unwrap();
        let f = &m.functions[0];
        let mut values = AffineValues::new(f);
        let a = values.register("%rd10000");
        assert_eq!(a.terms.len(), 1);
        assert_eq!(a.offset, 4 * MAX_DEPTH as i64);
    }

    #[test]
    fn affine_forms_see_through_widening_scaling_and_masks() {
        let src = format!(
            ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<20>;\n.reg .f32 %f<20>;\n.reg .b64 %rd<40>;\n\
             {GID}{}\n}}\n",
            load(1, 3, 1)
        );
        let m = parse(&src).unwrap();
        let mut values = AffineValues::new(&m.functions[0]);
        // &x[gid + 3] = rd1 + 4 * (rd3 + tid.x) + 12; rd3 (a product of two unknowns) and
        // the parameter are atoms.
        let expected = Affine {
            terms: BTreeMap::from([
                ("%rd1".to_string(), 1),
                ("%rd3".to_string(), 4),
                ("%tid.x".to_string(), 4),
            ]),
            offset: 12,
        };
        assert_eq!(values.register("%rd17"), expected);
    }

    #[test]
    fn neighbours_within_a_warp_span_are_covered_and_beyond_it_not() {
        // 32 floats a warp, 128 bytes: one float further is in this warp's or the next's.
        assert!(covered(4, 4, 4, 4));
        assert!(covered(4, 4, 4, -4));
        assert!(covered(4, 4, 4, 124));
        // Two warps further: sectors nobody nearby fetched.
        assert!(!covered(4, 4, 4, 256));
        // Every other float fetched (stride 8): the odd ones sit in the same sectors.
        assert!(covered(8, 4, 4, 4));
        // Every 16th float (stride 64, one sector in two): the others are not fetched.
        assert!(!covered(64, 4, 4, 32));
        assert!(covered(64, 4, 4, 4));
    }
}
