//! The example kernels through the real compile path: they analyze without warnings on
//! every shipped architecture, every block's source lines are the lines that produced its
//! instructions, the pair times respect their bounds, and the paper's microbenchmark
//! is latency-bound as it should be.

use std::path::{Path, PathBuf};

use annotator::analysis::blocks::{analyze_file, analyze_module, model_function, Analysis};
use annotator::front::compile::{BuildOptions, Compiler};
use annotator::front::ptx::{Function, Module};
use pipeline_model::{arch::BUILTIN_ARCHS, Architecture, ExecutionGraph, Instr};

fn examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "examples missing in {}", dir.display());
    files
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/kernels")
        .join(name)
}

fn analyze(path: &Path, arch: &Architecture) -> (Analysis, Module) {
    let compiler = Compiler::locate().expect("clang 19 and libclc (scripts/install-deps)");
    analyze_file(&compiler, path, &BuildOptions::default(), arch)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The 1-based numbers of the lines of `src` that hold code (not blank, not comments).
fn code_lines(src: &str) -> Vec<u32> {
    src.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with("//")
        })
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

fn line_of(src: &str, needle: &str) -> u32 {
    src.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` not in source")) as u32
        + 1
}

#[test]
fn examples_analyze_without_warnings_on_every_architecture() {
    for name in BUILTIN_ARCHS {
        let arch = Architecture::load(name).unwrap();
        for path in examples() {
            let (a, _) = analyze(&path, &arch);
            assert!(
                a.warnings.is_empty(),
                "{}: {:?}",
                path.display(),
                a.warnings
            );
            assert!(!a.kernels.is_empty(), "{}: no kernel", path.display());
            for k in &a.kernels {
                assert!(k.blocks.iter().all(|b| b.usage.len() == a.resources.len()));
            }
        }
    }
}

/// An independent check that each instruction's line is the one that produced it: the
/// distinctive instructions must stand on lines that spell what they do.
#[test]
fn block_lines_are_the_lines_that_produced_them() {
    let arch = Architecture::default_arch();
    for path in examples() {
        let src = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = src.lines().collect();
        let code = code_lines(&src);
        let (a, module) = analyze(&path, &arch);
        for k in &a.kernels {
            let f = module.function(&k.name).unwrap();
            for (b, block) in k.blocks.iter().zip(&f.blocks) {
                for l in &b.lines {
                    assert!(
                        annotator::analysis::blocks::same_file(&l.file, path.to_str().unwrap()),
                        "{}: B{} has a line of another file {}",
                        k.name,
                        b.id,
                        l.file
                    );
                    assert!(
                        code.contains(&l.line),
                        "{}: B{} claims line {}, which holds no code",
                        k.name,
                        b.id,
                        l.line
                    );
                }
                for i in &block.instrs {
                    let Some(loc) = i.loc.as_ref().filter(|l| l.line > 0) else {
                        continue;
                    };
                    let text = lines[loc.line as usize - 1];
                    let expect: &[&str] = match i.base() {
                        "atom" | "red" => &["atomic_"],
                        "bar" | "barrier" => &["barrier"],
                        "div" => &["/", "DIV"],
                        "sqrt" => &["sqrt"],
                        "ld" | "st"
                            if i.opcode.contains("global") || i.opcode.contains("shared") =>
                        {
                            &["[", "*"]
                        }
                        _ => continue,
                    };
                    assert!(
                        expect.iter().any(|e| text.contains(e)),
                        "{}: `{i}` attributed to line {} `{}`",
                        path.display(),
                        loc.line,
                        text.trim()
                    );
                }
                // A block's lines are exactly the lines of its instructions.
                let mut own: Vec<u32> = block
                    .instrs
                    .iter()
                    .filter_map(|i| i.loc.as_ref().map(|l| l.line).filter(|&l| l > 0))
                    .collect();
                own.sort_unstable();
                own.dedup();
                let reported: Vec<u32> = b.lines.iter().map(|l| l.line).collect();
                assert_eq!(own, reported, "{} B{}", k.name, b.id);
            }
        }
    }
}

#[test]
fn the_division_chain_block_is_latency_bound() {
    let arch = Architecture::default_arch();
    let path = example("div_chain.cl");
    let src = std::fs::read_to_string(&path).unwrap();
    let (a, module) = analyze(&path, &arch);
    let k = &a.kernels[0];
    let f = module.function("div_chain").unwrap();
    let (id, _) = f
        .blocks
        .iter()
        .enumerate()
        .find(|(_, b)| b.instrs.iter().filter(|i| i.opcode == "div.rn.f32").count() == 30)
        .expect("one block holds all 30 divisions");
    let block = &k.blocks[id];
    // 30 dependent divisions of latency 39 cannot take less than 30 x 39 cycles.
    assert!(block.cycles >= 30 * 39, "t_B = {}", block.cycles);
    // The SFU is held 4 cycles per division (one copy).
    let sfu = a.resources.iter().position(|r| r == "SFU").unwrap();
    assert_eq!(block.usage[sfu], 120.0);
    // It is the loop body, and it came from the three DIV10 lines (and the loop's own line).
    assert!(k.loops.iter().any(|l| l.body.contains(&id)));
    let divs: Vec<u32> = src
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "DIV10(x);")
        .map(|(i, _)| i as u32 + 1)
        .collect();
    assert_eq!(divs.len(), 3);
    let lines: Vec<u32> = block.lines.iter().map(|l| l.line).collect();
    assert!(divs.iter().all(|d| lines.contains(d)), "{lines:?}");
    let loop_line = line_of(&src, "for (int i = 0");
    assert!(
        lines.iter().all(|l| divs.contains(l) || *l == loop_line),
        "{lines:?}"
    );
}

#[test]
fn divergent_branches_are_separate_blocks() {
    let arch = Architecture::default_arch();
    let path = example("divergence.cl");
    let src = std::fs::read_to_string(&path).unwrap();
    let (a, _) = analyze(&path, &arch);
    let k = &a.kernels[0];
    let then_line = line_of(&src, "sqrt(v)");
    let else_line = line_of(&src, "r = w /");
    let holding = |line: u32| -> Vec<usize> {
        k.blocks
            .iter()
            .filter(|b| b.lines.iter().any(|l| l.line == line))
            .map(|b| b.id)
            .collect()
    };
    let (t, e) = (holding(then_line), holding(else_line));
    assert_eq!(t.len(), 1, "{t:?}");
    assert_eq!(e.len(), 1, "{e:?}");
    assert_ne!(t, e);
    // Both branches leave the condition's block and meet again.
    let cond = &k.blocks[0];
    assert!(cond.successors.contains(&t[0]) && cond.successors.contains(&e[0]));
    let join = k.blocks[t[0]].successors[0];
    assert_eq!(k.blocks[e[0]].successors, [join]);
}

#[test]
fn inlined_helper_keeps_its_own_lines() {
    let arch = Architecture::default_arch();
    let path = example("helper_early_return.cl");
    let src = std::fs::read_to_string(&path).unwrap();
    let (a, _) = analyze(&path, &arch);
    let k = a
        .kernels
        .iter()
        .find(|k| k.name == "helper_early_return")
        .unwrap();
    let helper_line = line_of(&src, "float t = clamp");
    assert!(k
        .blocks
        .iter()
        .any(|b| b.lines.iter().any(|l| l.line == helper_line)));
    // The early return leaves the entry block for the exit directly.
    let exit = k.blocks.iter().find(|b| b.successors.is_empty()).unwrap();
    assert!(k.blocks[0].successors.contains(&exit.id));
    // The helper was inlined: no call, and the uncalled copy is not listed.
    assert!(k.calls.is_empty());
    assert!(a.functions.is_empty());
}

fn edge_bounds_hold(module: &Module, f: &Function, arch: &Architecture, a: &Analysis) {
    let k = a.kernels.iter().find(|k| k.name == f.name).unwrap();
    let model = model_function(module, f);
    assert!(!k.edges.is_empty() || k.blocks.len() == 1);
    for e in &k.edges {
        let (ti, tj) = (k.blocks[e.from].cycles, k.blocks[e.to].cycles);
        let both: Vec<Instr> = model.blocks[e.from]
            .iter()
            .chain(&model.blocks[e.to])
            .cloned()
            .collect();
        let l = u64::from(
            ExecutionGraph::build(arch, &both).max_crossing_latency(model.blocks[e.from].len()),
        );
        assert!(ti.max(tj) <= e.cycles, "{} B{}->B{}", f.name, e.from, e.to);
        assert!(
            e.cycles <= ti + tj + l,
            "{} B{}->B{}: {} > {ti} + {tj} + {l}",
            f.name,
            e.from,
            e.to,
            e.cycles
        );
    }
}

#[test]
fn pair_times_are_bounded_on_every_edge_of_every_example() {
    for name in BUILTIN_ARCHS {
        let arch = Architecture::load(name).unwrap();
        for path in examples() {
            let (a, module) = analyze(&path, &arch);
            for f in module.kernels() {
                edge_bounds_hold(&module, f, &arch, &a);
            }
        }
    }
}

#[test]
fn analysis_is_deterministic_and_serialisable() {
    let arch = Architecture::load("hopper_h100").unwrap();
    let path = example("matmul_tiled.cl");
    let (a, module) = analyze(&path, &arch);
    let again = analyze_module(&module, &arch, &a.source);
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json, serde_json::to_value(&again).unwrap());
    assert_eq!(json["schema"], annotator::analysis::blocks::SCHEMA);
    assert_eq!(json["arch"]["ptx_target"], "sm_90");
    assert_eq!(json["resources"][0], "issue");
    // The tiled multiply: the tile loop and, inside it, the k loop.
    let k = &a.kernels[0];
    assert!(!k.loops.is_empty(), "{:?}", k.loops);
}

#[test]
fn build_options_reach_the_compiler() {
    let arch = Architecture::default_arch();
    let compiler = Compiler::locate().unwrap();
    let path = example("matmul_tiled.cl");
    let small = BuildOptions::parse("-D TILE=4");
    let (_, m4) = analyze_file(&compiler, &path, &small, &arch).unwrap();
    let (_, m16) = analyze_file(&compiler, &path, &BuildOptions::default(), &arch).unwrap();
    // The k loop is unrolled completely: one multiply-add per k, so TILE of them per tile.
    let fmas = |m: &Module| {
        m.function("matmul_tiled")
            .unwrap()
            .blocks
            .iter()
            .flat_map(|b| &b.instrs)
            .filter(|i| i.base() == "fma")
            .count()
    };
    assert_eq!(fmas(&m4), 4);
    assert_eq!(fmas(&m16), 16);
}

#[test]
fn compile_errors_carry_clangs_diagnostics() {
    let dir = std::env::temp_dir().join(format!("srcsim-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.cl");
    std::fs::write(
        &bad,
        "__kernel void k(__global int *a)\n{\n    a[0] = undefined_name;\n}\n",
    )
    .unwrap();
    let compiler = Compiler::locate().unwrap();
    let err = analyze_file(
        &compiler,
        &bad,
        &BuildOptions::default(),
        &Architecture::default_arch(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("bad.cl:3:12: error:"), "{err}");
    assert!(err.contains("undefined_name"), "{err}");
}

#[test]
fn calls_and_local_depots_are_followed() {
    let arch = Architecture::default_arch();
    let path = example("private_array_call.cl");
    let (a, module) = analyze(&path, &arch);
    let k = &a.kernels[0];
    assert_eq!(k.calls, ["horner"]);
    // The called function is analyzed too, with its loop (unrolled by 4 at -O3: the
    // unrolled loop and its remainder loop).
    assert_eq!(a.functions.len(), 1);
    let f = &a.functions[0];
    assert_eq!(f.name, "horner");
    assert_eq!(f.loops.len(), 2, "{:?}", f.loops);
    // The private array is a local depot of the kernel, accessed with ld.local.
    let kf = module.function("private_array_call").unwrap();
    assert!(kf
        .locals
        .iter()
        .any(|l| l.name.starts_with("__local_depot")));
    assert!(kf
        .blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .any(|i| i.opcode.starts_with("ld.local")));
}

#[test]
fn static_local_memory_is_counted_per_kernel() {
    let arch = Architecture::default_arch();
    // Two TILE x TILE float tiles.
    let (a, _) = analyze(&example("matmul_tiled.cl"), &arch);
    assert_eq!(a.kernels[0].shared_memory_bytes, 2 * 16 * 16 * 4);
    let compiler = Compiler::locate().unwrap();
    let (a, _) = analyze_file(
        &compiler,
        &example("matmul_tiled.cl"),
        &BuildOptions::parse("-DTILE=8"),
        &arch,
    )
    .unwrap();
    assert_eq!(a.kernels[0].shared_memory_bytes, 2 * 8 * 8 * 4);
    // 64 uint bins.
    let (a, _) = analyze(&example("atomics.cl"), &arch);
    assert_eq!(a.kernels[0].shared_memory_bytes, 64 * 4);
    // No __local at all.
    let (a, _) = analyze(&example("vector_add.cl"), &arch);
    assert_eq!(a.kernels[0].shared_memory_bytes, 0);
    assert!(a.kernels[0].registers > 0);
}
