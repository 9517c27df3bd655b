//! `kernel_runner`: runs one OpenCL C kernel on the OpenCL device of this machine (PoCL's
//! CPU device after `scripts/install-deps`) and returns the contents of its buffers.
//!
//! The end-to-end tests use it to run an original kernel and its timing-annotated version
//! on the same inputs, compare their outputs bit for bit and read back the annotated
//! kernel's extra `__global ulong*` counter buffer.
//!
//! Every call of [`run_kernel`] builds the program in a fresh context of its own, so calls
//! from several threads at once (as `cargo test` makes them) are independent; only the
//! choice of platform and device is made once per process and cached.
//!
//! The OpenCL library (`libOpenCL.so.1`, the ICD loader) is loaded at run time, so this
//! crate builds without OpenCL installed and reports [`RunError::NoDevice`] instead. Set
//! `OPENCL_DYLIB_PATH` to another OpenCL library to use it in place of the ICD loader.
//!
//! Under Oclgrind (`oclgrind <test binary>`, which preloads Oclgrind's runtime) the kernels
//! run on Oclgrind's simulator, one run at a time, as its runtime is not safe for
//! concurrent contexts.
//!
//! ```no_run
//! use kernel_runner::{run_kernel, KernelArg, NdRange};
//!
//! let src = "__kernel void add(__global const float* a, __global float* b, int n) {
//!                int i = get_global_id(0); if (i < n) b[i] += a[i]; }";
//! let args = [
//!     KernelArg::from_slice(&[1.0f32, 2.0]),
//!     KernelArg::from_slice(&[10.0f32, 20.0]),
//!     KernelArg::scalar(2i32),
//! ];
//! let out = run_kernel(src, "", "add", &args, &NdRange::d1(2)).unwrap();
//! assert_eq!(out.get::<f32>(1).unwrap(), vec![11.0, 22.0]);
//! ```
#![deny(missing_docs)]

use std::env;
use std::ffi::c_void;
use std::fs;
use std::path::{Path, PathBuf};
use std::ptr;
use std::sync::{Mutex, OnceLock, PoisonError};

use bytemuck::Pod;
use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU};
use opencl3::error_codes::{ClError, CL_INVALID_KERNEL_NAME};
use opencl3::kernel::{
    set_kernel_arg, Kernel, CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_ADDRESS_GLOBAL,
    CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_ADDRESS_PRIVATE,
};
use opencl3::memory::{Buffer, ClMem, CL_MEM_COPY_HOST_PTR, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_device_id, CL_BLOCKING};

/// One argument of a kernel, in the order of the kernel's parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelArg {
    /// A `__global` (or `__constant`) buffer: these bytes are copied in before the run, and
    /// the buffer's contents after the run are returned in [`RunOutput::buffers`].
    Buffer(Vec<u8>),
    /// A by-value argument (`int`, `float4`, a struct, ...): its bytes, exactly as the
    /// kernel's parameter type lays them out.
    Scalar(Vec<u8>),
    /// A `__local` buffer of this many bytes.
    Local(usize),
}

impl KernelArg {
    /// A [`KernelArg::Buffer`] holding the bytes of `data`.
    pub fn from_slice<T: Pod>(data: &[T]) -> Self {
        KernelArg::Buffer(bytemuck::cast_slice(data).to_vec())
    }

    /// A [`KernelArg::Buffer`] of `len` elements of `T`, all bytes zero.
    pub fn zeroed<T: Pod>(len: usize) -> Self {
        KernelArg::Buffer(vec![0; len * std::mem::size_of::<T>()])
    }

    /// A [`KernelArg::Scalar`] holding the bytes of `value`.
    pub fn scalar<T: Pod>(value: T) -> Self {
        KernelArg::Scalar(bytemuck::bytes_of(&value).to_vec())
    }

    /// A [`KernelArg::Local`] buffer of `len` elements of `T`.
    pub fn local<T>(len: usize) -> Self {
        KernelArg::Local(len * std::mem::size_of::<T>())
    }
}

