//! The static analysis of a compiled program: per kernel, every PTX basic block's source
//! lines, best-case time t_B and resource usage use(r, B), and the time t_(Bi,Bj) of every
//! CFG edge. [`Analysis`] is also the `--json` output: its schema is documented in
//! `docs/analysis-json.md` and versioned by [`SCHEMA`].

use std::collections::BTreeSet;
use std::path::Path;

use pipeline_model::arch::MemorySystem;
use pipeline_model::l1_sharing::L1Sharing;
use pipeline_model::sampling::LINE;
use pipeline_model::{
    block_timing, pair_cycles, schedule, Architecture, Instr, MemLevel, OpClass, Stage,
};
use serde::{Deserialize, Serialize};

use crate::analysis::classify::{classify_function, narrow_classes, ClassifiedFunction};
use crate::front::cfg::{Cfg, NaturalLoop};
use crate::front::compile::{BuildOptions, CompileError, Compiler};
use crate::front::opcode::callee;
use crate::front::ptx::{self, Function, FunctionKind, Module};
use crate::ids::PtxBlock;

/// The version tag of the JSON schema; bumped on any incompatible change.
pub const SCHEMA: &str = "srcsim.analysis/1";

/// Why a kernel file could not be analyzed.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// clang did not produce PTX.
    #[error(transparent)]
    Compile(#[from] CompileError),
    /// The PTX could not be read (a bug or a construct the parser does not know).
    #[error("{path}: cannot read the PTX clang produced: {source}")]
    Ptx {
        /// The kernel file.
        path: String,
        /// Where in the PTX.
        source: ptx::ParseError,
    },
}

/// The analysis of one OpenCL C file on one architecture.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Analysis {
    /// [`SCHEMA`].
    pub schema: String,
    /// srcsim's version.
    pub tool_version: String,
    /// The kernel file as given.
    pub source: String,
    /// The architecture analyzed for.
    pub arch: ArchSummary,
    /// Resource names; every `usage` array is indexed like this.
    pub resources: Vec<String>,
    /// Kernels, in the order of the PTX.
    pub kernels: Vec<FunctionAnalysis>,
    /// Device functions the kernels call that were not inlined.
    pub functions: Vec<FunctionAnalysis>,
    /// Compiler warnings and instructions the model does not know.
    pub warnings: Vec<Warning>,
}

/// The architecture in a few fields.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ArchSummary {
    /// Name.
    pub name: String,
    /// Core clock in MHz.
    pub clock_mhz: f64,
    /// SM count.
    pub sm_count: u32,
    /// PTX target compiled for.
    pub ptx_target: String,
}

/// A kernel or device function.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FunctionAnalysis {
    /// Its name.
    pub name: String,
    /// `kernel` or `function`.
    pub kind: FunctionKind,
    /// PTX parameters as declared.
    pub params: Vec<String>,
    /// Estimated 32-bit registers per work-item: the peak register pressure of the PTX.
    pub registers: u32,
    /// Static local (shared) memory per work-group in bytes: the `.shared` variables the
    /// function and its callees use (local-memory kernel arguments come at launch).
    pub shared_memory_bytes: u64,
    /// Bytes of each work-item's private frame the compiler keeps in memory (its `.local`
    /// variables: a private array indexed at run time, spilled registers).
    #[serde(default)]
    pub frame_bytes: u64,
    /// Basic blocks; `id` is the index, block 0 the entry.
    pub blocks: Vec<BlockAnalysis>,
    /// Every CFG edge with its pair time.
    pub edges: Vec<EdgeAnalysis>,
    /// Natural loops.
    pub loops: Vec<NaturalLoop>,
    /// Functions called (not inlined).
    pub calls: Vec<String>,
    /// The parameters (by position) it loads from: what must be in the L2 for a launch
    /// to find its data there ([`crate::analysis::reads`]). `None` when unknown.
    #[serde(default)]
    pub read_params: Option<Vec<u32>>,
    /// A kernel of one block: its cycles and usage in each class of warps sharing an L1
    /// (`pipeline_model::l1_sharing`), where any class costs otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l1_sharing: Option<L1Sharing>,
}

