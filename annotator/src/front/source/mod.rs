//! The OpenCL C source as libclang sees it: the functions of the kernel file with their
//! statement trees, every node with its exact extent in the file, so that the annotator
//! can find source basic blocks and insert code at precise byte offsets.
//!
//! [`parse`] is the only entry point; the libclang FFI lives in `clang.rs`, and everything
//! past it works on the owned tree defined here.

pub mod cfg;
mod clang;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::front::compile::{BuildOptions, Compiler};

/// A position in the kernel file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Byte offset from the start of the file.
    pub offset: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in bytes).
    pub col: u32,
}

/// A half-open range `[start, end)` of the kernel file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Extent {
    /// First byte.
    pub start: Pos,
    /// One past the last byte.
    pub end: Pos,
}

/// The kinds of AST nodes the annotator tells apart; everything else is `Expr` (an
/// expression) or `Other` (a declaration, attribute, type reference, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// `{ ... }`.
    Compound,
    /// `if (c) s [else s]`.
    If,
    /// `for (init; cond; inc) s`.
    For,
    /// `while (c) s`.
    While,
    /// `do s while (c);`.
    Do,
    /// `switch (c) s`.
    Switch,
    /// `case v: s`.
    Case,
    /// `default: s`.
    Default,
    /// `break;`.
    Break,
    /// `continue;`.
    Continue,
    /// `return [e];`.
    Return,
    /// `goto l;`.
    Goto,
    /// `l: s`.
    Label,
    /// `;`.
    Null,
    /// A statement with attributes: `#pragma unroll N` (or `nounroll`) or
    /// `__attribute__((opencl_unroll_hint(N)))` in front of a loop, `__attribute__((...))`
    /// in front of another statement. Its last child is the statement; the attribute
    /// belongs to it, so code can be inserted before the attributed statement as a whole,
    /// never between the attribute and the statement.
    Attributed,
    /// A declaration statement (`int i = 0;`).
    Decl,
    /// `c ? a : b`.
    Conditional,
    /// `a && b`.
    LogicalAnd,
    /// `a || b`.
    LogicalOr,
    /// `a , b`.
    Comma,
    /// A call; `spelling` is the callee.
    Call,
    /// Any other expression.
    Expr,
    /// Anything else.
    Other,
}

impl NodeKind {
    /// Whether this kind is a statement that controls the flow (if, loops, switch, jumps).
    pub fn is_control(self) -> bool {
        use NodeKind::*;
        matches!(
            self,
            If | For
                | While
                | Do
                | Switch
                | Case
                | Default
                | Break
                | Continue
                | Return
                | Goto
                | Label
                | Attributed
        )
    }
}

/// A node of a function body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AstNode {
    /// What it is.
    pub kind: NodeKind,
    /// Where it is. For code expanded from a macro: the macro invocation.
    pub extent: Extent,
    /// The name for calls (the callee) and declarations, else empty.
    pub spelling: String,
    /// Whether it was written in a macro's definition rather than here: no code can be
    /// inserted inside it.
    pub in_macro: bool,
    /// Children in source order. A `for` has four (init, condition, increment, body), any
    /// of the first three possibly a `Null` placeholder; an `if` has two or three.
    pub children: Vec<AstNode>,
    /// For an array subscript `base[index]`: what an access through it addresses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscript: Option<Subscript>,
    /// What it does with values and variables, where [`crate::analysis::control`] must know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    /// For an expression, variable or parameter of an integer type: the type and what
    /// the expression computes, where [`crate::back::host_paths`] must know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int: Option<IntExpr>,
}

/// An integer type of OpenCL C: its width and signedness (`bits` 1 is `bool`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IntType {
    /// Width in bits.
    pub bits: u8,
    /// Whether it is signed.
    pub signed: bool,
}

/// An expression (or declaration) of an integer type: its type and, where it is one,
/// the operator it applies to its children or the literal it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntExpr {
    /// Its type.
    pub ty: IntType,
    /// What it does: an operator, a conversion, or nothing known (`None`: a name, a call,
    /// a literal, or an expression the annotator does not tell apart).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op: Option<Operator>,
    /// An integer or character literal's value (two's complement in 64 bits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub literal: Option<u64>,
}

