//! The shim's side of programs and kernels: a program built from source gets an annotated
//! twin (annotation cached, the twin built beside it), each of its kernels a shadow, and
//! what the application sets on a kernel is repeated on its shadow.

use super::*;
use crate::cl::ClError;
use crate::keeper::{self, binary_keys, identities, KeepJob};
use crate::shadow::{Annotating, LazyProgram};
use annotator::annotate::Annotation;

/// What the log calls the annotated program.
pub(super) const TWIN: &str = "annotated program";

/// Why a program created from binaries is not simulated.
const UNSEEN_BINARY: &str = "not simulated: built from a binary srcsim did not see the runtime \
     make from source (srcsim learns a binary's source when the application reads it back \
     with clGetProgramInfo, in this run or an earlier one)";

impl Shim {
    // ---- programs ------------------------------------------------------------------

    /// Notes a program the application created.
    pub fn program_created(&self, program: Program, origin: ProgramOrigin) {
        if let ProgramOrigin::Opaque(why) = &origin {
            self.log(Level::Debug, &format!("program created; {why}"));
        }
        lock(&self.state).programs.insert(
            program,
            ProgramState {
                origin,
                shadow: None,
                annotating: None,
                built_from: None,
                binary_sizes_seen: None,
                units: None,
            },
        );
    }

    /// Before the application's program builds with `options`: starts annotating its
    /// source on a thread of its own, so that the annotation (hundreds of milliseconds on
    /// a first run: libclang, clang to PTX, the analysis) overlaps the runtime's compile of
    /// the application's program. The twin is built after that compile, as before: the
    /// runtime's compiler chatter on stderr could not be told apart otherwise. From kept
    /// binaries, building it beside gained nothing either: PoCL holds one lock over its
    /// LLVM work, and loading the twin's binaries waited for the application's compile
    /// (docs/performance.md, session 17).
    pub fn program_building(&'static self, program: Program, options: &str) {
        let Some(MadeFrom {
            source,
            options: build,
        }) = self.annotated_from(program, options)
        else {
            return;
        };
        let with = build.clone();
        let spawned = std::thread::Builder::new()
            .name("srcsim-annotate".to_string())
            .spawn(move || self.annotation(&source, &build));
        let Ok(handle) = spawned else { return };
        let earlier = lock(&self.state)
            .programs
            .get_mut(&program)
            .and_then(|p| p.annotating.replace((with, handle)));
        if let Some((_, earlier)) = earlier {
            let _ = earlier.join();
        }
    }

    /// The source `program` is annotated from, and the options to compile it with, where
    /// the application builds it with `options` ([`ProgramOrigin::source`]).
    fn annotated_from(&self, program: Program, options: &str) -> Option<MadeFrom> {
        let state = lock(&self.state);
        let (source, options) = state.programs.get(&program)?.origin.source(options)?;
        Some(MadeFrom {
            source: source.to_string(),
            options: options.to_string(),
        })
    }

    /// The application read the sizes of `program`'s binaries (`CL_PROGRAM_BINARY_SIZES`).
    pub fn binary_sizes_read(&self, program: Program, sizes: Vec<usize>) {
        if let Some(p) = lock(&self.state).programs.get_mut(&program) {
            p.binary_sizes_seen = Some(sizes);
        }
    }

    /// The sizes of `program`'s binaries the application last read, if it did.
    pub fn binary_sizes_seen(&self, program: Program) -> Option<Vec<usize>> {
        lock(&self.state)
            .programs
            .get(&program)
            .and_then(|p| p.binary_sizes_seen.clone())
    }

    /// The application read back the binaries of `program` (`CL_PROGRAM_BINARIES`), whose
    /// bytes have the XXH3 digests `digests`: where its last build compiled a source, each
    /// binary is noted as made from that source and those options, here and in the cache,
    /// so that a program created from one later (this run or another) is simulated.
    pub fn binaries_read(&self, program: Program, digests: &[u128]) {
        let made = {
            let mut state = lock(&self.state);
            let Some(made) = state
                .programs
                .get(&program)
                .and_then(|p| p.built_from.clone())
            else {
                return;
            };
            for &d in digests {
                state.binaries.insert(d, made.clone());
            }
            made
        };
        let cache = &self.cache().cache;
        for &d in digests {
            cache.keep_made_from(&format!("{d:032x}"), &made);
        }
    }