/// The index space of a launch, as given to `clEnqueueNDRangeKernel`: only the first
/// `work_dim` entries of each array are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NdRange {
    /// Number of dimensions, 1 to 3.
    pub work_dim: u32,
    /// Global work size in each dimension.
    pub global: [usize; 3],
    /// Work-group size in each dimension; `None` lets the OpenCL implementation choose.
    pub local: Option<[usize; 3]>,
    /// Global work offset in each dimension; `None` means zero.
    pub offset: Option<[usize; 3]>,
}

impl NdRange {
    /// The model's view of this range: sizes beyond `work_dim` are 1, and without a local
    /// size the work-groups are single work-items (the runtime's choice is not known).
    pub fn geometry(&self) -> pipeline_model::LaunchGeometry {
        let dims = self.work_dim as usize;
        let size = |v: [usize; 3]| -> [u64; 3] {
            let mut out = [1u64; 3];
            for d in 0..dims {
                out[d] = v[d] as u64;
            }
            out
        };
        pipeline_model::LaunchGeometry {
            global: size(self.global),
            local: self.local.map(size).unwrap_or([1; 3]),
        }
    }

    /// A 1D range of `global` work-items.
    pub fn d1(global: usize) -> Self {
        Self::d3([global, 1, 1]).dims(1)
    }

    /// A 2D range of `global[0] x global[1]` work-items.
    pub fn d2(global: [usize; 2]) -> Self {
        Self::d3([global[0], global[1], 1]).dims(2)
    }

    /// A 3D range of `global[0] x global[1] x global[2]` work-items.
    pub fn d3(global: [usize; 3]) -> Self {
        NdRange {
            work_dim: 3,
            global,
            local: None,
            offset: None,
        }
    }

    /// This range with work-groups of `local` (entries past `work_dim` are ignored).
    pub fn with_local(self, local: [usize; 3]) -> Self {
        NdRange {
            local: Some(local),
            ..self
        }
    }

    /// This range with a global work offset of `offset` (entries past `work_dim` are
    /// ignored).
    pub fn with_offset(self, offset: [usize; 3]) -> Self {
        NdRange {
            offset: Some(offset),
            ..self
        }
    }

    fn dims(self, work_dim: u32) -> Self {
        NdRange { work_dim, ..self }
    }
}

/// What a run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutput {
    /// The contents of every [`KernelArg::Buffer`] argument after the run, in argument
    /// order (scalar and local arguments have no entry).
    pub buffers: Vec<Vec<u8>>,
}

impl RunOutput {
    /// The `index`-th output buffer (counting buffer arguments only) as elements of `T`.
    pub fn get<T: Pod>(&self, index: usize) -> Result<Vec<T>, RunError> {
        let bytes = self.buffers.get(index).ok_or_else(|| {
            RunError::Output(format!(
                "no output buffer {index}: the kernel had {} buffer arguments",
                self.buffers.len()
            ))
        })?;
        from_bytes(bytes)
    }
}

/// Reads `bytes` back as elements of `T` (any alignment); an error if the length is not a
/// multiple of `T`'s size.
pub fn from_bytes<T: Pod>(bytes: &[u8]) -> Result<Vec<T>, RunError> {
    let size = std::mem::size_of::<T>();
    if bytes.len().checked_rem(size) != Some(0) {
        return Err(RunError::Output(format!(
            "{} bytes are not a whole number of {}-byte elements",
            bytes.len(),
            size
        )));
    }
    let mut out = vec![T::zeroed(); bytes.len() / size];
    bytemuck::cast_slice_mut::<T, u8>(&mut out).copy_from_slice(bytes);
    Ok(out)
}

