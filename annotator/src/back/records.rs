//! What the sidecar says of the annotated program's records, and what they sum to: the
//! record's format ([`pipeline_model::records`], the one owner of its layout) with the
//! names of its timing values, where the profile's and the sampled accesses' counters are
//! and what they count, and the profile's aggregation over work-items. Code generation
//! writes records in the format (`codegen`), the model reads their timing values
//! (`pipeline_model::Records`, per work-item or reduced to warps), and the shim sums the
//! profile's counters with [`ProfileLayout::block_totals`].

use std::collections::BTreeMap;

use pipeline_model::records::RecordFormat;
use serde::{Deserialize, Serialize};

/// How the counters of one work-item are laid out in the records buffer. Read from JSON
/// only where every size and offset it states is the one its format implies (a sidecar
/// from elsewhere, or damaged, is refused rather than misread).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "StoredLayout")]
pub struct RecordLayout {
    /// `ulong`s per work-item ([`RecordFormat::work_item_stride`]), stated for readers of
    /// the JSON.
    pub stride: usize,
    /// The counts of each kind of value (`resources`, `arms`, `profile_counters`,
    /// `sampled_accesses` in the JSON).
    #[serde(flatten)]
    pub format: RecordFormat,
    /// Field names: `t`, the resources, then `arm0`, `arm1`, ...
    pub fields: Vec<String>,
    /// Usage counters are in units of `1 / usage_scale` cycles.
    pub usage_scale: u64,
    /// Records are indexed by the linear global id (offsets removed).
    pub index: String,
    /// Profile mode only: the per-source-block counters after the usage counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<ProfileLayout>,
    /// The accesses whose addresses the records sample, after every other counter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<SampleLayout>,
}

/// [`RecordLayout`] as JSON holds it, before its sizes are checked against its format.
#[derive(Deserialize)]
struct StoredLayout {
    stride: usize,
    #[serde(flatten)]
    format: RecordFormat,
    fields: Vec<String>,
    usage_scale: u64,
    index: String,
    #[serde(default)]
    profile: Option<ProfileLayout>,
    #[serde(default)]
    samples: Option<SampleLayout>,
}

impl TryFrom<StoredLayout> for RecordLayout {
    type Error = String;

    fn try_from(s: StoredLayout) -> Result<Self, String> {
        let layout = RecordLayout {
            stride: s.stride,
            format: s.format,
            fields: s.fields,
            usage_scale: s.usage_scale,
            index: s.index,
            profile: s.profile,
            samples: s.samples,
        };
        layout.check()?;
        Ok(layout)
    }
}

impl RecordLayout {
    /// The layout of records of `format`, whose resources are named `resources`; the
    /// profile's blocks and the sampled accesses (as many as `format` counts) at the
    /// offsets the format gives them.
    pub fn new(
        format: RecordFormat,
        resources: &[String],
        usage_scale: u64,
        profile: Option<ProfileLayout>,
        samples: Vec<KernelSample>,
    ) -> Self {
        let mut fields = vec!["t".to_string()];
        fields.extend(resources.iter().cloned());
        fields.extend((0..format.arms).map(|a| format!("arm{a}")));
        fields.extend((0..format.arms).map(|a| format!("arm{a}_entries")));
        fields.extend((0..format.arms).map(|a| format!("arm{a}_decisions")));
        RecordLayout {
            stride: format.work_item_stride(),
            format,
            fields,
            usage_scale,
            index: "linear global id: (z - oz) * gy * gx + (y - oy) * gx + (x - ox)".to_string(),
            profile: profile.map(|p| ProfileLayout {
                offset: format.profile_offset(),
                ..p
            }),
            samples: (!samples.is_empty()).then(|| SampleLayout {
                offset: format.sample_offset(0),
                accesses: samples,
            }),
        }
    }

