//! The on-disk cache of annotations, for programs built from source strings (what the
//! runtime shim sees in `clCreateProgramWithSource`): keyed by the tool version and the
//! annotation revision, the source, the build options, the architecture, the file name
//! and the annotation options (profile or not), so that a second run does not compile
//! again.
//!
//! Layout: `<dir>/<key>/<name>` (the source, compiled from there so that diagnostics name
//! it), `annotated.cl` and `sidecar.json` (or `failure.txt`), each written under a
//! temporary name and renamed.
//!
//! It also keeps what an OpenCL runtime made of annotated programs (`<dir>/binaries/`),
//! so that a warm run need not hand the annotated source to the runtime's compiler again,
//! and the source and build options each program binary an application read back was
//! made from (`<dir>/made-from/`), so that a program it creates from that binary later,
//! in this run or another, is simulated as the source would be ([`MadeFrom`]).
//!
//! Every kept file but the source is sealed ([`sealed`]): checked whole, and made by the
//! same build of srcsim and of the tools it names in [`AnnotationCache::with_identity`],
//! before it is taken; one that is not is removed, made again, and noted once
//! ([`AnnotationCache::notes`]). The directory is chosen by [`AnnotationCache::open`].

mod dir;
pub mod sealed;

pub use dir::{configured_dir, unusable, OpenedCache};
pub use sealed::Fault;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use pipeline_model::Architecture;

use crate::annotate::{annotate_file_with, AnnotateError, AnnotateOptions, Annotation};
use crate::back::sidecar::Sidecar;
use crate::front::compile::{BuildOptions, Compiler};

