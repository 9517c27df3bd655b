//! A stable-Rust stand-in for the cargo-fuzz target `annotator/fuzz`: real PTX (the fuzz
//! seeds: a module with every construct and two kernels as clang 19 emits them) mutated at
//! random, random bytes, and random sequences of PTX tokens go through the parser and,
//! when they parse, the static analysis. Either may reject the input, neither may panic.

use std::sync::OnceLock;

use annotator::analysis::blocks::analyze_module;
use annotator::front::ptx::{parse, Module};
use pipeline_model::Architecture;
use proptest::prelude::*;
use proptest::sample::Index;

const SEEDS: &[(&str, &str)] = &[
    (
        "constructs.ptx",
        include_str!("../fuzz/seeds/constructs.ptx"),
    ),
    (
        "clang_sm90_mix.ptx",
        include_str!("../fuzz/seeds/clang_sm90_mix.ptx"),
    ),
    (
        "clang_sm90_call.ptx",
        include_str!("../fuzz/seeds/clang_sm90_call.ptx"),
    ),
];

/// What the tokenizer of the mutations sees as punctuation (the lexer's, and a few more).
const PUNCT: &[u8] = b";,{}[]()@!+-<>|:=.%$\"/*#";

fn arch() -> &'static Architecture {
    static ARCH: OnceLock<Architecture> = OnceLock::new();
    ARCH.get_or_init(|| Architecture::load("gtx480").unwrap())
}

/// Parses `src` and analyzes what parses; a panic in either fails the test. Whether it
/// parsed.
fn check(src: &str) -> bool {
    match parse(src) {
        Ok(module) => {
            check_module(&module);
            analyze_module(&module, arch(), "fuzz");
            true
        }
        Err(_) => false,
    }
}

/// What any parsed module promises: successors name blocks of the function, only
/// functions with a body have blocks.
fn check_module(m: &Module) {
    for f in &m.functions {
        assert!(f.has_body || f.blocks.is_empty(), "{}", f.name);
        for (b, block) in f.blocks.iter().enumerate() {
            for &s in &block.successors {
                assert!(s < f.blocks.len(), "{}: B{b} -> B{s}", f.name);
            }
        }
    }
}

/// The byte spans of the tokens of `text`: runs of name characters, or one other
/// non-space byte.
fn token_spans(text: &[u8]) -> Vec<(usize, usize)> {
    let name = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%' | b'.');
    let mut spans = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_whitespace() {
            i += 1;
        } else if name(text[i]) {
            let start = i;
            while i < text.len() && name(text[i]) {
                i += 1;
            }
            spans.push((start, i));
        } else {
            spans.push((i, i + 1));
            i += 1;
        }
    }
    spans
}

#[derive(Debug, Clone)]
enum Mutation {
    DeleteToken(Index),
    DuplicateToken(Index),
    SwapTokens(Index, Index),
    DeleteBytes(Index, usize),
    DuplicateBytes(Index, usize),
    ReplaceByte(Index, u8),
    InsertPunct(Index, Index),
    Truncate(Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => any::<Index>().prop_map(Mutation::DeleteToken),
        3 => any::<Index>().prop_map(Mutation::DuplicateToken),
        3 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapTokens(a, b)),
        2 => (any::<Index>(), 1..64usize).prop_map(|(a, n)| Mutation::DeleteBytes(a, n)),
        2 => (any::<Index>(), 1..64usize).prop_map(|(a, n)| Mutation::DuplicateBytes(a, n)),
        2 => (any::<Index>(), any::<u8>()).prop_map(|(a, b)| Mutation::ReplaceByte(a, b)),
        3 => (any::<Index>(), any::<Index>()).prop_map(|(a, p)| Mutation::InsertPunct(a, p)),
        1 => any::<Index>().prop_map(Mutation::Truncate),
    ]
}

