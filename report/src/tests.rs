//! The report's unit tests: lines and their apportioning, notes, repeats, the views a
//! file is written in, and reading back reports of this schema and of version 1.

use std::path::Path;

use super::*;

/// Block `block` of function `k` on `lines`, with `executions` and `cycles` (and half
/// as many instructions).
fn block(block: usize, lines: &[u32], executions: u64, cycles: u64) -> (SourceBlock, BlockCounts) {
    let place = SourceBlock {
        block,
        function: "k".into(),
        lines: lines.to_vec(),
        line: lines[0],
        column: 5,
    };
    let counts = BlockCounts {
        index: block,
        totals: BlockTotals {
            executions,
            cycles,
            instructions: cycles / 2,
            lines: Vec::new(),
        },
    };
    (place, counts)
}

fn launch(index: usize, kernel: &str, profile: Option<LaunchProfile>) -> Launch {
    Launch {
        index,
        kernel: kernel.into(),
        work_dim: 1,
        global: [64, 1, 1],
        local: [32, 1, 1],
        local_chosen: false,
        offset: [0; 3],
        outcome: Outcome::NotSimulated {
            reason: "test".into(),
        },
        profile,
        first_in_context: index == 0,
        event_micros: None,
    }
}

/// Parts of a block over lines: `(line, cycles, instructions)` per unit of scale.
fn by_line(parts: &[(u32, f64, f64)], scale: u64) -> Vec<LineAmount> {
    parts
        .iter()
        .map(|&(line, cycles, instructions)| LineAmount {
            line,
            cycles: cycles * scale as f64,
            instructions: instructions * scale as f64,
        })
        .collect()
}

/// A `for` header on line 3 (init in block 0, condition in 1, increment in 2), the
/// body on line 4, the closing brace on line 5 (no block). The increment's PTX holds
/// code of the body; the body's, the code of the closing brace. The program's blocks
/// and line texts, and the counters of a launch of `scale` times the work-items.
fn loop_profile(scale: u64) -> (Vec<SourceBlock>, BTreeMap<u32, String>, Vec<BlockCounts>) {
    let with = |(place, mut counts): (SourceBlock, BlockCounts), parts: &[(u32, f64, f64)]| {
        counts.totals.lines = by_line(parts, scale);
        (place, counts)
    };
    let (places, counts) = [
        with(
            block(0, &[2, 3], scale, 10 * scale),
            &[(2, 6.0, 2.5), (3, 4.0, 2.5)],
        ),
        with(block(1, &[3], 5 * scale, 20 * scale), &[(3, 20.0, 10.0)]),
        with(
            block(2, &[3], 4 * scale, 8 * scale),
            &[(3, 5.0, 4.0), (4, 3.0, 0.0)],
        ),
        with(
            block(3, &[4], 4 * scale, 100 * scale),
            &[(4, 70.0, 50.0 / 3.0), (5, 30.0, 100.0 / 3.0)],
        ),
    ]
    .into_iter()
    .unzip();
    let text = [
        (2, "  int i = 0;"),
        (3, "  for (int k = 0; k < 4; k++)"),
        (4, "    acc += k;"),
        (5, "  }"),
    ]
    .map(|(line, text)| (line, text.to_string()))
    .into();
    (places, text, counts)
}

/// Adds a launch of kernel `k` at `scale` (its program added once).
fn push_loop_launch(r: &mut Report, scale: u64) {
    let (places, text, blocks) = loop_profile(scale);
    let program = r.add_program(&places, &text);
    let index = r.launches.len();
    r.launches
        .push(launch(index, "k", Some(LaunchProfile { program, blocks })));
}

