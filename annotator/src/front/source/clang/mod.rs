//! The libclang FFI edge: parse a translation unit, turn the bodies of the functions
//! defined in the main file into owned [`AstNode`] trees, and dispose of everything.
//! All `unsafe` of the source front end is here and in [`subscript`] (what an array
//! subscript addresses).

// libclang's constants keep their C names.
#![allow(non_upper_case_globals)]

use std::ffi::{CStr, CString};
use std::os::raw::{c_int, c_uint, c_void};
use std::path::Path;
use std::ptr;
use std::sync::{Arc, Mutex, OnceLock};

use clang_sys::*;

mod subscript;

use subscript::subscript;

use super::{
    AstNode, Extent, ForeignDeclaration, IntExpr, IntType, NodeKind, Operator, ParamKind, Pos,
    Referent, Role, SourceError, SourceFunction,
};

/// libclang is thread-safe per index, but one index per parse and a process-wide lock keep
/// the FFI simple; parsing a kernel takes milliseconds.
static LIBCLANG: Mutex<()> = Mutex::new(());

/// Makes libclang callable on this thread, opening it on first use.
///
/// libclang (and the LLVM it links) is opened at the first parse, not when the process
/// starts: the shim lives in every host process, most of whose runs find their
/// annotations cached, and opening the two libraries costs about 20 ms. The library is
/// found as clang-sys finds it at run time (`LIBCLANG_PATH`, else the newest libclang in
/// the usual places); clang-sys keeps it per thread, so one opened copy is shared.
fn ensure_loaded() -> Result<(), SourceError> {
    static LIBRARY: OnceLock<Result<Arc<SharedLibrary>, String>> = OnceLock::new();
    if is_loaded() {
        return Ok(());
    }
    let library = LIBRARY
        .get_or_init(|| load_manually().map(Arc::new))
        .clone()
        .map_err(|e| SourceError::Libclang(format!("opening libclang: {e}")))?;
    set_library(Some(library));
    Ok(())
}

/// Owns a libclang index and translation unit; disposes of them on drop.
struct Unit {
    index: CXIndex,
    tu: CXTranslationUnit,
}

impl Drop for Unit {
    fn drop(&mut self) {
        // SAFETY: both handles came from libclang, are non-null (checked at creation) and
        // are disposed of exactly once, translation unit before index.
        unsafe {
            clang_disposeTranslationUnit(self.tu);
            clang_disposeIndex(self.index);
        }
    }
}

/// Converts and frees a libclang string.
fn take_string(s: CXString) -> String {
    // SAFETY: `s` is a live CXString from libclang; clang_getCString returns null or a
    // NUL-terminated string valid until clang_disposeString, which we call once after
    // copying it.
    unsafe {
        let c = clang_getCString(s);
        let out = if c.is_null() {
            String::new()
        } else {
            CStr::from_ptr(c).to_string_lossy().into_owned()
        };
        clang_disposeString(s);
        out
    }
}

/// The children of a cursor, in order.
fn children(cursor: CXCursor) -> Vec<CXCursor> {
    extern "C" fn collect(
        c: CXCursor,
        _parent: CXCursor,
        data: CXClientData,
    ) -> CXChildVisitResult {
        // SAFETY: `data` is the `&mut Vec<CXCursor>` passed below, alive for the whole
        // clang_visitChildren call, and only this callback touches it.
        let out = unsafe { &mut *(data as *mut Vec<CXCursor>) };
        out.push(c);
        CXChildVisit_Continue
    }
    let mut out: Vec<CXCursor> = Vec::new();
    // SAFETY: `cursor` belongs to a live translation unit; the callback only pushes into
    // `out`, which outlives the call.
    unsafe {
        clang_visitChildren(
            cursor,
            collect,
            &mut out as *mut Vec<CXCursor> as *mut c_void,
        );
    }
    out
}

