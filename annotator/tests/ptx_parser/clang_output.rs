//! What clang 19 emits for sm_20, sm_80 and sm_90, checked against a line scanner.

use super::*;

// ---------------------------------------------------------------------------------------
// What clang 19 emits
// ---------------------------------------------------------------------------------------

const KERNEL: &str = r#"#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void mix(__global const float4 *in, __global float *out, __global double *d,
                  __global int *counter, int n)
{
    __local float tile[64];
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    float4 v = in[gid];
    float acc = 0.0f;
    for (int i = 0; i < n; i++) {
        acc += v.x * (float)i + v.y;
    }
    if (acc > 1.0f) {
        acc = sqrt(acc);
    } else {
        acc = native_sin(acc) + v.z;
    }
    tile[lid & 63] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += tile[(lid + 1) & 63];
    double x = d[gid];
    x = x * x + sqrt((double)acc) / 3.0;
    d[gid] = x;
    if (acc > v.w)
        atomic_add(counter, 1);
    out[gid] = acc;
}
"#;

/// `src` without its `/* ... */` comments (their line breaks kept).
fn strip_block_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("*/")
            .map_or(rest.len(), |e| start + e + 2);
        out.extend(rest[start..end].chars().filter(|&c| c == '\n'));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The opcodes of every instruction inside a function body, found line by line without
/// the parser: a statement that does not end with `;` on its line (a multi-line `call`)
/// runs on to the line that does.
fn scan_instructions(ptx: &str) -> Vec<String> {
    let ptx = strip_block_comments(ptx);
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut header = false; // after `.entry` / `.func`, before its `{` or `;`
    let mut body_depth: Option<i32> = None;
    let mut in_statement = false;
    for raw in ptx.lines() {
        let line = raw.split("//").next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let opens = line.matches('{').count() as i32;
        let closes = line.matches('}').count() as i32;
        if body_depth.is_none() {
            if depth == 0 && (line.contains(".entry") || line.contains(".func")) {
                header = true;
            }
            if header && depth == 0 && line == "{" {
                body_depth = Some(1);
                header = false;
                depth = 1;
                continue;
            }
            if header && depth == 0 && line.ends_with(';') && !line.starts_with(".param") {
                header = false; // a declaration
            }
            depth += opens - closes;
            continue;
        }
        depth += opens - closes;
        if depth == 0 {
            body_depth = None;
            continue;
        }
        if in_statement {
            in_statement = !line.ends_with(';');
            continue;
        }
        let first = line.split_whitespace().next().unwrap();
        if line.starts_with('.')
            || first.ends_with(':')
            || line.starts_with('{')
            || line.starts_with('}')
        {
            continue;
        }
        // `@%p1 bra ...`: the opcode follows the guard.
        let mut words = line.split_whitespace();
        let mut op = words.next().unwrap();
        if op.starts_with('@') {
            op = words.next().unwrap();
        }
        out.push(op.trim_end_matches(';').to_string());
        in_statement = !line.ends_with(';');
    }
    out
}

fn count_ret_lines(ptx: &str) -> usize {
    ptx.lines()
        .map(|l| l.split("//").next().unwrap().trim())
        .filter(|l| {
            let l = match l.strip_prefix('@') {
                Some(rest) => rest
                    .split_once(char::is_whitespace)
                    .map_or("", |(_, r)| r.trim()),
                None => l,
            };
            l == "ret;"
        })
        .count()
}

