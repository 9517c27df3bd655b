//! The sidecar written beside an annotated file: what the annotated program's records
//! hold (their layout, [`crate::back::records`]), how each kernel was annotated (block map,
//! path table, unrolled loops, divergent arms, its copy that reduces records to warps),
//! the static analysis, and the kernels refused. The runtime reads it to decode the
//! records.

use serde::{Deserialize, Serialize};

use crate::analysis::blocks::{Analysis, FunctionAnalysis};
use crate::front::opcode::{demangled_name, is_image_access};
use crate::front::source::ParamKind;
use crate::ids::PtxBlock;
use crate::mapping::matching::BlockMap;
use crate::mapping::paths::PathTable;
use crate::mapping::unroll::UnrolledLoop;

pub use crate::back::records::{
    BlockTotals, KernelSample, LineAmount, LineShare, LineWeight, ProfileLayout, ProfiledBlock,
    RecordLayout, SampleLayout,
};

/// The version tag of the sidecar's JSON schema.
pub const SIDECAR_SCHEMA: &str = "srcsim.annotation/1";

/// One annotated kernel.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AnnotatedKernel {
    /// Its name.
    pub name: String,
    /// The index of the appended records argument (the original argument count).
    pub records_arg: usize,
    /// What each original argument is (from the source): the shim sums the sizes of the
    /// buffers bound to `buffer` arguments as the launch's global-memory footprint.
    #[serde(default)]
    pub params: Vec<ParamKind>,
    /// PTX blocks to source blocks.
    pub block_map: BlockMap,
    /// What each timing point adds.
    pub paths: PathTable,
    /// Loops the compiler unrolled, counted and charged when left.
    pub unrolled: Vec<UnrolledLoop>,
    /// Per PTX block, the divergent arm whose counter its charges also go to
    /// ([`crate::analysis::divergence`]); empty for called functions.
    #[serde(default)]
    pub arms: crate::analysis::divergence::BlockArms,
    /// How those arms nest and pair, which says when a path enters one and which
    /// branch's decisions it counts ([`crate::analysis::divergence::ArmTree`]).
    #[serde(default)]
    pub arm_tree: crate::analysis::divergence::ArmTree,
    /// Whether the annotated file has a copy of the kernel that reduces its records to
    /// warps (`pipeline_model::Grain::Warp`), [`AnnotatedKernel::warp_kernel`]: it takes
    /// two more arguments after the records, a `__local` buffer of
    /// [`RecordLayout::timing_width`] `ulong`s per work-item of a work-group and the warp
    /// size (`uint`), and writes one record of `timing_width + 2` values per warp (the
    /// launch's work-groups must be whole).
    #[serde(default)]
    pub warp_records: bool,
    /// What decides the paths its work-items take, and so its records, besides the
    /// launch's geometry ([`crate::analysis::control`]): the values of these arguments alone
    /// (positions among the original arguments), or `None` where memory may (the kernel
    /// reads data that decides a branch, has sampled accesses, or the analysis cannot
    /// tell). Two launches with the same geometry and these same values leave the same
    /// records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_inputs: Option<Vec<u32>>,
    /// Whether its annotated kernel keeps the record's values in the record as it runs,
    /// not in private memory (a kernel with a barrier: `codegen`'s module `records`): it
    /// then runs about as fast as its copy that reduces to warps.
    #[serde(default)]
    pub values_in_record: bool,
    /// Where its copy keeps paths and the host can evaluate them: the kernel's skeleton
    /// ([`crate::back::host_paths`]), from which a launch's warp records are computed without
    /// running the copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_paths: Option<crate::back::host_paths::HostPaths>,
    /// Whether its work-items cannot tell work-groups apart: neither it nor a function it
    /// calls asks for its local or group ids or sizes, waits at a barrier, calls a
    /// work-group, sub-group, asynchronous-copy or atomic function, `printf`, or a function
    /// whose body is in an included file, or has `__local` memory, and the file asks for
    /// no work-group size ([`crate::front::source::SourceFile::tells_groups_apart`]). Its annotated kernel then writes the
    /// same records (and computes the same results, for a program free of data races) in
    /// work-groups of any size that divides the launch, so the shim may run it in
    /// work-groups whose compiled code PoCL already has.
    #[serde(default)]
    pub group_free: bool,
}

impl AnnotatedKernel {
    /// The name of the copy that reduces the records to warps, where there is one.
    pub fn warp_kernel(&self) -> Option<String> {
        self.warp_records
            .then(|| crate::back::codegen::warp_kernel_name(&self.name))
    }

