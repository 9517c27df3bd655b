//! The baselines and verdicts behind `srcsim check` (the command itself: `gate.rs` of the
//! binary). A [`Baseline`] records, per kernel and launch
//! configuration (`global / local`), the estimated cycles per launch of a run; [`compare`]
//! sets a new run's [`Observed`] configurations against it and gives a verdict per
//! configuration. Pure functions on typed data: running the program and printing belong to
//! the `srcsim` binary.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use serde::{Deserialize, Serialize};

use crate::{FileError, Outcome, Report};

/// The version tag of the baseline's JSON schema.
pub const BASELINE_SCHEMA: &str = "srcsim.baseline/2";

/// The tag of baselines written before they named their model; they still read.
pub const BASELINE_SCHEMA_1: &str = "srcsim.baseline/1";

/// The recorded estimates of one run, one entry per kernel and configuration.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// [`BASELINE_SCHEMA`].
    pub schema: String,
    /// The architecture simulated (its name, as in the report).
    pub arch: String,
    /// What simulated the run ([`crate::model_identity`]); absent in version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Sorted by kernel, then configuration (numbers in it compared as numbers).
    pub entries: Vec<Entry>,
}

/// The simulated launches of one kernel in one configuration.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The kernel's name.
    pub kernel: String,
    /// `global / local`, as in the report's table (`*`: local size chosen by srcsim).
    pub configuration: String,
    /// Simulated launches.
    pub launches: usize,
    /// Cycles per launch: the mean over the launches, rounded to the nearest cycle.
    pub cycles: u64,
    /// The fewest cycles of a launch, only where launches differ (data-dependent kernels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_cycles: Option<u64>,
    /// The most cycles of a launch, only where launches differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cycles: Option<u64>,
    /// What bound the launches (`latency` or a resource); several, comma-separated, where
    /// launches differ.
    pub bound: String,
}

/// One kernel and configuration as a run left it.
#[derive(Debug, Clone, PartialEq)]
pub struct Observed {
    /// The kernel's name.
    pub kernel: String,
    /// `global / local`.
    pub configuration: String,
    /// The simulated launches, if any.
    pub simulated: Option<Entry>,
    /// Launches not simulated: each reason with its count.
    pub not_simulated: Vec<(String, usize)>,
}

/// Orders configurations by the numbers in them (`64 / 32` before `1024 / 32`), then by
/// the text (a `*` or a dimension more).
fn configuration_key(configuration: &str) -> (Vec<u64>, String) {
    let numbers = configuration
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap_or(u64::MAX))
        .collect();
    (numbers, configuration.to_string())
}

type Key = (String, (Vec<u64>, String));

fn key(kernel: &str, configuration: &str) -> Key {
    (kernel.to_string(), configuration_key(configuration))
}

/// The entry for launches of one configuration that took `cycles` (at least one).
fn entry(kernel: &str, configuration: &str, cycles: &[u64], bounds: &BTreeSet<String>) -> Entry {
    let n = cycles.len() as u128;
    let sum: u128 = cycles.iter().map(|&c| u128::from(c)).sum();
    let min = cycles.iter().copied().min().unwrap_or(0);
    let max = cycles.iter().copied().max().unwrap_or(0);
    let differ = min != max;
    Entry {
        kernel: kernel.to_string(),
        configuration: configuration.to_string(),
        launches: cycles.len(),
        cycles: u64::try_from((sum + n / 2) / n.max(1)).unwrap_or(u64::MAX),
        min_cycles: differ.then_some(min),
        max_cycles: differ.then_some(max),
        bound: bounds.iter().cloned().collect::<Vec<_>>().join(", "),
    }
}

