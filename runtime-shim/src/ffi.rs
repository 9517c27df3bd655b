//! The few OpenCL 1.2 (and 2.0) C types and constants the shim needs (from `CL/cl.h`), written out
//! here rather than taken from a binding crate: binding crates declare the API functions
//! themselves, and this library defines functions of the same names.

#![allow(non_camel_case_types)]

use std::ffi::{c_char, c_void, CStr};

pub type cl_int = i32;
pub type cl_uint = u32;
pub type cl_ulong = u64;
pub type cl_bool = u32;
pub type cl_bitfield = u64;
pub type cl_device_type = cl_bitfield;
pub type cl_mem_flags = cl_bitfield;
pub type cl_context_properties = isize;

pub type cl_platform_id = *mut c_void;
pub type cl_device_id = *mut c_void;
pub type cl_context = *mut c_void;
pub type cl_command_queue = *mut c_void;
pub type cl_program = *mut c_void;
pub type cl_kernel = *mut c_void;
pub type cl_mem = *mut c_void;
pub type cl_event = *mut c_void;

pub type ContextNotify =
    Option<unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void)>;
pub type BuildNotify = Option<unsafe extern "C" fn(cl_program, *mut c_void)>;

pub const CL_SUCCESS: cl_int = 0;
pub const CL_DEVICE_NOT_FOUND: cl_int = -1;
pub const CL_OUT_OF_HOST_MEMORY: cl_int = -6;
pub const CL_INVALID_VALUE: cl_int = -30;
pub const CL_INVALID_OPERATION: cl_int = -59;

pub const CL_FALSE: cl_bool = 0;
pub const CL_EVENT_COMMAND_QUEUE: cl_uint = 0x11D0;

pub const CL_DEVICE_TYPE_DEFAULT: cl_device_type = 1;
pub const CL_DEVICE_TYPE_CPU: cl_device_type = 1 << 1;
pub const CL_DEVICE_TYPE_GPU: cl_device_type = 1 << 2;
pub const CL_DEVICE_TYPE_ALL: cl_device_type = 0xFFFF_FFFF;
pub const CL_CONTEXT_PLATFORM: cl_context_properties = 0x1084;

pub const CL_DEVICE_TYPE: cl_uint = 0x1000;
pub const CL_DEVICE_NAME: cl_uint = 0x102B;
pub const CL_DEVICE_MAX_COMPUTE_UNITS: cl_uint = 0x1002;
pub const CL_DEVICE_MAX_WORK_GROUP_SIZE: cl_uint = 0x1004;
pub const CL_DEVICE_MAX_WORK_ITEM_SIZES: cl_uint = 0x1005;
pub const CL_DEVICE_LOCAL_MEM_SIZE: cl_uint = 0x1023;
pub const CL_DEVICE_VENDOR: cl_uint = 0x102C;
pub const CL_DRIVER_VERSION: cl_uint = 0x102D;
pub const CL_DEVICE_VERSION: cl_uint = 0x102F;
pub const CL_CONTEXT_DEVICES: cl_uint = 0x1081;
pub const CL_QUEUE_CONTEXT: cl_uint = 0x1090;
pub const CL_QUEUE_DEVICE: cl_uint = 0x1091;
pub const CL_QUEUE_PROPERTIES: cl_uint = 0x1093;
pub const CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE: cl_bitfield = 1 << 0;
pub const CL_DEVICE_MEM_BASE_ADDR_ALIGN: cl_uint = 0x1019;
pub const CL_BUFFER_CREATE_TYPE_REGION: cl_uint = 0x1220;
pub const CL_MEM_READ_WRITE: cl_mem_flags = 1 << 0;
pub const CL_MEM_USE_HOST_PTR: cl_mem_flags = 1 << 3;
pub const CL_MEM_HOST_READ_ONLY: cl_mem_flags = 1 << 8;
pub const CL_MEM_SIZE: cl_uint = 0x1102;
pub const CL_PROGRAM_REFERENCE_COUNT: cl_uint = 0x1160;
pub const CL_PROGRAM_CONTEXT: cl_uint = 0x1161;
pub const CL_PROGRAM_DEVICES: cl_uint = 0x1163;
pub const CL_PROGRAM_BINARY_SIZES: cl_uint = 0x1165;
pub const CL_PROGRAM_BINARIES: cl_uint = 0x1166;
pub const CL_PROGRAM_BUILD_LOG: cl_uint = 0x1183;
pub const CL_KERNEL_FUNCTION_NAME: cl_uint = 0x1190;
pub const CL_KERNEL_WORK_GROUP_SIZE: cl_uint = 0x11B0;
pub const CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: cl_uint = 0x11B3;
pub const CL_KERNEL_REFERENCE_COUNT: cl_uint = 0x1192;
pub const CL_KERNEL_EXEC_INFO_SVM_PTRS: cl_uint = 0x11B6;
pub const CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM: cl_uint = 0x11B7;