    /// How a program created from binaries whose bytes have the XXH3 digests `digests`
    /// came to be: from the source and options every one of them was made from, where
    /// this run or an earlier one saw the application read them back
    /// ([`Shim::binaries_read`]); else opaque.
    pub fn binary_origin(&self, digests: &[u128]) -> ProgramOrigin {
        let mut made: Option<MadeFrom> = None;
        for &d in digests {
            let known = lock(&self.state).binaries.get(&d).cloned();
            let Some(this) = known.or_else(|| self.cache().cache.made_from(&format!("{d:032x}")))
            else {
                return ProgramOrigin::Opaque(UNSEEN_BINARY);
            };
            if made.as_ref().is_some_and(|m| *m != this) {
                return ProgramOrigin::Opaque(UNSEEN_BINARY);
            }
            lock(&self.state).binaries.insert(d, this.clone());
            made = Some(this);
        }
        made.map_or(ProgramOrigin::Opaque(UNSEEN_BINARY), ProgramOrigin::Known)
    }

    /// Joins every annotation still under way (at exit: none may run on while the
    /// process's libraries unload).
    pub(super) fn join_annotations(&self) {
        let pending: Vec<Annotating> = lock(&self.state)
            .programs
            .values_mut()
            .filter_map(|p| p.annotating.take().map(|(_, h)| h))
            .collect();
        for h in pending {
            let _ = h.join();
        }
    }

    /// After the application's program built (for `devices`, or all of its devices when
    /// `None`): annotates it (or takes the annotation started with the build) and builds
    /// the annotated twin for the same devices.
    pub fn program_built(&self, program: Program, devices: Option<Vec<Device>>, options: &str) {
        let Some(made) = self.annotated_from(program, options) else {
            return;
        };
        if let Some(p) = lock(&self.state).programs.get_mut(&program) {
            p.built_from = Some(made.clone());
        }
        let MadeFrom { source, options } = made;
        let options = options.as_str();
        let started = lock(&self.state)
            .programs
            .get_mut(&program)
            .and_then(|p| p.annotating.take());
        let annotation = match started {
            Some((with, handle)) if with == options => handle
                .join()
                .unwrap_or_else(|_| Err("the annotation panicked".to_string())),
            other => {
                if let Some((_, handle)) = other {
                    let _ = handle.join();
                }
                self.annotation(&source, options)
            }
        };
        let shadow =
            annotation.and_then(|a| self.build_shadow(program, devices, &source, options, a));
        match &shadow {
            // One line on stderr; the whole reason (a build log, compiler diagnostics)
            // goes into the report with every launch, and into the log at `info`.
            Err(reason) => self.warn_in_full("program not simulated", reason),
            Ok(shadow) => {
                for r in &shadow.sidecar.refused {
                    self.warn_in_full(&format!("kernel `{}` not simulated", r.name), &r.reason);
                }
            }
        }
        let old = lock(&self.state)
            .programs
            .get_mut(&program)
            .and_then(|p| p.shadow.replace(shadow.map(Arc::new)));
        if let Some(Ok(old)) = old {
            if let Ok(old) = Arc::try_unwrap(old) {
                old.release();
            }
        }
    }

