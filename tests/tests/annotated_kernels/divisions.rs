//! 64-bit divisions and remainders, which become diamonds in the PTX: computed the same,
//! and charged the cheaper arm.

use super::*;

/// The host example's histogram: its 64-bit division `((long)(v - lo) * NBINS) / width`
/// becomes a diamond in the PTX (both operands in 32 bits: `div.u32`, else `div.s64`)
/// inside the data loop. Annotated, it computes exactly what it computed, with its local
/// and global atomics, and every work-item writes its record.
#[test]
fn histogram_with_a_64_bit_division_in_its_loop_computes_the_same() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hosts/kernels/histogram.cl");
    let source = std::fs::read_to_string(&path).unwrap();
    let compiler = Compiler::locate().unwrap();
    let a = annotate_file(
        &compiler,
        &path,
        &BuildOptions::default(),
        &Architecture::default_arch(),
    )
    .unwrap_or_else(|e| panic!("histogram.cl: {e}"));
    let n = 5000usize;
    let data: Vec<i32> = (0..n as i32)
        .map(|i| (i.wrapping_mul(7919) % 2600) - 300)
        .collect();
    let both = run_source_both(
        "histogram.cl",
        &source,
        "histogram",
        vec![
            KernelArg::from_slice(&data),
            KernelArg::scalar(n as i32),
            KernelArg::scalar(-200i32),
            KernelArg::scalar(2000i32),
            KernelArg::zeroed::<i32>(64),
            KernelArg::zeroed::<i32>(1),
            KernelArg::from_slice(&[i32::MAX, i32::MIN]),
        ],
        NdRange::d1(256).with_local([64, 1, 1]),
        &a,
    );
    // The original's results are right, so the comparison above means something.
    let bins = kernel_runner::from_bytes::<i32>(&both.original[1]).unwrap();
    let inside = data.iter().filter(|&&v| (-200..2000).contains(&v)).count();
    assert_eq!(bins.iter().sum::<i32>() as usize, inside);
    let outside = kernel_runner::from_bytes::<i32>(&both.original[2]).unwrap();
    assert_eq!(outside[0] as usize, n - inside);
}

/// 64-bit `/` and `%`, signed and unsigned, in a grid-stride loop (not unrolled: its step
/// is not known): each becomes a diamond in the loop (a test whether both operands fit in
/// 32 bits, then the 32-bit or the 64-bit instruction, then a join). The source cannot
/// know which arm ran, so every iteration is charged the cheaper arm. The expected time of
/// each work-item walks its PTX path, from the analysis tables: entry to the loop header,
/// its iterations through the cheaper arm, and out to the exit.
#[test]
fn sixty_four_bit_division_and_remainder_in_a_loop_charge_the_cheaper_arm() {
    let src: String = [
        ("sdiv", "long", "/"),
        ("udiv", "ulong", "/"),
        ("srem", "long", "%"),
        ("urem", "ulong", "%"),
    ]
    .iter()
    .map(|(name, t, op)| {
        format!(
            "__kernel void {name}(__global const {t} *a, __global {t} *out, const {t} d, const int n, const int stride)\n{{\n    {t} acc = 0;\n    for (int i = get_global_id(0); i < n; i += stride)\n        acc += a[i] {op} d;\n    out[get_global_id(0)] = acc;\n}}\n"
        )
    })
    .collect();
    let (a, analysis, _) = annotate_source("div64.cl", &src);
    let n = 300usize;
    let stride = 64usize;
    let items = 128usize;
    for name in ["sdiv", "udiv", "srem", "urem"] {
        let k = analysis.kernels.iter().find(|k| k.name == name).unwrap();
        // Operands that fit in 32 bits and operands that do not, negative ones too.
        let data: Vec<i64> = (0..n as i64)
            .map(|i| if i % 3 == 0 { -(i << 35) - 7 } else { i * 977 })
            .collect();
        let both = run_source_both(
            name,
            &src,
            name,
            vec![
                KernelArg::from_slice(&data),
                KernelArg::zeroed::<i64>(items),
                KernelArg::scalar(if name.starts_with('s') { -13i64 } else { 13 }),
                KernelArg::scalar(n as i32),
                KernelArg::scalar(stride as i32),
            ],
            NdRange::d1(items).with_local([64, 1, 1]),
            &a,
        );
        let [l] = &k.loops[..] else {
            panic!("{name}: one PTX loop expected: {:?}", k.loops)
        };
        let (header, latch) = (l.header, l.latches[0]);
        // The two ways through one iteration: header, one arm, the join (the latch).
        let arms: Vec<Vec<usize>> = k.blocks[header]
            .successors
            .iter()
            .filter(|&&s| l.body.contains(&s))
            .map(|&arm| {
                let mut p = vec![header, arm];
                while *p.last().unwrap() != latch {
                    let [next] = k.blocks[*p.last().unwrap()].successors[..] else {
                        panic!("{name}: arm B{arm} branches again")
                    };
                    p.push(next);
                }
                p
            })
            .collect();
        assert_eq!(arms.len(), 2, "{name}: a diamond: {arms:?}");
        let (t0, t1) = (path_time(k, &arms[0]), path_time(k, &arms[1]));
        assert_ne!(
            t0, t1,
            "{name}: the arms cost the same; the test would not see a mix-up"
        );
        let cheaper = if t0 < t1 { &arms[0] } else { &arms[1] };
        let exit = k
            .blocks
            .iter()
            .position(|b| b.successors.is_empty())
            .unwrap();
        let outside = |b: &usize| !l.body.contains(b);
        // Entry to header: the blocks outside the loop on the way (a preheader).
        let to_header = |from: usize| -> Vec<usize> {
            let mut p = vec![from];
            while *p.last().unwrap() != header {
                let last = *p.last().unwrap();
                let next = k.blocks[last]
                    .successors
                    .iter()
                    .copied()
                    .find(|s| *s == header || (outside(s) && *s != exit))
                    .unwrap();
                p.push(next);
            }
            p
        };
        for w in 0..items {
            let iterations = (w..n).step_by(stride).count();
            let path = if iterations == 0 {
                let direct = k.blocks[0].successors.contains(&exit);
                assert!(
                    direct,
                    "{name}: the entry skips the loop straight to the exit"
                );
                vec![0, exit]
            } else {
                let mut p = to_header(0);
                for i in 0..iterations {
                    p.extend(&cheaper[1..]);
                    if i + 1 < iterations {
                        p.push(header);
                    }
                }
                // Out of the latch, through blocks outside the loop, to the exit.
                while *p.last().unwrap() != exit {
                    let last = *p.last().unwrap();
                    let next = k.blocks[last]
                        .successors
                        .iter()
                        .copied()
                        .find(outside)
                        .unwrap();
                    p.push(next);
                }
                p
            };
            assert_eq!(
                both.t(w),
                path_time(k, &path),
                "{name}: work-item {w}, {iterations} iterations"
            );
        }
    }
}

