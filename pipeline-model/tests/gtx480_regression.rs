//! gtx480 keeps giving the numbers it gave before the sub-core model: block times, pair
//! times, resource usage and kernel estimates of a fixed, pseudo-random corpus of
//! instruction sequences and counter records are compared, digit for digit, with
//! `snapshots/gtx480_regression.txt`, written by the model as it was before sub-cores
//! (commit "gtx480 regression snapshot"). `SRCSIM_BLESS=1` rewrites the file; do that only
//! for a change that is meant to alter gtx480's numbers.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use pipeline_model::*;

/// A small linear congruential generator (Knuth's MMIX constants): the corpus must be the
/// same on every machine and in every version.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn class(rng: &mut Lcg) -> OpClass {
    let kinds = [DataKind::Int, DataKind::Fp32, DataKind::Fp64];
    let ops = [
        ArithOp::Add,
        ArithOp::Max,
        ArithOp::Mul,
        ArithOp::Mad,
        ArithOp::Div,
    ];
    match rng.below(10) {
        0 => OpClass::Sfu,
        1 => OpClass::Mem,
        2 => OpClass::Other,
        _ => OpClass::Arith(kinds[rng.below(3) as usize], ops[rng.below(5) as usize]),
    }
}

fn block(rng: &mut Lcg) -> Vec<Instr> {
    let len = 1 + rng.below(24) as usize;
    (0..len)
        .map(|_| {
            let reads: Vec<Reg> = (0..rng.below(4)).map(|_| rng.below(12) as Reg).collect();
            let writes: Vec<Reg> = (0..rng.below(2)).map(|_| rng.below(12) as Reg).collect();
            Instr::new(class(rng), &reads, &writes)
        })
        .collect()
}

fn corpus() -> String {
    // The DRAM term, the launch cost and the issue per scheduler came later and are tested
    // on their own (`dram.rs`, `launch.rs`, `sub_cores.rs`); the paper's configuration
    // without them (one issue a cycle per SM) must give every number it gave.
    let arch = common::paper_gtx480();
    let mut rng = Lcg(2015);
    let mut out = String::new();
    let blocks: Vec<Vec<Instr>> = (0..60).map(|_| block(&mut rng)).collect();
    for (i, b) in blocks.iter().enumerate() {
        let t = block_timing(&arch, b);
        let next = &blocks[(i + 1) % blocks.len()];
        writeln!(
            out,
            "block {i}: t_B {} usage {:?} pair {}",
            t.cycles,
            t.usage.0,
            pair_cycles(&arch, b, next)
        )
        .unwrap();
    }
    let resources = arch.resources().len();
    let scale = arch.usage_scale();
    for launch in 0..40 {
        let local = [1 + rng.below(256), 1 + rng.below(3), 1];
        let groups = [1 + rng.below(200), 1 + rng.below(2), 1 + rng.below(2)];
        let global = [0, 1, 2].map(|d| local[d] * groups[d] - rng.below(2) * (local[d] / 2));
        let work_items = global.iter().product::<u64>() as usize;
        // Usage small enough that some launches are latency-bound, some contention-bound.
        let usage_max = [20, 200, 2000][launch % 3];
        let data: Vec<u64> = (0..work_items * (1 + resources))
            .map(|v| {
                rng.below(if v % (1 + resources) == 0 {
                    5000
                } else {
                    usage_max
                })
            })
            .collect();
        let res = KernelResources {
            registers_per_work_item: rng.below(40) as u32,
            local_memory_bytes: rng.below(3) * 8192,
            global_memory_bytes: None,
            read_memory_bytes: None,
            code_instructions: 0,
            arm_code: pipeline_model::ArmCode::NONE,
            first_round_warp_bytes: None,
            frame_bytes: 0,
            l1_sharing: None,
        };
        let geometry = LaunchGeometry { global, local };
        let records = Records {
            data: &data,
            format: RecordFormat::timing(resources, 0),
            usage_scale: scale,
            grain: Grain::WorkItem,
            shared: None,
        };
        match estimate(&arch, &geometry, &res, &records) {
            Ok(e) => writeln!(
                out,
                "launch {launch} {global:?}/{local:?}: cycles {} latency {} contention {:?} \
                 bound {:?} occupancy {:?} n_par {} groups {} warps {}",
                e.cycles,
                e.latency_cycles,
                e.contention_cycles,
                e.bound,
                e.occupancy,
                e.parallel_work_groups,
                e.work_groups,
                e.warps
            ),
            Err(e) => writeln!(out, "launch {launch} {global:?}/{local:?}: error {e}"),
        }
        .unwrap();
    }
    out
}

#[test]
fn gtx480_numbers_are_unchanged() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/gtx480_regression.txt");
    let mut snapshots = snapshot::Snapshots::new("the gtx480 corpus's estimates");
    snapshots.check(&path, &corpus());
    snapshots.assert_unchanged();
}