/// The operators of integer expressions the host evaluates (binary unless said).
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operator {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    LogicalAnd,
    LogicalOr,
    /// Unary `-`.
    Neg,
    /// Unary `+`.
    Plus,
    /// Unary `~`.
    Not,
    /// Unary `!`.
    LogicalNot,
    /// A conversion of its one expression child to this type: an implicit or written
    /// cast, or parentheses.
    Convert,
}

/// What a node does with values and variables, as far as the flow of values from the
/// kernel's arguments and memory to its branches is concerned ([`crate::analysis::control`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "role")]
pub enum Role {
    /// Names a variable, parameter or constant (a `DeclRefExpr`).
    Names(Referent),
    /// Declares a variable of the function's body (its initialiser is a child).
    Declares(Referent),
    /// `lhs = rhs`.
    Assign,
    /// `lhs op= rhs`.
    CompoundAssign,
    /// `++` or `--`, either side.
    Step,
    /// `*p`: reads (or writes) memory.
    Deref,
    /// `&x`: the variable may change behind its name from then on.
    AddressOf,
    /// `p->f`: reads (or writes) memory.
    Arrow,
    /// A call of a function declared in a system header (an OpenCL builtin) or built
    /// into the compiler: it computes from its arguments alone.
    Builtin,
}

/// What a name refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Referent {
    /// A variable declared in a function's body, known by the offset of its declaration;
    /// `value`: it holds a private value (a scalar, vector or struct), not an array, a
    /// pointer or memory shared with other work-items (`__local`).
    Local {
        /// Byte offset of its declaration.
        decl: u32,
        /// Whether it holds a private value.
        value: bool,
    },
    /// A parameter of the function the name is in; `value`: it is passed by value (a
    /// scalar, vector or struct), not a pointer, image, sampler or event.
    Param {
        /// Its position.
        index: u32,
        /// Whether it is passed by value.
        value: bool,
    },
    /// An enumerator, a function, or a program-scope constant scalar.
    Constant,
    /// Anything else (a program-scope variable).
    Global,
}

impl AstNode {
    /// Whether this node or any under it is one `is` accepts.
    pub fn any(&self, is: &dyn Fn(&AstNode) -> bool) -> bool {
        is(self) || self.children.iter().any(|c| c.any(is))
    }

    /// Whether it calls a builtin through which a work-item learns of its work-group or
    /// meets other work-items: the local and group ids and sizes, barriers, the
    /// work-group and sub-group functions, asynchronous copies, atomics (which order
    /// work-items' results) and `printf` (which orders their output).
    pub fn tells_groups_apart(&self) -> bool {
        const PREFIXES: [&str; 11] = [
            "get_local_",
            "get_group_id",
            "get_num_groups",
            "get_enqueued_",
            "get_sub_group",
            "get_num_sub_groups",
            "get_max_sub_group",
            "work_group_",
            "sub_group_",
            "async_work_group",
            "atom",
        ];
        self.kind == NodeKind::Call
            && (self.is_barrier()
                || matches!(self.spelling.as_str(), "wait_group_events" | "printf")
                || PREFIXES.iter().any(|p| self.spelling.starts_with(p)))
    }

    /// Whether it calls a work-group barrier.
    pub fn is_barrier(&self) -> bool {
        self.kind == NodeKind::Call
            && matches!(
                self.spelling.as_str(),
                "barrier" | "work_group_barrier" | "sub_group_barrier"
            )
    }
}

/// An array subscript `base[index]` (children: the base, then the index).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subscript {
    /// The base's name where it is a kernel parameter or an array variable named directly
    /// (the same address in every work-item of a work-group), else empty.
    pub base: String,
    /// Where the base is a parameter: its position among the function's parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<u32>,
    /// Bytes of the element it selects: the index's step in bytes.
    pub element_bytes: u32,
    /// The base is a pointer variable into global, constant or local memory (`p = in +
    /// f(i); ... p[k]`), named in `base`: where it points may differ between work-items,
    /// so a sample of it records the element's address (the pointer's, in elements, plus
    /// the index) rather than the index alone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pointer: bool,
}