/// `r` in schema 1: every launch's profile with its blocks' places and the line texts.
fn as_version_1(r: &Report) -> String {
    let mut v = serde_json::to_value(r).unwrap();
    let programs = v["programs"].take();
    v.as_object_mut().unwrap().remove("programs");
    v["schema"] = REPORT_SCHEMA_V1.into();
    for l in v["launches"].as_array_mut().unwrap() {
        if l["profile"].is_null() {
            continue;
        }
        let program = &programs[l["profile"]["program"].as_u64().unwrap() as usize];
        let blocks: Vec<serde_json::Value> = l["profile"]["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                let mut old = program["blocks"][b["index"].as_u64().unwrap() as usize].clone();
                for field in ["executions", "cycles", "instructions", "by_line"] {
                    if !b[field].is_null() {
                        old[field] = b[field].clone();
                    }
                }
                old
            })
            .collect();
        l["profile"] = serde_json::json!({
            "blocks": blocks,
            "source_lines": program["source_lines"].clone(),
        });
    }
    serde_json::to_string_pretty(&v).unwrap()
}

#[test]
fn lines_get_the_parts_of_the_blocks_and_sum_to_the_kernel() {
    let mut r = Report::new("gtx480", 700.0);
    push_loop_launch(&mut r, 1);
    r.launches.push(launch(1, "other", None));
    push_loop_launch(&mut r, 2);
    assert_eq!(r.programs.len(), 1, "one program for both launches");
    let p = r.line_profiles();
    assert_eq!(p.len(), 1);
    let k = &p[0];
    assert_eq!((&*k.kernel, k.launches), ("k", 2));
    // Summed over both launches (scale 1 + 2 = 3).
    assert_eq!(k.cycles, 3 * (10 + 20 + 8 + 100));
    assert_eq!(k.instructions, 3 * (5 + 10 + 4 + 50));
    let got: Vec<(u32, u64, u64, u64)> = k
        .lines
        .iter()
        .map(|l| (l.line, l.executions, l.cycles, l.instructions))
        .collect();
    // Cycles x3: line 2: 6; line 3: 4 + 20 + 5; line 4: 3 + 70; line 5: 30.
    // Instructions x3: 7.5, 49.5, 50, 100 (the halves: one more to the first, line 2).
    // Executions: the most of the blocks on the line; line 5, which no block
    // occupies, those of the body, whose cycles land there.
    assert_eq!(
        got,
        vec![
            (4, 12, 219, 50),
            (5, 12, 90, 100),
            (3, 15, 87, 49),
            (2, 3, 18, 8)
        ]
    );
    assert_eq!(k.lines.iter().map(|l| l.cycles).sum::<u64>(), k.cycles);
    let percent: f64 = k.lines.iter().map(|l| l.share).sum();
    assert!((percent - 100.0).abs() < 1e-9, "{percent}");
    assert!((k.lines[0].share - 219.0 * 100.0 / 414.0).abs() < 1e-9);
    assert_eq!(k.lines[0].source, "    acc += k;");
    assert_eq!(k.lines[1].source, "  }");
    let table = lines_table(k, Some(2));
    assert!(table.contains("the 2 hottest of 4 lines"), "{table}");
    assert!(
        table.contains("acc += k;") && !table.contains("int i = 0;"),
        "{table}"
    );
}

#[test]
fn blocks_of_an_older_report_count_on_their_first_line() {
    let mut r = Report::new("gtx480", 700.0);
    push_loop_launch(&mut r, 1);
    for b in &mut r.launches[0].profile.as_mut().unwrap().blocks {
        b.totals.lines.clear();
    }
    let k = &r.line_profiles()[0];
    let got: Vec<(u32, u64)> = k.lines.iter().map(|l| (l.line, l.cycles)).collect();
    assert_eq!(got, vec![(4, 100), (3, 28), (2, 10)]);
}

