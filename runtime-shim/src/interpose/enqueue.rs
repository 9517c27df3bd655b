//! The interposed commands of a queue: launches, which go to the shim (`launch_call`),
//! and the commands around them that decide what an OpenCL event shows for a context's
//! first launch (`crate::shim::Shim::filled`, `finished`, `waited`): fills, and the
//! host's waits for a queue's commands. The latter call the real function with the
//! application's arguments, exactly as given, then tell the shim.

use std::ffi::c_void;

use crate::cl::{Event, NdRange, Queue};
use crate::ffi::*;
use crate::ffi::{guarded, handles};
use crate::launch_call::launch;
use crate::real;
use crate::shim::shim;

interposed! {
    INTERPOSED_COMMANDS;

    /// # Safety
    /// As `clEnqueueNDRangeKernel` in the OpenCL 1.2 specification.
    59 => fn clEnqueueNDRangeKernel(
        command_queue: cl_command_queue,
        kernel: cl_kernel,
        work_dim: cl_uint,
        global_work_offset: *const usize,
        global_work_size: *const usize,
        local_work_size: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let range = NdRange::from_raw(
            work_dim,
            global_work_offset,
            global_work_size,
            local_work_size,
        );
        let original = || {
            real!(clEnqueueNDRangeKernel(
                command_queue,
                kernel,
                work_dim,
                global_work_offset,
                global_work_size,
                local_work_size,
                num_events_in_wait_list,
                event_wait_list,
                event
            ))
        };
        // SAFETY: the application's arguments, passed on as given.
        unsafe {
            launch(
                command_queue,
                kernel,
                range,
                num_events_in_wait_list,
                event_wait_list,
                event,
                original,
            )
        }
    }

    /// # Safety
    /// As `clEnqueueTask` in the OpenCL 1.2 specification.
    60 => fn clEnqueueTask(
        command_queue: cl_command_queue,
        kernel: cl_kernel,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        // A task is a launch of one work-item in one work-group.
        let range = NdRange {
            work_dim: 1,
            offset: [0; 3],
            global: [1; 3],
            local: Some([1; 3]),
        };
        let original = || {
            real!(clEnqueueTask(
                command_queue,
                kernel,
                num_events_in_wait_list,
                event_wait_list,
                event
            ))
        };
        // SAFETY: the application's arguments, passed on as given.
        unsafe {
            launch(
                command_queue,
                kernel,
                Some(range),
                num_events_in_wait_list,
                event_wait_list,
                event,
                original,
            )
        }
    }

    /// # Safety
    /// As `clWaitForEvents` in the OpenCL 1.2 specification.
    41 => fn clWaitForEvents(num_events: cl_uint, event_list: *const cl_event) -> cl_int {
        let code = real!(clWaitForEvents(num_events, event_list));
        if code == CL_SUCCESS {
            // SAFETY: the application's list of `num_events` events, which the real call
            // has just read.
            let events = unsafe { handles(num_events as usize, event_list) };
            guarded("clWaitForEvents", || {
                shim().waited_for(events.into_iter().map(Event))
            });
        }
        code
    }

    /// # Safety
    /// As `clFinish` in the OpenCL 1.2 specification.
    47 => fn clFinish(command_queue: cl_command_queue) -> cl_int {
        let code = real!(clFinish(command_queue));
        if code == CL_SUCCESS {
            guarded("clFinish", || shim().finished(Queue(command_queue)));
        }
        code
    }

    /// # Safety
    /// As `clEnqueueReadBuffer` in the OpenCL 1.2 specification.
    48 => fn clEnqueueReadBuffer(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_read: cl_bool,
        offset: usize,
        size: usize,
        ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let code = real!(clEnqueueReadBuffer(
            command_queue,
            buffer,
            blocking_read,
            offset,
            size,
            ptr,
            num_events_in_wait_list,
            event_wait_list,
            event
        ));
        if code == CL_SUCCESS && blocking_read != CL_FALSE {
            guarded("clEnqueueReadBuffer", || shim().waited(Queue(command_queue)));
        }
        code
    }

    /// # Safety
    /// As `clEnqueueWriteBuffer` in the OpenCL 1.2 specification.
    49 => fn clEnqueueWriteBuffer(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_write: cl_bool,
        offset: usize,
        size: usize,
        ptr: *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let code = real!(clEnqueueWriteBuffer(
            command_queue,
            buffer,
            blocking_write,
            offset,
            size,
            ptr,
            num_events_in_wait_list,
            event_wait_list,
            event
        ));
        if code == CL_SUCCESS && blocking_write != CL_FALSE {
            guarded("clEnqueueWriteBuffer", || shim().waited(Queue(command_queue)));
        }
        code
    }

    /// # Safety
    /// As `clEnqueueFillBuffer` in the OpenCL 1.2 specification.
    102 => fn clEnqueueFillBuffer(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        pattern: *const c_void,
        pattern_size: usize,
        offset: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let code = real!(clEnqueueFillBuffer(
            command_queue,
            buffer,
            pattern,
            pattern_size,
            offset,
            size,
            num_events_in_wait_list,
            event_wait_list,
            event
        ));
        if code == CL_SUCCESS {
            guarded("clEnqueueFillBuffer", || shim().filled(Queue(command_queue)));
        }
        code
    }

    /// # Safety
    /// As `clEnqueueFillImage` in the OpenCL 1.2 specification.
    103 => fn clEnqueueFillImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        fill_color: *const c_void,
        origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let code = real!(clEnqueueFillImage(
            command_queue,
            image,
            fill_color,
            origin,
            region,
            num_events_in_wait_list,
            event_wait_list,
            event
        ));
        if code == CL_SUCCESS {
            guarded("clEnqueueFillImage", || shim().filled(Queue(command_queue)));
        }
        code
    }

    /// # Safety
    /// As `clEnqueueSVMMemFill` in the OpenCL 2.0 specification.
    130 => fn clEnqueueSVMMemFill(
        command_queue: cl_command_queue,
        svm_ptr: *mut c_void,
        pattern: *const c_void,
        pattern_size: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let code = real!(clEnqueueSVMMemFill(
            command_queue,
            svm_ptr,
            pattern,
            pattern_size,
            size,
            num_events_in_wait_list,
            event_wait_list,
            event
        ));
        if code == CL_SUCCESS {
            guarded("clEnqueueSVMMemFill", || shim().filled(Queue(command_queue)));
        }
        code
    }
}
