//! The annotator end to end (without running kernels: tests/tests/annotated_kernels/
//! runs them): every example annotates and the annotated file compiles; unusual but
//! valid OpenCL C too; the constructs it cannot handle are errors that name the line.

use std::path::{Path, PathBuf};

use annotator::annotate::{annotate_file, Annotation};
use annotator::compile::{BuildOptions, Compiler};
use annotator::paths::To;
use pipeline_model::Architecture;

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("srcsim-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn annotate(path: &Path) -> Result<Annotation, String> {
    let compiler = Compiler::locate().unwrap();
    annotate_file(
        &compiler,
        path,
        &BuildOptions::default(),
        &Architecture::default_arch(),
    )
    .map_err(|e| e.to_string())
}

/// The annotated text is valid OpenCL C (the e2e tests build and run it on PoCL).
fn compiles(a: &Annotation, name: &str) {
    let compiler = Compiler::locate().unwrap();
    let p = temp(name, &a.source);
    if let Err(e) = compiler.check_syntax(&p, &BuildOptions::default()) {
        panic!("annotated {name} does not compile: {e}\n{}", a.source);
    }
}

#[test]
fn every_example_annotates_and_compiles_with_every_block_accounted_for() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "cl") {
            continue;
        }
        let a = annotate(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        compiles(
            &a,
            &format!("{}.timed.cl", p.file_stem().unwrap().to_string_lossy()),
        );
        for k in &a.sidecar.kernels {
            assert!(a.source.contains(&format!("__srcsim_exit_{}", k.name)));
            // The entry block is a timing point, or on the path to the first one.
            let blocks = &k.block_map.blocks;
            for b in blocks {
                let on_a_path = k
                    .paths
                    .paths
                    .iter()
                    .any(|p| p.blocks.contains(&b.ptx_block) || p.to == To::Block(b.ptx_block));
                assert!(
                    b.source.is_some() || on_a_path,
                    "{}: B{} is neither mapped nor on a path",
                    k.name,
                    b.ptx_block
                );
            }
        }
        n += 1;
    }
    assert!(n >= 9);
}

#[test]
fn the_sidecar_describes_the_records() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels/vector_add.cl");
    let a = annotate(&p).unwrap();
    let v = serde_json::to_value(&a.sidecar).unwrap();
    assert_eq!(v["schema"], "srcsim.annotation/1");
    // t, then issue, ALU, SFU, MEM, the SM's fetch unit, its miss entries, the L2 and
    // DRAM (bytes); no divergent arm: `if (i < n)` has no `else`.
    assert_eq!(v["records"]["stride"], 9);
    assert_eq!(v["records"]["fields"][0], "t");
    assert_eq!(v["records"]["fields"][5], "fetch");
    assert_eq!(v["records"]["fields"][6], "MSHR");
    assert_eq!(v["records"]["fields"][7], "L2");
    assert_eq!(v["records"]["fields"][8], "DRAM");
    assert_eq!(
        v["kernels"][0]["arms"],
        serde_json::json!([null, null, null])
    );
    assert_eq!(v["records"]["usage_scale"], 64);
    assert_eq!(v["kernels"][0]["records_arg"], 4);
    // `(__global const float *a, __global const float *b, __global float *c, const int n)`
    assert_eq!(
        v["kernels"][0]["params"],
        serde_json::json!(["buffer", "buffer", "buffer", "value"])
    );
    assert!(a
        .source
        .contains("const int n, __global ulong *__srcsim_records)"));
    // No barrier: a copy reduces its records to warps, with the lanes and the warp size.
    assert_eq!(v["kernels"][0]["warp_records"], true);
    assert_eq!(
        a.sidecar.kernels[0].warp_kernel().as_deref(),
        Some("__srcsim_warps_vector_add")
    );
    assert!(a
        .source
        .contains("__kernel void __srcsim_warps_vector_add(__global const float *a,"));
    assert!(a.source.contains(
        "const int n, __global ulong *__srcsim_records, __local ulong *__srcsim_lanes, uint __srcsim_warp)"
    ));
}

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

