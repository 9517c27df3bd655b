//! The libclang front end: functions of the kernel file as statement trees with exact
//! extents; macros sit at their invocation; absent `for` parts are placeholders; errors
//! carry clang's diagnostics.

use std::path::{Path, PathBuf};

use annotator::compile::{BuildOptions, Compiler};
use annotator::source::{parse, AstNode, NodeKind, SourceFile};

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
