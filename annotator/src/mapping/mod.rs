//! The mapping: the analysed PTX and the source brought together.
//!
//! PTX blocks matched to source blocks ([`matching`]), the loops the compiler unrolled
//! among them ([`unroll`]), the table of paths between the mapped blocks ([`paths`]) and
//! the source lines each path's cycles are charged to ([`lines`]).

pub mod lines;
pub mod matching;
pub mod paths;
pub mod unroll;
