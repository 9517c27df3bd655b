//! OpenCL C -> PTX with clang 19 and libclc.
//!
//! We run the `clang-19` binary rather than linking clang in-process: OpenCL C front-end
//! compilation is only reachable through clang's C++ API (libclang's C API parses, it does
//! not generate code, and inkwell/LLVM-C start from IR), the binary is what Debian ships
//! and tests, a crash in the back end (LLVM 19's NVPTX still has a few) cannot take the host
//! program down with it, and its diagnostics are exactly those users know. One run costs
//! about 0.1 s for a typical kernel, libclc linking included.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Build options of an OpenCL program, as `clBuildProgram` or the command line give them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// `-D NAME[=VALUE]`.
    pub defines: Vec<String>,
    /// `-I DIR`.
    pub include_dirs: Vec<PathBuf>,
    /// `-cl-std=CLx.y`; CL1.2 when absent.
    pub cl_std: Option<String>,
    /// Other options clang understands (`-cl-mad-enable`, `-cl-fast-relaxed-math`, `-w`, ...).
    pub other: Vec<String>,
    /// Not an OpenCL option but srcsim's own: compile loops as the source writes them, with
    /// no unrolling and unroll pragmas and hints ignored ([`KEEP_LOOPS`], given to the
    /// compiler's code generation only, not to libclang, whose LLVM options are the whole
    /// process's). The fallback for loops unrolled into shapes the annotator cannot count.
    pub keep_loops: bool,
    /// Not an OpenCL option but srcsim's own: compile at `-O1` rather than `-O3`. The
    /// fallback where clang's NVPTX back end crashes on a kernel at `-O3`.
    pub less_optimisation: bool,
}

/// What [`BuildOptions::keep_loops`] adds to the compile.
pub const KEEP_LOOPS: [&str; 3] = ["-fno-unroll-loops", "-mllvm", "-unroll-count=1"];

impl BuildOptions {
    /// Reads an OpenCL build-option string (`"-D N=16 -I inc -cl-std=CL1.2"`).
    pub fn parse(options: &str) -> Self {
        let mut opts = BuildOptions::default();
        let mut words = options.split_whitespace();
        while let Some(w) = words.next() {
            if w == "-D" {
                opts.defines.extend(words.next().map(String::from));
            } else if let Some(d) = w.strip_prefix("-D") {
                opts.defines.push(d.to_string());
            } else if w == "-I" {
                opts.include_dirs.extend(words.next().map(PathBuf::from));
            } else if let Some(d) = w.strip_prefix("-I") {
                opts.include_dirs.push(PathBuf::from(d));
            } else if let Some(s) = w.strip_prefix("-cl-std=") {
                opts.cl_std = Some(s.to_string());
            } else {
                opts.other.push(w.to_string());
            }
        }
        opts
    }

    pub(crate) fn clang_args(&self) -> Vec<String> {
        let mut args = vec![format!(
            "-cl-std={}",
            self.cl_std.as_deref().unwrap_or("CL1.2")
        )];
        args.extend(self.defines.iter().map(|d| format!("-D{d}")));
        args.extend(
            self.include_dirs
                .iter()
                .map(|d| format!("-I{}", d.display())),
        );
        args.extend(self.other.iter().cloned());
        args
    }
}

/// Why a kernel did not become PTX.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// clang or libclc is not installed.
    #[error("{what} not found ({looked}); run scripts/install-deps")]
    ToolMissing {
        /// clang or libclc.
        what: &'static str,
        /// Where we looked.
        looked: String,
    },
    /// The source file cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// clang rejected the kernel; `diagnostics` are its messages (file:line:col: error: ...).
    #[error("{path}: compilation failed\n{diagnostics}")]
    Diagnostics {
        /// The kernel file.
        path: String,
        /// clang's messages.
        diagnostics: String,
    },
    /// clang crashed (a back-end limitation), without a source diagnostic.
    #[error("{path}: clang failed in code generation: {message}")]
    Crash {
        /// The kernel file.
        path: String,
        /// The first lines of clang's report.
        message: String,
    },
}

/// A kernel compiled to PTX.
#[derive(Debug, Clone)]
pub struct CompiledPtx {
    /// The PTX text.
    pub ptx: String,
    /// clang's warnings (empty when it had nothing to say).
    pub warnings: String,
}

