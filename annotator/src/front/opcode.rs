//! What a PTX opcode says by itself, before any analysis: its instruction class (GPGPU-Sim's
//! mapping, docs/design.md), which operand it writes, the state space it addresses and the
//! bytes one lane moves. The classifier, the access analysis and the addressing analysis
//! all read these facts.

use pipeline_model::{ArithOp, DataKind, OpClass};

use crate::front::ptx::{Instruction, Operand};

/// Every opcode of the PTX ISA (8.x), so that only a truly unknown one is warned about.
pub(crate) const KNOWN_OPCODES: &[&str] = &[
    "abs",
    "activemask",
    "add",
    "addc",
    "alloca",
    "and",
    "applypriority",
    "atom",
    "bar",
    "barrier",
    "bfe",
    "bfi",
    "bfind",
    "bmsk",
    "bra",
    "brev",
    "brkpt",
    "brx",
    "call",
    "clusterlaunchcontrol",
    "clz",
    "cnot",
    "copysign",
    "cos",
    "cp",
    "createpolicy",
    "cvt",
    "cvta",
    "discard",
    "div",
    "dp2a",
    "dp4a",
    "elect",
    "ex2",
    "exit",
    "fence",
    "fma",
    "fns",
    "getctarank",
    "griddepcontrol",
    "isspacep",
    "istypeof",
    "ld",
    "ldmatrix",
    "ldu",
    "lg2",
    "lop3",
    "mad",
    "mad24",
    "madc",
    "mapa",
    "match",
    "max",
    "mbarrier",
    "membar",
    "min",
    "mma",
    "mov",
    "movmatrix",
    "mul",
    "mul24",
    "multimem",
    "nanosleep",
    "neg",
    "not",
    "or",
    "pmevent",
    "popc",
    "prefetch",
    "prefetchu",
    "prmt",
    "rcp",
    "red",
    "redux",
    "rem",
    "ret",
    "rsqrt",
    "sad",
    "selp",
    "set",
    "setmaxnreg",
    "setp",
    "shf",
    "shfl",
    "shl",
    "shr",
    "sin",
    "slct",
    "sqrt",
    "st",
    "stackrestore",
    "stacksave",
    "stmatrix",
    "sub",
    "subc",
    "suld",
    "suq",
    "sured",
    "sust",
    "szext",
    "tanh",
    "tcgen05",
    "tensormap",
    "testp",
    "tex",
    "tld4",
    "trap",
    "txq",
    "vabsdiff",
    "vabsdiff2",
    "vabsdiff4",
    "vadd",
    "vadd2",
    "vadd4",
    "vavrg2",
    "vavrg4",
    "vmad",
    "vmax",
    "vmax2",
    "vmax4",
    "vmin",
    "vmin2",
    "vmin4",
    "vote",
    "vset",
    "vset2",
    "vset4",
    "vshl",
    "vshr",
    "vsub",
    "vsub2",
    "vsub4",
    "wgmma",
    "wmma",
    "xor",
];

/// Opcodes whose first operand is not a destination register.
const NO_DESTINATION: &[&str] = &[
    "bar",
    "barrier",
    "bra",
    "brx",
    "brkpt",
    "call",
    "cp",
    "exit",
    "fence",
    "membar",
    "nanosleep",
    "pmevent",
    "prefetch",
    "prefetchu",
    "red",
    "ret",
    "st",
    "sured",
    "sust",
    "trap",
    "griddepcontrol",
    "stmatrix",
    "discard",
    "applypriority",
];

/// The instruction class of a PTX opcode (GPGPU-Sim's mapping), and whether the opcode is
/// known at all (an unknown one is `Other`).
pub fn op_class(instr: &Instruction) -> (OpClass, bool) {
    let base = instr.base();
    let kind = data_kind(instr);
    let arith = |op| OpClass::Arith(kind, op);
    let class = match base {
        "add" | "sub" | "addc" | "subc" => arith(ArithOp::Add),
        "min" | "max" => arith(ArithOp::Max),
        "mul" | "mul24" => arith(ArithOp::Mul),
        "mad" | "mad24" | "madc" | "fma" => arith(ArithOp::Mad),
        "div" | "rem" => arith(ArithOp::Div),
        "sqrt" | "rsqrt" | "rcp" | "sin" | "cos" | "ex2" | "lg2" | "tanh" => OpClass::Sfu,
        "ld" | "ldu" | "st" | "atom" | "red" if space(instr) == Space::Global => OpClass::GlobalMem,
        "ld" | "ldu" | "st" | "atom" | "red" if space(instr) == Space::Shared => OpClass::SharedMem,
        "ld" | "ldu" | "st" | "atom" | "red" | "prefetch" | "prefetchu" | "tex" | "tld4"
        | "suld" | "sust" | "sured" | "cp" | "ldmatrix" | "stmatrix" => OpClass::Mem,
        "call" if image_access(instr) => OpClass::Texture,
        _ => OpClass::Other,
    };
    (class, KNOWN_OPCODES.binary_search(&base).is_ok())
}

