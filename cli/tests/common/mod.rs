//! What the shim's integration tests share: the repository root, the example host
//! programs of examples/hosts (built once per test binary) and the built `libsrcsim.so`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// `libsrcsim.so`: the newest of the one beside the `srcsim` program cargo built for
/// these tests and the one in `deps/`, where `cargo test` leaves it without copying it
/// beside the program (as `srcsim run` finds it). Not every test binary needs it.
#[allow(dead_code)]
pub fn library() -> PathBuf {
    let dir = Path::new(env!("CARGO_BIN_EXE_srcsim")).parent().unwrap();
    let modified = |p: &PathBuf| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    [dir.join("libsrcsim.so"), dir.join("deps/libsrcsim.so")]
        .into_iter()
        .filter_map(|p| Some((modified(&p)?, p)))
        .max()
        .map(|(_, p)| p)
        .expect("libsrcsim.so is built")
}

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