impl FunctionAnalysis {
    /// Its PTX instructions, every block's (what an instruction cache fetches).
    pub fn code_instructions(&self) -> u64 {
        self.blocks.iter().map(|b| b.instructions as u64).sum()
    }

    /// Bytes past the L1 a warp's first round of global loads asks for, as `memory`
    /// fetches them ([`MemorySystem::fetched_bytes`]): the loads of the first block, in
    /// PTX order, that loads from past the L1 (a streaming loop's first iteration; both
    /// loads of a vector add), up to the first instruction that waits for one of the
    /// block's loads (`sum += in[i + k]` unrolled: one load a round). `None` where no load
    /// goes past it.
    pub fn first_round_warp_bytes(&self, memory: &MemorySystem) -> Option<u64> {
        let past_l1 = |a: &&AccessCharge| {
            a.space == "global"
                && a.opcode.starts_with("ld")
                && a.level.as_deref() != Some("L1")
                && a.before_first_use
        };
        let block = self
            .blocks
            .iter()
            .find(|b| b.memory.iter().any(|a| past_l1(&a)))?;
        Some(
            block
                .memory
                .iter()
                .filter(past_l1)
                .map(|a| memory.fetched_bytes(a.transactions, a.sectors))
                .sum(),
        )
    }

    /// The analysis of PTX block `b` (the mapping's id of it; inside the analysis a block
    /// is its `usize` index in `blocks`).
    pub fn block(&self, b: PtxBlock) -> &BlockAnalysis {
        &self.blocks[b.index()]
    }

    /// t_(a,b): the pair time of the edge a -> b, or `t_a + t_b` (no overlap) where there
    /// is no such edge.
    pub fn pair_cycles(&self, a: PtxBlock, b: PtxBlock) -> u64 {
        let (a, b) = (a.index(), b.index());
        self.edges
            .iter()
            .find(|e| e.from == a && e.to == b)
            .map_or(self.blocks[a].cycles + self.blocks[b].cycles, |e| e.cycles)
    }
}

/// One PTX basic block.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BlockAnalysis {
    /// Index in the function (`B<id>` in tables).
    pub id: usize,
    /// The PTX label that starts it, if any.
    pub label: Option<String>,
    /// The source lines its instructions came from (line 0, compiler-made code, excluded).
    pub lines: Vec<SourceLine>,
    /// Number of PTX instructions.
    pub instructions: usize,
    /// t_B: best-case cycles of one warp alone on the SM.
    pub cycles: u64,
    /// use(r, B) in cycles, indexed like [`Analysis::resources`].
    pub usage: Vec<f64>,
    /// use(r, B) in each narrow width class (`pipeline_model::rows`, classes 1 to 5:
    /// work-groups 16 to 1 wide, whose warps span several rows), where any differs from
    /// `usage`; empty where none does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub narrow_usage: Vec<Vec<f64>>,
    /// Successor blocks.
    pub successors: Vec<usize>,
    /// Immediate dominator (none for the entry and unreachable blocks).
    pub idom: Option<usize>,
    /// Number of loops containing it.
    pub loop_depth: usize,
    /// The PTX lines of its first and last instruction.
    pub ptx_lines: Option<(u32, u32)>,
    /// What each of its global and shared accesses is charged ([`crate::analysis::access`]).
    #[serde(default)]
    pub memory: Vec<AccessCharge>,
}

