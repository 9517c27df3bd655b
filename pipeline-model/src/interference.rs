//! How much the warps' paths stretch while they wait for their scheduler's issue slot.
//!
//! The latency term takes each warp's path as if its instructions issued the moment their
//! operands were ready, and the issue term as if the slot never idled; a launch between
//! the two is slower than either: a warp whose load has returned waits while the others
//! issue. Each scheduler's warps form a closed queueing network: a warp runs its path
//! (`Z`, the rest of its time) and asks for issue slots (`D`, its share of the issue
//! term), and mean value analysis gives the cycle time of `N` such warps exactly for
//! exponential service: `R(n) = D (1 + Q(n - 1))`, `X(n) = n / (Z + R(n))`,
//! `Q(n) = X(n) R(n)`, the time `Z + R(N)`. It equals the path for one warp and the issue
//! term for many, and rounds the knee between them (validation/gpgpusim/README.md: of the
//! units' terms only the issue slots' improved every fit half, on the GTX 480 and the
//! H100; the SFU's and the other pipelines' knees stay sharp, as the paper's
//! microbenchmark shows them, their warps finding the pipeline at fixed intervals).

/// The cycles a launch's paths take with its warps waiting for issue slots: `paths` (the
/// latency term) and `issue` (the busiest scheduler's issue term), shared by `warps`
/// warps at once over `waves` rounds of work-groups. At least the larger of the two.
pub(crate) fn issue_stretched(paths: f64, issue: f64, warps: u64, waves: u64) -> f64 {
    let bound = paths.max(issue);
    if warps == 0 || waves == 0 || issue <= 0.0 {
        return bound;
    }
    let waves = waves as f64;
    let demand = issue / (warps as f64 * waves);
    let rest = (paths / waves - demand).max(0.0);
    (waves * cycle_time(warps, rest, demand)).max(bound)
}

/// Mean value analysis of `customers` cycling through a delay of `delay` and one queue of
/// service demand `demand`: the time one cycle takes.
fn cycle_time(customers: u64, delay: f64, demand: f64) -> f64 {
    let (mut queued, mut response) = (0.0, 0.0);
    for n in 1..=customers {
        response = demand * (1.0 + queued);
        let throughput = n as f64 / (delay + response);
        queued = throughput * response;
    }
    delay + response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_warp_takes_its_path_and_many_take_the_issue_term() {
        // One warp: its path, whatever its issue share.
        assert_eq!(issue_stretched(1000.0, 100.0, 1, 1), 1000.0);
        // A saturated scheduler: the issue term (64 warps asking 100 cycles each against
        // paths of 1000: 6400), within a cycle.
        let t = issue_stretched(1000.0, 6400.0, 64, 1);
        assert!((t - 6400.0).abs() < 1.0, "{t}");
    }

    #[test]
    fn the_knee_is_rounded_by_hand() {
        // Two warps, each a path of 100 of which 50 asks for the slot (Z = 50, D = 50):
        // R(1) = 50, X(1) = 1 / 100, Q(1) = 0.5; R(2) = 50 x 1.5 = 75: 125 cycles, where
        // both the path and the issue term (2 x 50) are 100.
        assert_eq!(issue_stretched(100.0, 100.0, 2, 1), 125.0);
        // The same in two waves of work-groups: each wave 125.
        assert_eq!(issue_stretched(200.0, 200.0, 2, 2), 250.0);
        // No issue share, no wait.
        assert_eq!(issue_stretched(100.0, 0.0, 2, 1), 100.0);
    }
}
