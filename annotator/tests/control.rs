//! What decides a kernel's paths (`annotator::analysis::control`): each kernel below is written so
//! that the answer can be read off its source by hand; the analysis must find the value
//! arguments its branches depend on, and call every kernel whose branches read memory (or
//! whose values it cannot follow) dependent on memory.

use std::path::PathBuf;

use annotator::analysis::control::path_inputs;
use annotator::front::compile::{BuildOptions, Compiler};
use annotator::front::source::parse;

fn inputs_of(text: &str) -> Vec<(String, Option<Vec<u32>>)> {
    let dir = std::env::temp_dir().join(format!("srcsim-control-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(format!("k{:x}.cl", fxhash(text)));
    std::fs::write(&path, text).unwrap();
    let file = parse(
        &path,
        &BuildOptions::default(),
        &Compiler::locate().unwrap(),
    )
    .unwrap();
    let kernels: Vec<&str> = file
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .filter(|n| n.starts_with('k'))
        .collect();
    let found = path_inputs(&file, &kernels, &[]);
    let mut out: Vec<(String, Option<Vec<u32>>)> = found.into_iter().collect();
    out.sort();
    out
}

fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

fn one(text: &str) -> Option<Vec<u32>> {
    let all = inputs_of(text);
    assert_eq!(all.len(), 1, "{all:?}");
    all[0].1.clone()
}

#[test]
fn no_branch_depends_on_nothing() {
    // A value argument used only in arithmetic decides no path.
    let src = "__kernel void k(__global int *c, const int step) {
        int i = get_global_id(0);
        c[i] += (step + i) & 3;
    }";
    assert_eq!(one(src), Some(vec![]));
}

#[test]
fn branches_on_ids_and_value_arguments() {
    let src = "__kernel void k(__global const float *in, __global float *out,
                              const int width, const int height, const float alpha) {
        int x = get_global_id(0);
        int y = get_global_id(1);
        if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
            return;
        int i = y * width + x;
        out[i] = in[i] * alpha;
    }";
    assert_eq!(one(src), Some(vec![2, 3]));
}

#[test]
fn a_loaded_value_in_a_condition_is_memory() {
    let src = "__kernel void k(__global const int *in, __global int *out) {
        int i = get_global_id(0);
        int v = in[i];
        if (v > 0) out[i] = v;
    }";
    assert_eq!(one(src), None);
    // ... also through arithmetic, a second variable, a compound assignment and a loop.
    let src = "__kernel void k(__global const int *in, __global int *out, int n) {
        int i = get_global_id(0);
        int s = 0;
        int t = 1;
        for (int j = 0; j < n; j++) s += in[j];
        t = s * 2 + 1;
        while (t > 0) t -= n;
        out[i] = t;
    }";
    assert_eq!(one(src), None);
    // A pointer dereference and a member through a pointer read memory too.
    let src = "typedef struct { int n; } P;
    __kernel void k(__global const P *p, __global int *out) {
        if (p->n > 3) out[0] = 1;
    }";
    assert_eq!(one(src), None);
    let src = "__kernel void k(__global const int *p, __global int *out) {
        for (int j = 0; j < *p; j++) out[j] = j;
    }";
    assert_eq!(one(src), None);
}

#[test]
fn a_loaded_value_used_only_as_data_decides_nothing() {
    // The loads feed the result and the `?:`'s arms, never a condition.
    let src = "__kernel void k(__global const float *x, __global float *y, const int n) {
        int i = get_global_id(0);
        if (i >= n) return;
        float left = i > 0 ? x[i - 1] : 0.0f;
        y[i] = fmax(left, fabs(x[i]));
    }";
    assert_eq!(one(src), Some(vec![2]));
}

