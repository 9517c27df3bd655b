//! The JSON form (the report's serde serialisation): what `srcsim report`, `srcsim check`
//! and the baselines read back.

use super::View;
use crate::Report;

/// The JSON form, as a view (`.json` files, and any file of an unknown extension).
pub struct JsonView;

impl View for JsonView {
    fn extensions(&self) -> &'static [&'static str] {
        &["json"]
    }

    fn render(&self, report: &Report) -> std::io::Result<String> {
        serde_json::to_string_pretty(report).map_err(std::io::Error::other)
    }
}
