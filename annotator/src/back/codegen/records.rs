//! The annotated file's state and record types, and a work-item's record as the device
//! writes it (its layout is [`pipeline_model::records`]'s): where the timing functions keep
//! its values while the kernel runs.
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

use pipeline_model::records::{
    RecordFormat, LINEAR_ID_OPENCL, SAMPLE_COUNTERS, SAMPLE_FIRST, SAMPLE_LAST, SAMPLE_RUNS,
};

use super::{warps, KernelTiming, NumberedLoops, RECORDS};
use crate::front::source::{NodeKind, SourceFile};

/// Where the values of state `state` are, for a kernel that keeps them in its record.
pub(super) fn in_record(state: &str) -> String {
    format!("__SRCSIM_V({state})")
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
pub(super) fn values_type(format: &RecordFormat) -> String {
    let array = |name: &str, n: usize| {
        if n == 0 {
            String::new()
        } else {
            format!(" ulong {name}[{n}];")
        }
    };
    format!(
        "typedef struct {{ ulong t; ulong u[{}];{}{}{} }} __srcsim_values;\n#ifdef {warps}\n#define __SRCSIM_V(s) (s)\n#else\n#define __SRCSIM_V(s) ((s)->v)\n#endif\n",
        format.resources,
        array("a", format.arm_values()),
        array("p", format.profile_counters),
        array("x", SAMPLE_COUNTERS * format.sampled_accesses),
        warps = warps::DEFINE
    )
}

/// `__srcsim_sample{suffix}`, which counts a sampled access's executions and keeps its
/// first and last index in the counters at `x` (`__private ulong *x = s->x`, or in the
/// record). The index goes through as a `long`: every index of an array that fits in
/// memory keeps its value, so the access is the same.
pub(super) fn sample_function(suffix: &str, x: &str) -> String {
    format!(
        "static inline __attribute__((always_inline)) long __srcsim_sample{suffix}(__private __srcsim_state *s, uint k, long i)\n{{\n    {x} + {SAMPLE_COUNTERS} * k;\n    x[{SAMPLE_FIRST}] = x[{SAMPLE_RUNS}] == 0 ? (ulong)i : x[{SAMPLE_FIRST}];\n    x[{SAMPLE_RUNS}] += 1;\n    x[{SAMPLE_LAST}] = (ulong)i;\n    return i;\n}}\n"
    )
}

/// `__srcsim_sample_from{suffix}(s, k, b, i)`: `__srcsim_sample{suffix}` of the address
/// `b + i` (a pointer variable's, in elements, and the index), selecting the index `i`.
/// `b` is the pointer's value, read twice.
pub(super) fn sample_from(suffix: &str) -> String {
    format!(
        "#define __srcsim_sample_from{suffix}(s, k, b, i) (__srcsim_sample{suffix}((s), (k), (b) + (long)(i)) - (b))\n"
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
pub(super) fn enter_record(format: &RecordFormat) -> String {
    format!(
        "#ifndef {warps}\nstatic inline __attribute__((always_inline)) void __srcsim_enter_record(__private __srcsim_state *s, __global ulong *records)\n{{\n    size_t id = {LINEAR_ID_OPENCL};\n    __global ulong *rec = records + id * {stride};\n    for (uint i = 0; i < {stride}u; ++i)\n        rec[i] = 0;\n    s->v = (__global __srcsim_values *)rec;\n}}\n#endif\n",
        warps = warps::DEFINE,
        stride = format.work_item_stride()
    )
}

/// The end of the exit function of a kernel that keeps its values private: its record,
/// from them.
pub(super) fn record_write(functions: &mut String, format: &RecordFormat) {
    record_values(functions, format, "records", "    ");
    functions.push_str("}\n");
}

/// The statements that write the work-item's record into its place among the records
/// from `base` (a `__global ulong *`), each line indented by `indent`.
pub(super) fn record_values(
    functions: &mut String,
    format: &RecordFormat,
    base: &str,
    indent: &str,
) {
    let _ = writeln!(
        functions,
        "{indent}size_t id = {id};\n{indent}__global ulong *rec = {base} + id * {stride};\n{indent}rec[{t}] = s->t;",
        id = LINEAR_ID_OPENCL,
        stride = format.work_item_stride(),
        t = RecordFormat::T
    );
    for r in 0..format.resources {
        let _ = writeln!(functions, "{indent}rec[{}] = s->u[{r}];", format.usage(r));
    }
    for i in 0..format.arm_values() {
        let _ = writeln!(functions, "{indent}rec[{}] = s->a[{i}];", format.arm(0) + i);
    }
    // A statement per counter, no loop: a run-time index into the private state keeps
    // it out of registers, and PoCL then keeps it in memory across barriers.
    let profile = (0..format.profile_counters).map(|i| ('p', i, format.profile_offset() + i));
    let sampled = (0..SAMPLE_COUNTERS * format.sampled_accesses)
        .map(|i| ('x', i, format.sample_offset(0) + i));
    for (array, i, at) in profile.chain(sampled) {
        let _ = writeln!(functions, "{indent}rec[{at}] = s->{array}[{i}];");
    }
}

/// The annotated file's head: what it is, the state type (its counters sized by `format`
/// and the unrolled `loops`; with `in_record`, the record's type and where the values
/// are, see the module), the generated `functions`, and `#line 1` so that the compiler's
/// messages name the original's lines.
pub(super) fn state_header(
    format: &RecordFormat,
    loops: &NumberedLoops<'_>,
    paths: bool,
    in_record: bool,
    functions: &str,
) -> String {
    let copied = loops.iter().any(|(_, u, _)| u.copies.is_some());
    let values = if in_record {
        values_type(format)
    } else {
        String::new()
    };
    format!(
        "/* Timing annotation by srcsim {}: every work-item adds up its best-case cycles and\n   resource usage and writes them to {RECORDS}. */\n#if __OPENCL_C_VERSION__ < 120\n#define static /* OpenCL C 1.0 and 1.1 have no `static`; the functions are always inlined */\n#endif\n{values}typedef struct {{ ulong t;{usage} uint last;{path}{arm_counters}{loop_counters}{profile}{sampled}{record} }} __srcsim_state;\n{arms_define}{functions}#line 1\n",
        env!("CARGO_PKG_VERSION"),
        usage = super::charges::usage_declaration(format.resources),
        record = if in_record { " __global __srcsim_values *v;" } else { "" },
        path = if paths { " ulong m;" } else { "" },
        loop_counters = match (loops.len(), copied) {
            (0, _) => String::new(),
            (n, false) => format!(" ulong k[{n}];"),
            // Per loop with copies: passes since the loops around it were entered, and
            // the copy the counted pass runs.
            (n, true) => format!(" ulong k[{n}]; uint n[{n}]; uint c[{n}];"),
        },
        profile = if format.profile_counters > 0 {
            format!(" ulong p[{}];", format.profile_counters)
        } else {
            String::new()
        },
        sampled = if format.sampled_accesses == 0 {
            String::new()
        } else {
            format!(" ulong x[{}];", SAMPLE_COUNTERS * format.sampled_accesses)
        },
        arm_counters = if format.arms == 0 {
            String::new()
        } else {
            format!(" ulong a[{}];", format.arm_values())
        },
        // Where the arms' entries begin in `a`, and their decisions at twice that.
        arms_define = if format.arms == 0 {
            String::new()
        } else {
            format!("#define __SRCSIM_ARMS {}\n", format.arms)
        },
    )
}

/// The value the record probe ([`record_probe`]) gives value `j` of kind `kind` (1: `t`,
/// 2: the usage, 3: the arms, 4: the profile's counters, 5: the sampled accesses'
/// counters) of the work-item of linear id `item`; the probe computes the same on the
/// device.
pub fn probe_value(kind: u64, j: u64, item: u64) -> u64 {
    kind * 1_000_000 + j * 1000 + item
}

/// An OpenCL program that writes records of `format` with the very functions an
/// annotated kernel's exit writes them with, each value [`probe_value`] of its kind and
/// place: `__srcsim_record_probe(records)` one record per work-item, and
/// `__srcsim_record_probe_warps(records, lanes, warp)` one per warp, reduced as a copy
/// reduces them (`memory`: the resource summed as bytes). A reader that finds each value
/// where the format says agrees with the device side.
pub fn record_probe(format: &RecordFormat, memory: Option<usize>) -> String {
    let array = |name: &str, n: usize| {
        if n == 0 {
            String::new()
        } else {
            format!(" ulong {name}[{n}];")
        }
    };
    let mut out = format!(
        "typedef struct {{ ulong t; ulong u[{}]; uint last;{}{}{} }} __srcsim_state;\n",
        format.resources.max(1),
        array("a", format.arm_values()),
        array("p", format.profile_counters),
        array("x", SAMPLE_COUNTERS * format.sampled_accesses),
    );
    out.push_str(&warps::functions(format, memory, true, false));
    out.push_str("static inline __attribute__((always_inline)) void __srcsim_probe_fill(__private __srcsim_state *s, ulong i)\n{\n");
    let value = |kind: u64, j: usize| format!("{}ul + i", probe_value(kind, j as u64, 0));
    let _ = writeln!(out, "    s->t = {};", value(1, 0));
    let kinds = [
        ('u', 2, format.resources),
        ('a', 3, format.arm_values()),
        ('p', 4, format.profile_counters),
        ('x', 5, SAMPLE_COUNTERS * format.sampled_accesses),
    ];
    for (array, kind, n) in kinds {
        for j in 0..n {
            let _ = writeln!(out, "    s->{array}[{j}] = {};", value(kind, j));
        }
    }
    out.push_str("}\n");
    out.push_str("static inline __attribute__((always_inline)) void __srcsim_probe_write(__private __srcsim_state *s, __global ulong *records, __local ulong *lanes, uint warp)\n{\n");
    warps::lane_write(&mut out, format, "s", false, false);
    record_write(&mut out, format);
    let _ = write!(
        out,
        "__kernel void __srcsim_record_probe(__global ulong *records)
{{
    __srcsim_state s;
    __srcsim_probe_fill(&s, {LINEAR_ID_OPENCL});
    __srcsim_probe_write(&s, records, 0, 0u);
}}
__kernel void __srcsim_record_probe_warps(__global ulong *records, __local ulong *lanes, uint warp)
{{
    __srcsim_state s;
    __srcsim_probe_fill(&s, {LINEAR_ID_OPENCL});
    __srcsim_probe_write(&s, records, lanes, warp);
    barrier(CLK_LOCAL_MEM_FENCE);
    __srcsim_reduce_warp(records, lanes, warp);
}}
"
    );
    out
}