#[test]
fn the_short_circuit_and_ternary_conditions_count() {
    // The right side of `&&` runs only where the left is true: the left decides a path.
    let src = "__kernel void k(__global const int *in, __global int *out) {
        int i = get_global_id(0);
        out[i] = (in[i] > 0 && i > 3) ? 1 : 2;
    }";
    assert_eq!(one(src), None);
    let src = "__kernel void k(__global const int *in, __global int *out, int m) {
        int i = get_global_id(0);
        out[i] = (i > m) ? in[i] : in[i + 1];
    }";
    assert_eq!(one(src), Some(vec![2]));
}

#[test]
fn a_variable_whose_address_is_taken_is_memory() {
    // fract writes its second argument: `whole` is then no longer what it was assigned.
    let src = "__kernel void k(__global const float *in, __global float *out) {
        int i = get_global_id(0);
        float whole = 0.0f;
        out[i] = fract(in[i], &whole);
        if (whole > 1.0f) out[i] = 0.0f;
    }";
    assert_eq!(one(src), None);
}

#[test]
fn private_and_local_arrays_and_pointers_are_memory() {
    let src = "__kernel void k(__global int *out, int n) {
        int a[4] = {1, 2, 3, 4};
        int i = get_global_id(0);
        if (a[i & 3] > n) out[i] = 1;
    }";
    assert_eq!(one(src), None);
    let src = "__kernel void k(__global int *out, __local int *scratch) {
        int i = get_local_id(0);
        scratch[i] = i;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (scratch[0] == 0) out[i] = 1;
    }";
    assert_eq!(one(src), None);
    // A pointer's value is an address the launch does not fix.
    let src = "__kernel void k(__global int *out, __global int *other) {
        if (out == other) out[0] = 1;
    }";
    assert_eq!(one(src), None);
}

#[test]
fn a_reduction_on_local_ids_depends_on_the_geometry_alone() {
    let src = "__kernel void k(__global const float *x, __global float *partial,
                               __local float *scratch, const int n) {
        int i = get_global_id(0);
        int lid = get_local_id(0);
        scratch[lid] = i < n ? x[i] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int stride = get_local_size(0) / 2; stride > 0; stride >>= 1) {
            if (lid < stride)
                scratch[lid] = fmax(scratch[lid], scratch[lid + stride]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0)
            partial[get_group_id(0)] = scratch[0];
    }";
    assert_eq!(one(src), Some(vec![3]));
}

#[test]
fn helpers_pass_arguments_and_returns_through() {
    // The helper's branch decides on its parameter, which the kernel passes `n`: the
    // kernel's paths depend on `n` (argument 1), not on `scale` (argument 2).
    let src = "int clamp_to(int v, int hi) { if (v > hi) return hi; return v; }
    __kernel void k(__global int *out, int n, int scale) {
        int i = get_global_id(0);
        out[i] = clamp_to(i, n) * scale;
    }";
    assert_eq!(one(src), Some(vec![1]));
    // A helper's return value that came from memory decides the kernel's branch.
    let src = "int first(__global const int *p) { return p[0]; }
    __kernel void k(__global const int *in, __global int *out) {
        if (first(in) > 0) out[0] = 1;
    }";
    assert_eq!(one(src), None);
    // A helper called with memory by one kernel and an argument by another: each kernel
    // keeps to what its own calls pass, but the memory taints the shared parameter.
    let src = "int pick(int v) { return v > 2 ? 1 : 0; }
    __kernel void ka(__global const int *in, __global int *out) { out[0] = pick(in[0]); }
    __kernel void kb(__global int *out, int m) { out[0] = pick(m); }";
    assert_eq!(
        inputs_of(src),
        [("ka".to_string(), None), ("kb".to_string(), None)]
    );
    let src = "int pick(int v) { return v > 2 ? 1 : 0; }
    __kernel void ka(__global int *out, int a, int b) { out[0] = pick(b); }
    __kernel void kb(__global int *out, int m) { out[0] = pick(m); }";
    assert_eq!(
        inputs_of(src),
        [
            ("ka".to_string(), Some(vec![2])),
            ("kb".to_string(), Some(vec![1]))
        ]
    );
}