    /// The annotation of a program's `source` built with `options` (from the cache where
    /// an earlier run made it).
    fn annotation(&self, source: &str, options: &str) -> Result<Annotation, String> {
        let arch = self
            .arch
            .as_ref()
            .map_err(|e| format!("SRCSIM_ARCH: {e}"))?;
        let mut build = BuildOptions::parse(options);
        // The host resolves `#include "..."` from its working directory.
        if let Ok(cwd) = std::env::current_dir() {
            build.include_dirs.push(cwd);
        }
        let started = Instant::now();
        let annotation = {
            let mut compiler = lock(&self.compiler);
            let compiler = compiler
                .get_or_insert_with(|| Compiler::locate().map_err(|e| e.to_string()))
                .as_ref()
                .map_err(|e| format!("no compiler for the annotation: {e}"))?;
            let (a, hit) = self
                .cache()
                .cache
                .annotate_source_with(
                    compiler,
                    "program.cl",
                    "the source given to clCreateProgramWithSource",
                    source,
                    &build,
                    arch,
                    AnnotateOptions {
                        profile: self.config.profile,
                    },
                )
                .map_err(|e| format!("annotation failed: {e}"))?;
            self.log(
                Level::Info,
                &format!(
                    "annotated program with kernels {:?} ({}, {:.1} ms)",
                    a.sidecar
                        .kernels
                        .iter()
                        .map(|k| &k.name)
                        .collect::<Vec<_>>(),
                    if hit { "cached" } else { "new" },
                    started.elapsed().as_secs_f64() * 1e3
                ),
            );
            a
        };
        Ok(annotation)
    }

    fn build_shadow(
        &self,
        program: Program,
        devices: Option<Vec<Device>>,
        source: &str,
        options: &str,
        annotation: Annotation,
    ) -> Result<ShadowProgram, String> {
        let context = program
            .context()
            .map_err(|e| format!("program context: {e}"))?;
        let devices = match devices {
            Some(d) => d,
            None => program
                .devices()
                .map_err(|e| format!("program devices: {e}"))?,
        };
        let twin = Arc::new(LazyProgram {
            context,
            devices: devices.clone(),
            source: annotation.source.clone(),
            options: options.to_string(),
            built: Mutex::new(None),
        });
        // Where no earlier run kept its binaries, the twin is built now, beside the
        // application's build (a compile from source, its chatter taken off stderr here
        // rather than at some launch); else at the first launch that runs it.
        if !self.kept_binaries(&twin) {
            self.lazily_built(&twin, TWIN)
                .map_err(|e| format!("the annotated program did not build: {e}"))?;
        }
        let warps = annotation
            .sidecar
            .kernels
            .iter()
            .any(|k| k.warp_records)
            .then(|| {
                Arc::new(LazyProgram {
                    context,
                    devices: devices.clone(),
                    source: annotation.source.clone(),
                    options: format!("{options} -D{}", annotator::back::codegen::WARPS_DEFINE),
                    built: Mutex::new(None),
                })
            });
        Ok(ShadowProgram {
            program: twin,
            identity: annotator::cache::fingerprint(&[&annotation.source, options]).into(),
            warps,
            profile: annotation
                .sidecar
                .records
                .profile
                .clone()
                .map(|layout| Arc::new(ProfiledProgram::new(layout, source))),
            sidecar: annotation.sidecar,
        })
    }

    /// `w`'s program, built on first use (from the binaries a previous run kept where
    /// there are some) with the runtime's compiler chatter taken off stderr, or why it
    /// did not build; `what` names it in the log.
    pub(super) fn lazily_built(&self, w: &LazyProgram, what: &str) -> Result<Program, String> {
        let mut built = lock(&w.built);
        if let Some(b) = &*built {
            return b.clone();
        }
        let started = Instant::now();
        // The runtime's compiler prints its summary on stderr; that is not the
        // application's to see.
        let (program, chatter) = crate::quiet::without_compiler_chatter(|| {
            self.build_annotated(w.context, &w.source, &w.devices, &w.options)
        });
        for line in chatter {
            self.log(Level::Debug, &format!("building the {what}: {line}"));
        }
        self.log(
            Level::Info,
            &format!(
                "{what} built in {:.1} ms",
                started.elapsed().as_secs_f64() * 1e3
            ),
        );
        *built = Some(program.clone());
        program
    }

