//! PTX as LLVM's NVPTX back end emits it: the intermediate representation and its parser.
//!
//! A [`Module`] holds the source files of the `.file` table and every function; a
//! [`Function`]'s body is split into basic blocks ([`Block`]) with their successors, so a
//! function is already its binary control-flow graph. Every instruction keeps the source
//! location of the `.loc` directive in force where it stands.

mod blocks;
mod error;
mod lexer;
mod parser;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use error::ParseError;
pub use parser::parse;

/// A parsed PTX module.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Module {
    /// `.version`, e.g. `7.8`.
    pub version: Option<String>,
    /// `.target` entries, e.g. `["sm_90", "debug"]`.
    pub target: Vec<String>,
    /// `.address_size`.
    pub address_size: Option<u32>,
    /// The `.file` table: (index, path).
    pub files: Vec<(u32, String)>,
    /// Kernels (`.entry`) and functions (`.func`), in the order they appear.
    pub functions: Vec<Function>,
    /// Module-scope variables (`.shared`, `.global`, `.const`, `.local`).
    pub variables: Vec<Variable>,
}

/// A variable declared in a state space, at module scope or in a function body. OpenCL
/// `__local` arrays of a kernel become `.shared` variables named `<kernel>_$_<name>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variable {
    /// State space: `.shared`, `.global`, `.const` or `.local`.
    pub space: String,
    /// Its name.
    pub name: String,
    /// Its size in bytes (0 for an unsized `[]` array).
    pub bytes: u64,
    /// The PTX line of its declaration.
    pub ptx_line: u32,
}

impl Module {
    /// The path of `.file` entry `index`.
    pub fn file(&self, index: u32) -> Option<&str> {
        self.files
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, p)| p.as_str())
    }

    /// The kernels (`.entry` functions with a body).
    pub fn kernels(&self) -> impl Iterator<Item = &Function> {
        self.functions
            .iter()
            .filter(|f| f.kind == FunctionKind::Kernel && f.has_body)
    }

    /// A function with a body, by name.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name && f.has_body)
    }
}

/// Kernel or device function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FunctionKind {
    /// `.entry`.
    Kernel,
    /// `.func`.
    Function,
}

/// A kernel or device function.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Kernel or function.
    pub kind: FunctionKind,
    /// Parameters as written (`.param .u64 vadd_param_0`).
    pub params: Vec<String>,
    /// Return parameters of a `.func`.
    pub returns: Vec<String>,
    /// Register declarations.
    pub registers: Vec<RegDecl>,
    /// Variables declared in the body: `.local` depots, `.param` call arguments, and the
    /// `.shared` arrays of the kernel's `__local` variables (LLVM "demotes" them here).
    pub locals: Vec<Variable>,
    /// Whether it has a body (a declaration has none).
    pub has_body: bool,
    /// Basic blocks; block 0 is the entry.
    pub blocks: Vec<Block>,
    /// The PTX line of its `.entry` / `.func`.
    pub ptx_line: u32,
}

impl Function {
    /// Bytes of each work-item's private frame kept in memory: its `.local` variables (a
    /// private array indexed at run time, spilled registers).
    pub fn frame_bytes(&self) -> u64 {
        self.locals
            .iter()
            .filter(|v| v.space == ".local")
            .map(|v| v.bytes)
            .sum()
    }
}

/// A `.reg` declaration: `.reg .b32 %r<6>;` declares `%r0`..`%r5`; `.reg .b64 %SP;` one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegDecl {
    /// The type, e.g. `.pred`, `.b32`, `.f64`.
    pub ty: String,
    /// The name or, with `count`, the prefix.
    pub name: String,
    /// `Some(n)` for a parameterised declaration `name<n>`.
    pub count: Option<u32>,
}

impl RegDecl {
    /// Whether this declaration declares register `reg`.
    pub fn declares(&self, reg: &str) -> bool {
        match self.count {
            None => reg == self.name,
            Some(n) => reg
                .strip_prefix(self.name.as_str())
                .and_then(|suffix| suffix.parse::<u32>().ok())
                .is_some_and(|i| i < n),
        }
    }

    /// Whether these are predicate registers.
    pub fn is_predicate(&self) -> bool {
        self.ty == ".pred"
    }

    /// 32-bit hardware registers one of these occupies: 0 for predicates (they have their
    /// own file), 2 for 64-bit types, 1 otherwise; vector declarations count every lane.
    pub fn width_in_words(&self) -> u32 {
        if self.is_predicate() {
            return 0;
        }
        let lanes = if self.ty.contains(".v4") {
            4
        } else if self.ty.contains(".v2") {
            2
        } else {
            1
        };
        let words = if self.ty.contains("64") { 2 } else { 1 };
        lanes * words
    }
}

/// A basic block: a maximal sequence of instructions entered only at its start.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Block {
    /// The label that starts it (`$L__BB0_2`), if any.
    pub label: Option<String>,
    /// Its instructions; may be empty (a label followed directly by another).
    pub instrs: Vec<Instruction>,
    /// Indices of the blocks control may pass to next.
    pub successors: Vec<usize>,
}

/// A source location from a `.loc` directive.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SourceLoc {
    /// Index into the module's `.file` table.
    pub file: u32,
    /// Line; 0 means "no source line" (compiler-generated code).
    pub line: u32,
    /// Column.
    pub col: u32,
    /// `inlined_at file line col`: the call site this code was inlined into.
    pub inlined_at: Option<Box<SourceLoc>>,
}