/// Groups a run's launches by kernel and configuration, sorted as in a baseline.
pub fn observe(report: &Report) -> Vec<Observed> {
    #[derive(Default)]
    struct Group {
        kernel: String,
        configuration: String,
        cycles: Vec<u64>,
        bounds: BTreeSet<String>,
        not_simulated: Vec<(String, usize)>,
    }
    let mut groups: BTreeMap<Key, Group> = BTreeMap::new();
    for l in &report.launches {
        let configuration = l.configuration();
        let g = groups
            .entry(key(&l.kernel, &configuration))
            .or_insert_with(|| Group {
                kernel: l.kernel.to_string(),
                configuration,
                ..Group::default()
            });
        match &l.outcome {
            Outcome::Simulated(e) => {
                g.cycles.push(e.cycles);
                g.bounds.insert(e.bound.clone());
            }
            Outcome::NotSimulated { reason } => {
                match g.not_simulated.iter_mut().find(|(r, _)| r == reason) {
                    Some((_, n)) => *n += 1,
                    None => g.not_simulated.push((reason.clone(), 1)),
                }
            }
        }
    }
    groups
        .into_values()
        .map(|g| Observed {
            simulated: (!g.cycles.is_empty())
                .then(|| entry(&g.kernel, &g.configuration, &g.cycles, &g.bounds)),
            kernel: g.kernel,
            configuration: g.configuration,
            not_simulated: g.not_simulated,
        })
        .collect()
}

impl Baseline {
    /// The baseline of a run on `arch`: its simulated configurations (launches that were
    /// not simulated have no cycles to record).
    pub fn from_observed(arch: &str, model: Option<&str>, observed: &[Observed]) -> Self {
        let mut entries: Vec<Entry> = observed
            .iter()
            .filter_map(|o| o.simulated.clone())
            .collect();
        entries.sort_by_cached_key(|e| key(&e.kernel, &e.configuration));
        Baseline {
            schema: BASELINE_SCHEMA.to_string(),
            arch: arch.to_string(),
            model: model.map(String::from),
            entries,
        }
    }

    /// The file's text: pretty JSON, one entry per configuration, a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a baseline serialises");
        text.push('\n');
        text
    }

    /// Parses and validates a baseline; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Self, FileError> {
        let at = || path.display().to_string();
        let invalid = |cause: String| FileError::Invalid { path: at(), cause };
        // The schema tag first, so that another kind of file is named as such rather than
        // by the first field it lacks.
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|source| FileError::Format {
                path: at(),
                what: "baseline",
                source,
            })?;
        match value.get("schema").and_then(|s| s.as_str()) {
            Some(BASELINE_SCHEMA | BASELINE_SCHEMA_1) => {}
            Some(other) => {
                return Err(invalid(format!(
                    "schema is \"{other}\", expected \"{BASELINE_SCHEMA}\""
                )))
            }
            None => {
                return Err(invalid(format!(
                    "no \"schema\": \"{BASELINE_SCHEMA}\" (write one with `srcsim check --update`)"
                )))
            }
        }
        let baseline: Baseline =
            serde_json::from_str(text).map_err(|source| FileError::Format {
                path: at(),
                what: "baseline",
                source,
            })?;
        let mut seen = BTreeSet::new();
        for (i, e) in baseline.entries.iter().enumerate() {
            let name = format!("entry {i} ({} at {})", e.kernel, e.configuration);
            if !seen.insert((&e.kernel, &e.configuration)) {
                return Err(invalid(format!("{name} appears twice")));
            }
            if e.launches == 0 {
                return Err(invalid(format!("{name}: launches is 0")));
            }
            match (e.min_cycles, e.max_cycles) {
                (None, None) => {}
                (Some(min), Some(max)) if min <= e.cycles && e.cycles <= max => {}
                (Some(min), Some(max)) => {
                    return Err(invalid(format!(
                        "{name}: cycles {} is not within min_cycles {min} and max_cycles {max}",
                        e.cycles
                    )))
                }
                _ => {
                    return Err(invalid(format!(
                        "{name}: min_cycles and max_cycles go together"
                    )))
                }
            }
        }
        Ok(baseline)
    }

    /// Reads and validates the baseline at `path`.
    pub fn read(path: &Path) -> Result<Self, FileError> {
        let text = std::fs::read_to_string(path).map_err(|source| FileError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Writes the baseline to `path`.
    pub fn write(&self, path: &Path) -> Result<(), FileError> {
        std::fs::write(path, self.to_json()).map_err(|source| FileError::Io {
            path: path.display().to_string(),
            source,
        })
    }
}

/// What became of one configuration.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The same cycles per launch.
    Same,
    /// Slower or faster, within the tolerance.
    WithinTolerance,
    /// Slower beyond the tolerance: fails.
    Slower,
    /// Faster beyond the tolerance: passes; `--update` records it.
    Faster,
    /// Simulated in the run, not in the baseline: reported, passes.
    New,
    /// In the baseline, not in the run: fails.
    Vanished,
    /// In the baseline, but launches of it were not simulated in the run (the gate lost
    /// coverage): fails.
    NotSimulated,
    /// Neither in the baseline nor simulated in the run: nothing to compare; reported.
    Uncovered,
}

