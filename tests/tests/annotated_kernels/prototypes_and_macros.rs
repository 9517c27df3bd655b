//! Helpers declared by prototypes, and unbraced bodies that start with a macro.

use super::*;

/// Helpers declared by a prototype before their definition (common in files with several
/// kernels and helpers) get the counters' parameter in the prototype too: the annotated
/// file builds, computes the same, and times every work-item exactly as the same file
/// written with the definitions first.
#[test]
fn helpers_declared_by_prototypes_are_annotated_like_definitions_first() {
    let helpers = "\
float scale(float x, float s)
{
    float y = x;
    for (int j = 0; j < 4; j++)
        y = y * s + 1.0f;
    return y;
}

int pick(void)
{
    return 3;
}
";
    let kernel = "\
__kernel void k(__global float *out, const float s)
{
    int i = get_global_id(0);
    if (i % pick() == 0)
        out[i] = scale(out[i], s);
    else
        out[i] = scale(out[i], 0.5f * s);
}
";
    let prototypes = "float scale(float x, float s);\nint pick(void);\n\n";
    let declared_first = format!("{prototypes}{kernel}\n{helpers}");
    let defined_first = format!("{helpers}\n{kernel}");
    let n = 96;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 3.0).collect();
    let run = |name: &str, src: &str| {
        let (a, _, _) = annotate_source(name, src);
        let both = run_source_both(
            name,
            src,
            "k",
            vec![KernelArg::from_slice(&input), KernelArg::scalar(1.5f32)],
            NdRange::d1(n).with_local([32, 1, 1]),
            &a,
        );
        (a, both)
    };
    let (a, with_prototypes) = run("prototypes.cl", &declared_first);
    assert!(
        a.source
            .contains("float scale(float x, float s, __private __srcsim_state *__srcsim);"),
        "{}",
        a.source
    );
    assert!(
        a.source
            .contains("int pick(__private __srcsim_state *__srcsim /*void*/);"),
        "{}",
        a.source
    );
    let (_, definitions_first) = run("definitions_first.cl", &defined_first);
    assert_eq!(with_prototypes.original, definitions_first.original);
    let t = |b: &Both| (0..n).map(|w| b.t(w)).collect::<Vec<_>>();
    assert_eq!(t(&with_prototypes), t(&definitions_first));
}

/// A loop (or `if`) body without braces that starts with a macro invocation is wrapped
/// whole with its timing call (a call before it would become the body and leave the
/// statement outside the loop): the annotated kernel computes the same and times every
/// work-item as the same kernel with the macro written out.
#[test]
fn an_unbraced_body_starting_with_a_macro_stays_the_body() {
    let with_macro = "\
#define AT(i, j) tile[(i) * 16 + (j)]

__kernel void k(__global const float *in, __global float *out, const int n)
{
    __local float tile[256];
    int x = get_local_id(0);
    for (int t = 0; t < n; t++) AT(t, x) = in[t * 16 + x] * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = 0.0f;
    if (x > 3) AT(0, x) += 1.0f; else acc -= 1.0f;
    for (int t = 0; t < n; t++)
        acc += AT(t, x);
    out[get_global_id(0)] = acc;
}
";
    let written_out = with_macro
        .replace("#define AT(i, j) tile[(i) * 16 + (j)]\n", "\n")
        .replace("AT(t, x)", "tile[(t) * 16 + (x)]")
        .replace("AT(0, x)", "tile[(0) * 16 + (x)]");
    let n = 16usize;
    let input: Vec<f32> = (0..n * 16).map(|i| i as f32 * 0.5).collect();
    let run = |name: &str, src: &str| {
        let (a, _, _) = annotate_source(name, src);
        let both = run_source_both(
            name,
            src,
            "k",
            vec![
                KernelArg::from_slice(&input),
                KernelArg::zeroed::<f32>(16),
                KernelArg::scalar(n as i32),
            ],
            NdRange::d1(16).with_local([16, 1, 1]),
            &a,
        );
        (a, both)
    };
    let (a, macro_run) = run("macro_body.cl", with_macro);
    assert!(
        a.source.contains("{ __srcsim_k_")
            && a.source.contains("AT(t, x) = in[t * 16 + x] * 2.0f; }"),
        "{}",
        a.source
    );
    let (_, plain_run) = run("written_out.cl", &written_out);
    assert_eq!(macro_run.original, plain_run.original);
    let t = |b: &Both| (0..16).map(|w| b.t(w)).collect::<Vec<_>>();
    assert_eq!(t(&macro_run), t(&plain_run));
}

/// OpenCL C 1.0's atomics (`atom_add`, `atom_inc` of `cl_khr_global_int32_base_atomics`)
/// are annotated like OpenCL C 1.1's (`atomic_add`, `atomic_inc`), which compile to the
/// same PTX: the kernel is not refused, counts what the original counts, and every
/// work-item's record equals the one of the 1.1 spelling.
#[test]
fn opencl_1_0_atomics_are_timed_as_their_1_1_names() {
    let kernel = |prefix: &str| {
        format!(
            "#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
__kernel void bins(__global const int *in, __global int *counts)
{{
    int i = get_global_id(0);
    {prefix}_add(&counts[in[i] & 7], 1);
    {prefix}_inc(&counts[8]);
}}
"
        )
    };
    let input: Vec<i32> = (0..256).map(|i| i * 37 % 101).collect();
    let records: Vec<Vec<u64>> = ["atom", "atomic"]
        .into_iter()
        .map(|prefix| {
            let src = kernel(prefix);
            let (a, _, _) = annotate_source(&format!("bins_{prefix}.cl"), &src);
            assert!(a.sidecar.refused.is_empty(), "{:?}", a.sidecar.refused);
            let both = run_source_both(
                "bins.cl",
                &src,
                "bins",
                vec![KernelArg::from_slice(&input), KernelArg::zeroed::<i32>(9)],
                NdRange::d1(256).with_local([64, 1, 1]),
                &a,
            );
            // The counts: every work-item counted once, in the bin of its value.
            let counts: Vec<i32> = kernel_runner::from_bytes(&both.original[1]).unwrap();
            let mut expected = vec![0i32; 9];
            for v in &input {
                expected[(v & 7) as usize] += 1;
            }
            expected[8] = 256;
            assert_eq!(counts, expected);
            both.records
        })
        .collect();
    assert_eq!(records[0], records[1]);
}
