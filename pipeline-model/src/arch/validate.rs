//! The checks a description passes when it is loaded, each failure naming its field:
//! what serde's types cannot say (positive counts, known units, reserved names).

use super::{ArchError, Architecture, Scope, DRAM, FETCH, ISSUE, L2, L2_TRIP, MSHR};

impl Architecture {
    pub(super) fn validate(&self, origin: &str) -> Result<(), ArchError> {
        let invalid = |field: &str, message: &str| ArchError::Invalid {
            origin: origin.to_string(),
            field: field.to_string(),
            message: message.to_string(),
        };
        let positive = [
            ("sm_count", self.sm_count),
            ("warp_size", self.warp_size),
            ("sub_cores_per_sm", self.sub_cores_per_sm),
            ("limits.max_warps", self.limits.max_warps),
            ("limits.max_work_groups", self.limits.max_work_groups),
            ("limits.registers", self.limits.registers),
            (
                "limits.max_work_group_size",
                self.limits.max_work_group_size,
            ),
            (
                "limits.max_work_group_dims[0]",
                self.limits.max_work_group_dims[0],
            ),
            (
                "limits.max_work_group_dims[1]",
                self.limits.max_work_group_dims[1],
            ),
            (
                "limits.max_work_group_dims[2]",
                self.limits.max_work_group_dims[2],
            ),
            ("frontend.fetch_group", self.frontend.fetch_group),
            ("frontend.issue_interval", self.frontend.issue_interval),
            ("frontend.writeback_width", self.frontend.writeback_width),
        ];
        // A per-thread register limit, where the description gives one.
        let optional = [(
            "limits.registers_per_work_item",
            self.limits.registers_per_work_item,
        )];
        let given = optional
            .into_iter()
            .filter_map(|(field, value)| value.map(|v| (field, v)));
        for (field, value) in positive.into_iter().chain(given) {
            if value == 0 {
                return Err(invalid(field, "must be at least 1"));
            }
        }
        if !(self.clock_mhz.is_finite() && self.clock_mhz > 0.0) {
            return Err(invalid("clock_mhz", "must be a positive number"));
        }
        if !self.compile.ptx_target.starts_with("sm_") {
            return Err(invalid(
                "compile.ptx_target",
                "must name a PTX target such as `sm_90`",
            ));
        }
        if self.units.is_empty() {
            return Err(invalid("units", "at least one unit is needed"));
        }
        for (key, bw) in [
            ("memory.dram_gb_per_s", self.memory.dram_gb_per_s),
            ("memory.l2_gb_per_s", self.memory.l2_gb_per_s),
            (
                "memory.l2_sustained_gb_per_s",
                self.memory.l2_sustained_gb_per_s,
            ),
            (
                "memory.fill_bytes_per_cycle",
                self.memory.fill_bytes_per_cycle,
            ),
        ] {
            if bw.is_some_and(|bw| !(bw.is_finite() && bw > 0.0)) {
                return Err(invalid(key, "must be a positive number"));
            }
        }
        if let Some(event) = &self.opencl_event {
            for (key, us) in [
                ("opencl_event.launch_us", event.launch_us),
                ("opencl_event.first_launch_us", event.first_launch_us),
            ] {
                if !(us.is_finite() && us >= 0.0) {
                    return Err(invalid(key, "must be a number of microseconds, 0 or more"));
                }
            }
        }
        if let Some((key, _)) = self.section_counts().into_iter().find(|(_, n)| *n == 0) {
            return Err(invalid(key, "must be at least 1"));
        }
        if self.memory.l1_bytes == Some(0) {
            return Err(invalid("memory.l1_bytes", "must be at least 1"));
        }
        if let Some(message) = self.l1_sets_problem() {
            return Err(invalid("memory.l1_sets", message));
        }
        if self.memory.l2_bytes == Some(0) {
            return Err(invalid("memory.l2_bytes", "must be at least 1"));
        }
        if self.memory.l2_ways == Some(0) {
            return Err(invalid("memory.l2_ways", "must be at least 1"));
        }
        if self.memory.dram_unloaded == Some(0) {
            return Err(invalid("memory.dram_unloaded", "must be at least 1"));
        }
        if self
            .memory
            .l2_unloaded
            .is_some_and(|t| t == 0 || t > self.memory.l2_hit)
        {
            return Err(invalid(
                "memory.l2_unloaded",
                "must be at least 1 and at most `l2_hit`",
            ));
        }
        if self.memory.mshrs_per_sm == Some(0) {
            return Err(invalid("memory.mshrs_per_sm", "must be at least 1"));
        }
        if !matches!(self.memory.fetch_bytes, 32 | 128) {
            return Err(invalid(
                "memory.fetch_bytes",
                "must be 32 (sectors) or 128 (lines)",
            ));
        }
        if self.issue_scope == Scope::Device {
            return Err(invalid(
                "issue_scope",
                "must be `sub_core` or `sm` (`device` is the DRAM's)",
            ));
        }
        self.validate_units_and_ops(&invalid)
    }

