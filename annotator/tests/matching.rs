//! Matching PTX blocks to source blocks on the example kernels, and Algorithm 2's path
//! table: what each mapped block's timing call adds, checked against the pair-time
//! formula computed here from the analysis tables.

use std::path::Path;

use annotator::analysis::blocks::{analyze_file, Analysis, FunctionAnalysis};
use annotator::front::compile::{BuildOptions, Compiler};
use annotator::front::ptx::Module;
use annotator::front::source::cfg::{build, SourceCfg};
use annotator::front::source::{parse, SourceFile};
use annotator::ids::PtxBlock;
use annotator::mapping::matching::{match_blocks, BlockMap};
use annotator::mapping::paths::{path_table, From, PathTable, To};
use pipeline_model::Architecture;

struct Matched {
    analysis: Analysis,
    source: SourceFile,
    cfgs: Vec<SourceCfg>,
    map: BlockMap,
    table: PathTable,
}

fn matched(example: &str, kernel: &str) -> Matched {
    matched_in("../examples/kernels", example, kernel)
}

/// A kernel of this crate's test kernels (tests/kernels), matched.
fn matched_test_kernel(file: &str, kernel: &str) -> Matched {
    matched_in("tests/kernels", file, kernel)
}

/// `kernel` of `file` in `dir` (relative to this crate), matched.
fn matched_in(dir: &str, file: &str, kernel: &str) -> Matched {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join(file);
    matched_at(&path, kernel)
}

fn matched_at(path: &Path, kernel: &str) -> Matched {
    matched_with(path, kernel, &BuildOptions::default())
}

fn matched_with(path: &Path, kernel: &str, options: &BuildOptions) -> Matched {
    let compiler = Compiler::locate().unwrap();
    let arch = Architecture::default_arch();
    let (analysis, module): (Analysis, Module) =
        analyze_file(&compiler, path, options, &arch).unwrap();
    let source = parse(path, options, &compiler).unwrap();
    let cfgs: Vec<SourceCfg> = source
        .functions
        .iter()
        .map(|f| build(&source, f).unwrap())
        .collect();
    let f = module.function(kernel).unwrap();
    let fa = analysis.kernels.iter().find(|k| k.name == kernel).unwrap();
    let map = match_blocks(f, fa, &source, &cfgs);
    let table = path_table(fa, &map);
    Matched {
        analysis,
        source,
        cfgs,
        map,
        table,
    }
}

impl Matched {
    fn kernel(&self) -> &FunctionAnalysis {
        self.analysis
            .kernels
            .iter()
            .find(|k| k.name == self.map.kernel)
            .expect("the matched kernel is analysed")
    }

    /// The source text of the block a PTX block maps to.
    fn mapped_text(&self, ptx: usize) -> Option<String> {
        let s = self.map.source_of(PtxBlock(ptx))?;
        let cfg = self.cfgs.iter().find(|c| c.function == s.function).unwrap();
        Some(
            cfg.block(s.block)
                .regions
                .iter()
                .map(|r| self.source.text_of(r))
                .collect::<Vec<_>>()
                .join(" | "),
        )
    }

    /// The PTX block whose instructions include `needle`-text lines... found by the
    /// mapped source text.
    fn ptx_block_mapped_to(&self, needle: &str) -> usize {
        (0..self.kernel().blocks.len())
            .find(|&b| self.mapped_text(b).is_some_and(|t| t.contains(needle)))
            .unwrap_or_else(|| panic!("no PTX block maps to `{needle}`: {:#?}", self.map))
    }

    fn t(&self, b: usize) -> u64 {
        self.kernel().blocks[b].cycles
    }

    fn pair(&self, a: usize, b: usize) -> u64 {
        self.kernel()
            .edges
            .iter()
            .find(|e| e.from == a && e.to == b)
            .unwrap()
            .cycles
    }

    /// t of a whole PTX path, by the formula of Algorithm 2.
    fn path_time(&self, path: &[usize]) -> u64 {
        let mut t = self.t(path[0]);
        for w in path.windows(2) {
            t += self.pair(w[0], w[1]) - self.t(w[0]);
        }
        t
    }

    /// The PTX blocks of the path from `from` to `to`, as indices.
    fn hop(&self, from: usize, to: To) -> Vec<usize> {
        let p = self.table.get(From::Block(PtxBlock(from)), to).unwrap();
        p.blocks.iter().map(|b| b.index()).collect()
    }

