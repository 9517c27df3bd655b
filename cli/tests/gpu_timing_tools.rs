//! The tools that time the example programs on a real GPU (validation/examples): cltime.so
//! times every launch of an unmodified program without changing what it computes, and
//! compare.py joins those times with srcsim's report. Here on PoCL, where the times are
//! the CPU's: what is checked is the plumbing, against sums computed in the test.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{examples, root};

/// cltime.so, built from its source into the test's temporary directory.
fn cltime() -> PathBuf {
    let lib = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cltime.so");
    let status = Command::new("cc")
        .args([
            "-O2",
            "-DCL_USE_DEPRECATED_OPENCL_1_2_APIS",
            "-shared",
            "-fPIC",
            "-o",
        ])
        .arg(&lib)
        .arg(root().join("validation/examples/cltime.c"))
        .args(["-ldl", "-lpthread"])
        .status()
        .expect("cc runs");
    assert!(status.success(), "cltime.c does not build");
    lib
}

/// `scan` (three launches of two kernels) under cltime.so: its output and exit code are
/// the plain run's, and one line per launch in launch order names the kernel, its
/// dimensions, global and local sizes and a positive time; with `CLTIME_BINARIES` its one
/// program's binary (PoCL's here, the vendor's PTX on a GPU) and kernel names are written
/// there, the binary as the runtime gives it back. compare.py then joins those
/// lines with srcsim's report of the program: per program the launches, the measured
/// time (the lines' sum) and srcsim's (the report's microseconds summed).
#[test]
fn cltime_times_every_launch_and_compare_joins_them_with_the_report() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gpu-timing");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("reports")).unwrap();
    let times = dir.join("cltime.txt");
    let scan = examples().join("scan");
    let plain = Command::new(&scan).output().expect("scan runs");
    std::fs::write(&times, "== scan\n").unwrap();
    let binaries = dir.join("binaries");
    std::fs::create_dir_all(&binaries).unwrap();
    let timed = Command::new(&scan)
        .env("LD_PRELOAD", cltime())
        .env("CLTIME_OUT", &times)
        .env("CLTIME_BINARIES", &binaries)
        .output()
        .expect("scan runs under cltime.so");
    assert_eq!(timed.status.code(), plain.status.code());
    assert_eq!(timed.stdout, plain.stdout);
    let mut written: Vec<String> = std::fs::read_dir(&binaries)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(written, ["scan-0-0.bin", "scan-0.kernels"]);
    assert_eq!(
        std::fs::read_to_string(binaries.join("scan-0.kernels")).unwrap(),
        "scan_blocks;add_offsets\n"
    );
    assert!(
        std::fs::metadata(binaries.join("scan-0-0.bin"))
            .unwrap()
            .len()
            > 1000
    );
    let text = std::fs::read_to_string(&times).unwrap();
    let lines: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with("cltime "))
        .map(|l| l.split(' ').collect())
        .collect();
    let launches: Vec<[&str; 5]> = lines
        .iter()
        .map(|f| [f[1], f[2], f[3], f[4], f[5]])
        .collect();
    assert_eq!(
        launches,
        [
            ["0", "scan_blocks", "1", "30080,1,1", "128,1,1"],
            ["1", "scan_blocks", "1", "128,1,1", "128,1,1"],
            ["2", "add_offsets", "1", "60160,1,1", "256,1,1"],
        ],
        "{text}"
    );
    let measured: Vec<f64> = lines.iter().map(|f| f[6].parse().unwrap()).collect();
    assert!(measured.iter().all(|us| *us > 0.0), "{text}");

    let report = dir.join("reports/scan.json");
    let run = Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .args(["run", "--arch", "hopper_h100", "--report"])
        .arg(&report)
        .arg("--")
        .arg(&scan)
        .output()
        .expect("srcsim runs");
    assert!(run.status.success());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let estimated: f64 = json["launches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["micros"].as_f64().unwrap())
        .sum();

    let joined = dir.join("joined.csv");
    let compare = Command::new("python3")
        .arg(root().join("validation/examples/compare.py"))
        .arg(&times)
        .arg("--reports")
        .arg(dir.join("reports"))
        .arg("--out")
        .arg(&joined)
        .output()
        .expect("python3 runs");
    assert!(
        compare.status.success(),
        "{}",
        String::from_utf8_lossy(&compare.stderr)
    );
    let table = String::from_utf8_lossy(&compare.stdout);
    let row: Vec<&str> = table
        .lines()
        .find(|l| l.starts_with("| scan |"))
        .unwrap_or_else(|| panic!("{table}"))
        .split('|')
        .map(str::trim)
        .collect();
    // scan is in the check half by validation/halves.py's rule, for good: a program never
    // moves between halves.
    assert_eq!(row[2], "check", "{table}");
    assert_eq!(row[3], "3", "{table}");
    let close = |cell: &str, want: f64| {
        let got: f64 = cell.parse().unwrap();
        assert!((got - want).abs() <= 0.051, "{got} against {want}: {table}");
    };
    close(row[4], measured.iter().sum());
    close(row[5], estimated);
    // The CSV: a row per launch group, two of scan_blocks' sizes and one of add_offsets.
    let csv = std::fs::read_to_string(&joined).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert_eq!(
        rows.iter()
            .filter(|r| r.starts_with("scan,check,scan_blocks,"))
            .count(),
        2,
        "{csv}"
    );
    assert_eq!(
        rows.iter()
            .filter(|r| r.starts_with("scan,check,add_offsets,"))
            .count(),
        1,
        "{csv}"
    );
}
