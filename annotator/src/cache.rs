//! The on-disk cache of annotations, for programs built from source strings (what the
//! runtime shim sees in `clCreateProgramWithSource`): keyed by the tool version, the
//! source, the build options, the architecture and the file name, so that a second run
//! does not compile again.
//!
//! Layout: `<dir>/<key>/<name>` (the source, compiled from there so that diagnostics name
//! it), `annotated.cl` and `sidecar.json`, each written under a temporary name and
//! renamed, the sidecar last: an entry with a sidecar is complete.

use std::path::{Path, PathBuf};

use pipeline_model::Architecture;

use crate::annotate::{annotate_file, AnnotateError, Annotation, Sidecar};
use crate::compile::{BuildOptions, Compiler};

/// Where annotations are kept.
#[derive(Debug, Clone)]
pub struct AnnotationCache {
    dir: PathBuf,
}

/// 128 bits of FNV-1a over the parts, each followed by a separator.
fn key(parts: &[&str]) -> String {
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

/// Writes `text` to `path` through a temporary file in the same directory.
fn write_atomically(path: &Path, text: &str) -> Result<(), AnnotateError> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, text).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// Whether `e` follows from the source, options and architecture alone.
fn is_lasting(e: &AnnotateError) -> bool {
    use crate::analysis::AnalyzeError;
    use crate::compile::CompileError;
    !matches!(
        e,
        AnnotateError::Analyze(AnalyzeError::Compile(
            CompileError::ToolMissing { .. } | CompileError::Io { .. } | CompileError::Crash { .. },
        )) | AnnotateError::Cache { .. }
            | AnnotateError::Cached(_)
    )
}

impl AnnotationCache {
    /// A cache in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        AnnotationCache { dir: dir.into() }
    }

    /// `SRCSIM_CACHE_DIR`, else `$XDG_CACHE_HOME/srcsim`, else `~/.cache/srcsim`, else a
    /// directory in the system's temporary directory.
    pub fn from_env() -> Self {
        let env = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let dir = env("SRCSIM_CACHE_DIR")
            .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("srcsim")))
            .or_else(|| env("HOME").map(|d| d.join(".cache/srcsim")))
            .unwrap_or_else(|| std::env::temp_dir().join("srcsim-cache"));
        Self::at(dir)
    }

    /// Annotates `source` (named `name`, as in diagnostics) with `options` for `arch`, or
    /// returns the cached result; the flag says whether it was cached.
    pub fn annotate_source(
        &self,
        compiler: &Compiler,
        name: &str,
        source: &str,
        options: &BuildOptions,
        arch: &Architecture,
    ) -> Result<(Annotation, bool), AnnotateError> {
        let arch_text = toml::to_string(arch).unwrap_or_else(|_| format!("{arch:?}"));
        let options_text = options.clang_args().join("\u{1}");
        let entry = self.dir.join(key(&[
            env!("CARGO_PKG_VERSION"),
            name,
            source,
            &options_text,
            &arch_text,
        ]));
        let annotated = entry.join("annotated.cl");
        let sidecar = entry.join("sidecar.json");
        let failure = entry.join("failure.txt");
        if let Ok(message) = std::fs::read_to_string(&failure) {
            return Err(AnnotateError::Cached(message));
        }
        if let (Ok(text), Ok(json)) = (
            std::fs::read_to_string(&annotated),
            std::fs::read_to_string(&sidecar),
        ) {
            if let Ok(sidecar) = serde_json::from_str::<Sidecar>(&json) {
                return Ok((
                    Annotation {
                        source: text,
                        sidecar,
                    },
                    true,
                ));
            }
        }
        std::fs::create_dir_all(&entry).map_err(io(&entry))?;
        let file = entry.join(Path::new(name).file_name().unwrap_or("kernel.cl".as_ref()));
        write_atomically(&file, source)?;
        let a = match annotate_file(compiler, &file, options, arch) {
            Ok(a) => a,
            Err(e) => {
                // What the source and options decide is decided again the same way: keep
                // it, so that a program that cannot be annotated costs no compile per run.
                // Missing tools, I/O trouble and compiler crashes may pass; try them anew.
                if is_lasting(&e) {
                    write_atomically(&failure, &e.to_string())?;
                }
                return Err(e);
            }
        };
        write_atomically(&annotated, &a.source)?;
        let json = serde_json::to_string(&a.sidecar).expect("the sidecar serialises");
        write_atomically(&sidecar, &json)?;
        Ok((a, false))
    }
}
