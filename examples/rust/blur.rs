//! An unmodified OpenCL host program in Rust, through `opencl3` with its default dynamic
//! loading of libOpenCL (the ICD loader is `dlopen`ed, so `LD_PRELOAD` does not reach it:
//! `srcsim run` injects the shim as an OpenCL layer instead).
//!
//! It blurs a W x H image three times with a 3x3 box filter (2D NDRange, a tile of the
//! image in `__local` memory passed as a kernel argument, a barrier), reading the image
//! back after each pass, then sums it with a work-group reduction; it checks every pixel
//! and the sum against the same computation on the host and exits 1 on a mismatch.
//!
//! Usage: rust_host_blur [WIDTH HEIGHT]   (multiples of 16; default 256 128)

use std::process::ExitCode;
use std::ptr;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{get_all_devices, Device, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_GPU};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::program::Program;
use opencl3::types::{cl_float, cl_int, CL_BLOCKING};

const TILE: usize = 16;
const PASSES: usize = 3;

const SOURCE: &str = r#"
#define TILE 16

// Clamp-to-edge read of the source image.
static float at(__global const float *img, int w, int h, int x, int y) {
    x = clamp(x, 0, w - 1);
    y = clamp(y, 0, h - 1);
    return img[y * w + x];
}

__kernel void box_blur(__global const float *src, __global float *dst, int w, int h,
                       __local float *tile) {
    int gx = get_global_id(0), gy = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    int ox = get_group_id(0) * TILE - 1, oy = get_group_id(1) * TILE - 1;
    // The (TILE+2)^2 halo tile, loaded cooperatively.
    for (int i = ly * TILE + lx; i < (TILE + 2) * (TILE + 2); i += TILE * TILE) {
        int tx = i % (TILE + 2), ty = i / (TILE + 2);
        tile[i] = at(src, w, h, ox + tx, oy + ty);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0.0f;
    for (int dy = 0; dy < 3; dy++)
        for (int dx = 0; dx < 3; dx++)
            s += tile[(ly + dy) * (TILE + 2) + lx + dx];
    dst[gy * w + gx] = s / 9.0f;
}

__kernel void sum(__global const float *img, __global float *partial, int n,
                  __local float *scratch) {
    int lid = get_local_id(0);
    float s = 0.0f;
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        s += img[i];
    scratch[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int step = get_local_size(0) / 2; step > 0; step /= 2) {
        if (lid < step)
            scratch[lid] += scratch[lid + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
"#;

fn host_blur(src: &[f32], w: usize, h: usize) -> Vec<f32> {
    let at = |x: isize, y: isize| {
        let x = x.clamp(0, w as isize - 1) as usize;
        let y = y.clamp(0, h as isize - 1) as usize;
        src[y * w + x]
    };
    let mut dst = vec![0.0; w * h];
    for y in 0..h as isize {
        for x in 0..w as isize {
            // The device's summation order: row by row, left to right.
            let mut s = 0.0f32;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    s += at(x + dx, y + dy);
                }
            }
            dst[y as usize * w + x as usize] = s / 9.0;
        }
    }
    dst
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("rust_host_blur: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()?;
    let (w, h) = match args[..] {
        [w, h] if w % TILE == 0 && h % TILE == 0 && w > 0 && h > 0 => (w, h),
        [] => (256, 128),
        _ => return Err("usage: rust_host_blur [WIDTH HEIGHT] (multiples of 16)".into()),
    };
    let n = w * h;

    // Ask for a GPU as most programs do; take any device where there is none.
    let ids = get_all_devices(CL_DEVICE_TYPE_GPU)
        .ok()
        .filter(|d| !d.is_empty())
        .map_or_else(|| get_all_devices(CL_DEVICE_TYPE_ALL), Ok)?;
    let device = Device::new(*ids.first().ok_or("no OpenCL device")?);
    let context = Context::from_device(&device)?;
    #[allow(deprecated)] // clCreateCommandQueue: OpenCL 1.2 hosts still call it
    let queue = CommandQueue::create_default(&context, 0)?;
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .map_err(|log| format!("build failed:\n{log}"))?;
    let blur = Kernel::create(&program, "box_blur")?;
    let sum = Kernel::create(&program, "sum")?;

    let mut image: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 1000) as f32 / 1000.0)
        .collect();
    // SAFETY (each `unsafe` below): OpenCL calls through opencl3 on buffers of the sizes
    // given, with blocking transfers into and out of slices of those sizes; kernel
    // arguments match the kernels' parameters in order and type.
    let mut a =
        unsafe { Buffer::<cl_float>::create(&context, CL_MEM_READ_WRITE, n, ptr::null_mut())? };
    let mut b =
        unsafe { Buffer::<cl_float>::create(&context, CL_MEM_READ_WRITE, n, ptr::null_mut())? };
    unsafe { queue.enqueue_write_buffer(&mut a, CL_BLOCKING, 0, &image, &[])? };

    let (wi, hi) = (w as cl_int, h as cl_int);
    let tile_bytes = (TILE + 2) * (TILE + 2) * std::mem::size_of::<cl_float>();
    let mut ok = true;
    for pass in 0..PASSES {
        let (src, dst) = if pass % 2 == 0 {
            (&a, &mut b)
        } else {
            (&b, &mut a)
        };
        unsafe {
            ExecuteKernel::new(&blur)
                .set_arg(src)
                .set_arg(&*dst)
                .set_arg(&wi)
                .set_arg(&hi)
                .set_arg_local_buffer(tile_bytes)
                .set_global_work_sizes(&[w, h])
                .set_local_work_sizes(&[TILE, TILE])
                .enqueue_nd_range(&queue)?;
        }
        let mut device_out = vec![0.0f32; n];
        unsafe { queue.enqueue_read_buffer(dst, CL_BLOCKING, 0, &mut device_out, &[])? };
        image = host_blur(&image, w, h);
        let wrong = device_out
            .iter()
            .zip(&image)
            .filter(|(d, e)| (*d - *e).abs() > 1e-5)
            .count();
        if wrong > 0 {
            println!("pass {pass}: {wrong} of {n} pixels differ");
            ok = false;
        }
        image = device_out;
    }

    let groups = 16;
    let local = 64;
    let last = if PASSES % 2 == 1 { &b } else { &a };
    let partial = unsafe {
        Buffer::<cl_float>::create(&context, CL_MEM_READ_WRITE, groups, ptr::null_mut())?
    };
    let ni = n as cl_int;
    unsafe {
        ExecuteKernel::new(&sum)
            .set_arg(last)
            .set_arg(&partial)
            .set_arg(&ni)
            .set_arg_local_buffer(local * std::mem::size_of::<cl_float>())
            .set_global_work_size(groups * local)
            .set_local_work_size(local)
            .enqueue_nd_range(&queue)?;
    }
    let mut partials = vec![0.0f32; groups];
    unsafe { queue.enqueue_read_buffer(&partial, CL_BLOCKING, 0, &mut partials, &[])? };
    let total: f64 = partials.iter().map(|&p| f64::from(p)).sum();
    let expected: f64 = image.iter().map(|&p| f64::from(p)).sum();
    if (total - expected).abs() > 1e-3 * expected.abs().max(1.0) {
        println!("sum: device {total}, host {expected}");
        ok = false;
    }
    println!(
        "blur {w}x{h}, {PASSES} passes, sum {expected:.3}: {}",
        if ok { "ok" } else { "MISMATCH" }
    );
    Ok(ok)
}
