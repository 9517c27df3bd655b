//! A work-item's record: what it holds ([`RecordLayout`]), and where the timing functions
//! keep its values while the kernel runs.
//!
//! A kernel with a barrier keeps its record's values in its record, in `__global` memory,
//! rather than in its private state (where it calls no function of the file; its copy
//! that reduces to warps keeps them private): PoCL runs the code between two barriers as
//! a loop over the work-group's work-items, and saves every private value live across a
//! barrier to memory and loads it back at each one, all the record's values at every
//! barrier of every work-item; in the record, a value is only touched where a charge
//! adds to it. `scan`'s twin of `scan_blocks`, 15 values and barriers in two loops: four
//! times less CPU on an AVX-512 Xeon (docs/performance.md, session 15). The timing
//! functions reach the values through `__SRCSIM_V(s)` ([`in_record`]): the record
//! (`s->v`) in the twin's build, the state itself in the copies' (`warps::DEFINE`).

use std::fmt::Write as _;

use super::{warps, KernelTiming};
use crate::source::{NodeKind, SourceFile};

/// Where the values of state `state` are, for a kernel that keeps them in its record.
pub(super) fn in_record(state: &str) -> String {
    format!("__SRCSIM_V({state})")
}

/// The linear global id of the work-item, whose record is at `id * stride`.
const LINEAR_ID: &str = "(get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0)\n              + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)\n              + (get_global_id(0) - get_global_offset(0))";

/// What one work-item's record holds after `t`, in order: the usage of each resource,
/// the divergent arms' cycles, the profile's counters, the sampled accesses' counters.
pub(super) struct RecordLayout {
    pub(super) resources: usize,
    pub(super) arms: usize,
    pub(super) counters: usize,
    /// Whether the profile's counters are written (profile mode).
    pub(super) profiled: bool,
    pub(super) samples: usize,
}

impl RecordLayout {
    /// Values per record.
    pub(super) fn stride(&self) -> usize {
        1 + self.resources + self.arms + self.counters + self.samples
    }

    /// Values per warp record: `[outside, t_max, use.., arm.., bytes]`.
    pub(super) fn warp_stride(&self) -> usize {
        3 + self.resources + self.arms
    }
}

/// Per kernel of `kernels` (called functions: false), whether it keeps its values in its
/// record: it has a barrier, and neither it nor any kernel of the file calls a function
/// of the file (whose timing functions charge whichever kernel's state runs them).
pub(super) fn kept_in_record(file: &SourceFile, kernels: &[KernelTiming<'_>]) -> Vec<bool> {
    let calls = kernels.iter().any(|k| k.called);
    kernels
        .iter()
        .map(|k| {
            let name = &k.map.kernel;
            !calls && !k.called && file.has_barrier(name) && !calls_own(file, name)
        })
        .collect()
}

/// Whether `function` calls a function the file defines.
fn calls_own(file: &SourceFile, function: &str) -> bool {
    file.function(function).is_some_and(|f| {
        f.body
            .any(&|n| n.kind == NodeKind::Call && file.function(&n.spelling).is_some())
    })
}

/// The record's type (its values in the record's order: the profile's counters come
/// before the sampled ones whether they are written or not) and `__SRCSIM_V`, for the
/// file's head.
pub(super) fn values_type(layout: &RecordLayout) -> String {
    let array = |name: &str, n: usize| {
        if n == 0 {
            String::new()
        } else {
            format!(" ulong {name}[{n}];")
        }
    };
    format!(
        "typedef struct {{ ulong t; ulong u[{}];{}{}{} }} __srcsim_values;\n#ifdef {warps}\n#define __SRCSIM_V(s) (s)\n#else\n#define __SRCSIM_V(s) ((s)->v)\n#endif\n",
        layout.resources,
        array("a", layout.arms),
        array("p", layout.counters),
        array("x", layout.samples),
        warps = warps::DEFINE
    )
}

/// `__srcsim_sample{suffix}`, which counts a sampled access's executions and keeps its
/// first and last index in the counters at `x` (`__private ulong *x = s->x`, or in the
/// record). The index goes through as a `long`: every index of an array that fits in
/// memory keeps its value, so the access is the same.
pub(super) fn sample_function(suffix: &str, x: &str) -> String {
    format!(
        "static inline __attribute__((always_inline)) long __srcsim_sample{suffix}(__private __srcsim_state *s, uint k, long i)\n{{\n    {x} + 3 * k;\n    x[1] = x[0] == 0 ? (ulong)i : x[1];\n    x[0] += 1;\n    x[2] = (ulong)i;\n    return i;\n}}\n"
    )
}

/// `__srcsim_sample_v`: `__srcsim_sample` on the record's counters in the twin's build,
/// the same function in the copies'.
pub(super) fn sample_in_record() -> String {
    format!(
        "#ifdef {warps}\n#define __srcsim_sample_v __srcsim_sample\n#else\n{}#endif\n",
        sample_function("_v", "__global ulong *x = s->v->x"),
        warps = warps::DEFINE
    )
}

/// The function that makes a kernel's record where it keeps its values (zeroed: the
/// timing functions add to them, and the shim reuses records' memory without clearing
/// it) and points its state to it, built only into the twin.
pub(super) fn enter_record(layout: &RecordLayout) -> String {
    format!(
        "#ifndef {warps}\nstatic inline __attribute__((always_inline)) void __srcsim_enter_record(__private __srcsim_state *s, __global ulong *records)\n{{\n    size_t id = {LINEAR_ID};\n    __global ulong *rec = records + id * {stride};\n    for (uint i = 0; i < {stride}u; ++i)\n        rec[i] = 0;\n    s->v = (__global __srcsim_values *)rec;\n}}\n#endif\n",
        warps = warps::DEFINE,
        stride = layout.stride()
    )
}

/// The end of the exit function of a kernel that keeps its values private: its record,
/// from them.
pub(super) fn record_write(functions: &mut String, layout: &RecordLayout) {
    let RecordLayout {
        resources,
        arms,
        counters,
        samples,
        ..
    } = *layout;
    let _ = writeln!(
        functions,
        "    size_t id = {LINEAR_ID};\n    __global ulong *rec = records + id * {stride};\n    rec[0] = s->t;",
        stride = layout.stride()
    );
    for r in 0..resources {
        let _ = writeln!(functions, "    rec[{}] = s->u[{r}];", r + 1);
    }
    for a in 0..arms {
        let _ = writeln!(functions, "    rec[{}] = s->a[{a}];", resources + 1 + a);
    }
    // A statement per counter, no loop: a run-time index into the private state keeps
    // it out of registers, and PoCL then keeps it in memory across barriers.
    let profile = (0..counters)
        .filter(|_| layout.profiled)
        .map(|i| ('p', i, arms + i));
    let sampled = (0..samples).map(|i| ('x', i, arms + counters + i));
    for (array, i, at) in profile.chain(sampled) {
        let _ = writeln!(
            functions,
            "    rec[{}] = s->{array}[{i}];",
            resources + 1 + at
        );
    }
    functions.push_str("}\n");
}
