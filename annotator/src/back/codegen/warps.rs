//! Records reduced to warps where the work-items ran (`pipeline_model::Grain::Warp`): a
//! kernel that may do it gets a copy, `__srcsim_warps_<kernel>`, that takes two more
//! parameters after its records, a `__local ulong *` with room for the timing values of
//! each work-item of a work-group (`lanes`), and the warp size (`uint`). Each work-item
//! leaves its timing values in `lanes` at its exit; every exit goes to the end of the
//! kernel, where a barrier waits for the work-group and the first lane of each warp writes
//! the warp's record: what the model would make of its lanes' records, in a thirty-second
//! of the bytes. The kernel itself keeps writing a record per work-item: a barrier makes
//! the OpenCL CPU runtime's compile of a kernel several times slower (it compiles one per
//! work-group size), which only pays for a kernel launched many times or with many
//! work-items, so the shim chooses per launch.
//!
//! The copies are built apart ([`DEFINE`]): a program of the annotated file holds either
//! the kernels or the copies, and the shim builds the copies' program only when a launch
//! first asks for one (the runtime compiles every kernel of a program whose binary is
//! kept, and the copies' barriers make that slow).
//!
//! A kernel with sampled accesses, whose counters the model reads lane by lane, reduces
//! only the lanes that ran none of them (`__srcsim_reduce_kept`): each lane also leaves
//! whether it ran one and their counters in `lanes`, and the reducer marks those lanes
//! in a mask per warp and writes their whole records from their work-group's place
//! (`pipeline_model::KeptLanes`).
//!
//! The barrier is one all work-items reach: the kernel's returns jump to it, which is safe
//! only where the kernel has no barrier of its own (a work-item that returned early would
//! otherwise wait at a barrier its work-group passes elsewhere): a kernel with both gets no
//! copy. The shim runs the copy only where the launch's work-groups are all whole (the
//! record of group `g` is at `g` times its warps, counted from the local size).

use std::fmt::Write as _;

use super::edits::{apply, wrap_returns, Edit};
use pipeline_model::records::{
    KEPT_NARROW, SAMPLE_COUNTERS, SAMPLE_FIRST, SAMPLE_LAST, SAMPLE_RUNS,
};
use pipeline_model::RecordFormat;

use super::{CodegenError, RECORDS, STATE};
use crate::front::source::{NodeKind, SourceFunction};

/// The macro that builds the annotated file's copies instead of its kernels: defined, the
/// program holds only the copies (and what they call), so that the copies' slow compile
/// is paid only where they are used.
pub const DEFINE: &str = "__SRCSIM_WARPS";

/// The launch's warps (`n` the work-group's size, `warp` the warp size): the kept lanes'
/// records start after a record and a mask word per warp.
const KEPT_START: &str =
    "(get_num_groups(0) * get_num_groups(1) * get_num_groups(2) * ((n + warp - 1) / warp))";

/// The name of the work-group's lanes parameter.
pub(super) const LANES: &str = "__srcsim_lanes";
/// The name of the warp size parameter.
pub(super) const WARP: &str = "__srcsim_warp";

/// The name of kernel `name`'s copy that reduces its records to warps.
pub fn kernel_name(name: &str) -> String {
    format!("__srcsim_warps_{name}")
}

/// The name of the kept lanes' counter's value at the launch's start (a copy of a kernel
/// with sampled accesses).
pub(super) const START: &str = "__srcsim_start";

/// The parameters the copy takes after the kernel's own; with `sampled` (a kernel with
/// sampled accesses), also the value its records' counter of kept values holds before
/// the launch (`pipeline_model::KeptLanes::counter`: the host reads it where the
/// records are, which spares the launch a command that clears it).
pub(super) fn params(sampled: bool) -> String {
    let start = if sampled {
        format!(", uint {START}")
    } else {
        String::new()
    };
    format!("__global ulong *{RECORDS}, __local ulong *{LANES}, uint {WARP}{start}")
}