    /// What the annotated kernel's probes add where its source blocks run in `order`
    /// (block indices in the kernel's source CFG), each once: a probe charges the
    /// transition from the state to the image of its block that the table reaches from
    /// there, if any, and takes that image for the state; else it charges nothing and
    /// leaves the state. Returns the charges and the state.
    fn probes(&self, order: &[usize]) -> (u64, From) {
        let mut state = From::Start;
        let mut t = 0;
        for &s in order {
            let images = (0..self.kernel().blocks.len()).filter(|&b| {
                self.map
                    .source_of(PtxBlock(b))
                    .is_some_and(|r| r.function == self.map.kernel && r.block.index() == s)
            });
            let hit = images
                .filter_map(|b| Some((b, self.table.get(state, To::Block(PtxBlock(b)))?)))
                .next();
            if let Some((b, p)) = hit {
                t += p.cycles;
                state = From::Block(PtxBlock(b));
            }
        }
        (t, state)
    }

    /// What the timing points add along `points` (Start, the mapped blocks, Exit).
    fn charged(&self, mapped: &[usize]) -> u64 {
        let mut from = From::Start;
        let mut t = 0;
        for &m in mapped {
            t += self.table.get(from, To::Block(PtxBlock(m))).unwrap().cycles;
            from = From::Block(PtxBlock(m));
        }
        t + self.table.get(from, To::Exit).unwrap().cycles
    }
}

#[test]
fn if_else_maps_each_branch_and_charges_the_executed_path() {
    let m = matched("divergence.cl", "divergence");
    let entry = m.ptx_block_mapped_to("get_global_id");
    let then = m.ptx_block_mapped_to("sqrt(v)");
    let els = m.ptx_block_mapped_to("v * v");
    let join = m.ptx_block_mapped_to("out[i] = r");
    assert_eq!(entry, 0);
    let ks = &m.kernel().blocks;
    assert!(ks[entry].successors.contains(&then) && ks[entry].successors.contains(&els));
    // Every PTX block has a source home here.
    assert!(
        (0..ks.len()).all(|b| m.map.is_mapped(PtxBlock(b))),
        "{:#?}",
        m.map
    );
    for (branch, other) in [(then, els), (els, then)] {
        let path = [entry, branch, join];
        assert_eq!(m.charged(&path), m.path_time(&path));
        assert_ne!(m.path_time(&path), m.path_time(&[entry, other, join]));
    }
}

/// `if (lid == 0) {..} else if (lid == width - 1) {..}` after code of an inlined helper:
/// clang leaves the first condition's last instruction in a block of its own on the way
/// to the first arm, which carries the first condition's position. Every work-item runs
/// that condition in the source, so were the block mapped there, a work-item taking
/// neither arm would pass its timing point, then the second condition's, with no PTX
/// path between the two: it would be charged the first arm's path instead of its own.
#[test]
fn a_condition_s_block_on_one_arm_s_way_only_is_not_its_timing_point() {
    let m = matched_test_kernel("else_if_arms.cl", "else_if_arms");
    let ks = &m.kernel().blocks;
    let entry = 0;
    let second = m.ptx_block_mapped_to("width - 1");
    let join = m.ptx_block_mapped_to("barrier");
    let first: Vec<usize> = (0..ks.len())
        .filter(|&b| m.mapped_text(b).is_some_and(|t| t.contains("lid == 0")))
        .collect();
    // The first condition's timing point, if any, lies on every path to the second's.
    for &b in &first {
        let mut seen = vec![false; ks.len()];
        let mut stack = vec![entry];
        while let Some(x) = stack.pop() {
            if x == b || std::mem::replace(&mut seen[x], true) {
                continue;
            }
            stack.extend(ks[x].successors.iter().copied());
        }
        assert!(
            !seen[second],
            "B{second} is reached around B{b}: {:#?}",
            m.map
        );
    }
    // Neither arm: the PTX path is entry, the second condition, the join.
    assert!(ks[entry].successors.contains(&second) && ks[second].successors.contains(&join));
    let neither: Vec<usize> = [entry]
        .into_iter()
        .chain(first.iter().copied())
        .chain([second, join])
        .collect();
    assert_eq!(m.charged(&neither), m.path_time(&[entry, second, join]));
    // The first arm: its path from the entry to the join goes round the second condition
    // and costs the arm's loads, more than taking neither.
    let arm: Vec<usize> = [entry]
        .into_iter()
        .chain(m.hop(entry, To::Block(PtxBlock(join))))
        .collect();
    assert!(!arm.contains(&second), "{arm:?}");
    assert!(m.path_time(&arm) > m.path_time(&[entry, second, join]) + 100);
}