/// A kernel with a barrier keeps its record's values in its record in the twin (PoCL
/// saves every private value live across a barrier at every barrier), and private in its
/// copy that reduces to warps; a kernel without a barrier, or one that calls a function
/// of the file (whose timing functions any kernel may run), keeps them private.
#[test]
fn kernels_with_a_barrier_keep_their_values_in_their_record() {
    let body = |call: &str| {
        format!(
            "{call}__kernel void k(__global float *x, const int n)\n{{\n    __local float t[64];\n    \
             int i = get_global_id(0);\n    t[get_local_id(0)] = x[i];\n    \
             barrier(CLK_LOCAL_MEM_FENCE);\n    if (i % 2 == 0)\n        x[i] = sqrt(t[63 - get_local_id(0)]);\n}}\n"
        )
    };
    let kept = annotate(&temp("in_record.cl", &body(""))).unwrap();
    let s = &kept.source;
    assert!(
        s.contains("__global __srcsim_values *v; } __srcsim_state;"),
        "{s}"
    );
    assert!(
        s.contains("typedef struct { ulong t; ulong u[8]; } __srcsim_values;"),
        "{s}"
    );
    assert!(s.contains("#ifdef __SRCSIM_WARPS\n#define __SRCSIM_V(s) (s)\n#else\n#define __SRCSIM_V(s) ((s)->v)\n#endif"), "{s}");
    assert!(s.contains("__SRCSIM_V(s)->t += "), "{s}");
    assert!(!s.contains(" s->t += "), "{s}");
    // The twin makes its record at its start and writes nothing at its exit; its copy
    // starts as before.
    assert!(
        s.contains("->last = 0u; __srcsim_enter_record(__srcsim, __srcsim_records);"),
        "{s}"
    );
    assert!(
        s.contains("    for (uint i = 0; i < 9u; ++i)\n        rec[i] = 0;"),
        "{s}"
    );
    assert!(!s.contains("rec[0] = "), "{s}");
    assert_eq!(
        s.matches("__srcsim_enter_record(__srcsim").count(),
        1,
        "{s}"
    );
    let private = annotate(&temp(
        "private_values.cl",
        &body("float half_of(float v)\n{\n    return v * 0.5f;\n}\n\n")
            .replace("sqrt(t[", "half_of(t["),
    ))
    .unwrap();
    let s = &private.source;
    assert!(!s.contains("__SRCSIM_V"), "{s}");
    assert!(s.contains(" s->t += "), "{s}");
    assert!(s.contains("rec[0] = s->t;"), "{s}");
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

/// A sampled access's price per extra request: a bank pass of a shared access holds the
/// shared-memory pipe again but moves nothing of the memory side (no L2 or DRAM bytes),
/// where a global gather's extra request moves a line through both.
#[test]
fn a_sampled_shared_access_charges_no_memory_side_per_bank_pass() {
    let a = annotate(&temp(
        "sampled_shared.cl",
        "__kernel void k(__global const int *idx, __global float *x)\n{\n    \
         __local float t[256];\n    int l = get_local_id(0);\n    t[l] = x[get_global_id(0)];\n    \
         barrier(CLK_LOCAL_MEM_FENCE);\n    int j = idx[get_global_id(0)];\n    \
         x[get_global_id(0)] = t[j & 255] + x[j];\n}\n",
    ))
    .unwrap();
    let samples = a.sidecar.records.samples_of("k");
    let arch = Architecture::default_arch();
    let resources = arch.resources();
    let at = |name: &str| resources.iter().position(|r| r == name).unwrap();
    let shared = samples
        .iter()
        .find(|(_, s)| s.shared)
        .expect("t[j & 255] sampled")
        .1
        .clone();
    let global = samples
        .iter()
        .find(|(_, s)| !s.shared)
        .expect("x[j] sampled")
        .1
        .clone();
    for memory_side in ["L2", "DRAM"] {
        assert_eq!(
            shared.usage_per_transaction[at(memory_side)],
            0.0,
            "{shared:?}"
        );
        assert!(
            global.usage_per_transaction[at(memory_side)] > 0.0,
            "{global:?}"
        );
    }
    assert!(
        shared.usage_per_transaction.iter().any(|u| *u > 0.0),
        "{shared:?}"
    );
    assert!(
        shared.usage_per_sector.iter().all(|u| *u == 0.0),
        "{shared:?}"
    );
}

#[test]
fn goto_is_an_error_naming_its_line() {
    let p = temp(
        "goto.cl",
        "__kernel void g(__global int *o)\n{\n    int i = 0;\nagain:\n    if (++i < 3) goto again;\n    o[0] = i;\n}\n",
    );
    let err = annotate(&p).unwrap_err();
    assert!(
        err.contains("goto.cl:4:1: `goto` and labels is not supported"),
        "{err}"
    );
}

/// A barrier inside a branch whose condition differs between the work-items of a
/// work-group (undefined behaviour in OpenCL) is refused with its line, so the program
/// runs as it is; the same branch on the group id, which the whole work-group takes alike,
/// is annotated. Barriers in loops, and branches without barriers, stay annotated.
#[test]
fn a_barrier_inside_a_lane_varying_branch_is_refused_naming_its_line() {
    let kernel = |condition: &str| {
        format!(
            "__kernel void k(__global int *a) {{\n  int i = get_local_id(0);\n  a[i] = i;\n\
             \x20 if ({condition}) {{\n    a[i] += 1;\n    barrier(CLK_GLOBAL_MEM_FENCE);\n\
             \x20   if (i < 4) a[i] = a[i + 1];\n  }}\n}}\n"
        )
    };
    let p = temp("barrier_in_branch.cl", &kernel("i < 8"));
    let err = annotate(&p).unwrap_err();
    assert!(
        err.ends_with(
            ":6: `k` waits at a barrier inside a branch whose condition may differ between the \
             work-items of a work-group (undefined behaviour in OpenCL: all of a work-group's \
             work-items or none must reach a barrier), so the kernel runs unannotated"
        ),
        "{err}"
    );
    let p = temp(
        "barrier_in_group_branch.cl",
        &kernel("get_group_id(0) == 0"),
    );
    annotate(&p).unwrap();
    let p = temp(
        "barrier_in_loop.cl",
        "__kernel void k(__global int *a, __local int *s) {\n  int i = get_local_id(0);\n\
         \x20 for (int t = 0; t < 4; t++) {\n    s[i] = a[i] + t;\n    barrier(CLK_LOCAL_MEM_FENCE);\n\
         \x20   if (i == 0) a[0] += s[1];\n    barrier(CLK_LOCAL_MEM_FENCE);\n  }\n}\n",
    );
    annotate(&p).unwrap();
}

/// A kernel the annotator cannot time is refused alone: it is left out of the annotated
/// file (its lines kept blank), with the helpers only it calls; a helper it shares with an
/// annotated kernel stays, annotated; the sidecar names it with the line and the reason.
#[test]
fn a_refused_kernel_is_left_out_and_the_others_are_annotated() {
    let src = "float twice(float x) { return x + x; }\n\
               float only_b(float x) { return x * x; }\n\
               float in_branch(__local float *s, float x) {\n\
               \x20 if (x > 0.0f) { barrier(CLK_LOCAL_MEM_FENCE); }\n\
               \x20 return s[0] + x;\n}\n\
               __kernel void a(__global float *o) { o[0] = twice(o[0]); }\n\
               __kernel void b(__global float *o) { o[1] = only_b(twice(o[1])); goto end; end: ; }\n\
               __kernel void c(__global float *o, __local float *s) { o[2] = in_branch(s, o[2]); }\n";
    let p = temp("partly.cl", src);
    let a = annotate(&p).unwrap();
    compiles(&a, "partly.timed.cl");
    let names: Vec<&str> = a.sidecar.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["a"]);
    let refused: Vec<(&str, u32)> = a
        .sidecar
        .refused
        .iter()
        .map(|r| (r.name.as_str(), r.line))
        .collect();
    // `c` through its helper's barrier (line 4), `b` by its own `goto` (line 8).
    assert_eq!(refused, [("c", 4), ("b", 8)]);
    assert!(
        a.sidecar.refused[0]
            .reason
            .ends_with(":4: `in_branch` waits at a barrier inside a branch whose condition may differ between the work-items of a work-group (undefined behaviour in OpenCL: all of a work-group's work-items or none must reach a barrier), so the kernel runs unannotated"),
        "{:?}",
        a.sidecar.refused
    );
    assert!(
        a.sidecar.refused[1].reason.contains("partly.cl:8:"),
        "{:?}",
        a.sidecar.refused
    );
    let body = &a.source[a.source.find("#line 1\n").unwrap()..];
    // The copies that reduce to warps come after the file.
    let body = &body[..body.find("\n#ifdef __SRCSIM_WARPS").unwrap_or(body.len())];
    // The shared helper keeps its annotation; the others are gone, their lines kept: the
    // file's last line is its last line, counting as `#line` directives say.
    assert!(body.contains("float twice(float x, __private __srcsim_state *__srcsim)"));
    for gone in ["only_b", "in_branch", "void b(", "void c("] {
        assert!(!body.contains(gone), "{gone} left in\n{body}");
    }
    let mut line = 0;
    for l in body.lines() {
        line = match l.strip_prefix("#line ") {
            Some(n) => n.parse::<usize>().unwrap() - 1,
            None => line + 1,
        };
    }
    assert_eq!(line, src.lines().count(), "{body}");
    // Every kernel refused: an error with each reason.
    let p = temp(
        "all_refused.cl",
        "__kernel void b(__global int *o) { goto end; end: o[0] = 1; }\n",
    );
    let err = annotate(&p).unwrap_err();
    assert!(err.contains("all_refused.cl:1:"), "{err}");
}