/// What the kernel's exit function writes first, with a warp size: the work-item's timing
/// values (found at `values`, as in [`super::charges::charge`]) into its place in `lanes`
/// (the exit function's parameter), and nothing else. Value `v` of the work-item of local
/// linear id `i` is at `i * V + v` (`V` its values, [`RecordFormat::lane_values`]): a
/// work-item's values are contiguous, so that it writes a line or two where, a kind of
/// value per `n` (the work-group's size), it wrote one per value. The copy of `bfs_frontier`'s
/// `expand` (ten values and a flag per lane, 300032 lanes): 32.6 -> 27.3 ms over its ten
/// levels on PoCL, the plain kernel 6.0 (docs/performance.md, 2026-12-03).
///
/// With `branch_free`, the copies' build (the only one that passes lanes) writes them and
/// returns without a branch on `warp` (see `charges::select_charges`).
///
/// With `sampled` (a kernel with sampled accesses), the work-item also leaves whether it
/// ran one, and where it did, its sampled accesses' counters (`RecordFormat::lane_values`):
/// the reduction writes its whole record (`pipeline_model::KeptLanes`).
pub(super) fn lane_write(
    functions: &mut String,
    format: &RecordFormat,
    values: &str,
    branch_free: bool,
    sampled: bool,
) {
    let guard = if branch_free {
        format!("#ifdef {DEFINE}\n    {{")
    } else {
        "    if (warp != 0u) {".to_string()
    };
    let _ = writeln!(
        functions,
        "{guard}\n        __local ulong *lane = lanes + __srcsim_local_id() * {width};\n        lane[{t}] = {values}->t;",
        width = format.lane_values(sampled),
        t = RecordFormat::T
    );
    for r in 0..format.resources {
        let _ = writeln!(
            functions,
            "        lane[{}] = {values}->u[{r}];",
            format.usage(r)
        );
    }
    for i in 0..format.arm_values() {
        let _ = writeln!(
            functions,
            "        lane[{}] = {values}->a[{i}];",
            format.arm(0) + i
        );
    }
    if sampled {
        let runs: Vec<String> = (0..format.sampled_accesses)
            .map(|k| format!("s->x[{}]", SAMPLE_COUNTERS * k + SAMPLE_RUNS))
            .collect();
        let flag = format.lane_ran();
        let _ = writeln!(
            functions,
            "        ulong ran = {};\n        lane[{flag}] = ran;\n        if (ran != 0) {{",
            runs.join(" | ")
        );
        for c in 0..SAMPLE_COUNTERS * format.sampled_accesses {
            let _ = writeln!(
                functions,
                "            lane[{}] = s->x[{c}];",
                format.lane_sample(c)
            );
        }
        functions.push_str("        }\n");
    }
    functions.push_str("        return;\n    }\n");
    if branch_free {
        functions.push_str("#endif\n");
    }
}

/// A warps' reducer, `__srcsim_reduce_<suffix>(records, lanes, warp)`: the reducers are
/// the work-items of the first row of the group (`get_local_id(1)` and `(2)` zero), each
/// taking every `get_local_size(0)`-th warp `k`, whose lanes are `first..end`; `body`
/// fills its record `r` ([`RecordFormat::warp_stride`] values). A reducer picked by
/// `local linear id % warp` cost a division per work-item, and the id computed before the
/// barrier and kept across it a value per work-item in memory (a copy of an LU update of
/// 262144 work-items: 1.07 to about 0.6 ms a launch on PoCL).
pub(super) fn reducer(suffix: &str, format: &RecordFormat, body: &str) -> String {
    reducer_walking(
        suffix,
        format,
        body,
        "(get_local_id(1) | get_local_id(2))",
        "for (size_t k = get_local_id(0); k < warps; k += get_local_size(0))",
        "",
    )
}

/// The reducer of a kernel with sampled accesses, `__srcsim_reduce_kept`: one work-item
/// of the group takes its warps in turn, so that the kept lanes' place in the group
/// (`at`, which [`kept_write`] moves on) runs on from warp to warp; each reducer of
/// [`reducer`] counted the lanes kept before its warp anew, a pass over the group's
/// earlier lanes for every warp that kept one.
fn kept_reducer(format: &RecordFormat, body: &str) -> String {
    reducer_walking(
        "kept",
        format,
        body,
        "(get_local_id(0) | get_local_id(1) | get_local_id(2))",
        "ulong any = 0, wide = 0, count = 0;\n    for (size_t k = 0; k < warps; ++k)",
        &kept_records(format),
    )
}