/// `int j = get_global_id(1) + 1;` used only under `if (i < nx - 1)`: the compiler computes
/// it in the arm, whose PTX block then votes for the statements before the `if` too.
/// Taken for control flow the compiler made inside those statements, the arm's loads
/// were charged as its cheapest path (none of them): every work-item was charged the
/// path that skips the arm.
#[test]
fn an_arm_holding_code_sunk_into_it_is_the_arm_s() {
    let m = matched_test_kernel("sunk_into_arm.cl", "sunk_into_arm");
    let ks = &m.kernel().blocks;
    let entry = 0;
    let arm = m.ptx_block_mapped_to("b[AT(i, j, k)]");
    assert!(ks[entry].successors.contains(&arm), "{:#?}", m.map);
    assert!(m.map.blocks[arm].within.is_none());
    // The arm's work-items are charged its loads; the others the path around it.
    let mut taken = vec![entry, arm];
    taken.extend(m.hop(arm, To::Exit));
    assert_eq!(m.charged(&[entry, arm]), m.path_time(&taken));
    let mut skipped = vec![entry];
    skipped.extend(m.hop(entry, To::Exit));
    assert!(!skipped.contains(&arm));
    assert_eq!(m.charged(&[entry]), m.path_time(&skipped));
    assert!(m.charged(&[entry, arm]) > m.charged(&[entry]) + 1000);
}

/// A loop the compiler knows runs (`for (int q = 0; q < 16; q++) histogram[q] = 0;`, kept a
/// loop as the annotator's fallback compile keeps loops) is entered unguarded, so its body
/// dominates the code after it in the PTX, though not in the source; that holds too where
/// the loop lies in another (SHOC sort's `bottom_scan`: a histogram cleared at the top of
/// every pass of a `while`), whose next pass the code after it runs on into. The code
/// after the clearing loop keeps its timing points: before, the `if` after it and every
/// block after that were unmapped, and the loop of the last statement was not counted.
#[test]
fn code_after_a_loop_entered_unguarded_inside_another_loop_stays_mapped() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../validation/gpgpusim/corpus/shoc/sort.cl");
    let options = BuildOptions {
        keep_loops: true,
        ..BuildOptions::default()
    };
    let m = matched_with(&path, "bottom_scan", &options);
    let clear = m.ptx_block_mapped_to("histogram[q] = 0");
    // The clearing loop is a PTX loop: its block charges its next iteration.
    assert!(m
        .table
        .get(From::Block(PtxBlock(clear)), To::Block(PtxBlock(clear)))
        .is_some());
    // The `if (i < block_stop)` after the clearing loop, its arm, the scan of each digit
    // (the inlined `scanLocalMem`'s steps: the code of the statement calling it follows
    // them, and is charged on the paths from them) and the final loop adding the counts.
    for after in [
        "i < block_stop",
        "val_4 = in4[i]",
        "t = lmem[idx -  i]",
        "l_block_counts[q] += histogram[q]",
    ] {
        let b = m.ptx_block_mapped_to(after);
        assert!(b > clear, "`{after}` maps before the clearing loop");
    }
}

/// `if (c >= weight && prev[c - weight] + value > keep)`: the `&&`'s second operand loads
/// in a block of its own, which runs on some paths only; mapped to the operand (no mapped
/// code follows under it), the work-items that evaluate it are charged its load, where
/// before it was taken for control flow inside the statement before and never charged.
#[test]
fn an_operand_s_block_that_leads_nothing_maps_to_the_operand() {
    let m = matched_in("../examples/hosts/kernels/corpus", "dp.cl", "knapsack_row");
    let first = m.ptx_block_mapped_to("int keep = prev[c]");
    // The operand's block is the one whose source is the operand alone (the `if`'s
    // statement holds the whole condition).
    let operand = (0..m.kernel().blocks.len())
        .find(|&b| m.mapped_text(b).as_deref() == Some("prev[c - weight] + value > keep"))
        .unwrap_or_else(|| panic!("the operand is no timing point: {:#?}", m.map));
    let store = m.ptx_block_mapped_to("next[c] = keep");
    let entry = 0;
    let taken = [entry, first, operand, store];
    let skipped = [entry, first, store];
    assert_eq!(m.charged(&taken), m.path_time(&taken));
    assert_eq!(m.charged(&skipped), m.path_time(&skipped));
    // Its load overlaps the first one's (both leave before either is used), so it adds
    // less than its own time, but it adds.
    assert!(m.charged(&taken) > m.charged(&skipped));
}

