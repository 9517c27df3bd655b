//! The hand-written module's structure: its header, files and functions, blocks and
//! edges, local depots, performance directives, and labels.

use super::*;

#[test]
fn module_header_files_and_function_kinds() {
    let m = parse(MODULE).unwrap();
    assert_eq!(m.version.as_deref(), Some("8.5"));
    assert_eq!(m.target, ["sm_90", "debug"]);
    assert_eq!(m.address_size, Some(64));
    // `.file 1 "dir" "name"` joins directory and name; the `, time, size` form keeps the path.
    assert_eq!(
        m.files,
        [
            (1, "/home/user/kernels/k.cl".to_string()),
            (2, "/usr/include/clc/h.h".to_string())
        ]
    );
    assert_eq!(m.file(1), Some("/home/user/kernels/k.cl"));
    assert_eq!(m.file(3), None);

    // Module-scope variables with their sizes; an unsized extern array has none.
    let vars: Vec<(&str, &str, u64)> = m
        .variables
        .iter()
        .map(|v| (v.space.as_str(), v.name.as_str(), v.bytes))
        .collect();
    assert_eq!(
        vars,
        [
            (".shared", "dyn_smem", 0),
            (".shared", "smem", 1024),
            (".global", "tbl", 8)
        ]
    );

    let summary: Vec<(&str, FunctionKind, bool)> = m
        .functions
        .iter()
        .map(|f| (f.name.as_str(), f.kind, f.has_body))
        .collect();
    assert_eq!(
        summary,
        [
            ("ext_fn", FunctionKind::Function, false),
            ("decl_only", FunctionKind::Function, false),
            ("helper", FunctionKind::Function, true),
            ("first", FunctionKind::Kernel, true),
            ("second", FunctionKind::Kernel, true),
        ]
    );
    let kernels: Vec<&str> = m.kernels().map(|f| f.name.as_str()).collect();
    assert_eq!(kernels, ["first", "second"]);
    // Declarations have no body and are not found by name.
    assert!(m.function("ext_fn").is_none());
    assert!(m.functions[0].blocks.is_empty());
    assert_eq!(m.functions[0].returns, [".param .b32 func_retval0"]);
    assert_eq!(m.functions[0].params, [".param .b32 ext_fn_param_0"]);
    assert_eq!(m.functions[1].params, [".param .b64 decl_only_param_0"]);
    assert!(m.functions[1].returns.is_empty());

    // PTX lines of the `.entry` / `.func` keywords.
    assert_eq!(
        m.function("helper").unwrap().ptx_line,
        line_of(MODULE, "helper(")
    );
    assert_eq!(
        m.function("first").unwrap().ptx_line,
        line_of(MODULE, ".visible .entry first(")
    );
}

#[test]
fn function_with_return_value() {
    let m = parse(MODULE).unwrap();
    let f = m.function("helper").unwrap();
    assert_eq!(f.kind, FunctionKind::Function);
    assert_eq!(f.returns, [".param .b32 func_retval0"]);
    assert_eq!(f.params, [".param .b32 helper_param_0"]);
    assert_eq!(f.registers.len(), 1);
    assert_eq!(f.registers[0].ty, ".b32");
    assert_eq!(f.registers[0].name, "%r");
    assert_eq!(f.registers[0].count, Some(3));
    assert!(f.registers[0].declares("%r2"));
    assert!(!f.registers[0].declares("%r3"));
    // `$L__func_begin0` and `$L__func_end0` are no branch targets: one block.
    assert_eq!(f.blocks.len(), 1);
    assert_eq!(f.blocks[0].label, None);
    assert_eq!(
        opcodes(&f.blocks[0]),
        ["ld.param.u32", "add.s32", "st.param.b32", "ret"]
    );
    assert!(f.blocks[0].successors.is_empty());
    let add = &f.blocks[0].instrs[1];
    assert_eq!(add.operands, [reg("%r2"), reg("%r1"), imm("-4")]);
    assert_eq!(add.loc, Some(loc(1, 3, 3)));
    assert_eq!(add.ptx_line, line_of(MODULE, "%r2, %r1, -4;"));
    assert_eq!(f.blocks[0].instrs[0].loc, Some(loc(1, 2, 0)));
    assert_eq!(
        f.blocks[0].instrs[2].operands,
        [addr(sym("func_retval0"), 0), reg("%r2")]
    );
    assert_eq!(f.blocks[0].instrs[3].operands, []);
    assert!(f.blocks[0].instrs[3].is_unconditional_transfer());
}

