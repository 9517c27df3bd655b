//! The shim's side of estimates kept across runs (`crate::remembered`): a launch whose key
//! the last run of this command line measured runs the application's kernel and takes
//! that estimate; the estimates this run measures are kept at exit.

use super::*;
use crate::shadow::PathKey;

/// A launch that leaves the records a launch the last run measured left: its kernel, its
/// key (noted as first seen once it is in the report) and that launch's outcome.
pub(super) struct Remembered {
    pub(super) kernel: Arc<str>,
    pub(super) shadow: Arc<Shadow>,
    pub(super) key: PathKey,
    pub(super) outcome: Outcome,
}

impl Shim {
    /// For a launch of `shadow` (kernel `name`) with `key` (where its geometry and value
    /// arguments decide its records) about to be evaluated or measured: the estimate the
    /// last run kept for the key, for the application's kernel to run with, else the key
    /// to keep this run's under.
    pub(super) fn recall(
        &self,
        shadow: &Arc<Shadow>,
        name: &Arc<str>,
        key: Option<&PathKey>,
    ) -> Result<Option<String>, Box<Remembered>> {
        let (Some(key), Some(kept)) = (key, &self.cache().remembered) else {
            return Ok(None);
        };
        let id = kept.key(&shadow.program, name, &format!("{key:?}"));
        match kept.get(&id) {
            Some(outcome) => Err(Box::new(Remembered {
                kernel: Arc::clone(name),
                shadow: Arc::clone(shadow),
                key: key.clone(),
                outcome: outcome.clone(),
            })),
            None => Ok(Some(id)),
        }
    }

    /// Notes that launch `index` is to keep its estimate under `key`, if any, at exit (as
    /// many as the store keeps: a program of a million launches, each new, notes no more).
    pub(super) fn remember_later(&self, index: usize, key: Option<String>) {
        let mut to_remember = lock(&self.to_remember);
        if let Some(key) = key.filter(|_| to_remember.len() < crate::remembered::MAX_KEPT) {
            to_remember.push((index, key));
        }
    }

    /// Records a launch of the application's kernel that took the estimate the last run
    /// measured for its key; later launches of the key in this run repeat it.
    pub(super) fn record_remembered(
        &self,
        remembered: Box<Remembered>,
        queue: Queue,
        range: &NdRange,
    ) {
        self.stats.remembered.fetch_add(1, Ordering::Relaxed);
        let Remembered {
            kernel,
            shadow,
            key,
            outcome,
        } = *remembered;
        let index = self.push_launch(kernel, queue, range, &geometry(range), Some(outcome));
        lock(&shadow.args).first_with(key, index);
    }

    /// Keeps the estimates of the launches this run measured under their keys (in
    /// `report`, settled), for the next run of its command line.
    pub(super) fn remember(&self, report: &Report) {
        // A run that never opened the cache measured nothing to keep.
        let Some(kept) = self.cache.get().and_then(|c| c.remembered.as_ref()) else {
            return;
        };
        for (index, key) in lock(&self.to_remember).drain(..) {
            if let Some(launch) = report.launches.get(index) {
                kept.note(key, &launch.outcome);
            }
        }
        kept.write();
    }
}