/// A reducer whose work-items other than those `reducers` leaves at zero return, and the
/// rest take the group's warps `k` as `walk` steps them, and then do `after`.
fn reducer_walking(
    suffix: &str,
    format: &RecordFormat,
    body: &str,
    reducers: &str,
    walk: &str,
    after: &str,
) -> String {
    format!(
        "static inline __attribute__((always_inline)) void __srcsim_reduce_{suffix}(__global ulong *records, __local const ulong *lanes, uint warp{start})
{{
    if ({reducers} != 0) return;
    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    size_t warps = (n + warp - 1) / warp;
    size_t group = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);
    {walk} {{
        size_t first = k * warp, end = min(first + warp, n);
        __global ulong *r = records + (group * warps + k) * {stride};
{body}    }}
{after}}}
",
        stride = format.warp_stride(),
        start = if suffix == "kept" { ", uint start" } else { "" },
    )
}

/// The functions every kernel that reduces to warps calls: the local linear id, and (with
/// `counters`, where some copy of a kernel without sampled accesses keeps counters, not
/// paths) the reduction of each warp's
/// lanes into its record `[outside, t_max, use.., arm.., bytes]` (`memory`: the resource
/// whose usage is summed as the bytes past the L1), in one pass over the warp's lanes.
///
/// With `sampled` (a copy of a kernel with sampled accesses), also their reduction,
/// `__srcsim_reduce_kept`: the lanes that ran a sampled access are left out of their
/// warp's record and marked in its mask (`pipeline_model::KeptLanes`).
pub(super) fn functions(
    format: &RecordFormat,
    memory: Option<usize>,
    counters: bool,
    sampled: bool,
) -> String {
    let local_id = "static inline __attribute__((always_inline)) size_t __srcsim_local_id(void)
{
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
}
";
    if !counters && !sampled {
        return local_id.to_string();
    }
    let (resources, arms) = (format.resources, format.arms);
    let width = format.timing_width();
    let summed: Vec<usize> = (0..arms)
        .flat_map(|a| [format.arm(a), format.arm_entries(a)])
        .collect();
    let declared: String = (1..width)
        .map(|v| format!(", m{v} = 0"))
        .chain(summed.iter().map(|v| format!(", s{v} = 0")))
        .collect();
    let placed = (0..resources)
        .map(|r| (format!("m{}", format.usage(r)), format.warp_usage(r)))
        .chain((0..arms).flat_map(|a| {
            [
                (format!("m{}", format.arm(a)), format.warp_arm(a)),
                (format!("s{}", format.arm(a)), format.warp_arm_sum(a)),
                (
                    format!("s{}", format.arm_entries(a)),
                    format.warp_arm_entries(a),
                ),
                (
                    format!("m{}", format.arm_decisions(a)),
                    format.warp_arm_decisions(a),
                ),
            ]
        }));
    let written: String = placed
        .map(|(v, at)| format!("\n        r[{at}] = {v};"))
        .collect();
    // The compiler is told to leave the loop over the lanes as written: vectorised, it
    // was a third of PoCL's compile of the copies for a program binary (`reduction`'s:
    // 845 against 540 ms), where PoCL vectorises the copy across its work-items anyway.
    let body = |kept: bool| {
        // A lane's values are contiguous (`lane_write`): `V` of them, `V` as the reducer's
        // kernels leave them (with `kept`, a kernel with sampled accesses).
        let values = format.lane_values(kept);
        let lane = |v: usize| format!("lanes[i * {values} + {v}]");
        // Without arms, the most any lane spent outside them is its whole time.
        let outside = if arms == 0 {
            String::new()
        } else {
            let arm_sum: Vec<String> = (0..arms).map(|a| lane(format.arm(a))).collect();
            format!(
                "\n            ulong arms = {};\n            outside = max(outside, t > arms ? t - arms : (ulong)0);",
                arm_sum.join(" + ")
            )
        };
        let bytes = memory.map_or(String::new(), |m| {
            format!("\n            bytes += {};", lane(format.usage(m)))
        });
        // Per timing value after `t`, its most (`m`) and its sum (`s`) over the lanes; each
        // warp field takes one of them: the usage's, the arms' cycles' and their branches'
        // decisions' most, the arms' cycles' and entries' sums.
        let maxima: String = (1..width)
            .map(|v| format!("\n            m{v} = max(m{v}, {});", lane(v)))
            .collect();
        let sums: String = summed
            .iter()
            .map(|v| format!("\n            s{v} += {};", lane(*v)))
            .collect();
        let (kept_decl, skip, mask) = if kept {
            (
                ", kept = 0",
                format!(
                    "\n            if ({} != 0) {{\n                kept |= (ulong)1 << (i - first);\n                count += 1;\n                wide |= {};\n                continue;\n            }}",
                    lane(format.lane_ran()),
                    too_wide(format, &lane),
                ),
                kept_write(format),
            )
        } else {
            ("", String::new(), String::new())
        };
        format!(
            "        ulong {outside_decl}whole = 0, bytes = 0{declared}{kept_decl};
#pragma clang loop vectorize(disable) interleave(disable)
        for (size_t i = first; i < end; ++i) {{{skip}
            ulong t = {t};
            whole = max(whole, t);{outside}{bytes}{maxima}{sums}
        }}
        r[{outside_at}] = {first};
        r[{t_max_at}] = whole;{written}
        r[{bytes_at}] = bytes;
{mask}",
            first = if arms == 0 { "whole" } else { "outside" },
            outside_decl = if arms == 0 { "" } else { "outside = 0, " },
            outside_at = RecordFormat::WARP_OUTSIDE,
            t_max_at = RecordFormat::WARP_T_MAX,
            bytes_at = format.warp_bytes(),
            t = lane(RecordFormat::T),
        )
    };
    let kept = if sampled {
        kept_reducer(format, &body(true))
    } else {
        String::new()
    };
    let warp = if counters {
        reducer("warp", format, &body(false))
    } else {
        String::new()
    };
    format!("{local_id}{warp}{kept}")
}

