//! Global loads whose bytes an earlier load of the same work-group brought into the L1.
//!
//! `x[i]` then `x[i + 1]` (an unrolled sum, a stencil's neighbours, a struct's fields):
//! the second load's warp touches the sectors the first load's warp and its neighbour
//! warps just fetched, so the L1 serves it. GPGPU-Sim's GTX 480 shows it on the corpus's
//! `read_linear` (32 loads `input[gid + k]`, k = 0..31): 8,192 L1 accesses, 272 misses
//! (3.3%), where every load was charged a trip past the L1.
//!
//! Each address is written as an affine sum over opaque values (`affine::Affine`: kernel
//! parameters, special registers, loaded values, products of two unknowns) plus a byte
//! offset. A load is an L1 hit when an earlier global load that runs exactly as often
//! (same block, or a dominating block in the same loops) has the same opaque part, and
//! every 32-byte sector the load's warp touches is one the earlier load touched in that
//! warp or a neighbour warp along x: the lanes' addresses follow the access's stride
//! ([`Lanes::Stride`]), lane 0 at a line boundary as [`crate::analysis::access`] assumes. A uniform
//! address is an L1 hit anyway; one that is the same in the whole launch (parameters and
//! the launch's sizes only: `input[3]`) is reused at distance 0 too, which moves no bytes
//! past the L1 (the corpus's `read_single`: 32 such loads, GPGPU-Sim's L1 missed 527 of
//! 16,896). Loads the L1 never serves (`volatile`, `.cg`, `.cv`) neither reuse nor count
//! as bringing anything in.
//!
//! Assumed: the work-group holds the neighbour warp (work-groups of at least two warps
//! along x), and nothing between the two loads evicts the lines (they are a few
//! instructions apart in one pass of the code). A store between them is not looked at.

use std::collections::{HashMap, HashSet};

use pipeline_model::sampling::SECTOR;

use pipeline_model::MemLevel;

use crate::analysis::access::{global_access, LaneValues, Lanes};
use crate::analysis::affine::{Affine, AffineValues};
use crate::front::cfg::Cfg;
use crate::front::opcode::access_width;
use crate::front::ptx::{Function, Instruction};

/// Lanes in a warp.
const WARP: i64 = 32;

/// A global load the L1 may serve or fill: where it is, its address and its lanes.
struct Load {
    block: usize,
    index: usize,
    /// `None` where the address is not affine in what the analysis tracks.
    address: Option<Affine>,
    lanes: Lanes,
    width: u32,
    /// 128-byte lines it brings into the L1 for one warp.
    lines: u32,
}

/// Whether the L1 takes part in `instr`, a global load: not for `volatile` (a scope
/// beyond the work-group), `.cg` (cached in the L2 only) or `.cv` (fetched again).
fn through_l1(instr: &Instruction) -> bool {
    !instr
        .modifiers()
        .any(|m| matches!(m, "volatile" | "cg" | "cv"))
}

/// The 32-byte sectors a warp's lanes touch, `lane * stride + delta` for `width` bytes each
/// over `lanes`.
fn sectors(lanes: std::ops::Range<i64>, stride: i64, delta: i64, width: u32) -> HashSet<i64> {
    let mut out = HashSet::new();
    for lane in lanes {
        let start = lane * stride + delta;
        let end = start + i64::from(width.max(1)) - 1;
        for s in start.div_euclid(SECTOR)..=end.div_euclid(SECTOR) {
            out.insert(s);
        }
    }
    out
}

/// Whether every sector `later` touches in warp 0 is one `earlier` touched in warps -1, 0
/// or 1, where `later`'s address is `earlier`'s plus `delta` bytes.
fn covered(stride: i64, earlier_width: u32, later_width: u32, delta: i64) -> bool {
    let brought = sectors(-WARP..2 * WARP, stride, 0, earlier_width);
    sectors(0..WARP, stride, delta, later_width).is_subset(&brought)
}

