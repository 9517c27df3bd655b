//! The twins: a program's annotated shadow and each kernel's, what the application set on
//! its kernel and the shim repeated on the shadow, and whether that went through.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

use annotator::annotate::Annotation;
use annotator::back::host_paths::HostPaths;
use annotator::cache::MadeFrom;
use annotator::front::source::ParamKind;

use crate::cl::{Context, Device, Kernel, Mem, NdRange, Program};
use crate::modelling::{KernelModel, ProfiledProgram};

/// How a program came to be, and so whether its kernels can be simulated.
#[derive(Debug, Clone)]
pub enum ProgramOrigin {
    /// `clCreateProgramWithSource`, with the source.
    Source(String),
    /// A program whose code the runtime made from a source srcsim knows, with options it
    /// knows: created from binaries this run or an earlier one saw made from source
    /// (`Shim::binaries_read`; a binary's build compiles nothing, whatever options it is
    /// given), or linked from programs compiled from source (`Shim::program_linked`).
    Known(MadeFrom),
    /// Anything else; the reason its kernels run unannotated.
    Opaque(&'static str),
}

impl ProgramOrigin {
    /// The source to annotate and the options to compile it with, where the application
    /// builds the program with `options`; `None` for an opaque program.
    pub(crate) fn source<'a>(&'a self, options: &'a str) -> Option<(&'a str, &'a str)> {
        match self {
            ProgramOrigin::Source(source) => Some((source, options)),
            ProgramOrigin::Known(made) => Some((&made.source, &made.options)),
            ProgramOrigin::Opaque(_) => None,
        }
    }
}

/// The annotated twin of a built program.
pub(crate) struct ShadowProgram {
    /// The annotated program: built with the application's where no earlier run kept its
    /// binaries, else when a launch first runs one of its kernels (a warm run whose
    /// launches are repeats, evaluated on the host or remembered never builds it).
    pub(crate) program: Arc<LazyProgram>,
    pub(crate) sidecar: annotator::back::sidecar::Sidecar,
    /// With `SRCSIM_PROFILE=1`: what the profiles of its launches refer to.
    pub(crate) profile: Option<Arc<ProfiledProgram>>,
    /// Where the annotation has copies of kernels that reduce records to warps: their
    /// program, built when a launch first asks for one.
    pub(crate) warps: Option<Arc<LazyProgram>>,
    /// What names the annotated program: a fingerprint of its text and build options.
    pub(crate) identity: Arc<str>,
}

impl ShadowProgram {
    /// Drops this library's references to its programs (the kernels made from them hold
    /// their own).
    pub(crate) fn release(self) {
        for lazy in std::iter::once(self.program).chain(self.warps) {
            if let Some(Ok(p)) = lazy.built.lock().ok().and_then(|mut b| b.take()) {
                p.release();
            }
        }
    }
}

/// A program of the annotated file, built on first use: the twin itself, or the copies
/// that reduce records to warps (`annotator::back::codegen::WARPS_DEFINE`).
pub(crate) struct LazyProgram {
    pub(crate) context: Context,
    pub(crate) devices: Vec<Device>,
    /// The annotated source, and the options it is built with (the application's and the
    /// macro).
    pub(crate) source: String,
    pub(crate) options: String,
    pub(crate) built: Mutex<Option<Result<Program, String>>>,
}

pub(crate) struct ProgramState {
    pub(crate) origin: ProgramOrigin,
    /// Set by each successful build.
    pub(crate) shadow: Option<Result<Arc<ShadowProgram>, String>>,
    /// The annotation of the source started when the application's build started, with
    /// the build's options (`Shim::program_building`).
    pub(crate) annotating: Option<(String, Annotating)>,
    /// What the last successful build of a program with a source compiled: the binaries
    /// the application reads back are made from it (`Shim::binaries_read`).
    pub(crate) built_from: Option<MadeFrom>,
    /// The binaries' sizes the application last read (`CL_PROGRAM_BINARY_SIZES`): the
    /// room it gives the binaries it reads next.
    pub(crate) binary_sizes_seen: Option<Vec<usize>>,
    /// What `clCompileProgram` compiled into it (or, for a library `clLinkProgram` made,
    /// into the programs it links): the units a later link joins.
    pub(crate) units: Option<Vec<CompiledUnit>>,
}

