//! Reviewed snapshots of every example host's estimates (tests/snapshots/reports/): the
//! table `srcsim report` prints of each program's run on each shipped architecture, so
//! that any change in what a run estimates shows up as a diff to review (issue 33's
//! "behaviour unchanged", checked on every test run). `SRCSIM_BLESS=1 cargo test -p
//! srcsim-cli --test report_snapshots` rewrites them.

mod common;

use common::{examples, root};

use std::process::Command;

const ARCHS: &[&str] = &["gtx480", "ampere_a100", "hopper_h100"];

/// Hosts whose launches are not the same from run to run: threads launching at once
/// (their order, and so which launch repeats which, is the scheduler's).
const SKIPPED: &[&str] = &["threads"];

/// `text` with each `$TMP/cache/<key>/` written `$TMP/cache/KEY/`.
fn without_cache_keys(text: &str) -> String {
    const AT: &str = "$TMP/cache/";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(AT) {
        out.push_str(&rest[..i + AT.len()]);
        rest = &rest[i + AT.len()..];
        let key = rest.find('/').unwrap_or(0);
        if key > 0 && rest[..key].chars().all(|c| c.is_ascii_hexdigit()) {
            out.push_str("KEY");
            rest = &rest[key..];
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn every_examples_estimates_match_the_reviewed_snapshots() {
    let mut hosts: Vec<String> = std::fs::read_dir(examples())
        .expect("the example hosts")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| !SKIPPED.contains(&n.as_str()))
        .collect();
    hosts.sort();
    let tmp = tempfile::tempdir().unwrap();
    let checkout = root().canonicalize().unwrap();
    let mut snapshots = snapshot::Snapshots::new("the example hosts' estimates");
    for host in &hosts {
        for arch in ARCHS {
            let report = tmp.path().join(format!("{host}.{arch}.json"));
            let run = Command::new(env!("CARGO_BIN_EXE_srcsim"))
                .args([
                    "run",
                    "--arch",
                    arch,
                    "--report",
                    report.to_str().unwrap(),
                    "--",
                ])
                .arg(examples().join(host))
                .env_remove("SRCSIM_ARCH")
                .env_remove("SRCSIM_REPORT")
                .env("SRCSIM_CACHE_DIR", tmp.path().join("cache"))
                .output()
                .expect("srcsim run");
            if !report.exists() {
                // A host that makes no OpenCL call, or fails before it does, has no report.
                continue;
            }
            let _ = run;
            let table = Command::new(env!("CARGO_BIN_EXE_srcsim"))
                .args(["report", report.to_str().unwrap()])
                .output()
                .expect("srcsim report");
            assert!(table.status.success(), "{host} on {arch}");
            let path = root()
                .join("tests/snapshots/reports")
                .join(format!("{host}.{arch}.txt"));
            // Where this run's cache and the checkout are, and the cache's keys (which
            // name the builds of the shim and clang), are no part of the estimate.
            let text = String::from_utf8(table.stdout)
                .unwrap()
                .replace(tmp.path().to_str().unwrap(), "$TMP")
                .replace(checkout.to_str().unwrap(), "$ROOT");
            snapshots.check(path, &without_cache_keys(&text));
        }
    }
    snapshots.assert_unchanged();
}