#[test]
fn inlined_helper_and_early_returns() {
    let m = matched("helper_early_return.cl", "helper_early_return");
    let entry = m.ptx_block_mapped_to("get_global_id");
    let negative = m.ptx_block_mapped_to("x < 0.0f");
    let helper = m.ptx_block_mapped_to("clamp");
    assert_eq!(
        m.map.source_of(PtxBlock(helper)).unwrap().function,
        "smoothstep01",
        "the inlined helper's block maps into the helper"
    );
    // The early return: from the entry straight to the exit, through the unmapped
    // return block; its time is the PTX path's.
    let mut path = vec![entry];
    path.extend(m.hop(entry, To::Exit));
    assert_eq!(m.charged(&[entry]), m.path_time(&path));
    // x < 0: entry, the test, then out through the merged store.
    let mut path = vec![entry, negative];
    path.extend(m.hop(negative, To::Exit));
    assert_eq!(m.charged(&[entry, negative]), m.path_time(&path));
    // The helper path: its store and return are unmapped too (merged with the other).
    let mut path = vec![entry, negative, helper];
    path.extend(m.hop(helper, To::Exit));
    assert!(path.len() > 3);
    assert_eq!(m.charged(&[entry, negative, helper]), m.path_time(&path));
}

#[test]
fn rotated_loop_body_maps_to_the_body_not_the_unrolled_inner_loop() {
    let m = matched("matmul_tiled.cl", "matmul_tiled");
    let k = m.kernel();
    // The PTX loop (the tile loop; the k loop is fully unrolled into its body).
    assert_eq!(k.loops.len(), 1);
    let body = k.loops[0].header;
    let text = m.mapped_text(body).unwrap();
    assert!(text.contains("As[ty][tx] = A["), "{text}");
    // Entry and exit.
    assert_eq!(m.ptx_block_mapped_to("get_local_id(0)"), 0);
    let exit = m.ptx_block_mapped_to("C[row * n + col]");
    // n / TILE iterations: entry, (body)^iterations, exit; charged = the PTX path.
    for iterations in 1..4 {
        let mut points = vec![0];
        points.extend(std::iter::repeat_n(body, iterations));
        points.push(exit);
        let mut path = vec![0];
        for (i, &p) in points.iter().enumerate().skip(1) {
            path.extend(m.hop(points[i - 1], To::Block(PtxBlock(p))));
        }
        assert_eq!(path.iter().filter(|&&b| b == body).count(), iterations);
        assert_eq!(m.charged(&points), m.path_time(&path));
    }
}

#[test]
fn straight_line_kernel_costs_exactly_t_b() {
    let m = matched("float4_vectors.cl", "scale_offset4");
    assert_eq!(m.kernel().blocks.len(), 1);
    assert!(m.map.is_mapped(PtxBlock(0)));
    assert_eq!(m.charged(&[0]), m.t(0));
}