impl SourceLoc {
    /// The outermost call site: where the code stands in the function it was inlined into.
    pub fn outermost(&self) -> &SourceLoc {
        let mut loc = self;
        while let Some(next) = &loc.inlined_at {
            loc = next;
        }
        loc
    }
}

/// A guard predicate: `@%p1` or `@!%p1`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guard {
    /// The predicate register.
    pub reg: String,
    /// `@!`.
    pub negated: bool,
}

/// An instruction operand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Operand {
    /// A register, general-purpose (`%r1`) or special (`%tid.x`); a leading `!` negates a
    /// predicate operand.
    Reg {
        /// Its name.
        name: String,
        /// Written `!%p`.
        negated: bool,
    },
    /// A literal as written.
    Imm(String),
    /// A label, function, parameter or variable name.
    Symbol(String),
    /// `[base+offset]`.
    Address {
        /// Register or symbol, absent for an absolute address.
        base: Option<Box<Operand>>,
        /// Byte offset.
        offset: i64,
    },
    /// `{a, b, ...}`: a vector of registers.
    Vector(Vec<Operand>),
    /// `(a, b, ...)`: the return or argument list of a call.
    List(Vec<Operand>),
    /// `a|b`: two destinations (setp, shfl).
    Pair(Box<Operand>, Box<Operand>),
}

impl Operand {
    /// Every register named inside this operand.
    pub fn registers(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.collect_registers(&mut out);
        out
    }

    fn collect_registers<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Operand::Reg { name, .. } => out.push(name),
            Operand::Imm(_) | Operand::Symbol(_) => {}
            Operand::Address { base, .. } => {
                if let Some(b) = base {
                    b.collect_registers(out)
                }
            }
            Operand::Vector(v) | Operand::List(v) => {
                v.iter().for_each(|o| o.collect_registers(out))
            }
            Operand::Pair(a, b) => {
                a.collect_registers(out);
                b.collect_registers(out);
            }
        }
    }

    /// Every symbol named inside this operand, without `+offset`.
    pub fn symbols(&self) -> Vec<&str> {
        match self {
            Operand::Symbol(s) => vec![s.split('+').next().unwrap_or(s)],
            Operand::Address { base: Some(b), .. } => b.symbols(),
            Operand::Vector(v) | Operand::List(v) => v.iter().flat_map(Operand::symbols).collect(),
            Operand::Pair(a, b) => a.symbols().into_iter().chain(b.symbols()).collect(),
            _ => Vec::new(),
        }
    }

    /// The symbol, if this operand is one.
    pub fn symbol(&self) -> Option<&str> {
        match self {
            Operand::Symbol(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, v: &[Operand]| -> fmt::Result {
            for (i, o) in v.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{o}")?;
            }
            Ok(())
        };
        match self {
            Operand::Reg { name, negated } => {
                write!(f, "{}{name}", if *negated { "!" } else { "" })
            }
            Operand::Imm(s) | Operand::Symbol(s) => write!(f, "{s}"),
            Operand::Address { base, offset } => {
                write!(f, "[")?;
                match base {
                    Some(b) if *offset != 0 => write!(f, "{b}+{offset}")?,
                    Some(b) => write!(f, "{b}")?,
                    None => write!(f, "{offset}")?,
                }
                write!(f, "]")
            }
            Operand::Vector(v) => {
                write!(f, "{{")?;
                list(f, v)?;
                write!(f, "}}")
            }
            Operand::List(v) => {
                write!(f, "(")?;
                list(f, v)?;
                write!(f, ")")
            }
            Operand::Pair(a, b) => write!(f, "{a}|{b}"),
        }
    }
}

/// One PTX instruction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instruction {
    /// `@%p` / `@!%p`.
    pub guard: Option<Guard>,
    /// The full opcode with its modifiers, e.g. `ld.global.nc.v4.f32`.
    pub opcode: String,
    /// Operands in order.
    pub operands: Vec<Operand>,
    /// The `.loc` in force, if any.
    pub loc: Option<SourceLoc>,
    /// Its line in the PTX text.
    pub ptx_line: u32,
}

impl Instruction {
    /// The opcode without modifiers (`ld` of `ld.global.f32`).
    pub fn base(&self) -> &str {
        self.opcode.split('.').next().unwrap_or(&self.opcode)
    }

    /// Its address operand (`[%rd9+1024]`), if it is a memory instruction.
    pub fn address(&self) -> Option<&Operand> {
        self.operands
            .iter()
            .find(|o| matches!(o, Operand::Address { .. }))
    }

    /// The modifiers after the base (`["global", "f32"]` of `ld.global.f32`).
    pub fn modifiers(&self) -> impl Iterator<Item = &str> {
        self.opcode.split('.').skip(1)
    }

    /// Whether control never falls through to the next instruction.
    pub fn is_unconditional_transfer(&self) -> bool {
        self.guard.is_none() && matches!(self.base(), "bra" | "brx" | "ret" | "exit" | "trap")
    }

    /// Whether this instruction ends a basic block.
    pub fn ends_block(&self) -> bool {
        matches!(self.base(), "bra" | "brx" | "ret" | "exit" | "trap")
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(g) = &self.guard {
            write!(f, "@{}{} ", if g.negated { "!" } else { "" }, g.reg)?;
        }
        write!(f, "{}", self.opcode)?;
        for (i, o) in self.operands.iter().enumerate() {
            write!(f, "{}{o}", if i == 0 { " " } else { ", " })?;
        }
        Ok(())
    }
}
