//! The libclang front end: functions of the kernel file as statement trees with exact
//! extents; macros sit at their invocation; absent `for` parts are placeholders; errors
//! carry clang's diagnostics.

use std::path::{Path, PathBuf};

use annotator::front::compile::{BuildOptions, Compiler};
use annotator::front::source::{parse, AstNode, NodeKind, SourceFile};
use annotator::ids::SourceBlockId;

const SRC: &str = r#"#define SQ(x) ((x) * (x))
float helper(float a) { return a > 0.0f ? SQ(a) : -a; }
__kernel void k(__global float *out, int n)
{
    int i = get_global_id(0);
    for (;;) { if (i > n) break; i++; }
    for (int j = 0; j < n && i; ) j++;
    switch (i) { case 1: out[0] = 1; break; default: out[0] = helper(2.0f); }
    while (i--) continue;
    do { i++; } while (i < 3);
#ifdef EXTRA
    out[1] = EXTRA;
#endif
}
"#;

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("srcsim-source-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn parse_with(path: &Path, options: &str) -> SourceFile {
    parse(
        path,
        &BuildOptions::parse(options),
        &Compiler::locate().unwrap(),
    )
    .unwrap()
}

fn kinds(n: &AstNode) -> Vec<NodeKind> {
    n.children.iter().map(|c| c.kind).collect()
}

#[test]
fn statements_come_with_kinds_and_extents() {
    let f = parse_with(&write("t.cl", SRC), "");
    let names: Vec<&str> = f.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["helper", "k"]);
    let k = f.function("k").unwrap();
    use NodeKind::*;
    assert_eq!(kinds(&k.body), [Decl, For, For, Switch, While, Do]);
    assert_eq!(k.body.extent.start.line, 4);
    assert_eq!(k.body.extent.end.line, 14);
    assert_eq!(
        f.text_of(&k.body.children[0].extent),
        "int i = get_global_id(0);"
    );

    // for (;;): three placeholders at the header's `;`, `;` and `)`, then the body.
    let forever = &k.body.children[1];
    assert_eq!(kinds(forever), [Null, Null, Null, Compound]);
    let cols: Vec<u32> = forever.children[..3]
        .iter()
        .map(|c| c.extent.start.col)
        .collect();
    assert_eq!(cols, [10, 11, 12]);
    // for (int j = 0; j < n && i; ) j++;: init, condition (short-circuit), no increment.
    let second = &k.body.children[2];
    assert_eq!(kinds(second), [Decl, LogicalAnd, Null, Expr]);
    assert_eq!(f.text_of(&second.children[3].extent), "j++");

    // switch: the condition, then the body with its labels.
    let sw = &k.body.children[3];
    assert_eq!(kinds(&sw.children[1]), [Case, Break, Default]);
    let call = find(&sw.children[1], Call).unwrap();
    assert_eq!(call.spelling, "helper");
    assert_eq!(f.text_of(&call.extent), "helper(2.0f)");

    assert_eq!(kinds(&k.body.children[4]), [Expr, Continue]);
    assert_eq!(kinds(&k.body.children[5]), [Compound, Expr]);

    // The ternary in the helper; the macro's expansion sits at the invocation.
    let h = f.function("helper").unwrap();
    let cond = find(&h.body, Conditional).unwrap();
    assert_eq!(f.text_of(&cond.extent), "a > 0.0f ? SQ(a) : -a");
    assert_eq!(f.text_of(&cond.children[1].extent), "SQ(a)");
}

fn find(n: &AstNode, kind: NodeKind) -> Option<&AstNode> {
    if n.kind == kind {
        return Some(n);
    }
    n.children.iter().find_map(|c| find(c, kind))
}

#[test]
fn build_options_reach_the_parser() {
    let path = write("t_opts.cl", SRC);
    let without = parse_with(&path, "");
    let with = parse_with(&path, "-DEXTRA=2.0f");
    let count = |f: &SourceFile| f.function("k").unwrap().body.children.len();
    assert_eq!(count(&with), count(&without) + 1);
}

