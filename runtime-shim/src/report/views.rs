//! The report's views: the table printed at exit and the CSV form.

use std::fmt::Write as _;

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};

use super::{dims, lines_table, Outcome, Report};

impl Report {
    /// The table printed at exit.
    pub fn table(&self) -> String {
        let mut t = Table::new();
        t.load_preset(UTF8_FULL_CONDENSED).set_header(vec![
            "kernel",
            "global / local",
            "launches",
            "cycles/launch",
            "µs total",
            "bound",
            "occupancy",
        ]);
        let summaries = self.summaries();
        for s in &summaries {
            t.add_row(vec![
                Cell::new(&s.kernel),
                Cell::new(&s.configuration),
                Cell::new(s.launches).set_alignment(CellAlignment::Right),
                Cell::new(s.total_cycles / s.launches as u64).set_alignment(CellAlignment::Right),
                Cell::new(format!("{:.2}", s.total_micros)).set_alignment(CellAlignment::Right),
                Cell::new(&s.bound),
                Cell::new(&s.occupancy),
            ]);
        }
        let launches: usize = summaries.iter().map(|s| s.launches).sum();
        let cycles: u64 = summaries.iter().map(|s| s.total_cycles).sum();
        // fold from +0.0: an empty f64 sum is -0.0, which prints as "-0.00".
        let micros = summaries.iter().fold(0.0, |m, s| m + s.total_micros);
        t.add_row(vec![
            Cell::new("total"),
            Cell::new(""),
            Cell::new(launches).set_alignment(CellAlignment::Right),
            Cell::new(format!("{cycles} in all")).set_alignment(CellAlignment::Right),
            Cell::new(format!("{micros:.2}")).set_alignment(CellAlignment::Right),
            Cell::new(""),
            Cell::new(""),
        ]);
        let mut out = format!(
            "srcsim: estimated kernel times on {} ({} MHz); * = local size chosen by srcsim\n{t}\n",
            self.arch, self.clock_mhz
        );
        for (kernel, note) in self.notes() {
            let _ = writeln!(out, "srcsim: {kernel}: {note}");
        }
        for (kernel, reason, n) in self.unsimulated() {
            out.push_str(&crate::config::prefixed(&format!(
                "{kernel}: {n} launch(es) not simulated: {reason}"
            )));
        }
        for k in self.line_profiles() {
            out.push_str(&lines_table(&k, Some(10)));
        }
        out
    }

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
        ])?;
        for l in &self.launches {
            let mut row = vec![
                l.index.to_string(),
                l.kernel.clone(),
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
                    row.extend(std::iter::repeat_n(String::new(), 10));
                    row.push(reason.clone());
                }
            }
            w.write_record(&row)?;
        }
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
    }
}
