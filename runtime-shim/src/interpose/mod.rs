//! The OpenCL entry points `libsrcsim.so` defines in place of the ICD loader's. Each one
//! calls the real function with the application's arguments, exactly as given, and tells
//! the shim what happened; the shim's own work runs behind `catch_unwind`, so that no bug
//! of srcsim's can change what the application sees. Functions not listed here are not
//! interposed at all.

use std::ffi::{c_char, c_void};
use std::sync::Once;

use crate::cl::{Device, Kernel, Mem, Platform, Program};
use crate::ffi::*;
use crate::ffi::{binary_digests, c_text, guarded, handles, raw_bytes, source_text};
use crate::gpu_answers::answer_as_simulated_gpu;
use crate::program_binaries::program_info_read;
use crate::real;
use crate::shadow::{ArgValue, MirroredSetting, ProgramOrigin, SetArgRef};
use crate::shim::shim;

/// Registers the report at exit, once, after the first real OpenCL call: handlers run in
/// reverse order, so ours runs before any the OpenCL runtime registered while starting.
fn exit_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        extern "C" fn at_exit() {
            guarded("the report", || shim().finish());
        }
        // SAFETY: registering a plain `extern "C"` function that takes no arguments.
        unsafe { libc::atexit(at_exit) };
    });
}

fn created(program: cl_program, origin: impl FnOnce() -> ProgramOrigin) {
    exit_hook();
    if !program.is_null() {
        guarded("program creation", || {
            shim().program_created(Program(program), origin())
        });
    }
}

