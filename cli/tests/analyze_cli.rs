//! `srcsim analyze` as a user runs it: tables, JSON, timelines, and clear errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn srcsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .args(args)
        .env_remove("SRCSIM_ARCH")
        .output()
        .expect("srcsim runs")
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/kernels")
        .join(name)
        .display()
        .to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(name: &str, content: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("srcsim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p
}

#[test]
fn table_lists_blocks_edges_and_resources() {
    let o = srcsim(&["analyze", &example("vector_add.cl")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).is_empty(),
        "no warnings expected: {}",
        stderr(&o)
    );
    let out = stdout(&o);
    assert!(out.contains("kernel vector_add"), "{out}");
    assert!(out.contains("on gtx480, sm_20"), "{out}");
    for col in [
        "block", "lines", "instrs", "t_B", "issue", "ALU", "SFU", "MEM", "succ",
    ] {
        assert!(out.contains(col), "column {col} missing:\n{out}");
    }
    assert!(out.contains("t_(Bi,Bj)"), "{out}");
    assert!(out.contains("B0 -> B1"), "{out}");
}

#[test]
fn json_matches_the_table_and_the_schema() {
    let o = srcsim(&["analyze", &example("div_chain.cl"), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["schema"], "srcsim.analysis/1");
    assert_eq!(v["arch"]["name"], "gtx480");
    let k = &v["kernels"][0];
    assert_eq!(k["name"], "div_chain");
    let blocks = k["blocks"].as_array().unwrap();
    let longest = blocks
        .iter()
        .map(|b| b["cycles"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(longest >= 30 * 39);
    for e in k["edges"].as_array().unwrap() {
        let (i, j) = (e["from"].as_u64().unwrap(), e["to"].as_u64().unwrap());
        let ti = blocks[i as usize]["cycles"].as_u64().unwrap();
        let tj = blocks[j as usize]["cycles"].as_u64().unwrap();
        assert!(e["cycles"].as_u64().unwrap() >= ti.max(tj));
    }
    let resources = v["resources"].as_array().unwrap();
    assert!(blocks
        .iter()
        .all(|b| b["usage"].as_array().unwrap().len() == resources.len()));
}

#[test]
fn architectures_by_name_and_by_file() {
    let h100 = srcsim(&[
        "analyze",
        &example("vector_add.cl"),
        "--arch",
        "hopper_h100",
    ]);
    assert!(h100.status.success(), "{}", stderr(&h100));
    assert!(stdout(&h100).contains("on hopper_h100, sm_90"));
    assert!(stdout(&h100).contains("FP32"));

    let src = include_str!("../../pipeline-model/arch/gtx480.toml")
        .replace("name = \"gtx480\"", "name = \"my_gpu\"")
        .replace(
            "fp32_add = { unit = \"ALU\", latency = 4,",
            "fp32_add = { unit = \"ALU\", latency = 40,",
        );
    let file = temp_file("my_gpu.toml", &src);
    let mine = srcsim(&[
        "analyze",
        &example("vector_add.cl"),
        "--arch",
        file.to_str().unwrap(),
        "--json",
    ]);
    let base = srcsim(&["analyze", &example("vector_add.cl"), "--json"]);
    let cycles = |o: &Output| -> u64 {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["kernels"][0]["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["cycles"].as_u64().unwrap())
            .sum()
    };
    // The block with the float addition pays the 36 extra cycles of latency.
    assert_eq!(cycles(&mine), cycles(&base) + 36);
}

#[test]
fn incomplete_architecture_file_names_the_field() {
    let src = include_str!("../../pipeline-model/arch/gtx480.toml").replace("refill_gap = 3\n", "");
    let file = temp_file("incomplete.toml", &src);
    let o = srcsim(&[
        "analyze",
        &example("vector_add.cl"),
        "--arch",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("incomplete.toml"), "{err}");
    assert!(err.contains("refill_gap"), "{err}");
}

#[test]
fn timeline_shows_every_instruction_of_the_block() {
    // B0 (the bounds check): short enough to be charted; B1's loads take the trip to
    // DRAM, too wide for a chart.
    let o = srcsim(&["analyze", &example("vector_add.cl"), "--timeline", "B0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let header = out
        .lines()
        .find(|l| l.starts_with("Timeline of vector_add B0"))
        .expect("timeline header");
    let n: usize = header
        .split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with('[') && !l.starts_with("[idx]"))
        .collect();
    assert_eq!(rows.len(), n);
    assert!(rows.iter().all(|r| r.contains('F') && r.contains('W')));

    let json = srcsim(&[
        "analyze",
        &example("vector_add.cl"),
        "--timeline",
        "vector_add:0",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let t = &v["timeline"];
    assert_eq!(t["rows"].as_array().unwrap().len(), n);
    // Each row's stages start in pipeline order.
    for r in t["rows"].as_array().unwrap() {
        let s: Vec<u64> = r["starts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert!(s.windows(2).all(|w| w[0] < w[1]), "{s:?}");
    }
    assert_eq!(
        t["cycles"], v["kernels"][0]["blocks"][0]["cycles"],
        "the timeline's length is t_B"
    );
}

/// vector_add's block B1 loads `a[i]` and `b[i]` and stores `c[i]`: coalesced (one line,
/// four sectors a warp), the loads a first touch, the store at the L2. A first touch waits
/// for the L2 on gtx480, whose file gives the L2's capacity (a launch's data is there when
/// its buffers fit), and for DRAM on the H100, whose file does not (yet). The store goes to
/// the L2 and completes in the background: it keeps the memory row's latency.
#[test]
fn memory_accesses_show_their_level_lines_and_sectors() {
    let charged_on = |arch: &str| -> Vec<(String, String, u64, u64, u64)> {
        let json = srcsim(&[
            "analyze",
            &example("vector_add.cl"),
            "--arch",
            arch,
            "--json",
        ]);
        assert!(json.status.success(), "{}", stderr(&json));
        let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        v["kernels"][0]["blocks"][1]["memory"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["opcode"].as_str().unwrap().to_string(),
                    m["level"].as_str().unwrap().to_string(),
                    m["transactions"].as_u64().unwrap(),
                    m["sectors"].as_u64().unwrap(),
                    m["latency"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let row = |op: &str, level: &str, latency| (op.to_string(), level.to_string(), 1, 4, latency);
    let fermi = pipeline_model::Architecture::load("gtx480").unwrap();
    let l2 = u64::from(fermi.memory.l2_hit);
    let store = u64::from(fermi.ops[pipeline_model::OpRow::Mem].latency);
    assert_eq!(
        charged_on("gtx480"),
        [
            row("ld.global.f32", "L2", l2),
            row("ld.global.f32", "L2", l2),
            row("st.global.f32", "L2", store),
        ]
    );
    // The H100 gives its L2's capacity too: a first touch waits an L2 trip.
    let hopper = pipeline_model::Architecture::load("hopper_h100").unwrap();
    let l2 = u64::from(hopper.memory.l2_hit);
    let store = u64::from(hopper.ops[pipeline_model::OpRow::Mem].latency);
    assert_eq!(
        charged_on("hopper_h100"),
        [
            row("ld.global.f32", "L2", l2),
            row("ld.global.f32", "L2", l2),
            row("st.global.f32", "L2", store),
        ]
    );
    let text = stdout(&srcsim(&["analyze", &example("vector_add.cl")]));
    assert!(text.contains("memory accesses"), "{text}");
    assert!(
        text.contains("| B1         9   ld.global.f32   L2"),
        "{text}"
    );
}

#[test]
fn unknown_block_and_kernel_are_explained() {
    let o = srcsim(&["analyze", &example("vector_add.cl"), "--timeline", "B99"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("B0..B2"), "{}", stderr(&o));
    let o = srcsim(&["analyze", &example("vector_add.cl"), "--kernel", "nope"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("kernels: vector_add"), "{}", stderr(&o));
}

#[test]
fn compile_error_shows_clangs_message_and_fails() {
    let bad = temp_file(
        "broken.cl",
        "__kernel void k(__global float *x)\n{\n    x[0] = 1.0f\n}\n",
    );
    let o = srcsim(&["analyze", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("broken.cl:3:16: error: expected ';'"), "{err}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn defines_reach_the_kernel() {
    let src = "__kernel void k(__global float *x)\n{\n#if SCALE > 1\n    x[get_global_id(0)] /= SCALE;\n#endif\n}\n";
    let file = temp_file("defines.cl", src);
    let with = srcsim(&["analyze", file.to_str().unwrap(), "-D", "SCALE=3", "--json"]);
    let without = srcsim(&["analyze", file.to_str().unwrap(), "-DSCALE=1", "--json"]);
    let instrs = |o: &Output| -> u64 {
        assert!(o.status.success(), "{}", stderr(o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["kernels"][0]["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["instructions"].as_u64().unwrap())
            .sum()
    };
    assert!(instrs(&with) > instrs(&without));
}

#[test]
fn missing_file_is_named() {
    let o = srcsim(&["analyze", "/no/such/kernel.cl"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("/no/such/kernel.cl"), "{}", stderr(&o));
}

/// `srcsim --version` (and a subcommand's) names the revisions of the model's arithmetic
/// and of the annotation, which decide what a run's cycles are.
#[test]
fn the_version_names_the_model_and_annotation_revisions() {
    let version = format!(
        "{} (model {}, annotation {})\n",
        env!("CARGO_PKG_VERSION"),
        pipeline_model::MODEL_REVISION,
        annotator::cache::ANNOTATION_REVISION
    );
    for (args, name) in [
        (&["--version"][..], "srcsim"),
        (&["run", "--version"][..], "srcsim-run"),
    ] {
        let out = srcsim(args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), format!("{name} {version}"), "{args:?}");
    }
}