/// A helper called in a macro's body, the macro defined before the helper: only the
/// kernel that expands the macro is refused (the call cannot get the counters' argument
/// there), with the line of its use; the other kernels of the file are annotated, the
/// helper's prototype with them. A macro that may declare the helper still fails the file.
#[test]
fn a_helper_called_in_a_macro_defined_before_it_refuses_only_the_kernels_expanding_it() {
    let src = "int cell(int x, int y);\n\
               #define CELL_OF(p) (cell((p).x, (p).y))\n\
               int cell(int x, int y) { return clamp(y, 0, 3) * 4 + clamp(x, 0, 3); }\n\
               __kernel void binned(__global const int2 *p, __global int *c) {\n\
               \x20 int i = get_global_id(0);\n\
               \x20 c[i] = CELL_OF(p[i]);\n}\n\
               __kernel void direct(__global const int2 *p, __global int *c) {\n\
               \x20 int i = get_global_id(0);\n\
               \x20 c[i] = cell(p[i].y, p[i].x);\n}\n\
               __kernel void other(__global int *c) { c[get_global_id(0)] += 1; }\n";
    let p = temp("macro_call.cl", src);
    let a = annotate(&p).unwrap();
    compiles(&a, "macro_call.timed.cl");
    let names: Vec<&str> = a.sidecar.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["direct", "other"]);
    assert_eq!(a.sidecar.refused.len(), 1, "{:?}", a.sidecar.refused);
    assert_eq!(a.sidecar.refused[0].name, "binned");
    assert_eq!(a.sidecar.refused[0].line, 6);
    assert!(
        a.sidecar.refused[0]
            .reason
            .ends_with(":6: `cell` is called inside a macro expansion; the annotator cannot pass it its counters"),
        "{:?}",
        a.sidecar.refused
    );
    let body = &a.source[a.source.find("#line 1\n").unwrap()..];
    assert!(
        body.contains("int cell(int x, int y, __private __srcsim_state *__srcsim);"),
        "{body}"
    );
    // A macro that declares the helper cannot be given the parameter: the file fails.
    let p = temp(
        "macro_prototype.cl",
        "#define DECLARE int cell(int x)\nDECLARE;\nint cell(int x) { return x + 1; }\n\
         __kernel void k(__global int *c) { c[0] = cell(c[0]); }\n",
    );
    let err = annotate(&p).unwrap_err();
    assert!(
        err.contains("macro_prototype.cl:1: `cell` is declared before its definition"),
        "{err}"
    );
}

