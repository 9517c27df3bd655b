//! The block ids that cross the annotator's phases.
//!
//! A PTX block and a source block are both numbered from 0 in their function, so as bare
//! `usize`s one passes where the other is meant and nothing complains (issue 33). Where an
//! id leaves the module that numbered it (the mapping's [`BlockMap`], [`SourceRef`], the
//! path table, the code generator), it is one of these. Inside one module, an index into
//! that module's own vectors may stay a `usize`; it is wrapped or unwrapped where it
//! crosses.
//!
//! Both serialize as the bare number (`#[serde(transparent)]`) and print as it
//! (`Display`), so the sidecar, the analysis JSON and every message stay as they were.
//!
//! [`BlockMap`]: crate::mapping::matching::BlockMap
//! [`SourceRef`]: crate::mapping::matching::SourceRef

use std::fmt;

use serde::{Deserialize, Serialize};

/// A PTX block: its index in its function's `blocks` (the order the PTX lists them in).
///
/// It exists so that a PTX block is never taken for a source block: the mapping holds
/// both kinds side by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PtxBlock(pub usize);

impl PtxBlock {
    /// Its index in its function's blocks.
    pub fn index(self) -> usize {
        self.0
    }
}

impl fmt::Display for PtxBlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A source block's id: its index in its function's source CFG
/// ([`SourceCfg::blocks`](crate::front::source::cfg::SourceCfg::blocks)); the block itself
/// is a [`SourceBlock`](crate::front::source::cfg::SourceBlock).
///
/// It exists so that a source block is never taken for a PTX block (see [`PtxBlock`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SourceBlockId(pub usize);

impl SourceBlockId {
    /// Its index in its function's source CFG.
    pub fn index(self) -> usize {
        self.0
    }
}

impl fmt::Display for SourceBlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_serialize_and_print_as_the_bare_number() {
        assert_eq!(serde_json::to_string(&PtxBlock(3)).unwrap(), "3");
        assert_eq!(serde_json::to_string(&SourceBlockId(4)).unwrap(), "4");
        assert_eq!(serde_json::from_str::<PtxBlock>("5").unwrap(), PtxBlock(5));
        assert_eq!(
            serde_json::from_str::<SourceBlockId>("6").unwrap(),
            SourceBlockId(6)
        );
        // `annotate --explain` pads them (`B{:<3}`).
        assert_eq!(
            format!("B{:<3}|S{}", PtxBlock(7), SourceBlockId(8)),
            "B7  |S8"
        );
    }
}