/// One program `clCompileProgram` compiled from source: its source, options and the
/// headers it was given by include name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CompiledUnit {
    pub(crate) source: String,
    pub(crate) options: String,
    pub(crate) headers: Vec<(String, String)>,
}

/// An annotation under way on a thread of its own.
pub(crate) type Annotating = std::thread::JoinHandle<Result<Annotation, String>>;

/// A kernel's annotated twins made so far: the kernel itself, and where the annotation
/// has one, its copy that reduces the records to warps (`annotator::back::sidecar::
/// AnnotatedKernel::warp_kernel`), which takes the lanes and the warp size after its
/// records. Each is made on first use.
#[derive(Debug, Clone, Copy)]
pub struct ShadowKernels {
    /// Writes a record per work-item.
    pub own: Option<Kernel>,
    /// Writes a record per warp.
    pub warps: Option<Kernel>,
}

impl ShadowKernels {
    /// Repeats a setting on each: the first failure's code, else success.
    pub fn set_each(self, set: impl Fn(Kernel) -> i32) -> i32 {
        let ok = crate::ffi::CL_SUCCESS;
        self.into_iter()
            .map(set)
            .fold(ok, |first, code| if first == ok { code } else { first })
    }
}

impl IntoIterator for ShadowKernels {
    type Item = Kernel;
    type IntoIter = std::iter::Flatten<std::array::IntoIter<Option<Kernel>, 2>>;

    fn into_iter(self) -> Self::IntoIter {
        [self.own, self.warps].into_iter().flatten()
    }
}

/// A kernel's annotated twin.
pub(crate) struct Shadow {
    /// The annotated kernel, which writes a record per work-item: the program it is in
    /// and its name (the kernel is made on first use, `ShadowArgs::own`).
    pub(crate) twin: (Arc<LazyProgram>, String),
    /// Its copy that reduces the records to warps, where the annotation has one: the
    /// program it is in and its name (the kernel is made on first use, `ShadowArgs::warps`).
    pub(crate) copy: Option<(Arc<LazyProgram>, String)>,
    pub(crate) records_arg: u32,
    /// Whether each argument is a `__local` pointer (sized at `clSetKernelArg`).
    pub(crate) local_params: Vec<bool>,
    /// What each argument is, from the source: buffers make the launch's footprint.
    pub(crate) params: Vec<ParamKind>,
    pub(crate) model: Arc<KernelModel>,
    /// The arguments whose values, with the launch's geometry, decide every path the
    /// kernel's work-items take, where nothing else does
    /// (`annotator::back::sidecar::AnnotatedKernel::path_inputs`).
    pub(crate) path_inputs: Option<Vec<u32>>,
    /// Whether the annotated kernel keeps its record's values in its record
    /// (`annotator::back::sidecar::AnnotatedKernel::values_in_record`).
    pub(crate) values_in_record: bool,
    /// Where the host evaluates its paths, the kernel's skeleton
    /// (`annotator::back::sidecar::AnnotatedKernel::host_paths`).
    pub(crate) host_paths: Option<Arc<HostPaths>>,
    /// Whether its work-items cannot tell work-groups apart
    /// (`annotator::back::sidecar::AnnotatedKernel::group_free`): the annotated kernel may run
    /// in work-groups other than the application's ([`crate::shim::groups`]).
    pub(crate) group_free: bool,
    /// What names its annotated program ([`ShadowProgram::identity`]).
    pub(crate) program: Arc<str>,
    /// Serialises binding the records buffer and enqueueing.
    pub(crate) args: Mutex<ShadowArgs>,
}

impl Shadow {
    /// The same twin with `args` as what the shim knows of its arguments and its
    /// kernels (a clone's: `ShadowArgs::cloned`).
    pub(crate) fn with_args(&self, args: ShadowArgs) -> Shadow {
        Shadow {
            twin: self.twin.clone(),
            copy: self.copy.clone(),
            records_arg: self.records_arg,
            local_params: self.local_params.clone(),
            params: self.params.clone(),
            model: Arc::clone(&self.model),
            path_inputs: self.path_inputs.clone(),
            values_in_record: self.values_in_record,
            host_paths: self.host_paths.clone(),
            group_free: self.group_free,
            program: Arc::clone(&self.program),
            args: Mutex::new(args),
        }
    }
}