#[test]
fn helpers_with_void_and_empty_parameter_lists() {
    let src = r#"
float one(void) { return 1.0f; }
float two() { return 2.0f; }
float add(float a, float b) { return a + b; }
__kernel void k(__global float *o)
{
    o[get_global_id(0)] = add(one(), two()) + add(two(), 3.0f);
}
"#;
    let a = annotate(&temp("helpers.cl", src)).unwrap();
    assert!(
        a.source
            .contains("one(__private __srcsim_state *__srcsim /*void*/)"),
        "{}",
        a.source
    );
    assert!(
        a.source.contains("two(__private __srcsim_state *__srcsim)"),
        "{}",
        a.source
    );
    assert!(
        a.source
            .contains("add(one(__srcsim), two(__srcsim), __srcsim)"),
        "{}",
        a.source
    );
    compiles(&a, "helpers.timed.cl");
}

#[test]
fn unusual_but_valid_source() {
    let src = r#"#define LOOP(i, n) for (int i = 0; i < (n); i++)
#define STR "not a { brace }"
/* a comment with { braces } and a "string" */
#line 200 "renamed.cl"
__constant char text[] = STR;
__kernel void odd(__global int *o, int n)
{
    int acc = 0; // }
    LOOP(i, n) {
        if (i == 3) continue;
        for (int j = 0; j < i; j++) {
            if (j > 5) break;
            acc += text[j % 5] == '{' ? 1 : 2;
        }
    }
    switch (n & 3) {
    case 0: acc++;
    case 1: { acc += 2; break; }
    default: acc -= 1;
    }
    o[get_global_id(0)] = acc;
}
"#;
    let a = annotate(&temp("odd.cl", src)).unwrap();
    compiles(&a, "odd.timed.cl");
    // The #line directive moved the lines; blocks were still matched.
    let mapped = a.sidecar.kernels[0]
        .block_map
        .blocks
        .iter()
        .filter(|b| b.source.is_some())
        .count();
    assert!(mapped >= 4, "{:#?}", a.sidecar.kernels[0].block_map);
}

