//! The GPGPU-Sim cross-check (scripts/gpgpusim-crosscheck) without GPGPU-Sim, as CI runs
//! it: the suite manifest and the public-code corpus (`corpus.toml`) parse and resolve for
//! the host, every kernel of both compiles, annotates and runs under `srcsim-validate
//! predict --quick` for gtx480 (the CSV has the columns the script reads), the committed
//! tables cover each exactly, and the script exits 0 where GPGPU-Sim is not built.

mod common;

use std::path::Path;
use std::process::Command;

use common::{python, root, rows};

const SUITE: &str = "validation/gpgpusim/suite.toml";
const CORPUS: &str = "validation/gpgpusim/corpus.toml";
/// The corpus's suites: every case id starts with one of these and `_`.
const CORPUS_SUITES: [&str; 4] = ["shoc", "parboil", "opendwarfs", "amd"];

/// `srcsim-validate host-args`: one line per launch.
fn host_args(suite: &str, quick: bool) -> Vec<Vec<String>> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_srcsim-validate"));
    cmd.current_dir(root())
        .args(["host-args", "--suite", suite]);
    if quick {
        cmd.arg("--quick");
    }
    let out = cmd.output().expect("srcsim-validate runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Every launch resolves for the host: unique cases, existing files, grid x block = global,
/// well-formed arguments.
fn check_resolves(launches: &[Vec<String>]) {
    let mut cases = std::collections::HashSet::new();
    for l in launches {
        let [case, kernel, file, global, local, grid, block, args @ ..] = &l[..] else {
            panic!("{l:?}")
        };
        assert!(cases.insert(case.clone()), "case {case} twice");
        assert!(root().join(file).is_file(), "{file}");
        assert!(!kernel.is_empty() && !args.is_empty(), "{l:?}");
        // grid x block = global, per dimension.
        let dims = |s: &str| -> Vec<u64> { s.split('x').map(|d| d.parse().unwrap()).collect() };
        let (g, lo, gr, b) = (dims(global), dims(local), dims(grid), dims(block));
        assert_eq!(lo, b, "{case}");
        let prod: Vec<u64> = gr.iter().zip(&b).map(|(x, y)| x * y).collect();
        assert_eq!(prod, g, "{case}");
        for a in args {
            let kind = a.split(':').next().unwrap();
            assert!(["buf", "scalar", "local"].contains(&kind), "{case}: {a}");
            if let Some(bytes) = a.strip_prefix("local:") {
                assert!(bytes.parse::<u64>().is_ok_and(|b| b > 0), "{case}: {a}");
            }
        }
    }
}

#[test]
fn suite_resolves_for_the_host() {
    let launches = host_args(SUITE, false);
    assert!(launches.len() >= 25, "{} launches", launches.len());
    check_resolves(&launches);
    // The paper's microbenchmark: one work-group of 1, 32, 256, 512 and 1024 work-items.
    let divloop: Vec<&str> = launches
        .iter()
        .filter(|l| l[1] == "divloop")
        .map(|l| l[3].as_str())
        .collect();
    assert_eq!(divloop, ["1", "32", "256", "512", "1024"]);
}

#[test]
fn corpus_resolves_for_the_host() {
    let launches = host_args(CORPUS, false);
    // Issue 31: at least 150 launches of public code.
    assert!(launches.len() >= 150, "{} launches", launches.len());
    check_resolves(&launches);
    let suite_cases: std::collections::HashSet<String> = host_args(SUITE, false)
        .into_iter()
        .map(|l| l[0].split('#').next().unwrap().to_string())
        .collect();
    for l in &launches {
        // Every case is named by its id, `<suite>_...`, never by a bare kernel name.
        let id = l[0].split('#').next().unwrap();
        assert!(
            CORPUS_SUITES
                .iter()
                .any(|s| id.strip_prefix(s).is_some_and(|r| r.starts_with('_'))),
            "{id}: corpus ids start with a suite name"
        );
        assert!(!suite_cases.contains(id), "{id} is also a case of {SUITE}");
        assert!(
            l[2].starts_with("validation/gpgpusim/corpus/"),
            "{}: corpus kernels live in corpus/",
            l[2]
        );
    }
}

/// `srcsim-validate predict --quick` over a suite: every kernel's first launch runs.
fn every_kernel_runs(suite: &str, tag: &str) {
    let out = std::env::temp_dir().join(format!("srcsim-gpgpusim-{tag}-{}", std::process::id()));
    let result = Command::new(env!("CARGO_BIN_EXE_srcsim-validate"))
        .current_dir(root())
        .args([
            "predict", "--quick", "--arch", "gtx480", "--suite", suite, "--out",
        ])
        .arg(&out)
        .output()
        .expect("srcsim-validate runs");
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let predicted = rows(&out.join("predictions.csv"));
    let expected: Vec<String> = host_args(suite, true)
        .into_iter()
        .map(|l| l[0].clone())
        .collect();
    let cases: Vec<String> = predicted.iter().map(|r| r["case"].clone()).collect();
    assert_eq!(cases, expected);
    for row in &predicted {
        let cycles: u64 = row["predicted_cycles"].parse().unwrap();
        assert!(cycles > 0, "{row:?}");
        // What scripts/gpgpusim-crosscheck reads.
        for key in [
            "latency_cycles",
            "bound",
            "work_groups_per_sm",
            "work_groups",
        ] {
            assert!(!row[key].is_empty(), "{key}: {row:?}");
        }
        assert!(row["contention_cycles"].starts_with("issue="), "{row:?}");
        assert!(row["checksums"].starts_with("b0="), "{row:?}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn every_kernel_runs_under_srcsim_for_gtx480() {
    every_kernel_runs(SUITE, "suite");
}

#[test]
fn every_corpus_kernel_runs_under_srcsim_for_gtx480() {
    every_kernel_runs(CORPUS, "corpus");
}

#[test]
fn committed_corpus_table_covers_the_corpus() {
    let cases: Vec<String> = host_args(CORPUS, false)
        .into_iter()
        .map(|l| l[0].clone())
        .collect();
    let path = root().join("validation/gpgpusim/crosscheck-corpus-stock.csv");
    let listed: Vec<String> = rows(&path).iter().map(|r| r["case"].clone()).collect();
    assert_eq!(
        listed, cases,
        "rerun scripts/gpgpusim-crosscheck --suite corpus (--srcsim-only where GPGPU-Sim is not built)"
    );
}

#[test]
fn committed_tables_cover_the_suite() {
    let cases: Vec<String> = host_args(SUITE, false)
        .into_iter()
        .map(|l| l[0].clone())
        .collect();
    for config in ["stock", "perfect-1sm"] {
        let path = root().join(format!("validation/gpgpusim/crosscheck-{config}.csv"));
        let table = rows(&path);
        let listed: Vec<String> = table.iter().map(|r| r["case"].clone()).collect();
        assert_eq!(
            listed, cases,
            "{config}: rerun scripts/gpgpusim-crosscheck (--srcsim-only where GPGPU-Sim is not built)"
        );
    }
}

/// A validation script run with `args` where GPGPU-Sim is not built (as in CI).
fn without_gpgpusim(script: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new("python3")
        .arg(script)
        .args(args)
        .env("GPGPUSIM_DIR", root().join("no-such-gpgpusim"))
        .output()
        .expect("python3 runs")
}

#[test]
fn crosscheck_script_without_gpgpusim_exits_0() {
    let script = root().join("scripts/gpgpusim-crosscheck");
    let help = Command::new("python3")
        .arg(&script)
        .arg("--help")
        .output()
        .expect("python3 runs");
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--srcsim-only"));
    let missing = without_gpgpusim(&script, &[]);
    assert!(missing.status.success());
    assert!(
        String::from_utf8_lossy(&missing.stdout).contains("not built"),
        "{}",
        String::from_utf8_lossy(&missing.stdout)
    );
}

/// scripts/ptxas-registers needs the GPGPU-Sim build's ptxas; without it (CI) it says so,
/// writes nothing and exits 0.
#[test]
fn ptxas_registers_script_without_gpgpusim_exits_0() {
    let script = root().join("scripts/ptxas-registers");
    let table = root().join("validation/gpgpusim/registers.csv");
    let before = std::fs::read(&table).ok();
    let missing = without_gpgpusim(&script, &[]);
    assert!(missing.status.success());
    let out = String::from_utf8_lossy(&missing.stdout);
    assert!(
        out.contains("no ptxas at") && out.contains("nothing to do"),
        "{out}"
    );
    assert_eq!(std::fs::read(&table).ok(), before);
}

/// Runs `code` in Python with the crosscheck script loaded as the module `s` (and
/// `pathlib` imported); its output, once it succeeded.
fn crosscheck_python(script: &Path, code: &str) -> std::process::Output {
    let code = format!(
        "import importlib.machinery as m, pathlib, sys\n\
         sys.dont_write_bytecode = True\n\
         sys.path.insert(0, str(pathlib.Path({script:?}).parent))\n\
         s = m.SourceFileLoader('crosscheck', {script:?}).load_module()\n{code}",
        script = script.to_str().unwrap(),
    );
    python(&["-c", &code])
}

/// `--cta-timeline` needs `--keep` (the CTA counts are written beside each kept run), and
/// its reading of GPGPU-Sim's visualizer log gives, per 100-cycle sample, the CTAs that
/// finished, the sum so far and each SM's resident CTAs: a log written by hand, read by the
/// script's own function.
#[test]
fn cta_timeline_reads_the_visualizer_counts() {
    let script = root().join("scripts/gpgpusim-crosscheck");
    let refused = without_gpgpusim(&script, &["--cta-timeline"]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("--cta-timeline and --memory-stats need --keep DIR"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    let dir = std::env::temp_dir().join(format!("srcsim-ctas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Three samples of a 2-SM launch: none done, then 1, then 2 more (per-SM counts
    // `ShdrCTACount`, the cycle `globalcyclecount` closing each sample).
    let log = "ctas_completed: 0\nShdrCTACount: 2 2\nglobalcyclecount: 100\n\
               ctas_completed: 1\nShdrCTACount: 2 1\nglobalcyclecount: 200\n\
               ctas_completed: 2\nShdrCTACount: 1 0\nglobalcyclecount: 300\n";
    let code = format!(
        "import gzip\n\
         d = pathlib.Path({dir:?})\n\
         gzip.open(d / 'gpgpusim_visualizer__t.log.gz', 'wt').write({log:?})\n\
         s.cta_timeline(d, 'case#0')\n",
        dir = dir.to_str().unwrap(),
    );
    crosscheck_python(&script, &code);
    let csv = std::fs::read_to_string(dir.join("ctas.csv")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        csv.lines().collect::<Vec<_>>(),
        [
            "cycle,ctas_finished,ctas_finished_so_far,ctas_per_sm",
            "100,0,0,2 2",
            "200,1,1,2 1",
            "300,2,3,1 0",
        ]
    );
}

/// `--memory-stats` needs `--keep`, and its reading of a kept run gives sim.log's last
/// cache statistics and the mean issue-to-write-back of the kernel's global and local
/// loads (per PTX line of `gpgpu_inst_stats.txt`: executions, latencies summed), the
/// other lines (a shared load, a store, an add) left out: a run written by hand.
#[test]
fn memory_stats_read_a_kept_runs_caches_and_load_latencies() {
    let script = root().join("scripts/gpgpusim-crosscheck");
    let refused = without_gpgpusim(&script, &["--memory-stats"]);
    assert!(!refused.status.success());
    let dir = std::env::temp_dir().join(format!("srcsim-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Two kernels' worth of statistics in the log: the last ones count.
    let log = "L1D_total_cache_miss_rate = 0.9000\nL1D_total_cache_miss_rate = 0.2514\n\
               L1D_total_cache_accesses = 38022\nL1D_total_cache_reservation_fails = 18231\n\
               averagemflatency = 160 \nL2_total_cache_miss_rate = 0.0008\n";
    let ptx = "ld.param.u64 %rd1, [k_param_0];\nld.global.f32 %f1, [%rd1];\n\
               ld.shared.f32 %f2, [%r1];\nld.local.f32 %f3, [%rd2];\n\
               st.global.f32 [%rd1], %f1;\nadd.f32 %f4, %f1, %f3;\n";
    // Lines 2 (global: 10 executions, 2000 cycles) and 4 (local: 30, 3000) are loads past
    // shared memory: (2000 + 3000) / 40 = 125.
    let inst = "kernel line : count latency dram_traffic\n\
                kernel.1.sm_35.ptx 1 : 10 900 0\nkernel.1.sm_35.ptx 2 : 10 2000 0\n\
                kernel.1.sm_35.ptx 3 : 20 600 0\nkernel.1.sm_35.ptx 4 : 30 3000 0\n\
                kernel.1.sm_35.ptx 5 : 10 400 0\nkernel.1.sm_35.ptx 6 : 10 50 0\n";
    for (name, text) in [
        ("sim.log", log),
        ("kernel.1.sm_35.ptx", ptx),
        ("gpgpu_inst_stats.txt", inst),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let code = format!(
        "st = s.memory_stats(pathlib.Path({dir:?}))\n\
         print(','.join(st[k] for k in s.MEMORY_STATS))\n\
         print(s.memory_stats(pathlib.Path({dir:?}) / 'none'))\n",
        dir = dir.to_str().unwrap(),
    );
    let out = crosscheck_python(&script, &code);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .collect::<Vec<_>>(),
        ["0.2514,0.0008,38022,18231,160,125.0", "None"]
    );
}
