//! What the annotator refuses: errors and refused kernels that name their line, the other
//! kernels of the file annotated.

use super::*;

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

/// A kernel another kernel calls as a function (OpenCL allows it; the CTS's compiler
/// tests do it): the file is annotated with a plain copy of the callee for its callers
/// (`__srcsim_called_scale`), so every kernel is timed, the annotated file builds, and the
/// sidecar names the file as given. Before, the callee kept its kernel signature with the
/// counters' parameter and the whole twin failed to build.
#[test]
fn a_kernel_called_by_another_kernel_is_annotated_with_a_copy_for_its_callers() {
    let src = "__kernel void scale(__global float *a, float s) {\n\
               \x20 a[get_global_id(0)] *= s;\n}\n\
               __kernel void twice(__global float *a) { scale(a, 2.0f); a[get_global_id(0)] += 1.0f; }\n\
               __kernel void other(__global float *a) { a[get_global_id(0)] -= 1.0f; }\n";
    let p = temp("kernel_calls_kernel.cl", src);
    let a = annotate(&p).unwrap();
    compiles(&a, "kernel_calls_kernel.timed.cl");
    let names: Vec<&str> = a.sidecar.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["scale", "twice", "other"]);
    assert!(a.sidecar.refused.is_empty(), "{:?}", a.sidecar.refused);
    assert_eq!(a.sidecar.source, p.display().to_string());
    assert!(
        a.source
            .contains("__srcsim_called_scale(a, 2.0f, __srcsim);"),
        "{}",
        a.source
    );
    // The kernel itself stays a kernel with its record.
    assert!(a.source.contains(
        "__kernel void scale(__global float *a, float s, __global ulong *__srcsim_records)"
    ));
}

/// Where the copy cannot be made (the call is in a macro's expansion), the file is
/// annotated as written: the called kernel and the kernels that run it are refused, naming
/// the callee's line, and the file's other kernels are annotated.
#[test]
fn a_kernel_called_through_a_macro_is_refused_with_its_callers() {
    let src = "#define TWICE(a) scale(a, 2.0f)\n\
               __kernel void scale(__global float *a, float s) {\n\
               \x20 a[get_global_id(0)] *= s;\n}\n\
               __kernel void twice(__global float *a) { TWICE(a); a[get_global_id(0)] += 1.0f; }\n\
               __kernel void other(__global float *a) { a[get_global_id(0)] -= 1.0f; }\n";
    let p = temp("kernel_calls_kernel_macro.cl", src);
    let a = annotate(&p).unwrap();
    compiles(&a, "kernel_calls_kernel_macro.timed.cl");
    let names: Vec<&str> = a.sidecar.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["other"]);
    let mut refused: Vec<(&str, u32)> = a
        .sidecar
        .refused
        .iter()
        .map(|r| (r.name.as_str(), r.line))
        .collect();
    refused.sort();
    assert_eq!(refused, [("scale", 2), ("twice", 2)]);
    for r in &a.sidecar.refused {
        assert!(
            r.reason
                .contains(":2: `scale` is a kernel that `twice` calls as a function"),
            "{}",
            r.reason
        );
    }
}

/// Image built-ins have no code for the GPU target (libclc has none for NVPTX): a kernel
/// that reads and writes images (2D through a sampler, 3D writes) is annotated with its
/// reads and writes timed on the texture path, and its timing note says what that leaves
/// out; another call with no code (an image query) is named as timed as a call, so that
/// no report passes the estimate off as complete.
#[test]
fn image_accesses_and_calls_with_no_code_for_the_gpu_are_named_in_the_timing_note() {
    let src = "__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;\n\
               __kernel void blur(__read_only image2d_t src, __write_only image2d_t dst) {\n\
               \x20 int2 p = (int2)(get_global_id(0), get_global_id(1));\n\
               \x20 write_imagef(dst, p, read_imagef(src, smp, p) * 0.5f);\n}\n\
               __kernel void plain(__global float *a) { a[get_global_id(0)] += 1.0f; }\n\
               __kernel void fill3d(__write_only image3d_t v) {\n\
               \x20 write_imagef(v, (int4)(get_global_id(0), 0, 0, 0), (float4)(1.0f));\n}\n\
               __kernel void width(__read_only image2d_t src, __global int *w) {\n\
               \x20 w[get_global_id(0)] = get_image_width(src);\n}\n";
    let p = temp("images.cl", src);
    // Before the GPU-target compile knew cl_khr_3d_image_writes, `fill3d` failed the file.
    let a = annotate(&p).unwrap();
    let names: Vec<&str> = a.sidecar.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["blur", "plain", "fill3d", "width"]);
    let note = a.sidecar.timing_note("fill3d").unwrap_or_default();
    assert!(
        note.contains("its image accesses (`write_imagef`) are timed on the texture path"),
        "{note}"
    );
    let note = a
        .sidecar
        .timing_note("blur")
        .expect("a note for the image kernel");
    assert!(
        note.contains("(`read_imagef`, `write_imagef`) are timed on the texture path as texture-cache hits; the image's own traffic to L2 and DRAM is not counted"),
        "{note}"
    );
    assert!(!note.contains("with no code"), "{note}");
    let note = a.sidecar.timing_note("width").unwrap_or_default();
    assert!(
        note.contains("calls `get_image_width` with no code for the GPU target"),
        "{note}"
    );
    assert_eq!(a.sidecar.timing_note("plain"), None);
}

/// The image extensions the GPU-target compile is given hold for every OpenCL C version:
/// OpenCL C 3.0's 3D image writes need its images feature (without it every OpenCL C 3.0
/// file failed: "feature __opencl_c_3d_image_writes requires support of __opencl_c_images
/// feature", seen on 29 of the CTS's `test_compiler` launches).
#[test]
fn every_opencl_c_version_compiles_for_the_gpu_target() {
    let p = temp(
        "versions.cl",
        "__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }\n",
    );
    let compiler = Compiler::locate().unwrap();
    for std in ["CL1.1", "CL1.2", "CL2.0", "CL3.0"] {
        let options = BuildOptions::parse(&format!("-cl-std={std}"));
        let a = annotate_file(&compiler, &p, &options, &Architecture::default_arch())
            .unwrap_or_else(|e| panic!("{std}: {e}"));
        assert_eq!(a.sidecar.kernels.len(), 1, "{std}");
    }
}

/// A caller before the kernel it calls, which it knows by an `extern` prototype (the CTS's
/// separately compiled units, joined): the copy's prototype goes on the caller's first
/// line, so the rewritten file compiles and every kernel is timed.
#[test]
fn a_kernel_called_before_its_definition_through_a_prototype_gets_its_copy() {
    let src = "extern __kernel void copy(__global float *src, __global float *dst);\n\
               __kernel void composite(__global float *src, __global float *dst) {\n\
               \x20 copy(src, dst);\n}\n\
               __kernel void copy(__global float *src, __global float *dst) {\n\
               \x20 dst[get_global_id(0)] = src[get_global_id(0)];\n}\n";
    let p = temp("composite.cl", src);
    let a = annotate(&p).unwrap();
    compiles(&a, "composite.timed.cl");
    let names: Vec<&str> = a.sidecar.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["composite", "copy"]);
    assert!(a.sidecar.refused.is_empty(), "{:?}", a.sidecar.refused);
}