/// Why a kernel could not be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// No OpenCL library, platform or device could be found.
    #[error("no OpenCL device found: {0}; run scripts/install-deps to install PoCL")]
    NoDevice(String),
    /// Creating an OpenCL object (context, queue, program, buffer) failed.
    #[error("could not create the OpenCL {what}: {cause}")]
    Setup {
        /// The object that could not be created.
        what: &'static str,
        /// The OpenCL error.
        cause: String,
    },
    /// The program did not build.
    #[error(
        "the OpenCL program did not build ({cause}) with options {options:?}; build log:\n{log}"
    )]
    Build {
        /// The OpenCL error, e.g. `CL_BUILD_PROGRAM_FAILURE`.
        cause: String,
        /// The build options given.
        options: String,
        /// The compiler's full build log.
        log: String,
    },
    /// The program has no kernel of that name.
    #[error("no kernel {name:?} in the program (kernels: {available})")]
    KernelNotFound {
        /// The name asked for.
        name: String,
        /// The kernels the program has, separated by `;`.
        available: String,
    },
    /// An argument does not fit the kernel.
    #[error("kernel argument {index}: {cause}")]
    Arg {
        /// The argument's index (0-based).
        index: usize,
        /// What is wrong with it.
        cause: String,
    },
    /// The launch, or reading the results back, failed.
    #[error("{what} failed: {cause}")]
    Enqueue {
        /// The step that failed.
        what: String,
        /// The OpenCL error.
        cause: String,
    },
    /// An output buffer could not be read back as asked ([`RunOutput::get`], [`from_bytes`]).
    #[error("output: {0}")]
    Output(String),
}

fn cl(e: impl Into<ClError>) -> String {
    let e = e.into();
    format!("{e} ({})", e.0)
}

/// PoCL reports no device at all when it cannot create its kernel cache (by default in
/// `$XDG_CACHE_HOME/pocl` or `$HOME/.cache/pocl`). Where that place is not writable and
/// `POCL_CACHE_DIR` is unset, this points `POCL_CACHE_DIR` to a directory under the
/// system's temporary directory. It runs once, before this process's first OpenCL call.
fn ensure_pocl_cache_dir() {
    if env::var_os("POCL_CACHE_DIR").is_some() {
        return;
    }
    let var = |name| {
        env::var_os(name)
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
    };
    let default = var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|h| h.join(".cache")));
    if default.is_some_and(|d| writable(&d.join("pocl"))) {
        return;
    }
    let shared = env::temp_dir().join("srcsim-pocl-cache");
    let own = env::temp_dir().join(format!("srcsim-pocl-cache-{}", std::process::id()));
    if let Some(dir) = [shared, own].into_iter().find(|d| writable(d)) {
        env::set_var("POCL_CACHE_DIR", dir);
    }
}

/// Whether `dir` exists or can be created, and a file can be created in it.
fn writable(dir: &Path) -> bool {
    let probe = dir.join(format!(".srcsim-probe-{}", std::process::id()));
    let ok = fs::create_dir_all(dir).is_ok() && fs::write(&probe, b"").is_ok();
    let _ = fs::remove_file(&probe);
    ok
}

/// `oclgrind PROGRAM` preloads Oclgrind's runtime (`LD_PRELOAD`), but the OpenCL functions
/// are looked up in the library that `cl3` opens itself, the ICD loader, which leads to
/// PoCL: this makes `cl3` open the preloaded runtime instead.
fn follow_oclgrind() {
    let preload = env::var("LD_PRELOAD").unwrap_or_default();
    let oclgrind = preload
        .split([':', ' '])
        .find(|l| l.ends_with("liboclgrind-rt.so"));
    if let (Some(lib), None) = (oclgrind, env::var_os("OPENCL_DYLIB_PATH")) {
        env::set_var("OPENCL_DYLIB_PATH", lib);
    }
}

/// The device every run uses, picked once per process.
struct Selected {
    device: Device,
    description: String,
    /// Whether runs must not overlap (Oclgrind).
    serial: bool,
}