/// How one memory instruction is charged: its level and the warp's lines, sectors or
/// bank-conflict passes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccessCharge {
    /// The source line (0: none).
    pub line: u32,
    /// The PTX instruction, e.g. `ld.global.f32`.
    pub opcode: String,
    /// `global` or `shared`.
    pub space: String,
    /// The level a global access is charged at (`L1`, `L2`, `DRAM`); none for shared.
    pub level: Option<String>,
    /// Passes through the memory pipeline: 128-byte lines (global) or the bank-conflict
    /// degree (shared).
    pub transactions: u32,
    /// 32-byte sectors the warp's access moves (global; 0 for shared).
    pub sectors: u32,
    /// Its load-to-use latency in cycles, as the block timing charges it.
    pub latency: u32,
    /// Whether a warp issues it before the first instruction of its block that reads what
    /// an earlier global load of the block brought: issue is in order, so the loads after
    /// that instruction leave only once the first ones are back.
    #[serde(default)]
    pub before_first_use: bool,
}

/// A source line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SourceLine {
    /// File path as recorded in the PTX line table.
    pub file: String,
    /// 1-based line.
    pub line: u32,
}

/// A CFG edge and its pair time.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EdgeAnalysis {
    /// Source block.
    pub from: usize,
    /// Target block.
    pub to: usize,
    /// t_(from,to): `from`'s instructions followed by `to`'s.
    pub cycles: u64,
    /// Whether it closes a loop.
    pub back_edge: bool,
}

/// Something the user should know: a compiler warning or an instruction the model treats
/// as "other".
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Warning {
    /// The function, if the warning is about one.
    pub function: Option<String>,
    /// The PTX line, if any.
    pub ptx_line: Option<u32>,
    /// The source line, if known.
    pub source: Option<SourceLine>,
    /// The message.
    pub message: String,
}

/// The model's view of one function: per block, the classified instructions.
pub struct ModelFunction {
    /// Per block, its instructions for the pipeline model.
    pub blocks: Vec<Vec<Instr>>,
    /// Unknown opcodes.
    pub warnings: Vec<Warning>,
}

/// Classifies every instruction of `f`.
pub fn model_function(module: &Module, f: &Function) -> ModelFunction {
    model_from(module, f, classify_function(f))
}

fn model_from(module: &Module, f: &Function, classified: ClassifiedFunction) -> ModelFunction {
    let mut warnings = Vec::new();
    // The size of the `__constant` table each divergent constant load reads, as its
    // lines less one (`MemAccess::reuse_lines` of a constant access).
    let tables = crate::analysis::reuse::constant_tables(f);
    let table_lines = |name: &str| {
        module
            .variables
            .iter()
            .find(|v| v.space == ".const" && v.name == name && v.bytes > 0)
            .map(|v| u32::try_from(v.bytes.div_ceil(LINE as u64) - 1).unwrap_or(u32::MAX))
    };
    let blocks = f
        .blocks
        .iter()
        .zip(classified.blocks)
        .enumerate()
        .map(|(bi, (b, instrs))| {
            b.instrs
                .iter()
                .zip(instrs)
                .enumerate()
                .map(|(ii, (i, mut c))| {
                    if let Some(access) = c.instr.access.as_mut() {
                        if access.level == MemLevel::Constant {
                            access.reuse_lines =
                                tables.get(&(bi, ii)).and_then(|name| table_lines(name));
                        }
                    }
                    if !c.known {
                        warnings.push(Warning {
                            function: Some(f.name.clone()),
                            ptx_line: Some(i.ptx_line),
                            source: source_line(module, i),
                            message: format!("unknown opcode `{}`: timed as `other`", i.opcode),
                        });
                    }
                    c.instr
                })
                .collect()
        })
        .collect();
    ModelFunction { blocks, warnings }
}

fn source_line(module: &Module, i: &ptx::Instruction) -> Option<SourceLine> {
    let loc = i.loc.as_ref()?;
    (loc.line != 0).then(|| SourceLine {
        file: module.file(loc.file).unwrap_or("?").to_string(),
        line: loc.line,
    })
}

