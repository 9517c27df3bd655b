//! The cache as the shim uses it: opened at first use, in the directory configured or a
//! private temporary one, its files sealed with the builds of this process.

use super::*;
use crate::builds::Builds;
use crate::remembered::RememberedEstimates;
use annotator::cache::AnnotationCache;

/// The cache as the shim uses it.
pub(crate) struct ShimCache {
    /// Its files sealed with the builds of this process ([`crate::builds`]).
    pub(crate) cache: AnnotationCache,
    pub(crate) builds: Builds,
    /// The private temporary directory used in place of an unusable one, removed at
    /// exit; binaries are not kept there (no later run would find them).
    private: Mutex<Option<tempfile::TempDir>>,
    /// Estimates the last run of this command line measured (`crate::remembered`).
    pub(crate) remembered: Option<RememberedEstimates>,
}

impl ShimCache {
    /// Whether later runs can take what this run keeps.
    pub(crate) fn lasting(&self) -> bool {
        lock(&self.private).is_none()
    }

    /// Removes the private directory, if any (at exit: nothing is kept after).
    pub(super) fn remove_private(&self) {
        drop(lock(&self.private).take());
    }
}

impl Shim {
    /// The cache, opened on first use: by then the application has created a program, so
    /// the OpenCL runtime whose build seals the binaries is loaded. An unusable directory
    /// gives way to a private temporary one, with one line of warning: the run is
    /// simulated all the same.
    pub(super) fn cache(&self) -> &ShimCache {
        self.cache.get_or_init(|| {
            let opened = AnnotationCache::open_from_env();
            if let Some(warning) = &opened.warning {
                self.log(Level::Warn, warning);
            }
            let clang = Compiler::locate().ok();
            let builds = Builds::of_this_process(clang.as_ref().map(|c| c.clang()));
            let cache = opened.cache.with_identity(&builds.identity());
            if let Some(warning) = opened.warning {
                cache.note(warning);
            }
            // A sweep's, a profile's and a measured launch's outcomes are more than an
            // estimate.
            let remembered = match (&self.arch, &self.sweep) {
                (Ok(a), None) if !self.config.profile && !self.config.measure_every_launch => {
                    RememberedEstimates::load(&cache, &srcsim_report::model_identity(a))
                }
                _ => None,
            };
            ShimCache {
                cache,
                builds,
                private: Mutex::new(opened.private),
                remembered,
            }
        })
    }
}