/// The clang binary and libclc bitcode used for compilation.
#[derive(Debug, Clone)]
pub struct Compiler {
    clang: PathBuf,
    libclc: PathBuf,
}

const CLANG_CANDIDATES: &[&str] = &["/usr/lib/llvm-19/bin/clang", "/usr/bin/clang-19"];
const LIBCLC_CANDIDATES: &[&str] = &[
    "/usr/lib/clc/nvptx64--nvidiacl.bc",
    "/usr/lib/llvm-19/share/clc/nvptx64--nvidiacl.bc",
];

fn find(env: &str, candidates: &[&str]) -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os(env) {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("{env}={}", p.display()))
        };
    }
    candidates
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .ok_or_else(|| format!("${env} unset; tried {}", candidates.join(", ")))
}

impl Compiler {
    /// A compiler from explicit paths (clang 19 and libclc's nvptx64--nvidiacl.bc).
    pub fn with_paths(clang: impl Into<PathBuf>, libclc: impl Into<PathBuf>) -> Self {
        Compiler {
            clang: clang.into(),
            libclc: libclc.into(),
        }
    }

    /// The clang executable it runs.
    pub fn clang(&self) -> &Path {
        &self.clang
    }

    /// Finds clang 19 and libclc (`SRCSIM_CLANG` and `SRCSIM_LIBCLC` override).
    pub fn locate() -> Result<Self, CompileError> {
        let clang =
            find("SRCSIM_CLANG", CLANG_CANDIDATES).map_err(|looked| CompileError::ToolMissing {
                what: "clang 19",
                looked,
            })?;
        let libclc = find("SRCSIM_LIBCLC", LIBCLC_CANDIDATES).map_err(|looked| {
            CompileError::ToolMissing {
                what: "libclc (nvptx64--nvidiacl.bc)",
                looked,
            }
        })?;
        Ok(Compiler { clang, libclc })
    }

    /// Runs a clang command to completion.
    fn run(&self, command: &mut Command) -> Result<std::process::Output, CompileError> {
        // Under the shim the host's environment preloads libsrcsim.so; clang needs none of
        // it, and loading it would only cost time.
        command
            .env_remove("LD_PRELOAD")
            .output()
            .map_err(|e| CompileError::ToolMissing {
                what: "clang 19",
                looked: format!("{}: {e}", self.clang.display()),
            })
    }

    /// clang's resource directory (its builtin headers, `opencl-c.h` among them), which
    /// libclang must be told: it looks for it next to itself, where Debian has none.
    pub fn resource_dir(&self) -> Result<PathBuf, CompileError> {
        let out = self.run(Command::new(&self.clang).arg("-print-resource-dir"))?;
        Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
    }

    /// Checks that the OpenCL C file `source` is valid (parsing and semantic analysis, no
    /// code generation), as any OpenCL compiler would see it.
    pub fn check_syntax(&self, source: &Path, options: &BuildOptions) -> Result<(), CompileError> {
        let output = self.run(
            Command::new(&self.clang)
                .args(["-x", "cl", "-fsyntax-only", "-fno-color-diagnostics"])
                .args(["-Xclang", "-finclude-default-header"])
                .args(options.clang_args())
                .arg(source),
        )?;
        if output.status.success() {
            return Ok(());
        }
        Err(CompileError::Diagnostics {
            path: source.display().to_string(),
            diagnostics: String::from_utf8_lossy(&output.stderr)
                .trim_end()
                .to_string(),
        })
    }