    /// Builds the annotated program for `devices`: from the binaries a previous run kept
    /// when there are some (a runtime such as PoCL otherwise preprocesses and hashes the
    /// whole source again, tens of milliseconds per program), else from source, keeping
    /// its binaries for the next run.
    pub(super) fn build_annotated(
        &self,
        context: Context,
        source: &str,
        devices: &[Device],
        options: &str,
    ) -> Result<Program, String> {
        let identities = identities(devices);
        let keys = binary_keys(source, options, &identities);
        let kept = self.cache();
        // Each binary checked whole and made by this process's builds of srcsim, PoCL and
        // clang for this device (`AnnotationCache::binary`): PoCL trusts what it is handed,
        // and aborts the host program on a truncated binary.
        let stored: Option<Vec<Vec<u8>>> = keys.iter().map(|k| kept.cache.binary(k)).collect();
        if let Some(binaries) = stored {
            match context.build_program_from_binaries(devices, &binaries, options) {
                Ok(p) => {
                    self.log(
                        Level::Debug,
                        "annotated program built from the binaries a previous run kept",
                    );
                    return Ok(p);
                }
                Err(e) => self.log(
                    Level::Debug,
                    &format!("the kept binaries of an annotated program did not build ({e}); building from source"),
                ),
            }
        }
        let program = context.build_program(source, devices, options)?;
        if !kept.lasting() {
            // A private directory, removed at exit: no later run would take them.
            return Ok(program);
        }
        if keeper::available() {
            self.log(
                Level::Debug,
                "the annotated program's binaries are kept by a process of their own, once the application releases its context or exits",
            );
            let job = KeepJob::new(
                source,
                options,
                identities.clone(),
                &kept.cache,
                &kept.builds,
            );
            lock(&self.keeping).push(job);
            return Ok(program);
        }
        match program.binaries() {
            Ok(binaries) => {
                for (key, binary) in keys.iter().zip(&binaries) {
                    if binary.is_empty() {
                        continue;
                    }
                    if let Err(e) = kept.cache.store_binary(key, binary) {
                        kept.cache.note_unkept("program binary", &e);
                    }
                }
            }
            Err(e) => self.log(Level::Debug, &format!("reading program binaries: {e}")),
        }
        Ok(program)
    }

    /// Whether the binaries of the annotated program `w` (the twin or its copies), for
    /// every one of its devices, are kept (then [`Shim::build_annotated`] builds from
    /// them, fast).
    pub(super) fn kept_binaries(&self, w: &LazyProgram) -> bool {
        let identities = identities(&w.devices);
        binary_keys(&w.source, &w.options, &identities)
            .iter()
            .all(|key| self.cache().cache.has_binary(key))
    }

    /// Whether an earlier run wanted the copies' program `w` and could not build it
    /// ([`AnnotationCache::mark_wanted`]).
    pub(super) fn wanted_before(&self, w: &LazyProgram) -> bool {
        let identities = identities(&w.devices);
        binary_keys(&w.source, &w.options, &identities)
            .iter()
            .any(|key| self.cache().cache.is_wanted(key))
    }

    /// Notes for the next run that the copies' program `w` is wanted.
    pub(super) fn mark_wanted(&self, w: &LazyProgram) {
        let identities = identities(&w.devices);
        for key in binary_keys(&w.source, &w.options, &identities) {
            if let Err(e) = self.cache().cache.mark_wanted(&key) {
                self.log(
                    Level::Debug,
                    &format!("noting the copies for the next run: {e}"),
                );
            }
        }
    }

    /// Forgets a program the application is releasing for the last time.
    pub fn program_releasing(&self, program: Program) {
        if program.reference_count() != 1 {
            return;
        }
        let mut gone = lock(&self.state).programs.remove(&program);
        if let Some((_, handle)) = gone.as_mut().and_then(|p| p.annotating.take()) {
            let _ = handle.join();
        }
        if let Some(ProgramState {
            shadow: Some(Ok(shadow)),
            ..
        }) = gone
        {
            if let Ok(shadow) = Arc::try_unwrap(shadow) {
                shadow.release();
            }
        }
    }

    // ---- kernels -------------------------------------------------------------------

