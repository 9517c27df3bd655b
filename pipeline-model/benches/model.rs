//! Work-item records per second through the analytical model (`cargo bench -p
//! pipeline-model --bench model`, or `scripts/bench`). Issue 4 asks for at least 50 million.
//!
//! Synthetic records (varying times and usage, as divergent kernels produce) for launches
//! of 1, 2 and 3 dimensions on every shipped architecture, and the 1D launch again with
//! two divergent arms' counters (an if/else on the work-item's parity); the median of
//! several runs. Then the sampled accesses of a work-efficient scan (two `__local`
//! accesses whose stride doubles per step, so their banks conflict): records corrected in
//! place from what the warps did, then estimated, as the shim does for such a launch.

use std::time::Instant;

use pipeline_model::{
    arch::BUILTIN_ARCHS,
    estimate,
    records::{KEPT_NARROW, SAMPLE_COUNTERS},
    sampling::{timing_records_in_place, warp_records, SampledAccess, SampledLaunch},
    Architecture, Grain, KernelResources, LaunchGeometry, RecordFormat, Records,
};

fn main() {
    // `cargo bench -p pipeline-model --bench model -- scan`: the rows whose launch names
    // hold `scan` alone.
    let only = std::env::args().skip(1).find(|a| !a.starts_with("--"));
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
            if only.as_ref().is_some_and(|o| !label.contains(o.as_str())) {
                continue;
            }
            let geometry = LaunchGeometry { global, local };
            let n = geometry.work_items() as usize;
            let format = RecordFormat::timing(r, arms);
            let mut data = Vec::with_capacity(n * format.work_item_stride());
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for i in 0..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                data.push(1000 + x % 512);
                data.extend((0..r).map(|k| (x >> (8 * k)) % 64 * scale));
                // Half the work-items spend 400 cycles in one arm, half in the other:
                // each arm's cycles, its entries, then its branch's decisions (one each).
                let entered = |a: usize| u64::from(i % arms == a);
                data.extend((0..arms).map(|a| 400 * entered(a)));
                data.extend((0..arms).map(entered));
                data.extend((0..arms).map(|_| 1));
            }
            let records = Records {
                data: &data,
                format,
                usage_scale: scale,
                grain: Grain::WorkItem,
                shared: None,
            };
            let res = resources(0);
            let median = median_secs(runs, || {
                std::hint::black_box(estimate(&arch, &geometry, &res, &records).unwrap());
            });
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
    if only.as_ref().is_none_or(|o| "scan".contains(o.as_str())) {
        sampled_scan(3 * runs);
    }
    if only
        .as_ref()
        .is_none_or(|o| "frontier".contains(o.as_str()))
    {
        kept_frontier(3 * runs);
    }
}

