//! What the model tests share.

use pipeline_model::{
    estimate, Architecture, Grain, KernelEstimate, KernelResources, LaunchGeometry, RecordFormat,
    Records, Scope,
};

/// gtx480 as the paper's model sees it: one issue a cycle for the whole SM, and none of
/// the terms real GPUs add (no launch cost, L2 or DRAM, shared fetch unit or bound on
/// misses in flight), so that hand-computed cases test one term at a time.
pub fn paper_gtx480() -> Architecture {
    let mut a = Architecture::load("gtx480").unwrap();
    a.issue_scope = Scope::Sm;
    a.launch.fixed_cycles = 0;
    a.memory.dram_gb_per_s = None;
    a.memory.l2_bytes = None;
    a.memory.l2_gb_per_s = None;
    a.memory.l2_sustained_gb_per_s = None;
    a.memory.store_ack_at_exit = false;
    a.memory.mshrs_per_sm = None;
    a.memory.fill_bytes_per_cycle = None;
    a.memory.l2_unloaded = None;
    a.frontend.sm_fetch_groups_per_cycle = 0;
    a
}

/// The estimate of a launch of `data.len() / (1 + columns)` work-items in groups of
/// `local` along x, whose records are `t` and then `columns` usage values each, at the
/// architecture's usage scale.
#[allow(dead_code)] // every test file compiles this module; not every one deals records
pub fn estimate_items(
    arch: &Architecture,
    local: u64,
    resources: &KernelResources,
    data: &[u64],
    columns: usize,
) -> KernelEstimate {
    let n = data.len() / (1 + columns);
    estimate(
        arch,
        &LaunchGeometry {
            global: [n as u64, 1, 1],
            local: [local, 1, 1],
        },
        resources,
        &Records {
            data,
            format: RecordFormat::timing(columns, 0),
            usage_scale: arch.usage_scale(),
            grain: Grain::WorkItem,
            shared: None,
        },
    )
    .unwrap()
}
