//! Every example annotates and compiles, the annotate command writes both files, and the
//! annotated examples match the reviewed snapshots.

use super::*;

#[test]
fn every_example_annotates_and_compiles_with_every_block_accounted_for() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "cl") {
            continue;
        }
        let a = annotate(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        compiles(
            &a,
            &format!("{}.timed.cl", p.file_stem().unwrap().to_string_lossy()),
        );
        for k in &a.sidecar.kernels {
            assert!(a.source.contains(&format!("__srcsim_exit_{}", k.name)));
            // The entry block is a timing point, or on the path to the first one.
            let blocks = &k.block_map.blocks;
            for b in blocks {
                let on_a_path = k
                    .paths
                    .paths
                    .iter()
                    .any(|p| p.blocks.contains(&b.ptx_block) || p.to == To::Block(b.ptx_block));
                assert!(
                    b.source.is_some() || on_a_path,
                    "{}: B{} is neither mapped nor on a path",
                    k.name,
                    b.ptx_block
                );
            }
        }
        n += 1;
    }
    assert!(n >= 9);
}

#[test]
fn the_annotate_command_writes_both_files_and_explains() {
    let dir = std::env::temp_dir().join(format!("srcsim-annotate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("divergence.timed.cl");
    let kernel = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels/divergence.cl");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_annotate"))
        .arg(&kernel)
        .arg("-o")
        .arg(&out)
        .arg("--explain")
        .env_remove("SRCSIM_ARCH")
        .output()
        .unwrap();
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

    let bad = temp(
        "bad_cli.cl",
        "__kernel void k(__global int *a) { a[0] = nope; }\n",
    );
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_annotate"))
        .arg(&bad)
        .arg("--explain")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("bad_cli.cl:1:43: error: use of undeclared identifier 'nope'"),
        "{err}"
    );
}

/// The repository's root, and the example kernels (examples/kernels/*.cl) in name order.
fn example_kernels() -> (PathBuf, Vec<PathBuf>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut names: Vec<PathBuf> = std::fs::read_dir(root.join("examples/kernels"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    names.sort();
    (root, names)
}

/// Reviewed snapshots of the annotated examples (tests/snapshots/annotate/): any change of
/// matching or code generation shows up as a diff to review.
/// `SRCSIM_BLESS=1 cargo test -p annotator --test annotate` rewrites them.
#[test]
fn annotated_examples_match_the_reviewed_snapshots() {
    let (root, names) = example_kernels();
    let mut snapshots = snapshot::Snapshots::new("annotated sources");
    for p in names {
        let a = annotate(&p).unwrap();
        let snap = root.join("tests/snapshots/annotate").join(format!(
            "{}.timed.cl",
            p.file_stem().unwrap().to_string_lossy()
        ));
        snapshots.check(&snap, &a.source);
    }
    snapshots.assert_unchanged();
}

/// Reviewed snapshots of what each example's sidecar says of its records
/// (`records`: the format, stride, fields, and where the profile's and the samples'
/// counters are), with and without the profile: the contract between the annotated code
/// and every reader of its records, so that a change of it shows up as a diff to review.
/// `SRCSIM_BLESS=1 cargo test -p annotator --test annotate` rewrites them.
#[test]
fn sidecar_records_match_the_reviewed_snapshots() {
    let (root, names) = example_kernels();
    let compiler = Compiler::locate().unwrap();
    let arch = Architecture::default_arch();
    let mut snapshots = snapshot::Snapshots::new("sidecars' records");
    for p in names {
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        for (profile, suffix) in [(false, "records"), (true, "profiled-records")] {
            let a = annotator::annotate::annotate_file_with(
                &compiler,
                &p,
                &BuildOptions::default(),
                &arch,
                annotator::annotate::AnnotateOptions { profile },
            )
            .unwrap();
            let json = serde_json::to_string_pretty(&a.sidecar.records).unwrap() + "\n";
            let snap = root
                .join("tests/snapshots/annotate")
                .join(format!("{stem}.{suffix}.json"));
            snapshots.check(&snap, &json);
        }
    }
    snapshots.assert_unchanged();
}

/// `annotate --version` names the annotation's revision, which decides what an annotated
/// file charges.
#[test]
fn the_annotate_version_names_the_annotation_revision() {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_annotate"))
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
