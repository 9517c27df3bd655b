//! The NDRange of a launch, read from the application's raw arguments.

use crate::ffi::cl_uint;

/// An NDRange as `clEnqueueNDRangeKernel` takes it, 1 to 3 dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NdRange {
    /// 1, 2 or 3.
    pub work_dim: cl_uint,
    /// Global offset (zeros when the application passed none).
    pub offset: [usize; 3],
    /// Global size (ones beyond `work_dim`).
    pub global: [usize; 3],
    /// Local size, if the application gave one (ones beyond `work_dim`).
    pub local: Option<[usize; 3]>,
}

impl NdRange {
    /// Reads an NDRange as the application passed it; `None` where it is malformed (then the
    /// real runtime gives the application its error).
    pub fn from_raw(
        work_dim: cl_uint,
        offset: *const usize,
        global: *const usize,
        local: *const usize,
    ) -> Option<NdRange> {
        if !(1..=3).contains(&work_dim) || global.is_null() {
            return None;
        }
        let read = |p: *const usize, default: usize| {
            let mut v = [default; 3];
            if !p.is_null() {
                // SAFETY: the caller passed `work_dim` sizes at `p` (checked non-null, 1..=3).
                v[..work_dim as usize]
                    .copy_from_slice(unsafe { std::slice::from_raw_parts(p, work_dim as usize) });
            }
            v[work_dim as usize..].fill(default);
            v
        };
        let range = NdRange {
            work_dim,
            offset: read(offset, 0),
            global: read(global, 1),
            local: (!local.is_null()).then(|| read(local, 1)),
        };
        (!range.global.contains(&0) && !range.local.is_some_and(|l| l.contains(&0)))
            .then_some(range)
    }
}