/// SHOC sort's `top_scan`: `FPTYPE res = scanLocalMem(val, lmem, 1);` starts a source
/// block whose probe the annotated kernel passes before the call, so before the inlined
/// scan's own probes, while its PTX (the `if` after the call) all follows the scan. Were
/// that block a timing point, the probes would pass the timing points in another order
/// than the PTX (every other pass of the digit loop charged the scan, the others the code
/// between: the launch 45% below GPGPU-Sim). Taken in the order the annotated kernel passes
/// them, the timing points of one pass each follow the last on a PTX path, and the pass
/// adds that path's time, the code after the call included.
#[test]
fn code_after_a_call_of_a_timed_helper_is_charged_after_the_helper() {
    let m = matched_in("../validation/gpgpusim/corpus/shoc", "sort.cl", "top_scan");
    let ks = &m.kernel().blocks;
    let images = |text: &dyn Fn(&str) -> bool| -> Vec<usize> {
        (0..ks.len())
            .filter(|&b| m.mapped_text(b).is_some_and(|t| text(&t)))
            .collect()
    };
    let one = |needle: &str| {
        let found = images(&|t| t.contains(needle));
        assert_eq!(found.len(), 1, "`{needle}`: {:#?}", m.map);
        found[0]
    };
    let pass = one("FPTYPE val = 0");
    let load = one("val = isums");
    let scan = one("lmem[idx] = 0");
    let step = one("t = lmem[idx -  i]");
    let store = one("= res + s_seed");
    let last_thread = one("| last_thread");
    let next = images(&|t| t == "barrier(CLK_LOCAL_MEM_FENCE)");
    assert_eq!(next.len(), 1, "{:#?}", m.map);
    // A work-item that loads, scans in two steps and stores, as the annotated kernel
    // passes its probes: the call's block (if it had a timing point) before the scan's.
    let mut points = vec![pass, load];
    points.extend(images(&|t| t.contains("scanLocalMem(val, lmem, 1)")));
    points.extend([scan, step, step, store, last_thread, next[0], pass]);
    let mut charged = 0;
    let mut path = vec![pass];
    for w in points.windows(2) {
        let hop = m
            .table
            .get(From::Block(PtxBlock(w[0])), To::Block(PtxBlock(w[1])))
            .unwrap_or_else(|| panic!("no PTX path B{} -> B{}: {:#?}", w[0], w[1], m.map));
        charged += hop.cycles;
        path.extend(m.hop(w[0], To::Block(PtxBlock(w[1]))));
    }
    assert_eq!(charged, m.path_time(&path) - m.t(pass));
    // The code after the call lies between the scan's last step and the store, once.
    let after = m.hop(step, To::Block(PtxBlock(store)));
    assert_eq!(after.len(), 2, "{after:?}");
    assert!(!m.map.is_mapped(PtxBlock(after[0])));
    assert_eq!(path.iter().filter(|&&b| b == after[0]).count(), 1);
}

/// Parboil's `histo_prescan`: `avg /= count;` after a `while` has two images, the loop's
/// exit block and the join of the exit with the path that skips the loop. The block's
/// probe runs once: mapped twice, the state reached the exit block's image and never the
/// join's, from which every later transition left, so a work-item that ran the loop was
/// charged nothing after it. As the probes run, the loop's path and the path around it
/// each add their PTX path's time.
#[test]
fn a_block_with_two_images_on_one_path_is_charged_on_every_path() {
    let m = matched_in(
        "../validation/gpgpusim/corpus/parboil",
        "histo_prescan.cl",
        "histo_prescan_kernel",
    );
    let ks = &m.kernel().blocks;
    let block_of = |needle: &str| {
        let b = m.ptx_block_mapped_to(needle);
        m.map.source_of(PtxBlock(b)).unwrap().block.index()
    };
    let (entry, loop1, after1) = (
        block_of("__local float Avg"),
        block_of("avg += input[addr]"),
        block_of("avg /= count"),
    );
    let (loop2, after2) = (block_of("stddev += "), block_of("stddev /= count"));
    let first = m.ptx_block_mapped_to("avg += input[addr]");
    let second = m.ptx_block_mapped_to("stddev += ");
    let last = m.ptx_block_mapped_to("stddev /= count");
    // The PTX paths of a work-item that runs each loop once and of one that runs
    // neither: the shortest ways from the entry through the loops' blocks to `last`.
    let route = |from: usize, to: usize| {
        let mut came = vec![usize::MAX; ks.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(b) = queue.pop_front() {
            for &s in &ks[b].successors {
                if came[s] == usize::MAX && s != from {
                    came[s] = b;
                    queue.push_back(s);
                }
            }
        }
        let mut path = vec![to];
        while *path.last().unwrap() != from {
            path.push(came[*path.last().unwrap()]);
        }
        path.reverse();
        path
    };
    let walk = |through: &[usize]| {
        let mut path = vec![0];
        for &w in through.iter().chain([&last]) {
            path.extend(route(*path.last().unwrap(), w).into_iter().skip(1));
        }
        path
    };
    let once = walk(&[first, second]);
    assert_eq!(
        once.iter().filter(|&&b| b == first || b == second).count(),
        2
    );
    let (t, state) = m.probes(&[entry, loop1, after1, loop2, after2]);
    assert_eq!(state, From::Block(PtxBlock(last)), "{:#?}", m.map);
    assert_eq!(t, m.path_time(&once), "{once:?}: {:#?}", m.map);
    let neither = walk(&[]);
    assert!(!neither.contains(&first) && !neither.contains(&second));
    let (t, state) = m.probes(&[entry, after1, after2]);
    assert_eq!(state, From::Block(PtxBlock(last)));
    assert_eq!(t, m.path_time(&neither), "{neither:?}");
}
