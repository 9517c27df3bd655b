//! The shim's unit tests: the local size it assumes, mirrored settings, buffer footprints.

use super::*;
use crate::ffi::{CL_KERNEL_EXEC_INFO_SVM_PTRS, CL_SUCCESS};

fn chosen(work_dim: u32, global: [usize; 3]) -> [u64; 3] {
    geometry(&NdRange {
        work_dim,
        offset: [0; 3],
        global,
        local: None,
    })
    .local
}

#[test]
fn a_null_local_size_becomes_the_largest_uniform_group_of_at_most_256() {
    assert_eq!(chosen(1, [1000, 1, 1]), [250, 1, 1]);
    assert_eq!(chosen(1, [1 << 20, 1, 1]), [256, 1, 1]);
    assert_eq!(chosen(1, [257, 1, 1]), [1, 1, 1]); // a prime: groups of one
    assert_eq!(chosen(2, [512, 512, 1]), [256, 1, 1]);
    // x takes 30, leaving 8 for y (5 divides 20), leaving 1 for z.
    assert_eq!(chosen(3, [30, 20, 4]), [30, 5, 1]);
    assert_eq!(chosen(2, [8, 8, 1]), [8, 8, 1]);
}

#[test]
fn a_failed_mirroring_lasts_until_the_same_setting_mirrors() {
    use MirroredSetting::*;
    let mut args = ShadowArgs::default();
    args.mirrored(Arg(0), CL_SUCCESS);
    assert_eq!(args.broken(), None);
    args.mirrored(SvmArg(2), -50);
    let reason =
        "setting argument 2 of the annotated kernel to an SVM pointer failed (OpenCL error -50)";
    assert_eq!(args.broken().map(String::as_str), Some(reason));
    // Other settings mirroring do not mend argument 2.
    args.mirrored(Arg(1), CL_SUCCESS);
    args.mirrored(ExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS), CL_SUCCESS);
    assert_eq!(args.broken().map(String::as_str), Some(reason));
    // Argument 2 set again, as a buffer this time, and mirrored: the shadow is whole.
    args.mirrored(Arg(2), CL_SUCCESS);
    assert_eq!(args.broken(), None);
    args.mirrored(ExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS), -30);
    assert_eq!(
        args.broken().map(String::as_str),
        Some("clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS) on the annotated kernel failed (OpenCL error -30)")
    );
    args.mirrored(Arg(2), -38);
    args.mirrored(ExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS), CL_SUCCESS);
    assert_eq!(
        args.broken().map(String::as_str),
        Some("setting argument 2 of the annotated kernel failed (OpenCL error -38)")
    );
    args.mirrored(SvmArg(2), CL_SUCCESS);
    assert_eq!(args.broken(), None);
}

#[test]
fn the_footprint_sums_distinct_buffers_and_is_unknown_with_an_svm_pointer() {
    let mut args = ShadowArgs::default();
    assert_eq!(args.buffer_footprint(), Some(0));
    // Two arguments bound to one buffer count it once; a null buffer counts nothing.
    args.buffers.insert(0, Some((0x1000, 4096)));
    args.buffers.insert(1, Some((0x1000, 4096)));
    args.buffers.insert(2, Some((0x2000, 100)));
    args.buffers.insert(3, Some((0, 0)));
    assert_eq!(args.buffer_footprint(), Some(4196));
    // An SVM pointer (size unknown) makes the whole footprint unknown ...
    args.buffers.insert(2, None);
    assert_eq!(args.buffer_footprint(), None);
    // ... until the argument is a buffer again.
    args.buffers.insert(2, Some((0x3000, 8)));
    assert_eq!(args.buffer_footprint(), Some(4104));
    // What a kernel reads: its arguments 1 and 2 (4096 + 8), argument 0's buffer being
    // argument 1's.
    assert_eq!(args.read_footprint(&[1, 2]), Some(4104));
    assert_eq!(args.read_footprint(&[2, 3]), Some(8));
    assert_eq!(args.read_footprint(&[]), Some(0));
}

#[test]
fn a_given_local_size_is_kept() {
    let g = geometry(&NdRange {
        work_dim: 2,
        offset: [1, 1, 0],
        global: [64, 32, 1],
        local: Some([16, 4, 1]),
    });
    assert_eq!((g.global, g.local), ([64, 32, 1], [16, 4, 1]));
}