#[derive(Default, Clone)]
pub(crate) struct ShadowArgs {
    /// Bytes of each `__local` argument set so far.
    pub(crate) local_bytes: HashMap<u32, u64>,
    /// Each buffer argument set so far: the `cl_mem` (its address, 0 for none) and its
    /// size, or `None` where the size is unknown (an SVM pointer).
    pub(crate) buffers: HashMap<u32, Option<(usize, u64)>>,
    /// The annotated kernel, once made (with every argument set so far), or why it could
    /// not be.
    pub(crate) own: Option<Result<Kernel, String>>,
    /// The copy that reduces records to warps, once made (with every argument set so far),
    /// or why it could not be.
    pub(crate) warps: Option<Result<Kernel, String>>,
    /// Every argument set so far, and every exec info: set again on each annotated
    /// kernel when it is made.
    pub(crate) set: BTreeMap<u32, SetArg>,
    pub(crate) exec_info: BTreeMap<u32, Vec<u8>>,
    /// The lanes' bytes and the warp size last set on the copy (set again only when they
    /// change).
    pub(crate) reduction: Option<(usize, u32)>,
    /// The work-group size of the kernel's last launches, and how many in a row had it.
    pub(crate) repeated: ([usize; 3], u32),
    /// The work-group sizes the annotated kernel has run in, each a compile of its own
    /// on PoCL ([`crate::shim::groups`]).
    pub(crate) ran_in: Vec<[usize; 3]>,
    /// The local memory of the device it last launched on, in bytes (asked once).
    pub(crate) device_local: Option<(Device, u64)>,
    /// The settings whose mirroring failed, with the reason: while any is left, the
    /// shadow may differ from the application's kernel, which then runs unannotated. A
    /// later setting of the same thing that mirrors cleanly removes it.
    pub(crate) broken: BTreeMap<MirroredSetting, String>,
    /// Where the kernel's paths depend on its geometry and some arguments alone: the
    /// first launch (its index in the report) of each [`PathKey`] seen, at most
    /// [`MAX_PATH_KEYS`].
    pub(crate) first_of: FxHashMap<PathKey, usize>,
    /// The last launch's [`PathKey`], its memory kept for the next.
    pub(crate) last_key: PathKey,
}

/// At most this many [`PathKey`]s are remembered per kernel: a kernel launched with ever
/// new values of the arguments that decide its paths is measured at every launch.
pub(crate) const MAX_PATH_KEYS: usize = 256;

/// What decides a launch's records and estimate, for a kernel whose paths depend on its
/// geometry and some value arguments alone: the geometry, those arguments' values, and
/// what the model takes of the other arguments (the bytes of `__local` memory and of the
/// buffers).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct PathKey {
    range: (u32, [usize; 3], [usize; 3], Option<[usize; 3]>),
    /// Each deciding argument's size and bytes.
    values: Vec<u8>,
    local_bytes: u64,
    footprint: Option<u64>,
    /// The bytes of the buffers it reads (whether they fit in the L2 is the model's to
    /// tell).
    read_footprint: Option<u64>,
    /// A sampled kernel's buffers' sizes, by argument (whether its accesses' buffers fit
    /// in the L1 is the model's to tell).
    buffer_sizes: Vec<(u32, u64)>,
}

/// An argument as the application set it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetArg {
    /// `clSetKernelArg` with a value of these bytes.
    Value(Vec<u8>),
    /// `clSetKernelArg` with no value and this size (a `__local` size, or a null buffer).
    Null(usize),
    /// `clSetKernelArgSVMPointer` with this pointer.
    Svm(usize),
}

