//! srcsim against Oclgrind, an independent functional simulator: Oclgrind runs the
//! original kernels on its own interpreter, compiled by its own clang, and the linecount
//! plugin (tools/oclgrind-linecount) counts how many times work-items executed each
//! source line. srcsim's profile must agree, block by block.

mod common;

use common::{examples, root};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

/// Builds the plugin once (make: rebuilt only when its source changed).
fn plugin() -> &'static Path {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| {
        let out = root().join("target/oclgrind-linecount");
        let status = Command::new("make")
            .arg("-s")
            .arg("-C")
            .arg(root().join("tools/oclgrind-linecount"))
            .arg(format!("OUT={}", out.display()))
            .status()
            .expect("make");
        assert!(
            status.success(),
            "building the linecount plugin failed (scripts/install-deps installs what it needs)"
        );
        out.join("liblinecount.so")
    })
}

/// One launch as the plugin saw it: kernel name, count per source line and per source
/// position (line, column).
#[derive(Debug)]
struct OclgrindLaunch {
    kernel: String,
    global: [u64; 3],
    lines: BTreeMap<u32, u64>,
    positions: BTreeMap<(u32, u32), u64>,
    /// Positions whose code lies in more than one LLVM basic block, with the number of
    /// blocks.
    split_positions: BTreeMap<(u32, u32), u64>,
    /// Lines whose code lies in more than one LLVM basic block, with the number of
    /// blocks.
    split_lines: BTreeMap<u32, u64>,
}

/// A `"line:column"` key of the plugin's `positions`.
fn parse_position(key: &str) -> (u32, u32) {
    let (line, column) = key
        .split_once(':')
        .unwrap_or_else(|| panic!("position {key:?} is not line:column"));
    (
        line.parse().expect("position line"),
        column.parse().expect("position column"),
    )
}

fn read_line_counts(path: &Path) -> Vec<OclgrindLaunch> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(doc["schema"], "srcsim.oclgrind-linecount/1");
    assert_eq!(
        doc["optimized"],
        false,
        "{}: Oclgrind optimised the kernels",
        path.display()
    );
    doc["launches"]
        .as_array()
        .expect("launches")
        .iter()
        .map(|l| OclgrindLaunch {
            kernel: l["kernel"].as_str().expect("kernel").to_string(),
            global: std::array::from_fn(|d| l["global"][d].as_u64().expect("global")),
            lines: l["lines"]
                .as_object()
                .expect("lines")
                .iter()
                .map(|(line, n)| (line.parse().expect("line"), n.as_u64().expect("count")))
                .collect(),
            positions: l["positions"]
                .as_object()
                .expect("positions")
                .iter()
                .map(|(key, n)| (parse_position(key), n.as_u64().expect("count")))
                .collect(),
            split_positions: l["split_positions"]
                .as_object()
                .expect("split_positions")
                .iter()
                .map(|(key, n)| (parse_position(key), n.as_u64().expect("blocks")))
                .collect(),
            split_lines: l["split_lines"]
                .as_object()
                .expect("split_lines")
                .iter()
                .map(|(line, n)| (line.parse().expect("line"), n.as_u64().expect("blocks")))
                .collect(),
        })
        .collect()
}

