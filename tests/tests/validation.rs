//! The CPU side of scripts/gpu-validate: `srcsim-validate predict --quick` on the shipped
//! suite gives every kernel a prediction and valid PTX for the H100, its predictions are
//! the ones committed in validation/predictions/hopper_h100 (so the GPU side measures
//! what the model says today), and the report's unit tests (Python) pass.

mod common;

use std::process::Command;

use common::{python, root, rows};

#[test]
fn predict_quick_covers_the_suite_with_parsable_ptx() {
    let out = std::env::temp_dir().join(format!("srcsim-validate-{}", std::process::id()));
    let status = Command::new(env!("CARGO_BIN_EXE_srcsim-validate"))
        .current_dir(root())
        .args(["predict", "--quick", "--arch", "hopper_h100", "--out"])
        .arg(&out)
        .status()
        .expect("srcsim-validate runs");
    assert!(status.success());

    let suite: toml::Value =
        toml::from_str(&std::fs::read_to_string(root().join("validation/suite.toml")).unwrap())
            .unwrap();
    let kernels: Vec<&str> = suite["kernel"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    assert!(kernels.len() >= 7, "{kernels:?}");
    let predicted = rows(&out.join("predictions.csv"));
    let cases: Vec<&str> = predicted.iter().map(|r| r["case"].as_str()).collect();
    let expected: Vec<String> = kernels.iter().map(|k| format!("{k}#0")).collect();
    assert_eq!(cases, expected);

    for row in &predicted {
        let cycles: u64 = row["predicted_cycles"].parse().unwrap();
        let micros: f64 = row["predicted_us"].parse().unwrap();
        assert!(cycles > 0, "{row:?}");
        // At the H100's 1980 MHz.
        assert!((micros - cycles as f64 / 1980.0).abs() < 1e-3, "{row:?}");
        // The PTX the GPU loads: sm_90, parses, and has the kernel as an entry.
        let ptx = std::fs::read_to_string(out.join("ptx").join(&row["ptx"])).unwrap();
        assert!(ptx.contains(".target sm_90"), "{}", row["ptx"]);
        let module = annotator::front::ptx::parse(&ptx).unwrap();
        assert!(
            module.function(&row["kernel"]).is_some(),
            "{} has no kernel {}",
            row["ptx"],
            row["kernel"]
        );
    }

    // The committed predictions are today's: the same cycles for the same launches.
    let committed = rows(&root().join("validation/predictions/hopper_h100/predictions.csv"));
    for row in &predicted {
        let c = committed
            .iter()
            .find(|c| c["case"] == row["case"])
            .unwrap_or_else(|| panic!("{} is not in the committed predictions", row["case"]));
        for key in ["global", "local", "vars", "predicted_cycles", "bound"] {
            assert_eq!(
                c[key], row[key],
                "{} {key}: rerun scripts/gpu-validate predict and commit validation/predictions",
                row["case"]
            );
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn report_unit_tests_pass() {
    python(&["-m", "unittest", "-v", "scripts/test_gpu_validate.py"]);
}

/// What README.md and docs/validation.md state of srcsim's accuracy is what the committed
/// tables give (`scripts/accuracy --check`), so that no stated number goes stale.
#[test]
fn the_stated_accuracy_is_the_tables() {
    python(&["scripts/accuracy", "--check"]);
}

/// The H100 examples' table was made with `hopper_h100`'s OpenCL event terms as they are:
/// each group's event time is its kernel time plus `launch_us` per launch and
/// `first_launch_us` per first launch of a queue (three decimals, as written).
#[test]
fn the_h100_examples_table_has_the_architectures_event_terms() {
    let arch = pipeline_model::Architecture::load("hopper_h100").unwrap();
    let event = arch
        .opencl_event
        .expect("hopper_h100 gives OpenCL event terms");
    let dir = root().join("validation/examples");
    let mut tables: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .collect();
    tables.sort();
    let table = rows(tables.last().expect("a measured table"));
    assert!(table.len() > 100, "{} groups", table.len());
    let mut firsts = 0;
    for row in &table {
        let n: f64 = row["simulated"].parse().unwrap();
        let first: f64 = row["first_in_context"].parse().unwrap();
        let kernel: f64 = row["srcsim_us"].parse().unwrap();
        let events: f64 = row["srcsim_event_us"].parse().unwrap();
        let expected = kernel + n * event.launch_us + first * event.first_launch_us;
        assert!(
            (events - expected).abs() < 0.002 * (1.0 + n),
            "{} {}: {events} != {expected}",
            row["program"],
            row["kernel"]
        );
        firsts += first as usize;
    }
    // One queue in most programs: about one first launch a program.
    let programs: std::collections::BTreeSet<&str> =
        table.iter().map(|r| r["program"].as_str()).collect();
    let n = programs.len();
    assert!(n >= 30, "{n} programs");
    assert!(
        (n - 5..=n + 5).contains(&firsts),
        "{firsts} first launches in {n} programs"
    );
}