/// The `n` bytes at `p` (none where `p` is null).
///
/// # Safety
/// A non-null `p` points to `n` readable bytes that outlive the slice's use.
pub(crate) unsafe fn raw_bytes<'a>(p: *const c_void, n: usize) -> &'a [u8] {
    if p.is_null() {
        return &[];
    }
    // SAFETY: as the caller promises.
    unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) }
}

/// Runs `f`, the shim's side of a call, behind `catch_unwind`: a panic there is reported
/// and swallowed, so a bug of srcsim's costs the simulation there, never what the
/// application sees.
pub(crate) fn guarded<R>(what: &str, f: impl FnOnce() -> R) -> Option<R> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => Some(r),
        Err(_) => {
            eprintln!(
                "srcsim: internal error in {what}; the application continues unsimulated there"
            );
            None
        }
    }
}

/// The text of an optional NUL-terminated string (build options): empty for null.
///
/// # Safety
/// `p` is null or points to a NUL-terminated string.
pub(crate) unsafe fn c_text(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: as the caller promises.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// The `n` values at `p` (none where `p` is null or `n` is 0): handles, pointers.
///
/// # Safety
/// A non-null `p` points to `n` readable values.
pub(crate) unsafe fn handles<T: Copy>(n: usize, p: *const T) -> Vec<T> {
    if p.is_null() || n == 0 {
        return Vec::new();
    }
    // SAFETY: as the caller promises; read unaligned, as an application's array may be.
    (0..n)
        .map(|i| unsafe { p.add(i).read_unaligned() })
        .collect()
}

/// A program's source from `clCreateProgramWithSource`'s arguments: the `count` strings
/// at `strings`, each of `lengths[i]` bytes, or NUL-terminated where `lengths` (or the
/// length) is 0, joined.
///
/// # Safety
/// As the runtime accepted them.
pub(crate) unsafe fn source_text(
    count: cl_uint,
    strings: *const *const c_char,
    lengths: *const usize,
) -> String {
    let mut source = String::new();
    // SAFETY: as the caller promises.
    let (strings, lengths) = unsafe {
        (
            handles(count as usize, strings),
            handles(count as usize, lengths),
        )
    };
    for (i, s) in strings.into_iter().enumerate() {
        let len = lengths.get(i).copied().unwrap_or(0);
        // SAFETY: string `i` is `len` bytes, or NUL-terminated where `len` is 0.
        let bytes = unsafe {
            if len == 0 {
                CStr::from_ptr(s).to_bytes()
            } else {
                std::slice::from_raw_parts(s.cast::<u8>(), len)
            }
        };
        source.push_str(&String::from_utf8_lossy(bytes));
    }
    source
}

/// The XXH3 digests of the `n` program binaries at `binaries`, of `lengths` bytes each
/// (a null or empty one left out), by which the shim knows the source a binary was made
/// from.
///
/// # Safety
/// `binaries` and `lengths` hold `n` values each; each non-null binary has its length's
/// readable bytes.
pub(crate) unsafe fn binary_digests(
    n: usize,
    binaries: *const *const u8,
    lengths: *const usize,
) -> Vec<u128> {
    // SAFETY: as the caller promises.
    let (binaries, lengths) = unsafe { (handles(n, binaries), handles(n, lengths)) };
    binaries
        .into_iter()
        .zip(lengths)
        .filter(|&(p, len)| !p.is_null() && len > 0)
        // SAFETY: as the caller promises.
        .map(|(p, len)| xxhash_rust::xxh3::xxh3_128(unsafe { std::slice::from_raw_parts(p, len) }))
        .collect()
}