/// A location as (in main file, position). The offset is where the code is in the file
/// (for a macro, where it is invoked); line and column are the presumed ones, which
/// `#line` directives change as they change the line table of the compiled code.
fn position(loc: CXSourceLocation) -> (bool, Pos) {
    let (mut line, mut col, mut offset): (c_uint, c_uint, c_uint) = (0, 0, 0);
    let mut file_name = CXString {
        data: ptr::null(),
        private_flags: 0,
    };
    // SAFETY: `loc` comes from a live translation unit; the out-pointers are valid locals
    // (the file out-parameter of the expansion location may be null); the presumed file
    // name is a CXString we free with take_string.
    let main = unsafe {
        clang_getExpansionLocation(
            loc,
            ptr::null_mut(),
            ptr::null_mut(),
            ptr::null_mut(),
            &mut offset,
        );
        // The presumed location of a macro location is that of its expansion.
        clang_getPresumedLocation(loc, &mut file_name, &mut line, &mut col);
        clang_Location_isFromMainFile(loc) != 0
    };
    drop(take_string(file_name));
    (main, Pos { offset, line, col })
}

fn extent(cursor: CXCursor) -> (bool, Extent) {
    // SAFETY: `cursor` belongs to a live translation unit.
    let range = unsafe { clang_getCursorExtent(cursor) };
    // SAFETY: `range` was just returned by libclang for a live unit.
    let (start_loc, end_loc) = unsafe { (clang_getRangeStart(range), clang_getRangeEnd(range)) };
    let (main, start) = position(start_loc);
    let (_, end) = position(end_loc);
    (main, Extent { start, end })
}

/// Whether the code at the cursor comes from a macro's definition: its spelling is
/// elsewhere than its expansion.
fn in_macro(cursor: CXCursor) -> bool {
    // SAFETY: `cursor` belongs to a live translation unit; the out-pointers are valid
    // locals or null.
    unsafe {
        let loc = clang_getRangeStart(clang_getCursorExtent(cursor));
        let (mut spelling, mut expansion): (c_uint, c_uint) = (0, 0);
        let (mut sfile, mut efile): (CXFile, CXFile) = (ptr::null_mut(), ptr::null_mut());
        clang_getSpellingLocation(
            loc,
            &mut sfile,
            ptr::null_mut(),
            ptr::null_mut(),
            &mut spelling,
        );
        clang_getExpansionLocation(
            loc,
            &mut efile,
            ptr::null_mut(),
            ptr::null_mut(),
            &mut expansion,
        );
        spelling != expansion || sfile != efile
    }
}

fn kind_of(cursor: CXCursor) -> NodeKind {
    // SAFETY: `cursor` belongs to a live translation unit.
    let kind = unsafe { clang_getCursorKind(cursor) };
    match kind {
        CXCursor_CompoundStmt => NodeKind::Compound,
        CXCursor_IfStmt => NodeKind::If,
        CXCursor_ForStmt => NodeKind::For,
        CXCursor_WhileStmt => NodeKind::While,
        CXCursor_DoStmt => NodeKind::Do,
        CXCursor_SwitchStmt => NodeKind::Switch,
        CXCursor_CaseStmt => NodeKind::Case,
        CXCursor_DefaultStmt => NodeKind::Default,
        CXCursor_BreakStmt => NodeKind::Break,
        CXCursor_ContinueStmt => NodeKind::Continue,
        CXCursor_ReturnStmt => NodeKind::Return,
        CXCursor_GotoStmt => NodeKind::Goto,
        CXCursor_LabelStmt => NodeKind::Label,
        CXCursor_NullStmt => NodeKind::Null,
        CXCursor_DeclStmt => NodeKind::Decl,
        CXCursor_ConditionalOperator => NodeKind::Conditional,
        CXCursor_CallExpr => NodeKind::Call,
        // libclang 19 has no cursor kind of its own for an `AttributedStmt` (a statement
        // after `#pragma unroll` or `__attribute__((opencl_unroll_hint(N)))`): it is an
        // unexposed statement whose only visited child is the statement it wraps.
        CXCursor_UnexposedStmt if wraps_a_statement(cursor) => NodeKind::Attributed,
        CXCursor_BinaryOperator => {
            // SAFETY: `cursor` is a binary operator of a live unit (libclang >= 17).
            match unsafe { clang_getCursorBinaryOperatorKind(cursor) } {
                CXBinaryOperator_LAnd => NodeKind::LogicalAnd,
                CXBinaryOperator_LOr => NodeKind::LogicalOr,
                CXBinaryOperator_Comma => NodeKind::Comma,
                _ => NodeKind::Expr,
            }
        }
        // libclang numbers expressions from 100 (UnexposedExpr) up to the statements at 200.
        k if (CXCursor_UnexposedExpr..CXCursor_UnexposedStmt).contains(&k) => NodeKind::Expr,
        _ => NodeKind::Other,
    }
}