    /// Each unit's scope, counts and name, and each op row's unit and initiation.
    fn validate_units_and_ops(
        &self,
        invalid: &dyn Fn(&str, &str) -> ArchError,
    ) -> Result<(), ArchError> {
        for (i, unit) in self.units.iter().enumerate() {
            if unit.scope == Scope::Device {
                return Err(invalid(
                    &format!("units[{i}].scope"),
                    "must be `sub_core` or `sm` (`device` is the DRAM's)",
                ));
            }
            if unit.count == 0 {
                return Err(invalid(&format!("units[{i}].count"), "must be at least 1"));
            }
            if unit.lanes == 0 {
                return Err(invalid(&format!("units[{i}].lanes"), "must be at least 1"));
            }
            if unit.name == ISSUE
                || unit.name == DRAM
                || unit.name == L2
                || unit.name == FETCH
                || unit.name == MSHR
                || unit.name == L2_TRIP
                || self.units[..i].iter().any(|u| u.name == unit.name)
            {
                return Err(invalid(
                    &format!("units[{i}].name"),
                    &format!("`{}` is reserved or used twice", unit.name),
                ));
            }
        }
        if let Some(row) = self.ops.missing().next() {
            return Err(invalid(&format!("ops.{row}"), "missing"));
        }
        for (row, timing) in self.ops.rows() {
            if self.unit_index(&timing.unit).is_none() {
                return Err(invalid(
                    &format!("ops.{row}.unit"),
                    &format!("`{}` is not one of the units", timing.unit),
                ));
            }
            if timing.initiation == 0 {
                return Err(invalid(
                    &format!("ops.{row}.initiation"),
                    "must be at least 1",
                ));
            }
        }
        Ok(())
    }

    /// The counts of the optional sections (`[icache]`, `[constant]`), each at least 1.
    fn section_counts(&self) -> Vec<(&'static str, u64)> {
        let mut counts = Vec::new();
        if let Some(c) = &self.icache {
            counts.extend([
                ("icache.instruction_bytes", u64::from(c.instruction_bytes)),
                ("icache.line_bytes", u64::from(c.line_bytes)),
                ("icache.misses_in_flight", u64::from(c.misses_in_flight)),
            ]);
        }
        if let Some(c) = &self.constant {
            counts.extend([
                ("constant.bytes", c.bytes),
                ("constant.pass_cycles", u64::from(c.pass_cycles)),
                ("constant.miss_pass_cycles", u64::from(c.miss_pass_cycles)),
            ]);
        }
        counts
    }

    /// What is wrong with `memory.l1_sets`, if anything: the sets must be at least one
    /// line a way of `memory.l1_bytes`, and 32 or 64 for the Fermi hash.
    fn l1_sets_problem(&self) -> Option<&'static str> {
        let sets = self.memory.l1_sets?;
        match self.l1_set_count() {
            None => Some("needs memory.l1_bytes of at least 128 bytes a way"),
            Some(count)
                if sets.index == super::SetIndex::FermiHash && !matches!(count, 32 | 64) =>
            {
                Some("the Fermi hash needs 32 or 64 sets (l1_bytes / (128 * ways))")
            }
            Some(_) => None,
        }
    }
}