#[test]
fn apportion_rounds_to_the_total_by_largest_remainder() {
    assert_eq!(apportion(10, &[2.5, 2.5, 5.0]), vec![3, 2, 5]);
    assert_eq!(apportion(3, &[1.0, 1.0, 1.0]), vec![1, 1, 1]);
    // Parts a hair off their sum (floating point) still give the exact total.
    assert_eq!(
        apportion(100, &[33.333_333_333_4, 33.333_333_333_4, 33.333_333_333_4]),
        vec![34, 33, 33]
    );
    assert_eq!(apportion(7, &[0.1, 6.9000001]), vec![0, 7]);
    assert_eq!(apportion(5, &[0.0, 0.0]), vec![5, 0]);
    assert_eq!(apportion(0, &[1.0, 2.0]), vec![0, 0]);
    assert!(apportion(9, &[]).is_empty());
    // Proportions are kept when the parts are scaled otherwise than the total.
    assert_eq!(apportion(100, &[1.0, 3.0]), vec![25, 75]);
}

#[test]
fn the_model_identity_names_the_architecture_and_changes_with_any_number() {
    let a = pipeline_model::Architecture::load("gtx480").unwrap();
    let id = model_identity(&a);
    assert!(
        id.starts_with(&format!(
            "srcsim {} (model {}, annotation {}), gtx480 ",
            env!("CARGO_PKG_VERSION"),
            pipeline_model::MODEL_REVISION,
            annotator::cache::ANNOTATION_REVISION
        )),
        "{id}"
    );
    assert_eq!(id.rsplit(' ').next().unwrap().len(), 32, "{id}");
    assert_eq!(id, model_identity(&a));
    let mut b = a.clone();
    b.ops[pipeline_model::OpRow::Fp32Div].latency += 1;
    assert_ne!(id, model_identity(&b));
}

#[test]
fn a_kernels_note_is_reported_once_and_read_back() {
    let mut r = Report::new("gtx480", 700.0);
    let simulated = |note: Option<&str>| {
        Outcome::Simulated(std::sync::Arc::new(Estimate {
            cycles: 700,
            micros: 1.0,
            latency_cycles: 700,
            queue_cycles: 0,
            issue_wait_cycles: 0,
            l2_wait_cycles: 0,
            icache_cycles: 0,
            l2_resident: false,
            launch_cycles: 0,
            divergence_cycles: 0,
            bound: "latency".into(),
            dram_bytes: Some(256),
            note: note.map(String::from),
            work_groups_per_sm: 2,
            occupancy_limiter: "warps".into(),
            work_groups: 2,
            warps: 2,
            l1_sharers: None,
            sampled: Vec::new(),
        }))
    };
    let note = "timed as compiled without loop unrolling (-fno-unroll-loops -mllvm -unroll-count=1): at k.cl:3 ...";
    for (i, (kernel, n)) in [("k", Some(note)), ("k", Some(note)), ("j", None)]
        .into_iter()
        .enumerate()
    {
        let mut l = launch(i, kernel, None);
        l.outcome = simulated(n);
        r.launches.push(l);
    }
    assert_eq!(r.notes(), [("k".to_string(), note.to_string())]);
    let table = r.table();
    assert_eq!(table.matches(note).count(), 1, "{table}");
    assert!(table.contains(&format!("srcsim: k: {note}")), "{table}");
    let back: Report = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back, r);
    let csv = r.to_csv().unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert!(
        rows[0].ends_with("dram_bytes,note,reason,event_micros"),
        "{csv}"
    );
    assert!(rows[1].contains(",256,timed as compiled"), "{csv}");
    assert!(rows[3].ends_with(",256,,,"), "{csv}");
}

#[test]
fn a_repeated_launch_takes_its_measured_launchs_outcome_once_settled() {
    let mut r = Report::new("gtx480", 700.0);
    let reason = |s: &str| Outcome::NotSimulated { reason: s.into() };
    assert_eq!(r.launched(launch(0, "k", None)), 0);
    assert_eq!(r.launched(launch(0, "j", None)), 1);
    assert_eq!(r.repeated(launch(0, "k", None), 0), 2);
    assert_eq!(r.repeated(launch(0, "j", None), 1), 3);
    assert_eq!(r.repeated(launch(0, "k", None), 0), 4);
    // Estimates come in after the repeats were taken.
    r.estimated(0, reason("zero"), None);
    let profile = LaunchProfile {
        program: 0,
        blocks: Vec::new(),
    };
    r.estimated(1, reason("one"), Some(profile.clone()));
    r.settle_repeats();
    let outcomes: Vec<&Outcome> = r.launches.iter().map(|l| &l.outcome).collect();
    let (zero, one) = (reason("zero"), reason("one"));
    assert_eq!(outcomes, [&zero, &one, &zero, &one, &zero]);
    assert_eq!(r.launches[3].profile, Some(profile));
    assert_eq!(r.launches[4].profile, None);
    let indices: Vec<usize> = r.launches.iter().map(|l| l.index).collect();
    assert_eq!(indices, [0, 1, 2, 3, 4]);
    let measured: Vec<usize> = (0..6).map(|i| r.measured_as(i)).collect();
    assert_eq!(measured, [0, 1, 0, 1, 0, 5]);
}