impl Verdict {
    /// Whether this verdict fails the check.
    pub fn fails(&self) -> bool {
        matches!(
            self,
            Verdict::Slower | Verdict::Vanished | Verdict::NotSimulated
        )
    }

    /// The word in the table.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::WithinTolerance => "within tolerance",
            Verdict::Slower => "SLOWER",
            Verdict::Faster => "faster",
            Verdict::New => "new",
            Verdict::Vanished => "VANISHED",
            Verdict::NotSimulated => "NOT SIMULATED",
            Verdict::Uncovered => "not simulated",
        }
    }
}

/// One configuration, old against new.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The kernel's name.
    pub kernel: String,
    /// `global / local`.
    pub configuration: String,
    /// The baseline's entry.
    pub old: Option<Entry>,
    /// The run's simulated launches.
    pub new: Option<Entry>,
    /// `(new - old) / old` in percent, where both are there.
    pub change_pct: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
    /// What else changed: launch counts, bounds, launches not simulated.
    pub notes: Vec<String>,
    /// Launches of the run not simulated: each reason with its count.
    pub not_simulated: Vec<(String, usize)>,
}

/// A run compared with a baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The allowed change, percent.
    pub tolerance_pct: f64,
    /// Every configuration of either, sorted by kernel and configuration.
    pub rows: Vec<Row>,
}

/// The verdict on cycles per launch, `old` to `new`, allowing `tolerance_pct` percent
/// either way. Decided on integers scaled by 100 so that a change of exactly the
/// tolerance is within it.
fn judge(old: u64, new: u64, tolerance_pct: f64) -> Verdict {
    let diff = (new as f64 - old as f64) * 100.0;
    let allowed = tolerance_pct * old as f64;
    if new == old {
        Verdict::Same
    } else if diff > allowed {
        Verdict::Slower
    } else if -diff > allowed {
        Verdict::Faster
    } else {
        Verdict::WithinTolerance
    }
}

/// Compares a run's configurations with the baseline's; `tolerance_pct` (>= 0) is the
/// change in cycles per launch allowed before a configuration counts as slower (or faster).
pub fn compare(baseline: &Baseline, observed: &[Observed], tolerance_pct: f64) -> Comparison {
    let mut pairs: BTreeMap<Key, (Option<&Entry>, Option<&Observed>)> = BTreeMap::new();
    for e in &baseline.entries {
        pairs.entry(key(&e.kernel, &e.configuration)).or_default().0 = Some(e);
    }
    for o in observed {
        pairs.entry(key(&o.kernel, &o.configuration)).or_default().1 = Some(o);
    }
    let rows = pairs
        .into_values()
        .map(|(old, run)| {
            let new = run.and_then(|o| o.simulated.as_ref());
            let (kernel, configuration) = match (old, run) {
                (Some(e), _) => (e.kernel.clone(), e.configuration.clone()),
                (None, Some(o)) => (o.kernel.clone(), o.configuration.clone()),
                (None, None) => unreachable!("every key comes from one side"),
            };
            let not_simulated = run.map_or(&[][..], |o| &o.not_simulated[..]);
            let mut notes = Vec::new();
            let unsimulated: usize = not_simulated.iter().map(|(_, n)| n).sum();
            if unsimulated > 0 {
                // The reasons are long (compiler messages): they go below the table.
                notes.push(format!("{unsimulated} launch(es) not simulated"));
            }
            let change_pct = old.zip(new).map(|(o, n)| {
                if o.launches != n.launches {
                    notes.push(format!("launches {} -> {}", o.launches, n.launches));
                }
                if o.bound != n.bound {
                    notes.push(format!("bound {} -> {}", o.bound, n.bound));
                }
                (n.cycles as f64 - o.cycles as f64) * 100.0 / (o.cycles.max(1) as f64)
            });
            let verdict = match (old, new) {
                (Some(_), _) if !not_simulated.is_empty() => Verdict::NotSimulated,
                (Some(o), Some(n)) => judge(o.cycles, n.cycles, tolerance_pct),
                (Some(_), None) => Verdict::Vanished,
                (None, Some(_)) => Verdict::New,
                (None, None) => Verdict::Uncovered,
            };
            Row {
                kernel,
                configuration,
                old: old.cloned(),
                new: new.cloned(),
                change_pct,
                verdict,
                notes,
                not_simulated: not_simulated.to_vec(),
            }
        })
        .collect();
    Comparison {
        tolerance_pct,
        rows,
    }
}

