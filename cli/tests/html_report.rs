//! The HTML report in a real browser (issue 34): `srcsim run --profile --report run.html`
//! writes one page, the same `srcsim report --html` makes of the run's JSON; headless
//! Chromium (Debian's `chromium`, installed by scripts/install-deps) renders it, and its
//! DOM holds the timeline, the kernels' table and the source's heat map, a line's cycles
//! equal to the JSON report's; it also takes a screenshot.

mod common;

use common::examples;

use std::path::Path;
use std::process::{Command, Output};

use srcsim_report::Report;

/// `srcsim` with `args`, run in `dir` with its own cache; it must succeed.
fn srcsim(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .current_dir(dir)
        .args(args)
        .env("SRCSIM_CACHE_DIR", dir.join("cache"))
        .output()
        .expect("srcsim");
    assert!(
        out.status.success(),
        "srcsim {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Headless Chromium on `page` with `args` (as root it needs no sandbox, and a profile
/// directory of its own).
fn chromium(dir: &Path, page: &Path, args: &[&str]) -> Output {
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.join("chromium").display()
        ))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium (scripts/install-deps installs it)");
    assert!(
        out.status.success(),
        "chromium: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn chromium_renders_the_page_with_the_reports_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let host = examples().join("matmul");
    let host = host.to_str().unwrap();
    srcsim(
        dir,
        &["run", "--profile", "--report", "run.json", "--", host],
    );
    srcsim(
        dir,
        &["run", "--profile", "--report", "run.html", "--", host],
    );
    let page = std::fs::read_to_string(dir.join("run.html")).unwrap();
    let from_json = srcsim(dir, &["report", "--html", "run.json"]);
    assert_eq!(String::from_utf8(from_json.stdout).unwrap(), page);
    assert!(!page.contains("http://") && !page.contains("https://"));

    let report = Report::read(&dir.join("run.json")).unwrap();
    let kernel = &report.line_profiles()[0];
    assert_eq!(kernel.kernel, "matmul_tiled");
    let hottest = kernel.lines.iter().max_by_key(|l| l.cycles).unwrap();

    let dom = chromium(dir, &dir.join("run.html"), &["--dump-dom"]);
    let dom = String::from_utf8(dom.stdout).unwrap();
    assert_eq!(report.command, [host]);
    assert_eq!(report.sm_count, Some(15), "gtx480's SMs");
    for part in [
        host,
        "gtx480 (700 MHz, 15 SMs)",
        "id=\"timeline\"",
        "<rect class=\"launch\"",
        "id=\"kernels\"",
        "<td>matmul_tiled</td>",
        "class=\"source\" data-kernel=\"matmul_tiled\"",
    ] {
        assert!(dom.contains(part), "{part} missing from the DOM:\n{dom}");
    }
    let row = format!(
        "data-line=\"{}\" data-cycles=\"{}\"",
        hottest.line, hottest.cycles
    );
    assert!(dom.contains(&row), "{row} missing from the DOM");
    assert_eq!(dom.matches("data-line=").count(), kernel.lines.len());

    let shot = dir.join("page.png");
    chromium(
        dir,
        &dir.join("run.html"),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1280,1400",
        ],
    );
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000);
}