/// A level of `bfs_frontier`'s `expand` in warps (300032 work-items in groups of 256),
/// two lanes in five on the frontier and kept whole, in 32-bit values as the device
/// writes them where they fit: each walked its 8 edges (`col[e]`, in order) and gathered
/// from random nodes (`visited[u]` 8 times, `depth[u]` and `marked[u]` as often as
/// it found a node unvisited, 0 to 8 times); the warps measured, corrected and folded as
/// the shim's model thread does for such a launch (`warp_records`).
fn kept_frontier(runs: usize) {
    let arch = Architecture::load("gtx480").unwrap();
    let r = arch.resources().len();
    let geometry = LaunchGeometry {
        global: [300_032, 1, 1],
        local: [256, 1, 1],
    };
    let res = resources(0);
    let gather = |bytes: u32| SampledAccess {
        line: 1,
        column: 1,
        shared: false,
        local: false,
        element_bytes: bytes,
        width: bytes,
        charged_transactions: 32.0,
        charged_sectors: 32.0,
        cycles_per_transaction: 2.0,
        usage_per_transaction: (0..r).map(|k| (k % 3) as f64).collect(),
        usage_per_sector: vec![1.0; r],
        param: None,
        l1_cycles: 0.0,
        loop_lines: 0,
        loop_peers: Vec::new(),
    };
    let format = RecordFormat {
        sampled_accesses: 4,
        ..RecordFormat::timing(r, 0)
    };
    let samples: Vec<(usize, SampledAccess)> = [4, 1, 4, 1]
        .into_iter()
        .enumerate()
        .map(|(k, bytes)| (format.sample_offset(k), gather(bytes)))
        .collect();
    let layout = geometry.kept_lanes(&format, arch.warp_size);
    let mut data = vec![0u64; layout.device_words() as usize];
    let (item, group_size) = (layout.item_stride, layout.group_size);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let nodes = geometry.work_items();
    for w in 0..layout.warps {
        let warp = &mut data[w * layout.warp_stride..(w + 1) * layout.warp_stride];
        warp[0] = 47;
        warp[1] = 47;
    }
    // Each group's part after the last one's, in 32-bit values (a header of
    // `KEPT_NARROW`, two values to a word, low half first on this little-endian host).
    let usage = 200 * arch.usage_scale();
    let mut part = layout.region();
    for g in 0..layout.warps / layout.group_warps {
        data[layout.offsets().start + g] = (part - layout.region()) as u64;
        data[part] = KEPT_NARROW;
        let mut values: Vec<u32> = Vec::new();
        for lane in 0..group_size {
            if next() % 5 >= 2 {
                continue;
            }
            let w = g * layout.group_warps + lane / arch.warp_size as usize;
            data[layout.masks().start + w] |= 1 << (lane % arch.warp_size as usize);
            let v = (g * group_size + lane) as u64;
            let mut rec = vec![0u64; item];
            rec[0] = 3000 + next() % 512;
            for k in 0..r {
                rec[1 + k] = usage;
            }
            let found = next() % 9;
            let gathered = |runs: u64, next: &mut dyn FnMut() -> u64| {
                if runs == 0 {
                    (0, 0, 0)
                } else {
                    (runs, next() % nodes, next() % nodes)
                }
            };
            let counters = [
                (8, v * 8, v * 8 + 7),
                gathered(8, &mut next),
                gathered(found, &mut next),
                gathered(found, &mut next),
            ];
            for (k, (runs, first, last)) in counters.into_iter().enumerate() {
                let at = format.sample_offset(k);
                rec[at..at + SAMPLE_COUNTERS].copy_from_slice(&[runs, first, last]);
            }
            values.extend(rec.iter().map(|&x| u32::try_from(x).unwrap()));
        }
        for (i, pair) in values.chunks(2).enumerate() {
            let high = pair.get(1).map_or(0, |&h| u64::from(h) << 32);
            data[part + 1 + i] = u64::from(pair[0]) | high;
        }
        part += 1 + values.len().div_ceil(2);
    }
    let launch = sampled_launch(&arch, &geometry, &res);
    let median = median_secs(runs, || {
        std::hint::black_box(warp_records(&data, &format, &samples, &launch));
    });
    println!(
        "{:<12} {:<22} {:>12} {:>10.2} {:>14.1}   (kept lanes measured, corrected, folded)",
        "gtx480",
        "frontier 300032 / 256",
        nodes,
        median * 1e3,
        nodes as f64 / median / 1e6
    );
}

/// A scan of `groups` blocks of 256 ints by 128 work-items each: per work-item the timing
/// values, then per sampled access its executions and the first and last index (the
/// up-sweep's `temp[bi]` and the down-sweep's `temp[ai]`, strides 1 to 128).
fn scan_records(groups: u64, width: usize) -> (Vec<u64>, usize) {
    const WG: u64 = 128;
    let stride = width + 2 * SAMPLE_COUNTERS;
    let mut data = Vec::with_capacity((groups * WG) as usize * stride);
    for _ in 0..groups {
        for lid in 0..WG {
            data.push(3000 + lid % 7);
            data.extend((1..width as u64).map(|k| (k * 37 + lid) % 50 * 64));
            for down in [false, true] {
                let steps: Vec<u64> = (0..8)
                    .map(|s| 1u64 << s)
                    .filter(|d| lid < if down { *d } else { WG / d })
                    .collect();
                let index = |d: u64| {
                    let offset = if down { 2 * WG / d / 2 } else { d };
                    offset * (2 * lid + 2) - 1
                };
                match (steps.first(), steps.last()) {
                    (Some(&f), Some(&l)) => data.extend([steps.len() as u64, index(f), index(l)]),
                    _ => data.extend([0, 0, 0]),
                }
            }
        }
    }
    (data, stride)
}