/// An estimate of `micros` microseconds (the rest as any).
fn simulated(micros: f64) -> Outcome {
    Outcome::Simulated(Arc::new(Estimate {
        cycles: (micros * 700.0) as u64,
        micros,
        latency_cycles: 0,
        queue_cycles: 0,
        issue_wait_cycles: 0,
        l2_wait_cycles: 0,
        icache_cycles: 0,
        l2_resident: false,
        launch_cycles: 0,
        divergence_cycles: 0,
        bound: "latency".into(),
        dram_bytes: None,
        note: None,
        work_groups_per_sm: 1,
        occupancy_limiter: "warps".into(),
        work_groups: 1,
        warps: 1,
        l1_sharers: None,
        sampled: Vec::new(),
    }))
}

/// What an OpenCL event would show: the estimate plus the architecture's term for every
/// launch and, for a context's first launch, its first-launch term; repeats get theirs once
/// settled; nothing for a launch not simulated or an architecture without the terms.
#[test]
fn event_times_add_the_launch_terms_to_each_estimate() {
    let mut r = Report::new("hopper_h100", 1980.0);
    let mut first = launch(0, "k", None);
    first.first_in_context = true;
    r.launched(first);
    r.launched(launch(1, "k", None));
    r.repeated(launch(2, "k", None), 1);
    r.launched(launch(3, "j", None));
    r.estimated(0, simulated(2.0), None);
    r.estimated(1, simulated(0.5), None);
    r.settle_repeats();
    let event = OpenclEvent {
        launch_us: 4.0,
        first_launch_us: 10.0,
    };
    r.settle_events(Some(&event));
    let times: Vec<Option<f64>> = r.launches.iter().map(|l| l.event_micros).collect();
    assert_eq!(times, [Some(16.0), Some(4.5), Some(4.5), None]);
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["opencl_event"]["launch_us"], 4.0);
    assert_eq!(json["launches"][0]["first_in_context"], true);
    assert_eq!(json["launches"][0]["event_micros"], 16.0);
    assert!(json["launches"][1].get("first_in_context").is_none());
    assert!(json["launches"][3].get("event_micros").is_none());
    let csv = r.to_csv().unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert!(rows[1].ends_with(",16.0000"), "{csv}");
    assert!(
        rows[4].ends_with(",not_simulated,,,,,,,,,,,,,test,"),
        "{csv}"
    );
    assert!(r.table().contains("25.00 µs in all"), "{}", r.table());
    r.settle_events(None);
    assert!(r.launches.iter().all(|l| l.event_micros.is_none()));
    assert!(serde_json::to_value(&r)
        .unwrap()
        .get("opencl_event")
        .is_none());
}