#[test]
fn clang_output_parses_for_sm_20_sm_80_and_sm_90() {
    if !std::path::Path::new("/usr/lib/llvm-19/bin/clang").exists() {
        eprintln!("note: /usr/lib/llvm-19/bin/clang is absent; skipping the clang test");
        return;
    }
    let compiler = match Compiler::locate() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("note: {e}; skipping the clang test");
            return;
        }
    };
    let dir = std::env::temp_dir().join(format!("srcsim-ptx-parser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mix.cl");
    std::fs::write(&path, KERNEL).unwrap();
    let arch = gtx480();
    for target in ["sm_20", "sm_80", "sm_90"] {
        let ptx = compiler
            .compile(&path, &BuildOptions::default(), target)
            .unwrap_or_else(|e| panic!("{target}: {e}"))
            .ptx;
        let m = parse(&ptx).unwrap_or_else(|e| panic!("{target}: {e}\n{ptx}"));
        assert!(
            m.target.iter().any(|t| t == target),
            "{target}: {:?}",
            m.target
        );
        assert_eq!(m.kernels().count(), 1, "{target}");
        let k = m.function("mix").unwrap();
        assert_eq!(k.kind, FunctionKind::Kernel);
        assert_eq!(k.params.len(), 5);
        assert!(
            m.file(1).unwrap().ends_with("mix.cl"),
            "{target}: {:?}",
            m.files
        );

        // Every instruction line is one parsed instruction, in order.
        let scanned = scan_instructions(&ptx);
        let parsed: Vec<String> = m
            .functions
            .iter()
            .flat_map(|f| instrs(f).map(|i| i.opcode.clone()))
            .collect();
        assert_eq!(parsed.len(), scanned.len(), "{target}");
        assert_eq!(parsed, scanned, "{target}");

        // Every `ret` is found, and every branch's target is a block of its function.
        let rets = m
            .functions
            .iter()
            .flat_map(instrs)
            .filter(|i| i.base() == "ret")
            .count();
        assert_eq!(rets, count_ret_lines(&ptx), "{target}");
        assert!(rets >= 1);
        for f in m.functions.iter().filter(|f| f.has_body) {
            for (b, block) in f.blocks.iter().enumerate() {
                for &s in &block.successors {
                    assert!(s < f.blocks.len(), "{target}: B{b} -> B{s}");
                }
                for i in block.instrs.iter().filter(|i| i.base() == "bra") {
                    let t = i.operands[0].symbol().unwrap();
                    let target_block = f
                        .blocks
                        .iter()
                        .position(|b| b.label.as_deref() == Some(t))
                        .unwrap_or_else(|| panic!("{target}: no block `{t}`"));
                    assert!(block.successors.contains(&target_block));
                }
            }
        }

        // The constructs of the kernel are there.
        let ops: Vec<&Instruction> = instrs(k).collect();
        let has = |p: &str| ops.iter().any(|i| i.opcode.starts_with(p));
        assert!(has("ld.global.v4.f32"), "{target}: no float4 load");
        assert!(has("atom.global.add"), "{target}: no atomic");
        assert!(
            has("bar.sync") || has("barrier.sync"),
            "{target}: no barrier"
        );
        assert!(has("st.shared") && has("ld.shared"), "{target}: no __local");
        assert!(
            has("sqrt.rn.f32") || has("sqrt.approx"),
            "{target}: no sqrt"
        );
        assert!(has("sqrt.rn.f64"), "{target}: no double sqrt");
        assert!(has("sin.approx.f32"), "{target}: no native_sin");
        assert!(ops.iter().any(|i| i.modifiers().any(|m| m == "f64")));
        assert!(ops.iter().any(|i| i.guard.is_some()));
        // Every instruction has a location, and the loop shows as a natural loop.
        assert!(ops.iter().all(|i| i.loc.is_some()), "{target}");
        let a = analyze_module(&m, &arch, "mix.cl");
        assert!(!a.kernels[0].loops.is_empty(), "{target}: no loop");
        assert!(a.warnings.is_empty(), "{target}: {:?}", a.warnings);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scanner_agrees_on_the_hand_written_module() {
    // The independent scan of the test above, checked on the module whose parse is known.
    let m: Module = parse(MODULE).unwrap();
    let parsed: Vec<String> = m
        .functions
        .iter()
        .flat_map(|f| instrs(f).map(|i| i.opcode.clone()))
        .collect();
    assert_eq!(parsed, scan_instructions(MODULE));
    assert_eq!(count_ret_lines(MODULE), 3);
}