/// What the reduction of a kernel with sampled accesses writes after each warp's record:
/// its mask of kept lanes (`kept`), and whether any lane of the group was kept.
fn kept_write(format: &RecordFormat) -> String {
    format!(
        "        records[{KEPT_START} * {stride} + group * warps + k] = kept;\n        any |= kept;\n",
        stride = format.warp_stride(),
    )
}

/// An expression of kept lane `lane` (its values in the work-group's lanes) whose high 32
/// bits are 0 only where every value of its record fits in 32 bits: the timing values
/// and the executions below `2^32`, the sampled indices (signed) between `-2^31` and
/// `2^31` (`pipeline_model::KeptLanes`, which widens them back).
fn too_wide(format: &RecordFormat, lane: &dyn Fn(usize) -> String) -> String {
    let mut unsigned: Vec<String> = (0..format.timing_width()).map(lane).collect();
    let mut signed = Vec::new();
    for a in 0..format.sampled_accesses {
        let c = SAMPLE_COUNTERS * a;
        unsigned.push(lane(format.lane_sample(c + SAMPLE_RUNS)));
        for i in [SAMPLE_FIRST, SAMPLE_LAST] {
            signed.push(format!(
                "({} + 0x80000000ul)",
                lane(format.lane_sample(c + i))
            ));
        }
    }
    format!("{} | {}", unsigned.join(" | "), signed.join(" | "))
}

/// What the reduction of a kernel with sampled accesses writes once its warps are done,
/// where the group kept a lane (`count` of them): it takes room for them from the
/// records' counter (`start` its value before the launch), notes where in its offset, and
/// writes there a header and the kept lanes' records, in local linear id order
/// (`pipeline_model::KeptLanes`): in 32-bit values where every one fits, two to a word,
/// else whole. Room past the region (a counter the host read wrong) is not taken.
fn kept_records(format: &RecordFormat) -> String {
    let flag = format.lane_ran();
    let item = format.work_item_stride();
    let values = format.lane_values(true);
    // Each kept value stored as a `t`.
    let stores = |t: &str| {
        let mut stores = String::new();
        for v in 0..format.timing_width() {
            let _ = write!(
                stores,
                "\n                rec[{v}] = ({t})lanes[i * {values} + {v}];"
            );
        }
        for c in 0..SAMPLE_COUNTERS * format.sampled_accesses {
            let _ = write!(
                stores,
                "\n                rec[{}] = ({t})lanes[i * {values} + {}];",
                format.sample_offset(0) + c,
                format.lane_sample(c)
            );
        }
        stores
    };
    let copy = |t: &str, at: &str| {
        format!(
            "            for (size_t i = 0; i < n; ++i) {{
                if (lanes[i * {values} + {flag}] == 0) continue;
                __global {t} *rec = {at} + at * {item};
                at += 1;{}
            }}\n",
            stores(t)
        )
    };
    format!(
        "    if (any == 0) return;
    size_t groups = get_num_groups(0) * get_num_groups(1) * get_num_groups(2);
    __global ulong *offsets = records + {KEPT_START} * {per_warp};
    __global ulong *region = offsets + groups + 1;
    int narrow = (wide >> 32) == 0;
    ulong words = narrow ? (count * {item} + 1) / 2 : count * {item};
    uint taken = atomic_add((volatile __global uint *)(offsets + groups), (uint)(words + 1)) - start;
    if ((ulong)taken + words + 1 > groups * (n * {item} + 1)) return;
    offsets[group] = taken;
    __global ulong *place = region + taken;
    size_t at = 0;
    if (narrow) {{
        place[0] = {KEPT_NARROW}ul;
{narrow}    }} else {{
        place[0] = 0;
{whole}    }}
",
        per_warp = format.warp_stride() + 1,
        narrow = copy("uint", "(__global uint *)(place + 1)"),
        whole = copy("ulong", "(place + 1)"),
    )
}

