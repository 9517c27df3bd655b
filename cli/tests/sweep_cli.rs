//! `srcsim sweep` on the example hosts: every point is what `srcsim run --arch` with the
//! point's architecture file gives; a sweep of the SM count never gets slower with more
//! SMs; a two-parameter sweep of a memory-bound and of a compute-bound program moves the
//! way each is bound; fields that change the annotation take runs of their own.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pipeline_model::Architecture;
use srcsim_report::Report;

fn srcsim(args: &[&str], program: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .args(args)
        .arg("--")
        .arg(common::examples().join(program))
        .env_remove("SRCSIM_ARCH")
        .env_remove("SRCSIM_LOG")
        .env_remove("SRCSIM_REPORT")
        .env_remove("SRCSIM_SWEEP")
        .output()
        .expect("srcsim runs")
}

fn text(o: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// One row of the sweep's CSV, by column name.
type Row = BTreeMap<String, String>;

fn rows(csv: &Path) -> Vec<Row> {
    let mut r = csv::Reader::from_path(csv).unwrap();
    let header = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            header
                .iter()
                .zip(rec.unwrap().iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The program-wide rows of the grid's points (not the base, point 0), in point order.
fn totals(rows: &[Row]) -> Vec<&Row> {
    rows.iter()
        .filter(|r| r["kernel"] == "total" && r["point"] != "0")
        .collect()
}

fn sweep(dir: &Path, name: &str, sets: &[&str], program: &str) -> Vec<Row> {
    sweep_on("hopper_h100", dir, name, sets, program)
}

/// [`sweep`] on the architecture `arch` (a name or a file).
fn sweep_on(arch: &str, dir: &Path, name: &str, sets: &[&str], program: &str) -> Vec<Row> {
    let csv = dir.join(format!("{name}.csv"));
    let svg = dir.join(format!("{name}.svg"));
    let html = dir.join(format!("{name}.html"));
    let mut args = vec!["sweep", "--arch", arch];
    for s in sets {
        if s.starts_with("--") {
            args.push(s);
        } else {
            args.extend(["--set", s]);
        }
    }
    args.extend([
        "--report",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    let o = srcsim(&args, program);
    assert!(o.status.success(), "{}", text(&o));
    rows(&csv)
}

fn cycles(report: &Report) -> Vec<Option<u64>> {
    report
        .launches
        .iter()
        .map(|l| l.estimate().map(|e| e.cycles))
        .collect()
}

#[test]
fn an_sm_sweep_is_every_single_run_and_never_slower_with_more_sms() {
    let dir = tempfile::tempdir().unwrap();
    let rows = sweep(
        dir.path(),
        "sm",
        &["sm_count=1..132", "--point-reports"],
        "matmul",
    );
    let totals = totals(&rows);
    assert_eq!(totals.len(), 132);
    for (i, row) in totals.iter().enumerate() {
        let sms = i as u32 + 1;
        assert_eq!(row["sm_count"], sms.to_string());
        assert_eq!(row["run"], "1", "SM counts are the model's alone: one run");
        // The point's file is the base with that count, and `srcsim run` on it gives the
        // sweep's estimate of every launch.
        let arch_file = PathBuf::from(&row["arch"]);
        let arch = Architecture::load(arch_file.to_str().unwrap()).unwrap();
        let mut expected = Architecture::load("hopper_h100").unwrap();
        expected.sm_count = sms;
        assert_eq!(
            Architecture {
                description: expected.description.clone(),
                ..arch.clone()
            },
            expected
        );
        let single = dir.path().join("single.json");
        let o = srcsim(
            &[
                "run",
                "--arch",
                arch_file.to_str().unwrap(),
                "--report",
                single.to_str().unwrap(),
            ],
            "matmul",
        );
        assert!(o.status.success(), "{}", text(&o));
        let single = Report::read(&single).unwrap();
        let point = Report::read(&arch_file.with_extension("json")).unwrap();
        assert_eq!(cycles(&single), cycles(&point), "{sms} SMs");
        assert_eq!(single.model, point.model, "{sms} SMs");
        let total: u64 = cycles(&single).into_iter().flatten().sum();
        assert_eq!(row["cycles"], total.to_string(), "{sms} SMs");
    }
    let cycles: Vec<u64> = totals
        .iter()
        .map(|r| r["cycles"].parse().unwrap())
        .collect();
    for (i, w) in cycles.windows(2).enumerate() {
        assert!(
            w[1] <= w[0],
            "{} SMs: {} > {} SMs: {}",
            i + 2,
            w[1],
            i + 1,
            w[0]
        );
    }
    // matmul's 100 work-groups: a single SM is far slower than 132.
    assert!(cycles[0] > 10 * cycles[131], "{cycles:?}");
    // The base point (the unmodified hopper_h100, 132 SMs) is the last point's estimate.
    let base = rows
        .iter()
        .find(|r| r["point"] == "0" && r["kernel"] == "total")
        .unwrap();
    assert_eq!(base["sm_count"], "132");
    assert_eq!(base["cycles"], cycles[131].to_string());
    assert_eq!(totals[131]["speedup"], "1.0000");
    let svg = std::fs::read_to_string(dir.path().join("sm.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("<polyline"),
        "{svg}"
    );
    // The page: the plot inline, a row per point (the base and 132) with its cycles.
    let page = std::fs::read_to_string(dir.path().join("sm.html")).unwrap();
    assert!(page.contains("<polyline") && !page.contains("http"));
    assert_eq!(page.matches("<tr><td class=\"n\" data-sort=").count(), 133);
    for (i, c) in cycles.iter().enumerate() {
        let row = format!(
            "<td class=\"n\" data-sort=\"{sms}\">{sms}</td><td class=\"n\" data-sort=\"{c}\">{c}</td>",
            sms = i + 1
        );
        assert!(page.contains(&row), "{row}");
    }
}

/// Per (first, second parameter value): the program's microseconds.
fn grid(rows: &[Row], a: &str, b: &str) -> BTreeMap<(u64, u64), f64> {
    totals(rows)
        .iter()
        .map(|r| {
            let v = |k: &str| r[k].parse::<f64>().unwrap() as u64;
            ((v(a), v(b)), r["micros"].parse().unwrap())
        })
        .collect()
}

/// How much faster the program gets along each axis: the geometric mean, over the other
/// parameter's values, of time at the axis's first value over time at its last.
fn gains(g: &BTreeMap<(u64, u64), f64>) -> (f64, f64) {
    let firsts: Vec<u64> = g.keys().map(|k| k.0).collect();
    let seconds: Vec<u64> = g.keys().map(|k| k.1).collect();
    let (a0, a1) = (*firsts.iter().min().unwrap(), *firsts.iter().max().unwrap());
    let (b0, b1) = (
        *seconds.iter().min().unwrap(),
        *seconds.iter().max().unwrap(),
    );
    let mean = |v: Vec<f64>| (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp();
    let along_a = mean(
        seconds
            .iter()
            .map(|b| g[&(a0, *b)] / g[&(a1, *b)])
            .collect(),
    );
    let along_b = mean(firsts.iter().map(|a| g[&(*a, b0)] / g[&(*a, b1)]).collect());
    (along_a, along_b)
}

#[test]
fn sm_by_bandwidth_heat_maps_follow_what_bounds_each_program() {
    let dir = tempfile::tempdir().unwrap();
    let (sms, dram) = ("sm_count", "memory.dram_gb_per_s");
    // vector_add streams three vectors and computes next to nothing: DRAM-bound at these
    // bandwidths where its 1.2 MB are not in the L2 (the H100's 50 MB would hold them:
    // here an H100 described without its L2's capacity), so time follows the bandwidth
    // and not the SMs.
    let mut h100 = pipeline_model::Architecture::load("hopper_h100").unwrap();
    h100.memory.l2_bytes = None;
    let arch = dir.path().join("h100_no_l2.toml");
    std::fs::write(&arch, h100.to_toml()).unwrap();
    let rows = sweep_on(
        arch.to_str().unwrap(),
        dir.path(),
        "memory",
        &[
            "sm_count=16,33,66,132",
            "memory.dram_gb_per_s=50,100,200,400,800",
        ],
        "vector_add",
    );
    let g = grid(&rows, sms, dram);
    assert_eq!(g.len(), 20);
    let (by_sms, by_bandwidth) = gains(&g);
    assert!(by_bandwidth > 5.0, "{g:?}");
    assert!((0.95..1.05).contains(&by_sms), "{by_sms} {g:?}");
    for ((s, b), t) in &g {
        if let Some(faster) = g.get(&(*s, b * 2)) {
            assert!(
                faster < t,
                "{s} SMs: {b} GB/s {t} µs, twice that {faster} µs"
            );
        }
    }
    let svg = std::fs::read_to_string(dir.path().join("memory.svg")).unwrap();
    assert_eq!(
        svg.matches("<rect x=").count(),
        20 + 11,
        "cells and scale: {svg}"
    );
    assert!(
        svg.contains("sm_count=16, memory.dram_gb_per_s=50:"),
        "{svg}"
    );

    // matmul reuses its tiles from shared memory: bound by its SMs' memory pipes and
    // latency, so time follows the SMs and not the DRAM bandwidth.
    let rows = sweep(
        dir.path(),
        "compute",
        &[
            "sm_count=1,2,4,8,16",
            "memory.dram_gb_per_s=400,800,1600,3200",
        ],
        "matmul",
    );
    let g = grid(&rows, sms, dram);
    let (by_sms, by_bandwidth) = gains(&g);
    assert!(by_sms > 5.0, "{g:?}");
    assert!((0.95..1.05).contains(&by_bandwidth), "{by_bandwidth} {g:?}");
    for ((s, b), t) in &g {
        if let Some(faster) = g.get(&(s * 2, *b)) {
            assert!(
                faster < t,
                "{b} GB/s: {s} SMs {t} µs, twice as many {faster} µs"
            );
        }
    }
}

#[test]
fn a_latency_sweep_takes_a_run_per_annotation_and_each_point_is_its_single_run() {
    let dir = tempfile::tempdir().unwrap();
    // 4 is hopper_h100's own: the base's run serves it; 12 changes every block time.
    let rows = sweep(dir.path(), "lat", &["ops.fp32_mad.latency=4,12"], "matmul");
    let t = totals(&rows);
    assert_eq!(
        t.iter().map(|r| r["run"].as_str()).collect::<Vec<_>>(),
        ["1", "2"]
    );
    let c = |r: &Row| r["cycles"].parse::<u64>().unwrap();
    assert!(c(t[1]) > c(t[0]), "slower multiply-adds: {rows:?}");
    for row in t {
        let single = dir.path().join("single.json");
        let o = srcsim(
            &[
                "run",
                "--arch",
                &row["arch"],
                "--report",
                single.to_str().unwrap(),
            ],
            "matmul",
        );
        assert!(o.status.success(), "{}", text(&o));
        let total: u64 = cycles(&Report::read(&single).unwrap())
            .into_iter()
            .flatten()
            .sum();
        assert_eq!(c(row), total);
    }
}

#[test]
fn unknown_keys_and_bad_values_are_refused_before_the_program_runs() {
    for (set, named) in [
        ("sm_cuont=1,2", "sm_cuont"),
        ("memory.dram_gb_per_s=0,100", "memory.dram_gb_per_s"),
        ("sm_count=4..1", "sm_count=4..1"),
    ] {
        let o = srcsim(
            &["sweep", "--arch", "hopper_h100", "--set", set],
            "vector_add",
        );
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{out}");
        assert!(out.contains(named), "{out}");
        assert!(!out.contains("vector_add: OK"), "the program ran: {out}");
    }
}

/// On a terminal, a sweep shows the points estimated as it goes (the base and two more,
/// from one run of the program); piped, as in CI, its stderr holds no trace of it. The
/// terminal is util-linux's `script`, which runs the sweep on a pseudo-terminal.
#[test]
fn a_sweep_shows_its_progress_on_a_terminal_only() {
    let piped = srcsim(
        &["sweep", "--arch", "hopper_h100", "--set", "sm_count=66,132"],
        "vector_add",
    );
    assert!(piped.status.success(), "{}", text(&piped));
    assert!(
        !String::from_utf8_lossy(&piped.stderr).contains("points,"),
        "{}",
        text(&piped)
    );
    let command = format!(
        "{} sweep --arch hopper_h100 --set sm_count=66,132 -- {}",
        env!("CARGO_BIN_EXE_srcsim"),
        common::examples().join("vector_add").display()
    );
    let Ok(on_tty) = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env_remove("SRCSIM_ARCH")
        .env_remove("SRCSIM_REPORT")
        .env("TERM", "xterm")
        .output()
    else {
        eprintln!("no `script` here: the terminal is not tried");
        return;
    };
    let seen = String::from_utf8_lossy(&on_tty.stdout);
    assert!(on_tty.status.success(), "{seen}");
    assert!(
        seen.contains("srcsim sweep: [") && seen.contains("3/3 points, run 1 of the program"),
        "{seen}"
    );
}