#[test]
fn a_helper_writing_through_a_pointer_taints_the_variable() {
    let src = "void load(__global const int *p, int *v) { *v = p[0]; }
    __kernel void k(__global const int *in, __global int *out) {
        int v = 0;
        load(in, &v);
        if (v) out[0] = 1;
    }";
    assert_eq!(one(src), None);
}

#[test]
fn struct_and_vector_values_follow_their_members() {
    let src = "typedef struct { int lo; int hi; } Range;
    __kernel void k(__global int *out, Range r, int4 q) {
        int i = get_global_id(0);
        Range s = r;
        s.lo = s.lo + 1;
        int4 w = q;
        w.x = 0;
        if (i >= s.lo && i < s.hi + w.y) out[i] = 1;
    }";
    assert_eq!(one(src), Some(vec![1, 2]));
    // A member assigned from memory taints its whole variable.
    let src = "typedef struct { int lo; int hi; } Range;
    __kernel void k(__global int *out, __global const int *in, Range r) {
        Range s = r;
        s.hi = in[0];
        if (get_global_id(0) < s.lo) out[0] = 1;
    }";
    assert_eq!(one(src), None);
}

#[test]
fn program_scope_constants_are_constant_and_variables_are_not() {
    let src = "__constant int N = 8;
    __kernel void k(__global int *out) {
        for (int j = 0; j < N; j++) out[j] = j;
    }";
    assert_eq!(one(src), Some(vec![]));
    let src = "__constant int table[4] = {1, 2, 3, 4};
    __kernel void k(__global int *out) {
        for (int j = 0; j < table[1]; j++) out[j] = j;
    }";
    assert_eq!(one(src), None);
}

#[test]
fn atomics_and_images_are_memory() {
    let src = "__kernel void k(__global int *counter, __global int *out) {
        int slot = atomic_inc(counter);
        if (slot < 16) out[slot] = 1;
    }";
    assert_eq!(one(src), None);
    let src = "__kernel void k(__read_only image2d_t img, __global int *out) {
        int w = get_image_width(img);
        if (get_global_id(0) < w) out[0] = 1;
    }";
    assert_eq!(one(src), None);
}

#[test]
fn loops_carry_values_around() {
    // `j` grows from `i` and `n`; `acc` takes memory but only as data; `k2` takes `acc`
    // one iteration later, and decides a branch: memory.
    let src = "__kernel void k(__global const int *in, __global int *out, int n) {
        int i = get_global_id(0);
        int acc = 0, k2 = 0;
        for (int j = i; j < n; j += 4) {
            if (k2 > 10) break;
            k2 = acc;
            acc += in[j];
        }
        out[i] = acc;
    }";
    assert_eq!(one(src), None);
    let src = "__kernel void k(__global const int *in, __global int *out, int n, int m) {
        int i = get_global_id(0);
        int acc = 0, k2 = 0;
        for (int j = i; j < n; j += 4) {
            if (k2 > 10) break;
            k2 = k2 + m;
            acc += in[j];
        }
        out[i] = acc;
    }";
    assert_eq!(one(src), Some(vec![2, 3]));
}

#[test]
fn a_function_defined_in_an_included_file_is_not_followed() {
    // Its body is not the file's: its branches are unknown, so memory. A builtin, only
    // declared in OpenCL's header, computes from its arguments.
    let dir = std::env::temp_dir().join(format!("srcsim-control-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("helper_in_header.h"),
        "int bounded(int v) { return v > 4 ? 4 : v; }\n",
    )
    .unwrap();
    let src = "#include \"helper_in_header.h\"
    __kernel void k(__global int *out, int n) {
        out[get_global_id(0)] = bounded(n) + min(n, 3);
    }";
    assert_eq!(one(src), None);
    let src = "__kernel void k(__global int *out, int n) {
        if (min(n, 3) > 1) out[get_global_id(0)] = 1;
    }";
    assert_eq!(one(src), Some(vec![1]));
}
