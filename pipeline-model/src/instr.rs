//! Instruction classes: what the pipeline model needs to know of an instruction, and
//! nothing of its syntax. The front end (the annotator's PTX classifier) maps each PTX
//! instruction to an [`Instr`].

use serde::{Deserialize, Serialize};

/// The data type family that selects a latency table (f32 -> fp32, f64 -> fp64, else int).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DataKind {
    /// Integers, bits and everything that is not a float.
    Int,
    /// Single (and half) precision floating point.
    Fp32,
    /// Double precision floating point.
    Fp64,
}

/// The arithmetic operation that selects a column of a latency table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ArithOp {
    /// add, sub and their carry forms.
    Add,
    /// min, max.
    Max,
    /// mul, mul24.
    Mul,
    /// mad, mad24, fma.
    Mad,
    /// div, rem.
    Div,
}

/// An instruction class of GPGPU-Sim's mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OpClass {
    /// Arithmetic with a latency-table entry.
    Arith(DataKind, ArithOp),
    /// A special-function-unit operation (sqrt, rsqrt, rcp, sin, cos, ex2, lg2, tanh).
    Sfu,
    /// A load, store or atomic on global memory (or a generic address, which in a kernel
    /// almost always points there).
    GlobalMem,
    /// A load, store or atomic on shared (OpenCL `__local`) memory.
    SharedMem,
    /// An image read or write (OpenCL `read_image*`, `write_image*`): a texture fetch or
    /// surface store on the SM's texture path. NVPTX has no code for them (the calls stay
    /// calls), so the front end classifies the call itself.
    Texture,
    /// Any other memory instruction: parameters, constants, private (local) memory,
    /// PTX texture and surface instructions, prefetches.
    Mem,
    /// Anything else: latency and unit from the `other` row.
    Other,
}

impl OpClass {
    /// The row of the architecture's instruction table (`[ops]`) that times this class
    /// (global and shared accesses fall back to `mem` where their own row is absent:
    /// [`crate::arch::OpTable::get`]).
    pub fn row(self) -> OpRow {
        use ArithOp::*;
        use DataKind::*;
        match self {
            OpClass::Arith(kind, op) => match (kind, op) {
                (Int, Add) => OpRow::IntAdd,
                (Int, Max) => OpRow::IntMax,
                (Int, Mul) => OpRow::IntMul,
                (Int, Mad) => OpRow::IntMad,
                (Int, Div) => OpRow::IntDiv,
                (Fp32, Add) => OpRow::Fp32Add,
                (Fp32, Max) => OpRow::Fp32Max,
                (Fp32, Mul) => OpRow::Fp32Mul,
                (Fp32, Mad) => OpRow::Fp32Mad,
                (Fp32, Div) => OpRow::Fp32Div,
                (Fp64, Add) => OpRow::Fp64Add,
                (Fp64, Max) => OpRow::Fp64Max,
                (Fp64, Mul) => OpRow::Fp64Mul,
                (Fp64, Mad) => OpRow::Fp64Mad,
                (Fp64, Div) => OpRow::Fp64Div,
            },
            OpClass::Sfu => OpRow::Sfu,
            OpClass::GlobalMem => OpRow::MemGlobal,
            OpClass::SharedMem => OpRow::MemShared,
            OpClass::Texture => OpRow::Texture,
            OpClass::Mem => OpRow::Mem,
            OpClass::Other => OpRow::Other,
        }
    }
}