/// A function defined in the kernel file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceFunction {
    /// Its name.
    pub name: String,
    /// The whole definition.
    pub extent: Extent,
    /// Its body (a `Compound`).
    pub body: AstNode,
    /// What each parameter is, in order.
    #[serde(default)]
    pub params: Vec<ParamKind>,
}

/// What a kernel parameter is, as the host sees it at `clSetKernelArg`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamKind {
    /// A `__global` or `__constant` pointer: the host passes a buffer (`cl_mem`) or an SVM
    /// pointer.
    Buffer,
    /// A `__local` pointer: the host passes a size.
    Local,
    /// Anything else: a value (scalars, vectors, structs, images, samplers).
    Value,
}

/// The kernel file, parsed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SourceFile {
    /// Its path.
    pub path: PathBuf,
    /// Its text, as libclang read it.
    pub text: String,
    /// The functions defined in it (not in included files), in source order.
    pub functions: Vec<SourceFunction>,
    /// Functions defined here that an included (non-system) file also declares, with
    /// where: the annotator cannot give that declaration the counters' parameter.
    #[serde(default)]
    pub declared_elsewhere: Vec<ForeignDeclaration>,
}

/// A declaration, in an included file, of a function the kernel file defines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForeignDeclaration {
    /// The function.
    pub function: String,
    /// The file that declares it.
    pub file: String,
    /// Its line there.
    pub line: u32,
}

impl SourceFile {
    /// A function by name.
    pub fn function(&self, name: &str) -> Option<&SourceFunction> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// Whether `function`'s body has a `return`.
    pub fn returns(&self, function: &str) -> bool {
        self.function(function)
            .is_some_and(|f| f.body.any(&|n| n.kind == NodeKind::Return))
    }

    /// Whether `function`'s body calls a barrier.
    pub fn has_barrier(&self, function: &str) -> bool {
        self.function(function)
            .is_some_and(|f| f.body.any(&AstNode::is_barrier))
    }

    /// Whether `function`'s work-items may behave differently in work-groups of another
    /// size: its body calls a builtin that [`AstNode::tells_groups_apart`] or a function
    /// whose body is not in this file, or declares a `__local` variable, or the file asks
    /// for a work-group or sub-group size
    /// (`reqd_work_group_size`, `intel_reqd_sub_group_size`). (A `__local` parameter, or
    /// `__local` memory behind a macro, is the caller's to tell: the kernel's parameters
    /// and the compiled code's shared memory.)
    pub fn tells_groups_apart(&self, function: &str) -> bool {
        // A function defined in an included file: its body is not here to look at.
        let unseen_callee = |n: &AstNode| {
            n.kind == NodeKind::Call
                && n.role != Some(Role::Builtin)
                && self.function(&n.spelling).is_none()
        };
        let declares_local = |n: &AstNode| {
            n.kind == NodeKind::Decl
                && self
                    .text_of(&n.extent)
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|word| word == "__local" || word == "local")
        };
        self.text.contains("reqd_")
            || self.function(function).is_some_and(|f| {
                f.body
                    .any(&|n| n.tells_groups_apart() || declares_local(n) || unseen_callee(n))
            })
    }

    /// The text of an extent.
    pub fn text_of(&self, e: &Extent) -> &str {
        self.text
            .get(e.start.offset as usize..e.end.offset as usize)
            .unwrap_or("")
    }
}

/// Why the kernel file could not be parsed.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// libclang could not be used.
    #[error("libclang: {0}")]
    Libclang(String),
    /// The file cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file has errors (libclang's diagnostics, `file:line:col: error: ...`).
    #[error("{path}: cannot be parsed\n{diagnostics}")]
    Diagnostics {
        /// The file.
        path: String,
        /// The error diagnostics.
        diagnostics: String,
    },
}

