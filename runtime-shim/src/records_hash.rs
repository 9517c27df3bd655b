//! What tells a launch's records from its kernel's previous launch's, so that a launch
//! that left the same records takes its estimate without the model running again.

/// What tells a launch's records from its kernel's previous ones: a launch's records can
/// be megabytes, and a copy kept to compare with cost more than hashing them (fresh
/// memory for the first launch of each kernel). A 64-bit hash of a sample of them (128
/// runs of 16 words, more than a warp record, at scattered places: evenly spaced ones fell
/// in step with an LU's work-groups and missed every change; and their length), and their
/// 128-bit XXH3 hash, taken only where the sample is the previous launch's: records that
/// change mostly change in the sample (an LU step's, 720 KB a launch, each new, were
/// hashed whole for nothing), and a run of identical launches is reused from its third
/// (the second has no whole hash to compare with). Two different records colliding is a
/// 2^-128 chance.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct RecordsHash {
    sample: u64,
    whole: Option<u128>,
}

impl RecordsHash {
    const RUNS: usize = 128;
    const RUN: usize = 16;

    /// Where run `i` of the sample of `len` words starts: the fractional parts of `(i + 1)
    /// / golden ratio` (Weyl's sequence) spread the runs without a period.
    fn run_start(i: usize, len: usize) -> usize {
        let at = u128::from((i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        ((at * (len - Self::RUN) as u128) >> 64) as usize
    }

    /// The hash of records kept in parts, `head` and then `runs` (a launch in warps with
    /// lanes kept whole: its warp records and masks, then each warp's kept lanes, the
    /// values between them stale): sampled in `head`, whole (all the parts, in
    /// order) where `prior` has the same sample.
    pub(crate) fn of_parts<'r>(
        head: &[u64],
        runs: impl Iterator<Item = &'r [u64]>,
        prior: Option<&RecordsHash>,
    ) -> RecordsHash {
        let RecordsHash { sample, .. } = Self::of(head, None);
        let whole = prior.filter(|p| p.sample == sample).map(|_| {
            let mut h = xxhash_rust::xxh3::Xxh3::new();
            h.update(bytemuck::cast_slice(head));
            for run in runs {
                h.update(bytemuck::cast_slice(run));
            }
            h.digest128()
        });
        RecordsHash { sample, whole }
    }

    /// The hash of `records`, whole where `prior` (the previous launch's, if it could be
    /// the same) has the same sample.
    pub(crate) fn of(records: &[u64], prior: Option<&RecordsHash>) -> RecordsHash {
        let sample = if records.len() <= Self::RUNS * Self::RUN {
            xxhash_rust::xxh3::xxh3_64(bytemuck::cast_slice(records))
        } else {
            let mut picked = [0u64; Self::RUNS * Self::RUN + 1];
            for (i, run) in picked.chunks_exact_mut(Self::RUN).enumerate() {
                let start = Self::run_start(i, records.len());
                run.copy_from_slice(&records[start..][..Self::RUN]);
            }
            picked[Self::RUNS * Self::RUN] = records.len() as u64;
            xxhash_rust::xxh3::xxh3_64(bytemuck::cast_slice(&picked))
        };
        let whole = prior
            .filter(|p| p.sample == sample)
            .map(|_| xxhash_rust::xxh3::xxh3_128(bytemuck::cast_slice(records)));
        RecordsHash { sample, whole }
    }

    /// Whether these records are the `prior` launch's (as far as both were hashed).
    pub(crate) fn same(&self, prior: &RecordsHash) -> bool {
        self.whole.is_some() && self.whole == prior.whole
    }
}

#[cfg(test)]
mod tests {
    use super::RecordsHash;

    #[test]
    fn kept_lanes_are_known_by_their_runs_not_by_what_lies_between() {
        let head: Vec<u64> = (0..5000u64).map(|i| i % 17).collect();
        let (a, b) = (vec![1u64, 2, 3], vec![4u64, 5]);
        let hash = |runs: [&[u64]; 2], prior| RecordsHash::of_parts(&head, runs.into_iter(), prior);
        let first = hash([&a, &b], None);
        let second = hash([&a, &b], Some(&first));
        let third = hash([&a, &b], Some(&second));
        assert!(!second.same(&first) && third.same(&second));
        // The same runs, whatever was around them: the same records.
        let stale = [vec![9u64, 1, 2, 3, 9], vec![7u64, 4, 5]];
        assert!(hash([&stale[0][1..4], &stale[1][1..]], Some(&third)).same(&third));
        // A kept lane that differs: the sample (the head) is the same, the whole not.
        let other = vec![4u64, 6];
        let h = hash([&a, &other], Some(&third));
        assert!(h.whole.is_some() && !h.same(&third));
    }

    #[test]
    fn identical_records_are_known_from_the_third_launch_and_a_change_anywhere_tells() {
        let records: Vec<u64> = (0..100_000u64).map(|i| i * 7 % 13).collect();
        let first = RecordsHash::of(&records, None);
        let second = RecordsHash::of(&records, Some(&first));
        assert!(
            !second.same(&first),
            "the first has no whole hash to compare with"
        );
        let third = RecordsHash::of(&records, Some(&second));
        assert!(third.same(&second));
        // A word outside the sample's runs: the sample is the same, the whole hash not.
        let starts: Vec<usize> = (0..RecordsHash::RUNS)
            .map(|i| RecordsHash::run_start(i, records.len()))
            .collect();
        let outside = (0..records.len())
            .find(|w| {
                !starts
                    .iter()
                    .any(|s| (*s..s + RecordsHash::RUN).contains(w))
            })
            .unwrap();
        let mut apart = records.clone();
        apart[outside] += 1;
        let h = RecordsHash::of(&apart, Some(&third));
        assert!(h.whole.is_some() && !h.same(&third));
        // A word in the sample: not hashed whole at all.
        let mut sampled = records.clone();
        sampled[starts[7] + 3] += 1;
        let h = RecordsHash::of(&sampled, Some(&third));
        assert!(h.whole.is_none() && !h.same(&third));
        // Small records are their own sample.
        let small = &records[..100];
        let a = RecordsHash::of(small, None);
        let b = RecordsHash::of(small, Some(&a));
        let c = RecordsHash::of(small, Some(&b));
        assert!(c.same(&b) && !b.same(&a));
    }
}
