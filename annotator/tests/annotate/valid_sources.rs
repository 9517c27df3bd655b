//! Unusual but valid sources: void and empty parameter lists, macros and `#line`,
//! run-time unrolled loops, a file clang crashes on at -O3, OpenCL C 1.1.

use super::*;

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
