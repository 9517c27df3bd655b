//! The report as one self-contained page (`.html`): the run, a timeline of its launches
//! coloured by what bound each, a sortable table per kernel and configuration, the
//! launches not simulated, and (with `--profile`) each kernel's source as a heat map of its
//! lines' cycles. CSS, JavaScript and SVG are inline and nothing is fetched, so the page
//! works offline and as a CI artifact. The markup is `maud`'s, which escapes every text it
//! is given (kernel names, reasons and source lines are the application's).

use std::collections::HashMap;

use maud::{html, Markup, PreEscaped, DOCTYPE};

use super::View;
use crate::baseline::{Comparison, Verdict};
use crate::sweep::{speedup, Parameter, PointResult};
use crate::{Estimate, KernelLines, Launch, Report};

/// The page, as a view (`.html` and `.htm` files).
pub struct HtmlView;

impl View for HtmlView {
    fn extensions(&self) -> &'static [&'static str] {
        &["html", "htm"]
    }

    fn render(&self, report: &Report) -> std::io::Result<String> {
        Ok(report.html())
    }
}

/// The timeline's width in pixels (its lanes' labels come before it).
const TIMELINE_WIDTH: f64 = 960.0;
/// Height of a kernel's lane.
const LANE_HEIGHT: f64 = 22.0;
/// Room for the kernels' names left of the lanes.
const LABEL_WIDTH: f64 = 180.0;

/// The colour of what bound a launch (`bound` of its estimate).
fn colour(bound: &str) -> &'static str {
    match bound {
        "latency" => "#4e79a7",
        "issue" => "#f28e2b",
        "ALU" | "FP32" | "INT" | "FP64" => "#e15759",
        "SFU" => "#76b7b2",
        "MEM" => "#59a14f",
        "DRAM" => "#edc948",
        "L2" => "#b07aa1",
        "MSHR" => "#ff9da7",
        "fill" => "#d37295",
        "fetch" => "#9c755f",
        "launch" => "#bab0ac",
        _ => "#7f7f7f",
    }
}

/// Consecutive launches of one kernel, configuration and bound: one bar of the timeline
/// (a run of thousands of like launches stays one bar).
struct Segment<'a> {
    first: &'a Launch,
    estimate: Option<&'a Estimate>,
    launches: usize,
    start_micros: f64,
    micros: f64,
}

/// A row of the kernels' table: a kernel in one configuration.
#[derive(Default)]
struct KernelRow {
    launches: usize,
    cycles: u64,
    micros: f64,
    latency: u64,
    queue: u64,
    launch: u64,
    divergence: u64,
    bound: String,
    occupancy: String,
}

impl Report {
    /// The report as one self-contained HTML page.
    pub fn html(&self) -> String {
        self.page(None)
    }

    /// The page of a `srcsim check` run: the report, led by its comparison with the
    /// baseline (slower and faster configurations marked).
    pub fn html_compared(&self, comparison: &Comparison) -> String {
        self.page(Some(comparison))
    }