/// Parses the OpenCL C file `path` with `options` as `compiler` sees it: same language
/// standard, macros, include paths and builtin headers.
pub fn parse(
    path: &Path,
    options: &BuildOptions,
    compiler: &Compiler,
) -> Result<SourceFile, SourceError> {
    let resource_dir = compiler
        .resource_dir()
        .map_err(|e| SourceError::Libclang(e.to_string()))?;
    let text = std::fs::read_to_string(path).map_err(|source| SourceError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let mut args = vec![
        "-x".to_string(),
        "cl".to_string(),
        "-target".to_string(),
        "nvptx64-unknown-nvidiacl".to_string(),
        "-Xclang".to_string(),
        "-finclude-default-header".to_string(),
        "-resource-dir".to_string(),
        resource_dir.display().to_string(),
        // The driver in libclang does not put the builtin headers on the search path for
        // this target as the clang binary does (opencl-c.h includes opencl-c-base.h).
        "-isystem".to_string(),
        resource_dir.join("include").display().to_string(),
    ];
    args.extend(crate::front::compile::GPU_TARGET_EXTENSIONS.map(String::from));
    args.extend(options.clang_args());
    let (mut functions, declared_elsewhere) = clang::parse_functions(path, &args)?;
    for f in &mut functions {
        complete_for_headers(&mut f.body, text.as_bytes());
    }
    Ok(SourceFile {
        path: path.to_path_buf(),
        text,
        functions,
        declared_elsewhere,
    })
}

/// libclang lists only the parts of a `for` that are present; give every `for` its four
/// children (init, condition, increment, body), an empty part as a `Null` node placed
/// where it would stand, found from the `;` and `)` of the header.
fn complete_for_headers(node: &mut AstNode, text: &[u8]) {
    for c in &mut node.children {
        complete_for_headers(c, text);
    }
    if node.kind != NodeKind::For || node.children.len() == 4 {
        return;
    }
    let Some([semi1, semi2, close]) = for_header(text, node.extent.start.offset as usize) else {
        return;
    };
    let mut parts: [Option<AstNode>; 4] = [None, None, None, None];
    for c in node.children.drain(..) {
        let at = c.extent.start.offset as usize;
        let slot = if at < semi1 {
            0
        } else if at < semi2 {
            1
        } else if at < close {
            2
        } else {
            3
        };
        parts[slot] = Some(c);
    }
    let at = |offset: usize| {
        let line = 1 + text[..offset].iter().filter(|&&b| b == b'\n').count() as u32;
        let col = 1 + offset
            - text[..offset]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
        Pos {
            offset: offset as u32,
            line,
            col: col as u32,
        }
    };
    let anchors = [semi1, semi2, close, close];
    node.children = parts
        .into_iter()
        .zip(anchors)
        .map(|(p, anchor)| {
            p.unwrap_or_else(|| AstNode {
                kind: NodeKind::Null,
                extent: Extent {
                    start: at(anchor),
                    end: at(anchor),
                },
                spelling: String::new(),
                in_macro: false,
                children: Vec::new(),
                subscript: None,
                role: None,
                int: None,
            })
        })
        .collect();
}

/// The offsets of the two `;` and the closing `)` of the `for` header starting at
/// `start`, skipping comments, strings and nested parentheses.
fn for_header(text: &[u8], start: usize) -> Option<[usize; 3]> {
    let mut i = start + text.get(start..)?.iter().position(|&b| b == b'(')? + 1;
    let mut depth = 0;
    let mut semis = Vec::new();
    while i < text.len() {
        match text[i] {
            b'/' if text.get(i + 1) == Some(&b'/') => {
                while i < text.len() && text[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if text.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < text.len() && !(text[i] == b'*' && text[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < text.len() && text[i] != q {
                    if text[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'(' => depth += 1,
            b')' if depth == 0 => {
                return match semis[..] {
                    [a, b] => Some([a, b, i]),
                    _ => None,
                };
            }
            b')' => depth -= 1,
            b';' if depth == 0 => semis.push(i),
            _ => {}
        }
        i += 1;
    }
    None
}