/// Analyzes every kernel of `module` (and the functions they call) on `arch`.
pub fn analyze_module(module: &Module, arch: &Architecture, source: &str) -> Analysis {
    let mut analysis = Analysis {
        schema: SCHEMA.to_string(),
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        source: source.to_string(),
        arch: ArchSummary {
            name: arch.name.clone(),
            clock_mhz: arch.clock_mhz,
            sm_count: arch.sm_count,
            ptx_target: arch.compile.ptx_target.clone(),
        },
        resources: arch.resources(),
        kernels: Vec::new(),
        functions: Vec::new(),
        warnings: Vec::new(),
    };
    let mut called: Vec<String> = Vec::new();
    for f in module.kernels() {
        let fa = analyze_function(module, f, arch, &mut analysis.warnings);
        called.extend(fa.calls.iter().cloned());
        analysis.kernels.push(fa);
    }
    // Called functions, transitively, each once.
    let mut i = 0;
    while i < called.len() {
        let name = called[i].clone();
        i += 1;
        if analysis.functions.iter().any(|f| f.name == name) {
            continue;
        }
        if let Some(f) = module.function(&name) {
            let fa = analyze_function(module, f, arch, &mut analysis.warnings);
            called.extend(fa.calls.iter().cloned());
            analysis.functions.push(fa);
        }
    }
    analysis
}

/// Per instruction of a block, whether a warp issues it before the block's first
/// instruction that reads a register an earlier global load of the block wrote, in the
/// order `arch` issues them ([`pipeline_model::issue_order`]: PTX's on GPGPU-Sim, a
/// backend compiler's, which hoists loads, on the H100 and A100): issue is in order and
/// stalls there until that load is back.
fn issued_before_first_use(arch: &Architecture, instrs: &[Instr]) -> Vec<bool> {
    let mut loaded: Vec<pipeline_model::Reg> = Vec::new();
    let mut waiting = false;
    let mut before = vec![false; instrs.len()];
    for at in pipeline_model::issue_order(arch, instrs) {
        let i = &instrs[at];
        waiting = waiting || i.reads.iter().any(|r| loaded.contains(r));
        if i.class == OpClass::GlobalMem {
            loaded.extend(&i.writes);
        }
        before[at] = !waiting;
    }
    before
}