    /// Whether every size and offset the layout states is its format's.
    fn check(&self) -> Result<(), String> {
        let f = &self.format;
        let mut wrong = Vec::new();
        if self.stride != f.work_item_stride() {
            wrong.push(format!(
                "stride {} (the format's is {})",
                self.stride,
                f.work_item_stride()
            ));
        }
        if self.fields.len() != f.timing_width() {
            wrong.push(format!(
                "{} fields for {} timing values",
                self.fields.len(),
                f.timing_width()
            ));
        }
        let counters = self.profile.as_ref().map_or(0, ProfileLayout::counters);
        if counters != f.profile_counters {
            wrong.push(format!(
                "{counters} profile counters, the format has {}",
                f.profile_counters
            ));
        }
        if let Some(p) = self
            .profile
            .as_ref()
            .filter(|p| p.offset != f.profile_offset())
        {
            wrong.push(format!(
                "profile at {} (the format's {})",
                p.offset,
                f.profile_offset()
            ));
        }
        let sampled = self.samples.as_ref().map_or(0, |s| s.accesses.len());
        if sampled != f.sampled_accesses {
            wrong.push(format!(
                "{sampled} sampled accesses, the format has {}",
                f.sampled_accesses
            ));
        }
        if let Some(s) = self
            .samples
            .as_ref()
            .filter(|s| s.offset != f.sample_offset(0))
        {
            wrong.push(format!(
                "samples at {} (the format's {})",
                s.offset,
                f.sample_offset(0)
            ));
        }
        if wrong.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "record layout disagrees with its format: {}",
                wrong.join("; ")
            ))
        }
    }

    /// Values at the start of a record the model reads: `t`, the usage, the arms.
    pub fn timing_width(&self) -> usize {
        self.format.timing_width()
    }

    /// The sampled accesses of `kernel`, each with the index of its counters in a record.
    pub fn samples_of(&self, kernel: &str) -> Vec<(usize, pipeline_model::SampledAccess)> {
        let Some(layout) = &self.samples else {
            return Vec::new();
        };
        layout
            .accesses
            .iter()
            .enumerate()
            .filter(|(_, a)| a.kernel == kernel)
            .map(|(i, a)| (self.format.sample_offset(i), a.access.clone()))
            .collect()
    }
}

/// Where the sampled accesses' counters are in a record: from `offset`, per access of
/// `accesses`, its executions and the indices it first and last used
/// ([`pipeline_model::records::SAMPLE_COUNTERS`]; [`crate::analysis::sampling`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleLayout {
    /// Index of the first access's first counter in a record.
    pub offset: usize,
    /// The sampled accesses, in record order.
    pub accesses: Vec<KernelSample>,
}

/// A sampled access and the kernel it is in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelSample {
    /// The kernel.
    pub kernel: String,
    /// The access and what it was charged.
    #[serde(flatten)]
    pub access: pipeline_model::SampledAccess,
}

/// Where the profile counters are in a record: from `offset`, per block in `blocks`
/// order, one `ulong` per field of `fields` (executions, cycles, instructions); then
/// `extra_counters` pairs (cycles, instructions), one per line share beyond a block's
/// first ([`LineShare::counter`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProfileLayout {
    /// Index of the first block's first counter in a record (`1 + R`).
    pub offset: usize,
    /// The counters per block: `executions`, `cycles`, `instructions`.
    pub fields: Vec<String>,
    /// The profiled source blocks, in record order.
    pub blocks: Vec<ProfiledBlock>,
    /// Pairs of counters after the blocks' (see [`LineShare`]).
    #[serde(default)]
    pub extra_counters: usize,
}

/// How some of the cycles and instructions booked at a profiled block divide over source
/// lines (see [`crate::mapping::lines`] for what a line is owed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineShare {
    /// Which counters hold what this share divides: `None` for a block's first share,
    /// which divides the block's `cycles` and `instructions` less those of its other
    /// shares; `Some(j)` for the pair of extra counters `j`, at `offset + 3 * blocks.len()
    /// + 2 * j` (cycles) and the next (instructions).
    #[serde(default)]
    pub counter: Option<usize>,
    /// Per line, the fractions of the cycles and of the instructions it gets; each column
    /// sums to 1 (up to floating-point rounding).
    pub lines: Vec<LineWeight>,
}

/// One line's part of a [`LineShare`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineWeight {
    /// The line of the program's source.
    pub line: u32,
    /// Its fraction of the cycles.
    pub cycles: f64,
    /// Its fraction of the PTX instructions.
    pub instructions: f64,
}

/// A profiled block's counters summed over work-items, divided over source lines: what
/// the report holds of each block a launch ran, as it is.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BlockTotals {
    /// Times work-items ran the block.
    pub executions: u64,
    /// Cycles charged there (summed over work-items, not the kernel's time).
    pub cycles: u64,
    /// PTX instructions executed on the charged paths.
    pub instructions: u64,
    /// Per line (ascending), its part of `cycles` and of `instructions`: the parts sum to
    /// them up to floating-point rounding. A block booked nothing has none (and reports
    /// of srcsim before it divided them have none either).
    #[serde(rename = "by_line", default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<LineAmount>,
}

/// A source line's part of a block's cycles and instructions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineAmount {
    /// The line.
    pub line: u32,
    /// Its part of the block's cycles (not rounded: the parts sum to the block's cycles).
    pub cycles: f64,
    /// Its part of the block's PTX instructions.
    pub instructions: f64,
}