fn apply(text: &mut Vec<u8>, m: &Mutation) {
    if text.is_empty() {
        return;
    }
    let len = text.len();
    let spans = token_spans(text);
    match *m {
        Mutation::DeleteToken(i) if !spans.is_empty() => {
            let (a, b) = spans[i.index(spans.len())];
            text.drain(a..b);
        }
        Mutation::DuplicateToken(i) if !spans.is_empty() => {
            let (a, b) = spans[i.index(spans.len())];
            let token = text[a..b].to_vec();
            text.splice(b..b, token.into_iter().chain([b' ']));
        }
        Mutation::SwapTokens(i, j) if !spans.is_empty() => {
            let (x, y) = (spans[i.index(spans.len())], spans[j.index(spans.len())]);
            let (first, second) = if x.0 <= y.0 { (x, y) } else { (y, x) };
            if first != second {
                let a = text[first.0..first.1].to_vec();
                let b = text[second.0..second.1].to_vec();
                text.splice(second.0..second.1, a);
                text.splice(first.0..first.1, b);
            }
        }
        Mutation::DeleteBytes(at, n) => {
            let a = at.index(len);
            text.drain(a..(a + n).min(len));
        }
        Mutation::DuplicateBytes(at, n) => {
            let a = at.index(len);
            let b = (a + n).min(len);
            let bytes = text[a..b].to_vec();
            text.splice(b..b, bytes);
        }
        Mutation::ReplaceByte(at, byte) => text[at.index(len)] = byte,
        Mutation::InsertPunct(at, p) => {
            let c = PUNCT[p.index(PUNCT.len())];
            text.insert(at.index(len + 1), c);
        }
        Mutation::Truncate(at) => text.truncate(at.index(len + 1)),
        _ => {}
    }
}

/// Tokens of PTX, so that random sequences reach the block builder.
const VOCABULARY: &[&str] = &[
    ".visible",
    ".entry",
    ".func",
    ".extern",
    "k",
    "f",
    "(",
    ")",
    "{",
    "}",
    ";",
    ",",
    ":",
    ".param",
    ".b32",
    ".u64",
    "k_param_0",
    "(.param .b32 func_retval0)",
    ".reg",
    ".pred",
    "%p<3>",
    "%r<9>",
    "%p1",
    "%p2",
    "%r1",
    "%r2",
    "%SP",
    "%tid.x",
    "@",
    "@!%p1",
    "!",
    "bra",
    "bra.uni",
    "brx.idx",
    "ret",
    "exit",
    "trap",
    "call.uni",
    "add.s32",
    "ld.global.v4.f32",
    "st.global.f32",
    "setp.lt.s32",
    "mov.b64",
    "atom.global.add.u32",
    "$L__BB0_1",
    "$L__BB0_2",
    "$L__BB0_1:",
    "$L__BB0_2:",
    "$L__tmp0:",
    "$T:",
    "$T",
    ".branchtargets",
    "[%rd1+-4]",
    "[param0+0]",
    "{%f1, %f2}",
    "(retval0)",
    "%p1|%p2",
    "1",
    "-1",
    "0f3F800000",
    "0x10",
    ".loc",
    "1 5 3",
    "inlined_at",
    "function_name",
    ".file",
    "1 \"a.cl\"",
    ".section",
    ".debug_abbrev",
    ".b8",
    ".local",
    ".shared",
    "__local_depot0[40]",
    ".pragma",
    "\"nounroll\"",
    ".maxntid",
    ".reqntid",
    "256, 1, 1",
    "\n",
    "\n",
    "\n",
    "//",
    "/*",
    "*/",
];

fn ptx_tokens() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCABULARY), 0..120).prop_map(|t| t.join(" "))
}

#[test]
fn seeds_parse_and_analyze() {
    for (name, src) in SEEDS {
        let m = parse(src).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(m.kernels().count() >= 1, "{name}");
        check_module(&m);
        let a = analyze_module(&m, arch(), name);
        assert!(a.warnings.is_empty(), "{name}: {:?}", a.warnings);
    }
}

#[test]
fn mutations_of_every_seed_never_panic_the_parser() {
    // Every 7th token of each seed deleted, one at a time: some of these still parse (a
    // comment word, a `.loc` column), most do not.
    let (mut ok, mut err) = (0, 0);
    for (_, src) in SEEDS {
        let spans = token_spans(src.as_bytes());
        for &(a, b) in spans.iter().step_by(7) {
            let mut text = src.as_bytes().to_vec();
            text.drain(a..b);
            if check(&String::from_utf8_lossy(&text)) {
                ok += 1;
            } else {
                err += 1;
            }
        }
    }
    assert!(ok > 0 && err > 0, "{ok} parsed, {err} rejected");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn mutated_ptx_is_ok_or_an_error(
        seed in 0..SEEDS.len(),
        mutations in prop::collection::vec(mutation(), 1..8),
    ) {
        let mut text = SEEDS[seed].1.as_bytes().to_vec();
        for m in &mutations {
            apply(&mut text, m);
        }
        check(&String::from_utf8_lossy(&text));
    }

    #[test]
    fn random_bytes_are_ok_or_an_error(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_ptx_tokens_are_ok_or_an_error(src in ptx_tokens()) {
        check(&src);
        // The same tokens as the body of a kernel.
        check(&format!(".visible .entry k()\n{{\n.reg .pred %p<3>;\n{src}\nret;\n}}\n"));
    }
}