/// Declares each interposed OpenCL function once: its dispatch slot, its signature and
/// its handler. Makes the exported function, its entry for the layer's dispatch table
/// ([`entry_points`]), and the real function it forwards to ([`crate::cl::Real`]).
macro_rules! interposed {
    ($list:ident; $(
        $(#[$doc:meta])*
        $slot:literal => fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block
    )*) => {
        $(
            $(#[$doc])*
            #[no_mangle]
            pub unsafe extern "C" fn $name($($arg: $ty),*) -> $ret $body
        )*

        /// This module's interposed entry points with their dispatch slots.
        pub(crate) fn slots() -> Vec<(usize, *mut std::ffi::c_void)> {
            vec![$(($slot, $name as *mut std::ffi::c_void)),*]
        }

        crate::cl::real_api! {
            $list;
            $($slot => $name($($ty),*) -> $ret;)*
        }
    };
}

// The commands of a queue: launches, and the fills and waits around them.
mod enqueue;

/// The interposed entry points with their dispatch slots, for the layer's table.
pub fn entry_points() -> Vec<(usize, *mut c_void)> {
    let mut all = slots();
    all.extend(enqueue::slots());
    all
}

interposed! {
    INTERPOSED;

    /// # Safety
    /// As `clGetDeviceIDs` in the OpenCL 1.2 specification.
    2 => fn clGetDeviceIDs(
        platform: cl_platform_id,
        device_type: cl_device_type,
        num_entries: cl_uint,
        devices: *mut cl_device_id,
        num_devices: *mut cl_uint,
    ) -> cl_int {
        let code = real!(clGetDeviceIDs(
            platform,
            device_type,
            num_entries,
            devices,
            num_devices
        ));
        exit_hook();
        if code == CL_SUCCESS {
            guarded("clGetDeviceIDs", || {
                shim().handed_out(device_type, || Device::of_type(Platform(platform), device_type))
            });
        }
        if code != CL_DEVICE_NOT_FOUND {
            return code;
        }
        let Some(instead) = guarded("clGetDeviceIDs", || shim().substitute_type(device_type)).flatten()
        else {
            return code;
        };
        let code = real!(clGetDeviceIDs(
            platform,
            instead,
            num_entries,
            devices,
            num_devices
        ));
        if code == CL_SUCCESS {
            guarded("clGetDeviceIDs", || {
                if let Ok(all) = Device::of_type(Platform(platform), instead) {
                    shim().substituted(&all);
                }
            });
        }
        code
    }

    /// # Safety
    /// As `clGetDeviceInfo` in the OpenCL 1.2 specification.
    3 => fn clGetDeviceInfo(
        device: cl_device_id,
        param_name: cl_uint,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let code = real!(clGetDeviceInfo(
            device,
            param_name,
            param_value_size,
            param_value,
            param_value_size_ret
        ));
        if code != CL_SUCCESS || param_value.is_null() {
            return code;
        }
        if param_name == CL_DEVICE_TYPE
            && param_value_size >= std::mem::size_of::<cl_device_type>()
            && guarded("clGetDeviceInfo", || shim().is_substitute(Device(device))) == Some(true)
        {
            // SAFETY: the caller gave room for a cl_device_type at `param_value` (checked).
            unsafe {
                param_value
                    .cast::<cl_device_type>()
                    .write_unaligned(CL_DEVICE_TYPE_GPU)
            };
            return code;
        }
        if !matches!(
            param_name,
            CL_DEVICE_MAX_COMPUTE_UNITS
                | CL_DEVICE_MAX_WORK_GROUP_SIZE
                | CL_DEVICE_MAX_WORK_ITEM_SIZES
                | CL_DEVICE_LOCAL_MEM_SIZE
        ) {
            return code;
        }
        let Some(Some(limits)) = guarded("clGetDeviceInfo", || {
            shim().simulated_limits(Some(Device(device)))
        }) else {
            return code;
        };
        // The bytes the runtime wrote: what it said it wrote, within what the caller gave.
        let written = if param_value_size_ret.is_null() {
            param_value_size
        } else {
            // SAFETY: the runtime has just written the size there (the call succeeded).
            unsafe { param_value_size_ret.read() }.min(param_value_size)
        };
        // SAFETY: `param_value` holds `written` bytes the runtime has just written, of the
        // query's type (cl_uint, size_t, size_t[] or cl_ulong), which the patches respect.
        unsafe { answer_as_simulated_gpu(param_name, param_value, written, &limits) };
        code
    }

    /// # Safety
    /// As `clGetKernelWorkGroupInfo` in the OpenCL 1.2 specification.
    40 => fn clGetKernelWorkGroupInfo(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_uint,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let code = real!(clGetKernelWorkGroupInfo(
            kernel,
            device,
            param_name,
            param_value_size,
            param_value,
            param_value_size_ret
        ));
        if code != CL_SUCCESS
            || param_value.is_null()
            || param_value_size < std::mem::size_of::<usize>()
            || !matches!(
                param_name,
                CL_KERNEL_WORK_GROUP_SIZE | CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
            )
        {
            return code;
        }
        let device = (!device.is_null()).then_some(Device(device));
        if let Some(Some(limits)) = guarded("clGetKernelWorkGroupInfo", || {
            shim().simulated_limits(device)
        }) {
            let p = param_value.cast::<usize>();
            // SAFETY: room for a size_t (checked), which the runtime has just written.
            unsafe {
                if param_name == CL_KERNEL_WORK_GROUP_SIZE {
                    p.write_unaligned(p.read_unaligned().min(limits.max_work_group_size));
                } else {
                    p.write_unaligned(limits.preferred_multiple);
                }
            }
        }
        code
    }

    /// # Safety
    /// As `clCreateContextFromType` in the OpenCL 1.2 specification.
    5 => fn clCreateContextFromType(
        properties: *const cl_context_properties,
        device_type: cl_device_type,
        pfn_notify: ContextNotify,
        user_data: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_context {
        let mut err = CL_SUCCESS;
        let mut ctx = real!(clCreateContextFromType(
            properties,
            device_type,
            pfn_notify,
            user_data,
            &mut err
        ));
        exit_hook();
        if err == CL_SUCCESS {
            guarded("clCreateContextFromType", || {
                shim().handed_out(device_type, || crate::cl::Context(ctx).devices())
            });
        }
        if err == CL_DEVICE_NOT_FOUND {
            if let Some(Some(instead)) = guarded("clCreateContextFromType", || {
                shim().substitute_type(device_type)
            }) {
                ctx = real!(clCreateContextFromType(
                    properties, instead, pfn_notify, user_data, &mut err
                ));
                if err == CL_SUCCESS {
                    guarded("clCreateContextFromType", || {
                        if let Ok(devices) = crate::cl::Context(ctx).devices() {
                            shim().substituted(&devices);
                        }
                    });
                }
            }
        }
        if !errcode_ret.is_null() {
            // SAFETY: the caller passed a place for the error code.
            unsafe { *errcode_ret = err };
        }
        ctx
    }

    /// # Safety
    /// As `clReleaseContext` in the OpenCL 1.2 specification.
    7 => fn clReleaseContext(context: cl_context) -> cl_int {
        if !context.is_null() {
            guarded("clReleaseContext", || {
                shim().context_releasing(crate::cl::Context(context))
            });
        }
        real!(clReleaseContext(context))
    }

    /// # Safety
    /// As `clCreateUserEvent` in the OpenCL 1.2 specification.
    84 => fn clCreateUserEvent(context: cl_context, errcode_ret: *mut cl_int) -> cl_event {
        let event = real!(clCreateUserEvent(context, errcode_ret));
        if !event.is_null() {
            guarded("clCreateUserEvent", || shim().user_event_created());
        }
        event
    }

    /// # Safety
    /// As `clCreateProgramWithSource` in the OpenCL 1.2 specification.
    26 => fn clCreateProgramWithSource(
        context: cl_context,
        count: cl_uint,
        strings: *const *const c_char,
        lengths: *const usize,
        errcode_ret: *mut cl_int,
    ) -> cl_program {
        let program = real!(clCreateProgramWithSource(
            context,
            count,
            strings,
            lengths,
            errcode_ret
        ));
        created(program, || {
            // SAFETY: the runtime accepted `count` strings at `strings` with `lengths`.
            ProgramOrigin::Source(unsafe { source_text(count, strings, lengths) })
        });
        program
    }

    /// # Safety
    /// As `clCreateProgramWithBinary` in the OpenCL 1.2 specification.
    27 => fn clCreateProgramWithBinary(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        lengths: *const usize,
        binaries: *const *const u8,
        binary_status: *mut cl_int,
        errcode_ret: *mut cl_int,
    ) -> cl_program {
        let program = real!(clCreateProgramWithBinary(
            context,
            num_devices,
            device_list,
            lengths,
            binaries,
            binary_status,
            errcode_ret
        ));
        created(program, || {
            // SAFETY: the runtime accepted `num_devices` binaries at `binaries` of
            // `lengths` bytes (it has created the program from them).
            let digests = unsafe { binary_digests(num_devices as usize, binaries, lengths) };
            shim().binary_origin(&digests)
        });
        program
    }

    /// # Safety
    /// As `clGetProgramInfo` in the OpenCL 1.2 specification.
    32 => fn clGetProgramInfo(
        program: cl_program,
        param_name: cl_uint,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let code = real!(clGetProgramInfo(
            program,
            param_name,
            param_value_size,
            param_value,
            param_value_size_ret
        ));
        if code == CL_SUCCESS && !param_value.is_null() {
            guarded("clGetProgramInfo", || {
                // SAFETY: the call succeeded: it wrote `param_name`'s value at
                // `param_value`, which has room for `param_value_size` bytes.
                unsafe {
                    program_info_read(Program(program), param_name, param_value, param_value_size)
                }
            });
        }
        code
    }

    /// # Safety
    /// As `clCreateProgramWithIL` in the OpenCL 2.1 specification.
    138 => fn clCreateProgramWithIL(
        context: cl_context,
        il: *const c_void,
        length: usize,
        errcode_ret: *mut cl_int,
    ) -> cl_program {
        let program = real!(clCreateProgramWithIL(context, il, length, errcode_ret));
        created(program, || {
            ProgramOrigin::Opaque("not simulated: built from IL")
        });
        program
    }

    /// # Safety
    /// As `clCreateProgramWithBuiltInKernels` in the OpenCL 1.2 specification.
    97 => fn clCreateProgramWithBuiltInKernels(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        kernel_names: *const c_char,
        errcode_ret: *mut cl_int,
    ) -> cl_program {
        let program = real!(clCreateProgramWithBuiltInKernels(
            context,
            num_devices,
            device_list,
            kernel_names,
            errcode_ret
        ));
        created(program, || {
            ProgramOrigin::Opaque("not simulated: a built-in kernel")
        });
        program
    }

    /// # Safety
    /// As `clCompileProgram` in the OpenCL 1.2 specification.
    98 => fn clCompileProgram(
        program: cl_program,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        num_input_headers: cl_uint,
        input_headers: *const cl_program,
        header_include_names: *const *const c_char,
        pfn_notify: BuildNotify,
        user_data: *mut c_void,
    ) -> cl_int {
        let code = real!(clCompileProgram(
            program,
            num_devices,
            device_list,
            options,
            num_input_headers,
            input_headers,
            header_include_names,
            pfn_notify,
            user_data
        ));
        exit_hook();
        if code == CL_SUCCESS {
            // SAFETY: the runtime accepted `options` (NUL-terminated or null) and
            // `num_input_headers` header programs with as many NUL-terminated names.
            let (options, headers) = unsafe {
                let names = handles(num_input_headers as usize, header_include_names);
                let programs = handles(num_input_headers as usize, input_headers);
                let headers: Vec<(String, Program)> = names
                    .into_iter()
                    .map(|n| c_text(n))
                    .zip(programs.into_iter().map(Program))
                    .collect();
                (c_text(options), headers)
            };
            guarded("clCompileProgram", || {
                shim().program_compiled(Program(program), &options, headers)
            });
        }
        code
    }

    /// # Safety
    /// As `clLinkProgram` in the OpenCL 1.2 specification.
    99 => fn clLinkProgram(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        num_input_programs: cl_uint,
        input_programs: *const cl_program,
        pfn_notify: BuildNotify,
        user_data: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_program {
        let program = real!(clLinkProgram(
            context,
            num_devices,
            device_list,
            options,
            num_input_programs,
            input_programs,
            pfn_notify,
            user_data,
            errcode_ret
        ));
        exit_hook();
        if !program.is_null() {
            // SAFETY: the runtime accepted `options` (NUL-terminated or null), the
            // `num_input_programs` programs at `input_programs` and the `num_devices`
            // devices at `device_list` (it has linked them).
            let (options, inputs, devices) = unsafe {
                let inputs = handles(num_input_programs as usize, input_programs);
                let devices = handles(num_devices as usize, device_list);
                (
                    c_text(options),
                    inputs.into_iter().map(Program).collect::<Vec<_>>(),
                    (!devices.is_empty()).then(|| devices.into_iter().map(Device).collect()),
                )
            };
            guarded("clLinkProgram", || {
                shim().program_linked(Program(program), &inputs, &options, devices)
            });
        }
        program
    }

    /// # Safety
    /// As `clBuildProgram` in the OpenCL 1.2 specification.
    30 => fn clBuildProgram(
        program: cl_program,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        pfn_notify: BuildNotify,
        user_data: *mut c_void,
    ) -> cl_int {
        // SAFETY: the caller passes `options` as a NUL-terminated string or null (the
        // runtime reads it as one just after).
        let text = unsafe { c_text(options) };
        guarded("clBuildProgram", || {
            shim().program_building(Program(program), &text)
        });
        let code = real!(clBuildProgram(
            program,
            num_devices,
            device_list,
            options,
            pfn_notify,
            user_data
        ));
        exit_hook();
        if code == CL_SUCCESS {
            let options = text;
            let devices = if device_list.is_null() || num_devices == 0 {
                None
            } else {
                // SAFETY: the runtime accepted `device_list` as `num_devices` device handles.
                let ids = unsafe { std::slice::from_raw_parts(device_list, num_devices as usize) };
                Some(ids.iter().map(|&d| Device(d)).collect())
            };
            guarded("clBuildProgram", || {
                shim().program_built(Program(program), devices, &options)
            });
        }
        code
    }

    /// # Safety
    /// As `clReleaseProgram` in the OpenCL 1.2 specification.
    29 => fn clReleaseProgram(program: cl_program) -> cl_int {
        guarded("clReleaseProgram", || {
            shim().program_releasing(Program(program))
        });
        real!(clReleaseProgram(program))
    }

    /// # Safety
    /// As `clCreateKernel` in the OpenCL 1.2 specification.
    34 => fn clCreateKernel(
        program: cl_program,
        kernel_name: *const c_char,
        errcode_ret: *mut cl_int,
    ) -> cl_kernel {
        let kernel = real!(clCreateKernel(program, kernel_name, errcode_ret));
        exit_hook();
        if !kernel.is_null() {
            guarded("clCreateKernel", || {
                shim().kernel_created(Program(program), Kernel(kernel))
            });
        }
        kernel
    }

    /// # Safety
    /// As `clCreateKernelsInProgram` in the OpenCL 1.2 specification.
    35 => fn clCreateKernelsInProgram(
        program: cl_program,
        num_kernels: cl_uint,
        kernels: *mut cl_kernel,
        num_kernels_ret: *mut cl_uint,
    ) -> cl_int {
        let code = real!(clCreateKernelsInProgram(
            program,
            num_kernels,
            kernels,
            num_kernels_ret
        ));
        exit_hook();
        if code == CL_SUCCESS && !kernels.is_null() {
            // SAFETY: on success the runtime wrote `num_kernels` kernels at `kernels` (at
            // most that many; unused entries stay as the caller left them, so skip nulls).
            let made = unsafe { std::slice::from_raw_parts(kernels, num_kernels as usize) }.to_vec();
            guarded("clCreateKernelsInProgram", || {
                for k in made.into_iter().filter(|k| !k.is_null()) {
                    shim().kernel_created(Program(program), Kernel(k));
                }
            });
        }
        code
    }

    /// # Safety
    /// As `clCloneKernel` in the OpenCL 2.1 specification.
    137 => fn clCloneKernel(source_kernel: cl_kernel, errcode_ret: *mut cl_int) -> cl_kernel {
        let clone = real!(clCloneKernel(source_kernel, errcode_ret));
        if !clone.is_null() {
            guarded("clCloneKernel", || {
                shim().kernel_cloned(Kernel(source_kernel), Kernel(clone), |shadow| {
                    let mut err = CL_SUCCESS;
                    let k = real!(clCloneKernel(shadow.0, &mut err));
                    (err == CL_SUCCESS && !k.is_null()).then_some(Kernel(k)).ok_or(err)
                })
            });
        }
        clone
    }

    /// # Safety
    /// As `clSetKernelArg` in the OpenCL 1.2 specification.
    38 => fn clSetKernelArg(
        kernel: cl_kernel,
        arg_index: cl_uint,
        arg_size: usize,
        arg_value: *const c_void,
    ) -> cl_int {
        let code = real!(clSetKernelArg(kernel, arg_index, arg_size, arg_value));
        if code == CL_SUCCESS {
            let value = if arg_value.is_null() {
                ArgValue::Null(arg_size)
            } else if arg_size == std::mem::size_of::<cl_mem>() {
                // SAFETY: the real clSetKernelArg accepted `arg_size` bytes at `arg_value`; a
                // pointer-sized value is read as a handle, which the shim uses only for an
                // argument the source declares a buffer.
                ArgValue::Handle(Mem(unsafe { arg_value.cast::<cl_mem>().read_unaligned() }))
            } else {
                ArgValue::Other
            };
            let raw = if arg_value.is_null() {
                SetArgRef::Null(arg_size)
            } else {
                // SAFETY: the real clSetKernelArg accepted `arg_size` bytes at `arg_value`.
                SetArgRef::Value(unsafe { raw_bytes(arg_value, arg_size) })
            };
            guarded("clSetKernelArg", || {
                shim().set_arg(
                    Kernel(kernel),
                    MirroredSetting::Arg(arg_index),
                    value,
                    raw,
                    |shadow| real!(clSetKernelArg(shadow.0, arg_index, arg_size, arg_value)),
                )
            });
        }
        code
    }

    /// # Safety
    /// As `clSetKernelArgSVMPointer` in the OpenCL 2.0 specification.
    134 => fn clSetKernelArgSVMPointer(
        kernel: cl_kernel,
        arg_index: cl_uint,
        arg_value: *const c_void,
    ) -> cl_int {
        let code = real!(clSetKernelArgSVMPointer(kernel, arg_index, arg_value));
        if code == CL_SUCCESS {
            guarded("clSetKernelArgSVMPointer", || {
                shim().set_arg(
                    Kernel(kernel),
                    MirroredSetting::SvmArg(arg_index),
                    ArgValue::Svm,
                    SetArgRef::Svm(arg_value as usize),
                    |shadow| real!(clSetKernelArgSVMPointer(shadow.0, arg_index, arg_value)),
                )
            });
        }
        code
    }

    /// # Safety
    /// As `clSetKernelExecInfo` in the OpenCL 2.0 specification.
    135 => fn clSetKernelExecInfo(
        kernel: cl_kernel,
        param_name: cl_uint,
        param_value_size: usize,
        param_value: *const c_void,
    ) -> cl_int {
        let code = real!(clSetKernelExecInfo(
            kernel,
            param_name,
            param_value_size,
            param_value
        ));
        if code == CL_SUCCESS {
            guarded("clSetKernelExecInfo", || {
                // SAFETY: the real clSetKernelExecInfo accepted the value.
                let value = unsafe { raw_bytes(param_value, param_value_size) };
                // The runtime accepted the value for the application's kernel; the
                // shadows, kernels of the same context, take it as given.
                shim().set_exec_info(Kernel(kernel), param_name, value, |shadow| {
                    real!(clSetKernelExecInfo(
                        shadow.0,
                        param_name,
                        param_value_size,
                        param_value
                    ))
                })
            });
        }
        code
    }

    /// # Safety
    /// As `clReleaseKernel` in the OpenCL 1.2 specification.
    37 => fn clReleaseKernel(kernel: cl_kernel) -> cl_int {
        guarded("clReleaseKernel", || {
            shim().kernel_releasing(Kernel(kernel))
        });
        real!(clReleaseKernel(kernel))
    }
}
