//! The table printed at exit: per kernel and configuration its launches, cycles, time,
//! bound and occupancy, then notes, launches not simulated and the line profiles.

use std::fmt::Write as _;

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};

use super::View;
use crate::{lines_table, Report};

/// The table, as a view (`.txt` files).
pub struct TableView;

impl View for TableView {
    fn extensions(&self) -> &'static [&'static str] {
        &["txt"]
    }

    fn render(&self, report: &Report) -> std::io::Result<String> {
        Ok(report.table())
    }
}

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
        if let Some(event) = &self.opencl_event {
            let events = self.launches.iter().filter_map(|l| l.event_micros);
            let _ = writeln!(
                out,
                "srcsim: as OpenCL events on the GPU's driver: {:.2} µs in all (each launch {} µs more, a context's first {} µs more still)",
                events.fold(0.0, |m, t| m + t),
                event.launch_us,
                event.first_launch_us
            );
        }
        for (kernel, note) in self.notes() {
            let _ = writeln!(out, "srcsim: {kernel}: {note}");
        }
        for (kernel, reason, n) in self.unsimulated() {
            out.push_str(&crate::prefixed(&format!(
                "{kernel}: {n} launch(es) not simulated: {reason}"
            )));
        }
        for k in self.line_profiles() {
            out.push_str(&lines_table(&k, Some(10)));
        }
        out
    }
}
