//! The hand-written module's instructions: guards, vectors, offsets, call sequences,
//! `.loc` with `inlined_at`, jump tables, immediates and addresses.

use super::*;

#[test]
fn guards_predicate_pairs_vectors_and_offsets() {
    let m = parse(MODULE).unwrap();
    let f = m.function("first").unwrap();

    let setp = find(f, "setp.lt.s32");
    assert_eq!(
        setp.operands,
        [
            Operand::Pair(Box::new(reg("%p1")), Box::new(reg("%p2"))),
            reg("%r2"),
            reg("%r1")
        ]
    );
    assert_eq!(setp.operands[0].registers(), ["%p1", "%p2"]);
    assert_eq!(setp.to_string(), "setp.lt.s32 %p1|%p2, %r2, %r1");

    let negated = f.blocks[0].instrs.last().unwrap();
    let guard = negated.guard.as_ref().unwrap();
    assert_eq!((guard.reg.as_str(), guard.negated), ("%p1", true));
    assert_eq!(negated.base(), "bra");
    assert_eq!(negated.operands, [sym("$L__BB1_2")]);
    assert!(negated.ends_block());
    assert!(!negated.is_unconditional_transfer());
    assert_eq!(negated.to_string(), "@!%p1 bra $L__BB1_2");
    assert_eq!(negated.loc, Some(loc(1, 6, 3)));

    let plain = &f.blocks[3].instrs[0];
    let guard = plain.guard.as_ref().unwrap();
    assert_eq!((guard.reg.as_str(), guard.negated), ("%p2", false));

    let v4 = find(f, "ld.global.v4.f32");
    assert_eq!(
        v4.operands,
        [
            Operand::Vector(vec![reg("%f1"), reg("%f2"), reg("%f3"), reg("%f4")]),
            addr(reg("%rd1"), 16)
        ]
    );
    assert_eq!(v4.base(), "ld");
    assert_eq!(v4.modifiers().collect::<Vec<_>>(), ["global", "v4", "f32"]);
    assert_eq!(v4.loc, Some(loc(1, 7, 5)));
    assert_eq!(
        v4.ptx_line,
        line_of(MODULE, "{%f1, %f2, %f3, %f4}, [%rd1+16];")
    );

    let st = find(f, "st.global.v2.f32");
    assert_eq!(
        st.operands,
        [
            addr(reg("%rd1"), -4),
            Operand::Vector(vec![reg("%f1"), reg("%f2")])
        ]
    );
    assert_eq!(st.to_string(), "st.global.v2.f32 [%rd1+-4], {%f1, %f2}");

    let unpack = find(f, "mov.b64");
    assert_eq!(
        unpack.operands,
        [Operand::Vector(vec![reg("%r3"), reg("%r4")]), reg("%rd1")]
    );
    assert_eq!(
        find(f, "st.local.u32").operands,
        [addr(reg("%SPL"), -8), reg("%r2")]
    );
}

#[test]
fn call_sequence_spanning_lines() {
    let m = parse(MODULE).unwrap();
    let f = m.function("first").unwrap();
    let call = find(f, "call.uni");
    // The debug label `$L__tmp1:` inside the statement is no operand.
    assert_eq!(
        call.operands,
        [
            Operand::List(vec![sym("retval0")]),
            sym("helper"),
            Operand::List(vec![sym("param0")])
        ]
    );
    assert_eq!(call.ptx_line, line_of(MODULE, "call.uni (retval0),"));
    assert_eq!(call.to_string(), "call.uni (retval0), helper, (param0)");
    assert_eq!(
        find(f, "st.param.b32").operands,
        [addr(sym("param0"), 0), reg("%r5")]
    );
    assert_eq!(
        find(f, "ld.param.b32").operands,
        [reg("%r6"), addr(sym("retval0"), 0)]
    );
    // A call does not end a block.
    assert!(!call.ends_block());
}

#[test]
fn loc_with_inlined_at() {
    let m = parse(MODULE).unwrap();
    let f = m.function("first").unwrap();
    let inlined = SourceLoc {
        file: 2,
        line: 10,
        col: 5,
        inlined_at: Some(Box::new(loc(1, 20, 7))),
    };
    // The `.loc` stays in force through the call sequence, until the next `.loc`.
    for op in ["add.s32", "st.param.b32", "call.uni", "ld.param.b32"] {
        assert_eq!(find(f, op).loc.as_ref(), Some(&inlined), "{op}");
    }
    let l = find(f, "add.s32").loc.as_ref().unwrap();
    assert_eq!(l.outermost(), &loc(1, 20, 7));
    assert_eq!(m.file(l.file), Some("/usr/include/clc/h.h"));
    assert_eq!(m.file(l.outermost().file), Some("/home/user/kernels/k.cl"));
    // A location without inlined_at is its own outermost.
    let plain = find(f, "mov.u32").loc.as_ref().unwrap();
    assert_eq!(plain, &loc(1, 6, 3));
    assert_eq!(plain.outermost(), plain);
    assert_eq!(f.blocks[3].instrs[0].loc, Some(loc(1, 9, 1)));
    assert_eq!(f.blocks[4].instrs[0].loc, Some(loc(1, 9, 1)));
    // `.loc file line` without a column, and function_name with an offset.
    let src = ".entry k()\n{\n.loc 1 7\nret;\n.loc 3 4 2, function_name $L__info_string2+12, inlined_at 1 8\nexit;\n}\n";
    let m = parse(src).unwrap();
    let f = &m.functions[0];
    assert_eq!(f.blocks[0].instrs[0].loc, Some(loc(1, 7, 0)));
    assert_eq!(
        f.blocks[1].instrs[0].loc,
        Some(SourceLoc {
            file: 3,
            line: 4,
            col: 2,
            inlined_at: Some(Box::new(loc(1, 8, 0)))
        })
    );
}

