//! The resources whose usage the model counts: `issue`, the units, and the SM's fetch
//! unit, misses in flight, the L2 and the DRAM where the description has them; their
//! order, scopes, bandwidths and the scale of the usage counters.

use super::{Architecture, Scope};

impl Architecture {
    pub(super) fn unit_index(&self, name: &str) -> Option<usize> {
        self.units.iter().position(|u| u.name == name)
    }

    /// Every resource whose usage is counted, with where it lives, in record order: `issue`
    /// first, then every unit, then those the description asks for: the SM's shared fetch
    /// unit ([`FETCH`]), its misses in flight ([`MSHR`]), the GPU's [`L2`] and [`DRAM`]
    /// (whose usage is bytes, not cycles).
    fn resource_list(&self) -> impl Iterator<Item = (&str, Scope)> {
        let optional = [
            (
                FETCH,
                Scope::Sm,
                self.frontend.sm_fetch_groups_per_cycle > 0,
            ),
            (MSHR, Scope::Sm, self.memory.mshrs_per_sm.is_some()),
            (FILL, Scope::Sm, self.memory.fill_bytes_per_cycle.is_some()),
            (L2, Scope::Device, self.memory.l2_gb_per_s.is_some()),
            (DRAM, Scope::Device, self.memory.dram_gb_per_s.is_some()),
            (L2_TRIP, Scope::Sm, self.memory.l2_unloaded.is_some()),
        ];
        std::iter::once((ISSUE, self.issue_scope))
            .chain(self.units.iter().map(|u| (u.name.as_str(), u.scope)))
            .chain(
                optional
                    .into_iter()
                    .filter(|(_, _, present)| *present)
                    .map(|(name, scope, _)| (name, scope)),
            )
    }

    /// The names of the resources whose usage is counted, in record
    /// order: `issue`, the units, then `fetch`, `MSHR`, `fill`, `L2` and `DRAM` where
    /// present.
    pub fn resources(&self) -> Vec<String> {
        self.resource_list().map(|(n, _)| n.to_string()).collect()
    }

    /// Where each resource of [`Architecture::resources`] lives, in the same order.
    pub fn resource_scopes(&self) -> Vec<Scope> {
        self.resource_list().map(|(_, s)| s).collect()
    }

    /// The index of the resource `name` in [`Architecture::resources`], if present (unit
    /// names never take the reserved ones: validated).
    fn resource_index(&self, name: &str) -> Option<usize> {
        self.resource_list().position(|(n, _)| n == name)
    }

    /// The index of [`FETCH`] in [`Architecture::resources`], if the SM's warps share one
    /// fetch unit (`frontend.sm_fetch_groups_per_cycle`).
    pub fn fetch_resource(&self) -> Option<usize> {
        self.resource_index(FETCH)
    }

    /// The index of [`MSHR`] in [`Architecture::resources`], if the description bounds
    /// the misses in flight (`memory.mshrs_per_sm`).
    pub fn mshr_resource(&self) -> Option<usize> {
        self.resource_index(MSHR)
    }

    /// The index of [`FILL`] in [`Architecture::resources`], if the description gives the
    /// bytes a cycle the interconnect delivers into an SM (`memory.fill_bytes_per_cycle`).
    pub fn fill_resource(&self) -> Option<usize> {
        self.resource_index(FILL)
    }

    /// The index of [`DRAM`] in [`Architecture::resources`], if the description has it.
    pub fn dram_resource(&self) -> Option<usize> {
        self.resource_index(DRAM)
    }

    /// The index of [`L2_TRIP`] in [`Architecture::resources`], if the description gives
    /// the L2's unloaded trip (`memory.l2_unloaded`).
    pub fn l2_trip_resource(&self) -> Option<usize> {
        self.resource_index(L2_TRIP)
    }

    /// The index of [`L2`] in [`Architecture::resources`], if the description has it.
    pub fn l2_resource(&self) -> Option<usize> {
        self.resource_index(L2)
    }

    /// The resource whose usage counts the bytes past the L1: the L2's, else the DRAM's
    /// (both columns count the same bytes); `None` with neither. The model sums it over
    /// work-items, and a warp's record carries it summed over its lanes.
    pub fn memory_side_resource(&self) -> Option<usize> {
        self.l2_resource().or(self.dram_resource())
    }

    /// Bytes the DRAM moves per core clock cycle, if the description gives its bandwidth.
    pub fn dram_bytes_per_cycle(&self) -> Option<f64> {
        self.memory.dram_gb_per_s.map(|gb| self.per_cycle(gb))
    }

    /// `gb` GB/s in bytes per core clock cycle.
    fn per_cycle(&self, gb: f64) -> f64 {
        gb * 1e9 / (self.clock_mhz * 1e6)
    }