fn analyze_function(
    module: &Module,
    f: &Function,
    arch: &Architecture,
    warnings: &mut Vec<Warning>,
) -> FunctionAnalysis {
    let classified = classify_function(f);
    let registers = crate::analysis::registers::register_pressure(f, &classified);
    // `f` as the model sees it in each narrow width class, where any costs otherwise.
    let narrow: Vec<ModelFunction> = narrow_classes(f, &classified)
        .into_iter()
        .map(|c| model_from(module, f, c))
        .collect();
    let model = model_from(module, f, classified);
    warnings.extend(model.warnings);
    let cfg = Cfg::new(f);
    let blocks: Vec<BlockAnalysis> = f
        .blocks
        .iter()
        .zip(&model.blocks)
        .enumerate()
        .map(|(id, (block, instrs))| {
            let timing = block_timing(arch, instrs);
            let narrow_usage: Vec<Vec<f64>> = narrow
                .iter()
                .map(|m| block_timing(arch, &m.blocks[id]).usage.0)
                .collect();
            let alike = narrow_usage.iter().all(|u| *u == timing.usage.0);
            let lines: BTreeSet<SourceLine> = block
                .instrs
                .iter()
                .filter_map(|i| source_line(module, i))
                .collect();
            BlockAnalysis {
                id,
                label: block.label.clone(),
                lines: lines.into_iter().collect(),
                instructions: block.instrs.len(),
                cycles: timing.cycles,
                usage: timing.usage.0,
                narrow_usage: if alike { Vec::new() } else { narrow_usage },
                successors: block.successors.clone(),
                idom: cfg.immediate_dominator(id).filter(|&d| d != id),
                loop_depth: cfg.loop_depth(id),
                ptx_lines: block
                    .instrs
                    .first()
                    .zip(block.instrs.last())
                    .map(|(a, b)| (a.ptx_line, b.ptx_line)),
                memory: block
                    .instrs
                    .iter()
                    .zip(instrs)
                    .zip(issued_before_first_use(arch, instrs))
                    .filter_map(|((p, i), before_first_use)| {
                        let access = i.access?;
                        let shared = i.class == OpClass::SharedMem;
                        let space = match i.class {
                            OpClass::SharedMem => "shared",
                            OpClass::Mem if access.level == MemLevel::Constant => "constant",
                            OpClass::Mem => "local",
                            _ => "global",
                        };
                        Some(AccessCharge {
                            line: source_line(module, p).map_or(0, |l| l.line),
                            opcode: p.opcode.clone(),
                            space: space.to_string(),
                            level: (!shared)
                                .then(|| arch.serving_level(&access).name().to_string()),
                            transactions: access.transactions,
                            sectors: access.sectors,
                            latency: arch.describe_instr(i).latency,
                            before_first_use,
                        })
                    })
                    .collect(),
            }
        })
        .collect();
    // A loop whose iterations run more code than the instruction cache keeps fetches it
    // again each further iteration: its back edges wait for the lines, each an L2 trip
    // (the first run left them there).
    let refetch = |latch: usize, header: usize| {
        let cache = arch.icache.as_ref()?;
        let lp = cfg.loops.iter().find(|l| l.header == header)?;
        let code = iteration_code(&blocks, &cfg, lp, latch)?;
        Some(cache.refetch_cycles(code, arch.memory.l2_hit))
    };
    let edges = cfg
        .edges()
        .into_iter()
        .map(|(from, to)| {
            let back_edge = cfg.is_back_edge(from, to);
            let again = if back_edge {
                refetch(from, to).unwrap_or(0)
            } else {
                0
            };
            EdgeAnalysis {
                from,
                to,
                cycles: pair_cycles(arch, &model.blocks[from], &model.blocks[to]) + again,
                back_edge,
            }
        })
        .collect();
    let mut calls: Vec<String> = f
        .blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .filter_map(|i| callee(i).map(String::from))
        .collect();
    calls.sort();
    calls.dedup();
    FunctionAnalysis {
        name: f.name.clone(),
        kind: f.kind,
        params: f.params.clone(),
        registers,
        shared_memory_bytes: shared_memory_bytes(module, f),
        frame_bytes: f.frame_bytes(),
        blocks,
        edges,
        loops: cfg.loops.clone(),
        calls,
        read_params: crate::analysis::reads::read_arguments(f),
        // Where every work-item runs all of a kernel's code once, the model can move its
        // time to the launch's sharers of the L1 (a called function's is its caller's).
        l1_sharing: match model.blocks.as_slice() {
            [only] if f.kind == FunctionKind::Kernel => L1Sharing::of(arch, only),
            _ => None,
        },
    }
}

/// The fewest PTX instructions an iteration of loop `lp` that returns through `latch`
/// runs: the lightest path from its header to the latch inside its body, each block its
/// instructions, back edges left out (an inner loop counts once). Not the body's code: a
/// loop holding libclc's `sin` keeps its slow argument reduction, which few iterations run.
fn iteration_code(
    blocks: &[BlockAnalysis],
    cfg: &Cfg,
    lp: &NaturalLoop,
    latch: usize,
) -> Option<u64> {
    use std::cmp::Reverse;
    use std::collections::{BTreeMap, BinaryHeap};
    let inside: BTreeSet<usize> = lp.body.iter().copied().collect();
    let mut best: BTreeMap<usize, u64> = BTreeMap::new();
    let mut heap = BinaryHeap::from([Reverse((blocks[lp.header].instructions as u64, lp.header))]);
    while let Some(Reverse((code, b))) = heap.pop() {
        if best.contains_key(&b) {
            continue;
        }
        best.insert(b, code);
        if b == latch {
            return Some(code);
        }
        for &s in &blocks[b].successors {
            if inside.contains(&s) && !cfg.is_back_edge(b, s) && !best.contains_key(&s) {
                heap.push(Reverse((code + blocks[s].instructions as u64, s)));
            }
        }
    }
    None
}

