//! `annotate` as a user runs it, installed on its own or as `srcsim annotate`: both files
//! written, the mapping explained, clang's errors passed on, the revision in `--version`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("srcsim-annotate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `annotate ARGS` and `srcsim annotate ARGS`, in that order.
fn both(args: &[&std::ffi::OsStr]) -> [Output; 2] {
    let run = |program: &str, first: &[&str]| {
        Command::new(program)
            .args(first)
            .args(args)
            .env_remove("SRCSIM_ARCH")
            .output()
            .unwrap()
    };
    [
        run(env!("CARGO_BIN_EXE_annotate"), &[]),
        run(env!("CARGO_BIN_EXE_srcsim"), &["annotate"]),
    ]
}

#[test]
fn the_annotate_command_writes_both_files_and_explains() {
    let dir = std::env::temp_dir().join(format!("srcsim-annotate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kernel = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels/divergence.cl");
    let mut written = Vec::new();
    for (i, program) in ["annotate", "srcsim-annotate"].iter().enumerate() {
        // The same name in a directory each, so that the two may be compared whole.
        std::fs::create_dir_all(dir.join(program)).unwrap();
        let out = dir.join(program).join("divergence.timed.cl");
        let run = &both(&[
            kernel.as_ref(),
            "-o".as_ref(),
            out.as_ref(),
            "--explain".as_ref(),
        ])[i];
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let explain = String::from_utf8_lossy(&run.stdout);
        assert!(
            explain.contains("kernel divergence: 4 PTX blocks, 4 mapped"),
            "{explain}"
        );
        assert!(std::fs::read_to_string(&out)
            .unwrap()
            .contains("__srcsim_records"));
        let sidecar: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.with_extension("json")).unwrap())
                .unwrap();
        assert_eq!(sidecar["kernels"][0]["name"], "divergence");
        written.push((
            run.stdout.clone(),
            std::fs::read(&out).unwrap(),
            std::fs::read(out.with_extension("json")).unwrap(),
        ));
    }
    // The same flags, the same output.
    assert!(written[0] == written[1]);

    let bad = temp(
        "bad_cli.cl",
        "__kernel void k(__global int *a) { a[0] = nope; }\n",
    );
    let runs = both(&[bad.as_ref(), "--explain".as_ref()]);
    for run in &runs {
        assert_eq!(run.status.code(), Some(1));
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(
            err.contains("bad_cli.cl:1:43: error: use of undeclared identifier 'nope'"),
            "{err}"
        );
    }
    assert_eq!(runs[0].stderr, runs[1].stderr);
}

/// `annotate --version` names the annotation's revision, which decides what an annotated
/// file charges.
#[test]
fn the_annotate_version_names_the_annotation_revision() {
    let run = Command::new(env!("CARGO_BIN_EXE_annotate"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(run.status.success());
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        format!(
            "annotate {} (annotation {})\n",
            env!("CARGO_PKG_VERSION"),
            annotator::cache::ANNOTATION_REVISION
        )
    );
}