/// Declares [`OpRow`] from one list: its variants in table order, each with its key in the
/// architecture file, and whether a description must give it.
macro_rules! op_rows {
    ($($(#[$doc:meta])* $row:ident = $name:literal, $required:literal;)*) => {
        /// A row of an architecture's instruction table (`[ops]` in its file): one per
        /// instruction class of GPGPU-Sim's mapping (docs/design.md, Architecture descriptions).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum OpRow {
            $($(#[$doc])* $row,)*
        }

        impl OpRow {
            /// Every row, in table order.
            pub const ALL: &'static [OpRow] = &[$(OpRow::$row),*];

            /// Its key in the architecture file, e.g. `fp32_div`.
            pub fn name(self) -> &'static str {
                match self {
                    $(OpRow::$row => $name,)*
                }
            }

            /// Whether every description must give it (the others fall back to `mem`).
            pub fn required(self) -> bool {
                match self {
                    $(OpRow::$row => $required,)*
                }
            }
        }
    };
}

op_rows! {
    /// Integer add, subtract and their carry forms.
    IntAdd = "int_add", true;
    /// Integer min and max.
    IntMax = "int_max", true;
    /// Integer multiply.
    IntMul = "int_mul", true;
    /// Integer multiply-add.
    IntMad = "int_mad", true;
    /// Integer divide and remainder.
    IntDiv = "int_div", true;
    /// Single-precision add.
    Fp32Add = "fp32_add", true;
    /// Single-precision min and max.
    Fp32Max = "fp32_max", true;
    /// Single-precision multiply.
    Fp32Mul = "fp32_mul", true;
    /// Single-precision multiply-add and fma.
    Fp32Mad = "fp32_mad", true;
    /// Single-precision divide.
    Fp32Div = "fp32_div", true;
    /// Double-precision add.
    Fp64Add = "fp64_add", true;
    /// Double-precision min and max.
    Fp64Max = "fp64_max", true;
    /// Double-precision multiply.
    Fp64Mul = "fp64_mul", true;
    /// Double-precision multiply-add and fma.
    Fp64Mad = "fp64_mad", true;
    /// Double-precision divide.
    Fp64Div = "fp64_div", true;
    /// Transcendentals and square roots (sqrt, rsqrt, rcp, sin, cos, ex2, lg2, tanh).
    Sfu = "sfu", true;
    /// Loads, stores and atomics; the latency is the best case (an L1 hit, coalesced).
    Mem = "mem", true;
    /// Those on global memory, if they differ from `mem`.
    MemGlobal = "mem_global", false;
    /// Those on shared (OpenCL local) memory, if they differ from `mem`.
    MemShared = "mem_shared", false;
    /// Image reads and writes on the texture path (the texture cache's hit latency; the
    /// initiation interval the texture units' rate gives), if they differ from `mem`.
    Texture = "texture", false;
    /// Everything else (moves, compares, logic, conversions, branches).
    Other = "other", true;
}

impl std::fmt::Display for OpRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for OpRow {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OpRow::ALL
            .iter()
            .copied()
            .find(|r| r.name() == s)
            .ok_or_else(|| format!("`{s}` is no instruction class (ops row)"))
    }
}

impl Serialize for OpRow {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for OpRow {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// A register, interned by the front end (distinct registers have distinct numbers).
pub type Reg = u32;

/// One warp instruction as the pipeline model sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instr {
    /// Its class.
    pub class: OpClass,
    /// Registers read, predicates included (they create read-after-write dependencies).
    pub reads: Vec<Reg>,
    /// Registers written.
    pub writes: Vec<Reg>,
    /// General-purpose registers the operand collector reads (OC -> EX latency, >= 1).
    pub operand_reads: u32,
    /// Bytes one work-item moves between the SM and global memory (loads, stores and
    /// atomics on global or generic addresses); 0 for everything else.
    pub global_bytes: u32,
    /// How the warp's access behaves in the memory system, when the front end analysed its
    /// address (global and shared accesses); `None` times it with its class's row.
    pub access: Option<MemAccess>,
    /// Whether it transfers control (a branch, return or exit): the warp fetches what
    /// follows only once it has resolved.
    pub branch: bool,
    /// The part of an address it computes that native code may not execute
    /// ([`Addressing::None`]: none, it is no such arithmetic): of shared-memory accesses,
    /// `base + index * 2^k` with a warp-uniform base (the addressing mode holds it), or the
    /// add of a global address's `base + i * 4` (fused into the multiply). Where the
    /// architecture absorbs that part (`frontend.native_addressing`) it takes no fetch,
    /// issue or unit, and its readers wait on what it read instead
    /// ([`crate::Architecture::folds`]).
    pub addressing: Addressing,
}

/// The part of a shared-memory address an instruction computes, as addressing modes hold
/// it (from the least to the most a mode absorbs).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Addressing {
    /// Nothing: every PTX instruction runs (a simulator of PTX).
    #[default]
    None,
    /// The add of a uniform base (and constant offset) to the index: `[R+UR+imm]` (and a
    /// global address's add, fused into the 64-bit multiply before it: `IMAD.WIDE`).
    Base,
    /// The index's scaling by 1, 2, 4, 8 or 16 too: `[R.X4+UR+imm]`.
    ScaledIndex,
}

/// The memory level that serves a global access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemLevel {
    /// The SM's L1 data cache.
    L1,
    /// The GPU's L2 cache.
    L2,
    /// DRAM.
    Dram,
    /// The SM's constant cache (a `__constant` load whose lanes read different
    /// addresses; a uniform one is a broadcast, not analysed).
    Constant,
}

