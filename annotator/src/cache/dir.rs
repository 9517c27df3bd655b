//! Choosing the cache's directory: the configured one where it is safe and writable, else
//! a private temporary one for this process.
//!
//! The cache is a place code comes from: the shim hands kept program binaries to the
//! OpenCL runtime, which loads them into the host process. A directory another user can
//! write to is a way into every program run under srcsim, so, as ssh and git do with
//! their files, a directory owned by another user, or writable by its group or by others,
//! is not used. A directory that cannot be written (a read-only home in a container, a CI
//! runner without `$HOME`) must not cost the simulation either. Either way the run goes on
//! with a private temporary directory and one line of warning.

use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

use super::AnnotationCache;

/// The cache a process uses: where, and why not where it was configured.
#[derive(Debug)]
pub struct OpenedCache {
    /// The cache.
    pub cache: AnnotationCache,
    /// Why the configured directory was not used (one line), where it was not.
    pub warning: Option<String>,
    /// The private temporary directory used instead, removed when this is dropped (the
    /// caller keeps it for the process's life).
    pub private: Option<tempfile::TempDir>,
}

/// The configured directory: `SRCSIM_CACHE_DIR`, else `$XDG_CACHE_HOME/srcsim`, else
/// `~/.cache/srcsim`; `None` where none of those is set.
pub fn configured_dir() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("SRCSIM_CACHE_DIR")
        .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("srcsim")))
        .or_else(|| env("HOME").map(|d| d.join(".cache/srcsim")))
}

/// Why `dir` is not to be used as the cache (creating it `0700` where it is missing).
pub fn unusable(dir: &Path) -> Option<String> {
    // Only the directories created here are 0700 (a user's existing ~/.cache keeps its
    // mode); the last one is the cache, private from the start.
    if let Err(e) = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
    {
        return Some(format!("cannot be created ({e})"));
    }
    let meta = match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => m,
        Ok(_) => return Some("is not a directory".to_string()),
        Err(e) => return Some(format!("cannot be read ({e})")),
    };
    let me = rustix::process::geteuid().as_raw();
    if meta.uid() != me {
        return Some(format!(
            "is owned by another user (uid {}, this process runs as {me})",
            meta.uid()
        ));
    }
    if meta.mode() & 0o022 != 0 {
        return Some(format!(
            "is writable by its group or by others (mode {:o})",
            meta.mode() & 0o7777
        ));
    }
    // Mode bits say nothing of a read-only mount or a full quota: try.
    if let Err(e) = tempfile::tempfile_in(dir) {
        return Some(format!("is not writable ({e})"));
    }
    None
}

impl AnnotationCache {
    /// The cache in `dir` where [`unusable`] finds nothing wrong with it, else in a
    /// private temporary directory, with the warning that says why.
    pub fn open(dir: &Path) -> OpenedCache {
        match unusable(dir) {
            None => OpenedCache {
                cache: AnnotationCache::at(dir),
                warning: None,
                private: None,
            },
            Some(why) => Self::private(
                &format!("the cache directory {} {why}", dir.display()),
                Some(dir),
            ),
        }
    }

    /// [`AnnotationCache::open`] on [`configured_dir`], else a private temporary
    /// directory (a shared one in the system's temporary directory could be anybody's).
    pub fn open_from_env() -> OpenedCache {
        match configured_dir() {
            Some(dir) => Self::open(&dir),
            None => Self::private(
                "no cache directory is configured (SRCSIM_CACHE_DIR, XDG_CACHE_HOME, HOME)",
                None,
            ),
        }
    }

    /// A cache in a new private temporary directory, `why` being the warning's start;
    /// where none can be made, `otherwise` (whose writes fail one by one, each costing
    /// its entry, never the run).
    fn private(why: &str, otherwise: Option<&Path>) -> OpenedCache {
        // Under a name nobody can take first, and 0700 from the start (tempfile's default
        // is 0777 less the umask).
        use std::os::unix::fs::PermissionsExt;
        let made = tempfile::Builder::new()
            .prefix("srcsim-cache-")
            .permissions(std::fs::Permissions::from_mode(0o700))
            .tempdir();
        match made {
            Ok(private) => OpenedCache {
                cache: AnnotationCache::at(private.path()),
                warning: Some(format!(
                    "{why}; this run uses a private temporary one ({}), removed at exit",
                    private.path().display()
                )),
                private: Some(private),
            },
            Err(e) => OpenedCache {
                cache: AnnotationCache::at(otherwise.unwrap_or(Path::new("/nonexistent"))),
                warning: Some(format!(
                    "{why}, and no temporary one could be made ({e}); nothing is kept"
                )),
                private: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_missing_directory_is_created_private() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("a/b/srcsim");
        let opened = AnnotationCache::open(&dir);
        assert!(opened.warning.is_none(), "{:?}", opened.warning);
        assert_eq!(opened.cache.dir(), dir);
        let mode = std::fs::metadata(&dir).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }

    #[test]
    fn a_directory_others_can_write_is_not_used() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("shared");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let opened = AnnotationCache::open(&dir);
        let warning = opened.warning.unwrap();
        assert!(
            warning.contains("writable by its group or by others"),
            "{warning}"
        );
        let private = opened.private.unwrap();
        assert_eq!(opened.cache.dir(), private.path());
        let mode = std::fs::metadata(private.path()).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }

    #[test]
    fn a_file_in_place_of_the_directory_is_not_used() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("file");
        std::fs::write(&file, "").unwrap();
        let opened = AnnotationCache::open(&file.join("srcsim"));
        assert!(opened.warning.unwrap().contains("cannot be created"));
        assert!(opened.private.is_some());
    }
}
