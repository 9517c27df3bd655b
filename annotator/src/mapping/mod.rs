//! The mapping: the analysed PTX and the source brought together.
//!
//! PTX blocks matched to source blocks ([`matching`]), the loops the compiler unrolled
//! among them ([`unroll`]), the table of paths between the mapped blocks ([`paths`]) and
//! the source lines each path's cycles are charged to ([`lines`]).
//!
//! The mapping step for one unit, a kernel or a function the kernels call, is `Mapper`
//! here (for `crate::annotate`): its PTX blocks matched to the source's blocks, the loops
//! the compiler unrolled, and the table of paths between its counted blocks (each path's
//! cycles charged to its lines where a profile is wanted). Written once, for both kinds
//! of unit.

pub mod lines;
pub mod matching;
pub mod paths;
pub mod unroll;

use pipeline_model::Architecture;

use crate::analysis::blocks::FunctionAnalysis;
use crate::front::ptx::{Function, Module};
use crate::front::source::cfg::SourceCfg;
use crate::front::source::SourceFile;
use crate::mapping::lines::{attribute, function_lines};
use crate::mapping::matching::{match_blocks, BlockMap};
use crate::mapping::paths::{path_table, PathTable};
use crate::mapping::unroll::{unrolled_loops, UnrolledLoop};

/// What the mapping gives a unit.
pub(crate) struct Mapping {
    /// Its PTX blocks, each to the source block it runs for.
    pub block_map: BlockMap,
    /// The loops the compiler unrolled, with the shape that counts their iterations (none
    /// where the annotator cannot count them: the caller refuses a kernel with one).
    pub unrolled: Vec<UnrolledLoop>,
    /// Its paths between counted blocks, and their cycles.
    pub paths: PathTable,
}

/// What every unit of one file is mapped against.
pub(crate) struct Mapper<'a> {
    pub module: &'a Module,
    pub source: &'a SourceFile,
    pub cfgs: &'a [SourceCfg],
    pub arch: &'a Architecture,
    /// The file's name, as its lines are reported.
    pub program: &'a str,
    /// Whether each path's cycles are charged to its lines (a profile).
    pub profile: bool,
}

impl Mapper<'_> {
    /// Maps the unit compiled as `f` and analysed as `analysis`.
    pub fn map(&self, f: &Function, analysis: &FunctionAnalysis) -> Mapping {
        let block_map = match_blocks(f, analysis, self.source, self.cfgs);
        let unrolled = unrolled_loops(&block_map, analysis, self.cfgs);
        let mut paths = path_table(analysis, &block_map);
        if self.profile {
            let lines = function_lines(self.module, f, self.arch, self.program);
            attribute(&mut paths, analysis, &lines);
        }
        Mapping {
            block_map,
            unrolled,
            paths,
        }
    }
}
