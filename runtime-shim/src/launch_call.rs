//! An application's launch carried out as the shim decided it ([`LaunchOutcome`]): the
//! annotated twin enqueued in its place, or the application's own launch run and what
//! the shim knows of it recorded. Called by the interposed `clEnqueueNDRangeKernel` and
//! `clEnqueueTask`.

use crate::cl::{Event, Kernel, NdRange, Queue};
use crate::ffi::*;
use crate::shim::{shim, LaunchOutcome};

/// Enqueues through the shim, or the application's own kernel when the shim declines.
///
/// # Safety
/// `event_wait_list` holds `num_events` events (or is null), `event` is null or writable.
pub(crate) unsafe fn launch(
    queue: cl_command_queue,
    kernel: cl_kernel,
    range: Option<NdRange>,
    num_events: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
    original: impl FnOnce() -> cl_int,
) -> cl_int {
    let Some(range) = range else {
        return original();
    };
    let wait: Vec<Event> = if event_wait_list.is_null() {
        Vec::new()
    } else {
        // SAFETY: the caller passed `num_events` events at `event_wait_list`.
        unsafe { std::slice::from_raw_parts(event_wait_list, num_events as usize) }
            .iter()
            .map(|e| Event(*e))
            .collect()
    };
    let outcome = guarded("the launch", || {
        shim().launch(Queue(queue), Kernel(kernel), &range, &wait)
    });
    match outcome {
        Some(LaunchOutcome::Enqueued(ev)) => {
            if event.is_null() {
                ev.release();
            } else {
                // SAFETY: the caller passed a place for the event.
                unsafe { *event = ev.0 };
            }
            CL_SUCCESS
        }
        Some(LaunchOutcome::Evaluated(evaluation)) => run_then_record(original, || {
            shim().record_evaluated(evaluation, Queue(queue), &range)
        }),
        Some(LaunchOutcome::Remembered(remembered)) => run_then_record(original, || {
            shim().record_remembered(remembered, Queue(queue), &range)
        }),
        Some(LaunchOutcome::Repeat { kernel: name, of }) => run_then_record(original, || {
            shim().record_repeat(name, Queue(queue), &range, of)
        }),
        other => {
            let reason = match other {
                Some(LaunchOutcome::Fallback(reason)) => reason,
                _ => "an internal error in srcsim".to_string(),
            };
            run_then_record(original, || {
                shim().record_unsimulated(Kernel(kernel), Queue(queue), &range, reason)
            })
        }
    }
}

/// Runs the application's own launch (`original`), then, where it succeeded, what the
/// shim records of it.
fn run_then_record(original: impl FnOnce() -> cl_int, record: impl FnOnce()) -> cl_int {
    let code = original();
    if code == CL_SUCCESS {
        guarded("the launch", record);
    }
    code
}