#[test]
fn kernel_blocks_and_edges() {
    let m = parse(MODULE).unwrap();
    let f = m.function("first").unwrap();
    assert_eq!(f.kind, FunctionKind::Kernel);
    assert_eq!(
        f.params,
        [".param .u64 first_param_0", ".param .u32 first_param_1"]
    );
    // Non-target labels ($L__func_begin1, $L__tmp0, $L__tmp1 inside the call, $L__tmp2,
    // $L__func_end1) start no block; the empty $L__BB1_2 falls into $L__BB1_3.
    assert_eq!(
        labels(f),
        [None, None, Some("$L__BB1_2"), Some("$L__BB1_3"), None]
    );
    assert_eq!(
        successors(f),
        [vec![2, 1], vec![2], vec![3], vec![3, 4], vec![]]
    );
    assert_eq!(
        opcodes(&f.blocks[0]),
        [
            "mov.u64",
            "cvta.local.u64",
            "ld.param.u64",
            "ld.param.u32",
            "mov.u32",
            "setp.lt.s32",
            "bra"
        ]
    );
    assert_eq!(
        opcodes(&f.blocks[1]),
        [
            "ld.global.v4.f32",
            "st.global.v2.f32",
            "mov.b64",
            "st.local.u32",
            "add.s32",
            "st.param.b32",
            "call.uni",
            "ld.param.b32"
        ]
    );
    assert!(f.blocks[2].instrs.is_empty());
    assert_eq!(opcodes(&f.blocks[3]), ["bra"]);
    assert_eq!(opcodes(&f.blocks[4]), ["ret"]);
    assert_eq!(instrs(f).count(), 17);
}

#[test]
fn local_depot_registers_and_locals() {
    let m = parse(MODULE).unwrap();
    let f = m.function("first").unwrap();
    let regs: Vec<(&str, &str, Option<u32>)> = f
        .registers
        .iter()
        .map(|r| (r.ty.as_str(), r.name.as_str(), r.count))
        .collect();
    assert_eq!(
        regs,
        [
            (".b64", "%SP", None),
            (".b64", "%SPL", None),
            (".pred", "%p", Some(4)),
            (".b32", "%r", Some(12)),
            (".f32", "%f", Some(6)),
            (".b64", "%rd", Some(8)),
        ]
    );
    assert!(f.registers[0].declares("%SP"));
    assert!(!f.registers[0].declares("%SPL"));
    assert!(f.registers[2].is_predicate());
    // The depot and the call's parameters are the function's locals.
    let locals: Vec<(&str, &str, u64)> = f
        .locals
        .iter()
        .map(|v| (v.space.as_str(), v.name.as_str(), v.bytes))
        .collect();
    assert_eq!(locals[0], (".local", "__local_depot1", 40));
    assert_eq!(locals[1].1, "param0");
    assert_eq!(locals[2].1, "retval0");
    let b0 = &f.blocks[0];
    assert_eq!(b0.instrs[0].operands, [reg("%SPL"), sym("__local_depot1")]);
    assert_eq!(b0.instrs[1].operands, [reg("%SP"), reg("%SPL")]);
    assert_eq!(
        b0.instrs[2].operands,
        [reg("%rd1"), addr(sym("first_param_0"), 0)]
    );
    // %tid.x is one register token.
    assert_eq!(b0.instrs[4].operands, [reg("%r2"), reg("%tid.x")]);
}