/// The first platform with a device, and on it the first CPU device, else its first device.
fn select_device() -> Result<Selected, RunError> {
    // No other thread makes OpenCL calls yet: they all wait for the device selection.
    follow_oclgrind();
    ensure_pocl_cache_dir();
    let platforms =
        get_platforms().map_err(|e| RunError::NoDevice(format!("clGetPlatformIDs: {}", cl(e))))?;
    for platform in &platforms {
        // A platform without devices answers CL_DEVICE_NOT_FOUND.
        let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).unwrap_or_default();
        let devices: Vec<Device> = ids.into_iter().map(Device::new).collect();
        let is_cpu = |d: &&Device| d.dev_type().is_ok_and(|t| t & CL_DEVICE_TYPE_CPU != 0);
        if let Some(device) = devices.iter().find(is_cpu).or(devices.first()) {
            let platform_name = platform.name().unwrap_or_default();
            let description = format!("{platform_name} / {}", device.name().unwrap_or_default());
            let serial = platform_name.contains("Oclgrind");
            return Ok(Selected {
                device: *device,
                description,
                serial,
            });
        }
    }
    let n = platforms.len();
    Err(RunError::NoDevice(format!(
        "{n} OpenCL platforms, none with a device"
    )))
}

/// The device selected once per process.
fn selected() -> Result<&'static Selected, RunError> {
    static SELECTED: OnceLock<Result<Selected, RunError>> = OnceLock::new();
    SELECTED
        .get_or_init(select_device)
        .as_ref()
        .map_err(Clone::clone)
}

/// The platform and device kernels run on, e.g. `Portable Computing Language / pthread-...`.
pub fn device_description() -> Result<String, RunError> {
    selected().map(|s| s.description.clone())
}

/// Builds `source` with `build_options`, runs its kernel `kernel` once over `range` with
/// `args`, and returns the contents of its buffer arguments afterwards.
///
/// `-cl-kernel-arg-info` is added to the build options, so that each argument's kind
/// (buffer, scalar, local) is checked against the address space of its parameter.
pub fn run_kernel(
    source: &str,
    build_options: &str,
    kernel: &str,
    args: &[KernelArg],
    range: &NdRange,
) -> Result<RunOutput, RunError> {
    check_range(range)?;
    if kernel.contains('\0') {
        let name = kernel.to_string();
        return Err(RunError::KernelNotFound {
            name,
            available: String::new(),
        });
    }
    let selected = selected()?;
    static SERIAL: Mutex<()> = Mutex::new(());
    let _one_at_a_time = selected
        .serial
        .then(|| SERIAL.lock().unwrap_or_else(PoisonError::into_inner));
    let device = &selected.device;
    let setup = |what| move |e: ClError| RunError::Setup { what, cause: cl(e) };
    let context = Context::from_device(device).map_err(setup("context"))?;
    // clCreateCommandQueue (OpenCL 1.2) rather than ...WithProperties: Oclgrind has only 1.2.
    let queue = CommandQueue::create_default(&context, 0).map_err(setup("command queue"))?;
    let program = build(&context, device.id(), source, build_options)?;
    let kernel_obj = Kernel::create(&program, kernel).map_err(|e| match e.0 {
        CL_INVALID_KERNEL_NAME => RunError::KernelNotFound {
            name: kernel.to_string(),
            available: program.kernel_names().to_string(),
        },
        _ => RunError::Setup {
            what: "kernel",
            cause: cl(e),
        },
    })?;
    let num_args = kernel_obj.num_args().map_err(setup("kernel"))? as usize;
    if args.len() != num_args {
        let cause = format!(
            "the kernel takes {num_args} arguments, {} given",
            args.len()
        );
        return Err(RunError::Arg {
            index: args.len().min(num_args),
            cause,
        });
    }
    // The buffers live until they have been read back.
    let mut buffers = Vec::new();
    for (index, arg) in args.iter().enumerate() {
        set_arg(&context, &kernel_obj, index, arg, &mut buffers)
            .map_err(|cause| RunError::Arg { index, cause })?;
    }

    let failed = |what: String| move |e: ClError| RunError::Enqueue { what, cause: cl(e) };
    let offset = range.offset.as_ref().map_or(ptr::null(), |o| o.as_ptr());
    let local = range.local.as_ref().map_or(ptr::null(), |l| l.as_ptr());
    let (global, dim) = (range.global.as_ptr(), range.work_dim);
    // SAFETY: the size arrays have 3 entries, of which OpenCL reads `work_dim` (checked).
    unsafe { queue.enqueue_nd_range_kernel(kernel_obj.get(), dim, offset, global, local, &[]) }
        .map_err(failed(format!("launching kernel {kernel} over {range:?}")))?;
    queue
        .finish()
        .map_err(failed(format!("running kernel {kernel}")))?;
    let mut outputs = Vec::with_capacity(buffers.len());
    for (i, (buffer, len)) in buffers.iter().enumerate() {
        let mut data = vec![0u8; *len];
        // SAFETY: `data` has exactly the buffer's size, and the read is blocking.
        unsafe { queue.enqueue_read_buffer(buffer, CL_BLOCKING, 0, &mut data, &[]) }
            .map_err(failed(format!("reading back output buffer {i}")))?;
        outputs.push(data);
    }
    Ok(RunOutput { buffers: outputs })
}

