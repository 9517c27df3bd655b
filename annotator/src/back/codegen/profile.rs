//! Profile mode: the source blocks counted, their slots in the state, and how each
//! block's cycles and instructions divide over source lines.

use std::collections::BTreeMap;

use super::KernelTiming;
use crate::front::source::cfg::{Insertion, SourceCfg};
use crate::ids::SourceBlockId;
use crate::mapping::matching::SourceRef;
use crate::mapping::paths::{From, TimedPath};

/// Where a charge is also booked in profile mode: the profiled block's slot, the charged
/// path's PTX instruction count and, for a path whose cycles divide over source lines
/// otherwise than the first path booked at that block, the index in `p` of the cycles
/// and instructions counters of its line share.
#[derive(Debug, Clone, Copy)]
pub(super) struct Booking {
    pub(super) slot: usize,
    pub(super) instructions: u64,
    pub(super) share: Option<usize>,
}

/// The source blocks a profiled annotation counts, in slot order: every block with a
/// place for a call, every block a PTX block maps to, and the entry block of every
/// kernel and called function (where charges with no timed block yet are booked).
pub fn profiled_blocks(cfgs: &[SourceCfg], kernels: &[KernelTiming<'_>]) -> Vec<SourceRef> {
    let units: Vec<&str> = kernels.iter().map(|k| k.map.kernel.as_str()).collect();
    let mut out = Vec::new();
    for cfg in cfgs {
        for block in &cfg.blocks {
            let id = SourceBlockId(block.id);
            let mapped = kernels.iter().any(|k| {
                k.map.blocks.iter().any(|m| {
                    m.source
                        .as_ref()
                        .is_some_and(|s| s.function == cfg.function && s.block == id)
                })
            });
            let entry = block.id == 0 && units.contains(&cfg.function.as_str());
            if mapped || entry || block.insertion != Insertion::Nothing {
                out.push(SourceRef {
                    function: cfg.function.clone(),
                    block: id,
                });
            }
        }
    }
    out
}

/// Profile slots by source block.
pub(super) struct Slots(BTreeMap<(String, SourceBlockId), usize>);

impl Slots {
    pub(super) fn new(blocks: &[SourceRef]) -> Self {
        Slots(
            blocks
                .iter()
                .enumerate()
                .map(|(i, b)| ((b.function.clone(), b.block), i))
                .collect(),
        )
    }

    pub(super) fn of(&self, function: &str, block: SourceBlockId) -> Option<usize> {
        self.0.get(&(function.to_string(), block)).copied()
    }

    /// The slot an exit path of `k` is booked at: the source block of its origin, or the
    /// unit's entry block for a path from the start.
    pub(super) fn origin(&self, k: &KernelTiming<'_>, from: From) -> Option<usize> {
        match from {
            From::Block(b) => {
                let s = k.map.source_of(b)?;
                self.of(&s.function, s.block)
            }
            From::Start => self.of(&k.map.kernel, SourceBlockId(0)),
        }
    }
}

/// One way the cycles and instructions booked at a profiled block divide over source
/// lines: per line (0: none), its fractions of the cycles and of the instructions.
#[derive(Debug, Clone, PartialEq)]
pub struct LineShare {
    /// The counters holding the cycles and instructions booked with this share: `None`
    /// for the block's first share (the block's own counters less its other shares'),
    /// else the index of the cycles counter among the extra counters (instructions next).
    pub counter: Option<usize>,
    /// `(line, cycles fraction, instructions fraction)`, ascending by line.
    pub lines: Vec<(u32, f64, f64)>,
}

/// The line shares of every profiled block, found as paths are booked. Paths booked at
/// one block usually divide alike (every path into a PTX block divides its step the same
/// way, see [`crate::mapping::lines`]), so most blocks have one share and need no more counters;
/// a block also charged paths through other unmapped blocks gets a pair of counters per
/// further share, so that the profile's per-line cycles are exact.
pub(super) struct Shares {
    /// Profiled blocks: the extra counters start at `3 * blocks` in `p`.
    pub(super) blocks: usize,
    pub(super) per_slot: Vec<Vec<LineShare>>,
    pub(super) extra: usize,
}

impl Shares {
    pub(super) fn new(blocks: usize) -> Self {
        Shares {
            blocks,
            per_slot: vec![Vec::new(); blocks],
            extra: 0,
        }
    }

    /// The booking of `path` at `slot`.
    pub(super) fn book(&mut self, slot: usize, path: &TimedPath) -> Booking {
        let booking = |share| Booking {
            slot,
            instructions: path.instructions,
            share,
        };
        let fraction = |part: f64, whole: u64| {
            if whole == 0 {
                0.0
            } else {
                part / whole as f64
            }
        };
        if path.lines.is_empty() || (path.cycles == 0 && path.instructions == 0) {
            return booking(None);
        }
        let lines: Vec<(u32, f64, f64)> = path
            .lines
            .iter()
            .map(|l| {
                (
                    l.line,
                    fraction(l.cycles, path.cycles),
                    fraction(l.instructions as f64, path.instructions),
                )
            })
            .collect();
        let alike = |a: &[(u32, f64, f64)]| {
            a.len() == lines.len()
                && a.iter().zip(&lines).all(|(x, y)| {
                    x.0 == y.0 && (x.1 - y.1).abs() < 1e-9 && (x.2 - y.2).abs() < 1e-9
                })
        };
        let shares = &mut self.per_slot[slot];
        if let Some(s) = shares.iter().find(|s| alike(&s.lines)) {
            return booking(s.counter.map(|c| 3 * self.blocks + 2 * c));
        }
        let counter = if shares.is_empty() {
            None
        } else {
            self.extra += 1;
            Some(self.extra - 1)
        };
        shares.push(LineShare { counter, lines });
        booking(counter.map(|c| 3 * self.blocks + 2 * c))
    }

    /// Counters in `p`: three per block, two per extra share.
    pub(super) fn counters(&self) -> usize {
        3 * self.blocks + 2 * self.extra
    }
}
