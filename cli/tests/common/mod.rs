//! What the shim's integration tests share: the repository root and the example host
//! programs of examples/hosts, built once per test binary.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The directory of the built example hosts (`make` is idempotent, and cargo runs one
/// test binary at a time, so the binaries share it).
pub fn examples() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = root().join("target/test-examples");
        let status = Command::new("make")
            .arg("-s")
            .arg("-C")
            .arg(root().join("examples/hosts"))
            .arg(format!("OUT={}", out.display()))
            .status()
            .expect("make");
        assert!(status.success(), "building examples/hosts failed");
        out
    })
}