    /// Notes a kernel the application created from `program`, and creates its shadow.
    pub fn kernel_created(&self, program: Program, kernel: Kernel) {
        let name = kernel.name().unwrap_or_default();
        let shadow = {
            let state = lock(&self.state);
            match state.programs.get(&program) {
                None => Err("its program was not created through srcsim".to_string()),
                Some(ProgramState {
                    origin: ProgramOrigin::Opaque(why),
                    ..
                }) => Err(why.to_string()),
                Some(ProgramState { shadow: None, .. }) => {
                    Err("its program was not built with clBuildProgram".to_string())
                }
                Some(ProgramState {
                    shadow: Some(Err(e)),
                    ..
                }) => Err(e.clone()),
                Some(ProgramState {
                    shadow: Some(Ok(p)),
                    ..
                }) => Ok(p.clone()),
            }
        }
        .and_then(|p| self.shadow_kernel(&p, &name));
        if let Err(reason) = &shadow {
            self.log(
                Level::Info,
                &format!("kernel `{name}` runs unannotated: {reason}"),
            );
        }
        lock(&self.state).kernels.insert(
            kernel,
            KernelState {
                name: name.into(),
                shadow: shadow.map(Arc::new),
            },
        );
    }

    /// Notes a kernel the application cloned from `source` (`clCloneKernel`): the clone
    /// runs the same code with the source's arguments as they are now, so its shadow is
    /// the source's annotated kernel cloned by the runtime (`clone_shadow`: the same
    /// arguments set) with what the shim knows of those arguments; the copy that reduces
    /// records to warps is made again on the clone's first use.
    pub fn kernel_cloned(
        &self,
        source: Kernel,
        clone: Kernel,
        clone_shadow: impl FnOnce(Kernel) -> Result<Kernel, i32>,
    ) {
        let Some((name, shadow)) = lock(&self.state)
            .kernels
            .get(&source)
            .map(|k| (k.name.clone(), k.shadow.clone()))
        else {
            return;
        };
        let shadow = shadow.and_then(|s| {
            let (mut args, made) = {
                let args = lock(&s.args);
                (args.cloned(), args.kernels().own)
            };
            // An annotated kernel made already has the source's arguments set: the
            // runtime's clone of it has them too. Else the clone's is made on first use.
            if let Some(kernel) = made {
                let kernel = clone_shadow(kernel).map_err(|e| {
                    format!("its annotated kernel could not be cloned ({})", ClError(e))
                })?;
                args.own = Some(Ok(kernel));
            }
            Ok(Arc::new(s.with_args(args)))
        });
        if let Err(reason) = &shadow {
            self.log(
                Level::Info,
                &format!("clone of kernel `{name}` runs unannotated: {reason}"),
            );
        }
        lock(&self.state)
            .kernels
            .insert(clone, KernelState { name, shadow });
    }

    fn shadow_kernel(&self, p: &ShadowProgram, name: &str) -> Result<Shadow, String> {
        let sidecar = &p.sidecar;
        // Left out of the twin: it runs as the application's program has it.
        if let Some(r) = sidecar.refused.iter().find(|r| r.name == name) {
            return Err(r.reason.clone());
        }
        let annotated = sidecar
            .kernels
            .iter()
            .find(|k| k.name == name)
            .ok_or_else(|| format!("the annotator did not annotate kernel `{name}`"))?;
        let analysis = sidecar
            .analysis
            .kernels
            .iter()
            .find(|k| k.name == name)
            .ok_or_else(|| format!("no analysis of kernel `{name}`"))?;
        let copy = p
            .warps
            .as_ref()
            .zip(annotated.warp_kernel())
            .map(|(program, name)| (Arc::clone(program), name));
        Ok(Shadow {
            twin: (Arc::clone(&p.program), name.to_string()),
            copy,
            records_arg: annotated.records_arg as u32,
            local_params: analysis
                .params
                .iter()
                .map(|p| p.split_whitespace().any(|w| w == ".shared"))
                .collect(),
            params: annotated.params.clone(),
            model: Arc::new(KernelModel {
                format: sidecar.records.format,
                usage_scale: sidecar.records.usage_scale,
                registers: analysis.registers,
                static_shared_bytes: analysis.shared_memory_bytes,
                code_instructions: analysis.code_instructions(),
                arm_code: annotated.arm_code(analysis),
                first_round_warp_bytes: self
                    .arch
                    .as_ref()
                    .ok()
                    .and_then(|arch| analysis.first_round_warp_bytes(&arch.memory)),
                frame_bytes: analysis.frame_bytes,
                l1_sharing: analysis.l1_sharing.clone(),
                read_params: analysis.read_params.clone(),
                note: sidecar.timing_note(name),
                samples: sidecar.records.samples_of(name),
                profile: p.profile.as_ref().map(|program| KernelProfile {
                    kernel: name.to_string(),
                    program: Arc::clone(program),
                }),
            }),
            path_inputs: annotated.path_inputs.clone(),
            values_in_record: annotated.values_in_record,
            group_free: annotated.group_free,
            host_paths: annotated.host_paths.clone().map(Arc::new),
            program: Arc::clone(&p.identity),
            args: Mutex::new(ShadowArgs::default()),
        })
    }