/// Whether the last child of `cursor` is a statement or an expression (libclang numbers
/// expressions from 100 and statements from 200 up to the translation unit's kind).
fn wraps_a_statement(cursor: CXCursor) -> bool {
    children(cursor).last().is_some_and(|&c| {
        // SAFETY: `c` belongs to the live translation unit of `cursor`.
        let kind = unsafe { clang_getCursorKind(c) };
        (CXCursor_UnexposedExpr..CXCursor_TranslationUnit).contains(&kind)
    })
}

fn spelling(cursor: CXCursor) -> String {
    // SAFETY: `cursor` belongs to a live translation unit; the CXString is freed by
    // take_string.
    take_string(unsafe { clang_getCursorSpelling(cursor) })
}

/// The owned tree of `cursor`.
fn convert(cursor: CXCursor) -> AstNode {
    let kind = kind_of(cursor);
    let (_, ext) = extent(cursor);
    let children: Vec<AstNode> = children(cursor).into_iter().map(convert).collect();
    AstNode {
        kind,
        extent: ext,
        spelling: match kind {
            NodeKind::Call | NodeKind::Decl => spelling(cursor),
            _ => String::new(),
        },
        in_macro: in_macro(cursor),
        children,
        subscript: subscript(cursor),
        role: role(cursor),
        int: int_expr(cursor),
    }
}

/// The integer type `ty` is, if it is one.
fn int_type(ty: CXType) -> Option<IntType> {
    // SAFETY: `ty` belongs to a live translation unit; types are plain values.
    let canonical = unsafe { clang_getCanonicalType(ty) };
    let signed = match canonical.kind {
        CXType_Bool => {
            return Some(IntType {
                bits: 1,
                signed: false,
            })
        }
        CXType_Char_S | CXType_SChar | CXType_Short | CXType_Int | CXType_Long
        | CXType_LongLong => true,
        CXType_Char_U | CXType_UChar | CXType_UShort | CXType_UInt | CXType_ULong
        | CXType_ULongLong => false,
        _ => return None,
    };
    // SAFETY: as above.
    let bytes = unsafe { clang_Type_getSizeOf(canonical) };
    matches!(bytes, 1 | 2 | 4 | 8).then_some(IntType {
        bits: bytes as u8 * 8,
        signed,
    })
}

/// What `cursor` computes, where it is of an integer type ([`IntExpr`]).
fn int_expr(cursor: CXCursor) -> Option<IntExpr> {
    // SAFETY: `cursor` belongs to the live translation unit being converted (libclang >=
    // 17 for the operator kinds); the evaluation result is disposed of once.
    unsafe {
        let ty = int_type(clang_getCursorType(cursor))?;
        let (op, literal) = match clang_getCursorKind(cursor) {
            CXCursor_BinaryOperator => (binary_operator(cursor), None),
            CXCursor_UnaryOperator => (
                match clang_getCursorUnaryOperatorKind(cursor) {
                    CXUnaryOperator_Minus => Some(Operator::Neg),
                    CXUnaryOperator_Plus => Some(Operator::Plus),
                    CXUnaryOperator_Not => Some(Operator::Not),
                    CXUnaryOperator_LNot => Some(Operator::LogicalNot),
                    _ => None,
                },
                None,
            ),
            // Implicit casts are unexposed expressions with one child.
            CXCursor_ParenExpr | CXCursor_CStyleCastExpr => (Some(Operator::Convert), None),
            CXCursor_UnexposedExpr if children(cursor).len() == 1 => {
                (Some(Operator::Convert), None)
            }
            CXCursor_IntegerLiteral | CXCursor_CharacterLiteral => {
                let result = clang_Cursor_Evaluate(cursor);
                if result.is_null() {
                    (None, None)
                } else {
                    let value = (clang_EvalResult_getKind(result) == CXEval_Int)
                        .then(|| clang_EvalResult_getAsUnsigned(result) as u64);
                    clang_EvalResult_dispose(result);
                    (None, value)
                }
            }
            _ => (None, None),
        };
        Some(IntExpr { ty, op, literal })
    }
}