    /// Compiles the OpenCL C file `source` for the PTX target `ptx_target` (`sm_90`) at
    /// -O3 with line tables.
    pub fn compile(
        &self,
        source: &Path,
        options: &BuildOptions,
        ptx_target: &str,
    ) -> Result<CompiledPtx, CompileError> {
        let path = source.display().to_string();
        if !source.is_file() {
            return Err(CompileError::Io {
                path,
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            });
        }
        let prelude = prelude_path().map_err(|source| CompileError::Io {
            path: "the srcsim NVPTX prelude".into(),
            source,
        })?;
        let output = self.run(
            Command::new(&self.clang)
                .args(["-x", "cl", "-target", "nvptx64-unknown-nvidiacl"])
                .arg(format!("-march={ptx_target}"))
                .arg(if options.less_optimisation {
                    "-O1"
                } else {
                    "-O3"
                })
                .args(["-gdwarf-4", "-gline-tables-only", "-S", "-o", "-"])
                .args(["-fno-crash-diagnostics", "-fno-color-diagnostics"])
                .args(["-Xclang", "-mlink-builtin-bitcode", "-Xclang"])
                .arg(&self.libclc)
                .arg("-include")
                .arg(prelude)
                .args(GPU_TARGET_EXTENSIONS)
                .args(options.clang_args())
                .args(if options.keep_loops {
                    &KEEP_LOOPS[..]
                } else {
                    &[]
                })
                .arg(source),
        )?;
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        if output.status.success() {
            return Ok(CompiledPtx {
                ptx: String::from_utf8_lossy(&output.stdout).into_owned(),
                warnings: stderr,
            });
        }
        // A source diagnostic names the file; a back-end crash prints a stack dump, or a
        // back-end error, and clang's note that the front-end command failed.
        let crashed = [
            "Stack dump:",
            "PLEASE submit",
            "error in backend",
            "command failed",
        ]
        .iter()
        .any(|m| stderr.contains(m));
        if !crashed && stderr.contains(": error:") {
            return Err(CompileError::Diagnostics {
                path,
                diagnostics: stderr.trim_end().to_string(),
            });
        }
        // What clang says of the crash: its message, and the stack dump's numbered lines
        // (what it was doing: the pass, the function), not the bug-report request nor the
        // raw frames.
        let message = stderr
            .lines()
            .map(str::trim)
            .filter(|l| {
                !l.is_empty()
                    && !l.starts_with("PLEASE submit")
                    && !l.starts_with("Stack dump")
                    && !l.starts_with('#')
                    && !l.contains("0x")
                    && !l.starts_with("clang: error: clang frontend command failed")
                    && !l.starts_with("clang: note:")
            })
            .take(6)
            .collect::<Vec<_>>()
            .join("\n");
        Err(CompileError::Crash { path, message })
    }
}

const PRELUDE: &str = include_str!("nvptx_prelude.h");

/// OpenCL extensions clang's NVPTX target does not declare but the devices the twin runs
/// on (PoCL's) support, enabled for the GPU-target compile and its parse: a kernel that
/// writes a 3D image would otherwise fail the whole file there ("use of type
/// '__write_only image3d_t' requires cl_khr_3d_image_writes support"). OpenCL C 3.0's
/// feature macros come with them (its 3D image writes require `__opencl_c_images`, or
/// every OpenCL C 3.0 compile fails). The image built-ins stay calls with no code: the
/// classifier times their reads and writes on the texture path (`opcode::image_access`).
pub const GPU_TARGET_EXTENSIONS: [&str; 2] = [
    "-Xclang",
    "-cl-ext=+__opencl_c_images,+cl_khr_3d_image_writes,+__opencl_c_3d_image_writes,+cl_khr_depth_images",
];

/// Writes the prelude once per process into a directory keyed by its content.
fn prelude_path() -> std::io::Result<&'static Path> {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    static WRITING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    if let Some(p) = PATH.get() {
        return Ok(p);
    }
    // One thread of this process writes it; other processes may write it at the same
    // time, each through its own temporary name.
    let _guard = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = PATH.get() {
        return Ok(p);
    }
    let hash = PRELUDE.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let dir = std::env::temp_dir().join(format!("srcsim-prelude-{hash:016x}"));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("nvptx_prelude.h");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(PRELUDE) {
        // Write beside and rename, so a concurrent reader never sees half a file.
        let tmp = dir.join(format!("nvptx_prelude.h.{}", std::process::id()));
        std::fs::write(&tmp, PRELUDE)?;
        std::fs::rename(&tmp, &path)?;
    }
    Ok(PATH.get_or_init(|| path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_options_are_split() {
        let o = BuildOptions::parse("-D N=16 -DTILE=8 -I inc -Ifoo -cl-std=CL2.0 -cl-mad-enable");
        assert_eq!(o.defines, ["N=16", "TILE=8"]);
        assert_eq!(o.include_dirs, [PathBuf::from("inc"), PathBuf::from("foo")]);
        assert_eq!(o.cl_std.as_deref(), Some("CL2.0"));
        assert_eq!(o.other, ["-cl-mad-enable"]);
        assert_eq!(
            o.clang_args(),
            [
                "-cl-std=CL2.0",
                "-DN=16",
                "-DTILE=8",
                "-Iinc",
                "-Ifoo",
                "-cl-mad-enable"
            ]
        );
    }
}
