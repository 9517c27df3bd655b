//! `srcsim run --profile` and `srcsim report --lines`: the line profile, and reports of
//! schema 1 and 2.

use super::*;

/// `srcsim run --profile` on matmul (n = 160, TILE = 16, 160x160 work-items): per source
/// line, executions are what the loops' trip counts give; the estimates are those of a run
/// without the profile; `srcsim report --lines` renders the saved profile.
#[test]
fn the_line_profile_counts_what_the_loops_execute() {
    let (plain_out, plain_report) = simulated("matmul", &[], &[]);
    let (out, report) = simulated("matmul", &["--profile"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, plain_out.stdout);
    assert_all_simulated("matmul", &report, 1);
    assert_eq!(
        report.launches[0].estimate(),
        plain_report.launches[0].estimate(),
        "the profile changed the estimate"
    );
    assert!(plain_report.launches[0].profile.is_none());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line profile of matmul_tiled"), "{stderr}");

    let (n, tile) = (160u64, 16u64);
    let items = n * n;
    let profile = report.launches[0].profile.as_ref().expect("a profile");
    let source_lines = &report.programs[profile.program].source_lines;
    let line_of = |text: &str| -> u32 {
        *source_lines
            .iter()
            .find(|(_, t)| t.contains(text))
            .unwrap_or_else(|| panic!("no line `{text}` in {source_lines:?}"))
            .0
    };
    let lines = report.line_profiles();
    assert_eq!(lines.len(), 1);
    let k = &lines[0];
    let executions = |text: &str| {
        let line = line_of(text);
        k.lines
            .iter()
            .find(|l| l.line == line)
            .unwrap_or_else(|| panic!("line {line} not profiled"))
            .executions
    };
    let tiles = n / tile;
    assert_eq!(executions("float acc = 0.0f"), items);
    assert_eq!(executions("As[ty][tx] = A["), items * tiles);
    assert_eq!(
        executions("acc += As[ty][k] * Bs[k][tx]"),
        items * tiles * tile
    );
    // The inner `for` header: its condition runs TILE + 1 times per tile.
    assert_eq!(executions("for (int k = 0"), items * tiles * (tile + 1));
    assert_eq!(executions("C[row * n + col] = acc"), items);
    // Every work-item's cycles are charged at some block: the blocks add up to the
    // work-items' summed t, which is at least the kernel's (one work-item's) time.
    let blocks: u64 = profile.blocks.iter().map(|b| b.totals.cycles).sum();
    assert_eq!(blocks, k.cycles);
    assert!(k.cycles >= report.launches[0].estimate().unwrap().latency_cycles);
    assert!(k.lines.windows(2).all(|w| w[0].cycles >= w[1].cycles));
    // The lines' cycles and instructions are the blocks' divided: they sum exactly to
    // the kernel's, and the percentages to 100.
    assert_eq!(k.lines.iter().map(|l| l.cycles).sum::<u64>(), k.cycles);
    assert_eq!(
        k.lines.iter().map(|l| l.instructions).sum::<u64>(),
        k.instructions
    );
    let percent: f64 = k.lines.iter().map(|l| l.share).sum();
    assert!((percent - 100.0).abs() < 1e-6, "{percent}");
    // The compiler unrolled the inner loop into the block of the tile loads: its
    // multiply-adds (a chain through `acc`) take the largest share of the time and land on their own
    // line, which runs TILE times per tile, not on the loads'.
    let inner = line_of("acc += As[ty][k] * Bs[k][tx]");
    assert_eq!(k.lines[0].line, inner, "hottest: {:?}", k.lines[0]);
    assert!(k.lines[0].share > 40.0, "{:?}", k.lines[0]);
    // 16 fused multiply-adds and their 32 shared-memory loads per tile.
    assert_eq!(k.lines[0].instructions, items * tiles * tile * 3);
    for b in &profile.blocks {
        let parts: f64 = b.totals.lines.iter().map(|l| l.cycles).sum();
        assert!(
            (parts - b.totals.cycles as f64).abs() <= 1e-6 * b.totals.cycles as f64,
            "block {} ({} cycles) divided into {parts}",
            b.index,
            b.totals.cycles
        );
    }

    // `srcsim report --lines`, as a table and as JSON.
    let dir = std::env::temp_dir().join(format!("srcsim-shim-test-{}", std::process::id()));
    let saved = dir.join("matmul-profile-saved.json");
    report.write(&saved).unwrap();
    let show = |args: &[&str], path: &Path| {
        Command::new(env!("CARGO_BIN_EXE_srcsim"))
            .arg("report")
            .args(args)
            .arg(path)
            .output()
            .unwrap()
    };
    let table = show(&["--lines", "--top", "3"], &saved);
    assert!(table.status.success());
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("the 3 hottest of"), "{text}");
    assert!(text.contains(k.lines[0].source.trim()), "{text}");
    let json = show(&["--lines", "--json", "--kernel", "matmul_tiled"], &saved);
    assert!(json.status.success());
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let first = &v["kernels"][0]["lines"][0];
    assert_eq!(first["line"], k.lines[0].line);
    assert_eq!(first["cycles"], k.lines[0].cycles);
    // Without --lines: the exit table.
    let summary = show(&[], &saved);
    assert!(String::from_utf8_lossy(&summary.stdout).contains("matmul_tiled"));
    // A report without profile: a clear error.
    let without = dir.join("matmul-without-profile.json");
    plain_report.write(&without).unwrap();
    let no_profile = show(&["--lines"], &without);
    assert_eq!(no_profile.status.code(), Some(1));
    let err = String::from_utf8_lossy(&no_profile.stderr);
    assert!(
        err.contains("no line profile") && err.contains("--profile"),
        "{err}"
    );
    let unknown = show(&["--kernel", "nope"], &saved);
    assert_eq!(unknown.status.code(), Some(1));
}