/// The operator of binary operator `cursor`, where the host evaluates it.
fn binary_operator(cursor: CXCursor) -> Option<Operator> {
    // SAFETY: `cursor` is a binary operator of a live unit (libclang >= 17).
    Some(match unsafe { clang_getCursorBinaryOperatorKind(cursor) } {
        CXBinaryOperator_Mul => Operator::Mul,
        CXBinaryOperator_Div => Operator::Div,
        CXBinaryOperator_Rem => Operator::Rem,
        CXBinaryOperator_Add => Operator::Add,
        CXBinaryOperator_Sub => Operator::Sub,
        CXBinaryOperator_Shl => Operator::Shl,
        CXBinaryOperator_Shr => Operator::Shr,
        CXBinaryOperator_LT => Operator::Lt,
        CXBinaryOperator_GT => Operator::Gt,
        CXBinaryOperator_LE => Operator::Le,
        CXBinaryOperator_GE => Operator::Ge,
        CXBinaryOperator_EQ => Operator::Eq,
        CXBinaryOperator_NE => Operator::Ne,
        CXBinaryOperator_And => Operator::And,
        CXBinaryOperator_Xor => Operator::Xor,
        CXBinaryOperator_Or => Operator::Or,
        CXBinaryOperator_LAnd => Operator::LogicalAnd,
        CXBinaryOperator_LOr => Operator::LogicalOr,
        _ => return None,
    })
}

/// clang's `LangAS::opencl_private`.
const OPENCL_PRIVATE: c_uint = 4;

/// Whether a canonical type of `kind` is a scalar: an integer, floating point or enum type.
fn scalar(kind: CXTypeKind) -> bool {
    (CXType_Bool..=CXType_LongDouble).contains(&kind)
        || matches!(kind, CXType_Half | CXType_Float16 | CXType_Enum)
}

/// The position of parameter `decl` (a `ParmDecl` cursor) among its function's.
fn param_index(decl: CXCursor) -> Option<c_uint> {
    // SAFETY: `decl` and the cursors derived from it belong to a live translation unit.
    unsafe {
        let function = clang_getCursorSemanticParent(decl);
        let n = clang_Cursor_getNumArguments(function).max(0) as c_uint;
        (0..n).find(|&i| clang_equalCursors(clang_Cursor_getArgument(function, i), decl) != 0)
    }
}

/// Whether `ty` is a value a work-item holds privately: a scalar, vector, enum or struct
/// (not a pointer, array, image, sampler or event), in the private address space.
fn private_value(ty: CXType) -> bool {
    // SAFETY: `ty` belongs to a live translation unit; types are plain values.
    let canonical = unsafe { clang_getCanonicalType(ty) };
    let kind = canonical.kind;
    let value = scalar(kind) || matches!(kind, CXType_Record | CXType_Vector | CXType_ExtVector);
    // SAFETY: as above.
    value
        && matches!(
            unsafe { clang_getAddressSpace(canonical) },
            0 | OPENCL_PRIVATE
        )
}