/// A report is written in the view its file's extension names, and read back from
/// JSON whatever the extension it had.
#[test]
fn a_report_file_is_written_in_the_view_its_extension_names() {
    let mut r = Report::new("gtx480", 700.0);
    r.launches.push(launch(0, "k", None));
    let dir = std::env::temp_dir().join(format!("srcsim-views-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, expected) in [
        ("r.csv", r.to_csv().unwrap()),
        ("r.txt", r.table()),
        ("r.html", r.html()),
        ("r.json", serde_json::to_string_pretty(&r).unwrap()),
        ("r.out", serde_json::to_string_pretty(&r).unwrap()),
    ] {
        let path = dir.join(name);
        r.write(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), expected, "{name}");
    }
    assert_eq!(Report::read(&dir.join("r.out")).unwrap(), r);
    // Every view's extensions are its own.
    let mut seen: Vec<&str> = views::VIEWS
        .iter()
        .flat_map(|v| v.extensions().iter().copied())
        .collect();
    let n = seen.len();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), n);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The HTML page: the launches as timeline bars (like launches in a row one bar), a row
/// per kernel, each profiled line with its cycles; every text escaped, nothing fetched.
#[test]
fn the_page_shows_the_run_escaped_and_fetches_nothing() {
    let mut r = Report::new("gtx480", 700.0);
    push_loop_launch(&mut r, 2);
    r.launches[0].outcome = simulated(2.0);
    for i in 1..3 {
        let mut l = launch(i, "k", None);
        l.outcome = simulated(2.0);
        r.launches.push(l);
    }
    let mut j = launch(3, "j", None);
    j.outcome = simulated(1.0);
    r.launches.push(j);
    let mut refused = launch(4, "j", None);
    refused.outcome = Outcome::NotSimulated {
        reason: "reads an image <img> & more".into(),
    };
    r.launches.push(refused);
    let page = r.html();
    assert!(!page.contains("http://") && !page.contains("https://"));
    assert!(
        page.contains("reads an image &lt;img&gt; &amp; more"),
        "{page}"
    );
    // Three bars: k's three launches (one configuration, one bound), j's, j's refused.
    assert_eq!(page.matches("<rect class=\"launch\"").count(), 3, "{page}");
    assert!(page.contains("data-kernel=\"k\" data-launches=\"3\""));
    // Two rows of the kernels' table: k's three launches of 1400 cycles, j's one of 700.
    assert_eq!(
        page.matches("<td class=\"n\" data-sort=\"1400\">1400</td>")
            .count(),
        1
    );
    assert_eq!(
        page.matches("<td class=\"n\" data-sort=\"700\">700</td>")
            .count(),
        1
    );
    assert!(page.contains("<td class=\"n\" data-sort=\"3\">3</td>"));
    // Every line of the profile with its cycles, the source escaped.
    let k = &r.line_profiles()[0];
    assert_eq!(page.matches("data-line=").count(), k.lines.len());
    for l in &k.lines {
        let row = format!("data-line=\"{}\" data-cycles=\"{}\"", l.line, l.cycles);
        assert!(page.contains(&row), "{row}");
    }
    assert!(page.contains("for (int k = 0; k &lt; 4; k++)"));
}

#[test]
fn a_report_without_profile_reads_and_has_no_line_profile() {
    let mut r = Report::new("gtx480", 700.0);
    r.launches.push(launch(0, "k", None));
    let json = serde_json::to_string(&r).unwrap();
    assert!(!json.contains("profile"));
    let back: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
    assert!(!back.has_profile());
    assert!(back.line_profiles().is_empty());
    assert!(!back.table().contains("line profile"));
}

#[test]
fn many_launches_hold_the_source_text_once() {
    let mut r = Report::new("gtx480", 700.0);
    for scale in 1..=100 {
        push_loop_launch(&mut r, scale);
    }
    let json = serde_json::to_string_pretty(&r).unwrap();
    assert_eq!(json.matches("acc += k;").count(), 1, "{json}");
    assert_eq!(json.matches("\"column\"").count(), 4, "block places once");
    assert_eq!(json.matches("\"executions\"").count(), 400);
    let back = Report::parse(&json, Path::new("run.json")).unwrap();
    assert_eq!(back, r);
    // The same written the old way (the text in each of the 100 launches) reads back
    // as this report (all in one program, kernel k's) and gives the same lines.
    let old = as_version_1(&r);
    assert_eq!(old.matches("acc += k;").count(), 100);
    let upgraded = Report::parse(&old, Path::new("old.json")).unwrap();
    assert_eq!(upgraded.schema, REPORT_SCHEMA);
    assert_eq!(upgraded, r);
    assert_eq!(upgraded.line_profiles(), r.line_profiles());
}

