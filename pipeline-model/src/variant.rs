//! Variants of a description, for design-space sweeps: one field set by its dotted key
//! ([`Architecture::with_setting`]), and which fields a variant may change without changing
//! what the annotation of a kernel is ([`Architecture::annotation_view`]) or what a host
//! program is told about the GPU ([`Architecture::host_view`]).
//!
//! The split follows what reads each field. The annotator (block times, resource usage,
//! the record layout) reads the units, the front end, the `ops` table, the memory
//! latencies and sizes that decide where an access is charged, the warp size and the
//! compile target, and which optional resources exist. The model alone reads the SM count,
//! the clock, the occupancy limits, the bandwidths' values, the L2's capacity and the
//! launch cost: a variant that changes only those is estimated from the records of a run
//! under any other with the same annotation view.

use crate::arch::{ArchError, Architecture, LaunchCost};

impl Architecture {
    /// This description with `key` (a dotted TOML key such as `sm_count`,
    /// `memory.dram_gb_per_s` or `units[1].count`) set to `value` (TOML syntax: a number,
    /// `true`, or a bare word taken as a string), validated as a loaded file is. An unknown
    /// key is refused naming it; `origin` names the variant in messages.
    pub fn with_setting(&self, key: &str, value: &str, origin: &str) -> Result<Self, ArchError> {
        let invalid = |message: String| ArchError::Invalid {
            origin: origin.to_string(),
            field: key.to_string(),
            message,
        };
        let mut root = toml::Value::try_from(self).map_err(|e| invalid(e.to_string()))?;
        let parsed = parse_value(value);
        let mut at = &mut root;
        let segments: Vec<&str> = key.split('.').collect();
        for (i, segment) in segments.iter().enumerate() {
            let last = i + 1 == segments.len();
            let (name, index) = split_index(segment).ok_or_else(|| {
                invalid(format!("`{segment}` is not a field name or `name[index]`"))
            })?;
            let table = at.as_table_mut().ok_or_else(|| {
                invalid(format!("`{name}` is inside a field that is not a table"))
            })?;
            if last && index.is_none() {
                let new = match (table.get(name), parsed) {
                    // `1500` for a field of floating-point numbers.
                    (Some(toml::Value::Float(_)), toml::Value::Integer(i)) => {
                        toml::Value::Float(i as f64)
                    }
                    (_, v) => v,
                };
                // An absent optional field may be given; an unknown one is refused by the
                // loader below, which names it.
                table.insert(name.to_string(), new);
                break;
            }
            let child = table
                .get_mut(name)
                .ok_or_else(|| invalid(format!("no field `{name}` here")))?;
            at = match index {
                Some(n) => child
                    .as_array_mut()
                    .and_then(|a| a.get_mut(n))
                    .ok_or_else(|| invalid(format!("`{name}` has no element {n}")))?,
                None => child,
            };
            if last {
                *at = parsed;
                break;
            }
        }
        let text = toml::to_string(&root).map_err(|e| invalid(e.to_string()))?;
        Architecture::from_toml(&text, origin).map_err(|e| match e {
            ArchError::Syntax { origin, message } => ArchError::Invalid {
                origin,
                field: key.to_string(),
                message,
            },
            e => e,
        })
    }

    /// The value of the field `key` (as [`Architecture::with_setting`] names it), in TOML
    /// syntax; `None` where the description leaves it out or has no such field.
    pub fn setting(&self, key: &str) -> Option<String> {
        let root = toml::Value::try_from(self).ok()?;
        let mut at = &root;
        for segment in key.split('.') {
            let (name, index) = split_index(segment)?;
            at = at.as_table()?.get(name)?;
            if let Some(n) = index {
                at = at.as_array()?.get(n)?;
            }
        }
        Some(at.to_string())
    }

    /// The description with every field that only the model reads set to a fixed value:
    /// two descriptions whose views are equal annotate every kernel alike (the same timed
    /// source, the same records), so that one run's records serve both.
    pub fn annotation_view(&self) -> Architecture {
        let mut v = self.clone();
        v.name = String::new();
        v.description = String::new();
        v.clock_mhz = 1.0;
        v.sm_count = 1;
        v.limits.max_warps = 1;
        v.limits.max_work_groups = 1;
        v.limits.registers = 1;
        v.limits.shared_memory_bytes = 1;
        v.limits.max_work_group_size = 1;
        v.limits.max_work_group_dims = [1; 3];
        v.launch = LaunchCost::default();
        // Whether the DRAM, the L2 and the SMs' fill ports are modelled shapes the records
        // (their resources) and whether a first touch is charged from the L2; their sizes
        // and speeds do not.
        let present = |o: Option<f64>| o.map(|_| 1.0);
        v.memory.dram_gb_per_s = present(v.memory.dram_gb_per_s);
        v.memory.l2_gb_per_s = present(v.memory.l2_gb_per_s);
        v.memory.l2_sustained_gb_per_s = None;
        v.memory.fill_bytes_per_cycle = present(v.memory.fill_bytes_per_cycle);
        v.memory.l2_bytes = v.memory.l2_bytes.map(|_| 1);
        v
    }