impl MemLevel {
    /// The name used in reports (`L1`, `L2`, `DRAM`).
    pub fn name(self) -> &'static str {
        match self {
            MemLevel::L1 => "L1",
            MemLevel::L2 => "L2",
            MemLevel::Dram => "DRAM",
            MemLevel::Constant => "constant",
        }
    }
}

/// What one warp-wide memory instruction costs the memory system, from an analysis of its
/// address across the warp's lanes (the annotator's `access` module).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MemAccess {
    /// The level a global access is charged at (its load-to-use latency); for a shared
    /// access, [`MemLevel::L1`] (the shared memory's own latency applies).
    pub level: MemLevel,
    /// Times the access occupies the SM's memory pipeline: the distinct 128-byte lines a
    /// global access touches (the coalescer issues one request per line), or the
    /// bank-conflict degree of a shared access (one pass per conflicting word). At least 1.
    pub transactions: u32,
    /// The distinct 32-byte sectors a global access moves (what DRAM and L2 bandwidth are
    /// spent on); 0 for shared accesses.
    pub sectors: u32,
    /// For a global load whose sectors an earlier load of the same work-group brought into
    /// the L1 (`x[i + 1]` after `x[i]`, a value read again): the 128-byte lines one warp
    /// brings in between the two (its reuse distance). The L1 serves it where it still
    /// holds them ([`Architecture::l1_keeps`](crate::Architecture::l1_keeps)); else it
    /// is charged at `level`. For a [`MemLevel::Constant`] load: the lines of the table
    /// it reads, less one (whether the constant cache holds it:
    /// [`ConstantCache::pass_for`](crate::ConstantCache::pass_for)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reuse_lines: Option<u32>,
    /// For a warp-uniform global load charged at the L1 that a loop moves each iteration
    /// by less than a 128-byte line (one that moves a line or more is charged at the L2):
    /// the bytes it moves. Where the L1 fills a miss in pieces no larger than that
    /// (`memory.fetch_bytes`: the 32-byte sectors of Volta and later), every iteration
    /// finds a piece no warp has brought in, and the L2 serves it
    /// ([`Architecture::serving_level`](crate::Architecture::serving_level)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_bytes: Option<u32>,
}

impl Addressing {
    /// Whether it is [`Addressing::None`].
    pub fn is_none(&self) -> bool {
        *self == Addressing::None
    }
}

impl Instr {
    /// An instruction of `class` reading `reads` and writing `writes`; every read register
    /// is counted by the operand collector.
    pub fn new(class: OpClass, reads: &[Reg], writes: &[Reg]) -> Self {
        Instr {
            class,
            reads: reads.to_vec(),
            writes: writes.to_vec(),
            operand_reads: reads.len() as u32,
            global_bytes: 0,
            access: None,
            branch: false,
            addressing: Addressing::None,
        }
    }

    /// The same instruction, moving `bytes` per work-item to or from global memory.
    pub fn with_global_bytes(mut self, bytes: u32) -> Self {
        self.global_bytes = bytes;
        self
    }

    /// The same instruction, transferring control.
    pub fn as_branch(mut self) -> Self {
        self.branch = true;
        self
    }

    /// The same instruction, marked as the `part` of a shared-memory address an
    /// addressing mode can absorb.
    pub fn as_addressing(mut self, part: Addressing) -> Self {
        self.addressing = part;
        self
    }

    /// The same instruction, with its analysed memory behaviour.
    pub fn with_access(mut self, access: MemAccess) -> Self {
        self.access = Some(access);
        self
    }
}
