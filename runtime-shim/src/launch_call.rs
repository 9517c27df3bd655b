//! The interposed `clEnqueueNDRangeKernel` and `clEnqueueTask`'s way into the shim: their
//! arguments converted, the application's own launch handed to [`Shim::launch`], which
//! decides and carries out the launch, and the event it gives written back. A panic of
//! srcsim's costs the simulation of the launch, never the application's launch: that runs
//! exactly once whatever panicked, and its code is what the application gets.
//!
//! [`Shim::launch`]: crate::shim::Shim::launch

use crate::cl::{Event, Kernel, NdRange, Queue};
use crate::ffi::*;
use crate::shim::{shim, Launched};

/// Launches through the shim, which enqueues the annotated twin or runs `original`, the
/// application's own launch.
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
    let mut own = OwnLaunch::new(original);
    let launched = guarded("the launch", || {
        shim().launch(Queue(queue), Kernel(kernel), &range, &wait, || own.run())
    });
    match launched {
        Some(Launched::Twin(ev)) => {
            if event.is_null() {
                ev.release();
            } else {
                // SAFETY: the caller passed a place for the event.
                unsafe { *event = ev.0 };
            }
            CL_SUCCESS
        }
        Some(Launched::Own(code)) => code,
        // srcsim panicked after the application's launch ran: its code stands, and the
        // launch is not recorded.
        None if own.ran() => own.run(),
        // srcsim panicked before: the launch runs now, unsimulated.
        None => {
            let code = own.run();
            if code == CL_SUCCESS {
                guarded("the launch", || {
                    let reason = "an internal error in srcsim".to_string();
                    shim().record_unsimulated(Kernel(kernel), Queue(queue), &range, reason)
                });
            }
            code
        }
    }
}

/// The application's own launch, run at most once: a panic in the shim after it ran must
/// not run it again, and the code it returned is the application's answer.
struct OwnLaunch<F> {
    call: Option<F>,
    code: Option<cl_int>,
}

impl<F: FnOnce() -> cl_int> OwnLaunch<F> {
    fn new(call: F) -> Self {
        OwnLaunch {
            call: Some(call),
            code: None,
        }
    }

    /// Runs the launch the first time, and gives the code it returned every time.
    fn run(&mut self) -> cl_int {
        if let Some(code) = self.code {
            return code;
        }
        // The call is a C function's (the real OpenCL entry point), which cannot unwind:
        // taken and not returned cannot happen, and would not be run twice.
        let call = self
            .call
            .take()
            .expect("the application's launch runs once");
        let code = call();
        self.code = Some(code);
        code
    }

    /// Whether the launch has run.
    fn ran(&self) -> bool {
        self.code.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn the_applications_launch_runs_once_and_keeps_its_code_through_a_panic() {
        let runs = Cell::new(0);
        let mut own = OwnLaunch::new(|| {
            runs.set(runs.get() + 1);
            CL_INVALID_VALUE
        });
        assert!(!own.ran());
        // srcsim panics after the launch ran: its code stands, and it does not run again.
        let launched = guarded("a test", || {
            own.run();
            panic!("after the application's launch")
        });
        assert!(launched.is_none());
        assert!(own.ran());
        assert_eq!(own.run(), CL_INVALID_VALUE);
        assert_eq!(runs.get(), 1);
    }

    #[test]
    fn a_panic_before_the_launch_leaves_it_to_run() {
        let runs = Cell::new(0);
        let mut own = OwnLaunch::new(|| {
            runs.set(runs.get() + 1);
            CL_SUCCESS
        });
        let launched: Option<()> = guarded("a test", || panic!("before the launch"));
        assert!(launched.is_none());
        assert!(!own.ran());
        assert_eq!(own.run(), CL_SUCCESS);
        assert_eq!(runs.get(), 1);
    }
}
