//! `srcsim check` as CI runs it, on the example host programs (examples/hosts): a baseline
//! recorded with --update passes on the same program, with the same cycles as the shim's
//! own report; a baseline edited to be faster, to hold a kernel more or one less, or to be
//! malformed gives the documented verdict and exit code.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use srcsim_report::Report;

/// A built example host.
fn example(program: &str) -> PathBuf {
    common::examples().join(program)
}

fn srcsim(args: &[&str], program: &[&str], env: &[(&str, &str)]) -> Output {
    let (host, rest) = program.split_first().unwrap();
    Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .args(args)
        .arg("--")
        .arg(if host.contains('/') {
            PathBuf::from(host)
        } else {
            example(host)
        })
        .args(rest)
        .env_remove("SRCSIM_ARCH")
        .env_remove("SRCSIM_LOG")
        .env_remove("SRCSIM_REPORT")
        .envs(env.iter().copied())
        .output()
        .expect("srcsim runs")
}

fn check(baseline: &Path, extra: &[&str], program: &str) -> Output {
    let mut args = vec!["check", "--baseline", baseline.to_str().unwrap()];
    args.extend_from_slice(extra);
    srcsim(&args, &[program], &[])
}

fn text(o: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The table row of `kernel` at `configuration` in check's output.
fn row<'a>(o: &'a str, kernel: &str, configuration: &str) -> &'a str {
    o.lines()
        .find(|l| l.contains(&format!(" {kernel} ")) && l.contains(&format!(" {configuration} ")))
        .unwrap_or_else(|| panic!("no row for {kernel} at {configuration}:\n{o}"))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn write_json(path: &Path, v: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(v).unwrap()).unwrap();
}

/// A fresh directory and a baseline of `program` recorded in it.
fn recorded(program: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("perf.json");
    let o = check(&baseline, &["--update"], program);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    (dir, baseline)
}

fn entries(baseline: &Value) -> &Vec<Value> {
    baseline["entries"].as_array().unwrap()
}

/// The entry of `kernel` at `configuration`.
fn entry_mut<'a>(baseline: &'a mut Value, kernel: &str, configuration: &str) -> &'a mut Value {
    baseline["entries"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["kernel"] == kernel && e["configuration"] == configuration)
        .unwrap_or_else(|| panic!("no entry {kernel} at {configuration}"))
}

#[test]
fn a_recorded_baseline_passes_and_holds_the_reports_cycles_each_run_the_same() {
    // scan: two kernels, three configurations, one launch each.
    let (dir, first) = recorded("scan");
    let second = dir.path().join("again.json");
    let o = check(&second, &["--update"], "scan");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // Deterministic: two runs record the very same file.
    assert_eq!(
        std::fs::read_to_string(&first).unwrap(),
        std::fs::read_to_string(&second).unwrap()
    );
    // The baseline holds what the shim's own report says, configuration by configuration.
    let report_path = dir.path().join("report.json");
    let o = srcsim(
        &["run", "--report", report_path.to_str().unwrap()],
        &["scan"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let report = Report::read(&report_path).unwrap();
    let baseline = read_json(&first);
    assert_eq!(baseline["schema"], "srcsim.baseline/2");
    assert_eq!(baseline["arch"], "gtx480");
    // The model that made it, as the report names it.
    let model = report.model.clone().expect("the report names its model");
    assert!(model.starts_with("srcsim "), "{model}");
    assert!(model.contains(", gtx480 "), "{model}");
    assert_eq!(baseline["model"], model.as_str());
    assert_eq!(entries(&baseline).len(), report.launches.len());
    for l in &report.launches {
        let cycles = l.estimate().expect("scan is simulated").cycles;
        let e = entries(&baseline)
            .iter()
            .find(|e| e["kernel"] == *l.kernel && e["configuration"] == l.configuration())
            .unwrap_or_else(|| panic!("{} at {} not recorded", l.kernel, l.configuration()));
        assert_eq!(e["cycles"], cycles, "{e}");
        assert_eq!(e["launches"], 1, "{e}");
        assert!(e.get("min_cycles").is_none(), "{e}");
    }

    let o = check(&first, &[], "scan");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("scan: OK"),
        "the host's own output goes through: {out}"
    );
    assert!(
        !out.contains("estimated kernel times"),
        "the shim's exit table is left out: {out}"
    );
    assert!(
        out.contains("srcsim check: passed (3 configurations): 3 same; tolerance 0%"),
        "{out}"
    );
    for e in entries(&baseline) {
        let r = row(
            &out,
            e["kernel"].as_str().unwrap(),
            e["configuration"].as_str().unwrap(),
        );
        assert!(r.contains(" same "), "{r}");
        assert!(r.contains(&format!(" {} ", e["cycles"])), "{r}");
    }
    assert!(!out.contains("note:"), "the same model: {out}");

    // A baseline of another model (or of version 1, which named none) still compares, and
    // the check says that the differences may be the simulator's.
    let mut other = baseline.clone();
    other["model"] = "srcsim 0.0.1 (model 1, annotation 1), gtx480 0123456789abcdef".into();
    let older = dir.path().join("older.json");
    write_json(&older, &other);
    let o = check(&older, &[], "scan");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains(&format!(
            "note: the baseline was made by srcsim 0.0.1 (model 1, annotation 1), gtx480 0123456789abcdef, this run by {model}"
        )),
        "{out}"
    );
    let mut v1 = baseline.clone();
    v1["schema"] = "srcsim.baseline/1".into();
    v1.as_object_mut().unwrap().remove("model");
    write_json(&older, &v1);
    let o = check(&older, &[], "scan");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("note: the baseline was made by an srcsim that did not record its model"),
        "{out}"
    );
}