/// The bytes of the `.shared` variables that `f` and the functions it calls name.
fn shared_memory_bytes(module: &Module, f: &Function) -> u64 {
    let mut used: BTreeSet<&str> = BTreeSet::new();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut todo = vec![f];
    while let Some(g) = todo.pop() {
        if !seen.insert(g.name.as_str()) {
            continue;
        }
        for i in g.blocks.iter().flat_map(|b| &b.instrs) {
            for sym in i.operands.iter().flat_map(|o| o.symbols()) {
                if i.base() == "call" {
                    todo.extend(module.function(sym));
                }
                used.insert(sym);
            }
        }
    }
    let in_bodies = seen
        .iter()
        .filter_map(|name| module.function(name))
        .flat_map(|g| &g.locals);
    module
        .variables
        .iter()
        .chain(in_bodies)
        .filter(|v| v.space == ".shared" && used.contains(v.name.as_str()))
        .map(|v| v.bytes)
        .sum()
}

/// Compiles `path` for `arch`, parses the PTX and analyzes it. Also returns the module,
/// for views that show instructions.
pub fn analyze_file(
    compiler: &Compiler,
    path: &Path,
    options: &BuildOptions,
    arch: &Architecture,
) -> Result<(Analysis, Module), AnalyzeError> {
    let ptx = compile_ptx(compiler, path, options, arch)?;
    let analysis = analyze_ptx(&ptx, arch, &path.display().to_string());
    Ok((analysis, ptx.module))
}

/// The front end's half of [`analyze_file`]: the file compiled for `arch`'s PTX target and
/// parsed, with what clang warned of.
pub fn compile_ptx(
    compiler: &Compiler,
    path: &Path,
    options: &BuildOptions,
    arch: &Architecture,
) -> Result<CompiledPtx, AnalyzeError> {
    let compiled = compiler.compile(path, options, &arch.compile.ptx_target)?;
    let module = ptx::parse(&compiled.ptx).map_err(|source| AnalyzeError::Ptx {
        path: path.display().to_string(),
        source,
    })?;
    Ok(CompiledPtx {
        module,
        warnings: compiled.warnings,
    })
}

/// A kernel file's PTX, parsed, and clang's messages compiling it.
pub struct CompiledPtx {
    /// The parsed PTX.
    pub module: Module,
    /// What clang wrote to its error stream (its warnings among other lines).
    pub warnings: String,
}

/// The analysis's half of [`analyze_file`]: the module's block timings, clang's warnings
/// first among the analysis's.
pub fn analyze_ptx(ptx: &CompiledPtx, arch: &Architecture, source: &str) -> Analysis {
    let mut analysis = analyze_module(&ptx.module, arch, source);
    let clang_warnings: Vec<Warning> = ptx
        .warnings
        .lines()
        .filter(|l| l.contains("warning:"))
        .map(|l| Warning {
            function: None,
            ptx_line: None,
            source: None,
            message: l.to_string(),
        })
        .collect();
    analysis.warnings.splice(0..0, clang_warnings);
    analysis
}

/// One row of a block's timeline: an instruction and the start of each stage.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TimelineRow {
    /// The instruction as PTX text.
    pub text: String,
    /// Its PTX line.
    pub ptx_line: u32,
    /// Its source line (0 if none).
    pub line: u32,
    /// Start cycle of IF, IS, OC, EX, WB.
    pub starts: [u64; 5],
}