/// The global loads of `f` whose sectors an earlier load of the work-group brought into
/// the L1, by (block, instruction) position, each with the 128-byte lines one warp brings
/// in between the two (its reuse distance: whether the L1 still holds them is the
/// architecture's call, `pipeline_model::Architecture::l1_keeps`).
/// `lanes` and `cfg` are `f`'s lane values and control-flow graph.
pub(crate) fn reused_loads(
    f: &Function,
    lanes: &LaneValues<'_>,
    cfg: &Cfg,
) -> HashMap<(usize, usize), u32> {
    let mut affine = AffineValues::new(f);
    let mut loads: Vec<Load> = Vec::new();
    let mut launch_wide = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            let global_load =
                matches!(instr.base(), "ld" | "ldu") && instr.modifiers().any(|m| m == "global");
            if !global_load || !through_l1(instr) {
                continue;
            }
            let Some(op) = instr.address() else {
                continue;
            };
            let lanes = lanes.operand(op);
            let width = access_width(instr);
            // What it brings into the L1 for one warp: nothing for a warp-uniform address
            // (one line for every warp of the SM).
            let lines = match lanes {
                Lanes::Uniform(_) | Lanes::Undef => 0,
                _ => global_access(lanes, width, MemLevel::L2).transactions,
            };
            let address = affine.operand(op);
            // One address for the whole launch (`input[3]`, `*count`): the first warp on
            // each SM brings it in, for all the others.
            if matches!(lanes, Lanes::Uniform(_))
                && address.as_ref().is_some_and(|a| affine.launch_constant(a))
            {
                launch_wide.push((b, i));
            }
            loads.push(Load {
                block: b,
                index: i,
                address,
                lanes,
                width,
                lines,
            });
        }
    }
    let loops_of = |b: usize| -> Vec<usize> {
        cfg.loops
            .iter()
            .filter(|l| l.body.contains(&b))
            .map(|l| l.header)
            .collect()
    };
    let mut out: HashMap<(usize, usize), u32> =
        launch_wide.into_iter().map(|pos| (pos, 0)).collect();
    for n in 0..loads.len() {
        let later = &loads[n];
        let (Lanes::Stride(stride), Some(address)) = (later.lanes, &later.address) else {
            continue;
        };
        // The nearest earlier load that brought this one's sectors, and the lines the
        // loads between brought.
        let mut between = 0u32;
        let mut found = None;
        for earlier in loads[..n].iter().rev() {
            let runs_as_often = if earlier.block == later.block {
                earlier.index < later.index
            } else {
                cfg.dominates(earlier.block, later.block)
                    && loops_of(earlier.block) == loops_of(later.block)
            };
            let brought = runs_as_often
                && earlier.lanes == later.lanes
                && earlier.address.as_ref().is_some_and(|e| {
                    e.terms == address.terms
                        && covered(
                            stride,
                            earlier.width,
                            later.width,
                            address.offset.wrapping_sub(e.offset),
                        )
                });
            if brought {
                found = Some(between);
                break;
            }
            between = between.saturating_add(earlier.lines);
        }
        if let Some(lines) = found {
            out.insert((later.block, later.index), lines);
            // A hit brings nothing in.
            loads[n].lines = 0;
        }
    }
    out
}

