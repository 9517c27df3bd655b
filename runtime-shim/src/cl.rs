//! The real OpenCL API, reached past this library: the next definition of each function
//! in the process (`dlsym(RTLD_NEXT)`: the ICD loader the host linked), or, for hosts that
//! did not link one, `libOpenCL.so.1` opened here. Typed handles and safe wrappers for the
//! calls the shim makes on its own behalf; the interposers forward the application's raw
//! arguments through [`api`].

use std::ffi::{c_void, CStr, CString};
use std::ptr;
use std::sync::OnceLock;

use crate::ffi::*;
pub use crate::ndrange::NdRange;

/// The OpenCL error code of a failed call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClError(pub cl_int);

impl std::fmt::Display for ClError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OpenCL error {}", self.0)
    }
}

fn check(code: cl_int) -> Result<(), ClError> {
    if code == CL_SUCCESS {
        Ok(())
    } else {
        Err(ClError(code))
    }
}

/// The real OpenCL functions, each reached through an associated function of this name:
/// `Real::clFlush()` is the real `clFlush`, or `None` where no library defines one.
/// The functions are declared with [`real_api!`]: here those the shim only calls, and in
/// `interpose` (by its `interposed!`) those it also interposes, each with its handler.
pub struct Real;

/// Declares real OpenCL functions as associated functions of [`Real`], each with its slot
/// in the ICD dispatch table (its field's position in `struct _cl_icd_dispatch`,
/// CL/cl_icd.h), through which it is reached when this library serves as a layer. Each
/// is resolved on its first call. `$list` names the constant listing them.
macro_rules! real_api {
    ($list:ident; $($slot:literal => $name:ident($($arg:ty),*) -> $ret:ty;)*) => {
        #[allow(non_snake_case)]
        impl $crate::cl::Real {
            /// These functions' names and dispatch slots.
            pub const $list: &'static [(&'static str, usize)] = &[$((stringify!($name), $slot)),*];

            $(
                #[doc = concat!("The real `", stringify!($name), "`.")]
                pub fn $name() -> Option<unsafe extern "C" fn($($arg),*) -> $ret> {
                    static ADDRESS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
                    let p = *ADDRESS.get_or_init(|| {
                        $crate::cl::lookup(concat!(stringify!($name), "\0"), $slot) as usize
                    });
                    // SAFETY: `p` is the address of the C function of this name in an
                    // OpenCL library (or the next layer's entry for it), whose signature
                    // is the one CL/cl.h gives it.
                    (p != 0).then(|| unsafe {
                        std::mem::transmute::<usize, unsafe extern "C" fn($($arg),*) -> $ret>(p)
                    })
                }
            )*
        }
    };
}
pub(crate) use real_api;

/// Every real function the shim reaches, with its dispatch slot: those it only calls and
/// those it interposes.
pub fn dispatch_slots() -> impl Iterator<Item = (&'static str, usize)> {
    Real::CALLED
        .iter()
        .chain(Real::INTERPOSED)
        .chain(Real::INTERPOSED_COMMANDS)
        .copied()
}

