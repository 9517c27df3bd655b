//! Work-item records per second through the analytical model (`cargo bench -p
//! pipeline-model --bench model`, or `scripts/bench`). Issue 4 asks for at least 50 million.
//!
//! Synthetic records (varying times and usage, as divergent kernels produce) for launches
//! of 1, 2 and 3 dimensions on every shipped architecture, and the 1D launch again with
//! two divergent arms' counters (an if/else on the work-item's parity); the median of
//! several runs.

use std::time::Instant;

use pipeline_model::{
    arch::BUILTIN_ARCHS, estimate, Architecture, Grain, KernelResources, LaunchGeometry, Records,
};

fn main() {
    let runs = 7;
    println!("analytical model: median of {runs} runs");
    println!(
        "{:<12} {:<22} {:>12} {:>10} {:>14}",
        "arch", "launch", "work-items", "ms", "Mrecords/s"
    );
    let launches = [
        ("1D 4M / 256", [1u64 << 22, 1, 1], [256u64, 1, 1], 0),
        ("1D 4M / 256, 2 arms", [1u64 << 22, 1, 1], [256u64, 1, 1], 2),
        ("2D 2048^2 / 16x16", [2048, 2048, 1], [16, 16, 1], 0),
        ("3D 128^3 / 8x8x4", [128, 128, 128], [8, 8, 4], 0),
    ];
    for name in BUILTIN_ARCHS {
        let arch = Architecture::load(name).unwrap();
        let r = arch.resources().len();
        let scale = arch.usage_scale();
        for (label, global, local, arms) in launches {
            let geometry = LaunchGeometry { global, local };
            let n = geometry.work_items() as usize;
            let mut data = Vec::with_capacity(n * (r + 1 + arms));
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for i in 0..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                data.push(1000 + x % 512);
                data.extend((0..r).map(|k| (x >> (8 * k)) % 64 * scale));
                // Half the work-items spend 400 cycles in one arm, half in the other.
                data.extend((0..arms).map(|a| if i % arms == a { 400 } else { 0 }));
            }
            let records = Records {
                data: &data,
                resources: r + arms,
                usage_scale: scale,
                grain: Grain::WorkItem,
                shared: None,
            };
            let res = KernelResources {
                registers_per_work_item: 16,
                local_memory_bytes: 0,
                global_memory_bytes: None,
            };
            let mut times: Vec<f64> = (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    let e = estimate(&arch, &geometry, &res, &records).unwrap();
                    std::hint::black_box(e);
                    t.elapsed().as_secs_f64()
                })
                .collect();
            times.sort_by(f64::total_cmp);
            let median = times[runs / 2];
            println!(
                "{:<12} {:<22} {:>12} {:>10.2} {:>14.1}",
                name,
                label,
                n,
                median * 1e3,
                n as f64 / median / 1e6
            );
        }
    }
}
