//! What the model tests share.

use pipeline_model::{Architecture, Scope};

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
    a.memory.store_ack_at_exit = false;
    a.memory.mshrs_per_sm = None;
    a.memory.fill_bytes_per_cycle = None;
    a.frontend.sm_fetch_groups_per_cycle = 0;
    a
}