/// The environment that makes Oclgrind count lines: the plugin, its output, and kernels
/// built without optimisation (see linecount.cpp for why).
fn counting_env(out: &Path) -> [(&'static str, String); 3] {
    [
        ("OCLGRIND_PLUGINS", plugin().display().to_string()),
        ("OCLGRIND_BUILD_OPTIONS", "-cl-opt-disable".to_string()),
        ("SRCSIM_LINECOUNT_OUT", out.display().to_string()),
    ]
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("srcsim-oclgrind-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// tools/oclgrind-linecount/tests/tiny.cl on 8 work-items with n = 6, counted by hand:
/// the plugin counts each line, and each position, once per execution of its block,
/// whatever the shape.
#[test]
fn the_plugin_counts_each_line_once_per_execution_of_its_block() {
    let out = scratch("tiny.json");
    // oclgrind-kernel finds the kernel file named in the .sim file from its working
    // directory.
    let run = Command::new("oclgrind-kernel")
        .arg("tiny.sim")
        .current_dir(root().join("tools/oclgrind-linecount/tests"))
        .envs(counting_env(&out))
        .output()
        .expect("oclgrind-kernel (scripts/install-deps installs Oclgrind)");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let launches = read_line_counts(&out);
    assert_eq!(launches.len(), 1);
    let tiny = &launches[0];
    assert_eq!(tiny.kernel, "tiny");
    assert_eq!(tiny.global, [8, 1, 1]);

    let (items, n) = (0..8u64, 6u64);
    let running = items.clone().filter(|&gid| gid < n);
    let evens = running.clone().filter(|gid| gid % 2 == 0).count() as u64;
    let odds = running.clone().count() as u64 - evens;
    let iterations: u64 = running.clone().sum(); // the loop runs gid times
    let above_two = running.clone().filter(|&gid| gid > 2).count() as u64;
    let expected = BTreeMap::from([
        (2, n), // helper body: once per call
        (6, items.clone().count() as u64),
        (7, 8),     // the early-return test
        (8, 8 - n), // return
        (9, n),
        (10, n),
        (11, evens),
        (13, odds),
        // for header: the init once, the test once more than the body, the increment
        (15, n + (n + iterations) + iterations),
        (16, iterations),
        // ?:: the condition's block, each operand's (the constant's holds a branch), and
        // the join's
        (18, n + above_two + (n - above_two) + n),
        (19, n), // a call in the line does not count it twice
        (20, n), // the same statement's second line
    ]);
    for (line, want) in expected {
        assert_eq!(
            tiny.lines.get(&line),
            Some(&want),
            "line {line}: {:?}",
            tiny.lines
        );
    }
    // Lines without code (blank, comments, declarations alone) are absent, not zero.
    assert!(!tiny.lines.contains_key(&4));
    assert!(!tiny.lines.contains_key(&1));

    // Positions: each block apart, where clang puts its code. Line 15 is
    // `  for (int i = 0; i < gid; i++) {`, line 18 `  acc = gid > 2 ? acc * 3 : 7;`.
    let expected = BTreeMap::from([
        ((15, 8), n),               // the init, `int i = 0` (its branch into the loop)
        ((15, 19), n + iterations), // the condition, `i < gid` (the load of `i`)
        ((15, 29), iterations),     // the increment, `i++`, at its operator
        ((18, 19), above_two),      // the `?:`'s first operand, `acc * 3`
        ((18, 7), n),               // the assignment, after the `?:`'s join
        // the loop's branches, at `for`, in the condition's block and the increment's
        ((15, 3), (n + iterations) + iterations),
        // the `?:`'s branches, at the `?:` (where `gid > 2` begins), in its four blocks
        ((18, 9), n + above_two + (n - above_two) + n),
    ]);
    for (position, want) in expected {
        assert_eq!(
            tiny.positions.get(&position),
            Some(&want),
            "position {position:?}: {:?}",
            tiny.positions
        );
    }
    // The constant operand `7` has no instruction; `acc`, assigned, has its code at `=`.
    assert!(!tiny.positions.contains_key(&(18, 27)));
    assert!(!tiny.positions.contains_key(&(18, 3)));
    assert_eq!(
        tiny.split_positions,
        BTreeMap::from([((15, 3), 2), ((18, 9), 4), ((21, 1), 2)]),
        "positions in several basic blocks: the loop's and the `?:`'s branches, the returns"
    );
    // Lines likewise: the `for` header's init, condition and increment; the `?:`'s four
    // blocks; the closing brace's two returns.
    assert_eq!(
        tiny.split_lines,
        BTreeMap::from([(15, 3), (18, 4), (21, 2)]),
        "lines in several basic blocks"
    );
}

/// The example host programs compared, with arguments that keep Oclgrind's runs short.
/// Left out, with the reason: `threads` (Oclgrind 21.10 aborts when several host threads
/// launch kernels at once: an assertion in Context::notifyKernelBegin).
const COMPARED: &[(&str, &[&str])] = &[
    ("vector_add", &[]),
    ("reduction", &[]),
    ("scan", &[]),
    ("histogram", &[]),
    ("stencil2d", &[]),
    ("matmul", &["48"]),
    ("spmv", &[]),
    ("nbody", &["256"]),
    ("kmeans", &["2048"]),
    ("volume3d", &["6"]),
    ("dp_saxpy", &[]),
    ("events_profile", &[]),
    ("gpu_by_type", &[]),
    ("microbenchmark", &[]),
    ("match_count", &[]),
];

/// The corpus hosts (one per file of examples/hosts/kernels/corpus), compared in full.
const CORPUS: &[(&str, &[&str])] = &[
    ("corpus_linalg", &[]),
    ("corpus_sparse", &[]),
    ("corpus_stencil", &[]),
    ("corpus_graph", &[]),
    ("corpus_particles", &[]),
    ("corpus_sort", &[]),
    ("corpus_image", &[]),
    ("corpus_dp", &[]),
    ("corpus_cluster", &[]),
];

/// One source block of a launch as srcsim's profile counts it.
#[derive(Debug)]
struct ProfiledBlock {
    function: String,
    block: u64,
    lines: Vec<u32>,
    /// Where its first statement or expression begins.
    position: (u32, u32),
    executions: u64,
}

/// A launch's profile: its source blocks, and the text of the source lines they occupy.
#[derive(Debug)]
struct Profile {
    blocks: Vec<ProfiledBlock>,
    source_lines: BTreeMap<u32, String>,
}

/// One launch of srcsim's report: kernel, global size, and its profile (or why the launch
/// was not simulated).
#[derive(Debug)]
struct SrcsimLaunch {
    kernel: String,
    global: [u64; 3],
    profile: Result<Profile, String>,
}

fn srcsim_profile(program: &str, args: &[&str]) -> Vec<SrcsimLaunch> {
    let report = scratch(&format!("{program}.srcsim.json"));
    let run = Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .args([
            "run",
            "--profile",
            "--report",
            report.to_str().unwrap(),
            "--",
        ])
        .arg(examples().join(program))
        .args(args)
        .output()
        .expect("srcsim run");
    assert!(
        run.status.success(),
        "{program} under srcsim: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&report).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let mut launches: Vec<(u64, SrcsimLaunch)> = doc["launches"]
        .as_array()
        .expect("launches")
        .iter()
        .map(|l| {
            let profile = match l["status"].as_str() {
                Some("simulated") => Ok(Profile {
                    blocks: read_profiled_blocks(program, &doc, l),
                    source_lines: program_of(program, &doc, l)["source_lines"]
                        .as_object()
                        .unwrap_or_else(|| panic!("{program}: no source lines in {l}"))
                        .iter()
                        .map(|(line, text)| {
                            let text = text.as_str().expect("source line").to_string();
                            (line.parse().expect("line"), text)
                        })
                        .collect(),
                }),
                _ => Err(l["reason"].as_str().unwrap_or("?").to_string()),
            };
            let launch = SrcsimLaunch {
                kernel: l["kernel"].as_str().expect("kernel").to_string(),
                global: std::array::from_fn(|d| l["global"][d].as_u64().expect("global")),
                profile,
            };
            (l["index"].as_u64().expect("index"), launch)
        })
        .collect();
    launches.sort_by_key(|(index, _)| *index);
    launches.into_iter().map(|(_, l)| l).collect()
}

/// The entry of the report's `programs` (its blocks and line texts) that `launch`'s
/// profile names.
fn program_of<'a>(program: &str, report: &'a Value, launch: &Value) -> &'a Value {
    let id = launch["profile"]["program"]
        .as_u64()
        .unwrap_or_else(|| panic!("{program}: no profile in {launch}"));
    let p = &report["programs"][id as usize];
    assert_eq!(p["id"], id, "{program}: programs[{id}] is not program {id}");
    p
}

fn read_profiled_blocks(program: &str, report: &Value, launch: &Value) -> Vec<ProfiledBlock> {
    let places = &program_of(program, report, launch)["blocks"];
    launch["profile"]["blocks"]
        .as_array()
        .unwrap_or_else(|| panic!("{program}: no profile in {launch}"))
        .iter()
        .map(|counts| {
            let b = &places[counts["index"].as_u64().expect("index") as usize];
            ProfiledBlock {
                function: b["function"].as_str().expect("function").to_string(),
                block: b["block"].as_u64().expect("block"),
                lines: b["lines"]
                    .as_array()
                    .expect("lines")
                    .iter()
                    .map(|n| n.as_u64().expect("line") as u32)
                    .collect(),
                position: (
                    b["line"].as_u64().expect("line") as u32,
                    b["column"].as_u64().expect("column") as u32,
                ),
                executions: counts["executions"].as_u64().expect("executions"),
            }
        })
        .collect()
}

fn oclgrind_counts(program: &str, args: &[&str]) -> Vec<OclgrindLaunch> {
    let out = scratch(&format!("{program}.oclgrind.json"));
    let run = Command::new("oclgrind")
        .arg(examples().join(program))
        .args(args)
        .envs(counting_env(&out))
        .output()
        .expect("oclgrind");
    assert!(
        run.status.success(),
        "{program} under Oclgrind: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    read_line_counts(&out)
}

/// What a block's executions are compared with: Oclgrind's count on a line no other
/// block of the source occupies, on which Oclgrind's build has code (it counts every
/// instruction of the block there); its count at the position where the block's code
/// begins; or both. Why a block has no witness of either kind.
struct Witnesses {
    line: Result<u32, String>,
    position: Result<(u32, u32), String>,
}

/// The assignment and increment operators, longest first.
const ASSIGNMENTS: &[&str] = &[
    "<<=", ">>=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "=",
];

/// The column of the operator when `text` (a source line) has, at `column`, a variable
/// that is assigned or incremented (`i++`, `b += lsize`, `x = ...`): clang locates the
/// variable's load and store at the operator, so its first code is there.
fn assignment_operator(text: &str, column: u32) -> Option<u32> {
    let rest = text.get((column as usize).checked_sub(1)?..)?;
    let identifier = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if identifier == 0 || rest.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let after = &rest[identifier..];
    let operator = after.trim_start();
    let found = ASSIGNMENTS.iter().find(|op| operator.starts_with(**op))?;
    if *found == "=" && operator.starts_with("==") {
        return None;
    }
    Some(column + (identifier + after.len() - operator.len()) as u32)
}

#[test]
fn an_assigned_variable_has_its_code_at_the_operator() {
    let header = "  for (int i = 0; i < gid; i++) {";
    assert_eq!(assignment_operator(header, 28), Some(29)); // `i++`
    assert_eq!(assignment_operator(header, 19), None); // `i < gid`: a comparison
    assert_eq!(assignment_operator("b += lsize)", 1), Some(3));
    assert_eq!(assignment_operator("stride >>= 1) {", 1), Some(8));
    assert_eq!(assignment_operator("acc = x;", 1), Some(5));
    assert_eq!(assignment_operator("a == b", 1), None);
    assert_eq!(assignment_operator("0;", 1), None); // a constant
    assert_eq!(assignment_operator("(x) = 1", 1), None); // not a plain variable
}

/// The witnesses of `block` among `all` the blocks of its source (`text`: the source line
/// its first statement or expression begins on).
///
/// The position where the block's first statement or expression begins (or, when that is
/// an assigned variable, its operator: see [`assignment_operator`]) witnesses it: at -O0
/// the code there runs once per execution of the block, even when clang emits it after a
/// `?:`, `&&` or `||` of the same statement (the code is then in the join's LLVM block,
/// which runs as often: an expression has no exit). Its count is the block's executions
/// only when that code lies in one LLVM basic block: clang puts the branches of a `?:` at
/// the `?:`'s position, in each of its blocks, and a loop's at the loop keyword, and such
/// a count adds up entries into different code.
fn witnesses(
    block: &ProfiledBlock,
    all: &[ProfiledBlock],
    oclgrind: &OclgrindLaunch,
    text: &str,
) -> Witnesses {
    let own: Vec<u32> = block
        .lines
        .iter()
        .copied()
        .filter(|line| {
            all.iter()
                .filter(|other| !std::ptr::eq(*other, block))
                .all(|other| !other.lines.contains(line))
        })
        .collect();
    // A line whose code lies in several LLVM basic blocks adds up entries into different
    // code: besides the blocks of other source blocks, clang puts a join's lone branch at
    // the last token of an `if` without `else` (on its condition's line) and a `?:` of a
    // macro expansion on the line of the macro's use, blocks srcsim does not cut.
    let line = match own
        .iter()
        .find(|line| oclgrind.lines.contains_key(line) && !oclgrind.split_lines.contains_key(line))
    {
        Some(&line) => Ok(line),
        None if own.is_empty() => Err("every line shared with another block".to_string()),
        None if own
            .iter()
            .any(|line| oclgrind.split_lines.contains_key(line)) =>
        {
            Err(format!(
                "the code on its own lines {own:?} lies in several of Oclgrind's basic blocks"
            ))
        }
        None => Err(format!(
            "no code in Oclgrind's build on its own lines {own:?}, the others shared"
        )),
    };
    let (line_number, column) = block.position;
    let shown = text
        .get((column as usize).saturating_sub(1)..)
        .unwrap_or("")
        .trim_end();
    let code = Some(column)
        .filter(|c| oclgrind.positions.contains_key(&(line_number, *c)))
        .or_else(|| {
            assignment_operator(text, column)
                .filter(|c| oclgrind.positions.contains_key(&(line_number, *c)))
        });
    let position = match code {
        Some(column) => match oclgrind.split_positions.get(&(line_number, column)) {
            None => Ok((line_number, column)),
            Some(blocks) => Err(format!(
                "clang's code at {line_number}:{column} lies in {blocks} basic blocks"
            )),
        },
        None if shown.starts_with(|c: char| c.is_ascii_digit()) => Err(format!(
            "a constant operand at {line_number}:{column} (`{shown}`): no instruction of its \
             own at -O0 (its block holds only the `?:`'s branch, at the `?:`'s position; with two \
             constant operands clang emits a `select`)"
        )),
        None if !shown.split(';').next().unwrap_or("").contains(['=', '(']) => Err(format!(
            "a declaration without initialiser at {line_number}:{column} (`{shown}`): no \
             code there"
        )),
        None => Err(format!(
            "no code at its position {line_number}:{column} (`{shown}`)"
        )),
    };
    Witnesses { line, position }
}

/// Compares srcsim's profile of every launch of `programs` with Oclgrind's counts, block
/// by block; with `all_simulated`, a launch srcsim did not simulate is a failure, not
/// left out.
fn compare_with_oclgrind(programs: &[(&str, &[&str])], all_simulated: bool) {
    let mut mismatches = Vec::new();
    // Per source block (program, kernel, function, block): its witness is a property of
    // its lines and position, the same in every launch; executions are compared per
    // launch.
    let mut checked = BTreeMap::new();
    let mut unchecked = BTreeMap::new();
    let mut compared_executions = 0u64;
    for &(program, args) in programs {
        let srcsim = srcsim_profile(program, args);
        let oclgrind = oclgrind_counts(program, args);
        assert_eq!(
            srcsim
                .iter()
                .map(|l| (&l.kernel, l.global))
                .collect::<Vec<_>>(),
            oclgrind
                .iter()
                .map(|l| (&l.kernel, l.global))
                .collect::<Vec<_>>(),
            "{program}: the launches differ"
        );
        for (index, (ours, theirs)) in srcsim.iter().zip(&oclgrind).enumerate() {
            let profile = match &ours.profile {
                Ok(profile) => profile,
                Err(reason) => {
                    assert!(
                        !all_simulated,
                        "{program} launch {index} ({}): not simulated: {reason}",
                        ours.kernel
                    );
                    println!(
                        "{program} launch {index} ({}): not simulated, not compared: {reason}",
                        ours.kernel
                    );
                    continue;
                }
            };
            for block in &profile.blocks {
                let (line, column) = block.position;
                let text = profile.source_lines.get(&line).map_or("", String::as_str);
                let key = format!(
                    "{program} {}: {} block {} at {line}:{column} (lines {:?})",
                    ours.kernel, block.function, block.block, block.lines,
                );
                let found = witnesses(block, &profile.blocks, theirs, text);
                let mut on = Vec::new();
                if let Ok(line) = found.line {
                    on.push((theirs.lines[&line], format!("line {line}")));
                }
                if let Ok((line, column)) = found.position {
                    on.push((
                        theirs.positions[&(line, column)],
                        format!("position {line}:{column}"),
                    ));
                }
                if on.is_empty() {
                    let reason = format!(
                        "{}; {}",
                        found.line.unwrap_err(),
                        found.position.unwrap_err()
                    );
                    unchecked.insert(key, reason);
                    continue;
                }
                compared_executions += block.executions;
                for (count, witness) in &on {
                    if *count != block.executions {
                        mismatches.push(format!(
                            "{key}, launch {index}: srcsim {} executions, Oclgrind {count} on \
                             {witness}",
                            block.executions
                        ));
                    }
                }
                let kind = match (found.line.is_ok(), found.position.is_ok()) {
                    (true, true) => "line and position",
                    (true, false) => "line",
                    _ => "position",
                };
                checked.insert(key, kind);
            }
        }
    }
    let on = |kind: &str| checked.values().filter(|k| **k == kind).count();
    println!(
        "{} source blocks checked against Oclgrind ({} on a line and at a position, {} on a \
         line only, {} at a position only; {compared_executions} work-item block executions \
         compared), {} not checkable:",
        checked.len(),
        on("line and position"),
        on("line"),
        on("position"),
        unchecked.len()
    );
    for (block, reason) in &unchecked {
        println!("  {block}: {reason}");
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(
        unchecked.len() * 10 <= checked.len() + unchecked.len(),
        "at most 10% of the blocks may be uncheckable: {} checked, {} not",
        checked.len(),
        unchecked.len()
    );
}

#[test]
fn every_source_block_executes_as_often_as_oclgrind_runs_its_code() {
    compare_with_oclgrind(COMPARED, false);
}

/// The corpus (examples/hosts/kernels/corpus): every launch simulated, every block's
/// executions equal to Oclgrind's.
#[test]
fn every_block_of_the_corpus_executes_as_often_as_oclgrind_runs_its_code() {
    compare_with_oclgrind(CORPUS, true);
}
