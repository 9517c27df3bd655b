//! The application's reads of a program's binaries (`clGetProgramInfo`), at the FFI edge:
//! what the interposer hands the shim of them.

use std::ffi::c_void;

use crate::cl::Program;
use crate::ffi::{binary_digests, cl_uint, handles, CL_PROGRAM_BINARIES, CL_PROGRAM_BINARY_SIZES};
use crate::shim::shim;

/// What the application read of `program` with `clGetProgramInfo`, as the shim notes it:
/// the binaries' sizes (`CL_PROGRAM_BINARY_SIZES`), the room it gives the binaries it reads
/// next; and the binaries (`CL_PROGRAM_BINARIES`), whose digests tell a later program made
/// from them where they came from. The digests cover the bytes the application made room
/// for, as its last size query told it: PoCL's binary also holds the kernels compiled so
/// far, so it may have grown since (a launch compiled between the two queries), and what
/// the application keeps is that many bytes.
///
/// # Safety
/// `clGetProgramInfo(program, param_name, size, value, ..)` succeeded: it wrote the value
/// at `value` (not null), which has room for `size` bytes.
pub(crate) unsafe fn program_info_read(
    program: Program,
    param_name: cl_uint,
    value: *mut c_void,
    size: usize,
) {
    if param_name == CL_PROGRAM_BINARY_SIZES {
        let n = size / std::mem::size_of::<usize>();
        // SAFETY: the runtime wrote a size for each device at `value`, room for `n`.
        let sizes = unsafe { handles(n, value.cast::<usize>()) };
        shim().binary_sizes_read(program, sizes);
    } else if param_name == CL_PROGRAM_BINARIES {
        let sizes = shim()
            .binary_sizes_seen(program)
            .unwrap_or_else(|| program.binary_sizes().unwrap_or_default());
        let slots = size / std::mem::size_of::<*const u8>();
        // SAFETY: room for `slots` pointers at `value`, each non-null one's binary written
        // into room for the `CL_PROGRAM_BINARY_SIZES` bytes the application last read.
        let digests =
            unsafe { binary_digests(slots.min(sizes.len()), value.cast(), sizes.as_ptr()) };
        shim().binaries_read(program, &digests);
    }
}