    fn page(&self, comparison: Option<&Comparison>) -> String {
        let simulated = self.launches.iter().filter(|l| l.estimate().is_some());
        let total_micros: f64 = simulated
            .clone()
            .fold(0.0, |m, l| m + l.estimate().map_or(0.0, |e| e.micros));
        let page = html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    title { "srcsim report: " (self.arch) }
                    style { (PreEscaped(STYLE)) }
                }
                body {
                    h1 { "srcsim: estimated kernel times on " (self.arch) }
                    section id="run" {
                        dl {
                            @if !self.command.is_empty() {
                                dt { "program" } dd { code { (self.command.join(" ")) } }
                            }
                            dt { "architecture" }
                            dd {
                                (self.arch) " (" (self.clock_mhz) " MHz"
                                @if let Some(sms) = self.sm_count { ", " (sms) " SMs" }
                                ")"
                            }
                            @if let Some(model) = &self.model {
                                dt { "model" } dd { code { (model) } }
                            }
                            dt { "launches" }
                            dd { (self.launches.len()) " (" (simulated.count()) " simulated)" }
                            dt { "estimated time" } dd { (format!("{total_micros:.2}")) " µs" }
                        }
                    }
                    @if let Some(c) = comparison {
                        (compared(c))
                    }
                    (self.timeline())
                    (self.kernels_table())
                    (self.not_simulated())
                    @for k in self.line_profiles() {
                        (source_heat_map(&k))
                    }
                    script { (PreEscaped(SCRIPT)) }
                }
            }
        };
        page.into_string()
    }

    /// The launches in order on one lane per kernel, each bar as long as its estimate.
    fn timeline(&self) -> Markup {
        let mut segments: Vec<Segment<'_>> = Vec::new();
        let mut now = 0.0;
        for l in &self.launches {
            let e = l.estimate();
            let micros = e.map_or(0.0, |e| e.micros);
            let like = |s: &Segment<'_>| {
                s.first.kernel == l.kernel
                    && s.first.configuration() == l.configuration()
                    && s.estimate.map(|e| &e.bound) == e.map(|e| &e.bound)
            };
            match segments.last_mut() {
                Some(s) if like(s) => {
                    s.launches += 1;
                    s.micros += micros;
                }
                _ => segments.push(Segment {
                    first: l,
                    estimate: e,
                    launches: 1,
                    start_micros: now,
                    micros,
                }),
            }
            now += micros;
        }
        let mut kernels: Vec<&str> = Vec::new();
        for l in &self.launches {
            if !kernels.contains(&&*l.kernel) {
                kernels.push(&l.kernel);
            }
        }
        let scale = if now > 0.0 { TIMELINE_WIDTH / now } else { 0.0 };
        let height = LANE_HEIGHT * kernels.len().max(1) as f64 + 24.0;
        let mut bounds: Vec<&str> = segments
            .iter()
            .filter_map(|s| s.estimate.map(|e| e.bound.as_str()))
            .collect();
        bounds.sort_unstable();
        bounds.dedup();
        html! {
            section id="timeline" {
                h2 { "Timeline" }
                p class="note" {
                    "Launches in the order the program enqueued them, each as long as its estimate; "
                    "like launches in a row are one bar. Hover a bar for its launch."
                }
                svg width=(LABEL_WIDTH + TIMELINE_WIDTH + 10.0) height=(height) role="img" {
                    @for (lane, k) in kernels.iter().enumerate() {
                        text x="4" y=(LANE_HEIGHT * lane as f64 + 15.0) class="lane" { (k) }
                    }
                    @for s in &segments {
                        @let lane = kernels.iter().position(|k| **k == *s.first.kernel).unwrap_or(0);
                        @let x = LABEL_WIDTH + s.start_micros * scale;
                        @let w = (s.micros * scale).max(1.0);
                        rect class="launch" x=(format!("{x:.2}")) y=(LANE_HEIGHT * lane as f64 + 3.0)
                            width=(format!("{w:.2}")) height=(LANE_HEIGHT - 6.0)
                            fill=(s.estimate.map_or("#d0d0d0", |e| colour(&e.bound)))
                            data-kernel=(s.first.kernel) data-launches=(s.launches) {
                            title { (segment_title(s)) }
                        }
                    }
                    text x=(LABEL_WIDTH) y=(height - 4.0) class="axis" { "0 µs" }
                    text x=(LABEL_WIDTH + TIMELINE_WIDTH) y=(height - 4.0) class="axis" text-anchor="end" {
                        (format!("{now:.2} µs"))
                    }
                }
                p class="legend" {
                    @for b in &bounds {
                        span { i style=(format!("background:{}", colour(b))) {} (b) }
                    }
                    @if segments.iter().any(|s| s.estimate.is_none()) {
                        span { i style="background:#d0d0d0" {} "not simulated" }
                    }
                }
            }
        }
    }

    /// Per kernel and configuration: launches, cycles, time, the bound and occupancy of the
    /// last launch, and the terms per launch; sortable by any column.
    fn kernels_table(&self) -> Markup {
        let mut order: Vec<(String, String)> = Vec::new();
        let mut rows: HashMap<(String, String), KernelRow> = HashMap::new();
        for l in &self.launches {
            let Some(e) = l.estimate() else { continue };
            let key = (l.kernel.to_string(), l.configuration());
            let row = rows.entry(key.clone()).or_insert_with(|| {
                order.push(key);
                KernelRow::default()
            });
            row.launches += 1;
            row.cycles += e.cycles;
            row.micros += e.micros;
            row.latency += e.latency_cycles;
            row.queue += e.queue_cycles;
            row.launch += e.launch_cycles;
            row.divergence += e.divergence_cycles;
            row.bound.clone_from(&e.bound);
            row.occupancy = format!("{}/SM ({})", e.work_groups_per_sm, e.occupancy_limiter);
        }
        let per = |total: u64, n: usize| total / n.max(1) as u64;
        html! {
            section id="kernels" {
                h2 { "Kernels" }
                p class="note" { "Per launch: the mean of the configuration's launches. Click a heading to sort." }
                table class="sortable" {
                    thead { tr {
                        th { "kernel" } th { "global / local" } th { "launches" }
                        th { "cycles / launch" } th { "µs total" } th { "bound" } th { "occupancy" }
                        th { "latency / launch" } th { "queue / launch" } th { "launch cost" }
                        th { "divergence / launch" }
                    } }
                    tbody {
                        @for key in &order {
                            @let r = &rows[key];
                            tr {
                                td { (key.0) } td { (key.1) }
                                td class="n" data-sort=(r.launches) { (r.launches) }
                                td class="n" data-sort=(per(r.cycles, r.launches)) { (per(r.cycles, r.launches)) }
                                td class="n" data-sort=(r.micros) { (format!("{:.2}", r.micros)) }
                                td { i class="swatch" style=(format!("background:{}", colour(&r.bound))) {} (r.bound) }
                                td { (r.occupancy) }
                                td class="n" data-sort=(per(r.latency, r.launches)) { (per(r.latency, r.launches)) }
                                td class="n" data-sort=(per(r.queue, r.launches)) { (per(r.queue, r.launches)) }
                                td class="n" data-sort=(per(r.launch, r.launches)) { (per(r.launch, r.launches)) }
                                td class="n" data-sort=(per(r.divergence, r.launches)) { (per(r.divergence, r.launches)) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The launches that ran unannotated, by kernel and reason.
    fn not_simulated(&self) -> Markup {
        let unsimulated = self.unsimulated();
        html! {
            @if !unsimulated.is_empty() {
                section id="not-simulated" {
                    h2 { "Not simulated" }
                    ul {
                        @for (kernel, reason, n) in &unsimulated {
                            li { b { (kernel) } ": " (n) " launch(es): " (reason) }
                        }
                    }
                }
            }
        }
    }
}

/// The run against the baseline: a row per configuration with its verdict, slower ones
/// first.
fn compared(c: &Comparison) -> Markup {
    let class = |v: &Verdict| match v {
        v if v.fails() => "fails",
        Verdict::Faster => "faster",
        _ => "",
    };
    let mut rows: Vec<_> = c.rows.iter().collect();
    rows.sort_by_key(|r| !r.verdict.fails());
    html! {
        section id="baseline" {
            h2 { "Against the baseline" }
            p class=(if c.fails() { "verdict fails" } else { "verdict" }) { (c.summary()) }
            table class="sortable" {
                thead { tr {
                    th { "kernel" } th { "global / local" } th { "verdict" }
                    th { "baseline cycles / launch" } th { "cycles / launch" } th { "change %" }
                    th { "notes" }
                } }
                tbody {
                    @for r in &rows {
                        tr class=(class(&r.verdict)) {
                            td { (r.kernel) } td { (r.configuration) } td { (r.verdict.word()) }
                            @let old = r.old.as_ref().map(|e| e.cycles);
                            @let new = r.new.as_ref().map(|e| e.cycles);
                            td class="n" data-sort=[old] { (old.map_or(String::new(), |c| c.to_string())) }
                            td class="n" data-sort=[new] { (new.map_or(String::new(), |c| c.to_string())) }
                            td class="n" data-sort=[r.change_pct] {
                                (r.change_pct.map_or(String::new(), |p| format!("{p:+.1}")))
                            }
                            td { (r.notes.join("; ")) }
                        }
                    }
                }
            }
        }
    }
}

/// The page of a sweep (`srcsim sweep --html`): its plot where it draws one (the SVG of
/// [`crate::plot`], inline) and every point's values, time, speed-up over the base and
/// bound, sortable.
pub fn sweep_page(
    title: &str,
    parameters: &[Parameter],
    points: &[PointResult],
    plot: Option<&str>,
) -> String {
    let base = points.first().map_or(0.0, |b| b.total().micros);
    // Inline SVG needs no namespace; without it the page names no address at all.
    let plot = plot.map(|svg| svg.replace(" xmlns=\"http://www.w3.org/2000/svg\"", ""));
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { "srcsim sweep: " (title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { "srcsim sweep: " (title) }
                @if let Some(svg) = &plot {
                    section id="plot" { (PreEscaped(svg)) }
                }
                section id="points" {
                    h2 { "Points" }
                    p class="note" { "Point 0 is the base architecture. Click a heading to sort." }
                    table class="sortable" {
                        thead { tr {
                            th { "point" }
                            @for p in parameters { th { (p.key) } }
                            th { "cycles" } th { "µs total" } th { "speed-up" } th { "bound" } th { "run" }
                        } }
                        tbody {
                            @for p in points {
                                @let total = p.total();
                                tr {
                                    td class="n" data-sort=(p.index) {
                                        @if p.index == 0 { "base" } @else { (p.index) }
                                    }
                                    @for v in &p.values { td class="n" data-sort=(v) { (v) } }
                                    td class="n" data-sort=(total.cycles) { (total.cycles) }
                                    td class="n" data-sort=(total.micros) { (format!("{:.2}", total.micros)) }
                                    @let up = speedup(base, total.micros);
                                    td class="n" data-sort=(up) { (format!("{up:.2}x")) }
                                    td { (total.bound) }
                                    td class="n" data-sort=(p.run) { (p.run) }
                                }
                            }
                        }
                    }
                }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    page.into_string()
}

/// A timeline bar's tooltip: the launch (or run of like launches) and its estimate.
fn segment_title(s: &Segment<'_>) -> String {
    let l = s.first;
    let launches = if s.launches > 1 {
        format!("{} launches from #{}", s.launches, l.index)
    } else {
        format!("launch #{}", l.index)
    };
    match s.estimate {
        Some(e) => format!(
            "{}: {launches}, {}\n{} cycles ({:.2} µs) each, bound: {}\noccupancy {}/SM ({}), {} work-groups",
            l.kernel,
            l.configuration(),
            e.cycles,
            e.micros,
            e.bound,
            e.work_groups_per_sm,
            e.occupancy_limiter,
            e.work_groups
        ),
        None => format!("{}: {launches}, {}: not simulated", l.kernel, l.configuration()),
    }
}

/// A kernel's source lines with their cycles and executions, each line shaded by its
/// cycles against the hottest, and its ten hottest lines listed first.
fn source_heat_map(k: &KernelLines) -> Markup {
    let hottest = k.lines.iter().map(|l| l.cycles).max().unwrap_or(0).max(1) as f64;
    let mut top: Vec<_> = k.lines.iter().filter(|l| l.cycles > 0).collect();
    top.sort_by(|a, b| b.cycles.cmp(&a.cycles).then(a.line.cmp(&b.line)));
    top.truncate(10);
    let mut lines: Vec<_> = k.lines.iter().collect();
    lines.sort_by_key(|l| l.line);
    html! {
        section class="source" data-kernel=(k.kernel) {
            h2 { "Source of " code { (k.kernel) } }
            p class="note" {
                (k.launches) " profiled launch(es), " (k.cycles) " cycles of all work-items, "
                (k.instructions) " PTX instructions executed."
            }
            h3 { "Hottest lines" }
            ol { @for l in &top { li { "line " (l.line) ": " (l.cycles) " cycles (" (format!("{:.1}", l.share)) "%)" } } }
            table class="heat" {
                thead { tr { th { "line" } th { "executions" } th { "cycles" } th { "%" } th { "source" } } }
                tbody {
                    @for l in &lines {
                        tr data-line=(l.line) data-cycles=(l.cycles)
                            style=(format!("background:rgba(225,87,89,{:.3})", l.cycles as f64 / hottest * 0.85)) {
                            td class="n" { (l.line) }
                            td class="n" { (l.executions) }
                            td class="n" { (l.cycles) }
                            td class="n" { (format!("{:.1}", l.share)) }
                            td class="code" { (l.source) }
                        }
                    }
                }
            }
        }
    }
}

const STYLE: &str = "
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dt { color: #666; } dd { margin: 0; }
table { border-collapse: collapse; }
th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; text-align: left; }
th { cursor: pointer; background: #f4f4f4; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.code { font-family: ui-monospace, monospace; white-space: pre; }
.note { color: #666; }
.legend span { margin-right: 1em; }
.legend i, i.swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em;
  vertical-align: middle; }
svg text.lane { font-size: 12px; } svg text.axis { font-size: 11px; fill: #666; }
rect.launch:hover { stroke: #000; }
tr.fails { background: #f8d0d0; } tr.faster { background: #d4efd4; }
p.verdict { font-weight: 600; } p.verdict.fails { color: #b00020; }
";

/// Sorts a `table.sortable` by the column whose heading is clicked (numbers by their
/// `data-sort`, text as text), the other way on a second click.
const SCRIPT: &str = "
for (const table of document.querySelectorAll('table.sortable')) {
  table.querySelectorAll('th').forEach((th, col) => {
    let up = true;
    th.addEventListener('click', () => {
      const body = table.tBodies[0];
      const key = (tr) => {
        const td = tr.cells[col];
        const n = parseFloat(td.dataset.sort);
        return isNaN(n) ? td.textContent : n;
      };
      const rows = Array.from(body.rows).sort((a, b) => {
        const x = key(a), y = key(b);
        return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1);
      });
      up = !up;
      rows.forEach((r) => body.appendChild(r));
    });
  });
}
";