/// The variable, parameter or constant `decl` (a declaration cursor) is.
fn referent(decl: CXCursor) -> Referent {
    const OPENCL_CONSTANT: c_uint = 3;
    // SAFETY: `decl` and every cursor and type derived from it belong to a live unit.
    unsafe {
        match clang_getCursorKind(decl) {
            CXCursor_ParmDecl => match param_index(decl) {
                Some(index) => Referent::Param {
                    index,
                    value: private_value(clang_getCursorType(decl)),
                },
                None => Referent::Global,
            },
            CXCursor_VarDecl => {
                let ty = clang_getCursorType(decl);
                let parent = clang_getCursorKind(clang_getCursorSemanticParent(decl));
                if parent == CXCursor_TranslationUnit {
                    // A program-scope constant of a value type cannot change.
                    let canonical = clang_getCanonicalType(ty);
                    let constant = clang_isConstQualifiedType(canonical) != 0
                        || clang_getAddressSpace(canonical) == OPENCL_CONSTANT;
                    if constant && scalar(canonical.kind) {
                        Referent::Constant
                    } else {
                        Referent::Global
                    }
                } else {
                    let (_, at) = position(clang_getCursorLocation(decl));
                    Referent::Local {
                        decl: at.offset,
                        value: private_value(ty),
                    }
                }
            }
            CXCursor_EnumConstantDecl | CXCursor_FunctionDecl => Referent::Constant,
            _ => Referent::Global,
        }
    }
}

/// What `cursor` does with values and variables ([`Role`]), where it matters.
fn role(cursor: CXCursor) -> Option<Role> {
    // SAFETY: `cursor` and every cursor and type derived from it belong to the live
    // translation unit being converted (libclang >= 17 for the operator kinds).
    unsafe {
        match clang_getCursorKind(cursor) {
            CXCursor_DeclRefExpr => Some(Role::Names(referent(clang_getCursorReferenced(cursor)))),
            CXCursor_VarDecl => Some(Role::Declares(referent(cursor))),
            CXCursor_BinaryOperator => (clang_getCursorBinaryOperatorKind(cursor)
                == CXBinaryOperator_Assign)
                .then_some(Role::Assign),
            CXCursor_CompoundAssignOperator => Some(Role::CompoundAssign),
            CXCursor_UnaryOperator => match clang_getCursorUnaryOperatorKind(cursor) {
                CXUnaryOperator_PostInc
                | CXUnaryOperator_PostDec
                | CXUnaryOperator_PreInc
                | CXUnaryOperator_PreDec => Some(Role::Step),
                CXUnaryOperator_AddrOf => Some(Role::AddressOf),
                CXUnaryOperator_Deref => Some(Role::Deref),
                _ => None,
            },
            CXCursor_MemberRefExpr => {
                let base = children(cursor).first().copied()?;
                let ty = clang_getCanonicalType(clang_getCursorType(base));
                (ty.kind == CXType_Pointer).then_some(Role::Arrow)
            }
            CXCursor_CallExpr => {
                let callee = clang_getCursorReferenced(cursor);
                if clang_Cursor_isNull(callee) != 0 {
                    return None;
                }
                // A builtin is only declared (in OpenCL's header, or implicitly by the
                // compiler), or defined in a system header.
                let definition = clang_getCursorDefinition(callee);
                (clang_Cursor_isNull(definition) != 0
                    || clang_Location_isInSystemHeader(clang_getCursorLocation(definition)) != 0)
                    .then_some(Role::Builtin)
            }
            _ => None,
        }
    }
}

/// A new libclang index, with libclang's crash recovery off.
///
/// clang_createIndex turns crash recovery on (unless the process's environment says
/// LIBCLANG_DISABLE_CRASH_RECOVERY, which is the host's, not the shim's, to set): LLVM's
/// handlers for SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGTRAP and SIGABRT take the place of
/// the process's own. In a host under the shim those are the OpenCL runtime's: PoCL steps
/// over its kernels' integer divisions by zero in a SIGFPE handler, while LLVM's, finding
/// no recovery context on the kernel's thread, put the old handlers back and raised the
/// signal again without the fault's details, so the host died where it runs without the
/// shim (issue 35). Turning recovery off at once puts the saved handlers back; a parse
/// that crashes libclang is then the host's crash, as a crash anywhere else in the shim
/// is. Between the two calls LLVM's handlers still stand: a kernel trapping on another
/// thread in that instant would still end the host. Null where libclang could not make
/// one.
fn new_index() -> CXIndex {
    // SAFETY: plain constructor (the caller disposes of the index); toggling crash
    // recovery takes no pointer.
    unsafe {
        let index = clang_createIndex(0, 0);
        clang_toggleCrashRecovery(0);
        index
    }
}