/// Creates and builds the program, with the full build log on failure.
fn build(
    ctx: &Context,
    device: cl_device_id,
    source: &str,
    options: &str,
) -> Result<Program, RunError> {
    let error = |cause: String, log: String| RunError::Build {
        cause,
        options: options.into(),
        log,
    };
    // An empty source would be read as a NUL-terminated string; NUL in options panics.
    if source.is_empty() || options.contains('\0') {
        let why = "an empty source or a NUL byte in the options";
        return Err(error(why.into(), String::new()));
    }
    let mut program = Program::create_from_source(ctx, source).map_err(|e| RunError::Setup {
        what: "program",
        cause: cl(e),
    })?;
    // With argument info, set_arg can check each argument's kind (PoCL has none without).
    if let Err(e) = program.build(&[device], &format!("{options} -cl-kernel-arg-info")) {
        let log = program.get_build_log(device);
        return Err(error(
            cl(e),
            log.unwrap_or_else(|l| format!("(no build log: {})", cl(l))),
        ));
    }
    Ok(program)
}

/// Sets argument `index`; a buffer's contents are copied into a new buffer pushed onto
/// `buffers` with its length.
fn set_arg(
    context: &Context,
    kernel: &Kernel,
    index: usize,
    arg: &KernelArg,
    buffers: &mut Vec<(Buffer<u8>, usize)>,
) -> Result<(), String> {
    check_address_space(kernel, index, arg)?;
    let i = index as u32;
    // SAFETY: every pointer given to OpenCL points to `len` readable bytes that live for the
    // whole call (buffer contents are copied at creation, argument values when set).
    let set = unsafe {
        match arg {
            KernelArg::Buffer(bytes) if bytes.is_empty() => {
                return Err("a buffer argument needs at least one byte".into())
            }
            KernelArg::Buffer(bytes) => {
                let flags = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
                let host = bytes.as_ptr() as *mut c_void;
                let buffer =
                    Buffer::<u8>::create(context, flags, bytes.len(), host).map_err(|e| {
                        format!("creating a buffer of {} bytes: {}", bytes.len(), cl(e))
                    })?;
                let mem = buffer.get();
                buffers.push((buffer, bytes.len()));
                kernel.set_arg(i, &mem)
            }
            KernelArg::Scalar(bytes) => set_kernel_arg(
                kernel.get(),
                i,
                bytes.len(),
                bytes.as_ptr() as *const c_void,
            )
            .map_err(ClError::from),
            KernelArg::Local(size) => kernel.set_arg_local_buffer(i, *size),
        }
    };
    set.map_err(|e| format!("clSetKernelArg of a {} argument: {}", kind(arg), cl(e)))
}

fn kind(arg: &KernelArg) -> &'static str {
    match arg {
        KernelArg::Buffer(_) => "buffer",
        KernelArg::Scalar(_) => "scalar",
        KernelArg::Local(_) => "local",
    }
}

fn check_range(range: &NdRange) -> Result<(), RunError> {
    let bad = |cause: String| RunError::Enqueue {
        what: format!("checking {range:?}"),
        cause,
    };
    if !(1..=3).contains(&range.work_dim) {
        return Err(bad(format!(
            "work_dim must be 1, 2 or 3, not {}",
            range.work_dim
        )));
    }
    let dims = range.work_dim as usize;
    for (d, (&g, &l)) in range
        .global
        .iter()
        .zip(&range.local.unwrap_or([1; 3]))
        .enumerate()
    {
        if d < dims && g.checked_rem(l) != Some(0) {
            let why =
                format!("global size {g} of dimension {d} is not a multiple of local size {l}");
            return Err(bad(why));
        }
    }
    Ok(())
}

