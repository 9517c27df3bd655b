//! `libsrcsim.so` as an OpenCL layer (`OPENCL_LAYERS=/path/libsrcsim.so`), for hosts that
//! `dlopen` the ICD loader and so never see `LD_PRELOAD`'s symbols (Rust programs using
//! opencl3's default dynamic loading, Python's pyopencl, ...). The loader hands us its
//! dispatch table; we give back a copy with the interposed entry points in their slots,
//! and the real API (`cl::Real`) becomes the loader's table ([`crate::cl::dispatch_to`]).
//!
//! Slot numbers are declared with each function: in `interpose` with its handler, in `cl`
//! for the functions the shim only calls.

use std::ffi::c_void;

use crate::ffi::*;
use crate::interpose;

/// `CL_LAYER_API_VERSION` (CL/cl_layer.h).
const CL_LAYER_API_VERSION: cl_uint = 0x4240;
/// `CL_LAYER_NAME`.
const CL_LAYER_NAME: cl_uint = 0x4241;
/// `CL_LAYER_API_VERSION_100`.
const LAYER_API_100: cl_uint = 100;

/// # Safety
/// As `clGetLayerInfo` in the OpenCL layers extension (CL/cl_layer.h).
#[no_mangle]
pub unsafe extern "C" fn clGetLayerInfo(
    param_name: cl_uint,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let name = b"srcsim\0";
    let version = LAYER_API_100.to_ne_bytes();
    let value: &[u8] = match param_name {
        CL_LAYER_API_VERSION => &version,
        CL_LAYER_NAME => name,
        _ => return CL_INVALID_VALUE,
    };
    if !param_value_size_ret.is_null() {
        // SAFETY: the caller passed a place for the size.
        unsafe { *param_value_size_ret = value.len() };
    }
    if !param_value.is_null() {
        if param_value_size < value.len() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: the caller gave `param_value_size` (enough, checked) bytes.
        unsafe { std::ptr::copy_nonoverlapping(value.as_ptr(), param_value.cast(), value.len()) };
    }
    CL_SUCCESS
}

/// # Safety
/// As `clInitLayer` in the OpenCL layers extension: `target_dispatch` points to
/// `num_entries` function addresses.
#[no_mangle]
pub unsafe extern "C" fn clInitLayer(
    num_entries: cl_uint,
    target_dispatch: *const c_void,
    num_entries_ret: *mut cl_uint,
    layer_dispatch_ret: *mut *const c_void,
) -> cl_int {
    if target_dispatch.is_null() || num_entries_ret.is_null() || layer_dispatch_ret.is_null() {
        return CL_INVALID_VALUE;
    }
    if std::env::var("LD_PRELOAD").is_ok_and(|p| p.contains("libsrcsim")) {
        // Preloaded as well: the exported entry points already see every call, and
        // serving as a layer too would count each twice.
        eprintln!(
            "srcsim: libsrcsim.so is both preloaded and in OPENCL_LAYERS; the layer stands aside"
        );
        return CL_INVALID_OPERATION;
    }
    // SAFETY: the loader passes `num_entries` function addresses, which live as long as
    // the loader (the whole process).
    let entries: &'static [*mut c_void] =
        unsafe { std::slice::from_raw_parts(target_dispatch.cast(), num_entries as usize) };
    if !crate::cl::dispatch_to(entries) {
        return CL_INVALID_OPERATION;
    }
    let mut table: Vec<*mut c_void> = entries.to_vec();
    for (slot, f) in interpose::entry_points() {
        if let Some(e) = table.get_mut(slot) {
            *e = f;
        }
    }
    // SAFETY: the caller passed places for the count and the table; the table is leaked,
    // as the loader keeps using it until the process ends.
    unsafe {
        *num_entries_ret = num_entries;
        *layer_dispatch_ret = Box::leak(table.into_boxed_slice()).as_ptr().cast();
    }
    CL_SUCCESS
}