#[test]
fn repeated_launches_are_recorded_once_with_their_count() {
    // kmeans launches one kernel in one configuration five times.
    let (_dir, baseline) = recorded("kmeans");
    let b = read_json(&baseline);
    assert_eq!(entries(&b).len(), 1, "{b}");
    let e = &entries(&b)[0];
    assert_eq!(
        (&e["kernel"], &e["configuration"], &e["launches"]),
        (
            &Value::from("kmeans_assign"),
            &Value::from("8192 / 128"),
            &Value::from(5)
        )
    );
    let o = check(&baseline, &[], "kmeans");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn a_kernel_slower_than_its_baseline_fails_unless_the_tolerance_allows_it() {
    let (_dir, baseline) = recorded("scan");
    let mut b = read_json(&baseline);
    let e = entry_mut(&mut b, "scan_blocks", "30080 / 128");
    let real = e["cycles"].as_u64().unwrap();
    // The baseline says the kernel was 10% faster than it is.
    let faster = real * 9 / 10;
    e["cycles"] = faster.into();
    write_json(&baseline, &b);
    let change = (real as f64 - faster as f64) * 100.0 / faster as f64;
    assert!(change > 10.0 && change < 15.0, "{change}");

    let page = baseline.with_extension("html");
    let o = check(&baseline, &["--html", page.to_str().unwrap()], "scan");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // The page leads with the comparison, the slower configuration first and marked.
    let page = std::fs::read_to_string(&page).unwrap();
    let marked = format!(
        "<tr class=\"fails\"><td>scan_blocks</td><td>30080 / 128</td><td>SLOWER</td>\
         <td class=\"n\" data-sort=\"{faster}\">{faster}</td>\
         <td class=\"n\" data-sort=\"{real}\">{real}</td>"
    );
    assert!(page.contains(&marked), "{marked}\n{page}");
    assert!(page.contains("FAILED (1 of 3 configurations): 1 slower, 2 same"));
    assert_eq!(page.matches("<tr class=\"fails\">").count(), 1);
    let r = row(&out, "scan_blocks", "30080 / 128");
    assert!(r.contains("SLOWER"), "{r}");
    assert!(
        r.contains(&format!(" {faster} ")) && r.contains(&format!(" {real} ")),
        "{r}"
    );
    assert!(r.contains(&format!("+{change:.2}%")), "{r}");
    assert!(
        row(&out, "scan_blocks", "128 / 128").contains(" same "),
        "{out}"
    );
    assert!(
        out.contains("FAILED (1 of 3 configurations): 1 slower, 2 same"),
        "{out}"
    );

    let o = check(&baseline, &["--tolerance", "15"], "scan");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        row(&out, "scan_blocks", "30080 / 128").contains("within tolerance"),
        "{out}"
    );
    assert!(out.contains("tolerance 15%"), "{out}");
}

#[test]
fn a_kernel_in_the_baseline_but_not_in_the_run_fails_as_vanished() {
    let (_dir, baseline) = recorded("vector_add");
    let mut b = read_json(&baseline);
    let mut extra = entries(&b)[0].clone();
    extra["kernel"] = "retired_kernel".into();
    b["entries"].as_array_mut().unwrap().push(extra);
    write_json(&baseline, &b);
    let o = check(&baseline, &[], "vector_add");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let configuration = entries(&b)[0]["configuration"].as_str().unwrap();
    assert!(
        row(&out, "retired_kernel", configuration).contains("VANISHED"),
        "{out}"
    );
    assert!(out.contains("1 vanished"), "{out}");
}

#[test]
fn a_kernel_missing_from_the_baseline_is_reported_as_new_and_passes() {
    let (_dir, baseline) = recorded("scan");
    let mut b = read_json(&baseline);
    b["entries"]
        .as_array_mut()
        .unwrap()
        .retain(|e| e["kernel"] != "add_offsets");
    write_json(&baseline, &b);
    let o = check(&baseline, &[], "scan");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        row(&out, "add_offsets", "60160 / 256").contains(" new "),
        "{out}"
    );
    assert!(
        out.contains("passed (3 configurations): 2 same, 1 new (run --update to record)"),
        "{out}"
    );
}

