//! The report's views: each a form a report is shown or written in, one module each,
//! registered in [`VIEWS`]. A new format is a module with a [`View`] and its entry there;
//! [`Report::write`] picks the view by the file's extension.

mod csv;
mod html;
mod json;
mod table;

pub use csv::CsvView;
pub use html::{sweep_page, HtmlView};
pub use json::JsonView;
pub use table::TableView;

use crate::Report;

/// A form of the report.
pub trait View: Sync {
    /// The file extensions written in this form.
    fn extensions(&self) -> &'static [&'static str];
    /// The report in this form.
    fn render(&self, report: &Report) -> std::io::Result<String>;
}

/// Every view, by the extensions it is written for; a file of any other extension gets
/// the last, JSON (the form `srcsim report` and the baselines read back).
pub static VIEWS: &[&dyn View] = &[&CsvView, &HtmlView, &TableView, &JsonView];

/// The view for a file at `path`.
pub fn for_path(path: &std::path::Path) -> &'static dyn View {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    VIEWS
        .iter()
        .copied()
        .find(|v| v.extensions().contains(&ext))
        .unwrap_or(VIEWS[VIEWS.len() - 1])
}
