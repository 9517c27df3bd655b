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
    /// Any other memory instruction: parameters, constants, private (local) memory,
    /// textures, prefetches.
    Mem,
    /// Anything else: latency and unit from the `other` row.
    Other,
}

impl OpClass {
    /// The name of the architecture table row, e.g. `fp32_div`.
    pub fn row_name(self) -> String {
        match self {
            OpClass::Arith(kind, op) => {
                let kind = match kind {
                    DataKind::Int => "int",
                    DataKind::Fp32 => "fp32",
                    DataKind::Fp64 => "fp64",
                };
                let op = match op {
                    ArithOp::Add => "add",
                    ArithOp::Max => "max",
                    ArithOp::Mul => "mul",
                    ArithOp::Mad => "mad",
                    ArithOp::Div => "div",
                };
                format!("{kind}_{op}")
            }
            OpClass::Sfu => "sfu".into(),
            OpClass::GlobalMem => "mem_global".into(),
            OpClass::SharedMem => "mem_shared".into(),
            OpClass::Mem => "mem".into(),
            OpClass::Other => "other".into(),
        }
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
    /// Whether it is address arithmetic that native code does not execute: it computes only
    /// the address of shared-memory accesses, as `base + index * 2^k` with a warp-uniform
    /// base (the addressing mode holds it), or it is the add of a global address's
    /// `base + i * 4` (fused into the multiply). Where the architecture's addressing mode holds that part
    /// (`frontend.native_addressing`) it takes no fetch, issue or unit, and its readers
    /// wait on what it read instead ([`crate::Architecture::folds`]).
    pub addressing: Option<Addressing>,
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
}

impl MemLevel {
    /// The name used in reports (`L1`, `L2`, `DRAM`).
    pub fn name(self) -> &'static str {
        match self {
            MemLevel::L1 => "L1",
            MemLevel::L2 => "L2",
            MemLevel::Dram => "DRAM",
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
            addressing: None,
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
        self.addressing = Some(part);
        self
    }

    /// The same instruction, with its analysed memory behaviour.
    pub fn with_access(mut self, access: MemAccess) -> Self {
        self.access = Some(access);
        self
    }
}