#[test]
fn jump_table() {
    let src = r#"
.version 7.8
.target sm_80
.address_size 64
.visible .entry sw(.param .u32 sw_param_0)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	ld.param.u32 	%r1, [sw_param_0];
	setp.gt.u32 	%p1, %r1, 2;
	@%p1 bra 	$L__BB0_4;
$L_brx_0: .branchtargets
	$L__BB0_2,
	$L__BB0_3,
	$L__BB0_4;
	brx.idx 	%r1, $L_brx_0;
$L__BB0_2:
	mov.u32 	%r2, 1;
	bra.uni 	$L__BB0_5;
$L__BB0_3:
	mov.u32 	%r2, 2;
	bra.uni 	$L__BB0_5;
$L__BB0_4:
	mov.u32 	%r2, 3;
$L__BB0_5:
	ret;
}
"#;
    let m = parse(src).unwrap();
    let f = m.function("sw").unwrap();
    assert_eq!(
        labels(f),
        [
            None,
            None,
            Some("$L__BB0_2"),
            Some("$L__BB0_3"),
            Some("$L__BB0_4"),
            Some("$L__BB0_5")
        ]
    );
    assert_eq!(
        successors(f),
        [vec![4, 1], vec![2, 3, 4], vec![5], vec![5], vec![5], vec![]]
    );
    let brx = &f.blocks[1].instrs[0];
    assert_eq!(brx.opcode, "brx.idx");
    assert_eq!(brx.operands, [reg("%r1"), sym("$L_brx_0")]);
    assert!(brx.is_unconditional_transfer());
    assert_eq!(brx.ptx_line, line_of(src, "brx.idx"));
    // The table may also follow the branch, on one line.
    let src = ".entry k()\n{\n.reg .b32 %r<2>;\nbrx.idx %r1, $T;\n$L__BB0_1:\nret;\n\
               $L__BB0_2:\nexit;\n$T: .branchtargets $L__BB0_2, $L__BB0_1;\n}\n";
    let f = parse(src).unwrap().functions.remove(0);
    assert_eq!(successors(&f), [vec![2, 1], vec![], vec![]]);
}

#[test]
fn immediates_symbols_and_absolute_addresses() {
    let src = r#".global .align 8 .u64 ptrs[2] = {generic(tbl), 0};
.global .align 4 .f32 c = 0f3F800000;
.entry k()
{
	.reg .f32 	%f<3>;
	.reg .b64 	%rd<3>;
	.reg .pred 	%p<2>;
	mov.f32 	%f1, 0f3F800000;
	mov.u64 	%rd1, tbl+8;
	ld.global.u64 	%rd2, [ptrs+8];
	ld.global.f32 	%f2, [64];
	mov.b64 	%rd2, 0x7fffffff;
	selp.f32 	%f1, %f1, %f2, !%p1;
	shfl.sync.bfly.b32 	%f1|%p1, %f2, 1, 31, -1;
	ld.global.u32 	%f1, [%rd1-8];
	ret;
}
"#;
    let m = parse(src).unwrap();
    let ops: Vec<Vec<Operand>> = instrs(&m.functions[0])
        .map(|i| i.operands.clone())
        .collect();
    assert_eq!(ops[0], [reg("%f1"), imm("0f3F800000")]);
    assert_eq!(ops[1], [reg("%rd1"), sym("tbl+8")]);
    assert_eq!(ops[2], [reg("%rd2"), addr(sym("ptrs"), 8)]);
    assert_eq!(
        ops[3],
        [
            reg("%f2"),
            Operand::Address {
                base: None,
                offset: 64
            }
        ]
    );
    assert_eq!(ops[4], [reg("%rd2"), imm("0x7fffffff")]);
    assert_eq!(
        ops[5][3],
        Operand::Reg {
            name: "%p1".into(),
            negated: true
        }
    );
    assert_eq!(
        ops[6],
        [
            Operand::Pair(Box::new(reg("%f1")), Box::new(reg("%p1"))),
            reg("%f2"),
            imm("1"),
            imm("31"),
            imm("-1")
        ]
    );
    assert_eq!(ops[7], [reg("%f1"), addr(reg("%rd1"), -8)]);
}