#[test]
fn an_old_report_gets_a_program_per_kernel_and_the_same_lines() {
    // Two kernels of one program, a helper's block in both, launches interleaved.
    let mut r = Report::new("gtx480", 700.0);
    push_loop_launch(&mut r, 1);
    let (mut places, text, _) = loop_profile(1);
    let helper = SourceBlock {
        function: "helper".into(),
        block: 0,
        lines: vec![9],
        line: 9,
        column: 3,
    };
    places.push(helper);
    let mut text = text;
    text.insert(9, "  return x * x;".into());
    let program = r.add_program(&places, &text);
    assert_eq!(program, 1, "other blocks: another program");
    for (index, scale) in [(1, 3), (2, 5)] {
        let (_, _, mut blocks) = loop_profile(scale);
        blocks.push(BlockCounts {
            index: 4,
            totals: BlockTotals {
                executions: scale,
                cycles: 7 * scale,
                instructions: scale,
                lines: by_line(&[(9, 7.0, 1.0)], scale),
            },
        });
        r.launches.push(launch(
            index,
            if index == 1 { "two" } else { "k" },
            Some(LaunchProfile { program, blocks }),
        ));
    }
    let upgraded = Report::parse(&as_version_1(&r), Path::new("old.json")).unwrap();
    // Per kernel one program: k's (its blocks and the helper's), two's.
    let kernels: Vec<(usize, usize)> = upgraded
        .programs
        .iter()
        .map(|p| (p.blocks.len(), p.source_lines.len()))
        .collect();
    assert_eq!(kernels, vec![(5, 5), (5, 5)]);
    assert_eq!(upgraded.line_profiles(), r.line_profiles());
    assert_eq!(upgraded.table(), r.table());
    let helper_line = &r.line_profiles()[0].lines;
    assert!(helper_line
        .iter()
        .any(|l| l.line == 9 && l.cycles == 35 && l.source == "  return x * x;"));
}

#[test]
fn a_report_of_another_schema_or_broken_references_is_named() {
    let err = |text: &str| {
        Report::parse(text, Path::new("r.json"))
            .unwrap_err()
            .to_string()
    };
    let e = err(r#"{"schema": "srcsim.baseline/1", "entries": []}"#);
    assert!(
        e.starts_with("r.json: schema is \"srcsim.baseline/1\""),
        "{e}"
    );
    assert!(e.contains("srcsim.report/2"), "{e}");
    let e = err(r#"{"arch": "gtx480", "launches": []}"#);
    assert!(e.contains("r.json: no \"schema\""), "{e}");
    // Line and column of a malformed report.
    let e = err("{\n  \"schema\": \"srcsim.report/2\",\n  \"arch\": 3\n}");
    assert!(
        e.contains("r.json: not an srcsim report") && e.contains("line 3"),
        "{e}"
    );

    let mut r = Report::new("gtx480", 700.0);
    push_loop_launch(&mut r, 1);
    r.launches[0].profile.as_mut().unwrap().program = 4;
    let e = err(&serde_json::to_string(&r).unwrap());
    assert!(
        e.contains("launch 0 (k): its profile names program 4, but the report has 1"),
        "{e}"
    );
    r.launches[0].profile.as_mut().unwrap().program = 0;
    r.launches[0].profile.as_mut().unwrap().blocks[1].index = 9;
    let e = err(&serde_json::to_string(&r).unwrap());
    assert!(
        e.contains("its profile names block 9 of program 0, which has 4 block(s)"),
        "{e}"
    );
    r.launches[0].profile.as_mut().unwrap().blocks[1].index = 1;
    r.programs[0].id = 2;
    let e = err(&serde_json::to_string(&r).unwrap());
    assert!(e.contains("programs[0] has id 2, expected 0"), "{e}");
}