// The functions the shim calls but does not interpose.
real_api! {
    CALLED;
    0 => clGetPlatformIDs(cl_uint, *mut cl_platform_id, *mut cl_uint) -> cl_int;
    8 => clGetContextInfo(cl_context, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
    12 => clGetCommandQueueInfo(cl_command_queue, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
    33 => clGetProgramBuildInfo(cl_program, cl_device_id, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
    39 => clGetKernelInfo(cl_kernel, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
    14 => clCreateBuffer(cl_context, cl_mem_flags, usize, *mut c_void, *mut cl_int) -> cl_mem;
    18 => clReleaseMemObject(cl_mem) -> cl_int;
    20 => clGetMemObjectInfo(cl_mem, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
    42 => clGetEventInfo(cl_event, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
    43 => clRetainEvent(cl_event) -> cl_int;
    44 => clReleaseEvent(cl_event) -> cl_int;
    46 => clFlush(cl_command_queue) -> cl_int;
    9 => clCreateCommandQueue(cl_context, cl_device_id, cl_bitfield, *mut cl_int) -> cl_command_queue;
    11 => clReleaseCommandQueue(cl_command_queue) -> cl_int;
    82 => clCreateSubBuffer(cl_mem, cl_mem_flags, cl_uint, *const c_void, *mut cl_int) -> cl_mem;
}

/// The next layer's (or the loader's) dispatch table, once we are a layer.
struct Target {
    entries: &'static [*mut c_void],
}

// SAFETY: the table is immutable once the loader hands it over, and holds function
// addresses.
unsafe impl Send for Target {}
// SAFETY: as above.
unsafe impl Sync for Target {}

static TARGET: OnceLock<Target> = OnceLock::new();

/// The next layer's entry in dispatch `slot` when running as a layer (null where the
/// table lacks it), `None` when not a layer.
fn target_entry(slot: usize) -> Option<*mut c_void> {
    let target = TARGET.get()?;
    Some(
        target
            .entries
            .get(slot)
            .copied()
            .unwrap_or(std::ptr::null_mut()),
    )
}

/// Makes the real API the next layer's (or the loader's) dispatch `entries`, when
/// `libsrcsim.so` serves as a layer (`layer`); false if it already was.
pub fn dispatch_to(entries: &'static [*mut c_void]) -> bool {
    TARGET.set(Target { entries }).is_ok()
}

/// The real function `name` (NUL-terminated) of dispatch `slot`: the next layer's, the
/// next definition in the process, or the system ICD loader's; null where none is.
pub(crate) fn lookup(name: &str, slot: usize) -> *mut c_void {
    if let Some(entry) = target_entry(slot) {
        return entry;
    }
    let name = CStr::from_bytes_with_nul(name.as_bytes()).expect("names end in NUL");
    // SAFETY: dlsym with RTLD_NEXT and a NUL-terminated name only reads the name.
    let next = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) };
    if !next.is_null() {
        return next;
    }
    static LOADER: OnceLock<usize> = OnceLock::new();
    let handle = *LOADER.get_or_init(|| {
        // SAFETY: opening the system's ICD loader by its soname; it has no initialisers
        // that call back into this library.
        let h = unsafe {
            libc::dlopen(
                c"libOpenCL.so.1".as_ptr(),
                libc::RTLD_NOW | libc::RTLD_GLOBAL,
            )
        };
        h as usize
    });
    if handle == 0 {
        return ptr::null_mut();
    }
    // SAFETY: `handle` came from a successful dlopen and is never closed.
    unsafe { libc::dlsym(handle as *mut c_void, name.as_ptr()) }
}

/// Calls the real `$name` with `$args`, or yields `CL_INVALID_OPERATION` (or the null
/// handle for functions returning one, with the error stored) where there is none.
#[macro_export]
macro_rules! real {
    ($name:ident($($arg:expr),* $(,)?)) => {
        match $crate::cl::Real::$name() {
            // SAFETY: the arguments are forwarded as the caller gave them, or are handles
            // and buffers this library owns, sized as the function expects.
            Some(f) => unsafe { f($($arg),*) },
            None => $crate::cl::Missing::missing(stringify!($name)),
        }
    };
}

/// What a call to a function no library defines returns.
pub trait Missing {
    /// The failure value.
    fn missing(name: &str) -> Self;
}

impl Missing for cl_int {
    fn missing(_: &str) -> Self {
        CL_INVALID_OPERATION
    }
}

impl Missing for *mut c_void {
    fn missing(_: &str) -> Self {
        ptr::null_mut()
    }
}

macro_rules! handles {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name(pub *mut c_void);
        // SAFETY: OpenCL objects may be used from any thread (OpenCL 1.2 section A.2); the
        // one exception, setting a kernel's arguments, is serialised by the shim.
        unsafe impl Send for $name {}
        // SAFETY: as above.
        unsafe impl Sync for $name {}
    )*};
}

handles! {
    /// A `cl_platform_id`.
    Platform;
    /// A `cl_device_id`.
    Device;
    /// A `cl_context`.
    Context;
    /// A `cl_command_queue`.
    Queue;
    /// A `cl_program`.
    Program;
    /// A `cl_kernel`.
    Kernel;
    /// A `cl_mem`.
    Mem;
    /// A `cl_event`.
    Event;
}

/// Reads an info value of `size` bytes into a vector of `T` through `get`.
fn info_vec<T: Copy + Default>(
    get: impl Fn(usize, *mut c_void, *mut usize) -> cl_int,
) -> Result<Vec<T>, ClError> {
    let mut bytes = 0usize;
    check(get(0, ptr::null_mut(), &mut bytes))?;
    let mut v = vec![T::default(); bytes.div_ceil(std::mem::size_of::<T>())];
    check(get(bytes, v.as_mut_ptr().cast(), ptr::null_mut()))?;
    Ok(v)
}

/// Reads an info value of type `T` (its size in bytes) through `get`, into `init`.
fn info_value<T: Copy>(
    mut init: T,
    get: impl Fn(usize, *mut c_void, *mut usize) -> cl_int,
) -> Result<T, ClError> {
    check(get(
        std::mem::size_of::<T>(),
        (&mut init as *mut T).cast(),
        ptr::null_mut(),
    ))?;
    Ok(init)
}

fn info_string(get: impl Fn(usize, *mut c_void, *mut usize) -> cl_int) -> Result<String, ClError> {
    let bytes: Vec<u8> = info_vec(get)?;
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    Ok(String::from_utf8_lossy(&bytes[..end]).into_owned())
}

fn handles_of(v: Vec<*mut c_void>) -> impl Iterator<Item = *mut c_void> {
    v.into_iter().filter(|p| !p.is_null())
}

impl Device {
    /// `CL_DEVICE_NAME`.
    pub fn name(self) -> String {
        info_string(|n, v, r| real!(clGetDeviceInfo(self.0, CL_DEVICE_NAME, n, v, r)))
            .unwrap_or_else(|e| format!("({e})"))
    }

    /// What identifies the code a program binary holds for this device: its name, vendor,
    /// device and driver versions (a new driver may compile differently).
    pub fn identity(self) -> String {
        [
            CL_DEVICE_NAME,
            CL_DEVICE_VENDOR,
            CL_DEVICE_VERSION,
            CL_DRIVER_VERSION,
        ]
        .map(|param| {
            info_string(|n, v, r| real!(clGetDeviceInfo(self.0, param, n, v, r)))
                .unwrap_or_default()
        })
        .join("\u{1}")
    }

    /// `CL_DEVICE_MEM_BASE_ADDR_ALIGN` in bytes: where a sub-buffer may start.
    pub fn base_addr_align(self) -> Result<usize, ClError> {
        let bits: cl_uint = info_value(0, |n, v, r| {
            real!(clGetDeviceInfo(
                self.0,
                CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                n,
                v,
                r
            ))
        })?;
        Ok((bits as usize / 8).max(1))
    }

    /// `CL_DEVICE_LOCAL_MEM_SIZE` of the real device, in bytes.
    pub fn local_mem_bytes(self) -> Result<u64, ClError> {
        info_value::<cl_ulong>(0, |n, v, r| {
            real!(clGetDeviceInfo(self.0, CL_DEVICE_LOCAL_MEM_SIZE, n, v, r))
        })
    }

    /// `CL_DEVICE_MAX_WORK_ITEM_SIZES` of the real device (its first three).
    pub fn max_work_item_sizes(self) -> Result<[usize; 3], ClError> {
        let v: Vec<usize> = info_vec(|n, v, r| {
            real!(clGetDeviceInfo(
                self.0,
                CL_DEVICE_MAX_WORK_ITEM_SIZES,
                n,
                v,
                r
            ))
        })?;
        Ok([0, 1, 2].map(|d| v.get(d).copied().unwrap_or(1)))
    }

    /// The devices of `platform` of `kind`.
    pub fn of_type(platform: Platform, kind: cl_device_type) -> Result<Vec<Device>, ClError> {
        let mut n = 0;
        check(real!(clGetDeviceIDs(
            platform.0,
            kind,
            0,
            ptr::null_mut(),
            &mut n
        )))?;
        let mut v = vec![ptr::null_mut(); n as usize];
        check(real!(clGetDeviceIDs(
            platform.0,
            kind,
            n,
            v.as_mut_ptr(),
            ptr::null_mut()
        )))?;
        Ok(handles_of(v).map(Device).collect())
    }
}

impl Context {
    /// `CL_CONTEXT_DEVICES`.
    pub fn devices(self) -> Result<Vec<Device>, ClError> {
        let v = info_vec(|n, v, r| real!(clGetContextInfo(self.0, CL_CONTEXT_DEVICES, n, v, r)))?;
        Ok(handles_of(v).map(Device).collect())
    }

    /// A device buffer the host reads back, in `host`'s memory (`CL_MEM_USE_HOST_PTR`).
    ///
    /// `host` must stay allocated, and untouched but by reads of the buffer
    /// ([`Queue::read_after`] into `host` itself), for as long as the buffer lives.
    pub fn records_buffer(self, host: &mut [u64]) -> Result<Mem, ClError> {
        let mut err = CL_SUCCESS;
        let flags = CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY | CL_MEM_USE_HOST_PTR;
        let m = real!(clCreateBuffer(
            self.0,
            flags,
            std::mem::size_of_val(host),
            host.as_mut_ptr().cast(),
            &mut err
        ));
        check(err)?;
        Ok(Mem(m))
    }

    /// A new in-order command queue on `device`, for this library's own commands.
    pub fn create_queue(self, device: Device) -> Result<Queue, ClError> {
        let mut err = CL_SUCCESS;
        let q = real!(clCreateCommandQueue(self.0, device.0, 0, &mut err));
        check(err)?;
        Ok(Queue(q))
    }

    /// Creates and builds a program from `source` for `devices` with `options`; a failed
    /// build gives the build log of the first device.
    pub fn build_program(
        self,
        source: &str,
        devices: &[Device],
        options: &str,
    ) -> Result<Program, String> {
        let text = CString::new(source).map_err(|_| "the source holds a NUL byte".to_string())?;
        let strings = [text.as_ptr()];
        let mut err = CL_SUCCESS;
        let p = real!(clCreateProgramWithSource(
            self.0,
            1,
            strings.as_ptr(),
            ptr::null(),
            &mut err
        ));
        if err != CL_SUCCESS {
            return Err(format!("clCreateProgramWithSource: {}", ClError(err)));
        }
        Program(p).build(devices, options)
    }

    /// Creates and builds a program from one binary per device (as
    /// [`Program::binaries`] gave them) with `options`.
    pub fn build_program_from_binaries(
        self,
        devices: &[Device],
        binaries: &[Vec<u8>],
        options: &str,
    ) -> Result<Program, String> {
        if devices.len() != binaries.len() {
            return Err("one binary per device is needed".to_string());
        }
        let ids: Vec<cl_device_id> = devices.iter().map(|d| d.0).collect();
        let lengths: Vec<usize> = binaries.iter().map(Vec::len).collect();
        let pointers: Vec<*const u8> = binaries.iter().map(|b| b.as_ptr()).collect();
        let mut status = vec![CL_SUCCESS; devices.len()];
        let mut err = CL_SUCCESS;
        let p = real!(clCreateProgramWithBinary(
            self.0,
            ids.len() as cl_uint,
            ids.as_ptr(),
            lengths.as_ptr(),
            pointers.as_ptr(),
            status.as_mut_ptr(),
            &mut err
        ));
        if err != CL_SUCCESS {
            return Err(format!("clCreateProgramWithBinary: {}", ClError(err)));
        }
        Program(p).build(devices, options)
    }
}

impl Queue {
    /// `CL_QUEUE_CONTEXT`.
    pub fn context(self) -> Result<Context, ClError> {
        info_value(ptr::null_mut(), |n, v, r| {
            real!(clGetCommandQueueInfo(self.0, CL_QUEUE_CONTEXT, n, v, r))
        })
        .map(Context)
    }

    /// `CL_QUEUE_DEVICE`.
    pub fn device(self) -> Result<Device, ClError> {
        info_value(ptr::null_mut(), |n, v, r| {
            real!(clGetCommandQueueInfo(self.0, CL_QUEUE_DEVICE, n, v, r))
        })
        .map(Device)
    }

    /// Whether the queue runs its commands in order (`CL_QUEUE_PROPERTIES` without
    /// out-of-order execution); `false` when it cannot be read.
    pub fn in_order(self) -> bool {
        info_value::<cl_bitfield>(0, |n, v, r| {
            real!(clGetCommandQueueInfo(self.0, CL_QUEUE_PROPERTIES, n, v, r))
        })
        .is_ok_and(|props| props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE == 0)
    }

    /// Enqueues a non-blocking read of the start of `mem` into `dst` after all of
    /// `after` (events of any queue of the context), and flushes.
    ///
    /// `dst` must stay allocated, and untouched, until the returned event completes.
    pub fn read_after(self, mem: Mem, dst: &mut [u64], after: &[Event]) -> Result<Event, ClError> {
        let mut ev: cl_event = ptr::null_mut();
        let wait: Vec<cl_event> = after.iter().map(|e| e.0).collect();
        check(real!(clEnqueueReadBuffer(
            self.0,
            mem.0,
            CL_FALSE,
            0,
            std::mem::size_of_val(dst),
            dst.as_mut_ptr().cast(),
            wait.len() as cl_uint,
            if wait.is_empty() {
                ptr::null()
            } else {
                wait.as_ptr()
            },
            &mut ev
        )))?;
        self.flush();
        Ok(Event(ev))
    }

    /// `clFlush`: submits what is queued (commands of another queue may then wait on it).
    pub fn flush(self) {
        real!(clFlush(self.0));
    }

    /// Drops this library's reference.
    pub fn release(self) {
        real!(clReleaseCommandQueue(self.0));
    }
}

impl Program {
    /// `CL_PROGRAM_CONTEXT`.
    pub fn context(self) -> Result<Context, ClError> {
        info_value(ptr::null_mut(), |n, v, r| {
            real!(clGetProgramInfo(self.0, CL_PROGRAM_CONTEXT, n, v, r))
        })
        .map(Context)
    }

    /// `CL_PROGRAM_DEVICES`.
    pub fn devices(self) -> Result<Vec<Device>, ClError> {
        let v = info_vec(|n, v, r| real!(clGetProgramInfo(self.0, CL_PROGRAM_DEVICES, n, v, r)))?;
        Ok(handles_of(v).map(Device).collect())
    }

    /// `CL_PROGRAM_REFERENCE_COUNT` (0 when it cannot be read).
    pub fn reference_count(self) -> cl_uint {
        let v: Vec<cl_uint> = info_vec(|n, v, r| {
            real!(clGetProgramInfo(
                self.0,
                CL_PROGRAM_REFERENCE_COUNT,
                n,
                v,
                r
            ))
        })
        .unwrap_or_default();
        v.first().copied().unwrap_or(0)
    }

    /// Builds this program for `devices`; a failed build releases it and gives the build
    /// log of the first device.
    fn build(self, devices: &[Device], options: &str) -> Result<Program, String> {
        let opts = CString::new(options).unwrap_or_default();
        let ids: Vec<cl_device_id> = devices.iter().map(|d| d.0).collect();
        let code = real!(clBuildProgram(
            self.0,
            ids.len() as cl_uint,
            ids.as_ptr(),
            opts.as_ptr(),
            None,
            ptr::null_mut()
        ));
        if code != CL_SUCCESS {
            let log = devices
                .first()
                .map(|d| self.build_log(*d))
                .unwrap_or_default();
            self.release();
            return Err(format!("clBuildProgram: {}\n{log}", ClError(code)));
        }
        Ok(self)
    }

    /// The size of each of its devices' binaries (`CL_PROGRAM_BINARY_SIZES`).
    pub fn binary_sizes(self) -> Result<Vec<usize>, ClError> {
        info_vec(|n, v, r| real!(clGetProgramInfo(self.0, CL_PROGRAM_BINARY_SIZES, n, v, r)))
    }

    /// The binary of a built program for each of its devices, in the order of
    /// [`Program::devices`] (`CL_PROGRAM_BINARIES`).
    pub fn binaries(self) -> Result<Vec<Vec<u8>>, ClError> {
        let sizes = self.binary_sizes()?;
        let mut binaries: Vec<Vec<u8>> = sizes.iter().map(|&n| vec![0u8; n]).collect();
        let mut pointers: Vec<*mut u8> = binaries.iter_mut().map(|b| b.as_mut_ptr()).collect();
        check(real!(clGetProgramInfo(
            self.0,
            CL_PROGRAM_BINARIES,
            std::mem::size_of_val(pointers.as_slice()),
            pointers.as_mut_ptr().cast(),
            ptr::null_mut()
        )))?;
        Ok(binaries)
    }

    /// The build log for `device`.
    pub fn build_log(self, device: Device) -> String {
        info_string(|n, v, r| {
            real!(clGetProgramBuildInfo(
                self.0,
                device.0,
                CL_PROGRAM_BUILD_LOG,
                n,
                v,
                r
            ))
        })
        .unwrap_or_default()
    }

    /// A kernel of this program.
    pub fn kernel(self, name: &str) -> Result<Kernel, ClError> {
        let name = CString::new(name).map_err(|_| ClError(CL_INVALID_VALUE))?;
        let mut err = CL_SUCCESS;
        let k = real!(clCreateKernel(self.0, name.as_ptr(), &mut err));
        check(err)?;
        Ok(Kernel(k))
    }

    /// Drops this library's reference.
    pub fn release(self) {
        real!(clReleaseProgram(self.0));
    }
}

impl Kernel {
    /// `CL_KERNEL_FUNCTION_NAME`.
    pub fn name(self) -> Result<String, ClError> {
        info_string(|n, v, r| real!(clGetKernelInfo(self.0, CL_KERNEL_FUNCTION_NAME, n, v, r)))
    }

    /// `CL_KERNEL_REFERENCE_COUNT` (0 when it cannot be read).
    pub fn reference_count(self) -> cl_uint {
        let v: Vec<cl_uint> =
            info_vec(|n, v, r| real!(clGetKernelInfo(self.0, CL_KERNEL_REFERENCE_COUNT, n, v, r)))
                .unwrap_or_default();
        v.first().copied().unwrap_or(0)
    }

    /// `CL_KERNEL_WORK_GROUP_SIZE` on `device` as the real runtime answers it: the
    /// largest work-group it runs the kernel in.
    pub fn work_group_size(self, device: Device) -> Result<usize, ClError> {
        let v: Vec<usize> = info_vec(|n, v, r| {
            real!(clGetKernelWorkGroupInfo(
                self.0,
                device.0,
                CL_KERNEL_WORK_GROUP_SIZE,
                n,
                v,
                r
            ))
        })?;
        v.first().copied().ok_or(ClError(CL_INVALID_VALUE))
    }

    /// Sets argument `index` to the buffer `mem`.
    pub fn set_buffer_arg(self, index: cl_uint, mem: Mem) -> Result<(), ClError> {
        check(real!(clSetKernelArg(
            self.0,
            index,
            std::mem::size_of::<cl_mem>(),
            (&mem.0 as *const cl_mem).cast()
        )))
    }

    /// Sets argument `index`, a `__local` pointer, to `bytes` of local memory.
    pub fn set_local_arg(self, index: cl_uint, bytes: usize) -> Result<(), ClError> {
        check(real!(clSetKernelArg(self.0, index, bytes, ptr::null())))
    }

    /// Sets argument `index` to the value of `bytes`.
    pub fn set_arg_bytes(self, index: cl_uint, bytes: &[u8]) -> Result<(), ClError> {
        check(real!(clSetKernelArg(
            self.0,
            index,
            bytes.len(),
            bytes.as_ptr().cast()
        )))
    }

    /// Sets argument `index` to the SVM pointer `p`.
    pub fn set_svm_arg(self, index: cl_uint, p: usize) -> Result<(), ClError> {
        check(real!(clSetKernelArgSVMPointer(
            self.0,
            index,
            p as *const c_void
        )))
    }

    /// Sets the exec info `param` to `value`.
    pub fn set_exec_info(self, param: cl_uint, value: &[u8]) -> Result<(), ClError> {
        check(real!(clSetKernelExecInfo(
            self.0,
            param,
            value.len(),
            value.as_ptr().cast()
        )))
    }

    /// Sets argument `index`, a `uint`, to `value`.
    pub fn set_uint_arg(self, index: cl_uint, value: cl_uint) -> Result<(), ClError> {
        self.set_arg_bytes(index, &value.to_ne_bytes())
    }

    /// Drops this library's reference.
    pub fn release(self) {
        real!(clReleaseKernel(self.0));
    }
}

impl Mem {
    /// Drops this library's reference (the runtime keeps it until queued commands end).
    pub fn release(self) {
        real!(clReleaseMemObject(self.0));
    }

    /// A sub-buffer of `bytes` at `origin` (aligned to the devices' base address
    /// alignment), with this buffer's flags.
    pub fn sub_buffer(self, origin: usize, bytes: usize) -> Result<Mem, ClError> {
        let region = [origin, bytes];
        let mut err = CL_SUCCESS;
        let m = real!(clCreateSubBuffer(
            self.0,
            0,
            CL_BUFFER_CREATE_TYPE_REGION,
            region.as_ptr().cast(),
            &mut err
        ));
        check(err)?;
        Ok(Mem(m))
    }

    /// `CL_MEM_SIZE`: the bytes of the buffer.
    pub fn size(self) -> Result<u64, ClError> {
        let size: usize = info_value(0, |n, v, r| {
            real!(clGetMemObjectInfo(self.0, CL_MEM_SIZE, n, v, r))
        })?;
        Ok(size as u64)
    }
}

impl Event {
    /// Waits for the event.
    pub fn wait(self) -> Result<(), ClError> {
        check(real!(clWaitForEvents(1, &self.0)))
    }

    /// Adds a reference.
    pub fn retain(self) {
        real!(clRetainEvent(self.0));
    }

    /// `CL_EVENT_COMMAND_QUEUE`: the queue of the command the event is of (`None` for a
    /// user event).
    pub fn queue(self) -> Result<Option<Queue>, ClError> {
        let q: cl_command_queue = info_value(ptr::null_mut(), |n, v, r| {
            real!(clGetEventInfo(self.0, CL_EVENT_COMMAND_QUEUE, n, v, r))
        })?;
        Ok((!q.is_null()).then_some(Queue(q)))
    }

    /// Drops a reference.
    pub fn release(self) {
        real!(clReleaseEvent(self.0));
    }
}

impl Queue {
    /// Enqueues `kernel` over `range` after `wait`, returning its event.
    pub fn enqueue_kernel(
        self,
        kernel: Kernel,
        range: &NdRange,
        wait: &[Event],
    ) -> Result<Event, ClError> {
        let dim = range.work_dim as usize;
        let wait: Vec<cl_event> = wait.iter().map(|e| e.0).collect();
        let mut ev: cl_event = ptr::null_mut();
        check(real!(clEnqueueNDRangeKernel(
            self.0,
            kernel.0,
            range.work_dim,
            range.offset[..dim].as_ptr(),
            range.global[..dim].as_ptr(),
            range
                .local
                .as_ref()
                .map_or(ptr::null(), |l| l[..dim].as_ptr()),
            wait.len() as cl_uint,
            if wait.is_empty() {
                ptr::null()
            } else {
                wait.as_ptr()
            },
            &mut ev
        )))?;
        Ok(Event(ev))
    }
}