/// The revision of what the annotator makes of a source, part of every key besides the
/// tool version: bump it when a change makes the annotator annotate a source differently
/// or refuse it differently, so that no run serves an annotation (or a failure) of the
/// older logic. 2: compiler-made branches inside one source block (64-bit division) are
/// folded, no longer refused as unrolled loops. 3: the sidecar's paths carry their PTX
/// instruction counts (the profile mode). 4: loops behind `#pragma unroll` and
/// `opencl_unroll_hint` are loops; a loop's exit block behind its guard stays unmapped;
/// unroll factors compare copies position by position; a remainder of one copy. 5: in the
/// profile mode, paths carry their cycles per source line and profiled blocks their line
/// shares (extra counters). 6: a run-time loop inside loops the compiler unrolled
/// completely is counted per copy; a loop with a copy that lost its mapping is refused.
/// 7: in the profile mode, blocks that only count their executions no longer settle
/// unrolled loops (they changed t). 8: a DRAM resource counts global-memory bytes, and
/// kernels carry their parameters' kinds. 9: loops unrolled into shapes the annotator
/// cannot count are timed from a compile without unrolling instead of refused. 10: global
/// and shared accesses carry their analysed memory behaviour (level, lines, sectors, bank
/// conflicts), which changes t and the usage counters. 11: records carry the cycles of
/// each divergent arm after the usage. 12: identical arms are counted once, at most 16.
/// 13: only branches with two non-empty sides have arms. 14: helpers declared by a
/// prototype before their definition are annotated (the prototype gets the parameter too).
/// 15: a lone loop or `if` body that starts with a macro invocation is wrapped whole.
/// 16: `MSHR` usage counts miss entries (the model multiplies by the trip), and an `L2`
/// resource counts the bytes past the L1.
/// 17: a first touch waits for the L2 where the architecture gives its capacity; a volatile
/// load is never an L1 hit; a global store does not hold up its block's end.
/// 18: a barrier inside a branch is refused (PoCL runs such twins wrongly).
/// 19: refusals are per kernel: a refused kernel (and the helpers only it calls) is left
/// out of the annotated file and named in the sidecar; the other kernels are annotated.
/// 20: sampled accesses (three counters each after the record's others); a loop after one
/// the compiler enters unguarded keeps its source home.
/// 21: a helper called in a macro defined before the helper refuses the kernels expanding
/// the macro, not the whole file.
/// 22: programs built for OpenCL C 1.0 and 1.1 (no `static`) are annotated.
/// 23: a function also declared in an included file refuses the kernels that run it.
/// 35: the copy of a kernel none of whose timing transitions can run twice keeps each
/// work-item's path (a bit per transition), not its counters.
/// 36: the warps' reducers, of counters and of paths, share one generated prologue.
/// 37: the reducer of paths finds a warp's lanes all alike sixteen lanes a load.
/// 38: the reducer of counters leaves its loop over the lanes unvectorised.
/// 39: a kernel with a barrier keeps its record's values in its record, not private.
/// 40: paths evaluated on the host (`host_paths`).
/// 41: whether a kernel's work-items can tell work-groups apart (`group_free`).
/// 42: a sampled shared access's extra bank passes charge no L2 or DRAM bytes.
/// 43: a sampled kernel keeps its `path_inputs` where its sampled indices, as its
/// branches, come from the geometry and value arguments alone.
/// 44: a barrier in a branch is refused only where the branch's condition may differ
/// between a work-group's work-items; a kernel that waits at a barrier in a branch (and
/// the functions it runs) writes its exit charges, its unrolled loops' settling, its
/// helpers' exits and its copy's lanes without a branch.
/// 45: each divergent arm also counts its entries and its branch's decisions per
/// work-item; a warp's record sums the lanes' cycles and entries in each arm.
/// 46: stores are sampled too (their `.loc` is the assignment's operator).
/// 47: a PTX block outside the loop its source lies in (code moved out of the loop) is
/// charged on the paths through it, not mapped to the loop's body.
/// 54: a load clang placed at the first use of the private variable it initialises
/// (`float4 p = pos[j]; ... p.x`) is sampled at that subscript.
/// 55: a private array indexed by each lane's data (`counts[digit]++`) is charged a line
/// per offset and sampled as a local access.
/// 56: a sampled access's loop lines count a loop's warp-uniform loads as one line.
/// 57: an access with no subscript of its own at the same address as a sampled one, in
/// its block (a store merged from both sides of a branch), joins that sampled access.
/// 58: accesses are priced per width class too (`pipeline_model::rows`): a warp of a
/// work-group narrower than 32 spans several rows, and the charges pick the launch's class.
/// 59: each kernel names the arguments it reads through (`read_params`).
/// 60: a kernel another kernel calls as a function is refused, with the kernels that run
/// it (it kept its kernel signature with the counters' parameter: no twin built).
/// 61: the GPU-target compile and parse know the 3D image writes and depth images PoCL
/// supports (a file writing a 3D image failed whole).
/// 62: a kernel another kernel calls is annotated with a plain copy for its callers
/// (`annotate::called_kernels`); refused as in 60 only where the copy cannot be made.
/// 63: an image read or write is a texture-path instruction (`OpClass::Texture`), which
/// waits for its coordinates and which its result's readers wait for.
/// 64: a kernel with sampled accesses gets a copy that reduces its records to warps,
/// keeping the lanes that ran a sampled access whole (`pipeline_model::KeptLanes`).
/// 65-68: block mapping rules (`annotator/src/mapping/matching/`): dominance reflected,
/// the conditional block preferred, loops entered unguarded, operands leading nothing.
/// 69: a block's code after its call of a timed helper is unmapped (its probe runs
/// before the call).
/// 70: of two images of one source block on one path outside loops, the later is
/// unmapped (the block's probe runs once).
/// 71: a loop whose iterations run more code than the instruction cache keeps charges
/// the refetch on its back edges (`ColdInstructionCache::refetch_cycles`).
/// 72: a warp-uniform global load that a loop moves by a line or more each iteration is
/// charged at the L2, not the L1 (`affine::loads_moving_a_line`).
/// 73: a warp's first round of global loads ends at the first instruction that waits for
/// one (`AccessCharge::before_first_use`).
/// 74: each function's analysis gives its private frame's bytes (`frame_bytes`).
/// 75: a sampled access names the loop's other sampled loads (`loop_peers`), which its
/// `loop_lines` no longer counts as charged.
/// 76: a function of one block is timed for each class of warps sharing the L1
/// (`l1_sharing`), and the first class is 64 warps, not the description's `max_warps`.
/// 77: only a kernel's analysis carries `l1_sharing`, not a called function's.
/// 78: the copies' lanes hold each work-item's values together (`i * V + v`), and one
/// work-item of a group reduces a kernel with sampled accesses.
/// 79: a warp-uniform load a loop moves by less than a line notes the step
/// (`MemAccess::step_bytes`, `affine::load_steps`). 80: a kernel of one block is timed
/// with its first touches from DRAM too (`L1Sharing::from_dram`). 81: a description with
/// the SM's fill port (`memory.fill_bytes_per_cycle`) counts the bytes each warp's loads
/// bring past the L1 in a `fill` column. 82: a file whose unrolled loop is not counted (no
/// block of it has a home in the source) is timed as compiled without unrolling, where
/// that counts it. 83: the L1 hits of sampled loads a block issues together save their
/// trips together (`analysis::sampling::joint_l1`). 84: the DRAM column counts only the
/// bytes stored, where the description has an L2 column (`pipeline_model::ResourceUsage`).
/// 85: a store's bytes past the L1 are its sectors, where a load's are the lines its L1
/// fetches (`MemorySystem::stored_bytes`). 86: an index clamped to a launch-wide bound
/// is the index for the reuse of the L1's sectors (`affine`, `min` and `max`). 87: a
/// subscript of a pointer variable into global, constant or local memory is sampled, at
/// the address it selects (`Subscript::pointer`, `__srcsim_sample_from`). 88: its
/// buffer is the parameter it was declared from as `&in[off]` too. 89: a description
/// with the L2's unloaded trip counts each block's cycles beyond it (`L2_trip`). 90: an
/// unrolled loop's copies are counted against its remainder's one copy operation by
/// operation, the largest ratio at each position (`mapping::unroll`). 91: a copy's
/// work-group writes its kept lanes' records in 32-bit values where they all fit, after a
/// header in its place (`pipeline_model::KeptLanes`). 92: the state's usage counters are
/// also a vector, and a charge of several adds them as one (`charges::usage_declaration`).
pub const ANNOTATION_REVISION: &str = "92";

