//! Program binaries kept for the next run by a process of their own.
//!
//! A run that builds an annotated program from source keeps its binaries, so that the
//! next run builds it from them in a millisecond (from source, PoCL preprocesses and
//! hashes it again: 70 to 85 ms more per program, `docs/performance.md`). But asking PoCL
//! for a program's binaries makes it compile a work-group function of every kernel for
//! any work-group size: 0.5 to 1.1 s of a first run on the examples, and the copies
//! that reduce records to warps, put off to the context's release, another 0.9 s. A
//! [`KeepJob`] hands that work to `srcsim keep-binaries`, started detached (no standard
//! streams, its own process group, without the layer or preload that would annotate the
//! annotated program again) when the application releases the program's context or exits,
//! so that it does not compete with the application for the cores: the first run no
//! longer waits for it, and the next finds the binaries where the keeper has finished
//! (else it builds from source, as before).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use annotator::cache::{sealed, AnnotationCache};
use serde::{Deserialize, Serialize};

use crate::builds::{Builds, PoclBuild};

use std::ptr;

use crate::cl::{ClError, Context, Device, Platform};
use crate::ffi::{cl_context_properties, CL_CONTEXT_PLATFORM, CL_DEVICE_TYPE_ALL, CL_SUCCESS};
use crate::real;

/// A program to build from source on some devices, whose binaries to keep in a cache.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeepJob {
    /// The (annotated) source.
    pub source: String,
    /// Its build options.
    pub options: String,
    /// The devices to build it for, by [`Device::identity`].
    pub devices: Vec<String>,
    /// The annotation cache to keep the binaries in.
    pub cache: PathBuf,
    /// The builds the binaries are sealed with (the asking process's: a keeper is
    /// another program, whose own build-id is not the library's).
    #[serde(default)]
    pub builds: Builds,
}

impl KeepJob {
    /// The job of building `source` with `options` for the devices of `identities`
    /// ([`Device::identity`]), its binaries kept in `cache`.
    pub(crate) fn new(
        source: &str,
        options: &str,
        identities: Vec<String>,
        cache: &AnnotationCache,
        builds: &Builds,
    ) -> KeepJob {
        KeepJob {
            source: source.to_string(),
            options: options.to_string(),
            devices: identities,
            cache: cache.dir().to_path_buf(),
            builds: builds.clone(),
        }
    }

    /// The cache keys of the job's binaries, one per device: the source, the options and
    /// the device.
    pub fn keys(&self) -> Vec<[&str; 3]> {
        binary_keys(&self.source, &self.options, &self.devices)
    }

    /// Where the job waits for its keeper: one file per program and devices, so that a
    /// run that starts before the keeper has finished starts no second one.
    fn path(&self) -> PathBuf {
        let parts: Vec<&str> = self.keys().into_iter().flatten().collect();
        let name = format!(
            "{:016x}.json",
            xxhash_rust::xxh3::xxh3_64(parts.join("\u{2}").as_bytes())
        );
        self.cache.join("keeping").join(name)
    }
}

/// The identities ([`Device::identity`]) of `devices`, which name them in binaries' keys.
pub(crate) fn identities(devices: &[Device]) -> Vec<String> {
    devices.iter().map(|d| d.identity()).collect()
}

/// The cache keys of a program's binaries, one per device (of `identities`).
pub(crate) fn binary_keys<'a>(
    source: &'a str,
    options: &'a str,
    identities: &'a [String],
) -> Vec<[&'a str; 3]> {
    identities
        .iter()
        .map(|id| [source, options, id.as_str()])
        .collect()
}

/// `SRCSIM_BIN` (`srcsim run` sets it), else the `srcsim` program beside this library
/// (`libsrcsim.so`, found among the process's mappings: in its directory, the one above
/// (cargo's `deps`), or `../bin`).
fn keeper_program() -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os(crate::config::env::BIN).filter(|b| !b.is_empty()) {
        return Some(PathBuf::from(bin)).filter(|p| p.is_file());
    }
    let maps = crate::builds::mappings();
    let library = maps
        .iter()
        .map(|(_, p)| p)
        .find(|p| p.ends_with("libsrcsim.so"))?;
    let dir = library.parent()?;
    ["srcsim", "../srcsim", "../bin/srcsim"]
        .iter()
        .map(|p| dir.join(p))
        .find(|p| p.is_file())
}