/// Parses `path` with `args` and returns the functions with bodies defined in it, and the
/// declarations of those functions in included files other than system headers.
pub(super) fn parse_functions(
    path: &Path,
    args: &[String],
) -> Result<(Vec<SourceFunction>, Vec<ForeignDeclaration>), SourceError> {
    let _guard = LIBCLANG.lock().unwrap_or_else(|e| e.into_inner());
    ensure_loaded()?;
    let file = CString::new(path.as_os_str().to_string_lossy().as_bytes())
        .map_err(|_| SourceError::Libclang(format!("{}: path contains NUL", path.display())))?;
    let c_args: Vec<CString> = args
        .iter()
        .map(|a| CString::new(a.as_str()))
        .collect::<Result<_, _>>()
        .map_err(|_| SourceError::Libclang("build option contains NUL".into()))?;
    let arg_ptrs: Vec<*const i8> = c_args.iter().map(|a| a.as_ptr()).collect();

    let index = new_index();
    if index.is_null() {
        return Err(SourceError::Libclang("clang_createIndex failed".into()));
    }
    let mut tu: CXTranslationUnit = ptr::null_mut();
    // SAFETY: `file` and every argument are NUL-terminated strings alive for the call;
    // there are no unsaved files; `tu` is a valid out-pointer.
    let code = unsafe {
        clang_parseTranslationUnit2(
            index,
            file.as_ptr(),
            arg_ptrs.as_ptr(),
            arg_ptrs.len() as c_int,
            ptr::null_mut(),
            0,
            CXTranslationUnit_None,
            &mut tu,
        )
    };
    if code != CXError_Success || tu.is_null() {
        // SAFETY: the index is live and no unit refers to it.
        unsafe { clang_disposeIndex(index) };
        return Err(SourceError::Libclang(format!(
            "{}: libclang could not parse it (error {code})",
            path.display()
        )));
    }
    let unit = Unit { index, tu };

    // Errors (not warnings) stop us: the compiler would reject the file too.
    let mut errors = Vec::new();
    // SAFETY: `unit.tu` is live; each diagnostic is formatted and disposed of once.
    unsafe {
        for i in 0..clang_getNumDiagnostics(unit.tu) {
            let d = clang_getDiagnostic(unit.tu, i);
            if clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error {
                errors.push(take_string(clang_formatDiagnostic(
                    d,
                    clang_defaultDiagnosticDisplayOptions(),
                )));
            }
            clang_disposeDiagnostic(d);
        }
    }
    if !errors.is_empty() {
        return Err(SourceError::Diagnostics {
            path: path.display().to_string(),
            diagnostics: errors.join("\n"),
        });
    }

    // SAFETY: `unit.tu` is live.
    let root = unsafe { clang_getTranslationUnitCursor(unit.tu) };
    let mut functions = Vec::new();
    // Declarations in included files other than system headers (the OpenCL builtins).
    let mut elsewhere: Vec<(String, String, u32)> = Vec::new();
    for c in children(root) {
        // SAFETY: `c` belongs to the live unit.
        let kind = unsafe { clang_getCursorKind(c) };
        if kind != CXCursor_FunctionDecl {
            continue;
        }
        let (main, ext) = extent(c);
        if !main {
            // SAFETY: `c` belongs to the live unit; the out-pointers are valid locals.
            let (system, file, line) = unsafe {
                let loc = clang_getCursorLocation(c);
                let (mut file, mut line): (CXFile, c_uint) = (ptr::null_mut(), 0);
                clang_getSpellingLocation(
                    loc,
                    &mut file,
                    &mut line,
                    ptr::null_mut(),
                    ptr::null_mut(),
                );
                let name = if file.is_null() {
                    String::new()
                } else {
                    take_string(clang_getFileName(file))
                };
                (clang_Location_isInSystemHeader(loc) != 0, name, line)
            };
            if !system && !file.is_empty() {
                elsewhere.push((spelling(c), file, line));
            }
            continue;
        }
        let Some(body) = children(c)
            .into_iter()
            // SAFETY: `b` belongs to the live unit.
            .find(|&b| unsafe { clang_getCursorKind(b) } == CXCursor_CompoundStmt)
        else {
            continue; // a declaration
        };
        let params = children(c)
            .into_iter()
            // SAFETY: `p` belongs to the live unit.
            .filter(|&p| unsafe { clang_getCursorKind(p) } == CXCursor_ParmDecl)
            .map(param_kind)
            .collect();
        functions.push(SourceFunction {
            name: spelling(c),
            extent: ext,
            body: convert(body),
            params,
        });
    }
    drop(unit);
    // A declaration written in the kernel file itself, through a macro, is its own.
    let kernel_file = std::fs::canonicalize(path).ok();
    let declared_elsewhere = elsewhere
        .into_iter()
        .filter(|(name, _, _)| functions.iter().any(|f: &SourceFunction| &f.name == name))
        .filter(|(_, file, _)| std::fs::canonicalize(file).ok() != kernel_file)
        .map(|(function, file, line)| ForeignDeclaration {
            function,
            file,
            line,
        })
        .collect();
    Ok((functions, declared_elsewhere))
}

