//! Copies that reduce records to warps, the paths they keep, and group-free kernels.

use super::*;

/// A kernel whose work-items may return early gets no copy that reduces to warps where it
/// has a barrier of its own (the returns cannot all jump to one more barrier: a work-item
/// that returned would wait there while its group waits at the kernel's); without one, the
/// copy's returns jump to its end, where the warps' records are written after a barrier.
#[test]
fn early_returns_reduce_to_warps_only_without_a_barrier() {
    let src = |barrier: &str| {
        format!(
            "__kernel void k(__global float *x, const int n)\n{{\n    int i = get_global_id(0);\n    \
             if (i >= n)\n        return;\n    x[i] *= 2.0f;\n{barrier}}}\n"
        )
    };
    let plain = annotate(&temp("early_plain.cl", &src(""))).unwrap();
    assert!(plain.sidecar.kernels[0].warp_records);
    // The kernel itself returns as it did; its copy leaves its path and jumps to the end.
    assert!(plain
        .source
        .contains("__srcsim_exit_k(__srcsim, __srcsim_records); return; }"));
    assert!(plain
        .source
        .contains("__srcsim_lanes_k(__srcsim, __srcsim_lanes); goto __srcsim_end_k;"));
    assert!(plain.source.contains("__kernel void __srcsim_warps_k("));
    assert!(plain
        .source
        .contains("__srcsim_end_k: barrier(CLK_LOCAL_MEM_FENCE);"));
    let with_barrier = annotate(&temp(
        "early_barrier.cl",
        &src("    barrier(CLK_GLOBAL_MEM_FENCE);\n"),
    ))
    .unwrap();
    assert!(!with_barrier.sidecar.kernels[0].warp_records);
    assert!(!with_barrier.source.contains("goto"));
    assert!(with_barrier
        .source
        .contains("const int n, __global ulong *__srcsim_records)"));
}

/// A copy keeps each work-item's path (a bit per transition of its timing state, the
/// counters summed per path by the warp's reducer) only where no transition can run
/// twice: a loop-free kernel does; one with a loop left rolled keeps its counters.
#[test]
fn copies_keep_paths_only_where_no_transition_repeats() {
    let straight = annotate(&temp(
        "paths_straight.cl",
        "__kernel void k(__global float *x, const int n)\n{\n    int i = get_global_id(0);\n    \
         if (i < n)\n        x[i] = sqrt(x[i]);\n    else\n        x[i] = 0.0f;\n}\n",
    ))
    .unwrap();
    let s = &straight.source;
    assert!(s.contains(" ulong m; } __srcsim_state;"), "{s}");
    assert!(s.contains("s->m |= 0x1ul;"), "{s}");
    assert!(s.contains("lanes[__srcsim_local_id()] = s->m;"), "{s}");
    assert!(s.contains("__srcsim_fold_k(a, na, w);"), "{s}");
    assert!(s.contains(" barrier(CLK_LOCAL_MEM_FENCE); __srcsim_reduce_k(__srcsim_records, __srcsim_lanes, __srcsim_warp);"), "{s}");
    // The kernel's own exit writes its counters, as before.
    assert!(
        s.contains("__srcsim_exit_k(__srcsim, __srcsim_records); }"),
        "{s}"
    );

    let looped = annotate(&temp(
        "paths_loop.cl",
        "__kernel void k(__global float *x, const int n)\n{\n    int i = get_global_id(0);\n    \
         float a = 0.0f;\n    #pragma unroll 1\n    for (int j = 0; j < n; ++j)\n        a += x[j];\n    \
         x[i] = a;\n}\n",
    ))
    .unwrap();
    let s = &looped.source;
    assert!(looped.sidecar.kernels[0].warp_records);
    assert!(!s.contains("s->m"), "{s}");
    assert!(!s.contains("__srcsim_lanes_k("), "{s}");
    assert!(
        s.contains("__srcsim_exit_k(__srcsim, __srcsim_records, __srcsim_lanes, __srcsim_warp);"),
        "{s}"
    );
    assert!(
        s.contains("__srcsim_reduce_warp(__srcsim_records, __srcsim_lanes, __srcsim_warp);"),
        "{s}"
    );
}

/// A kernel is group-free only where nothing its work-items do depends on the
/// work-groups: each kernel below adds one way of telling them apart to one that has
/// none, in the kernel itself or in a helper it calls.
#[test]
fn group_free_kernels_ask_nothing_of_their_work_groups() {
    let helper = "float scaled(float v) { return 2.0f * v; }\n";
    let free = "__kernel void k(__global float *x, const float d, const int n)\n{\n    \
                size_t i = get_global_id(0) + get_global_offset(0) * get_global_size(0);\n    \
                for (int j = 0; j < n; ++j)\n        x[i] = scaled(x[i]) / d;\n}\n";
    // A helper whose body is in an included file, where the annotator does not look.
    temp(
        "groups_lid.h",
        "int lid(void) { return get_local_id(0); }\n",
    );
    let cases: [(&str, String, String); 9] = [
        ("free", helper.to_string(), free.to_string()),
        (
            "local_id",
            helper.to_string(),
            free.replace("x[i]) / d", "x[i]) / d + get_local_id(0)"),
        ),
        (
            "group_in_helper",
            "float scaled(float v) { return v * get_group_id(0); }\n".to_string(),
            free.to_string(),
        ),
        (
            "barrier",
            helper.to_string(),
            free.replace(
                "x[i] = scaled",
                "{ barrier(CLK_GLOBAL_MEM_FENCE); x[i] = scaled",
            )
            .replace("/ d;", "/ d; }"),
        ),
        (
            "atomic",
            helper.to_string(),
            free.replace("const int n)", "const int n, __global int *c)")
                .replace("x[i]) / d;", "x[i]) / d + atomic_inc(c);"),
        ),
        (
            "local_array",
            helper.to_string(),
            free.replace(
                "{\n    size_t",
                "{\n    __local float t[64];\n    t[0] = d;\n    size_t",
            )
            .replace("/ d;", "/ t[0];"),
        ),
        (
            "included_helper",
            format!("#include \"groups_lid.h\"\n{helper}"),
            free.replace("x[i]) / d;", "x[i]) / d + lid();"),
        ),
        (
            "local_param",
            helper.to_string(),
            free.replace("const int n)", "const int n, __local float *t)"),
        ),
        (
            "required_size",
            helper.to_string(),
            free.replace(
                "__kernel void",
                "__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void",
            ),
        ),
    ];
    for (name, helper, kernel) in cases {
        let a = annotate(&temp(
            &format!("groups_{name}.cl"),
            &format!("{helper}{kernel}"),
        ))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            a.sidecar.kernels[0].group_free,
            name == "free",
            "{name}:\n{helper}{kernel}"
        );
    }
}
