//! The CPU side of scripts/gpu-validate: `srcsim-validate predict --quick` on the shipped
//! suite gives every kernel a prediction and valid PTX for the H100, its predictions are
//! the ones committed in validation/predictions/hopper_h100 (so the GPU side measures
//! what the model says today), and the report's unit tests (Python) pass.

mod common;

use std::process::Command;

use common::{root, rows};

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
        let module = annotator::ptx::parse(&ptx).unwrap();
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
    let out = Command::new("python3")
        .current_dir(root())
        .args(["-m", "unittest", "-v", "scripts/test_gpu_validate.py"])
        .output()
        .expect("python3 runs (scripts/install-deps installs it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