fn sampled_scan(runs: usize) {
    let arch = Architecture::load("gtx480").unwrap();
    let width = arch.resources().len() + 1;
    let geometry = LaunchGeometry {
        global: [235 * 128, 1, 1],
        local: [128, 1, 1],
    };
    let res = resources(1024);
    let access = SampledAccess {
        line: 1,
        column: 1,
        shared: true,
        local: false,
        element_bytes: 4,
        width: 4,
        charged_transactions: 1.0,
        charged_sectors: 0.0,
        cycles_per_transaction: 1.548,
        usage_per_transaction: (0..width - 1).map(|r| (r % 3) as f64).collect(),
        usage_per_sector: vec![0.0; width - 1],
        param: None,
        l1_cycles: 0.0,
        loop_lines: 0,
        loop_peers: Vec::new(),
    };
    let format = RecordFormat {
        sampled_accesses: 2,
        ..RecordFormat::timing(width - 1, 0)
    };
    let samples = [
        (format.sample_offset(0), access.clone()),
        (format.sample_offset(1), access),
    ];
    let launch = sampled_launch(&arch, &geometry, &res);
    let (fresh, stride) = scan_records(235, width);
    assert_eq!(stride, format.work_item_stride());
    let n = geometry.work_items() as usize;
    let mut times: Vec<(f64, f64)> = (0..runs)
        .map(|_| {
            let mut data = fresh.clone();
            let t = Instant::now();
            let (len, measured) = timing_records_in_place(&mut data, &format, &samples, &launch);
            let corrected = t.elapsed().as_secs_f64();
            let records = Records {
                data: &data[..len],
                format: format.timing_only(),
                usage_scale: arch.usage_scale(),
                grain: Grain::WorkItem,
                shared: None,
            };
            let e = estimate(&arch, &geometry, &res, &records).unwrap();
            std::hint::black_box((e, measured));
            (corrected, t.elapsed().as_secs_f64())
        })
        .collect();
    times.sort_by(|a, b| a.1.total_cmp(&b.1));
    let (corrected, all) = times[runs / 2];
    println!(
        "{:<12} {:<22} {:>12} {:>10.2} {:>14.1}   ({:.2} ms of it correcting 2 sampled accesses)",
        "gtx480",
        "scan 30080 / 128, sampled",
        n,
        all * 1e3,
        n as f64 / all / 1e6,
        corrected * 1e3
    );
}

/// A kernel of 16 registers a work-item and `local_memory_bytes` of shared memory a
/// work-group, nothing else known.
fn resources(local_memory_bytes: u64) -> KernelResources {
    KernelResources {
        registers_per_work_item: 16,
        local_memory_bytes,
        global_memory_bytes: None,
        read_memory_bytes: None,
        code_instructions: 0,
        arm_code: pipeline_model::ArmCode::NONE,
        first_round_warp_bytes: None,
        frame_bytes: 0,
        l1_sharing: None,
    }
}

/// The median of `runs` timings of `work`, in seconds.
fn median_secs(runs: usize, mut work: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            work();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

/// A launch of `geometry` on `arch` whose buffers' sizes are unknown, as the shim's model
/// thread gets one for a kernel with sampled accesses.
fn sampled_launch<'a>(
    arch: &'a Architecture,
    geometry: &'a LaunchGeometry,
    resources: &'a KernelResources,
) -> SampledLaunch<'a> {
    SampledLaunch {
        arch,
        geometry,
        resources,
        buffer_bytes: &|_| None,
        usage_scale: arch.usage_scale(),
    }
}