#[test]
fn runtime_unrolled_loops_are_counted_and_settled() {
    // A short body and an unknown trip count: LLVM unrolls it into a loop of 8 copies and a
    // remainder loop; the body's calls count, leaving the loop charges the count.
    let src = "__kernel void acc(__global const float *a, __global float *out, const int n, const float b)\n{\n    float acc = 0.0f;\n    for (int i = 0; i < n; i++)\n        acc += a[i] * b;\n    out[get_global_id(0)] = acc;\n}\n";
    let a = annotate(&temp("unrolled.cl", src)).unwrap();
    let u = &a.sidecar.kernels[0].unrolled;
    assert_eq!(u.len(), 1, "{u:#?}");
    let shape = u[0].shape.expect("a shape the annotator counts");
    assert_eq!(shape.factor, 8);
    assert!(shape.remainder.is_some_and(|r| r != shape.main));
    assert!(
        a.source.contains("ulong q = k / 8ul, r = k % 8ul;"),
        "{}",
        a.source
    );
    assert!(a.source.contains("s->k[0] += 1; return;"), "{}", a.source);
    compiles(&a, "unrolled.timed.cl");
}

#[test]
fn the_annotate_command_writes_both_files_and_explains() {
    let dir = std::env::temp_dir().join(format!("srcsim-annotate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("divergence.timed.cl");
    let kernel = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels/divergence.cl");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_annotate"))
        .arg(&kernel)
        .arg("-o")
        .arg(&out)
        .arg("--explain")
        .env_remove("SRCSIM_ARCH")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let explain = String::from_utf8_lossy(&run.stdout);
    assert!(
        explain.contains("kernel divergence: 4 PTX blocks, 4 mapped"),
        "{explain}"
    );
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("__srcsim_records"));
    let sidecar: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.with_extension("json")).unwrap())
            .unwrap();
    assert_eq!(sidecar["kernels"][0]["name"], "divergence");

    let bad = temp(
        "bad_cli.cl",
        "__kernel void k(__global int *a) { a[0] = nope; }\n",
    );
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_annotate"))
        .arg(&bad)
        .arg("--explain")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("bad_cli.cl:1:43: error: use of undeclared identifier 'nope'"),
        "{err}"
    );
}

