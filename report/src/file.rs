//! A report's file: written in the view its extension names, read back from JSON of this
//! schema or of version 1 (upgraded on reading), and checked that its parts refer to each
//! other; [`FileError`] says what went wrong.

use std::path::Path;

use serde::Deserialize;

use super::{legacy, views, Report, REPORT_SCHEMA, REPORT_SCHEMA_V1};

impl Report {
    /// Writes the report to `path`, in the view its extension names ([`views::VIEWS`]:
    /// CSV for `.csv`, the table for `.txt`, else JSON).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, views::for_path(path).render(self)?)
    }

    /// Reads a JSON report, of this schema or of [`REPORT_SCHEMA_V1`].
    pub fn read(path: &Path) -> Result<Self, FileError> {
        let text = std::fs::read_to_string(path).map_err(|source| FileError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses a JSON report; `path` names it in errors. A [`REPORT_SCHEMA_V1`] report
    /// comes back in this schema, its launches' profiles keeping their block counters
    /// and each kernel's blocks and line texts becoming a [`ProgramProfile`](super::ProgramProfile) (one per
    /// kernel: a version 1 report does not say which kernels share a program).
    pub fn parse(text: &str, path: &Path) -> Result<Self, FileError> {
        let at = || path.display().to_string();
        let format = |source| FileError::Format {
            path: at(),
            what: "report",
            source,
        };
        let invalid = |cause: String| FileError::Invalid { path: at(), cause };
        /// The schema tag alone, read first so that the rest is read by its version.
        #[derive(Deserialize)]
        struct Tag {
            schema: Option<String>,
        }
        let tag: Tag = serde_json::from_str(text).map_err(format)?;
        let report = match tag.schema.as_deref() {
            Some(REPORT_SCHEMA) => serde_json::from_str::<Report>(text).map_err(format)?,
            Some(REPORT_SCHEMA_V1) => serde_json::from_str::<legacy::Report>(text)
                .map_err(format)?
                .upgrade(),
            Some(other) => {
                return Err(invalid(format!(
                "schema is \"{other}\", expected \"{REPORT_SCHEMA}\" (or \"{REPORT_SCHEMA_V1}\")"
            )))
            }
            None => {
                return Err(invalid(format!(
                    "no \"schema\": \"{REPORT_SCHEMA}\" (write one with `srcsim run --report`)"
                )))
            }
        };
        report.check_references().map_err(invalid)?;
        Ok(report)
    }

    /// That every program is at its id and every launch's profile names a program and
    /// blocks the report has.
    fn check_references(&self) -> Result<(), String> {
        for (i, p) in self.programs.iter().enumerate() {
            if p.id != i {
                return Err(format!("programs[{i}] has id {}, expected {i}", p.id));
            }
        }
        for l in &self.launches {
            let Some(p) = &l.profile else { continue };
            let Some(program) = self.programs.get(p.program) else {
                return Err(format!(
                    "launch {} ({}): its profile names program {}, but the report has {} program(s)",
                    l.index,
                    l.kernel,
                    p.program,
                    self.programs.len()
                ));
            };
            if let Some(b) = p.blocks.iter().find(|b| b.index >= program.blocks.len()) {
                return Err(format!(
                    "launch {} ({}): its profile names block {} of program {}, which has {} block(s)",
                    l.index,
                    l.kernel,
                    b.index,
                    p.program,
                    program.blocks.len()
                ));
            }
        }
        Ok(())
    }
}

/// A JSON file of srcsim's (a report, a baseline) that could not be read, written or
/// understood.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// Not JSON of the file's shape (serde names the line and column).
    #[error("{path}: not an srcsim {what}: {source}")]
    Format {
        /// The file.
        path: String,
        /// What the file should have been: `report`, `baseline`.
        what: &'static str,
        /// The error.
        source: serde_json::Error,
    },
    /// The shape is right but a value is not, or the parts do not fit together, or the
    /// schema is another.
    #[error("{path}: {cause}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong, naming the entry.
        cause: String,
    },
}