#[test]
fn a_kernel_no_longer_simulated_fails_and_one_never_simulated_is_only_reported() {
    // unsupported's kernel cannot be annotated (it returns inside a macro expansion):
    // nothing to record, and it says why.
    let (_dir, baseline) = recorded("unsupported");
    assert!(entries(&read_json(&baseline)).is_empty());
    let o = check(&baseline, &[], "unsupported");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        row(&out, "guarded_scale", "5056 / 64").contains("not simulated"),
        "{out}"
    );
    assert!(
        out.contains("returns inside a macro expansion"),
        "the reason: {out}"
    );
    // A baseline that had it simulated has lost coverage.
    let mut b = read_json(&baseline);
    b["entries"] = serde_json::json!([{
        "kernel": "guarded_scale", "configuration": "5056 / 64", "launches": 1,
        "cycles": 1000, "bound": "latency"
    }]);
    write_json(&baseline, &b);
    let o = check(&baseline, &[], "unsupported");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        row(&out, "guarded_scale", "5056 / 64").contains("NOT SIMULATED"),
        "{out}"
    );
}

#[test]
fn a_malformed_baseline_is_an_error_naming_the_file_before_the_program_runs() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("perf.json");
    std::fs::write(
        &baseline,
        "{\n  \"schema\": \"srcsim.baseline/1\",\n  \"arch\": \"gtx480\",\n  \"entries\": [,]\n}\n",
    )
    .unwrap();
    let o = check(&baseline, &[], "vector_add");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains(&format!("{}: not an srcsim baseline", baseline.display())),
        "{out}"
    );
    assert!(out.contains("line 4"), "{out}");
    assert!(!out.contains("vector_add: OK"), "the program ran: {out}");
    // A report is not a baseline either; a missing file says how to make one.
    write_json(
        &baseline,
        &serde_json::json!({"schema": "srcsim.report/1", "arch": "gtx480", "launches": []}),
    );
    let o = check(&baseline, &[], "vector_add");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("expected \"srcsim.baseline/2\""),
        "{}",
        text(&o)
    );
    let o = check(&dir.path().join("none.json"), &[], "vector_add");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--update"), "{}", text(&o));
}

#[test]
fn a_baseline_of_another_architecture_is_an_error_unless_updating() {
    let (_dir, baseline) = recorded("vector_add");
    let o = check(&baseline, &["--arch", "ampere_a100"], "vector_add");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("the baseline is for gtx480"), "{out}");
    let o = check(
        &baseline,
        &["--arch", "ampere_a100", "--update"],
        "vector_add",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(read_json(&baseline)["arch"], "ampere_a100");
}

#[test]
fn a_failing_host_is_an_error_and_records_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("perf.json");
    // gpu_by_type exits 3 when there is no GPU and the shim is told not to substitute.
    let o = srcsim(
        &[
            "check",
            "--update",
            "--baseline",
            baseline.to_str().unwrap(),
        ],
        &["gpu_by_type"],
        &[("SRCSIM_KEEP_DEVICE_TYPE", "1")],
    );
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("gpu_by_type exited with code 3"), "{out}");
    assert!(!baseline.exists(), "a baseline from a failed run");
    // Killed by a signal: said so.
    let (_dir, baseline) = recorded("vector_add");
    let o = srcsim(
        &["check", "--baseline", baseline.to_str().unwrap()],
        &["/bin/sh", "-c", "kill -SEGV $$"],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("killed by signal 11"), "{}", text(&o));
}

#[test]
fn launches_of_one_configuration_that_differ_keep_their_mean_and_range() {
    // threads: 32 launches of one configuration whose cycles differ with the data.
    let (dir, baseline) = recorded("threads");
    let report_path = dir.path().join("report.json");
    let o = srcsim(
        &["run", "--report", report_path.to_str().unwrap()],
        &["threads"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let cycles: Vec<u64> = Report::read(&report_path)
        .unwrap()
        .launches
        .iter()
        .map(|l| l.estimate().expect("simulated").cycles)
        .collect();
    let (min, max) = (*cycles.iter().min().unwrap(), *cycles.iter().max().unwrap());
    assert!(min < max, "the launches no longer differ: {cycles:?}");
    let mean = (cycles.iter().sum::<u64>() as f64 / cycles.len() as f64).round() as u64;
    let b = read_json(&baseline);
    assert_eq!(entries(&b).len(), 1, "{b}");
    let e = &entries(&b)[0];
    assert_eq!(e["launches"], 32, "{e}");
    assert_eq!(
        (&e["cycles"], &e["min_cycles"], &e["max_cycles"]),
        (&Value::from(mean), &Value::from(min), &Value::from(max)),
        "{e}"
    );
    let o = check(&baseline, &[], "threads");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("passed (1 configuration): 1 same"), "{out}");
}
