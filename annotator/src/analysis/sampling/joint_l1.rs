//! What an L1 hit saves a path where a block issues several sampled loads together.
//!
//! [`super`] prices each sampled load's L1 hit alone: its block's step
//! with the load at the L1 against at the L2, every other load as charged. Two loads a
//! block issues back to back (`edgeArray[v]` and `edgeArray[v + 1]`) each wait under the
//! other's trip, so either one's hit alone saves the path nothing, though both hitting
//! save the whole trip (SHOC's `BFS_kernel_warp`: 0 and 1 cycle alone, 200 together on
//! `gtx480`; GPGPU-Sim serves both from the L1, validation/gpgpusim/README.md). Where a
//! block holds the loads of two or more sampled accesses, each is given its own saving
//! with the others at one request, plus an equal share of what the loads save together
//! beyond their own savings (the part no one of them saves alone), so that the savings
//! add up to the joint one when all of them hit.

use std::collections::BTreeMap;

use pipeline_model::{Architecture, Instr, MemLevel};

use super::{past_l1_load, step, with_requests};

/// A PTX instruction's place: its block and its index there.
type Position = (usize, usize);

/// `blocks` with the instructions `at` of block `b` as one request each, at `level` where
/// given.
fn one_request(
    blocks: &[Vec<Instr>],
    b: usize,
    at: &[usize],
    level: Option<MemLevel>,
) -> Vec<Vec<Instr>> {
    with_requests(blocks, at.iter().map(|&i| (b, i)), 1, level)
}

/// Per sampled access (each given by its PTX instructions `sites[k]`), the cycles an L1
/// hit saves one of its executions, where a block holds its loads and another sampled
/// access's: per block, as the module's doc says where shared, as `sampling` prices it
/// where not, averaged over the access's loads. `None` for an access whose loads share
/// no block (its price stands as `sampling` made it).
pub(crate) fn joint_savings(
    arch: &Architecture,
    blocks: &[Vec<Instr>],
    preds: &[Vec<usize>],
    sites: &[&[Position]],
) -> Vec<Option<f64>> {
    // Per block, the sampled accesses with loads there, and those loads.
    let mut by_block: BTreeMap<usize, Vec<(usize, Vec<usize>)>> = BTreeMap::new();
    for (k, at) in sites.iter().enumerate() {
        let mut per: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &p in at.iter().filter(|&&(b, i)| past_l1_load(&blocks[b][i])) {
            per.entry(p.0).or_default().push(p.1);
        }
        for (b, at) in per {
            by_block.entry(b).or_default().push((k, at));
        }
    }
    let mut saved = vec![0.0; sites.len()];
    let mut shares = vec![false; sites.len()];
    for (&b, here) in &by_block {
        if here.len() < 2 {
            // Alone in its block: the price `sampling` gives it (the others as charged).
            let (k, at) = &here[0];
            let base = one_request(blocks, b, at, None);
            let l1 = one_request(blocks, b, at, Some(MemLevel::L1));
            saved[*k] += step(arch, &base, preds, b) - step(arch, &l1, preds, b);
            continue;
        }
        let all: Vec<usize> = here.iter().flat_map(|(_, at)| at.iter().copied()).collect();
        let base = one_request(blocks, b, &all, None);
        let t_base = step(arch, &base, preds, b);
        let joint = t_base
            - step(
                arch,
                &one_request(&base, b, &all, Some(MemLevel::L1)),
                preds,
                b,
            );
        let alone: Vec<f64> = here
            .iter()
            .map(|(_, at)| {
                t_base
                    - step(
                        arch,
                        &one_request(&base, b, at, Some(MemLevel::L1)),
                        preds,
                        b,
                    )
            })
            .collect();
        let together = (joint - alone.iter().sum::<f64>()) / here.len() as f64;
        for ((k, _), a) in here.iter().zip(&alone) {
            saved[*k] += (a + together).max(0.0);
            shares[*k] = true;
        }
    }
    sites
        .iter()
        .enumerate()
        .map(|(k, at)| {
            let loads = at
                .iter()
                .filter(|&&p| !blocks[p.0][p.1].writes.is_empty())
                .count();
            (shares[k] && loads > 0).then(|| saved[k] / loads as f64)
        })
        .collect()
}
