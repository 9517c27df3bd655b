//! The annotation cache: a second request is served from disk without compiling (it
//! works with a compiler that does not exist), and any change of source, options or
//! architecture, or asking for the profile, is a new entry.

use annotator::annotate::AnnotateOptions;
use annotator::cache::AnnotationCache;
use annotator::front::compile::{BuildOptions, Compiler};
use pipeline_model::Architecture;

const SOURCE: &str = "__kernel void scale(__global float *x, const float s)\n{\n    int i = get_global_id(0);\n#ifdef TWICE\n    x[i] *= s;\n#endif\n    x[i] *= s;\n}\n";

#[test]
fn a_second_request_is_served_from_disk() {
    let dir = std::env::temp_dir().join(format!("srcsim-cache-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = AnnotationCache::at(&dir);
    let compiler = Compiler::locate().unwrap();
    let gtx = Architecture::load("gtx480").unwrap();
    let plain = BuildOptions::default();

    let (first, hit) = cache
        .annotate_source(
            &compiler,
            "scale.cl",
            "the test's source",
            SOURCE,
            &plain,
            &gtx,
        )
        .unwrap();
    assert!(!hit);
    assert!(first.source.contains("__srcsim_records"));

    // Served from disk: no compiler needed.
    let nowhere = Compiler::with_paths("/nonexistent/clang", "/nonexistent/libclc.bc");
    let (second, hit) = cache
        .annotate_source(
            &nowhere,
            "scale.cl",
            "the test's source",
            SOURCE,
            &plain,
            &gtx,
        )
        .unwrap();
    assert!(hit);
    assert_eq!(second.source, first.source);
    assert_eq!(
        serde_json::to_value(&second.sidecar).unwrap(),
        serde_json::to_value(&first.sidecar).unwrap()
    );

    // A different source, option or architecture is another entry (which needs clang).
    let twice = BuildOptions::parse("-DTWICE");
    let h100 = Architecture::load("hopper_h100").unwrap();
    for (source, options, arch) in [
        (&format!("{SOURCE}\n"), &plain, &gtx),
        (&SOURCE.to_string(), &twice, &gtx),
        (&SOURCE.to_string(), &plain, &h100),
    ] {
        assert!(cache
            .annotate_source(
                &nowhere,
                "scale.cl",
                "the test's source",
                source,
                options,
                arch
            )
            .is_err());
        let (_, hit) = cache
            .annotate_source(
                &compiler,
                "scale.cl",
                "the test's source",
                source,
                options,
                arch,
            )
            .unwrap();
        assert!(!hit);
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 4);

    // The profile is another entry too, and then served from disk with its layout.
    let profile = AnnotateOptions { profile: true };
    assert!(cache
        .annotate_source_with(&nowhere, "scale.cl", "a test", SOURCE, &plain, &gtx, profile)
        .is_err());
    let (profiled, hit) = cache
        .annotate_source_with(
            &compiler, "scale.cl", "a test", SOURCE, &plain, &gtx, profile,
        )
        .unwrap();
    assert!(!hit);
    let layout = profiled.sidecar.records.profile.expect("a profile layout");
    assert_eq!(
        profiled.sidecar.records.stride,
        first.sidecar.records.stride + 3 * layout.blocks.len()
    );
    let (again, hit) = cache
        .annotate_source_with(
            &nowhere, "scale.cl", "a test", SOURCE, &plain, &gtx, profile,
        )
        .unwrap();
    assert!(hit);
    assert_eq!(again.sidecar.records.profile, Some(layout));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 5);

    // Diagnostics name the file as the program did.
    let err = cache
        .annotate_source(
            &compiler,
            "broken.cl",
            "the test's source",
            "__kernel void k() { nope; }\n",
            &plain,
            &gtx,
        )
        .unwrap_err()
        .to_string();
    // The kept copy is named for what it is, where it came from, and where it is kept.
    let kept = format!("broken.cl (the test's source, kept at {}", dir.display());
    assert!(err.contains(&kept), "{err}");
    assert!(err.contains("/broken.cl):1:21: error"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_source_that_cannot_be_annotated_is_not_compiled_again_but_a_missing_tool_is_retried() {
    let dir = std::env::temp_dir().join(format!("srcsim-cache-fail-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = AnnotationCache::at(&dir);
    let gtx = Architecture::load("gtx480").unwrap();
    let plain = BuildOptions::default();
    let broken = "__kernel void k(__global float *x)\n{\n    x[0] = undeclared;\n}\n";

    let nowhere = Compiler::with_paths("/nonexistent/clang", "/nonexistent/libclc.bc");
    let missing = cache
        .annotate_source(
            &nowhere,
            "broken.cl",
            "the test's source",
            broken,
            &plain,
            &gtx,
        )
        .unwrap_err()
        .to_string();
    assert!(!missing.contains("(cached)"), "{missing}");

    let compiler = Compiler::locate().unwrap();
    let first = cache
        .annotate_source(
            &compiler,
            "broken.cl",
            "the test's source",
            broken,
            &plain,
            &gtx,
        )
        .unwrap_err()
        .to_string();
    assert!(first.contains("undeclared"), "{first}");
    assert!(!first.contains("(cached)"));
    // Served from disk: the compiler's own message again, without a compiler.
    let second = cache
        .annotate_source(
            &nowhere,
            "broken.cl",
            "the test's source",
            broken,
            &plain,
            &gtx,
        )
        .unwrap_err()
        .to_string();
    assert_eq!(second, format!("{first} (cached)"));
}
