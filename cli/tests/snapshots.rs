//! Reviewed snapshots of `srcsim analyze` on every example kernel (tests/snapshots/analyze/):
//! any change in compilation, parsing, classification or timing shows up as a diff to
//! review. `SRCSIM_BLESS=1 cargo test -p srcsim-cli --test snapshots` rewrites them.

use std::path::{Path, PathBuf};
use std::process::Command;

const ARCHS: &[&str] = &["gtx480", "hopper_h100"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn analyze(kernel: &str, arch: &str, extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .current_dir(root())
        .arg("analyze")
        .arg(kernel)
        .args(["--arch", arch])
        .args(extra)
        .env_remove("SRCSIM_ARCH")
        .output()
        .expect("srcsim runs");
    assert!(
        out.status.success(),
        "{kernel}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn analyze_output_matches_the_reviewed_snapshots() {
    let mut kernels: Vec<String> = std::fs::read_dir(root().join("examples/kernels"))
        .expect("examples")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cl"))
        .collect();
    kernels.sort();
    let mut snapshots = snapshot::Snapshots::new("`srcsim analyze` outputs");
    for k in &kernels {
        let stem = k.trim_end_matches(".cl");
        for arch in ARCHS {
            let out = analyze(
                &format!("examples/kernels/{k}"),
                arch,
                &["--timeline", "B0"],
            );
            let path = root()
                .join("tests/snapshots/analyze")
                .join(format!("{stem}.{arch}.txt"));
            snapshots.check(path, &out);
        }
    }
    snapshots.assert_unchanged();
}