fn cycles_cell(e: Option<&Entry>) -> Cell {
    let text = match e {
        None => "-".to_string(),
        Some(Entry {
            cycles,
            min_cycles: Some(min),
            max_cycles: Some(max),
            ..
        }) => format!("{cycles} ({min}..{max})"),
        Some(e) => e.cycles.to_string(),
    };
    Cell::new(text).set_alignment(CellAlignment::Right)
}

impl Comparison {
    /// Whether any configuration fails the check.
    pub fn fails(&self) -> bool {
        self.rows.iter().any(|r| r.verdict.fails())
    }

    /// The rows with `verdict`.
    pub fn count(&self, verdict: &Verdict) -> usize {
        self.rows.iter().filter(|r| r.verdict == *verdict).count()
    }

    /// Old against new, one row per configuration, then why launches were not simulated.
    pub fn table(&self) -> String {
        let mut t = Table::new();
        t.load_preset(UTF8_FULL_CONDENSED).set_header(vec![
            "kernel",
            "global / local",
            "old cycles",
            "new cycles",
            "change",
            "verdict",
            "notes",
        ]);
        for r in &self.rows {
            t.add_row(vec![
                Cell::new(&r.kernel),
                Cell::new(&r.configuration),
                cycles_cell(r.old.as_ref()),
                cycles_cell(r.new.as_ref()),
                Cell::new(r.change_pct.map_or(String::new(), |c| format!("{c:+.2}%")))
                    .set_alignment(CellAlignment::Right),
                Cell::new(r.verdict.word()),
                Cell::new(r.notes.join("; ")),
            ]);
        }
        let mut out = format!("{t}\n");
        for r in &self.rows {
            for (reason, n) in &r.not_simulated {
                out.push_str(&format!(
                    "{} at {}: {n} launch(es) not simulated: {reason}\n",
                    r.kernel, r.configuration
                ));
            }
        }
        out
    }