/// Checks the argument's kind against the parameter's address space, where the
/// implementation tells it (a buffer passed for a scalar would make the kernel crash).
fn check_address_space(kernel: &Kernel, index: usize, arg: &KernelArg) -> Result<(), String> {
    let Ok(space) = kernel.get_arg_address_qualifier(index as u32) else {
        return Ok(());
    };
    let (ok, expected) = match arg {
        KernelArg::Buffer(_) => (
            space == CL_KERNEL_ARG_ADDRESS_GLOBAL || space == CL_KERNEL_ARG_ADDRESS_CONSTANT,
            "a __global or __constant pointer",
        ),
        KernelArg::Scalar(_) => (
            space == CL_KERNEL_ARG_ADDRESS_PRIVATE,
            "a by-value parameter",
        ),
        KernelArg::Local(_) => (space == CL_KERNEL_ARG_ADDRESS_LOCAL, "a __local pointer"),
    };
    if ok {
        return Ok(());
    }
    let name = kernel.get_arg_name(index as u32).unwrap_or_default();
    Err(format!(
        "a {} argument needs {expected}, but parameter {name:?} is not one",
        kind(arg)
    ))
}

/// How to run the annotated twin of a kernel in one grain: the kernel, the build options
/// it needs beside the program's own, and the arguments it takes after the kernel's.
#[derive(Debug, Clone)]
pub struct TwinRun {
    /// The kernel to run: the kernel itself, or its copy that reduces to warps.
    pub kernel: String,
    /// Build options to add: none, or the macro that builds the copies.
    pub options: String,
    /// Its records (zeroed), and for the copy the lanes of a work-group, the warp size and
    /// (a kernel with sampled accesses) the kept lanes' counter before the launch.
    pub args: Vec<KernelArg>,
}

/// How to run the annotated twin of `kernel` in `grain`: per work-item, `kernel` itself
/// and its records; in warps, its copy that reduces them
/// ([`annotator::back::sidecar::AnnotatedKernel::warp_kernel`], built with
/// [`annotator::back::codegen::WARPS_DEFINE`]), its records, the lanes of a work-group and the
/// warp size. A launch in warps must give its work-group size, with whole groups.
pub fn record_args(
    sidecar: &annotator::back::sidecar::Sidecar,
    kernel: &str,
    range: &NdRange,
    grain: pipeline_model::Grain,
) -> TwinRun {
    use pipeline_model::Grain;
    let format = sidecar.records.format;
    let geometry = range.geometry();
    match grain {
        Grain::WorkItem => TwinRun {
            kernel: kernel.to_string(),
            options: String::new(),
            args: vec![KernelArg::zeroed::<u64>(
                geometry.work_items() as usize * format.work_item_stride(),
            )],
        },
        Grain::Warp { warp_size, .. } => {
            let copy = sidecar
                .kernels
                .iter()
                .find(|k| k.name == kernel)
                .and_then(|k| k.warp_kernel())
                .unwrap_or_else(|| panic!("`{kernel}` has no copy that reduces to warps"));
            assert!(
                range.local.is_some(),
                "a launch in warps gives its work-group size"
            );
            let records = grain.words(&format, &geometry) as usize;
            let sampled = matches!(grain, Grain::Warp { sampled: true, .. });
            let mut args = vec![
                KernelArg::zeroed::<u64>(records),
                KernelArg::local::<u64>(
                    geometry.work_group_size() as usize * format.lane_values(sampled),
                ),
                KernelArg::scalar(warp_size),
            ];
            // The kept lanes' counter before the launch: the zeroed records' 0.
            if sampled {
                args.push(KernelArg::scalar(0u32));
            }
            TwinRun {
                kernel: copy,
                options: format!("-D{}", annotator::back::codegen::WARPS_DEFINE),
                args,
            }
        }
    }
}
