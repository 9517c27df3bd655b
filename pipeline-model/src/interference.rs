//! How much the warps' paths stretch while they wait for their scheduler's issue slot and
//! for the L2.
//!
//! The latency term takes each warp's path as if its instructions issued the moment their
//! operands were ready and its requests found the L2 idle, and the contention terms as if
//! the scheduler and the L2 never idled; a launch between the two is slower than either: a
//! warp whose load has returned waits while the others issue, and its next request waits
//! behind theirs. Each scheduler's warps form a closed queueing network: a warp runs its
//! path (`Z`, the rest of its time) and asks for service at each station `k` (`D_k`, its
//! share of the station's term: the issue slots, the L2's bytes over its bandwidth), and
//! mean value analysis gives the cycle time of `N` such warps exactly for exponential
//! service: `R_k(n) = D_k (1 + Q_k(n - 1))`, `X(n) = n / (Z + sum R_k(n))`,
//! `Q_k(n) = X(n) R_k(n)`, the time `Z + sum R_k(N)`. It equals the path for one warp and
//! the largest station's term for many, and rounds the knee between them
//! (validation/gpgpusim/README.md: of the SM's units' terms only the issue slots' improved
//! every fit half, on the GTX 480 and the H100; the SFU's and the other pipelines' knees
//! stay sharp, as the paper's microbenchmark shows them, their warps finding the pipeline
//! at fixed intervals. The L2, shared by every SM, is the second station: with it both
//! GTX 480 fit halves improved, model revision 26).
//!
//! The L2 serves every scheduler of the GPU; a scheduler's warps are taken to hold their
//! share of it (the launch's L2 term over their `N` warps), as symmetric schedulers do.

/// The cycles a launch's paths take with its warps waiting for service at `stations`:
/// `paths` (the latency term), and per station the busiest scheduler's share of its term
/// (the issue slots first), shared by `warps` warps at once over `waves` rounds of
/// work-groups. At least the largest of them.
pub(crate) fn stretched(paths: f64, stations: &[f64], warps: u64, waves: u64) -> f64 {
    let bound = stations.iter().fold(paths, |b, &t| b.max(t));
    if warps == 0 || waves == 0 || stations.iter().all(|&t| t <= 0.0) {
        return bound;
    }
    let waves = waves as f64;
    let demands: Vec<f64> = stations
        .iter()
        .map(|t| t.max(0.0) / (warps as f64 * waves))
        .collect();
    let rest = (paths / waves - demands.iter().sum::<f64>()).max(0.0);
    (waves * cycle_time(warps, rest, &demands)).max(bound)
}

/// Mean value analysis of `customers` cycling through a delay of `delay` and one queue
/// per service demand of `demands`: the time one cycle takes.
fn cycle_time(customers: u64, delay: f64, demands: &[f64]) -> f64 {
    let mut queued = vec![0.0; demands.len()];
    let mut response = vec![0.0; demands.len()];
    for n in 1..=customers {
        for ((r, d), q) in response.iter_mut().zip(demands).zip(&queued) {
            *r = d * (1.0 + q);
        }
        let throughput = n as f64 / (delay + response.iter().sum::<f64>());
        for (q, r) in queued.iter_mut().zip(&response) {
            *q = throughput * r;
        }
    }
    delay + response.iter().sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_warp_takes_its_path_and_many_take_the_issue_term() {
        // One warp: its path, whatever its issue share.
        assert_eq!(stretched(1000.0, &[100.0], 1, 1), 1000.0);
        // A saturated scheduler: the issue term (64 warps asking 100 cycles each against
        // paths of 1000: 6400), within a cycle.
        let t = stretched(1000.0, &[6400.0], 64, 1);
        assert!((t - 6400.0).abs() < 1.0, "{t}");
    }

    #[test]
    fn the_knee_is_rounded_by_hand() {
        // Two warps, each a path of 100 of which 50 asks for the slot (Z = 50, D = 50):
        // R(1) = 50, X(1) = 1 / 100, Q(1) = 0.5; R(2) = 50 x 1.5 = 75: 125 cycles, where
        // both the path and the issue term (2 x 50) are 100.
        assert_eq!(stretched(100.0, &[100.0], 2, 1), 125.0);
        // The same in two waves of work-groups: each wave 125.
        assert_eq!(stretched(200.0, &[200.0], 2, 2), 250.0);
        // No issue share, no wait.
        assert_eq!(stretched(100.0, &[0.0], 2, 1), 100.0);
    }

    #[test]
    fn a_second_station_adds_its_own_queue_by_hand() {
        // Two warps, each a path of 125: 50 cycles of issue (D1), 25 at the L2 (D2), the
        // rest Z = 50. n = 1: R1 = 50, R2 = 25, X = 1 / 125, Q1 = 0.4, Q2 = 0.2; n = 2:
        // R1 = 50 x 1.4 = 70, R2 = 25 x 1.2 = 30: 150 cycles, where the issue slot alone
        // gives Z = 75, D = 50: R(1) = 50, Q(1) = 0.4, R(2) = 70, 145 cycles.
        assert_eq!(stretched(125.0, &[100.0, 50.0], 2, 1), 150.0);
        assert_eq!(stretched(125.0, &[100.0], 2, 1), 145.0);
        // An idle L2 changes nothing.
        assert_eq!(stretched(125.0, &[100.0, 0.0], 2, 1), 145.0);
    }
}