    /// The share of a launch's reads that miss the L2 when it must hold `held` bytes for
    /// them (the buffers the launch reads, and what was written after them): none where
    /// they fit in `memory.l2_bytes`; where they exceed it by fewer lines than the L2 has
    /// sets (`memory.l2_ways`), the lines of the sets that must hold one more than their
    /// ways; else, or without an L2 or a known `held`, all.
    ///
    /// ```
    /// # use pipeline_model::Architecture;
    /// let gtx480 = Architecture::load("gtx480").unwrap(); // 768 KiB: 768 sets of 8 ways
    /// assert_eq!(gtx480.l2_miss_share(Some(786_432)), 0.0);
    /// // 12 lines more: 12 sets hold 9 lines each, 108 of 6,156 lines miss.
    /// assert_eq!(gtx480.l2_miss_share(Some(786_432 + 12 * 128)), 108.0 / 6156.0);
    /// // As many lines more as there are sets: every set overflows.
    /// assert_eq!(gtx480.l2_miss_share(Some(786_432 + 768 * 128)), 1.0);
    /// assert_eq!(gtx480.l2_miss_share(None), 1.0);
    /// ```
    pub fn l2_miss_share(&self, held: Option<u64>) -> f64 {
        const LINE: u64 = 128;
        let (Some(l2), Some(bytes)) = (self.memory.l2_bytes, held) else {
            return 1.0;
        };
        if bytes <= l2 {
            return 0.0;
        }
        let Some(ways) = self.memory.l2_ways.map(u64::from) else {
            return 1.0;
        };
        let (lines, capacity) = (bytes.div_ceil(LINE), l2 / LINE);
        let sets = (capacity / ways).max(1);
        let extra = lines.saturating_sub(capacity);
        if extra >= sets {
            1.0
        } else {
            (extra * (ways + 1)) as f64 / lines as f64
        }
    }

    /// Bytes the L2 moves per core clock cycle, if the description gives its bandwidth.
    pub fn l2_bytes_per_cycle(&self) -> Option<f64> {
        self.memory.l2_gb_per_s.map(|gb| self.per_cycle(gb))
    }

    /// Bytes the L2 sustains per core clock cycle over a launch's traffic
    /// (`memory.l2_sustained_gb_per_s`, else [`Architecture::l2_bytes_per_cycle`]).
    pub fn l2_sustained_bytes_per_cycle(&self) -> Option<f64> {
        let sustained = self.memory.l2_sustained_gb_per_s;
        self.l2_bytes_per_cycle()
            .map(|peak| sustained.map_or(peak, |gb| self.per_cycle(gb)))
    }

    /// Usage counter units per cycle: the least common multiple of the units' copies (and
    /// of the fetch groups a cycle and the miss entries, where given), so that every
    /// use(r, B) (an initiation interval divided by copies) is a whole number of units and
    /// counters can be integers.
    pub fn usage_scale(&self) -> u64 {
        fn gcd(a: u64, b: u64) -> u64 {
            if b == 0 {
                a
            } else {
                gcd(b, a % b)
            }
        }
        // The fetch unit's groups per cycle and the miss entries divide usage too.
        self.units
            .iter()
            .map(|u| u64::from(u.count))
            .chain(
                (self.frontend.sm_fetch_groups_per_cycle > 0)
                    .then_some(u64::from(self.frontend.sm_fetch_groups_per_cycle)),
            )
            .chain(self.memory.mshrs_per_sm.map(u64::from))
            .fold(1, |l, c| l / gcd(l, c) * c)
    }
}

/// The name of the issue resource (index 0 of [`Architecture::resources`]).
pub const ISSUE: &str = "issue";

/// The name of the SM's shared fetch unit (after the units, when present).
pub const FETCH: &str = "fetch";

/// The name of the SM's misses in flight (after the fetch unit, when present): its usage
/// is entry-cycles over the number of entries.
pub const MSHR: &str = "MSHR";

/// The name of the SM's port for the lines its loads bring past the L1 (after the miss
/// entries, when present): its usage is those bytes, per warp instruction.
pub const FILL: &str = "fill";

/// The name of the L2 resource (before [`DRAM`], when present): its usage is the bytes
/// that cross the L2, to and from the SMs.
pub const L2: &str = "L2";

/// The name of the DRAM resource (after the L2, when present): its usage is bytes moved
/// to and from global memory.
pub const DRAM: &str = "DRAM";

/// The name of the cycles a path spends beyond its L2 trips at the unloaded latency
/// (the last of [`Architecture::resources`], when `memory.l2_unloaded` is given): not a
/// unit anything waits for, a share of the path the model takes off where the L2 is idle
/// (`kernel`); its contention term is 0.
pub const L2_TRIP: &str = "L2_trip";