/// What the parameter `param` is, from the address space its pointer type points into
/// (clang's `LangAS` numbering, which libclang returns for OpenCL's address spaces).
fn param_kind(param: CXCursor) -> ParamKind {
    const OPENCL_GLOBAL: c_uint = 1;
    const OPENCL_LOCAL: c_uint = 2;
    const OPENCL_CONSTANT: c_uint = 3;
    // SAFETY: `param` belongs to a live unit; the types are values owned by it.
    let space = unsafe {
        let ty = clang_getCanonicalType(clang_getCursorType(param));
        if ty.kind != CXType_Pointer {
            return ParamKind::Value;
        }
        clang_getAddressSpace(clang_getPointeeType(ty))
    };
    match space {
        OPENCL_GLOBAL | OPENCL_CONSTANT => ParamKind::Buffer,
        OPENCL_LOCAL => ParamKind::Local,
        _ => ParamKind::Value,
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// Which of SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE and SIGSEGV (the signals of
    /// LLVM's crash recovery) the process has a handler for: their bits of the `SigCgt`
    /// mask in /proc/self/status (bit n - 1 for signal n). Read under the libclang lock,
    /// so that no other test's parse is in the middle of creating its index.
    fn fault_signals_caught() -> u64 {
        let _guard = LIBCLANG.lock().unwrap_or_else(|e| e.into_inner());
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let mask = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .expect("SigCgt in /proc/self/status");
        let mask = u64::from_str_radix(mask.trim(), 16).unwrap();
        let bits = [4, 5, 6, 7, 8, 11].iter().map(|n| 1u64 << (n - 1));
        mask & bits.fold(0, |all, b| all | b)
    }

    /// Issue 35: a host's signal handlers are its own (and its OpenCL runtime's) after
    /// the shim parsed a program. libclang's crash recovery left LLVM's handlers in their
    /// place, SIGFPE's among them, which PoCL needs to step over a kernel's integer
    /// division by zero.
    #[test]
    fn parsing_leaves_the_process_signal_handlers_as_they_were() {
        let dir = std::env::temp_dir().join(format!("srcsim-clang-signals-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("div.cl");
        std::fs::write(
            &path,
            "kernel void div(global int *a) { a[0] = a[1] / a[2]; }\n",
        )
        .unwrap();
        let before = fault_signals_caught();
        let args = ["-x".to_string(), "cl".to_string()];
        let (functions, _) = parse_functions(&path, &args).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(functions.len(), 1);
        assert_eq!(
            fault_signals_caught(),
            before,
            "handlers taken for signals (mask of SigCgt bits)"
        );
    }
}
