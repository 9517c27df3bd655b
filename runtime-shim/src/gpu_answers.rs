//! A device query's answer as the simulated GPU gives it, written into the application's
//! buffer (an FFI edge: the interposed `clGetDeviceInfo` and `clGetKernelWorkGroupInfo`
//! call it on what the real runtime wrote).

use std::ffi::c_void;

use crate::ffi::*;
use crate::shim::DeviceLimits;

/// Rewrites a device query's answer as the simulated GPU gives it: its SMs as compute
/// units; sizes no larger than the GPU's, nor than the real device's.
///
/// # Safety
/// `value` points to `bytes` bytes holding the answer to `param` as the runtime wrote it.
pub(crate) unsafe fn answer_as_simulated_gpu(
    param: cl_uint,
    value: *mut c_void,
    bytes: usize,
    limits: &DeviceLimits,
) {
    let min_usize = |i: usize, cap: usize| {
        if (i + 1) * std::mem::size_of::<usize>() <= bytes {
            // SAFETY: in bounds (checked); size_t values, unaligned access.
            unsafe {
                let p = value.cast::<usize>().add(i);
                p.write_unaligned(p.read_unaligned().min(cap));
            }
        }
    };
    match param {
        CL_DEVICE_MAX_COMPUTE_UNITS if bytes >= std::mem::size_of::<cl_uint>() => {
            // SAFETY: room for a cl_uint (checked).
            unsafe {
                value
                    .cast::<cl_uint>()
                    .write_unaligned(limits.compute_units)
            }
        }
        CL_DEVICE_MAX_WORK_GROUP_SIZE => min_usize(0, limits.max_work_group_size),
        CL_DEVICE_MAX_WORK_ITEM_SIZES => {
            for (i, &cap) in limits.max_work_item_sizes.iter().enumerate() {
                min_usize(i, cap);
            }
        }
        CL_DEVICE_LOCAL_MEM_SIZE if bytes >= std::mem::size_of::<cl_ulong>() => {
            // SAFETY: room for a cl_ulong (checked).
            unsafe {
                let p = value.cast::<cl_ulong>();
                p.write_unaligned(p.read_unaligned().min(limits.local_memory_bytes));
            }
        }
        _ => {}
    }
}
