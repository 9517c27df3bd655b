//! Malformed PTX: an error with a sensible line, never a panic.

use super::*;

// ---------------------------------------------------------------------------------------
// Malformed input
// ---------------------------------------------------------------------------------------

/// Parses `src` expecting an error on `line` whose message contains `needle`.
fn expect_error(src: &str, line: u32, needle: &str) {
    match parse(src) {
        Ok(m) => panic!("parsed malformed PTX into {m:?}:\n{src}"),
        Err(e) => {
            assert_eq!(e.line, line, "wrong line for `{e}` in:\n{src}");
            assert!(
                e.message.contains(needle),
                "`{}` does not mention `{needle}`",
                e.message
            );
            // Display names the line.
            assert!(e.to_string().starts_with(&format!("PTX line {line}: ")));
        }
    }
}

#[test]
fn unterminated_body() {
    expect_error(
        ".version 7.8\n.entry k()\n{\n\tmov.u32 %r1, 1;\n\tret;\n",
        5,
        "`k` (PTX line 2) is not closed",
    );
    // Inside an open call sequence.
    expect_error(
        ".entry k()\n{\n{ // callseq\n ret;\n}\n",
        5,
        "is not closed",
    );
    // An instruction cut off at the end.
    expect_error(
        ".entry k()\n{\n\tadd.s32 %r1, %r2,",
        3,
        "expected an operand, found end of input",
    );
    expect_error(
        ".entry k()\n{\n\tld.global.f32 %f1, [%rd1+",
        3,
        "expected a number, found end of input",
    );
    expect_error(
        ".entry k()\n{\n\tmov.s32 %r1, -",
        3,
        "expected a number after `-`, found end of input",
    );
    expect_error(
        ".entry k(\n.param .u32 a,\n",
        2,
        "unterminated parameter list",
    );
    expect_error(".entry k()\n.maxntid 1, 1, 1\n", 2, "a function body");
    expect_error(".section .debug_info {\n.b8 1\n", 2, "unterminated `{`");
    expect_error(".global .align 4 .b8 t[2] = {1, 2}\n", 1, "missing `;`");
}

#[test]
fn branch_to_unknown_label() {
    let src = ".entry k()\n{\n.reg .pred %p<2>;\n@%p1 bra $L__BB0_1;\n\tbra.uni $L__BB0_9;\n$L__BB0_1:\n\tret;\n}\n";
    expect_error(src, 5, "$L__BB0_9");
    // A label of another function is unknown too.
    let src = ".func f()\n{\n$L__BB0_1:\nret;\n}\n.entry k()\n{\nbra.uni $L__BB0_1;\nret;\n}\n";
    expect_error(src, 8, "$L__BB0_1");
    // A branch without a target, or through an unknown table.
    expect_error(
        ".entry k()\n{\nret;\nbra.uni;\n}\n",
        4,
        "without a known target",
    );
    expect_error(
        ".entry k()\n{\nbrx.idx %r1, $L_brx_9;\n}\n",
        3,
        "without a known target",
    );
    expect_error(
        ".entry k()\n{\n$T: .branchtargets $L__BB0_5;\nbrx.idx %r1, $T;\n}\n",
        4,
        "$L__BB0_5",
    );
}