#[test]
fn performance_directives_and_declaration_only_kernel() {
    let m = parse(MODULE).unwrap();
    let f = m.function("second").unwrap();
    assert!(f.params.is_empty());
    assert_eq!(f.blocks.len(), 1);
    assert_eq!(opcodes(&f.blocks[0]), ["ret"]);
    assert_eq!(f.blocks[0].instrs[0].loc, Some(loc(1, 30, 1)));
    // An `.entry` without body, and a kernel with `.maxnreg` / `.noreturn`-style directives.
    let src = ".visible .entry proto(.param .u32 proto_param_0)\n.maxntid 128\n;\n\
               .visible .entry k()\n.maxnreg 32\n.maxntid 32, 4, 1\n.reqntid 32, 4, 1\n{\nexit;\n}\n";
    let m = parse(src).unwrap();
    assert_eq!(m.functions.len(), 2);
    assert!(!m.functions[0].has_body);
    assert_eq!(m.kernels().count(), 1);
    assert_eq!(opcodes(&m.function("k").unwrap().blocks[0]), ["exit"]);
}

#[test]
fn empty_blocks_and_non_target_labels() {
    let src = r#".visible .entry k(.param .u32 k_param_0)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<4>;
$L__func_begin0:
	ld.param.u32 	%r1, [k_param_0];
$L__tmp0:
	setp.eq.s32 	%p1, %r1, 0;
$L__tmp1:
	@%p1 bra 	$L__BB0_3;
$L__tmp2:
	add.s32 	%r2, %r1, 1;
$L__BB0_1:
$L__BB0_2:
$L__tmp3:
	setp.lt.s32 	%p2, %r2, 9;
	@%p2 bra 	$L__BB0_1;
	bra.uni 	$L__BB0_2;
$L__tmp4:
	add.s32 	%r3, %r2, 1;
$L__BB0_3:
$L__BB0_4:
	ret;
$L__func_end0:
}
"#;
    // $L__BB0_4 is targeted by no branch and $L__BB0_2 only by bra.uni.
    let m = parse(src).unwrap();
    let f = &m.functions[0];
    assert_eq!(
        labels(f),
        [
            None,
            None,
            Some("$L__BB0_1"),
            Some("$L__BB0_2"),
            None,
            None,
            Some("$L__BB0_3")
        ]
    );
    assert_eq!(
        successors(f),
        [
            vec![6, 1], // @%p1 bra $L__BB0_3, else fall through
            vec![2],    // add; falls into the empty $L__BB0_1
            vec![3],    // empty: falls into $L__BB0_2
            vec![2, 4], // @%p2 bra $L__BB0_1, else fall through
            vec![3],    // bra.uni $L__BB0_2
            vec![6],    // unreachable add after the bra.uni
            vec![],     // ret ($L__BB0_4 is no target: no block)
        ]
    );
    assert_eq!(opcodes(&f.blocks[3]), ["setp.lt.s32", "bra"]);
    assert_eq!(opcodes(&f.blocks[4]), ["bra.uni"]);
    assert_eq!(opcodes(&f.blocks[5]), ["add.s32"]);
    assert!(f.blocks[2].instrs.is_empty());
    assert!(f.blocks[4].instrs[0].is_unconditional_transfer());

    // The analysis takes empty and unreachable blocks.
    let a = analyze_module(&m, &gtx480(), "k.cl");
    assert_eq!(a.kernels.len(), 1);
    assert_eq!(a.kernels[0].blocks.len(), 7);
    assert_eq!(a.kernels[0].blocks[2].instructions, 0);
    // Loops with headers $L__BB0_1 (latch B3) and $L__BB0_2 (latch B4).
    let headers: Vec<usize> = a.kernels[0].loops.iter().map(|l| l.header).collect();
    assert_eq!(headers, [2, 3]);
}