    /// Repeats an argument setting the runtime accepted on the kernel's shadows with
    /// `mirror` (`setting` says which), where the kernel has a shadow; notes the size of
    /// `__local` arguments and of the buffers bound to buffer arguments. A failure keeps
    /// the launches unannotated until the application sets the same thing again and that
    /// mirrors.
    pub fn set_arg(
        &self,
        kernel: Kernel,
        setting: MirroredSetting,
        value: ArgValue,
        raw: SetArgRef<'_>,
        mirror: impl Fn(Kernel) -> i32,
    ) {
        let Some(shadow) = self.shadow_of(kernel) else {
            return;
        };
        let Some(index) = setting.arg() else {
            return;
        };
        let mut args = lock(&shadow.args);
        args.remember(index, raw);
        if let ArgValue::Null(size) = value {
            if shadow.local_params.get(index as usize) == Some(&true) {
                args.local_bytes.insert(index, size as u64);
            }
        }
        if shadow.params.get(index as usize) == Some(&ParamKind::Buffer) {
            let buffer = match value {
                ArgValue::Null(_) => Some((0, 0)),
                ArgValue::Handle(mem) if mem.0.is_null() => Some((0, 0)),
                // The real clSetKernelArg accepted it, so it is a live buffer.
                ArgValue::Handle(mem) => mem.size().ok().map(|size| (mem.0 as usize, size)),
                ArgValue::Svm | ArgValue::Other => None,
            };
            args.buffers.insert(index, buffer);
        }
        let code = args.kernels().set_each(mirror);
        args.mirrored(setting, code);
    }

    /// Repeats a `clSetKernelExecInfo` the runtime accepted on the kernel's shadows with
    /// `mirror`, as [`Shim::set_arg`] does.
    pub fn set_exec_info(
        &self,
        kernel: Kernel,
        param: u32,
        value: &[u8],
        mirror: impl Fn(Kernel) -> i32,
    ) {
        let Some(shadow) = self.shadow_of(kernel) else {
            return;
        };
        let mut args = lock(&shadow.args);
        args.exec_info.insert(param, value.to_vec());
        let code = args.kernels().set_each(mirror);
        args.mirrored(MirroredSetting::ExecInfo(param), code);
    }

    fn shadow_of(&self, kernel: Kernel) -> Option<Arc<Shadow>> {
        lock(&self.state)
            .kernels
            .get(&kernel)
            .and_then(|k| k.shadow.as_ref().ok().cloned())
    }

    /// Forgets a kernel the application is releasing for the last time.
    pub fn kernel_releasing(&self, kernel: Kernel) {
        if kernel.reference_count() != 1 {
            return;
        }
        if let Some(KernelState { shadow: Ok(s), .. }) = lock(&self.state).kernels.remove(&kernel) {
            let kernels = lock(&s.args).kernels();
            kernels.into_iter().for_each(Kernel::release);
        }
    }
}
