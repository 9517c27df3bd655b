//! Records reduced to warps where the work-items ran (`pipeline_model::Grain::Warp`): a
//! kernel that may do it takes two more parameters after its records, a `__local ulong *`
//! with room for the timing values of each work-item of a work-group (`lanes`), and the
//! warp size (`uint`; 0: write a record per work-item as usual). With a warp size, each
//! work-item leaves its timing values in `lanes` at its exit; every exit goes to the end
//! of the kernel, where a barrier waits for the work-group and the first lane of each warp
//! writes the warp's record: what the model would make of its lanes' records, in a
//! thirty-second of the bytes.
//!
//! The barrier is one all work-items reach: the kernel's returns jump to it, which is safe
//! only where the kernel has no barrier of its own (a work-item that returned early would
//! otherwise wait at a barrier its work-group passes elsewhere): a kernel with both keeps
//! writing a record per work-item. The shim passes a warp size only where the launch's
//! work-groups are all whole (the record of group `g` is at `g` times its warps, counted
//! from the local size).

use std::fmt::Write as _;

use super::{RecordLayout, RECORDS};

/// The name of the work-group's lanes parameter.
pub(super) const LANES: &str = "__srcsim_lanes";
/// The name of the warp size parameter.
pub(super) const WARP: &str = "__srcsim_warp";

/// The parameters a kernel that reduces its records to warps takes after its own.
pub(super) fn params() -> String {
    format!("__global ulong *{RECORDS}, __local ulong *{LANES}, uint {WARP}")
}

/// What the kernel's exit function writes first, with a warp size: the work-item's timing
/// values into its place in `lanes` (the exit function's parameter), and nothing else.
/// Value `v` of the work-item of local linear id `i` is at `v * n + i` (`n` the
/// work-group's size): a warp's values of one kind are contiguous, for the reduction.
pub(super) fn lane_write(functions: &mut String, layout: &RecordLayout) {
    let _ = writeln!(
        functions,
        "    if (warp != 0u) {{\n        size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);\n        __local ulong *lane = lanes + __srcsim_local_id();\n        lane[0] = s->t;"
    );
    for r in 0..layout.resources {
        let _ = writeln!(functions, "        lane[{} * n] = s->u[{r}];", r + 1);
    }
    for a in 0..layout.arms {
        let _ = writeln!(
            functions,
            "        lane[{} * n] = s->a[{a}];",
            layout.resources + 1 + a
        );
    }
    functions.push_str("        return;\n    }\n");
}

/// The functions every kernel that reduces to warps calls: the local linear id, and the
/// reduction of a warp's lanes into its record `[outside, t_max, use.., arm.., bytes]`
/// (`memory`: the resource whose usage is summed as the bytes past the L1) by its first
/// lane: one pass over the lanes for `t` and the arms, then one per value (contiguous
/// lanes, a loop the compiler can vectorise).
pub(super) fn functions(layout: &RecordLayout, memory: Option<usize>) -> String {
    let (resources, arms) = (layout.resources, layout.arms);
    let width = 1 + resources + arms;
    let stride = 3 + resources + arms;
    let arm_sum = if arms == 0 {
        "0".to_string()
    } else {
        (0..arms)
            .map(|a| format!("lanes[{} * n + i]", resources + 1 + a))
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let bytes = memory.map_or(String::new(), |m| {
        format!("\n        bytes += lanes[{} * n + i];", m + 1)
    });
    format!(
        "static inline __attribute__((always_inline)) size_t __srcsim_local_id(void)
{{
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
}}
static inline __attribute__((always_inline)) void __srcsim_warps(__global ulong *records, __local const ulong *lanes, uint warp)
{{
    size_t lid = __srcsim_local_id();
    if (lid % warp != 0) return;
    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    size_t group = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);
    size_t end = min(lid + warp, n);
    __global ulong *w = records + (group * ((n + warp - 1) / warp) + lid / warp) * {stride};
    ulong outside = 0, whole = 0, bytes = 0;
    for (size_t i = lid; i < end; ++i) {{
        ulong t = lanes[i];
        ulong arms = {arm_sum};
        outside = max(outside, t > arms ? t - arms : (ulong)0);
        whole = max(whole, t);{bytes}
    }}
    w[0] = outside;
    w[1] = whole;
    w[{last}] = bytes;
    for (uint v = 1; v < {width}u; ++v) {{
        ulong m = 0;
        for (size_t i = lid; i < end; ++i) m = max(m, lanes[v * n + i]);
        w[v + 1] = m;
    }}
}}
",
        last = stride - 1
    )
}

/// What ends a kernel that reduces to warps, after its exit call: where its returns jump
/// (`label`, where it has any), the barrier, and the warp's record.
pub(super) fn end(label: Option<&str>) -> String {
    format!(
        "{} barrier(CLK_LOCAL_MEM_FENCE); if ({WARP} != 0u) __srcsim_warps({RECORDS}, {LANES}, {WARP});",
        label.map_or(String::new(), |l| format!("{l}:"))
    )
}
