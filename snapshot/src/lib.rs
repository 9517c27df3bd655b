//! Reviewed snapshots for srcsim's tests: a test compares what it produced with a
//! committed file, and any change shows up as a diff to review. With `SRCSIM_BLESS` set
//! in the environment, the files are rewritten instead (review the diff, then commit).
//!
//! ```no_run
//! let mut snapshots = snapshot::Snapshots::new("annotated sources");
//! snapshots.check("tests/snapshots/annotate/vector_add.timed.cl", "__kernel void ...");
//! snapshots.assert_unchanged();
//! ```
#![deny(missing_docs)]

use std::path::Path;

/// The environment variable that rewrites the snapshots.
pub const BLESS: &str = "SRCSIM_BLESS";

/// The snapshots one test compares, and where they differ.
pub struct Snapshots {
    what: String,
    differ: Vec<String>,
}

impl Snapshots {
    /// Snapshots of `what` (named in the failure message).
    pub fn new(what: &str) -> Self {
        Snapshots {
            what: what.to_string(),
            differ: Vec::new(),
        }
    }

    /// Compares `actual` with the snapshot at `path` (rewrites it when blessing). A
    /// difference is noted with its first differing line; a missing snapshot differs from
    /// anything but empty text.
    pub fn check(&mut self, path: impl AsRef<Path>, actual: &str) {
        let path = path.as_ref();
        if std::env::var_os(BLESS).is_some() {
            if let Err(e) = std::fs::write(path, actual) {
                self.differ
                    .push(format!("{}: not written: {e}", path.display()));
            }
            return;
        }
        let expected = std::fs::read_to_string(path).unwrap_or_default();
        if let Some(line) = first_difference(&expected, actual) {
            self.differ.push(line.describe(&path.display().to_string()));
        }
    }

    /// Fails the test where any snapshot differed, listing each.
    pub fn assert_unchanged(self) {
        assert!(
            self.differ.is_empty(),
            "{} differ from the reviewed snapshots (review, then {BLESS}=1 to accept):\n{}",
            self.what,
            self.differ.join("\n")
        );
    }
}

/// Where two texts first differ: the line (1-based) and both versions of it.
#[derive(Debug, PartialEq, Eq)]
pub struct Difference {
    /// The line, from 1.
    pub line: usize,
    /// The snapshot's line (empty past its end).
    pub expected: String,
    /// The produced line (empty past its end).
    pub actual: String,
}

impl Difference {
    fn describe(&self, path: &str) -> String {
        format!(
            "{path}: line {}\n  expected: {}\n  actual:   {}",
            self.line, self.expected, self.actual
        )
    }
}

/// The first line where `expected` and `actual` differ, if they do (a difference in the
/// final newline alone counts, at the line after the last).
pub fn first_difference(expected: &str, actual: &str) -> Option<Difference> {
    if expected == actual {
        return None;
    }
    let (mut e, mut a) = (expected.lines(), actual.lines());
    let mut line = 1;
    loop {
        match (e.next(), a.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (None, None) => {
                return Some(Difference {
                    line,
                    expected: String::new(),
                    actual: String::new(),
                })
            }
            (x, y) => {
                return Some(Difference {
                    line,
                    expected: x.unwrap_or_default().to_string(),
                    actual: y.unwrap_or_default().to_string(),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_differing_line_is_found() {
        assert_eq!(first_difference("a\nb\nc\n", "a\nb\nc\n"), None);
        assert_eq!(
            first_difference("a\nb\nc\n", "a\nx\nc\n"),
            Some(Difference {
                line: 2,
                expected: "b".into(),
                actual: "x".into()
            })
        );
        // A line more or less, and the final newline alone.
        assert_eq!(first_difference("a\n", "a\nb\n").map(|d| d.line), Some(2));
        assert_eq!(
            first_difference("a\nb\n", "a\n").map(|d| d.expected),
            Some("b".into())
        );
        assert_eq!(first_difference("a\n", "a").map(|d| d.line), Some(2));
    }
}