#[test]
fn garbage_characters_and_bad_tokens() {
    expect_error(
        ".entry k()\n{\n\tmov.u32 %r1, #5;\n}\n",
        3,
        "unexpected character '#'",
    );
    expect_error(
        ".version 7.8\n.target sm_90\n\u{e9}\n",
        3,
        "unexpected character 'é'",
    );
    expect_error(
        ".entry k()\n{\n\tmov.u32 %r1, 1;\n\t\u{0}\n}\n",
        4,
        "unexpected character",
    );
    expect_error(".file 1 \"abc\n", 1, "unterminated string");
    expect_error("/* never\nclosed\n", 1, "unterminated /* comment");
    expect_error("mov.u32 %r1, 1;\n", 1, "a directive");
    expect_error("\n\n}\n", 3, "a directive");
    expect_error(".file \"a.cl\"\n", 1, "malformed `.file`");
    expect_error(".file 1\n.version 7.8\n", 1, "malformed `.file`");
    expect_error(".address_size\n", 1, "an address size");
    // A missing `;` shows where the next token is.
    expect_error(
        ".entry k()\n{\n\tadd.s32 %r1, %r2, %r3\n\tret;\n}\n",
        4,
        "`,` or `;`",
    );
    expect_error(".entry k()\n{\n.loc 1 x 3\nret;\n}\n", 3, "a line");
    expect_error(
        ".entry k()\n{\n.loc 1 2 3, discriminator 4\nret;\n}\n",
        3,
        "unknown `.loc` attribute",
    );
    expect_error(
        ".entry k()\n{\n.loc 99999999999 2 3\nret;\n}\n",
        3,
        "out of range",
    );
    expect_error(".entry k()\n{\n.reg %r;\n}\n", 3, "a register type");
    expect_error(
        ".entry k()\n{\n.reg .b32 %r<x>;\n}\n",
        3,
        "a register count",
    );
    expect_error(".entry k()\n{\n@;\n}\n", 3, "a guard predicate");
    // A guard is a predicate register, not an opcode.
    expect_error(
        ".entry k()\n{\n$L1:\n@ bra $L1;\n}\n",
        4,
        "a guard predicate register",
    );
    expect_error(
        ".entry k()\n{\n$L1:\nret;\n$L1:\nbra $L1;\n}\n",
        5,
        "label `$L1` is defined twice",
    );
    expect_error(
        ".entry k()\n{\n%r1 = 2;\n}\n",
        3,
        "an instruction, label or directive",
    );
    expect_error(
        ".entry k()\n{\nld.global.f32 %f1, [%rd1+99999999999999999999];\n}\n",
        3,
        "bad address offset",
    );
    expect_error(
        ".entry k()\n{\nmov.u32 %r1, -%r2;\n}\n",
        3,
        "a number after `-`",
    );
    expect_error(".entry k()\n{\nmov.u32 %r1, ];\n}\n", 3, "an operand");
    expect_error(".entry 12()\n{\n}\n", 1, "a function name");
}

#[test]
fn deeply_nested_operands_are_an_error_not_a_stack_overflow() {
    // Closed or not, nesting deeper than PTX ever does is refused before the recursive
    // operand parser runs out of stack.
    for (open, close) in [("{", "}"), ("(", ")")] {
        for src in [
            format!(".entry k()\n{{\nmov.b32 {};\n}}\n", open.repeat(200_000)),
            format!(
                ".entry k()\n{{\nmov.b32 {}%r1{};\n}}\n",
                open.repeat(100),
                close.repeat(100)
            ),
        ] {
            let e = parse(&src).unwrap_err();
            assert_eq!(e.line, 3, "{e}");
            assert!(e.message.contains("nested too deeply"), "{e}");
        }
    }
    let src = format!(
        ".entry k()\n{{\nsetp.eq.s32 %p0{}, 1, 2;\n}}\n",
        "|%p1".repeat(200_000)
    );
    let e = parse(&src).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("nested too deeply"), "{e}");
    // `[` does not nest.
    let src = format!(".entry k()\n{{\nld.u32 %r1, {};\n}}\n", "[".repeat(200_000));
    assert_eq!(parse(&src).unwrap_err().line, 3);
    // A few levels are fine (PTX uses one).
    let src = ".entry k()\n{\nfoo.b32 {{(%r1, {%r2|%p1})}}, 1;\nret;\n}\n";
    let m = parse(src).unwrap();
    assert_eq!(
        m.functions[0].blocks[0].instrs[0].operands[0].registers(),
        ["%r1", "%r2", "%p1"]
    );
    // Deep braces at statement level are only a depth count.
    let src = format!(
        ".entry k()\n{{\n{}ret;{}\n}}\n",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    assert_eq!(parse(&src).unwrap().functions[0].blocks.len(), 1);
}

#[test]
fn empty_and_trivial_input() {
    for src in [
        "",
        "\n\n",
        "// only a comment",
        "/* block */",
        ";;;",
        "\t \r\n",
    ] {
        let m = parse(src).unwrap();
        assert!(m.functions.is_empty());
        assert!(m.files.is_empty());
    }
    // A body with nothing in it.
    let m = parse(".entry k()\n{\n}\n").unwrap();
    assert!(m.functions[0].has_body);
    assert!(m.functions[0].blocks.is_empty());
    analyze_module(&m, &gtx480(), "empty");
}

#[test]
fn every_truncation_of_the_module_is_ok_or_an_error() {
    let arch = gtx480();
    let mut boundaries: Vec<usize> = (0..=MODULE.len())
        .filter(|&i| MODULE.is_char_boundary(i))
        .collect();
    boundaries.dedup();
    let mut ok = 0;
    for i in boundaries {
        let src = &MODULE[..i];
        match parse(src) {
            Ok(m) => {
                ok += 1;
                analyze_module(&m, &arch, "truncated");
            }
            Err(e) => {
                let lines = src.lines().count().max(1) as u32;
                assert!(
                    (1..=lines).contains(&e.line),
                    "line {} outside 1..={lines} for a prefix of {i} bytes: {e}",
                    e.line
                );
            }
        }
    }
    assert!(ok > 0);
}