/// The function a `call` calls (`call.uni (retval0), f, (param0)`: `f`).
pub fn callee(instr: &Instruction) -> Option<&str> {
    if instr.base() != "call" {
        return None;
    }
    instr.operands.iter().find_map(Operand::symbol)
}

/// Whether `instr` calls an OpenCL image read or write (`read_imagef`, `write_imageui`,
/// ...). NVPTX has no code for them: libclc leaves them undefined and the PTX keeps the
/// call, where a GPU's compiler emits a texture fetch or a surface store.
pub fn image_access(instr: &Instruction) -> bool {
    callee(instr).is_some_and(is_image_access)
}

/// Whether a function of this (mangled or plain) name is an image read or write.
pub fn is_image_access(symbol: &str) -> bool {
    let name = demangled_name(symbol);
    ["read_image", "write_image"].iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|t| ["f", "i", "ui", "h"].contains(&t))
    })
}

/// The source name of an Itanium-mangled function name (`_Z11read_imagef...` ->
/// `read_imagef`); other names as they are.
pub fn demangled_name(symbol: &str) -> &str {
    let Some(rest) = symbol.strip_prefix("_Z") else {
        return symbol;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    match rest[..digits].parse::<usize>() {
        Ok(n) if digits + n <= rest.len() => &rest[digits..digits + n],
        _ => symbol,
    }
}

/// The state space a memory instruction names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Space {
    /// `.global`, or none: a generic address, which in a kernel almost always points into a
    /// global buffer.
    Global,
    /// `.shared`.
    Shared,
    /// `.local`, `.const`, `.param`, `.tex`.
    Other,
}

fn space(instr: &Instruction) -> Space {
    for m in instr.modifiers() {
        match m {
            "global" => return Space::Global,
            "shared" => return Space::Shared,
            "local" | "const" | "param" | "tex" => return Space::Other,
            _ => {}
        }
    }
    Space::Global
}

/// Bytes one work-item moves to or from global memory: loads, stores and atomics on
/// global (or generic) addresses. The vector width times the element type's size; 0 for
/// everything else.
pub fn global_bytes(instr: &Instruction) -> u32 {
    if !matches!(instr.base(), "ld" | "ldu" | "st" | "atom" | "red")
        || space(instr) != Space::Global
    {
        return 0;
    }
    access_width(instr)
}

/// f64 -> fp64; f32, f16, bf16, tf32 -> fp32; anything else -> int.
fn data_kind(instr: &Instruction) -> DataKind {
    let mut kind = DataKind::Int;
    for m in instr.modifiers() {
        match m {
            "f64" => return DataKind::Fp64,
            "f32" | "f16" | "f16x2" | "bf16" | "bf16x2" | "tf32" | "ftz" => kind = DataKind::Fp32,
            _ => {}
        }
    }
    kind
}

/// `instr`'s operands split into what it writes (its first operand, or nothing) and
/// what it reads.
pub fn source_operands(instr: &Instruction) -> (&[Operand], &[Operand]) {
    let has_dst = !NO_DESTINATION.contains(&instr.base())
        && matches!(
            instr.operands.first(),
            Some(Operand::Reg { .. } | Operand::Vector(_) | Operand::Pair(..))
        );
    instr.operands.split_at(usize::from(has_dst))
}

/// Bytes one lane moves: the vector width times the element type's size.
pub fn access_width(instr: &Instruction) -> u32 {
    let (mut lanes, mut size) = (1, 0);
    for m in instr.modifiers() {
        match m {
            "v2" => lanes = 2,
            "v4" => lanes = 4,
            "v8" => lanes = 8,
            "b8" | "u8" | "s8" => size = 1,
            "b16" | "u16" | "s16" | "f16" | "bf16" => size = 2,
            "b32" | "u32" | "s32" | "f32" | "f16x2" | "bf16x2" => size = 4,
            "b64" | "u64" | "s64" | "f64" => size = 8,
            "b128" => size = 16,
            _ => {}
        }
    }
    lanes * size
}