/// A loop of 64-bit remainders with a run-time trip count: the compiler unrolls it 4
/// times and a remainder loop, and every copy is a diamond. The annotator counts it as an
/// unrolled loop whose factor is the number of `rem.u64` per iteration of the unrolled
/// loop (one per copy's diamond), and the annotated kernel computes the same.
#[test]
fn unrolled_loop_of_64_bit_remainders_is_counted() {
    let src = "__kernel void urem_sum(__global const ulong *a, __global const int *counts, __global ulong *out, const ulong d)\n{\n    int n = counts[get_global_id(0)];\n    ulong acc = 0;\n    for (int i = 0; i < n; i++)\n        acc += a[i] % d;\n    out[get_global_id(0)] = acc;\n}\n";
    let (a, analysis, module) = annotate_source("urem_sum.cl", src);
    let k = &analysis.kernels[0];
    let f = module.function("urem_sum").unwrap();
    let rems = |l: &annotator::front::cfg::NaturalLoop| {
        l.body
            .iter()
            .flat_map(|&b| &f.blocks[b].instrs)
            .filter(|i| i.opcode == "rem.u64")
            .count()
    };
    let mut per_loop: Vec<usize> = k.loops.iter().map(rems).filter(|&n| n > 0).collect();
    per_loop.sort_unstable();
    let [rem, main] = per_loop[..] else {
        panic!("{:?}", k.loops)
    };
    let shape = a.sidecar.kernels[0].unrolled[0].shape.expect("counted");
    assert_eq!(shape.factor as usize, main / rem);
    assert_eq!(shape.factor, 4);
    let items = 64;
    let counts: Vec<i32> = (0..items as i32).map(|i| i % 11).collect();
    let data: Vec<u64> = (0..16u64).map(|i| (i << 33) + i * 12345).collect();
    run_source_both(
        "urem_sum.cl",
        src,
        "urem_sum",
        vec![
            KernelArg::from_slice(&data),
            KernelArg::from_slice(&counts),
            KernelArg::zeroed::<u64>(items),
            KernelArg::scalar(1000u64),
        ],
        NdRange::d1(items).with_local([32, 1, 1]),
        &a,
    );
}
