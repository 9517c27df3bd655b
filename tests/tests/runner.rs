//! Tests of `kernel_runner` on the machine's OpenCL device (PoCL after `scripts/install-deps`):
//! every expected value is computed here in Rust, independently of the kernel.

use kernel_runner::{device_description, from_bytes, run_kernel, KernelArg, NdRange, RunError};

const VECTOR_ADD: &str = r#"
__kernel void vector_add(__global const float* a, __global const float* b,
                         __global float* c, int n) {
    int i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
"#;

/// Kernels writing their global ids: the linear id is computed by hand, without the offset
/// (`get_global_linear_id` is OpenCL 2.0).
const IDS: &str = r#"
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

__kernel void ids_2d(__global uint* out) {
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t lin = (y - get_global_offset(1)) * get_global_size(0) + (x - get_global_offset(0));
    out[lin] = (uint)(x + 1000 * y);
}

__kernel void ids_3d_ulong(__global ulong* out, __global ulong* total, ulong salt) {
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t lin = (z * get_global_size(1) + y) * get_global_size(0) + x;
    out[lin] = ((ulong)lin << 40) ^ salt;
    atom_add(&total[0], (ulong)lin + 0x100000000UL);
}
"#;

const REDUCE: &str = r#"
__kernel void group_sum(__global const uint* in, __global uint* out, __local uint* scratch) {
    size_t l = get_local_id(0), n = get_local_size(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s /= 2) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}
"#;

fn vector_add_args(n: usize) -> (Vec<f32>, Vec<f32>, Vec<KernelArg>) {
    // Values with many significant bits, so that a wrong rounding would show.
    let a: Vec<f32> = (0..n)
        .map(|i| (i as f32 * 0.37).sin() * 1e3 + 0.1)
        .collect();
    let b: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 3.0)).collect();
    let args = vec![
        KernelArg::from_slice(&a),
        KernelArg::from_slice(&b),
        KernelArg::zeroed::<f32>(n),
        KernelArg::scalar(n as i32),
    ];
    (a, b, args)
}

#[test]
fn reports_the_device() {
    let d = device_description().expect("an OpenCL device");
    assert!(!d.is_empty());
    eprintln!("device: {d}");
}

#[test]
fn vector_add_matches_rust_bit_for_bit() {
    let (a, b, args) = vector_add_args(1000);
    let range = NdRange::d1(1024).with_local([64, 1, 1]);
    let out = run_kernel(VECTOR_ADD, "", "vector_add", &args, &range).unwrap();
    assert_eq!(out.buffers.len(), 3, "one output per buffer argument");
    assert_eq!(out.get::<f32>(0).unwrap(), a, "inputs come back unchanged");
    let c = out.get::<f32>(2).unwrap();
    assert_eq!(c.len(), 1000);
    for i in 0..1000 {
        assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "c[{i}]");
    }
}