    /// Its divergent arms' code ([`pipeline_model::ArmCode`]), of the kernel's
    /// `analysis`: per arm counter the PTX instructions of the blocks charged to it, and the
    /// arms nested in it. An arm none of whose blocks, nor those of the arms it holds, is a
    /// timing point counts no entries: its code is given as 0, never taken for unrun.
    pub fn arm_code(&self, analysis: &FunctionAnalysis) -> pipeline_model::ArmCode {
        let mut code = pipeline_model::ArmCode::default();
        let arms = code.instructions.len();
        for (a, holds) in code.holds.iter_mut().enumerate() {
            *holds = 1 << a;
        }
        // Each arm into the `holds` of every arm above it.
        for a in 0..arms {
            let mut up = self.arm_tree.parent.get(a).copied().flatten();
            while let Some(p) = up.filter(|&p| p < arms) {
                code.holds[p] |= 1 << a;
                up = self.arm_tree.parent.get(p).copied().flatten();
            }
        }
        let mut timed = 0u32;
        for (b, block) in analysis.blocks.iter().enumerate() {
            let Some(a) = self.arms.of(PtxBlock(b)).filter(|&a| a < arms) else {
                continue;
            };
            code.instructions[a] += block.instructions as u64;
            if self.block_map.is_mapped(PtxBlock(b)) {
                timed |= 1 << a;
            }
        }
        for (n, holds) in code.instructions.iter_mut().zip(&code.holds) {
            if timed & holds == 0 {
                *n = 0;
            }
        }
        code
    }
}

/// The sidecar written beside the annotated file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sidecar {
    /// [`SIDECAR_SCHEMA`].
    pub schema: String,
    /// The original file.
    pub source: String,
    /// The records' layout.
    pub records: RecordLayout,
    /// The annotated kernels.
    pub kernels: Vec<AnnotatedKernel>,
    /// Functions the kernels call (not inlined), timed as units of their own
    /// (`records_arg` is meaningless for them).
    pub called_functions: Vec<AnnotatedKernel>,
    /// The static analysis (architecture, blocks, edges, timing tables).
    pub analysis: Analysis,
    /// Why the file was timed as compiled without loop unrolling, if it was: the compiler
    /// unrolled a loop into a shape the annotator cannot count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_without_unrolling: Option<String>,
    /// Why the file was timed as compiled at `-O1`, if it was: clang crashed on it at
    /// `-O3` (its message).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_with_less_optimisation: Option<String>,
    /// Kernels the annotator refused, left out of the annotated file: they run as the
    /// original program has them, unsimulated, for the reason given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<RefusedKernel>,
}

impl Sidecar {
    /// What a report must say of how `kernel` was timed, where that is not the usual way:
    /// compiled without loop unrolling, or loops whose iterations are not counted (no
    /// block of theirs has a home in the source: each pass is charged as one).
    pub fn timing_note(&self, kernel: &str) -> Option<String> {
        let mut notes: Vec<String> = self
            .timed_with_less_optimisation
            .iter()
            .chain(&self.timed_without_unrolling)
            .cloned()
            .collect();
        let analysis = self.analysis.kernels.iter().find(|k| k.name == kernel);
        let uncounted = self
            .kernels
            .iter()
            .find(|k| k.name == kernel)
            .map_or(&[][..], |k| &k.paths.uncounted_loops[..]);
        for &header in uncounted {
            let lines = analysis
                .and_then(|a| a.blocks.get(header.index()))
                .map(|b| {
                    let mut l: Vec<String> = b.lines.iter().map(|l| l.line.to_string()).collect();
                    l.dedup();
                    l.join(", ")
                })
                .filter(|l| !l.is_empty())
                .unwrap_or_else(|| "no source line".to_string());
            notes.push(format!(
                "the compiled loop at PTX block B{header} (line {lines}) has no block matched \
                 to the source: its iterations are not counted (its time is charged at most once: \
                 an underestimate)"
            ));
        }
        let (images, opaque): (Vec<String>, Vec<String>) = self
            .opaque_calls(kernel)
            .into_iter()
            .partition(|f| is_image_access(f));
        let named = |fs: &[String]| {
            fs.iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !images.is_empty() {
            notes.push(format!(
                "its image accesses ({}) are timed on the texture path as texture-cache hits; \
                 the image's own traffic to L2 and DRAM is not counted",
                named(&images)
            ));
        }
        if !opaque.is_empty() {
            notes.push(format!(
                "calls {} with no code for the GPU target: each call is timed as one call \
                 instruction, not as the work it does (an underestimate)",
                named(&opaque)
            ));
        }
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    /// The functions `kernel` (or a function it calls) calls that have no definition in
    /// the compiled program, by their source names, each once.
    fn opaque_calls(&self, kernel: &str) -> Vec<String> {
        let a = &self.analysis;
        let defined = |name: &str| a.kernels.iter().chain(&a.functions).any(|f| f.name == name);
        let mut seen = vec![kernel.to_string()];
        let mut out = Vec::new();
        let mut at = 0;
        while at < seen.len() {
            let calls = a
                .kernels
                .iter()
                .chain(&a.functions)
                .find(|f| f.name == seen[at])
                .map_or(&[][..], |f| &f.calls[..]);
            for c in calls {
                if defined(c) {
                    if !seen.contains(c) {
                        seen.push(c.clone());
                    }
                } else if !c.starts_with("__translate_sampler") {
                    // (clang's conversion of a constant sampler is no work on a GPU.)
                    let name = demangled_name(c).to_string();
                    if !out.contains(&name) {
                        out.push(name);
                    }
                }
            }
            at += 1;
        }
        out
    }
}

/// A kernel left unannotated, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusedKernel {
    /// The kernel.
    pub name: String,
    /// The file of the construct that refused it.
    pub path: String,
    /// Its line (0 where there is none).
    pub line: u32,
    /// The annotator's message: the file, the line and the construct.
    pub reason: String,
}