impl ShadowArgs {
    /// The bytes of every argument set by value so far, by position (the arguments that
    /// decide the kernel's paths are kept, [`ShadowArgs::remember`]).
    pub(crate) fn values(&self) -> Vec<Option<&[u8]>> {
        let n = self.set.keys().next_back().map_or(0, |i| *i as usize + 1);
        (0..n)
            .map(|i| match self.set.get(&(i as u32)) {
                Some(SetArg::Value(bytes)) => Some(bytes.as_slice()),
                _ => None,
            })
            .collect()
    }

    /// The shadow kernels a setting is repeated on: those made so far.
    pub(crate) fn kernels(&self) -> ShadowKernels {
        let made =
            |k: &Option<Result<Kernel, String>>| k.as_ref().and_then(|k| k.as_ref().ok()).copied();
        ShadowKernels {
            own: made(&self.own),
            warps: made(&self.warps),
        }
    }

    /// What a clone of the kernel starts with: the same arguments and settings, and no
    /// annotated kernel or copy yet (the clone's are made from `set` on first use, or
    /// its annotated kernel cloned by the runtime: `Shim::kernel_cloned`).
    pub(crate) fn cloned(&self) -> ShadowArgs {
        ShadowArgs {
            own: None,
            warps: None,
            reduction: None,
            ..self.clone()
        }
    }

    /// Notes `value` as argument `index`'s, for the annotated kernels made later (the
    /// bytes are copied into the previous value's place).
    pub(crate) fn remember(&mut self, index: u32, value: SetArgRef<'_>) {
        match (value, self.set.get_mut(&index)) {
            (SetArgRef::Value(bytes), Some(SetArg::Value(old))) => {
                old.clear();
                old.extend_from_slice(bytes);
            }
            (SetArgRef::Value(bytes), _) => {
                self.set.insert(index, SetArg::Value(bytes.to_vec()));
            }
            (SetArgRef::Null(size), _) => {
                self.set.insert(index, SetArg::Null(size));
            }
            (SetArgRef::Svm(p), _) => {
                self.set.insert(index, SetArg::Svm(p));
            }
        }
    }

    /// The [`PathKey`] of a launch of `shadow` over `range` with the arguments set now
    /// (in [`ShadowArgs::last_key`], whose memory it reuses), where its paths depend on
    /// nothing else and every deciding argument has a value; and the earlier launch that
    /// had it, if one did.
    pub(crate) fn path_key(&mut self, shadow: &Shadow, range: &NdRange) -> Option<Option<usize>> {
        let inputs = shadow.path_inputs.as_ref()?;
        let key = &mut self.last_key;
        key.values.clear();
        for i in inputs {
            let Some(SetArg::Value(bytes)) = self.set.get(i) else {
                return None;
            };
            key.values
                .extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            key.values.extend_from_slice(bytes);
        }
        key.range = (range.work_dim, range.offset, range.global, range.local);
        let local_bytes = self.local_bytes.values().sum();
        let footprint = self.buffer_footprint();
        self.last_key.local_bytes = local_bytes;
        self.last_key.footprint = footprint;
        self.last_key.read_footprint = shadow
            .model
            .read_params
            .as_deref()
            .and_then(|read| self.read_footprint(read));
        self.last_key.buffer_sizes.clear();
        if !shadow.model.samples.is_empty() {
            let sizes = self
                .buffers
                .iter()
                .filter_map(|(&i, b)| b.map(|(_, size)| (i, size)));
            self.last_key.buffer_sizes.extend(sizes);
            self.last_key.buffer_sizes.sort_unstable();
        }
        Some(self.first_of.get(&self.last_key).copied())
    }

    /// Notes launch `index` as the first with `key`.
    pub(crate) fn first_with(&mut self, key: PathKey, index: usize) {
        if self.first_of.len() < MAX_PATH_KEYS {
            self.first_of.insert(key, index);
        }
    }

    /// Notes that repeating `setting` on the shadow gave `code`.
    pub(crate) fn mirrored(&mut self, setting: MirroredSetting, code: i32) {
        // A value set either way replaces one set the other way.
        self.broken
            .retain(|s, _| *s != setting && (s.arg().is_none() || s.arg() != setting.arg()));
        if code != crate::ffi::CL_SUCCESS {
            self.broken.insert(setting, setting.failed(code));
        }
    }

