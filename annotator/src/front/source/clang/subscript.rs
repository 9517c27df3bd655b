//! Array subscripts as the sampled accesses need them: what a subscript's base is (a
//! parameter, an array named directly, a pointer variable into memory every work-item
//! addresses) and the element it selects.

// libclang's constants keep their C names.
#![allow(non_upper_case_globals)]

use std::os::raw::c_uint;

use clang_sys::*;

use super::{children, param_index, scalar, spelling};

/// The address spaces libclang gives OpenCL's `__global`, `__local` and `__constant`
/// pointees (clang's `LangAS::opencl_global`, `opencl_local`, `opencl_constant`, and
/// `opencl_global_device`, `opencl_global_host`), where every work-item addresses the same
/// memory: a pointer into them is an address a sample can record. A private pointer's
/// memory is the work-item's own.
const SHARED_ADDRESS_SPACES: [u32; 5] = [1, 2, 3, 6, 7];

/// What a subscript `base[index]` addresses: its element's size, and its base's name where
/// the base is a parameter or an array variable named directly.
pub(super) fn subscript(cursor: CXCursor) -> Option<super::super::Subscript> {
    // SAFETY: `cursor` and every cursor and type derived from it belong to the live
    // translation unit being converted.
    unsafe {
        if clang_getCursorKind(cursor) != CXCursor_ArraySubscriptExpr {
            return None;
        }
        let bytes = clang_Type_getSizeOf(clang_getCursorType(cursor));
        // The base, under the implicit conversions libclang shows as unexposed expressions.
        let mut base = unwrapped(*children(cursor).first()?);
        // `(p + off)[i]` with `off` the same in every work-item (value parameters and
        // literals): the lanes' addresses relative to `p` are the index's, shifted alike.
        while clang_getCursorKind(base) == CXCursor_BinaryOperator
            && clang_getCursorBinaryOperatorKind(base) == CXBinaryOperator_Add
        {
            let parts: Vec<CXCursor> = children(base).into_iter().map(unwrapped).collect();
            let pointer = |c: CXCursor| clang_getCursorType(c).kind == CXType_Pointer;
            base = match parts[..] {
                [l, r] if pointer(l) && !pointer(r) && uniform_offset(r) => l,
                [l, r] if pointer(r) && !pointer(l) && uniform_offset(l) => r,
                _ => break,
            };
        }
        let (mut named, mut param, mut pointer) = (false, None, false);
        if clang_getCursorKind(base) == CXCursor_DeclRefExpr {
            let decl = clang_getCursorReferenced(base);
            match clang_getCursorKind(decl) {
                CXCursor_ParmDecl => {
                    named = true;
                    param = param_index(decl);
                }
                CXCursor_VarDecl => {
                    let ty = clang_getCursorType(decl);
                    named = ty.kind == CXType_ConstantArray;
                    pointer = ty.kind == CXType_Pointer
                        && SHARED_ADDRESS_SPACES
                            .contains(&clang_getAddressSpace(clang_getPointeeType(ty)));
                    named |= pointer;
                    if pointer {
                        param = pointed_param(decl);
                    }
                }
                _ => {}
            }
        }
        Some(super::super::Subscript {
            base: if named { spelling(base) } else { String::new() },
            param,
            element_bytes: u32::try_from(bytes).unwrap_or(0),
            pointer,
        })
    }
}

/// The parameter a pointer variable `decl` is declared from (`T *p = in + off;` or
/// `&in[off]`, through further additions and conversions), if it is: the buffer its
/// subscripts read.
fn pointed_param(decl: CXCursor) -> Option<c_uint> {
    // SAFETY: `decl` and the cursors derived from it belong to the live translation unit
    // being converted.
    unsafe {
        let mut at = unwrapped(*children(decl).last()?);
        loop {
            match clang_getCursorKind(at) {
                CXCursor_DeclRefExpr => {
                    let referenced = clang_getCursorReferenced(at);
                    return (clang_getCursorKind(referenced) == CXCursor_ParmDecl)
                        .then(|| param_index(referenced))
                        .flatten();
                }
                CXCursor_BinaryOperator
                    if matches!(
                        clang_getCursorBinaryOperatorKind(at),
                        CXBinaryOperator_Add | CXBinaryOperator_Sub
                    ) =>
                {
                    let parts: Vec<CXCursor> = children(at).into_iter().map(unwrapped).collect();
                    at = *parts
                        .iter()
                        .find(|c| clang_getCursorType(**c).kind == CXType_Pointer)?;
                }
                CXCursor_CStyleCastExpr => at = unwrapped(*children(at).last()?),
                // `&in[off]`: the subscript's base.
                CXCursor_UnaryOperator
                    if clang_getCursorUnaryOperatorKind(at) == CXUnaryOperator_AddrOf =>
                {
                    let inner = unwrapped(*children(at).first()?);
                    (clang_getCursorKind(inner) == CXCursor_ArraySubscriptExpr).then_some(())?;
                    at = unwrapped(*children(inner).first()?);
                }
                _ => return None,
            }
        }
    }
}

/// `cursor` under the parentheses and implicit conversions (unexposed expressions) around
/// it.
fn unwrapped(mut cursor: CXCursor) -> CXCursor {
    // SAFETY: `cursor` and its children belong to the live translation unit being
    // converted.
    unsafe {
        while matches!(
            clang_getCursorKind(cursor),
            CXCursor_UnexposedExpr | CXCursor_ParenExpr
        ) {
            match children(cursor).as_slice() {
                [only] => cursor = *only,
                _ => break,
            }
        }
    }
    cursor
}

/// Whether `cursor` computes the same in every work-item from integer literals and the
/// values of scalar parameters alone, through binary operators.
fn uniform_offset(cursor: CXCursor) -> bool {
    // SAFETY: `cursor` and every cursor and type derived from it belong to the live
    // translation unit being converted.
    unsafe {
        match clang_getCursorKind(cursor) {
            CXCursor_IntegerLiteral => true,
            CXCursor_DeclRefExpr => {
                let decl = clang_getCursorReferenced(cursor);
                clang_getCursorKind(decl) == CXCursor_ParmDecl
                    && scalar(clang_getCanonicalType(clang_getCursorType(decl)).kind)
            }
            CXCursor_UnexposedExpr | CXCursor_ParenExpr | CXCursor_BinaryOperator => {
                let parts = children(cursor);
                !parts.is_empty() && parts.iter().all(|c| uniform_offset(*c))
            }
            _ => false,
        }
    }
}