    /// What a host program that asks the device is told about this GPU when the CPU stands
    /// in for it: SMs (compute units), work-group size limits, shared memory and warp size.
    /// A host may size its launches by them, so that a variant that changes them can make
    /// another program run.
    pub fn host_view(&self) -> (u32, u32, [u32; 3], u32, u32) {
        (
            self.sm_count,
            self.limits.max_work_group_size,
            self.limits.max_work_group_dims,
            self.limits.shared_memory_bytes,
            self.warp_size,
        )
    }
}

/// `value` as TOML (`66`, `1.5`, `true`, `"x"`), or as a string when it is none.
fn parse_value(value: &str) -> toml::Value {
    toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_string()))
}

/// `name` or `name[index]`.
fn split_index(segment: &str) -> Option<(&str, Option<usize>)> {
    match segment.split_once('[') {
        None => (!segment.is_empty()).then_some((segment, None)),
        Some((name, rest)) => {
            let n = rest.strip_suffix(']')?.parse().ok()?;
            (!name.is_empty()).then_some((name, Some(n)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h100() -> Architecture {
        Architecture::load("hopper_h100").unwrap()
    }

    #[test]
    fn a_setting_changes_that_field_alone() {
        let base = h100();
        let v = base.with_setting("sm_count", "66", "p").unwrap();
        assert_eq!(v.sm_count, 66);
        assert_eq!(v.setting("sm_count").as_deref(), Some("66"));
        assert_eq!(
            base.setting("memory.dram_gb_per_s").as_deref(),
            Some("3350.0")
        );
        assert_eq!(base.setting("units[1].lanes").as_deref(), Some("32"));
        assert_eq!(base.setting("memory.l2_ways"), None);
        assert_eq!(
            Architecture {
                sm_count: 132,
                ..v.clone()
            },
            base
        );
        let v = base
            .with_setting("memory.dram_gb_per_s", "1000", "p")
            .unwrap();
        assert_eq!(v.memory.dram_gb_per_s, Some(1000.0));
        let v = base.with_setting("launch.fixed_cycles", "0", "p").unwrap();
        assert_eq!(v.launch.fixed_cycles, 0);
        let v = base.with_setting("units[1].lanes", "16", "p").unwrap();
        assert_eq!(v.units[1].lanes, 16);
        let v = base.with_setting("ops.fp32_add.latency", "6", "p").unwrap();
        assert_eq!(v.ops[crate::OpRow::Fp32Add].latency, 6);
        // An optional field the base leaves out.
        let v = base.with_setting("memory.l2_ways", "16", "p").unwrap();
        assert_eq!(v.memory.l2_ways, Some(16));
    }

    #[test]
    fn unknown_keys_and_bad_values_are_refused_by_name() {
        let base = h100();
        for (key, value) in [
            ("sm_cuont", "3"),
            ("memory.dram_gbs", "3"),
            ("nothing.sm_count", "3"),
            ("sm_count", "0"),
            ("sm_count", "1.5"),
            ("units[9].count", "1"),
        ] {
            let e = base.with_setting(key, value, "p").unwrap_err().to_string();
            let leaf = key.rsplit('.').next().unwrap().split('[').next().unwrap();
            assert!(e.contains(leaf) || e.contains(key), "{key}: {e}");
        }
    }

    #[test]
    fn model_only_fields_keep_the_annotation_view() {
        let base = h100();
        for (key, value) in [
            ("sm_count", "7"),
            ("clock_mhz", "1000"),
            ("memory.dram_gb_per_s", "100"),
            ("memory.l2_gb_per_s", "100"),
            ("limits.max_warps", "8"),
            ("limits.registers", "1024"),
            ("launch.fixed_cycles", "0"),
        ] {
            let v = base.with_setting(key, value, "p").unwrap();
            assert_eq!(v.annotation_view(), base.annotation_view(), "{key}");
        }
        for (key, value) in [
            ("ops.fp32_add.latency", "6"),
            ("memory.dram", "600"),
            ("memory.l2_hit", "300"),
            ("units[1].lanes", "16"),
            ("sub_cores_per_sm", "2"),
        ] {
            let v = base.with_setting(key, value, "p").unwrap();
            assert_ne!(v.annotation_view(), base.annotation_view(), "{key}");
        }
        // The L2's size does not shape the annotation; whether it is given does.
        let v = base.with_setting("memory.l2_bytes", "1000", "p").unwrap();
        assert_eq!(v.annotation_view(), base.annotation_view());
        let mut no_l2 = base.clone();
        no_l2.memory.l2_bytes = None;
        assert_ne!(no_l2.annotation_view(), base.annotation_view());
        // The fill port's bandwidth is the model's; whether there is one shapes the records.
        let gtx480 = Architecture::load("gtx480").unwrap();
        let v = gtx480
            .with_setting("memory.fill_bytes_per_cycle", "20", "p")
            .unwrap();
        assert_eq!(v.annotation_view(), gtx480.annotation_view());
        let mut no_port = gtx480.clone();
        no_port.memory.fill_bytes_per_cycle = None;
        assert_ne!(no_port.annotation_view(), gtx480.annotation_view());
        let v = base.with_setting("sm_count", "7", "p").unwrap();
        assert_ne!(v.host_view(), base.host_view());
        let v = base.with_setting("clock_mhz", "7", "p").unwrap();
        assert_eq!(v.host_view(), base.host_view());
    }
}