/// How long a job's file stands for a keeper under way.
const STALE_JOB: std::time::Duration = std::time::Duration::from_secs(600);

/// Whether the job at `path` has a keeper under way: its file is younger than a keeper's
/// longest build (an older one was left by a keeper that never finished, killed with
/// its machine, and is replaced).
fn under_way(path: &Path) -> bool {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age < STALE_JOB)
}

/// Whether a keeper can be started (the `srcsim` program is found).
pub(crate) fn available() -> bool {
    keeper_program().is_some()
}

/// Starts a keeper for `job` (or finds one under way); false where none can start (the
/// caller then keeps the binaries itself).
pub(crate) fn spawn(job: &KeepJob) -> bool {
    let Some(program) = keeper_program() else {
        return false;
    };
    let path = job.path();
    if under_way(&path) {
        return true;
    }
    let _ = std::fs::remove_file(&path);
    let written = path
        .parent()
        .is_some_and(|dir| std::fs::create_dir_all(dir).is_ok())
        && serde_json::to_vec(job)
            .ok()
            .is_some_and(|json| write_new(&path, &sealed::seal(JOB_IDENTITY, &json)));
    if !written {
        return false;
    }
    // The process started here only starts the keeper and exits (`--detach`), and is
    // waited for: the keeper is then no child of the application's, which may wait for
    // any child of its own (`wait()`) and must never get srcsim's, nor keep its zombies
    // (a CTS binary under the shim held 614).
    let started = keeper_command(&program, &path)
        .arg("--detach")
        .status()
        .is_ok_and(|s| s.success());
    if !started {
        let _ = std::fs::remove_file(&path);
    }
    started
}

/// `srcsim keep-binaries JOB` (the options after it), quiet, in a process group of its
/// own (a terminal's ^C to the application does not reach it), with none of the
/// variables that would load srcsim into it.
fn keeper_command(program: &Path, job: &Path) -> Command {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(program);
    command
        .arg("keep-binaries")
        .arg(job)
        .env_remove("OPENCL_LAYERS")
        .env_remove("LD_PRELOAD")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    command
}

/// `srcsim keep-binaries --detach JOB`: starts the keeper of `job` as a process of its
/// own and returns at once; this process then exits, and the keeper's parent becomes the
/// system's (which reaps it), not the application's.
pub fn detach(job_path: &Path) -> Result<(), String> {
    let program = std::env::current_exe().map_err(|e| format!("this program: {e}"))?;
    keeper_command(&program, job_path)
        .spawn()
        .map(drop)
        .map_err(|e| format!("{}: {e}", program.display()))
}

/// Writes `bytes` to a new file at `path` (through a temporary file beside it, so that a
/// keeper never reads half a job).
fn write_new(path: &Path, bytes: &[u8]) -> bool {
    let Some(dir) = path.parent() else {
        return false;
    };
    let Ok(mut file) = tempfile::NamedTempFile::new_in(dir) else {
        return false;
    };
    use std::io::Write;
    file.write_all(bytes).is_ok() && file.persist_noclobber(path).is_ok()
}

/// What a job's file is sealed with (`annotator::cache::sealed`): it is checked whole, as
/// every file in the cache is, before a keeper builds what it says.
const JOB_IDENTITY: &str = "srcsim keep-binaries job";

/// `srcsim keep-binaries JOB`: builds the job's program from source on its devices and
/// keeps the binaries; the job's file is removed either way.
pub fn keep(job_path: &Path) -> Result<(), String> {
    let text = std::fs::read(job_path).map_err(|e| format!("{}: {e}", job_path.display()))?;
    let result = sealed::unseal(JOB_IDENTITY, &text)
        .map_err(|fault| format!("{}: {fault}", job_path.display()))
        .and_then(|json| {
            serde_json::from_slice::<KeepJob>(json)
                .map_err(|e| format!("{}: {e}", job_path.display()))
        })
        .and_then(|job| build_and_keep(&job));
    let _ = std::fs::remove_file(job_path);
    result
}

