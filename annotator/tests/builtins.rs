//! The parser and classifier on what the NVPTX back end emits for a broad sweep of OpenCL
//! C 1.2 builtins (math, integer, common, geometric, relational, conversions, vector
//! load/store, atomics, synchronisation, async copies), scalar and vector, float, double
//! and integer, for every shipped architecture's PTX target: everything parses, and no
//! opcode is unknown.

use annotator::analysis::blocks::analyze_file;
use annotator::front::compile::{BuildOptions, Compiler};
use pipeline_model::{arch::BUILTIN_ARCHS, Architecture};

const MATH_1: &[&str] = &[
    "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atanh", "atanpi", "cbrt",
    "ceil", "cos", "cosh", "cospi", "erfc", "erf", "exp", "exp2", "exp10", "expm1", "fabs",
    "floor", "lgamma", "log", "log2", "log10", "log1p", "logb", "rint", "round", "rsqrt", "sin",
    "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma", "trunc",
];
const MATH_2: &[&str] = &[
    "atan2",
    "atan2pi",
    "copysign",
    "fdim",
    "fmax",
    "fmin",
    "fmod",
    "hypot",
    "maxmag",
    "minmag",
    "nextafter",
    "pow",
    "powr",
    "remainder",
];
const NATIVE_1: &[&str] = &[
    "native_cos",
    "native_exp",
    "native_exp2",
    "native_exp10",
    "native_log",
    "native_log2",
    "native_log10",
    "native_recip",
    "native_rsqrt",
    "native_sin",
    "native_sqrt",
    "native_tan",
    "half_cos",
    "half_exp",
    "half_log",
    "half_recip",
    "half_rsqrt",
    "half_sin",
    "half_sqrt",
];
const INT_1: &[&str] = &["abs", "clz", "popcount"];
const INT_2: &[&str] = &[
    "abs_diff", "add_sat", "hadd", "rhadd", "max", "min", "mul_hi", "rotate", "sub_sat", "mul24",
];