    /// One line: passed or failed, and how many configurations got each verdict.
    pub fn summary(&self) -> String {
        let counts: Vec<String> = [
            (Verdict::Slower, "slower"),
            (Verdict::Vanished, "vanished"),
            (Verdict::NotSimulated, "no longer simulated"),
            (Verdict::Same, "same"),
            (Verdict::WithinTolerance, "within tolerance"),
            (Verdict::Faster, "faster (run --update to record)"),
            (Verdict::New, "new (run --update to record)"),
            (Verdict::Uncovered, "not simulated in either"),
        ]
        .iter()
        .filter_map(|(v, word)| {
            let n = self.count(v);
            (n > 0).then(|| format!("{n} {word}"))
        })
        .collect();
        let counts = if counts.is_empty() {
            "nothing to compare".to_string()
        } else {
            counts.join(", ")
        };
        let failed = self.rows.iter().filter(|r| r.verdict.fails()).count();
        let n = self.rows.len();
        let configurations = if n == 1 {
            "configuration"
        } else {
            "configurations"
        };
        let tolerance = self.tolerance_pct;
        if failed > 0 {
            format!("FAILED ({failed} of {n} {configurations}): {counts}; tolerance {tolerance}%")
        } else {
            format!("passed ({n} {configurations}): {counts}; tolerance {tolerance}%")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Estimate, Launch};

    fn estimate(cycles: u64, bound: &str) -> Outcome {
        Outcome::Simulated(std::sync::Arc::new(Estimate {
            cycles,
            micros: cycles as f64 / 700.0,
            latency_cycles: cycles / 2,
            queue_cycles: 0,
            issue_wait_cycles: 0,
            l2_wait_cycles: 0,
            icache_cycles: 0,
            l2_resident: false,
            launch_cycles: 0,
            divergence_cycles: 0,
            bound: bound.to_string(),
            dram_bytes: None,
            note: None,
            work_groups_per_sm: 8,
            occupancy_limiter: "work-groups".to_string(),
            work_groups: 4,
            warps: 16,
            l1_sharers: None,
            sampled: Vec::new(),
        }))
    }

    fn not_simulated(reason: &str) -> Outcome {
        Outcome::NotSimulated {
            reason: reason.to_string(),
        }
    }

    /// A run of `launches`: (kernel, global, local, outcome), one dimension each.
    fn report(launches: Vec<(&str, u64, u64, Outcome)>) -> Report {
        let mut r = Report::new("gtx480", 700.0);
        for (index, (kernel, global, local, outcome)) in launches.into_iter().enumerate() {
            r.launches.push(Launch {
                index,
                kernel: kernel.into(),
                work_dim: 1,
                global: [global, 1, 1],
                local: [local, 1, 1],
                local_chosen: false,
                offset: [0; 3],
                outcome,
                profile: None,
                first_in_context: index == 0,
                event_micros: None,
            });
        }
        r
    }

    fn baseline_of(launches: Vec<(&str, u64, u64, Outcome)>) -> Baseline {
        Baseline::from_observed("gtx480", None, &observe(&report(launches)))
    }

    fn row<'a>(c: &'a Comparison, kernel: &str, configuration: &str) -> &'a Row {
        c.rows
            .iter()
            .find(|r| r.kernel == kernel && r.configuration == configuration)
            .unwrap_or_else(|| panic!("no row {kernel} {configuration}: {c:#?}"))
    }

    #[test]
    fn launches_group_by_kernel_and_configuration() {
        let observed = observe(&report(vec![
            ("add", 1024, 128, estimate(500, "latency")),
            ("add", 64, 32, estimate(300, "latency")),
            ("add", 1024, 128, estimate(500, "latency")),
            ("sum", 1024, 128, estimate(10, "latency")),
            ("sum", 1024, 128, estimate(21, "ALU")),
            ("sum", 1024, 128, estimate(20, "ALU")),
            ("bad", 8, 8, not_simulated("no luck")),
            ("bad", 8, 8, not_simulated("no luck")),
        ]));
        let names: Vec<(&str, &str)> = observed
            .iter()
            .map(|o| (&*o.kernel, o.configuration.as_str()))
            .collect();
        // Kernels by name, configurations by their numbers: 64 before 1024.
        assert_eq!(
            names,
            [
                ("add", "64 / 32"),
                ("add", "1024 / 128"),
                ("bad", "8 / 8"),
                ("sum", "1024 / 128")
            ]
        );
        let add = observed[1].simulated.as_ref().unwrap();
        assert_eq!((add.launches, add.cycles), (2, 500));
        assert_eq!((add.min_cycles, add.max_cycles), (None, None));
        assert_eq!(add.bound, "latency");
        // 10, 21, 20: mean 17, kept with the range and both bounds.
        let sum = observed[3].simulated.as_ref().unwrap();
        assert_eq!((sum.launches, sum.cycles), (3, 17));
        assert_eq!((sum.min_cycles, sum.max_cycles), (Some(10), Some(21)));
        assert_eq!(sum.bound, "ALU, latency");
        assert_eq!(observed[2].simulated, None);
        assert_eq!(observed[2].not_simulated, [("no luck".to_string(), 2)]);
    }

    #[test]
    fn a_baseline_records_simulated_configurations_and_reads_back_the_same() {
        let b = baseline_of(vec![
            ("sum", 1024, 128, estimate(10, "latency")),
            ("sum", 1024, 128, estimate(20, "ALU")),
            ("add", 100, 10, estimate(7, "latency")),
            ("bad", 8, 8, not_simulated("no luck")),
        ]);
        assert_eq!(b.schema, BASELINE_SCHEMA);
        assert_eq!(b.entries.len(), 2);
        assert_eq!(b.entries[0].kernel, "add");
        let text = b.to_json();
        assert!(text.ends_with("}\n"), "{text}");
        // Equal launches carry no range.
        assert_eq!(text.matches("min_cycles").count(), 1, "{text}");
        assert_eq!(Baseline::parse(&text, Path::new("b.json")).unwrap(), b);
    }

    #[test]
    fn the_same_run_passes() {
        let launches = || {
            vec![
                ("add", 1024, 128, estimate(500, "latency")),
                ("sum", 64, 64, estimate(90, "ALU")),
            ]
        };
        let c = compare(&baseline_of(launches()), &observe(&report(launches())), 0.0);
        assert!(!c.fails());
        assert_eq!(c.rows.len(), 2);
        assert!(c.rows.iter().all(|r| r.verdict == Verdict::Same));
        assert_eq!(row(&c, "add", "1024 / 128").change_pct, Some(0.0));
        assert!(c.summary().starts_with("passed (2 configurations): 2 same"));
    }

    #[test]
    fn slower_fails_beyond_the_tolerance_and_faster_is_reported() {
        let b = baseline_of(vec![
            ("add", 1024, 128, estimate(1000, "latency")),
            ("sum", 64, 64, estimate(1000, "ALU")),
        ]);
        let run = observe(&report(vec![
            ("add", 1024, 128, estimate(1100, "latency")),
            ("sum", 64, 64, estimate(900, "ALU")),
        ]));
        let strict = compare(&b, &run, 0.0);
        assert!(strict.fails());
        let add = row(&strict, "add", "1024 / 128");
        assert_eq!(add.verdict, Verdict::Slower);
        assert!((add.change_pct.unwrap() - 10.0).abs() < 1e-9);
        assert_eq!(row(&strict, "sum", "64 / 64").verdict, Verdict::Faster);
        assert!(
            strict
                .summary()
                .starts_with("FAILED (1 of 2 configurations): 1 slower"),
            "{}",
            strict.summary()
        );
        assert!(strict.table().contains("+10.00%"), "{}", strict.table());
        assert!(strict.table().contains("-10.00%"), "{}", strict.table());
        // Exactly the tolerance is within it; a hair less is not.
        let ten = compare(&b, &run, 10.0);
        assert!(!ten.fails());
        assert!(ten
            .rows
            .iter()
            .all(|r| r.verdict == Verdict::WithinTolerance));
        assert!(compare(&b, &run, 9.99).fails());
        assert_eq!(
            judge(1000, 1001, 0.0),
            Verdict::Slower,
            "any increase counts with no tolerance"
        );
    }

    #[test]
    fn vanished_fails_and_new_passes() {
        let b = baseline_of(vec![
            ("add", 1024, 128, estimate(500, "latency")),
            ("gone", 64, 64, estimate(90, "ALU")),
        ]);
        let c = compare(
            &b,
            &observe(&report(vec![
                ("add", 1024, 128, estimate(500, "latency")),
                ("add", 2048, 128, estimate(700, "latency")),
            ])),
            0.0,
        );
        assert_eq!(row(&c, "gone", "64 / 64").verdict, Verdict::Vanished);
        assert_eq!(row(&c, "add", "2048 / 128").verdict, Verdict::New);
        assert!(c.fails());
        let only_new = compare(
            &baseline_of(vec![("add", 1024, 128, estimate(500, "latency"))]),
            &observe(&report(vec![
                ("add", 1024, 128, estimate(500, "latency")),
                ("more", 8, 8, estimate(5, "latency")),
            ])),
            0.0,
        );
        assert!(!only_new.fails());
        assert!(
            only_new.summary().contains("1 new"),
            "{}",
            only_new.summary()
        );
    }

    #[test]
    fn launches_no_longer_simulated_fail_with_their_reason() {
        let b = baseline_of(vec![
            ("add", 1024, 128, estimate(500, "latency")),
            ("add", 1024, 128, estimate(500, "latency")),
        ]);
        // One of the two launches lost: the cycles agree, the coverage does not.
        let c = compare(
            &b,
            &observe(&report(vec![
                ("add", 1024, 128, estimate(500, "latency")),
                ("add", 1024, 128, not_simulated("annotation failed")),
                ("other", 8, 8, not_simulated("never was")),
            ])),
            0.0,
        );
        let add = row(&c, "add", "1024 / 128");
        assert_eq!(add.verdict, Verdict::NotSimulated);
        assert_eq!(add.notes, ["1 launch(es) not simulated", "launches 2 -> 1"]);
        assert_eq!(add.not_simulated, [("annotation failed".to_string(), 1)]);
        // Not in the baseline and not simulated: reported, not failed.
        let other = row(&c, "other", "8 / 8");
        assert_eq!(other.verdict, Verdict::Uncovered);
        assert!(!other.verdict.fails());
        assert!(c.fails());
        assert!(
            c.table()
                .contains("add at 1024 / 128: 1 launch(es) not simulated: annotation failed\n"),
            "{}",
            c.table()
        );
    }

    #[test]
    fn a_changed_bound_is_noted() {
        let c = compare(
            &baseline_of(vec![("add", 1024, 128, estimate(500, "latency"))]),
            &observe(&report(vec![("add", 1024, 128, estimate(500, "MEM"))])),
            0.0,
        );
        assert_eq!(c.rows[0].verdict, Verdict::Same);
        assert_eq!(c.rows[0].notes, ["bound latency -> MEM"]);
    }

    #[test]
    fn bad_baselines_are_named_with_the_cause() {
        let path = Path::new("ci/perf.json");
        let err = |text: &str| Baseline::parse(text, path).unwrap_err().to_string();
        let e = err("{\n  \"schema\": \"srcsim.baseline/1\",\n  \"arch\": \n}");
        assert!(e.starts_with("ci/perf.json: not an srcsim baseline"), "{e}");
        assert!(e.contains("line 4"), "{e}");
        let e = err(r#"{"schema": "srcsim.report/1", "arch": "gtx480", "launches": []}"#);
        assert!(e.contains("schema is \"srcsim.report/1\""), "{e}");
        let e = err(r#"{"arch": "gtx480", "entries": []}"#);
        assert!(e.contains("no \"schema\""), "{e}");
        let entry = r#"{"kernel": "k", "configuration": "8 / 8", "launches": 1, "cycles": 5, "bound": "latency"}"#;
        let e = err(&format!(
            r#"{{"schema": "srcsim.baseline/1", "arch": "gtx480", "entries": [{entry}, {entry}]}}"#
        ));
        assert!(e.contains("entry 1 (k at 8 / 8) appears twice"), "{e}");
        let e = err(
            r#"{"schema": "srcsim.baseline/1", "arch": "gtx480", "entries": [{"kernel": "k", "configuration": "8 / 8", "launches": 1, "cycles": 5, "min_cycles": 6, "max_cycles": 9, "bound": "latency"}]}"#,
        );
        assert!(e.contains("not within min_cycles 6"), "{e}");
        let e = err(
            r#"{"schema": "srcsim.baseline/1", "arch": "gtx480", "entries": [{"kernel": "k", "configuration": "8 / 8", "launches": 1, "cycle": 5, "bound": "latency"}]}"#,
        );
        assert!(e.contains("unknown field `cycle`"), "{e}");
    }
}
