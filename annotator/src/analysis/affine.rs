//! Addresses as affine sums over the values the analysis does not look into (kernel
//! parameters, special registers, loaded values, registers defined more than once), and
//! what a loop adds to them each iteration: the reuse of a load's sectors
//! ([`crate::analysis::reuse`]) and how far a loop moves each load (`load_steps`: the
//! warp-uniform loads that find a new line each iteration, which
//! [`crate::analysis::access`] charges at the L2, and the smaller steps it notes) read
//! them.

use std::collections::{BTreeMap, HashMap};

use crate::front::cfg::Cfg;
use crate::front::ptx::{Function, Instruction, Operand};

/// The value of an integer literal as PTX writes it (`-1`, `0xffffffff`, `4U`), as the
/// 64 bits two's complement gives it; `None` for anything else (a float's `0f3F800000`).
pub(crate) fn integer_immediate(text: &str) -> Option<i64> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits = digits.trim_end_matches(['U', 'u']);
    let value = if let Some(hex) = digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok().map(|v| v as i64)
    } else {
        digits.parse::<i64>().ok()
    };
    value.map(|v| if neg { v.wrapping_neg() } else { v })
}

/// Whether `x & mask` keeps every index an array in memory has: a mask of at least the
/// low 32 bits (`x & 0xffffffff`, LLVM's zero extension of a 32-bit index computed in 64
/// bits).
pub(crate) fn keeps_low_32_bits(mask: i64) -> bool {
    mask == -1 || (mask >= 0xffff_ffff && (mask as u64).wrapping_add(1).is_power_of_two())
}

/// A value as `offset + sum(coefficient * atom)`: atoms are values the analysis does not
/// look into (a parameter, a special register, a loaded value, a register defined more
/// than once), named by their register.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Affine {
    pub(crate) terms: BTreeMap<String, i64>,
    pub(crate) offset: i64,
}

impl Affine {
    pub(crate) fn constant(c: i64) -> Self {
        Affine {
            terms: BTreeMap::new(),
            offset: c,
        }
    }

    pub(crate) fn atom(name: &str) -> Self {
        Affine {
            terms: BTreeMap::from([(name.to_string(), 1)]),
            offset: 0,
        }
    }

    pub(crate) fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.offset)
    }

    pub(crate) fn plus(mut self, other: &Affine, sign: i64) -> Self {
        for (atom, c) in &other.terms {
            let t = self.terms.entry(atom.clone()).or_insert(0);
            *t = t.wrapping_add(c.wrapping_mul(sign));
        }
        self.terms.retain(|_, c| *c != 0);
        self.offset = self.offset.wrapping_add(other.offset.wrapping_mul(sign));
        self
    }

    pub(crate) fn scaled(mut self, by: i64) -> Self {
        for c in self.terms.values_mut() {
            *c = c.wrapping_mul(by);
        }
        self.terms.retain(|_, c| *c != 0);
        self.offset = self.offset.wrapping_mul(by);
        self
    }
}

/// The affine form of every register of one function, computed on demand.
pub(crate) struct AffineValues<'f> {
    /// The one unguarded definition of each register defined exactly once.
    defs: HashMap<&'f str, &'f Instruction>,
    memo: HashMap<&'f str, Affine>,
    /// Definitions being evaluated, one inside the other.
    depth: usize,
}

/// The deepest chain of definitions followed from one register.
pub(crate) const MAX_DEPTH: usize = 256;

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
    pub(crate) fn new(f: &'f Function) -> Self {
        let defs = definitions(f)
            .into_iter()
            .filter_map(|(name, defs)| match defs.as_slice() {
                [(_, def)] if def.guard.is_none() => Some((name, *def)),
                _ => None,
            })
            .collect();
        AffineValues {
            defs,
            memo: HashMap::new(),
            depth: 0,
        }
    }

    pub(crate) fn operand(&mut self, op: &'f Operand) -> Option<Affine> {
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
    pub(crate) fn launch_constant(&self, a: &Affine) -> bool {
        a.terms.keys().all(|atom| {
            let param = || {
                self.defs
                    .get(atom.as_str())
                    .is_some_and(|d| d.base() == "ld" && d.modifiers().any(|m| m == "param"))
            };
            !atom.starts_with('%') || LAUNCH_CONSTANT.contains(&atom.as_str()) || param()
        })
    }

    pub(crate) fn register(&mut self, name: &'f str) -> Affine {
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
    pub(crate) fn definition(&mut self, instr: &'f Instruction) -> Option<Affine> {
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
            // An index clamped to a bound the whole launch shares (`max(i - 1, 0)`,
            // `min(i + 1, n - 1)`: a stencil's edge) is the index in every work-item but
            // the edge ones, so a clamped neighbour reads the sectors its unclamped one
            // brought (`crate::analysis::reuse`). Two launch constants are neither.
            "min" | "max" => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                match (self.launch_constant(&a), self.launch_constant(&b)) {
                    (false, true) => Some(a),
                    (true, false) => Some(b),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// How far a loop moves a global load's address each iteration ([`load_steps`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LoadStep {
    /// A 128-byte line or more, or a step known only at run time.
    Line,
    /// This many bytes, fewer than a line (never 0).
    Bytes(u32),
}

/// The global loads of `f` inside a loop whose address the innermost loop around them
/// moves each iteration, by (block, instruction) position, with how far: their address is
/// affine in a register the loop steps (`add %rd5, %rd5, 512`, or a step known only at
/// run time: a matrix's rows). A warp-uniform load moved by a line or more finds a line
/// no warp of the SM has brought in yet at every iteration: the SM's warps reach it
/// together and every one waits for the first one's trip past the L1 (the corpus's `DCT`:
/// one row of the input a step, `input[(gy * 8 + k) * width + gx * 8 + j]`). One walked in
/// smaller steps (`pos[j]`) stays in the L1's line for several iterations where the L1
/// fills whole lines, and misses it every iteration where it fills pieces no larger than
/// the step (`MemAccess::step_bytes`: SHOC's `reduceNoLocal`, one work-item summing an
/// array eight floats an iteration, takes an L2 trip an iteration on an H100). A load whose
/// address the analysis cannot follow, or a register the loop changes in some other way,
/// is left out.
pub(crate) fn load_steps(f: &Function, cfg: &Cfg) -> HashMap<(usize, usize), LoadStep> {
    let mut affine = AffineValues::new(f);
    let defs = definitions(f);
    let mut out = HashMap::new();
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
            if !(followed && stepped) {
                continue;
            }
            let step = match moved.map(i64::unsigned_abs) {
                Some(m) if m < LINE_BYTES => LoadStep::Bytes(m as u32),
                _ => LoadStep::Line,
            };
            if step != LoadStep::Bytes(0) {
                out.insert((b, i), step);
            }
        }
    }
    out
}

/// Every definition of each register of `f`, with the block it is in, in order: the
/// instructions whose first operand names it (stores, reductions, branches, barriers and
/// returns write no register).
fn definitions(f: &Function) -> HashMap<&str, Vec<(usize, &Instruction)>> {
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
    defs
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