/// The copy's exits: each return calls the exit function with the lanes (or, keeping
/// `paths`, the function leaving its bits there) and jumps to the end (the `return` after
/// the jump stays, unreached); at the end, the barrier and the warp's record.
pub(super) fn exits(
    file: &crate::front::source::SourceFile,
    f: &SourceFunction,
    name: &str,
    paths: bool,
    sampled: bool,
    edits: &mut Vec<Edit>,
) -> Result<(), CodegenError> {
    // A kernel keeping paths (module `path_codes`) leaves its bits and has a reducer of
    // its own.
    let (exit_call, reduce) = if paths {
        (
            format!("__srcsim_lanes_{name}({STATE}, {LANES});"),
            format!("__srcsim_reduce_{name}"),
        )
    } else {
        (
            format!("__srcsim_exit_{name}({STATE}, {RECORDS}, {LANES}, {WARP});"),
            format!("__srcsim_reduce_{}", if sampled { "kept" } else { "warp" }),
        )
    };
    let label = format!("__srcsim_end_{name}");
    let returns = f.body.any(&|n| n.kind == NodeKind::Return);
    let start = if sampled && !paths {
        format!(", {START}")
    } else {
        String::new()
    };
    let at_end = format!(
        "{exit_call}{} barrier(CLK_LOCAL_MEM_FENCE); {reduce}({RECORDS}, {LANES}, {WARP}{start});",
        if returns {
            format!(" {label}:")
        } else {
            String::new()
        }
    );
    wrap_returns(
        file,
        f,
        |_| format!("{{ {exit_call} goto {label}; "),
        &at_end,
        edits,
    )
}

/// The text of `f`'s copy: `text`'s definition of it with the `edits` inside it (the
/// timing calls) and `own` (the copy's parameters and exits), renamed, after a `#line`
/// that keeps the compiler's messages on the original's lines.
pub(super) fn copy(text: &str, f: &SourceFunction, edits: &[Edit], own: Vec<Edit>) -> String {
    let (start, end) = (f.extent.start.offset, f.extent.end.offset);
    let inside: Vec<Edit> = edits
        .iter()
        .filter(|e| (start..=end).contains(&e.offset))
        .cloned()
        .chain(own)
        .map(|mut e| {
            e.offset -= start;
            e
        })
        .collect();
    let body = apply(&text[start as usize..end as usize], String::new(), inside);
    let renamed = rename(&body, &f.name, &kernel_name(&f.name));
    format!("\n#line {}\n{renamed}\n", f.extent.start.line)
}

/// The edits that leave kernel `f` out of the build with [`DEFINE`]: `#ifndef` before it,
/// `#endif` after it, each followed by a `#line` that keeps the original's line numbers.
pub(super) fn without_copies(f: &SourceFunction) -> [Edit; 2] {
    [
        Edit {
            offset: f.extent.start.offset,
            class: super::edits::CLOSE,
            nesting: i64::MIN,
            text: format!("\n#ifndef {DEFINE}\n#line {}\n", f.extent.start.line),
        },
        Edit {
            offset: f.extent.end.offset,
            class: super::edits::CLOSE,
            nesting: i64::MIN,
            text: format!("\n#endif\n#line {}\n", f.extent.end.line),
        },
    ]
}

/// `text` with the first `name(` (a whole identifier, before its parameter list) called
/// `new`.
fn rename(text: &str, name: &str, new: &str) -> String {
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut from = 0;
    while let Some(i) = text[from..].find(name).map(|i| i + from) {
        let after = text[i + name.len()..].trim_start();
        if (i == 0 || !ident(bytes[i - 1])) && after.starts_with('(') {
            return format!("{}{new}{}", &text[..i], &text[i + name.len()..]);
        }
        from = i + name.len();
    }
    text.to_string()
}