#[test]
fn every_example_kernel_parses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels");
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "cl") {
            let f = parse_with(&p, "");
            assert!(!f.functions.is_empty(), "{}", p.display());
            for func in &f.functions {
                assert_eq!(func.body.kind, NodeKind::Compound);
                assert!(f.text_of(&func.body.extent).starts_with('{'));
                assert!(f.text_of(&func.body.extent).ends_with('}'));
            }
        }
    }
}

#[test]
fn errors_carry_the_diagnostics() {
    let p = write(
        "bad.cl",
        "__kernel void k(__global int *a)\n{\n    a[0] = nope;\n}\n",
    );
    let err = parse(&p, &BuildOptions::default(), &Compiler::locate().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("bad.cl:3:12: error: use of undeclared identifier 'nope'"),
        "{err}"
    );
}

mod cfg {
    use super::*;
    use annotator::front::source::cfg::{build, BlockRole, Insertion, SourceCfg};

    const KERNEL: &str = r#"__kernel void k(__global float *out, int n)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < n; j++) {
        if (j == i)
            continue;
        acc += j > 3 ? 1.0f : 2.0f;
        if (acc > 100.0f && i)
            break;
    }
    if (i >= n)
        return;
    out[i] = acc;
}
"#;

    fn cfg_of(src: &str, name: &str) -> (SourceFile, SourceCfg) {
        let path = write(&format!("{name}.cl"), src);
        let f = parse_with(&path, "");
        let cfg = build(&f, f.function(name).unwrap()).unwrap();
        (f, cfg)
    }

    /// What ends an insertion before a directive on `line`.
    fn directive_break(directive: Option<u32>) -> String {
        directive.map_or_else(String::new, |line| format!("\n#line {line}\n"))
    }

    /// Applies every insertion with a marker `@<id>` so that the instrumented text shows
    /// where each block's call would run.
    fn instrument(f: &SourceFile, cfg: &SourceCfg) -> String {
        let mut edits: Vec<(u32, u32, String, String)> = Vec::new();
        for b in &cfg.blocks {
            let m = format!("@{}", b.id);
            match b.insertion {
                Insertion::Before { offset, directive } => edits.push((
                    offset,
                    offset,
                    format!("{m};{}", directive_break(directive)),
                    String::new(),
                )),
                Insertion::WrapStatement {
                    start,
                    end,
                    directive,
                } => edits.push((
                    start,
                    end,
                    format!("{{{m};{}", directive_break(directive)),
                    "}".into(),
                )),
                Insertion::WrapExpression { start, end } => {
                    edits.push((start, end, format!("({m},("), "))".into()))
                }
                Insertion::EmptyCondition { offset } => {
                    edits.push((offset, offset, format!("({m},1)"), String::new()))
                }
                Insertion::EmptyIncrement { offset } => {
                    edits.push((offset, offset, m.clone(), String::new()))
                }
                Insertion::Nothing => {}
            }
        }
        // Insert at the ends right to left, then the starts, so offsets stay valid.
        let mut text = f.text.clone();
        let mut points: Vec<(u32, bool, String)> = Vec::new();
        for (start, end, open, close) in edits {
            if !close.is_empty() {
                points.push((end, false, close));
            }
            points.push((start, true, open));
        }
        points.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (at, _, s) in points {
            text.insert_str(at as usize, &s);
        }
        text
    }

    #[test]
    fn blocks_edges_and_insertion_points() {
        let (f, cfg) = cfg_of(KERNEL, "k");
        let annotated = instrument(&f, &cfg);
        // Block 5 joins after the first `if`; the ternary's arms are 8 and 9 and its join
        // 7 carries on with the next statement; 10 is the right operand of `&&`.
        let expected = r#"__kernel void k(__global float *out, int n)
{@0;
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; (@1,(j < n)); (@2,(j++))) {@4;
        if (j == i)
            {@6;continue;}
        @5;acc += j > 3 ? (@8,(1.0f)) : (@9,(2.0f));
        @7;if (acc > 100.0f && (@10,(i)))
            {@13;break;}
    }
    @3;if (i >= n)
        {@15;return;}
    @14;out[i] = acc;
}
"#;
        assert_eq!(annotated, expected);
        let roles: Vec<BlockRole> = cfg.blocks.iter().map(|b| b.role).collect();
        assert_eq!(roles[0], BlockRole::Entry);
        assert_eq!(roles[1], BlockRole::LoopCondition);
        assert_eq!(roles[2], BlockRole::LoopIncrement);
        // The entry dominates every block with code; the condition dominates the body and
        // the exit; the body dominates the increment, the code after `continue` does not.
        for b in 1..cfg.blocks.len() {
            if cfg.dominates(0, b) {
                continue;
            }
            assert!(
                cfg.blocks[b].regions.is_empty(),
                "B{b} unreachable with code"
            );
        }
        assert!(cfg.dominates(1, 4) && cfg.dominates(1, 3));
        assert!(cfg.dominates(4, 2));
        assert!(
            !cfg.dominates(5, 2),
            "continue reaches the increment without the rest"
        );
        // Two exits: the early return and the end of the body.
        assert_eq!(cfg.exits.len(), 2);
        // Edges of the loop: condition -> body, condition -> exit; increment -> condition.
        assert!(cfg.blocks[1].successors.contains(&4) && cfg.blocks[1].successors.contains(&3));
        assert_eq!(cfg.blocks[2].successors, [1]);
        // continue -> increment; break -> loop exit.
        assert_eq!(cfg.blocks[6].successors, [2]);
        assert_eq!(cfg.blocks[13].successors, [3]);
    }

    /// A loop behind `#pragma unroll` or `__attribute__((opencl_unroll_hint(N)))` is an
    /// attributed statement wrapping the loop: the CFG has the loop, and code inserted
    /// before the statement goes before the attribute, on a line of its own before a
    /// directive (which `#line` gives its number back).
    #[test]
    fn loops_behind_unroll_pragmas_and_attributes_are_loops() {
        let src = r#"__kernel void u(__global float *out, int n)
{
    float acc = 0.0f;
    if (n > 3)
        acc = 1.0f;
    #pragma unroll 4
    for (int j = 0; j < n; j++)
        acc += j;
    for (int k = 0; k < 2; k++)
        __attribute__((opencl_unroll_hint(2)))
        while (n-- > 0)
            acc *= 2.0f;
    for (int k = 0; k < 2; k++)
        #pragma nounroll
        do acc -= 1.0f; while (acc > 9.0f);
    out[0] = acc;
}
"#;
        let (f, cfg) = cfg_of(src, "u");
        use NodeKind::*;
        let body = &f.function("u").unwrap().body;
        assert_eq!(kinds(body), [Decl, If, Attributed, For, For, Expr]);
        assert_eq!(kinds(&body.children[2]), [For]);
        assert_eq!(
            f.text_of(&body.children[2].extent).lines().next(),
            Some("#pragma unroll 4")
        );
        assert_eq!(kinds(&body.children[3].children[3]), [While]);
        assert_eq!(kinds(&body.children[4].children[3]), [Do]);
        let expected = r#"__kernel void u(__global float *out, int n)
{@0;
    float acc = 0.0f;
    if (n > 3)
        {@2;acc = 1.0f;}
    @1;
#line 6
#pragma unroll 4
    for (int j = 0; (@3,(j < n)); (@4,(j++)))
        {@6;acc += j;}
    @5;for (int k = 0; (@7,(k < 2)); (@8,(k++)))
        {@10;__attribute__((opencl_unroll_hint(2)))
        while ((@11,(n-- > 0)))
            {@13;acc *= 2.0f;}}
    @9;for (int k = 0; (@14,(k < 2)); (@15,(k++)))
        {@17;
#line 14
#pragma nounroll
        do {@18;acc -= 1.0f;} while ((@19,(acc > 9.0f)));}
    @16;out[0] = acc;
}
"#;
        assert_eq!(instrument(&f, &cfg), expected);
        // The loops: condition -> body -> increment -> condition, and out.
        assert_eq!(cfg.blocks[3].successors, [6, 5]);
        assert_eq!(cfg.blocks[6].successors, [4]);
        assert_eq!(cfg.blocks[4].successors, [3]);
        assert_eq!(cfg.blocks[11].successors, [13, 12]);
        assert_eq!(cfg.blocks[13].successors, [11]);
        assert_eq!(cfg.blocks[19].successors, [18, 20]);
        // The statement after the loops runs whenever the kernel does; the loop bodies not.
        assert!(cfg.post_dominates(16, 0) && cfg.post_dominates(5, 1));
        assert!(!cfg.post_dominates(6, 3) && !cfg.post_dominates(13, 10));
    }

    #[test]
    fn positions_map_to_the_innermost_block() {
        let (f, cfg) = cfg_of(KERNEL, "k");
        let pos = |needle: &str| {
            let off = f.text.find(needle).unwrap();
            let line = f.text[..off].matches('\n').count() as u32 + 1;
            let col = (off - f.text[..off].rfind('\n').map_or(0, |p| p + 1)) as u32 + 1;
            (line, col)
        };
        let at = |needle: &str| {
            let (l, c) = pos(needle);
            cfg.block_at(l, c).map(|b| b.index())
        };
        assert_eq!(at("int i"), Some(0));
        assert_eq!(at("j < n"), Some(1));
        assert_eq!(at("j++"), Some(2));
        assert_eq!(at("1.0f"), Some(8));
        assert_eq!(at("2.0f"), Some(9));
        assert_eq!(at("acc +="), Some(5));
        let (l, c) = pos("&& i)");
        assert_eq!(
            cfg.block_at(l, c + 3),
            Some(SourceBlockId(10)),
            "the right operand of &&"
        );
        assert_eq!(cfg.block_at(l, c), Some(SourceBlockId(7)), "the && itself");
        assert_eq!(at("j == i"), Some(4));
        assert_eq!(at("out[i] = acc"), Some(14));
    }

    #[test]
    fn switch_do_while_and_empty_for_parts() {
        let src = r#"__kernel void s(__global int *out, int n)
{
    int x = 0;
    switch (n) {
    case 0:
    case 1: x = 1;
    case 2: x += 2; break;
    default: x = 3;
    }
    do { x--; } while (x > 0);
    for (;;) { if (x++ > 9) break; }
    out[0] = x;
}
"#;
        let (f, cfg) = cfg_of(src, "s");
        let annotated = instrument(&f, &cfg);
        assert!(annotated.contains("case 0:@"), "{annotated}");
        assert!(annotated.contains("default:@"), "{annotated}");
        assert!(annotated.contains("do {@"), "{annotated}");
        assert!(annotated.contains("while ((@"), "{annotated}");
        assert!(annotated.contains("for (;(@"), "{annotated}");
        assert!(annotated.contains(",1);@"), "{annotated}");
        let cases: Vec<_> = cfg
            .blocks
            .iter()
            .filter(|b| b.role == BlockRole::CaseLabel)
            .collect();
        assert_eq!(cases.len(), 4);
        // case 0 falls through into case 1, which falls through into case 2.
        assert!(cases[0].successors.contains(&cases[1].id));
        assert_eq!(cfg.exits.len(), 1);
    }

    #[test]
    fn goto_is_reported_with_its_line() {
        let src = "__kernel void g(__global int *o)\n{\n    goto end;\nend:\n    o[0] = 1;\n}\n";
        let path = write("g.cl", src);
        let f = parse_with(&path, "");
        let err = build(&f, f.function("g").unwrap()).unwrap_err().to_string();
        assert!(
            err.ends_with("g.cl:3:5: `goto` and labels is not supported by the annotator"),
            "{err}"
        );
    }
}