    /// Why the shadow may not be the application's kernel now, if it may not.
    pub(crate) fn broken(&self) -> Option<&String> {
        self.broken.values().next()
    }

    /// The bytes of the distinct buffers bound to buffer arguments, or `None` if any of
    /// them is of unknown size.
    pub(crate) fn buffer_footprint(&self) -> Option<u64> {
        self.footprint_of(|_| true)
    }

    /// The bytes of the distinct buffers bound to the arguments at the positions `read`
    /// names (those the kernel reads through), or `None` if any of them is of unknown size.
    pub(crate) fn read_footprint(&self, read: &[u32]) -> Option<u64> {
        self.footprint_of(|i| read.contains(&i))
    }

    /// The bytes of the distinct buffers bound to the arguments `among` takes.
    fn footprint_of(&self, among: impl Fn(u32) -> bool) -> Option<u64> {
        // A kernel has a few buffers: each is compared with those before it, which
        // allocates nothing (this runs at every launch).
        let mut bytes = 0u64;
        let taken = || {
            self.buffers
                .iter()
                .filter(|(i, _)| among(**i))
                .map(|(_, b)| b)
        };
        for (n, b) in taken().enumerate() {
            let (mem, size) = (*b)?;
            let seen = taken().take(n).any(|o| o.is_some_and(|(m, _)| m == mem));
            if !seen {
                bytes += size;
            }
        }
        Some(bytes)
    }
}

/// An argument as the application passes it, borrowed.
#[derive(Debug, Clone, Copy)]
pub enum SetArgRef<'a> {
    /// A value of these bytes.
    Value(&'a [u8]),
    /// No value, this size.
    Null(usize),
    /// An SVM pointer.
    Svm(usize),
}

/// What the application passed for a kernel argument, as far as the model cares.
#[derive(Debug, Clone, Copy)]
pub enum ArgValue {
    /// A null value of this size: a `__local` argument's size (or a null buffer).
    Null(usize),
    /// A pointer-sized value: the `cl_mem` when the argument is a buffer.
    Handle(Mem),
    /// An SVM pointer (`clSetKernelArgSVMPointer`).
    Svm,
    /// Any other value.
    Other,
}

/// One thing the application sets on a kernel that the shim repeats on its shadow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MirroredSetting {
    /// Argument `index`, by `clSetKernelArg`.
    Arg(u32),
    /// Argument `index`, by `clSetKernelArgSVMPointer`.
    SvmArg(u32),
    /// `clSetKernelExecInfo` of this parameter.
    ExecInfo(u32),
}

impl MirroredSetting {
    /// What a failed mirroring stops being the same, for the report.
    pub(crate) fn failed(self, code: i32) -> String {
        match self {
            MirroredSetting::Arg(i) => {
                format!("setting argument {i} of the annotated kernel failed (OpenCL error {code})")
            }
            MirroredSetting::SvmArg(i) => format!(
                "setting argument {i} of the annotated kernel to an SVM pointer failed (OpenCL error {code})"
            ),
            MirroredSetting::ExecInfo(param) => format!(
                "clSetKernelExecInfo({}) on the annotated kernel failed (OpenCL error {code})",
                exec_info_name(param)
            ),
        }
    }

    /// The argument index a setting is about, if any: both ways of setting an argument
    /// replace each other's value.
    pub(crate) fn arg(self) -> Option<u32> {
        match self {
            MirroredSetting::Arg(i) | MirroredSetting::SvmArg(i) => Some(i),
            MirroredSetting::ExecInfo(_) => None,
        }
    }
}

/// The name of a `clSetKernelExecInfo` parameter (CL/cl.h), or its number.
pub(crate) fn exec_info_name(param: u32) -> String {
    match param {
        crate::ffi::CL_KERNEL_EXEC_INFO_SVM_PTRS => "CL_KERNEL_EXEC_INFO_SVM_PTRS".to_string(),
        crate::ffi::CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM => {
            "CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM".to_string()
        }
        other => format!("{other:#x}"),
    }
}

pub(crate) struct KernelState {
    pub(crate) name: Arc<str>,
    pub(crate) shadow: Result<Arc<Shadow>, String>,
}