/// The `__constant` variable each `ld.const` of `f` reads, by (block, instruction)
/// position: the one symbol its address is affine in (a table indexed by the lanes'
/// data), where there is one.
pub fn constant_tables(f: &Function) -> HashMap<(usize, usize), String> {
    let mut affine = AffineValues::new(f);
    let mut out = HashMap::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            if instr.base() != "ld" || !instr.modifiers().any(|m| m == "const") {
                continue;
            }
            let Some(address) = instr.address().and_then(|op| affine.operand(op)) else {
                continue;
            };
            let mut symbols = address.terms.keys().filter(|a| !a.starts_with('%'));
            if let (Some(name), None) = (symbols.next(), symbols.next()) {
                out.insert((b, i), name.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::affine::{load_steps, LoadStep, MAX_DEPTH};
    use crate::front::ptx::parse;
    use std::collections::BTreeMap;

    /// `of` for each global load, in order, of a kernel with `body`: given the function and
    /// the load's (block, instruction) position.
    fn per_load<T>(body: &str, of: impl Fn(&Function, (usize, usize)) -> T) -> Vec<T> {
        let src = format!(
            ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<20>;\n.reg .f32 %f<20>;\n.reg .b64 %rd<40>;\n\
             {body}\n}}\n"
        );
        let m = parse(&src).unwrap();
        let f = &m.functions[0];
        f.blocks
            .iter()
            .enumerate()
            .flat_map(|(b, block)| block.instrs.iter().enumerate().map(move |(i, x)| (b, i, x)))
            .filter(|(_, _, x)| x.base() == "ld" && x.modifiers().any(|m| m == "global"))
            .map(|(b, i, _)| of(f, (b, i)))
            .collect()
    }

    /// Each global load's reuse distance, in order, of a kernel with `body`.
    fn reuse(body: &str) -> Vec<Option<u32>> {
        per_load(body, |f, at| {
            let lanes = crate::analysis::access::lane_values(f);
            reused_loads(f, &lanes, &Cfg::new(f)).get(&at).copied()
        })
    }

    /// `%rd5` = the global id (64 bits), `%rd1` and `%rd2` the two buffers, as clang emits
    /// them for `uint gid = get_global_id(0)`.
    const GID: &str = "ld.param.u64 %rd1, [k_param_0];\nld.param.u64 %rd2, [k_param_1];\n\
        mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %ctaid.x;\n\
        mul.wide.u32 %rd3, %r2, %r3;\ncvt.u64.u32 %rd4, %r1;\nadd.s64 %rd5, %rd3, %rd4;\n";

    /// `x[gid + k]` of the buffer in `%rd{buf}` into `%f{dst}`, as clang emits it for a
    /// 32-bit index (the add, the zero extension's mask, the scaling).
    fn load(buf: u32, k: i64, dst: u32) -> String {
        let r = 10 + 4 * dst;
        format!(
            "add.s64 %rd{r}, %rd5, {k};\nand.b64 %rd{}, %rd{r}, 4294967295;\n\
             shl.b64 %rd{}, %rd{}, 2;\nadd.s64 %rd{}, %rd{buf}, %rd{};\n\
             ld.global.f32 %f{dst}, [%rd{}];\n",
            r + 1,
            r + 2,
            r + 1,
            r + 3,
            r + 2,
            r + 3
        )
    }

    /// A loop of warp-uniform loads: a row pointer stepped by a run-time stride (the
    /// second parameter), a word pointer stepped 16 bytes, one stepped 512, the first
    /// parameter's address itself (the same every iteration), and a pointer the loop
    /// copies from another register (not followed).
    const UNIFORM_LOOP: &str = "ld.param.u64 %rd1, [k_param_0];\nld.param.u64 %rd2, [k_param_1];\n\
        mov.u32 %r1, 0;\nmov.u64 %rd3, %rd1;\nmov.u64 %rd4, %rd1;\nmov.u64 %rd6, %rd1;\n\
        mov.u64 %rd8, %rd1;\nmov.u64 %rd9, %rd1;\n\
        $L__BB0_1:\n\
        ld.global.f32 %f1, [%rd3];\nld.global.f32 %f2, [%rd4+4];\nld.global.f32 %f3, [%rd6];\n\
        ld.global.f32 %f4, [%rd1+8];\nld.global.f32 %f5, [%rd8];\n\
        add.s64 %rd3, %rd3, %rd2;\nadd.s64 %rd4, %rd4, 16;\nadd.s64 %rd6, %rd6, 512;\n\
        mov.u64 %rd8, %rd9;\nadd.s64 %rd9, %rd9, 4096;\n\
        add.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 8;\n@%p1 bra $L__BB0_1;\nret;";

    #[test]
    fn a_loop_that_steps_a_load_notes_how_far_and_a_line_or_more_moves_it() {
        // The run-time stride and the 512-byte step move a line; 16 bytes and the
        // parameter's own address do not; the copied pointer is not followed.
        let steps = per_load(UNIFORM_LOOP, |f, at| {
            load_steps(f, &Cfg::new(f)).get(&at).copied()
        });
        use LoadStep::{Bytes, Line};
        assert_eq!(steps, [Some(Line), Some(Bytes(16)), Some(Line), None, None]);
        // So the warp-uniform loads that move a line wait for the L2, the others for the
        // L1, the one moved by 16 bytes noting it (an L1 of 16-byte pieces would miss it).
        use MemLevel::{L1, L2};
        let levels = per_load(UNIFORM_LOOP, |f, (b, i)| {
            crate::analysis::access::analyze_accesses(f)[b][i].map(|a| (a.level, a.step_bytes))
        });
        assert_eq!(
            levels,
            [
                Some((L2, None)),
                Some((L1, Some(16))),
                Some((L2, None)),
                Some((L1, None)),
                Some((L1, None))
            ]
        );
    }

    #[test]
    fn a_neighbour_of_an_earlier_load_is_reused_and_a_far_one_not() {
        // x[gid], x[gid + 1], x[gid + 31], x[gid + 4096], y[gid + 1], x[gid + 2]: the
        // second and third touch this warp's and the next warp's sectors of the first; the
        // fourth is 16 KiB away, the fifth another buffer; the sixth follows the second
        // with two loads' lines between (the far one and y's).
        let body = [
            load(1, 0, 1),
            load(1, 1, 2),
            load(1, 31, 3),
            load(1, 4096, 4),
            load(2, 1, 5),
            load(1, 2, 6),
        ]
        .concat();
        assert_eq!(
            reuse(&format!("{GID}{body}")),
            [None, Some(0), Some(0), None, None, Some(2)]
        );
    }

    #[test]
    fn a_load_the_l1_never_serves_brings_nothing_in() {
        let body = [load(1, 0, 1), load(1, 1, 2)].concat().replacen(
            "ld.global.f32",
            "ld.volatile.global.f32",
            1,
        );
        assert_eq!(reuse(&format!("{GID}{body}")), [None, None]);
        let body = [load(1, 0, 1), load(1, 1, 2)].concat().replacen(
            "ld.global.f32",
            "ld.global.cg.f32",
            1,
        );
        assert_eq!(reuse(&format!("{GID}{body}")), [None, None]);
    }

    #[test]
    fn only_an_earlier_load_that_runs_as_often_counts() {
        // The first load in a loop, the second after it: the loop's last pass brought
        // other sectors, so no reuse; inside the loop a neighbour of the loop's own load
        // is reused in every pass.
        let body = format!(
            "{GID}$L__BB0_1:\n{}{}setp.lt.u64 %p1, %rd5, 100;\n@%p1 bra $L__BB0_1;\n{}ret;",
            load(1, 0, 1),
            load(1, 1, 2),
            load(1, 2, 3)
        );
        assert_eq!(reuse(&body), [None, Some(0), None]);
        // A load under a branch does not dominate the one after the join.
        let body = format!(
            "{GID}setp.lt.u64 %p1, %rd5, 100;\n@%p1 bra $L__BB0_2;\n{}$L__BB0_2:\n{}ret;",
            load(1, 0, 1),
            load(1, 1, 2)
        );
        assert_eq!(reuse(&body), [None, None]);
        // Before the branch it does.
        let body = format!(
            "{GID}{}setp.lt.u64 %p1, %rd5, 100;\n@%p1 bra $L__BB0_2;\n{}$L__BB0_2:\n{}ret;",
            load(1, 0, 1),
            load(2, 0, 2),
            load(1, 1, 3)
        );
        assert_eq!(reuse(&body), [None, None, Some(1)]);
    }

    #[test]
    fn a_neighbour_clamped_to_the_edge_reuses_what_the_unclamped_load_brought() {
        // x[max(gid - 1, 0)], x[gid], x[min(gid + 1, n - 1)] (n the third parameter), as
        // clang emits a 3-point stencil's clamped neighbours: the clamps keep the index in
        // every work-item but the edge ones, so the centre and the right neighbour read
        // the sectors the left one brought. Clamped to a per-lane value (the thread's own
        // id), the index is not followed.
        let clamped = |bound: &str| {
            format!(
                "{GID}ld.param.u32 %r9, [k_param_2];\ncvt.u32.u64 %r10, %rd5;\n\
                 add.s32 %r11, %r10, -1;\nmax.s32 %r12, %r11, 0;\n\
                 mul.wide.s32 %rd20, %r12, 4;\nadd.s64 %rd21, %rd1, %rd20;\n\
                 ld.global.f32 %f1, [%rd21];\n\
                 mul.wide.s32 %rd22, %r10, 4;\nadd.s64 %rd23, %rd1, %rd22;\n\
                 ld.global.f32 %f2, [%rd23];\n\
                 add.s32 %r13, %r10, 1;\nadd.s32 %r14, {bound}, -1;\n\
                 min.s32 %r15, %r13, %r14;\nmul.wide.s32 %rd24, %r15, 4;\n\
                 add.s64 %rd25, %rd1, %rd24;\nld.global.f32 %f3, [%rd25];\nret;"
            )
        };
        assert_eq!(reuse(&clamped("%r9")), [None, Some(0), Some(0)]);
        assert_eq!(reuse(&clamped("%r1")), [None, Some(0), None]);
    }

    #[test]
    fn an_address_the_whole_launch_shares_is_reused_and_a_per_group_one_not() {
        // x[3] (the parameter plus 12 bytes), x[ntid.x] and x[ctaid.x]: the first two are
        // the same for every work-item of the launch, the third one per work-group.
        let body = "ld.param.u64 %rd1, [k_param_0];\nld.global.f32 %f1, [%rd1+12];\n\
            mov.u32 %r1, %ntid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
            ld.global.f32 %f2, [%rd3];\nmov.u32 %r2, %ctaid.x;\nmul.wide.u32 %rd4, %r2, 4;\n\
            add.s64 %rd5, %rd1, %rd4;\nld.global.f32 %f3, [%rd5];\n\
            ld.volatile.global.f32 %f4, [%rd1+12];";
        assert_eq!(reuse(body), [Some(0), Some(0), None, None]);
    }

    #[test]
    fn the_same_address_read_again_after_a_store_is_reused() {
        // `EG(2)` read twice with a store to another buffer between (clang keeps both
        // loads: the buffers may alias).
        let body = format!(
            "{GID}{}add.s64 %rd30, %rd2, %rd3;\nst.global.f32 [%rd30], %f1;\n{}",
            load(1, 0, 1),
            load(1, 0, 2)
        );
        assert_eq!(reuse(&body), [None, Some(0)]);
    }

    #[test]
    fn a_constant_lookup_names_its_table() {
        // table[byte]: affine in the symbol `table` and the loaded byte; a lookup whose
        // address mixes two tables names none.
        let body = "ld.param.u64 %rd1, [k_param_0];\nld.global.u8 %r1, [%rd1];\n\
            cvt.u64.u32 %rd2, %r1;\nshl.b64 %rd3, %rd2, 2;\nmov.u64 %rd4, table;\n\
            add.s64 %rd5, %rd4, %rd3;\nld.const.u32 %r2, [%rd5+1024];\n\
            mov.u64 %rd6, other;\nadd.s64 %rd7, %rd5, %rd6;\nld.const.u32 %r3, [%rd7];";
        let src = format!(
            ".visible .entry k(.param .u64 k_param_0)\n{{\n.reg .b32 %r<4>;\n\
             .reg .b64 %rd<8>;\n{body}\n}}\n"
        );
        let m = parse(&src).unwrap();
        let tables = constant_tables(&m.functions[0]);
        assert_eq!(tables.len(), 1);
        assert_eq!(tables.values().next().map(String::as_str), Some("table"));
    }

    #[test]
    fn a_long_chain_of_definitions_ends_in_an_atom() {
        // p1 = p0 + 4, p2 = p1 + 4, ... 10,000 deep: the forms stay finite and the loads
        // at the chain's end still compare (both cut at the same depth).
        let mut body = String::from("ld.param.u64 %rd0, [k_param_0];\n");
        for k in 1..=10_000 {
            body.push_str(&format!("add.s64 %rd{k}, %rd{}, 4;\n", k - 1));
        }
        body.push_str("ld.global.f32 %f1, [%rd10000];\nld.global.f32 %f2, [%rd10000+4];\n");
        let src = format!(
            ".visible .entry k(.param .u64 k_param_0)\n{{\n.reg .f32 %f<3>;\n\
             .reg .b64 %rd<10001>;\n{body}\n}}\n"
        );
        let m = parse(&src).unwrap();
        let f = &m.functions[0];
        let mut values = AffineValues::new(f);
        let a = values.register("%rd10000");
        assert_eq!(a.terms.len(), 1);
        assert_eq!(a.offset, 4 * MAX_DEPTH as i64);
    }

    #[test]
    fn affine_forms_see_through_widening_scaling_and_masks() {
        let src = format!(
            ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<20>;\n.reg .f32 %f<20>;\n.reg .b64 %rd<40>;\n\
             {GID}{}\n}}\n",
            load(1, 3, 1)
        );
        let m = parse(&src).unwrap();
        let mut values = AffineValues::new(&m.functions[0]);
        // &x[gid + 3] = rd1 + 4 * (rd3 + tid.x) + 12; rd3 (a product of two unknowns) and
        // the parameter are atoms.
        let expected = Affine {
            terms: BTreeMap::from([
                ("%rd1".to_string(), 1),
                ("%rd3".to_string(), 4),
                ("%tid.x".to_string(), 4),
            ]),
            offset: 12,
        };
        assert_eq!(values.register("%rd17"), expected);
    }

    #[test]
    fn neighbours_within_a_warp_span_are_covered_and_beyond_it_not() {
        // 32 floats a warp, 128 bytes: one float further is in this warp's or the next's.
        assert!(covered(4, 4, 4, 4));
        assert!(covered(4, 4, 4, -4));
        assert!(covered(4, 4, 4, 124));
        // Two warps further: sectors nobody nearby fetched.
        assert!(!covered(4, 4, 4, 256));
        // Every other float fetched (stride 8): the odd ones sit in the same sectors.
        assert!(covered(8, 4, 4, 4));
        // Every 16th float (stride 64, one sector in two): the others are not fetched.
        assert!(!covered(64, 4, 4, 32));
        assert!(covered(64, 4, 4, 4));
    }
}