fn build_and_keep(job: &KeepJob) -> Result<(), String> {
    let platforms = platforms().map_err(|e| format!("the OpenCL platforms: {e}"))?;
    for platform in platforms {
        let Ok(context) = context_of(platform) else {
            continue;
        };
        let all = context.devices().unwrap_or_default();
        let devices: Option<Vec<Device>> = job
            .devices
            .iter()
            .map(|id| all.iter().copied().find(|d| d.identity() == *id))
            .collect();
        let Some(devices) = devices else {
            release(context);
            continue;
        };
        let built = context.build_program(&job.source, &devices, &job.options);
        let kept = built.and_then(|program| {
            let binaries = program.binaries().map_err(|e| format!("binaries: {e}"));
            program.release();
            binaries
        });
        release(context);
        // Sealed as the asking process's PoCL's: only where this is the same PoCL.
        let pocl = PoclBuild::of_this_process();
        if pocl.0 != job.builds.pocl {
            return Err(format!(
                "this process loaded another PoCL ({}) than the job's ({}): binaries not kept",
                pocl.0, job.builds.pocl
            ));
        }
        let cache = AnnotationCache::at(&job.cache).with_identity(&job.builds.identity());
        for (key, binary) in job.keys().iter().zip(kept?) {
            if !binary.is_empty() {
                cache
                    .store_binary(key, &binary)
                    .map_err(|e| format!("keeping a binary: {e}"))?;
            }
        }
        return Ok(());
    }
    Err("no platform has the job's devices".to_string())
}

/// Every platform the loader offers.
fn platforms() -> Result<Vec<Platform>, ClError> {
    let mut n = 0;
    let code = real!(clGetPlatformIDs(0, ptr::null_mut(), &mut n));
    if code != CL_SUCCESS {
        return Err(ClError(code));
    }
    let mut v = vec![ptr::null_mut(); n as usize];
    let code = real!(clGetPlatformIDs(n, v.as_mut_ptr(), ptr::null_mut()));
    if code != CL_SUCCESS {
        return Err(ClError(code));
    }
    Ok(v.into_iter()
        .filter(|p| !p.is_null())
        .map(Platform)
        .collect())
}

/// A context of every device of `platform`, released with [`release`].
fn context_of(platform: Platform) -> Result<Context, ClError> {
    let properties = [CL_CONTEXT_PLATFORM, platform.0 as cl_context_properties, 0];
    let mut err = CL_SUCCESS;
    let c = real!(clCreateContextFromType(
        properties.as_ptr(),
        CL_DEVICE_TYPE_ALL,
        None,
        ptr::null_mut(),
        &mut err
    ));
    if err != CL_SUCCESS {
        return Err(ClError(err));
    }
    Ok(Context(c))
}

fn release(context: Context) {
    real!(clReleaseContext(context.0));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_job_is_under_way_and_a_stale_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let job = KeepJob {
            source: "kernel".to_string(),
            options: "-DX".to_string(),
            devices: vec!["cpu".to_string(), "gpu".to_string()],
            cache: dir.path().to_path_buf(),
            builds: Builds::default(),
        };
        let path = job.path();
        assert!(!under_way(&path), "no file, no keeper");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        assert!(write_new(&path, b"{}"));
        assert!(under_way(&path));
        // A second job file for the same program is not written over the first.
        assert!(!write_new(&path, b"{}"));
        let old = std::time::SystemTime::now() - 2 * STALE_JOB;
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(!under_way(&path));
        // One key per device, each naming the source and the options.
        assert_eq!(
            job.keys(),
            [["kernel", "-DX", "cpu"], ["kernel", "-DX", "gpu"]]
        );
    }

    #[test]
    fn a_damaged_job_is_not_built_and_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("job.json");
        let json =
            br#"{"source": "kernel void k() {}", "options": "", "devices": [], "cache": "/"}"#;
        let sealed = sealed::seal(JOB_IDENTITY, json);
        std::fs::write(&path, &sealed[..sealed.len() - 5]).unwrap();
        let err = keep(&path).unwrap_err();
        assert!(err.ends_with("was truncated"), "{err}");
        assert!(!path.exists());
    }
}