/// Reviewed snapshots of the annotated examples (tests/snapshots/annotate/): any change of
/// matching or code generation shows up as a diff to review.
/// `SRCSIM_BLESS=1 cargo test -p annotator --test annotate` rewrites them.
#[test]
fn annotated_examples_match_the_reviewed_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut names: Vec<PathBuf> = std::fs::read_dir(root.join("examples/kernels"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    names.sort();
    let mut snapshots = snapshot::Snapshots::new("annotated sources");
    for p in names {
        let a = annotate(&p).unwrap();
        let snap = root.join("tests/snapshots/annotate").join(format!(
            "{}.timed.cl",
            p.file_stem().unwrap().to_string_lossy()
        ));
        snapshots.check(&snap, &a.source);
    }
    snapshots.assert_unchanged();
}

/// Where clang crashes compiling a file for the GPU at -O3 (a back-end limitation; here a
/// stand-in clang that crashes whenever it is given -O3), the file is timed as compiled
/// at -O1, and the sidecar says so with clang's message; where it crashes at every level,
/// the error is clang's first crash.
#[test]
fn a_file_clang_crashes_on_at_o3_is_timed_at_o1() {
    let real = "/usr/lib/llvm-19/bin/clang";
    let libclc = [
        "/usr/lib/clc/nvptx64--nvidiacl.bc",
        "/usr/share/clc/nvptx64--nvidiacl.bc",
    ]
    .into_iter()
    .find(|p| Path::new(p).exists())
    .expect("libclc");
    let script = |name: &str, crash_on: &str| {
        let p = temp(
            name,
            &format!(
                "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in {crash_on}) echo 'Stack dump:' >&2; \
                 echo '0.\tRunning pass on function @k (fake crash)' >&2; exit 134;; esac; done\n\
                 exec {real} \"$@\"\n"
            ),
        );
        std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        p
    };
    let src = temp(
        "crashy.cl",
        "__kernel void k(__global float *a)\n{\n    int i = get_global_id(0);\n    a[i] = a[i] * 2.0f;\n}\n",
    );
    let arch = Architecture::default_arch();
    let at_o3 = Compiler::with_paths(script("crash-o3.sh", "-O3"), libclc);
    let a = annotate_file(&at_o3, &src, &BuildOptions::default(), &arch).unwrap();
    let note = a.sidecar.timed_with_less_optimisation.as_deref().unwrap();
    assert!(
        note.starts_with("timed as compiled at -O1: clang crashed"),
        "{note}"
    );
    assert!(note.contains("crashy.cl"), "{note}");
    assert!(
        note.contains("Running pass on function @k (fake crash)"),
        "{note}"
    );
    assert!(a.sidecar.timing_note("k").unwrap().contains("-O1"));
    compiles(&a, "crashy_annotated.cl");

    let always = Compiler::with_paths(script("crash-always.sh", "-O3|-O1"), libclc);
    let e = annotate_file(&always, &src, &BuildOptions::default(), &arch)
        .unwrap_err()
        .to_string();
    assert!(e.contains("clang failed in code generation"), "{e}");
    assert!(e.contains("fake crash"), "{e}");
}

/// A program built for OpenCL C 1.1 (which has no `static`) is annotated, and its
/// annotated file compiles under that standard too.
#[test]
fn an_opencl_1_1_program_is_annotated() {
    let src = temp(
        "cl11.cl",
        "__kernel void k(__global float *a)\n{\n    int i = get_global_id(0);\n    a[i] = native_sin(a[i]) + 1.0f;\n}\n",
    );
    let options = BuildOptions::parse("-cl-std=CL1.1");
    let compiler = Compiler::locate().unwrap();
    let a = annotate_file(&compiler, &src, &options, &Architecture::default_arch())
        .unwrap_or_else(|e| panic!("{e}"));
    let annotated = temp("cl11_annotated.cl", &a.source);
    compiler
        .check_syntax(&annotated, &options)
        .unwrap_or_else(|e| {
            panic!(
                "the annotated file does not compile as CL1.1: {e}\n{}",
                a.source
            )
        });
}

/// A helper declared in an included header as well as defined here: its definition gets
/// the counters' parameter, the header's declaration cannot, so the kernels that run it
/// are refused with the header named; the others are annotated and the file builds.
#[test]
fn a_helper_also_declared_in_a_header_refuses_only_its_kernels() {
    let dir = std::env::temp_dir().join(format!("srcsim-header-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("helpers.h"), "float twice(float x);\n").unwrap();
    let path = dir.join("header_proto.cl");
    std::fs::write(
        &path,
        "#include \"helpers.h\"\n\
         float twice(float x) { return 2.0f * x; }\n\
         __kernel void uses(__global float *a) { int i = get_global_id(0); a[i] = twice(a[i]); }\n\
         __kernel void plain_k(__global float *a) { int i = get_global_id(0); a[i] += 1.0f; }\n",
    )
    .unwrap();
    let options = BuildOptions::parse(&format!("-I {}", dir.display()));
    let compiler = Compiler::locate().unwrap();
    let a = annotate_file(&compiler, &path, &options, &Architecture::default_arch()).unwrap();
    let refused: Vec<(&str, u32)> = a
        .sidecar
        .refused
        .iter()
        .map(|r| (r.name.as_str(), r.line))
        .collect();
    assert_eq!(refused, [("uses", 2)]);
    assert!(
        a.sidecar.refused[0].reason.contains("helpers.h:1"),
        "{}",
        a.sidecar.refused[0].reason
    );
    assert_eq!(
        a.sidecar
            .kernels
            .iter()
            .map(|k| k.name.as_str())
            .collect::<Vec<_>>(),
        ["plain_k"]
    );
    let annotated = dir.join("header_proto_annotated.cl");
    std::fs::write(&annotated, &a.source).unwrap();
    compiler
        .check_syntax(&annotated, &options)
        .unwrap_or_else(|e| panic!("{e}\n{}", a.source));
}

#[test]
fn profile_line_instructions_sum_to_each_paths_instructions_where_addressing_folds() {
    // A shared-memory chase on the H100, whose address arithmetic native code folds away
    // (`frontend.native_addressing`): the profile still counts PTX instructions, per path
    // and per line alike, so the lines' parts add up to the path's instructions.
    let p = temp(
        "folded_chase.cl",
        "__kernel void chase(__global uint *out, uint n)\n{\n    __local uint s[256];\n    \
         uint lid = get_local_id(0);\n    s[lid] = (lid + 1) % 256;\n    \
         barrier(CLK_LOCAL_MEM_FENCE);\n    uint p = lid;\n    for (uint i = 0; i < n; i++)\n        \
         p = s[p];\n    out[get_global_id(0)] = p;\n}\n",
    );
    let compiler = Compiler::locate().unwrap();
    let arch = Architecture::load("hopper_h100").unwrap();
    let a = annotator::annotate::annotate_file_with(
        &compiler,
        &p,
        &BuildOptions::default(),
        &arch,
        annotator::annotate::AnnotateOptions { profile: true },
    )
    .unwrap();
    let k = &a.sidecar.kernels[0];
    let mut checked = 0;
    for path in k.paths.paths.iter().filter(|p| !p.lines.is_empty()) {
        let per_line: u64 = path.lines.iter().map(|l| l.instructions).sum();
        assert_eq!(
            per_line, path.instructions,
            "{:?} -> {:?}",
            path.from, path.to
        );
        checked += 1;
    }
    assert!(checked > 0, "no path carried line charges");
    // And the folding is there to test: some shared access has absorbed arithmetic.
    let analysis = &a.sidecar.analysis.kernels[0];
    let issued: f64 = analysis.blocks.iter().map(|b| b.usage[0]).sum();
    let ptx: usize = analysis.blocks.iter().map(|b| b.instructions).sum();
    assert!(
        issued < ptx as f64,
        "issued {issued} of {ptx} PTX instructions"
    );
}

/// A sampled access's records keep its first and last index: a kernel whose sampled
/// indices come from ids, loop strides and value arguments (a scan's `__local` tree,
/// strides doubling) is decided by its arguments as its paths are, and gets no host
/// skeleton (the host's paths carry no indices); one whose sampled index is loaded from
/// memory (a gather) is decided by memory.
#[test]
fn sampled_indices_decide_the_records_as_branches_do() {
    let a = annotate(&temp(
        "sampled_inputs.cl",
        "__kernel void tree(__global int *out, const int n, const int step) {
            __local int t[256];
            int lid = get_local_id(0);
            t[lid] = lid;
            int offset = 1;
            for (int d = 128; d > 0; d >>= 1) {
                barrier(CLK_LOCAL_MEM_FENCE);
                if (lid < d)
                    t[offset * (2 * lid + 2) - 1] += t[offset * (2 * lid + 1) - 1];
                offset <<= 1;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (get_global_id(0) < n)
                out[get_global_id(0) * step] = t[lid];
        }
        __kernel void gather(__global const int *idx, __global const float *x,
                             __global float *y, const int n) {
            int i = get_global_id(0);
            if (i < n)
                y[i] = x[idx[i]];
        }
        __kernel void plain(__global float *y, const int n) {
            int i = get_global_id(0);
            if (i < n)
                y[i] = 2.0f * y[i];
        }",
    ))
    .unwrap();
    let sampled: Vec<&str> = a
        .sidecar
        .records
        .samples
        .as_ref()
        .map(|s| s.accesses.iter().map(|k| k.kernel.as_str()).collect())
        .unwrap_or_default();
    assert!(
        sampled.contains(&"tree") && sampled.contains(&"gather"),
        "{sampled:?}"
    );
    let kernel = |name: &str| a.sidecar.kernels.iter().find(|k| k.name == name).unwrap();
    // `n` decides a branch; `step` only an unsampled store's address.
    assert_eq!(kernel("tree").path_inputs, Some(vec![1]));
    assert!(kernel("tree").host_paths.is_none());
    assert_eq!(kernel("gather").path_inputs, None);
    assert_eq!(kernel("plain").path_inputs, Some(vec![1]));
    assert!(kernel("plain").host_paths.is_some());
}
