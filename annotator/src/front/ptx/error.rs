//! The error of reading PTX. Its own room because both the parser (tokens, statements)
//! and the block builder (branch targets) report it, and the builder must not depend on
//! the parser that calls it.

use std::fmt;

/// PTX the parser cannot read, with the PTX line where it stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// Line in the PTX text.
    pub line: u32,
    /// What was expected or found.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PTX line {}: {}", self.line, self.message)
    }
}
