//! What the validation tests share.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `python3` with `args`, run in the repository's root; its output, once it succeeded
/// (its standard error shown where it did not).
#[allow(dead_code)] // every test file compiles this module; not every one runs Python
pub fn python(args: &[&str]) -> Output {
    let out = Command::new("python3")
        .current_dir(root())
        .args(args)
        .output()
        .expect("python3 runs (scripts/install-deps installs it)");
    assert!(
        out.status.success(),
        "python3 {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The rows of a CSV file with a header, each as column name -> value.
pub fn rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}
