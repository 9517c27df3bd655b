//! The devices the shim hands out where the application asked for a GPU and there is
//! none, or for any device: which they are, and what they answer to the queries hosts size
//! their launches by (the simulated GPU's figures).

use std::sync::atomic::Ordering;

use super::Shim;
use crate::cl::Device;
use crate::config::Level;
use crate::ffi::cl_device_type;
use crate::ffi::{
    CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_GPU,
};
use crate::modelling::lock;

/// What a device that stands in for a GPU answers to the queries hosts size launches by:
/// the simulated GPU's figures, never above what the real device accepts (the interposer
/// takes the smaller), so that the program still runs as the device allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceLimits {
    /// `CL_DEVICE_MAX_COMPUTE_UNITS`: the SMs.
    pub compute_units: u32,
    /// `CL_DEVICE_MAX_WORK_GROUP_SIZE` and `CL_KERNEL_WORK_GROUP_SIZE`.
    pub max_work_group_size: usize,
    /// `CL_DEVICE_MAX_WORK_ITEM_SIZES`.
    pub max_work_item_sizes: [usize; 3],
    /// `CL_DEVICE_LOCAL_MEM_SIZE`: shared memory per SM.
    pub local_memory_bytes: u64,
    /// `CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE`: the warp size.
    pub preferred_multiple: usize,
}

impl Shim {
    /// The device type to ask for instead of `kind`, when no device of `kind` exists.
    pub fn substitute_type(&self, kind: cl_device_type) -> Option<cl_device_type> {
        (!self.config.keep_device_type
            && kind & CL_DEVICE_TYPE_GPU != 0
            && kind != CL_DEVICE_TYPE_ALL)
            .then_some(CL_DEVICE_TYPE_CPU)
    }

    /// Notes devices handed out in place of a GPU.
    pub fn substituted(&self, devices: &[Device]) {
        let mut state = lock(&self.state);
        for d in devices {
            if state.substitutes.insert(*d) {
                self.log(
                    Level::Warn,
                    &format!(
                        "no GPU device here: the application asked for one and gets `{}`, which reports itself as a GPU (SRCSIM_KEEP_DEVICE_TYPE=1 turns this off)",
                        d.name().trim()
                    ),
                );
            }
        }
    }

    /// Whether the devices handed out for `kind` stand for the simulated GPU when sizing
    /// launches: a request for any device (`ALL`, `DEFAULT`), so that a host's launches
    /// fit the simulated GPU whatever it asked for (a CPU's 4096 work-items a group are
    /// no launch a GPU takes). A request for the CPU by name keeps the CPU's answers.
    fn sizes_as_simulated(&self, kind: cl_device_type) -> bool {
        !self.config.keep_device_type
            && (kind == CL_DEVICE_TYPE_ALL || kind == CL_DEVICE_TYPE_DEFAULT)
    }

    /// Notes the devices a request for `kind` handed out (`devices`, asked only where it
    /// matters), where they stand for the simulated GPU (`Shim::sizes_as_simulated`).
    pub fn handed_out(
        &self,
        kind: cl_device_type,
        devices: impl FnOnce() -> Result<Vec<Device>, crate::cl::ClError>,
    ) {
        if !self.sizes_as_simulated(kind) {
            return;
        }
        let Ok(devices) = devices() else { return };
        let mut state = lock(&self.state);
        for d in devices {
            if state.any_device.insert(d) {
                self.log(
                    Level::Info,
                    &format!(
                        "the application asked for any device and gets `{}`: it answers the work-group and compute-unit queries as the simulated GPU (SRCSIM_KEEP_DEVICE_TYPE=1 turns this off)",
                        d.name().trim()
                    ),
                );
            }
        }
    }

    /// Whether `device` stands in for a GPU.
    pub fn is_substitute(&self, device: Device) -> bool {
        lock(&self.state).substitutes.contains(&device)
    }

    /// The simulated GPU's limits that a host sizes its launches from, where `device`
    /// stands in for a GPU (any substitute for `None`: a query that names no device) and
    /// the architecture loaded.
    pub fn simulated_limits(&self, device: Option<Device>) -> Option<DeviceLimits> {
        let arch = self.arch.as_ref().ok()?;
        let state = lock(&self.state);
        let substituted = match device {
            Some(d) => state.substitutes.contains(&d) || state.any_device.contains(&d),
            None => !state.substitutes.is_empty() || !state.any_device.is_empty(),
        };
        if substituted {
            if let Some(s) = &self.sweep {
                s.limits_seen.store(true, Ordering::Relaxed);
            }
        }
        substituted.then(|| DeviceLimits {
            compute_units: arch.sm_count,
            max_work_group_size: arch.limits.max_work_group_size as usize,
            max_work_item_sizes: arch.limits.max_work_group_dims.map(|d| d as usize),
            local_memory_bytes: u64::from(arch.limits.shared_memory_bytes),
            preferred_multiple: arch.warp_size as usize,
        })
    }
}