/// One profiled source block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProfiledBlock {
    /// The function whose source CFG holds it.
    pub function: String,
    /// Its index in that CFG (as in the block map's `source`).
    pub block: usize,
    /// The lines of the original source its statements and expressions occupy, ascending.
    pub lines: Vec<u32>,
    /// The line of its first statement or expression (1-based).
    pub line: u32,
    /// Its column (1-based, in bytes).
    pub column: u32,
    /// How what is booked here divides over source lines: one share per distinct division
    /// among the paths charged here, the first without counters of its own.
    #[serde(default)]
    pub shares: Vec<LineShare>,
}

impl ProfileLayout {
    /// Counters it takes in a record: three per block, two per extra share.
    pub fn counters(&self) -> usize {
        3 * self.blocks.len() + 2 * self.extra_counters
    }

    /// The counters of `records` (whole records of `stride` `ulong`s each) summed over
    /// work-items: per block in `blocks` order, `[executions, cycles, instructions]`,
    /// then the extra counters, per pair `[cycles, instructions]`.
    pub fn totals(&self, records: &[u64], stride: usize) -> (Vec<[u64; 3]>, Vec<[u64; 2]>) {
        let mut sums = vec![[0u64; 3]; self.blocks.len()];
        let mut extra = vec![[0u64; 2]; self.extra_counters];
        if stride == 0 {
            return (sums, extra);
        }
        let blocks_end = self.offset + 3 * self.blocks.len();
        for record in records.chunks_exact(stride) {
            let Some(counters) = record.get(self.offset..blocks_end + 2 * self.extra_counters)
            else {
                continue;
            };
            let (own, shares) = counters.split_at(3 * self.blocks.len());
            for (sum, c) in sums.iter_mut().zip(own.chunks_exact(3)) {
                for f in 0..3 {
                    sum[f] = sum[f].saturating_add(c[f]);
                }
            }
            for (sum, c) in extra.iter_mut().zip(shares.chunks_exact(2)) {
                for f in 0..2 {
                    sum[f] = sum[f].saturating_add(c[f]);
                }
            }
        }
        (sums, extra)
    }

    /// The counters of `records` summed over work-items, per block in `blocks` order,
    /// with its cycles and instructions divided over source lines by its shares: each
    /// share's amount times each line's fraction (fractions normalised to sum to 1). A
    /// block with no share (nothing booked, or a sidecar older than the shares) keeps
    /// all on its first line.
    pub fn block_totals(&self, records: &[u64], stride: usize) -> Vec<BlockTotals> {
        let (sums, extra) = self.totals(records, stride);
        self.blocks
            .iter()
            .zip(sums)
            .map(|(b, [executions, cycles, instructions])| {
                let mut lines: BTreeMap<u32, (f64, f64)> = BTreeMap::new();
                let mut rest = (cycles, instructions);
                let mut divide = |share: &LineShare, amount: (u64, u64)| {
                    let sum = |f: fn(&LineWeight) -> f64| share.lines.iter().map(f).sum::<f64>();
                    let (wc, wi) = (sum(|l| l.cycles), sum(|l| l.instructions));
                    for l in &share.lines {
                        let at = lines.entry(l.line).or_default();
                        if wc > 0.0 {
                            at.0 += amount.0 as f64 * l.cycles / wc;
                        }
                        if wi > 0.0 {
                            at.1 += amount.1 as f64 * l.instructions / wi;
                        }
                    }
                    // Nothing to divide by (a share of paths that cost nothing): the
                    // block's first line keeps it, so that no cycle is lost.
                    let lost = (
                        if wc > 0.0 { 0 } else { amount.0 },
                        if wi > 0.0 { 0 } else { amount.1 },
                    );
                    if lost != (0, 0) {
                        let at = lines.entry(b.line).or_default();
                        at.0 += lost.0 as f64;
                        at.1 += lost.1 as f64;
                    }
                };
                for share in &b.shares {
                    if let Some([c, i]) = share.counter.and_then(|j| extra.get(j)) {
                        rest = (rest.0.saturating_sub(*c), rest.1.saturating_sub(*i));
                        divide(share, (*c, *i));
                    }
                }
                match b.shares.iter().find(|s| s.counter.is_none()) {
                    Some(first) => divide(first, rest),
                    None if rest != (0, 0) => {
                        let at = lines.entry(b.line).or_default();
                        at.0 += rest.0 as f64;
                        at.1 += rest.1 as f64;
                    }
                    None => {}
                }
                BlockTotals {
                    executions,
                    cycles,
                    instructions,
                    lines: lines
                        .into_iter()
                        .map(|(line, (cycles, instructions))| LineAmount {
                            line,
                            cycles,
                            instructions,
                        })
                        .collect(),
                }
            })
            .collect()
    }
}