fn kernel_source() -> String {
    let mut s = String::from("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    s.push_str(
        "__kernel void floats(__global float4 *f4, __global float *f, __global double2 *d2,\n\
         \x20                    __global double *d, __global int *idx)\n{\n\
         \x20   int i = get_global_id(0);\n    float x = f[i];\n    float4 v = f4[i];\n\
         \x20   double y = d[i];\n    double2 w = d2[i];\n    int k;\n",
    );
    for f in MATH_1 {
        s.push_str(&format!(
            "    x += {f}(x); v += {f}(v); y += {f}(y); w += {f}(w);\n"
        ));
    }
    for f in MATH_2 {
        s.push_str(&format!(
            "    x += {f}(x, 0.5f); v += {f}(v, v); y += {f}(y, 0.5); w += {f}(w, w);\n"
        ));
    }
    for f in NATIVE_1 {
        s.push_str(&format!("    x += {f}(x); v += {f}(v);\n"));
    }
    s.push_str(
        "    x += native_divide(x, 3.0f) + native_powr(x, 2.0f) + half_divide(x, 2.0f) + half_powr(x, x);\n\
         \x20   x += fma(x, x, 1.0f) + mad(x, 2.0f, x) + clamp(x, 0.0f, 1.0f) + mix(x, 1.0f, 0.5f);\n\
         \x20   x += step(0.5f, x) + smoothstep(0.0f, 1.0f, x) + sign(x) + degrees(x) + radians(x);\n\
         \x20   x += frexp(x, &k) + ldexp(x, k) + ilogb(x) + nan(1u) + fract(x, &x) + modf(x, &x);\n\
         \x20   x += sincos(x, &x) + remquo(x, 3.0f, &k) + pown(x, 3) + rootn(x, 3) + lgamma_r(x, &k);\n\
         \x20   x += dot(v, v) + length(v) + distance(v, v) + fast_length(v) + fast_distance(v, v);\n\
         \x20   v += normalize(v) + fast_normalize(v) + cross(v, v);\n\
         \x20   y += dot(w, w) + length(w) + fma(y, y, 1.0) + mix(y, 1.0, 0.5);\n\
         \x20   k += isnan(x) + isinf(x) + isfinite(x) + isnormal(x) + signbit(x) + isless(x, 1.0f);\n\
         \x20   k += isgreater(x, 2.0f) + islessgreater(y, 1.0) + isordered(x, x) + any(isnan(v)) + all(isinf(v));\n\
         \x20   v = select(v, v * 2.0f, isless(v, (float4)(0.0f)));\n\
         \x20   v = bitselect(v, v + 1.0f, v);\n\
         \x20   x += convert_float(convert_int_sat_rte(x * 1000.0f)) + as_float(as_int(x) ^ 1);\n\
         \x20   y += convert_double(convert_long_rtz(y)) + (double)x;\n\
         \x20   vstore4(v, 1, f); v += vload4(2, f); vstore_half(x, i, (__global half *)idx);\n\
         \x20   x += vload_half(i, (__global half *)idx);\n\
         \x20   f[i] = x + v.x + v.w; f4[i] = v; d[i] = y + w.x; d2[i] = w; idx[i] = k;\n}\n",
    );
    s.push_str(
        "__kernel void ints(__global int4 *i4, __global uint *u, __global long *l,\n\
         \x20                  __global uchar *c, volatile __global int *counter)\n{\n\
         \x20   __local int tile[64];\n    int i = get_global_id(0);\n    int4 a = i4[i];\n\
         \x20   uint b = u[i];\n    long q = l[i];\n    uchar ch = c[i];\n",
    );
    for f in INT_1 {
        s.push_str(&format!(
            "    a += as_int4({f}(a)); b += {f}(b); q += {f}(q); ch += {f}(ch);\n"
        ));
    }
    for f in INT_2 {
        s.push_str(&format!(
            "    a += as_int4({f}(a, a)); b += {f}(b, 3u); ch += {f}(ch, (uchar)1);\n"
        ));
    }
    for f in [
        "add_sat", "sub_sat", "max", "min", "mul_hi", "rotate", "hadd",
    ] {
        s.push_str(&format!("    q += {f}(q, 3L);\n"));
    }
    s.push_str(
        "    a += mad24(a, a, a) + mad_hi(a, a, a) + mad_sat(a, a, a) + clamp(a, 0, 9) + upsample((short4)(1), (ushort4)(2));\n\
         \x20   b += b / 7u + b % 5u + (uint)(q / 3L) + (uint)(q % 11L) + (b >> 3) + (b << (b & 7));\n\
         \x20   a = shuffle(a, (uint4)(3, 2, 1, 0)) + shuffle2(a, a, (uint4)(7, 2, 5, 0));\n\
         \x20   tile[get_local_id(0) % 64] = a.x;\n\
         \x20   barrier(CLK_LOCAL_MEM_FENCE);\n\
         \x20   mem_fence(CLK_GLOBAL_MEM_FENCE); read_mem_fence(CLK_LOCAL_MEM_FENCE); write_mem_fence(CLK_GLOBAL_MEM_FENCE);\n\
         \x20   a.y += tile[(get_local_id(0) + 1) % 64];\n\
         \x20   atomic_add(counter, 1); atomic_sub(counter, 1); atomic_xchg(counter, 3);\n\
         \x20   atomic_inc(counter); atomic_dec(counter); atomic_cmpxchg(counter, 3, 4);\n\
         \x20   atomic_min(counter, 2); atomic_max(counter, 9); atomic_and(counter, 7);\n\
         \x20   atomic_or(counter, 8); atomic_xor(counter, 1); atomic_add(&tile[3], 2);\n\
         \x20   event_t e = async_work_group_copy(tile, (__global const int *)i4, 64, 0);\n\
         \x20   wait_group_events(1, &e);\n\
         \x20   a.z += tile[5] + get_work_dim() + get_global_size(1) + get_local_size(2) + get_num_groups(0) + get_group_id(2) + get_global_offset(0);\n\
         \x20   i4[i] = a; u[i] = b; l[i] = q; c[i] = ch;\n}\n",
    );
    s
}

#[test]
fn every_builtin_family_parses_with_known_opcodes() {
    let compiler = Compiler::locate().expect("clang 19 and libclc");
    let dir = std::env::temp_dir().join(format!("srcsim-builtins-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("builtins.cl");
    std::fs::write(&path, kernel_source()).unwrap();
    for name in BUILTIN_ARCHS {
        let arch = Architecture::load(name).unwrap();
        let (a, module) = analyze_file(&compiler, &path, &BuildOptions::default(), &arch)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(a.warnings.is_empty(), "{name}: {:#?}", a.warnings);
        assert_eq!(a.kernels.len(), 2);
        let instrs: usize = module
            .kernels()
            .flat_map(|f| &f.blocks)
            .map(|b| b.instrs.len())
            .sum();
        assert!(instrs > 2000, "{name}: only {instrs} instructions");
        // Each family left its mark in the PTX.
        let opcodes: std::collections::BTreeSet<&str> = module
            .kernels()
            .flat_map(|f| &f.blocks)
            .flat_map(|b| &b.instrs)
            .map(|i| i.opcode.as_str())
            .collect();
        for expect in [
            "atom.",
            "bar.sync",
            "div.rn.f64",
            "sqrt.rn.f32",
            "ex2.approx",
            "cvt.",
        ] {
            assert!(
                opcodes.iter().any(|o| o.starts_with(expect)),
                "{name}: no {expect}* in {opcodes:?}"
            );
        }
    }
}
