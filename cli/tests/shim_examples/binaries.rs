//! Programs built from binaries (`from_binary`): a binary the application read back from
//! a program built from source is simulated as that source, in the same run and in a
//! later one that shares the cache; one srcsim never saw made, or whose kept source is
//! damaged, runs unannotated with the reason. The host computes the same throughout.

use super::*;

/// The cycles of every launch, all simulated.
fn cycles(program: &str, report: &Report) -> Vec<u64> {
    report
        .launches
        .iter()
        .map(|l| match &l.outcome {
            Outcome::Simulated(e) => e.cycles,
            // The cache's notes say what became of a kept binary's source (a fault
            // reading it, or one not kept): what a miss here needs to be told apart.
            Outcome::NotSimulated { reason } => panic!(
                "{program}: not simulated: {reason}\ncache notes: {:#?}",
                report.cache
            ),
        })
        .collect()
}

fn same_output(what: &str, got: &Output, plain: &Output) {
    assert_eq!(plain.status.code(), Some(0), "{what} fails on its own");
    assert_eq!(got.status.code(), plain.status.code(), "{what}: exit code");
    assert_eq!(
        String::from_utf8_lossy(&got.stdout),
        String::from_utf8_lossy(&plain.stdout),
        "{what}: output"
    );
}

/// The one launch of `report`, not simulated for a binary srcsim has no source of.
fn unseen(report: &Report) {
    assert_eq!(report.launches.len(), 1, "{report:#?}");
    match &report.launches[0].outcome {
        Outcome::NotSimulated { reason } => assert!(
            reason.contains("built from a binary srcsim did not see"),
            "{reason}"
        ),
        other => panic!("simulated without its source: {other:?}"),
    }
}

#[test]
fn a_program_from_a_binary_srcsim_saw_made_is_simulated_in_this_run_and_the_next() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("program.bin");
    let file = file.to_str().unwrap();
    let cache = tmp.path().join("cache");
    let env = [("SRCSIM_CACHE_DIR", cache.to_str().unwrap())];

    // One run: built from source, then from the binary it read back. The plain run saves
    // its binary apart: the runtime's binary of a program whose kernel it has launched
    // may hold that kernel's compiled code or not, by timing, so its bytes need not be
    // the ones this run read back (and overwriting them made the next step flaky).
    let (saved, report) = simulated_with("from_binary", &["save", file], &[], &env);
    let plain_file = tmp.path().join("plain.bin");
    same_output(
        "from_binary save",
        &saved,
        &plain_with("from_binary", &["save", plain_file.to_str().unwrap()]),
    );
    let made = cycles("from_binary save", &report);
    // The same kernel, geometry and (data-independent) paths: the same estimate.
    assert_eq!(made.len(), 2);
    assert_eq!(made[0], made[1], "{report:#?}");

    // A later run that only loads the binary finds its source in the cache.
    let plain_load = plain_with("from_binary", &["load", file]);
    let (loaded, report) = simulated_with("from_binary", &["load", file], &[], &env);
    same_output("from_binary load", &loaded, &plain_load);
    assert_eq!(cycles("from_binary load", &report), vec![made[0]]);

    // A cache that never saw the binary made: run as it is, and said why.
    let fresh = tmp.path().join("fresh");
    let (alone, report) = simulated_with(
        "from_binary",
        &["load", file],
        &[],
        &[("SRCSIM_CACHE_DIR", fresh.to_str().unwrap())],
    );
    same_output("from_binary load, fresh cache", &alone, &plain_load);
    unseen(&report);
}

#[test]
fn a_damaged_record_of_a_binarys_source_is_a_miss() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("program.bin");
    let file = file.to_str().unwrap();
    let cache = tmp.path().join("cache");
    let env = [("SRCSIM_CACHE_DIR", cache.to_str().unwrap())];
    let (_, report) = simulated_with("from_binary", &["save", file], &[], &env);
    cycles("from_binary save", &report);
    let kept: Vec<PathBuf> = std::fs::read_dir(cache.join("made-from"))
        .expect("the binary's source kept")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let plain_load = plain_with("from_binary", &["load", file]);
    for (how, said) in [
        ("truncated", "was truncated"),
        ("emptied", "was empty"),
        ("bit-flipped", "failed its checksum"),
    ] {
        let mut bytes = std::fs::read(&kept[0]).unwrap();
        let whole = bytes.clone();
        match how {
            "truncated" => bytes.truncate(bytes.len() / 2),
            "emptied" => bytes.clear(),
            _ => {
                let at = bytes.len() - bytes.len() / 3;
                bytes[at] ^= 0x10;
            }
        }
        std::fs::write(&kept[0], &bytes).unwrap();
        let (out, report) = simulated_with("from_binary", &["load", file], &[], &env);
        same_output(&format!("from_binary load, {how}"), &out, &plain_load);
        unseen(&report);
        assert!(
            report
                .cache
                .iter()
                .any(|n| n.contains(&format!("a kept binary's source {said}"))),
            "{how}: {:?}",
            report.cache
        );
        std::fs::write(&kept[0], whole).unwrap();
    }
}
