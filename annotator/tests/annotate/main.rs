//! The annotator end to end (without running kernels: tests/tests/annotated_kernels/
//! runs them): every example annotates and the annotated file compiles; unusual but
//! valid OpenCL C too; the constructs it cannot handle are errors that name the line.

use std::path::{Path, PathBuf};

use annotator::annotate::{annotate_file, Annotation};
use annotator::front::compile::{BuildOptions, Compiler};
use annotator::mapping::paths::To;
use pipeline_model::Architecture;

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("srcsim-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn annotate(path: &Path) -> Result<Annotation, String> {
    let compiler = Compiler::locate().unwrap();
    annotate_file(
        &compiler,
        path,
        &BuildOptions::default(),
        &Architecture::default_arch(),
    )
    .map_err(|e| e.to_string())
}

/// The annotated text is valid OpenCL C (the e2e tests build and run it on PoCL).
fn compiles(a: &Annotation, name: &str) {
    let compiler = Compiler::locate().unwrap();
    let p = temp(name, &a.source);
    if let Err(e) = compiler.check_syntax(&p, &BuildOptions::default()) {
        panic!("annotated {name} does not compile: {e}\n{}", a.source);
    }
}

mod copies_and_groups;
mod examples;
mod records;
mod refusals;
mod valid_sources;
