//! The CSV form: one row per launch.

use super::View;
use crate::{dims, Outcome, Report};

/// The CSV form, as a view (`.csv` files).
pub struct CsvView;

impl View for CsvView {
    fn extensions(&self) -> &'static [&'static str] {
        &["csv"]
    }

    fn render(&self, report: &Report) -> std::io::Result<String> {
        report.to_csv().map_err(std::io::Error::other)
    }
}

impl Report {
    /// The CSV form: one row per launch.
    pub fn to_csv(&self) -> Result<String, csv::Error> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record([
            "index",
            "kernel",
            "work_dim",
            "global",
            "local",
            "local_chosen",
            "offset",
            "status",
            "cycles",
            "micros",
            "latency_cycles",
            "launch_cycles",
            "divergence_cycles",
            "bound",
            "work_groups_per_sm",
            "occupancy_limiter",
            "work_groups",
            "warps",
            "dram_bytes",
            "note",
            "reason",
            "event_micros",
        ])?;
        for l in &self.launches {
            let mut row = vec![
                l.index.to_string(),
                l.kernel.to_string(),
                l.work_dim.to_string(),
                dims(l.global, l.work_dim),
                dims(l.local, l.work_dim),
                l.local_chosen.to_string(),
                dims(l.offset, l.work_dim),
            ];
            match &l.outcome {
                Outcome::Simulated(e) => row.extend([
                    "simulated".to_string(),
                    e.cycles.to_string(),
                    format!("{:.4}", e.micros),
                    e.latency_cycles.to_string(),
                    e.launch_cycles.to_string(),
                    e.divergence_cycles.to_string(),
                    e.bound.clone(),
                    e.work_groups_per_sm.to_string(),
                    e.occupancy_limiter.clone(),
                    e.work_groups.to_string(),
                    e.warps.to_string(),
                    e.dram_bytes.map_or_else(String::new, |b| b.to_string()),
                    e.note.clone().unwrap_or_default(),
                    String::new(),
                ]),
                Outcome::NotSimulated { reason } => {
                    row.push("not_simulated".to_string());
                    row.extend(std::iter::repeat_n(String::new(), 12));
                    row.push(reason.clone());
                }
            }
            row.push(
                l.event_micros
                    .map_or_else(String::new, |t| format!("{t:.4}")),
            );
            w.write_record(&row)?;
        }
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
    }
}
