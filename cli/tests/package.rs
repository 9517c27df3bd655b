//! The Debian package (issue 34): `scripts/package` packs the programs these tests were
//! built with; unpacked into a temporary root, its `srcsim` runs an example host from
//! `/`, outside the checkout, finding the `libsrcsim.so` installed beside it (`../lib`), with
//! no setting pointing into the build, and simulates every launch.

mod common;

use common::{examples, library, root};

use std::path::Path;
use std::process::Command;

use srcsim_report::{Outcome, Report};

/// `dpkg-deb` with `args`, its standard output.
fn dpkg_deb(args: &[&str]) -> String {
    let out = Command::new("dpkg-deb")
        .args(args)
        .output()
        .expect("dpkg-deb");
    assert!(
        out.status.success(),
        "dpkg-deb {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_package_runs_an_example_from_outside_the_checkout() {
    let built = Path::new(env!("CARGO_BIN_EXE_srcsim")).parent().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(root().join("scripts/package"))
        .args(["--from", built.to_str().unwrap()])
        .args(["--lib", library().to_str().unwrap()])
        .args(["--out", tmp.path().to_str().unwrap()])
        .output()
        .expect("scripts/package");
    assert!(
        out.status.success(),
        "scripts/package: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let deb = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert_eq!(
        Path::new(&deb).file_name().unwrap(),
        format!("srcsim_{}_amd64.deb", env!("CARGO_PKG_VERSION")).as_str()
    );

    // What it holds and what it needs.
    let files = dpkg_deb(&["--contents", &deb]);
    for f in [
        "./usr/bin/srcsim",
        "./usr/bin/annotate",
        "./usr/lib/libsrcsim.so",
        "./usr/share/srcsim/arch/gtx480.toml",
        "./usr/share/srcsim/arch/hopper_h100.toml",
        "./usr/share/doc/srcsim/README.md",
        "./usr/share/doc/srcsim/copyright",
    ] {
        assert!(
            files.lines().any(|l| l.ends_with(f)),
            "{f} missing:\n{files}"
        );
    }
    let depends = dpkg_deb(&["--field", &deb, "Depends"]);
    for d in ["pocl-opencl-icd", "clang-19", "libclang1-19", "libclc-19"] {
        assert!(depends.contains(d), "Depends lacks {d}: {depends}");
    }

    // Unpacked into a root of its own, run from a directory outside the checkout.
    let unpacked = tmp.path().join("root");
    dpkg_deb(&["--extract", &deb, unpacked.to_str().unwrap()]);
    let srcsim = unpacked.join("usr/bin/srcsim");
    let version = Command::new(&srcsim).arg("--version").output().unwrap();
    let version = String::from_utf8(version.stdout).unwrap();
    assert!(
        version.contains(&format!("model {}", pipeline_model::MODEL_REVISION))
            && version.contains(&format!(
                "annotation {}",
                annotator::cache::ANNOTATION_REVISION
            )),
        "{version}"
    );
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let report = work.join("run.json");
    let host = examples().join("vector_add");
    let run = Command::new(&srcsim)
        .current_dir("/")
        .args(["run", "--report", report.to_str().unwrap(), "--"])
        .arg(&host)
        .env_remove("SRCSIM_LIB")
        .env_remove("LIBCLANG_PATH")
        .env("SRCSIM_CACHE_DIR", work.join("cache"))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let plain = Command::new(&host).output().unwrap();
    assert_eq!(run.stdout, plain.stdout, "the host's output is its own");
    let report = Report::read(&report).unwrap();
    assert!(!report.launches.is_empty());
    for l in &report.launches {
        assert!(
            matches!(l.outcome, Outcome::Simulated(_)),
            "{} not simulated: {:?}",
            l.kernel,
            l.outcome
        );
    }
}

/// `srcsim` installed alone (as `cargo install --path cli` leaves it) says where to put
/// the library it could not find, and runs nothing.
#[test]
fn srcsim_without_its_library_says_where_to_put_it() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let srcsim = bin.join("srcsim");
    std::fs::copy(env!("CARGO_BIN_EXE_srcsim"), &srcsim).unwrap();
    let marker = tmp.path().join("ran");
    let out = Command::new(&srcsim)
        .args(["run", "--", "touch"])
        .arg(&marker)
        .env_remove("SRCSIM_LIB")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("libsrcsim.so not found"), "{err}");
    assert!(
        err.contains(&format!(
            "put target/release/libsrcsim.so in {}",
            bin.join("../lib").display()
        )),
        "{err}"
    );
    assert!(
        !marker.exists(),
        "the program must not run without the shim"
    );
}
