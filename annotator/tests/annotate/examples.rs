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