#[test]
fn concurrent_runs_are_independent() {
    let handles: Vec<_> = (0..6)
        .map(|t| {
            std::thread::spawn(move || {
                let n = 200 + 37 * t;
                let (a, b, args) = vector_add_args(n);
                let out = run_kernel(VECTOR_ADD, "", "vector_add", &args, &NdRange::d1(n)).unwrap();
                let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
                assert_eq!(out.get::<f32>(2).unwrap(), want, "thread {t}");
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

#[test]
fn two_dimensional_range_with_offset() {
    let (gx, gy, ox, oy) = (24usize, 5usize, 3usize, 7usize);
    let range = NdRange::d2([gx, gy])
        .with_local([8, 1, 1])
        .with_offset([ox, oy, 0]);
    let args = [KernelArg::zeroed::<u32>(gx * gy)];
    let out = run_kernel(IDS, "", "ids_2d", &args, &range).unwrap();
    let mut want = Vec::new();
    for y in oy..oy + gy {
        for x in ox..ox + gx {
            want.push((x + 1000 * y) as u32);
        }
    }
    assert_eq!(out.get::<u32>(0).unwrap(), want);
}

#[test]
fn ulong_per_work_item_and_atomic_counter() {
    let (g, salt) = ([4usize, 3, 2], 0xdead_beef_0000_0001u64);
    let n = g[0] * g[1] * g[2];
    let args = [
        KernelArg::zeroed::<u64>(n),
        KernelArg::from_slice(&[5u64]),
        KernelArg::scalar(salt),
    ];
    let range = NdRange::d3(g).with_offset([1, 2, 3]);
    let out = run_kernel(IDS, "", "ids_3d_ulong", &args, &range).unwrap();
    let want: Vec<u64> = (0..n as u64).map(|i| (i << 40) ^ salt).collect();
    assert_eq!(out.get::<u64>(0).unwrap(), want);
    let total: u64 = 5 + (0..n as u64).map(|i| i + (1 << 32)).sum::<u64>();
    assert_eq!(out.get::<u64>(1).unwrap(), vec![total]);
}

#[test]
fn local_memory_reduction_matches_rust() {
    let (n, wg) = (512usize, 64usize);
    let input: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 3)
        .collect();
    let args = [
        KernelArg::from_slice(&input),
        KernelArg::zeroed::<u32>(n / wg),
        KernelArg::local::<u32>(wg),
    ];
    let range = NdRange::d1(n).with_local([wg, 1, 1]);
    let out = run_kernel(REDUCE, "", "group_sum", &args, &range).unwrap();
    let want: Vec<u32> = input
        .chunks(wg)
        .map(|c| c.iter().fold(0u32, |s, &v| s.wrapping_add(v)))
        .collect();
    assert_eq!(out.get::<u32>(1).unwrap(), want);
}

#[test]
fn build_options_are_passed() {
    let src = "__kernel void k(__global int* o) { o[0] = VALUE * 2; }";
    let out = run_kernel(
        src,
        "-D VALUE=21",
        "k",
        &[KernelArg::zeroed::<i32>(1)],
        &NdRange::d1(1),
    )
    .unwrap();
    assert_eq!(out.get::<i32>(0).unwrap(), vec![42]);
}

#[test]
fn build_failure_carries_the_log() {
    let src =
        "__kernel void broken(__global int* o) {\n    o[0] = 1;\n    o[1] = undeclared_name;\n}\n";
    let err = run_kernel(
        src,
        "",
        "broken",
        &[KernelArg::zeroed::<i32>(2)],
        &NdRange::d1(1),
    )
    .unwrap_err();
    eprintln!("{err}");
    let RunError::Build { log, .. } = &err else {
        panic!("expected a build error, got {err:?}");
    };
    assert!(log.contains("undeclared_name"), "log: {log}");
    assert!(log.contains(":3:"), "the log names line 3: {log}");
    assert!(
        err.to_string().contains(log.as_str()),
        "the message includes the log"
    );
}

#[test]
fn unknown_kernel_name_is_an_error() {
    let (_, _, args) = vector_add_args(4);
    let err = run_kernel(VECTOR_ADD, "", "vector_sub", &args, &NdRange::d1(4)).unwrap_err();
    assert!(
        matches!(&err, RunError::KernelNotFound { name, available }
            if name == "vector_sub" && available.contains("vector_add")),
        "{err:?}"
    );
    let err = run_kernel(VECTOR_ADD, "", "nul\0name", &args, &NdRange::d1(4)).unwrap_err();
    assert!(matches!(err, RunError::KernelNotFound { .. }), "{err:?}");
}

#[test]
fn bad_arguments_are_errors() {
    let (_, _, mut args) = vector_add_args(4);
    let range = NdRange::d1(4);
    let too_few = run_kernel(VECTOR_ADD, "", "vector_add", &args[..3], &range).unwrap_err();
    assert!(
        matches!(too_few, RunError::Arg { index: 3, .. }),
        "{too_few:?}"
    );

    args[3] = KernelArg::from_slice(&[4i32]); // a buffer for `int n`
    let wrong_kind = run_kernel(VECTOR_ADD, "", "vector_add", &args, &range).unwrap_err();
    assert!(
        matches!(wrong_kind, RunError::Arg { index: 3, .. }),
        "{wrong_kind:?}"
    );
    eprintln!("{wrong_kind}");

    // A buffer for a `long` has the right size, but not the right kind.
    let src = "__kernel void k(__global long* o, long n) { o[0] = n; }";
    let long_args = [KernelArg::zeroed::<i64>(1), KernelArg::from_slice(&[4i64])];
    let err = run_kernel(src, "", "k", &long_args, &NdRange::d1(1)).unwrap_err();
    assert!(matches!(err, RunError::Arg { index: 1, .. }), "{err:?}");
    eprintln!("{err}");

    args[3] = KernelArg::scalar(4i64); // 8 bytes for a 4-byte int
    let wrong_size = run_kernel(VECTOR_ADD, "", "vector_add", &args, &range).unwrap_err();
    assert!(
        matches!(wrong_size, RunError::Arg { index: 3, .. }),
        "{wrong_size:?}"
    );

    args[3] = KernelArg::scalar(4i32);
    args[2] = KernelArg::Buffer(Vec::new());
    let empty = run_kernel(VECTOR_ADD, "", "vector_add", &args, &range).unwrap_err();
    assert!(matches!(empty, RunError::Arg { index: 2, .. }), "{empty:?}");
}

#[test]
fn bad_ranges_are_errors() {
    let (_, _, args) = vector_add_args(4);
    for range in [
        NdRange {
            work_dim: 0,
            ..NdRange::d1(4)
        },
        NdRange {
            work_dim: 4,
            ..NdRange::d1(4)
        },
        NdRange::d1(6).with_local([4, 1, 1]),
        NdRange::d1(4).with_local([0, 1, 1]),
    ] {
        let err = run_kernel(VECTOR_ADD, "", "vector_add", &args, &range).unwrap_err();
        assert!(
            matches!(err, RunError::Enqueue { .. }),
            "{range:?}: {err:?}"
        );
    }
    let err = run_kernel("", "", "k", &[], &NdRange::d1(1)).unwrap_err();
    assert!(matches!(err, RunError::Build { .. }), "{err:?}");
}

#[test]
fn bytes_round_trip() {
    assert_eq!(from_bytes::<u16>(&[1, 0, 2, 0]).unwrap(), vec![1, 2]);
    // Unaligned input is fine.
    let bytes = [0u8, 1, 0, 0, 0];
    assert_eq!(from_bytes::<u32>(&bytes[1..]).unwrap(), vec![1]);
    assert!(matches!(
        from_bytes::<u32>(&[1, 2, 3]),
        Err(RunError::Output(_))
    ));
    let out = kernel_runner::RunOutput {
        buffers: vec![vec![0; 8]],
    };
    assert_eq!(out.get::<u64>(0).unwrap(), vec![0]);
    assert!(matches!(out.get::<u64>(1), Err(RunError::Output(_))));
    assert_eq!(
        KernelArg::scalar(1.5f32),
        KernelArg::Scalar(1.5f32.to_le_bytes().to_vec())
    );
    assert_eq!(KernelArg::local::<u64>(3), KernelArg::Local(24));
}