/// Where annotations are kept.
#[derive(Debug, Clone)]
pub struct AnnotationCache {
    dir: PathBuf,
    /// What every kept file is sealed with: srcsim's version and annotation revision, and
    /// what the caller adds (the builds of srcsim, PoCL and clang).
    identity: Arc<str>,
    /// What became of kept files that were not taken or not kept, once each.
    notes: Arc<Mutex<Vec<String>>>,
}

/// What a program binary was made from: the source the application gave the runtime and
/// the options it built it with (kept by the digest of the binary's bytes).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MadeFrom {
    /// The program's source, its strings joined.
    pub source: String,
    /// The options of the build that made the binary.
    pub options: String,
}

/// 128 bits of FNV-1a over the parts, each followed by a separator, in hex: the cache's
/// keys, and a fingerprint wherever one is wanted.
pub fn fingerprint(parts: &[&str]) -> String {
    let mut a = 0xcbf2_9ce4_8422_2325u64;
    let mut b = 0x6c62_272e_07bb_0142u64;
    for part in parts {
        for byte in part.bytes().chain(std::iter::once(0)) {
            a = (a ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
            b = (b ^ u64::from(byte))
                .wrapping_mul(0x100_0000_01b3)
                .rotate_left(5);
        }
    }
    format!("{a:016x}{b:016x}")
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> AnnotateError + '_ {
    move |source| AnnotateError::Cache {
        path: path.display().to_string(),
        source,
    }
}

/// Writes `text` to `path` as it is (no seal: a file for clang to compile), through a
/// temporary file in the same directory, renamed.
fn write_plain(path: &Path, text: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut file = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
    file.write_all(text)?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Whether `e` follows from the source, options and architecture alone.
fn is_lasting(e: &AnnotateError) -> bool {
    use crate::analysis::blocks::AnalyzeError;
    use crate::front::compile::CompileError;
    !matches!(
        e,
        AnnotateError::Analyze(AnalyzeError::Compile(
            CompileError::ToolMissing { .. } | CompileError::Io { .. } | CompileError::Crash { .. },
        )) | AnnotateError::Cache { .. }
            | AnnotateError::Cached(_)
            | AnnotateError::KeptSource(_)
    )
}

impl AnnotationCache {
    /// A cache in `dir`, its files sealed with srcsim's version and annotation revision
    /// alone (see [`AnnotationCache::with_identity`]).
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        AnnotationCache {
            dir: dir.into(),
            identity: Self::identity_with("").into(),
            notes: Arc::default(),
        }
    }

    fn identity_with(builds: &str) -> String {
        format!(
            "srcsim {} annotation {ANNOTATION_REVISION}\u{1}{builds}",
            env!("CARGO_PKG_VERSION")
        )
    }

    /// The same cache, its files sealed with `builds` too: what names the builds of the
    /// tools that made them (srcsim's library, PoCL, clang), so that a file another build
    /// made is a miss.
    pub fn with_identity(mut self, builds: &str) -> Self {
        self.identity = Self::identity_with(builds).into();
        self
    }

    /// What the cache's files are sealed with.
    pub fn identity(&self) -> &str {
        &self.identity
    }

    /// The cache's directory.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// Notes `note`, unless it is noted already.
    pub fn note(&self, note: String) {
        let mut notes = self.notes.lock().unwrap_or_else(|e| e.into_inner());
        if !notes.contains(&note) {
            notes.push(note);
        }
    }

    /// Notes that a kept `kind` was not taken for `fault` (it was removed and is made
    /// again).
    pub fn note_fault(&self, kind: &str, fault: Fault) {
        self.note(format!("a kept {kind} {fault}: removed, and made again"));
    }

    /// Notes that a `kind` could not be kept (this run is the same; the next makes it
    /// again).
    pub fn note_unkept(&self, kind: &str, e: &dyn std::fmt::Display) {
        self.note(format!("a {kind} could not be kept in the cache ({e})"));
    }

    /// What became of kept files this process met that were not taken, or not kept, in
    /// order, each once.
    pub fn notes(&self) -> Vec<String> {
        self.notes.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The sealed file at `path` (kept as a `kind`) under `identity`, noting a fault.
    fn read_sealed(&self, path: &Path, identity: &str, kind: &str) -> Option<Vec<u8>> {
        sealed::read(path, identity).unwrap_or_else(|fault| {
            self.note_fault(kind, fault);
            None
        })
    }

    /// Keeps `payload` at `path` (a `kind`), sealed with the cache's identity, noting a
    /// failure: a file not kept costs the next run its time, never this run anything.
    fn keep(&self, path: &Path, kind: &str, payload: &[u8]) {
        if let Err(e) = sealed::write(path, &self.identity, payload) {
            self.note_unkept(kind, &e);
        }
    }

    /// A program binary stored with [`AnnotationCache::store_binary`] under the same
    /// parts (what identifies it: the annotated source, the build options, the device),
    /// whole and made by this cache's identity; one that is not is removed and noted.
    pub fn binary(&self, parts: &[&str]) -> Option<Vec<u8>> {
        let (path, identity) = self.binary_place(parts);
        self.read_sealed(&path, &identity, "program binary")
    }

    /// Whether a program binary is kept under `parts` (not yet checked: that is
    /// [`AnnotationCache::binary`]'s).
    pub fn has_binary(&self, parts: &[&str]) -> bool {
        self.binary_place(parts).0.is_file()
    }

    /// Keeps a program binary under `parts`.
    pub fn store_binary(&self, parts: &[&str], binary: &[u8]) -> Result<(), AnnotateError> {
        let (path, identity) = self.binary_place(parts);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        sealed::write(&path, &identity, binary).map_err(io(&path))
    }

    /// What the program binary whose bytes have the digest `digest` was made from, where
    /// a run kept it ([`AnnotationCache::keep_made_from`]); a kept file that is not whole
    /// or that another build made is removed and noted.
    pub fn made_from(&self, digest: &str) -> Option<MadeFrom> {
        let path = self.made_from_path(digest);
        let bytes = self.read_sealed(&path, &self.identity, "binary's source")?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Keeps what the program binary of digest `digest` was made from, for a later run
    /// that creates a program from that binary; a failure is noted, and costs that run
    /// its simulation of the program at most.
    pub fn keep_made_from(&self, digest: &str, made: &MadeFrom) {
        let path = self.made_from_path(digest);
        if let Some(dir) = path.parent() {
            if let Err(e) = std::fs::create_dir_all(dir) {
                self.note_unkept("binary's source", &e);
                return;
            }
        }
        if let Ok(payload) = serde_json::to_vec(made) {
            self.keep(&path, "binary's source", &payload);
        }
    }

    fn made_from_path(&self, digest: &str) -> PathBuf {
        let key = fingerprint(&[env!("CARGO_PKG_VERSION"), digest]);
        self.dir.join("made-from").join(format!("{key}.json"))
    }

    /// Notes that the program under `parts` is wanted though no binary of it is kept (a
    /// run that put its build off, and could not build it before exiting, leaves this for
    /// the next run to build it).
    pub fn mark_wanted(&self, parts: &[&str]) -> Result<(), AnnotateError> {
        let path = self.binary_place(parts).0.with_extension("wanted");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        // Empty: only its presence says anything (that a build is worth doing).
        write_plain(&path, b"").map_err(io(&path))
    }

    /// Whether [`AnnotationCache::mark_wanted`] noted the program under `parts`.
    pub fn is_wanted(&self, parts: &[&str]) -> bool {
        self.binary_place(parts)
            .0
            .with_extension("wanted")
            .is_file()
    }

    /// Where the binary of `parts` is kept, and the identity it is sealed with: the
    /// cache's, and the key's (which names the device).
    fn binary_place(&self, parts: &[&str]) -> (PathBuf, String) {
        let mut all = vec![env!("CARGO_PKG_VERSION")];
        all.extend_from_slice(parts);
        let key = fingerprint(&all);
        let path = self.dir.join("binaries").join(format!("{key}.bin"));
        (path, format!("{}\u{2}{key}", self.identity))
    }

    /// Annotates `source` (named `name`; `origin` says where it came from, e.g. "the
    /// source given to clCreateProgramWithSource") with `options` for `arch`, or returns
    /// the cached result; the flag says whether it was cached. The source is compiled from
    /// a copy kept in the cache; error messages name it as
    /// `name (origin, kept at PATH):LINE`, so that a user can tell what it is.
    pub fn annotate_source(
        &self,
        compiler: &Compiler,
        name: &str,
        origin: &str,
        source: &str,
        options: &BuildOptions,
        arch: &Architecture,
    ) -> Result<(Annotation, bool), AnnotateError> {
        let how = AnnotateOptions::default();
        self.annotate_source_with(compiler, name, origin, source, options, arch, how)
    }

    /// [`Self::annotate_source`] with annotation options (a profile or not).
    #[allow(clippy::too_many_arguments)] // the parts of the key, each a different thing
    pub fn annotate_source_with(
        &self,
        compiler: &Compiler,
        name: &str,
        origin: &str,
        source: &str,
        options: &BuildOptions,
        arch: &Architecture,
        how: AnnotateOptions,
    ) -> Result<(Annotation, bool), AnnotateError> {
        let arch_text = arch.to_toml();
        let options_text = options.clang_args().join("\u{1}");
        let entry = self.dir.join(fingerprint(&[
            env!("CARGO_PKG_VERSION"),
            ANNOTATION_REVISION,
            name,
            source,
            &options_text,
            &arch_text,
            if how.profile { "profile" } else { "timing" },
        ]));
        let annotated = entry.join("annotated.cl");
        let sidecar = entry.join("sidecar.json");
        let failure = entry.join("failure.txt");
        let id = &*self.identity;
        if let Some(message) = self.read_sealed(&failure, id, "failure record") {
            return Err(AnnotateError::Cached(
                String::from_utf8_lossy(&message).into_owned(),
            ));
        }
        // Both read (and checked) before either is taken: a fault in one removes it, and
        // the other is made again with it.
        let text = self.read_sealed(&annotated, id, "annotated source");
        let json = self.read_sealed(&sidecar, id, "sidecar");
        if let (Some(text), Some(json)) = (text, json) {
            // Checked whole and made by this build, so they parse; should they not, they
            // are made again all the same.
            match (
                String::from_utf8(text),
                serde_json::from_slice::<Sidecar>(&json),
            ) {
                (Ok(source), Ok(sidecar)) => {
                    return Ok((Annotation { source, sidecar }, true));
                }
                _ => self.note_fault("sidecar", Fault::Malformed),
            }
        }
        std::fs::create_dir_all(&entry).map_err(io(&entry))?;
        let file = entry.join(Path::new(name).file_name().unwrap_or("kernel.cl".as_ref()));
        write_plain(&file, source.as_bytes()).map_err(io(&file))?;
        let kept = file.display().to_string();
        let named = |text: &str| text.replace(&kept, &format!("{name} ({origin}, kept at {kept})"));
        let a = match annotate_file_with(compiler, &file, options, arch, how) {
            Ok(mut a) => {
                // The note names the source as errors do.
                a.sidecar.timed_without_unrolling =
                    a.sidecar.timed_without_unrolling.as_deref().map(named);
                a.sidecar.timed_with_less_optimisation =
                    a.sidecar.timed_with_less_optimisation.as_deref().map(named);
                for r in &mut a.sidecar.refused {
                    r.path = named(&r.path);
                    r.reason = named(&r.reason);
                }
                a
            }
            Err(e) => {
                let message = named(&e.to_string());
                // What the source and options decide is decided again the same way: keep
                // it, so that a program that cannot be annotated costs no compile per run.
                // Missing tools, I/O trouble and compiler crashes may pass; try them anew.
                if is_lasting(&e) {
                    self.keep(&failure, "failure record", message.as_bytes());
                }
                return Err(AnnotateError::KeptSource(message));
            }
        };
        self.keep(&annotated, "annotated source", a.source.as_bytes());
        let json = serde_json::to_string(&a.sidecar).expect("the sidecar serialises");
        self.keep(&sidecar, "sidecar", json.as_bytes());
        Ok((a, false))
    }
}