/// `report` (schema 2) written the way schema 1 wrote it: every launch's profile with its
/// blocks' places and its program's line texts.
fn as_version_1(report: &serde_json::Value) -> serde_json::Value {
    let mut old = report.clone();
    let programs = old
        .as_object_mut()
        .unwrap()
        .remove("programs")
        .expect("programs");
    old["schema"] = "srcsim.report/1".into();
    for l in old["launches"].as_array_mut().unwrap() {
        if l["profile"].is_null() {
            continue;
        }
        let program = &programs[l["profile"]["program"].as_u64().unwrap() as usize];
        let blocks: Vec<serde_json::Value> = l["profile"]["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|counts| {
                let mut b = program["blocks"][counts["index"].as_u64().unwrap() as usize].clone();
                for (field, value) in counts.as_object().unwrap() {
                    if field != "index" {
                        b[field] = value.clone();
                    }
                }
                b
            })
            .collect();
        l["profile"] = serde_json::json!({
            "blocks": blocks,
            "source_lines": program["source_lines"].clone(),
        });
    }
    old
}

fn srcsim_report(args: &[&str], path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .arg("report")
        .args(args)
        .arg(path)
        .output()
        .unwrap()
}

/// The `--lines --json` output without its `schema` (a report read from schema 1 is
/// shown in schema 2).
fn lines_json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v.as_object_mut().unwrap().remove("schema");
    v
}

/// stencil2d launches its kernel 6 times: the profiled report holds the kernel's source
/// text and block places once, and gives the same line profile as the same report
/// written the old way (the text in every launch), which still reads.
#[test]
fn a_profiled_report_holds_the_source_once_and_reads_as_the_old_one() {
    let (out, report) = simulated("stencil2d", &["--profile"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_all_simulated("stencil2d", &report, 6);
    let dir = std::env::temp_dir().join(format!("srcsim-shim-test-{}", std::process::id()));
    let saved = dir.join("stencil2d-profile-saved.json");
    report.write(&saved).unwrap();
    let text = std::fs::read_to_string(&saved).unwrap();
    let line = "out[i] = c + alpha * lap;";
    assert_eq!(text.matches(line).count(), 1, "{text}");
    assert_eq!(
        text.matches("\"column\"").count(),
        1,
        "one block, placed once"
    );
    assert_eq!(
        text.matches("\"executions\"").count(),
        6,
        "its counts per launch"
    );
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["schema"], "srcsim.report/2");
    assert_eq!(doc["programs"].as_array().unwrap().len(), 1);

    let old = as_version_1(&doc);
    let old_path = dir.join("stencil2d-as-version-1.json");
    std::fs::write(&old_path, serde_json::to_string_pretty(&old).unwrap()).unwrap();
    let old_text = std::fs::read_to_string(&old_path).unwrap();
    assert_eq!(old_text.matches(line).count(), 6);
    assert!(old_text.len() > text.len());
    for args in [&["--lines"][..], &[][..]] {
        let new = srcsim_report(args, &saved);
        let from_old = srcsim_report(args, &old_path);
        assert!(new.status.success() && from_old.status.success());
        assert_eq!(
            String::from_utf8_lossy(&from_old.stdout),
            String::from_utf8_lossy(&new.stdout),
            "srcsim report {args:?}"
        );
    }
    assert!(String::from_utf8_lossy(&srcsim_report(&["--lines"], &saved).stdout).contains(line));
    assert_eq!(
        lines_json(&srcsim_report(&["--lines", "--json"], &old_path)),
        lines_json(&srcsim_report(&["--lines", "--json"], &saved))
    );
}

/// A report the srcsim of schema 1 wrote (scan, `srcsim run --profile`: 3 launches of
/// two kernels) gives what that srcsim's `srcsim report --lines` printed.
#[test]
fn a_report_of_schema_1_gives_the_line_profile_it_gave() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let old = data.join("scan-report-v1.json");
    let table = srcsim_report(&["--lines"], &old);
    assert!(
        table.status.success(),
        "{}",
        String::from_utf8_lossy(&table.stderr)
    );
    let expected = std::fs::read_to_string(data.join("scan-report-v1.lines.txt")).unwrap();
    assert_eq!(String::from_utf8_lossy(&table.stdout), expected);
    let json = srcsim_report(&["--lines", "--json"], &old);
    let mut expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(data.join("scan-report-v1.lines.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(expected["schema"], "srcsim.report/1");
    expected.as_object_mut().unwrap().remove("schema");
    assert_eq!(lines_json(&json), expected);
}