/// The pipeline execution graph of one block, scheduled.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Timeline {
    /// The function.
    pub function: String,
    /// The block.
    pub block: usize,
    /// t_B.
    pub cycles: u64,
    /// One row per instruction.
    pub rows: Vec<TimelineRow>,
}

/// The schedule of block `block` of `f`, instruction by instruction.
pub fn timeline(module: &Module, f: &Function, block: usize, arch: &Architecture) -> Timeline {
    let model = model_function(module, f);
    let s = schedule(arch, &model.blocks[block]);
    let rows = f.blocks[block]
        .instrs
        .iter()
        .enumerate()
        .map(|(i, instr)| TimelineRow {
            text: instr.to_string(),
            ptx_line: instr.ptx_line,
            line: instr.loc.as_ref().map_or(0, |l| l.line),
            starts: Stage::ALL.map(|st| s.start(i, st)),
        })
        .collect();
    Timeline {
        function: f.name.clone(),
        block,
        cycles: s.length,
        rows,
    }
}

/// Source lines as compact ranges (`5-7, 9`), files other than `main` named.
pub fn format_lines(lines: &[SourceLine], main: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut j = i;
        while j + 1 < lines.len()
            && lines[j + 1].file == lines[i].file
            && lines[j + 1].line == lines[j].line + 1
        {
            j += 1;
        }
        let prefix = if same_file(&lines[i].file, main) {
            String::new()
        } else {
            let name = Path::new(&lines[i].file)
                .file_name()
                .map_or(lines[i].file.clone(), |n| n.to_string_lossy().into_owned());
            format!("{name}:")
        };
        out.push(if i == j {
            format!("{prefix}{}", lines[i].line)
        } else {
            format!("{prefix}{}-{}", lines[i].line, lines[j].line)
        });
        i = j + 1;
    }
    out.join(", ")
}

/// Whether two spellings of a path name the same file.
pub fn same_file(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = r#"
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_param_0)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .f32 %f<4>;
    .loc 1 3 5
    mov.u32 %r1, %tid.x;
    setp.gt.u32 %p1, %r1, 7;
    @%p1 bra $L__BB0_2;
    .loc 1 4 9
    frobnicate.sync.b32 %r2, %r1;
    add.f32 %f1, %f2, %f3;
$L__BB0_2:
    .loc 1 6 1
    ret;
}
.file 1 "/src/k.cl"
"#;

    #[test]
    fn unknown_opcodes_are_timed_as_other_with_a_warning() {
        let module = ptx::parse(PTX).unwrap();
        let arch = Architecture::default_arch();
        let a = analyze_module(&module, &arch, "k.cl");
        assert_eq!(a.warnings.len(), 1);
        let w = &a.warnings[0];
        assert_eq!(w.function.as_deref(), Some("k"));
        assert_eq!(w.ptx_line, Some(15));
        assert_eq!(
            w.source,
            Some(SourceLine {
                file: "/src/k.cl".into(),
                line: 4
            })
        );
        assert!(w.message.contains("frobnicate.sync.b32"), "{}", w.message);
        // The block is still timed: the unknown instruction costs what `other` costs.
        let k = &a.kernels[0];
        assert_eq!(k.blocks.len(), 3);
        assert_eq!(k.blocks[1].instructions, 2);
        assert!(k.blocks[1].cycles > 0);
        assert_eq!(k.blocks[1].lines.len(), 1);
        assert_eq!(k.edges.len(), 3);
    }

    #[test]
    fn line_ranges_are_compact() {
        let l = |file: &str, line| SourceLine {
            file: file.into(),
            line,
        };
        let lines = [
            l("a.cl", 3),
            l("a.cl", 4),
            l("a.cl", 5),
            l("a.cl", 9),
            l("/inc/h.h", 2),
        ];
        assert_eq!(format_lines(&lines, "a.cl"), "3-5, 9, h.h:2");
    }
}
