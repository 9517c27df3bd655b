//! PTX instructions -> the pipeline model's [`Instr`]: instruction class (GPGPU-Sim's
//! mapping, docs/design.md), registers read and written, operand-collector reads.

use std::collections::HashMap;

use pipeline_model::rows::ROW_LANES;
use pipeline_model::{Addressing, Instr, MemAccess, OpClass, Reg};

use crate::analysis::access::{accesses_with, lane_values, values_along, Axis};
use crate::analysis::addressing::absorbed_addressing;
use crate::analysis::reuse::reused_loads;
use crate::analysis::rows::{accesses_in_rows, differs_by_row};
use crate::front::cfg::Cfg;
use crate::front::opcode::{global_bytes, op_class, source_operands};
use crate::front::ptx::{Function, Instruction, Operand, RegDecl};

/// The registers of one function: which names are registers at all (declared with `.reg`;
/// `%tid.x` and friends are not), which are predicates, and a number for each.
pub struct RegisterFile<'f> {
    decls: &'f [RegDecl],
    ids: HashMap<String, (Reg, bool)>,
    /// 32-bit registers each numbered register occupies (0 for predicates).
    widths: Vec<u32>,
}

impl<'f> RegisterFile<'f> {
    /// The registers declared in `f`.
    pub fn new(f: &'f Function) -> Self {
        RegisterFile {
            decls: &f.registers,
            ids: HashMap::new(),
            widths: Vec::new(),
        }
    }

    /// The number of a declared register and whether it is a predicate; `None` for special
    /// registers.
    fn lookup(&mut self, name: &str) -> Option<(Reg, bool)> {
        if let Some(&v) = self.ids.get(name) {
            return Some(v);
        }
        let decl = self.decls.iter().find(|d| d.declares(name))?;
        let v = (self.widths.len() as Reg, decl.is_predicate());
        self.ids.insert(name.to_string(), v);
        self.widths.push(decl.width_in_words());
        Some(v)
    }

    /// A register of no width that no PTX instruction names: it carries a dependence the
    /// PTX passes through memory (an image call's arguments and result).
    fn carrier(&mut self) -> Reg {
        self.widths.push(0);
        (self.widths.len() - 1) as Reg
    }
}

/// A PTX instruction as the pipeline model sees it.
#[derive(Debug, Clone)]
pub struct Classified {
    /// The model's instruction.
    pub instr: Instr,
    /// Whether the opcode is one of the PTX ISA.
    pub known: bool,
}

/// Every instruction of a function, classified block by block.
#[derive(Debug, Clone)]
pub struct ClassifiedFunction {
    /// Per block, its instructions in order.
    pub blocks: Vec<Vec<Classified>>,
    /// 32-bit registers each register number occupies (0 for predicates).
    pub register_widths: Vec<u32>,
}

/// Classifies every instruction of `f`, numbering its registers, with the memory behaviour
/// of its global and shared accesses ([`crate::analysis::access`]).
pub fn classify_function(f: &Function) -> ClassifiedFunction {
    let mut regs = RegisterFile::new(f);
    let (values, cfg) = (lane_values(f), Cfg::new(f));
    let mut accesses = accesses_with(f, &values, &cfg);
    with_reuse(&mut accesses, &reused_loads(f, &values, &cfg));
    let addressing = absorbed_addressing(f);
    let mut blocks: Vec<Vec<Classified>> = f
        .blocks
        .iter()
        .zip(accesses)
        .zip(addressing)
        .map(|((b, acc), addressing)| {
            b.instrs
                .iter()
                .zip(acc)
                .zip(addressing)
                .map(|((i, a), addressing)| {
                    let mut c = classify(i, &mut regs);
                    c.instr.access = a;
                    c.instr.addressing = addressing;
                    c
                })
                .collect()
        })
        .collect();
    image_call_dependences(f, &mut blocks, &mut regs);
    ClassifiedFunction {
        blocks,
        register_widths: regs.widths,
    }
}

/// `base` (`f` from [`classify_function`]) in each narrow width class of
/// `pipeline_model::rows` (1 to 5: warps spanning `32 / ROW_LANES[c]` rows of their
/// work-groups, [`crate::analysis::rows`]): the same instructions, their global and shared accesses
/// priced in rows. None where no class prices any access otherwise.
pub fn narrow_classes(f: &Function, base: &ClassifiedFunction) -> Vec<ClassifiedFunction> {
    let rows = values_along(f, Axis::Rows);
    if !differs_by_row(f, &rows) {
        return Vec::new();
    }
    let (values, cfg) = (lane_values(f), Cfg::new(f));
    let reused = reused_loads(f, &values, &cfg);
    let narrow: Vec<ClassifiedFunction> = ROW_LANES[1..]
        .iter()
        .map(|&lanes| {
            let mut accesses = accesses_in_rows(f, &values, &rows, &cfg, lanes);
            with_reuse(&mut accesses, &reused);
            let mut c = base.clone();
            for (block, accesses) in c.blocks.iter_mut().zip(accesses) {
                for (instr, access) in block.iter_mut().zip(accesses) {
                    instr.instr.access = access;
                }
            }
            c
        })
        .collect();
    let accesses = |c: &ClassifiedFunction| -> Vec<Option<MemAccess>> {
        c.blocks.iter().flatten().map(|i| i.instr.access).collect()
    };
    if narrow.iter().all(|c| accesses(c) == accesses(base)) {
        return Vec::new();
    }
    narrow
}

/// Marks the global loads whose sectors an earlier load brought into the L1
/// ([`crate::analysis::reuse`]), with their reuse distance.
fn with_reuse(accesses: &mut [Vec<Option<MemAccess>>], reused: &HashMap<(usize, usize), u32>) {
    for (&(b, i), &lines) in reused {
        if let Some(access) = accesses[b][i].as_mut() {
            access.reuse_lines = Some(lines);
        }
    }
}

/// Gives each image call ([`OpClass::Texture`]) the dependences its `.param` traffic
/// hides: PTX passes a call's arguments and result through parameter memory
/// (`st.param [param2], {%r9, %r8}; call (retval0), read_imagef, (.., param2);
/// ld.param {%f1, ..}, [retval0]`), so without this the fetch would not wait for its
/// coordinates, nor its readers for the fetch. The call reads what the stores since the
/// last call read, and writes a carrier register that the loads of its result read.
fn image_call_dependences(
    f: &Function,
    blocks: &mut [Vec<Classified>],
    regs: &mut RegisterFile<'_>,
) {
    let mut stored: Vec<Reg> = Vec::new();
    let mut results: Vec<(String, Reg)> = Vec::new();
    for (block, classified) in f.blocks.iter().zip(blocks.iter_mut()) {
        for (instr, c) in block.instrs.iter().zip(classified.iter_mut()) {
            match instr.base() {
                "st" if on_param(instr) => {
                    for &r in &c.instr.reads {
                        if !stored.contains(&r) {
                            stored.push(r);
                        }
                    }
                }
                "call" => {
                    results.clear();
                    if c.instr.class == OpClass::Texture {
                        for &r in &stored {
                            if !c.instr.reads.contains(&r) {
                                c.instr.reads.push(r);
                            }
                        }
                        // (A write returns nothing: it completes in the background.)
                        if let Some(Operand::List(ret)) = instr.operands.first() {
                            let carrier = regs.carrier();
                            c.instr.writes.push(carrier);
                            results.extend(
                                ret.iter()
                                    .flat_map(Operand::symbols)
                                    .map(|s| (s.to_string(), carrier)),
                            );
                        }
                    }
                    stored.clear();
                }
                "ld" if on_param(instr) => {
                    let from = instr.address().and_then(|a| a.symbols().first().copied());
                    if let Some(&(_, carrier)) =
                        from.and_then(|p| results.iter().find(|(name, _)| name == p))
                    {
                        c.instr.reads.push(carrier);
                    }
                }
                _ => {}
            }
        }
    }
}

/// Whether a load or store addresses parameter memory (`ld.param`, `st.param`).
fn on_param(instr: &Instruction) -> bool {
    instr.modifiers().any(|m| m == "param")
}

/// Classifies `instr`, numbering its registers in `regs`.
pub fn classify(instr: &Instruction, regs: &mut RegisterFile<'_>) -> Classified {
    let (class, known) = op_class(instr);
    let (dst, srcs) = source_operands(instr);
    let mut writes = Vec::new();
    for name in dst.iter().flat_map(Operand::registers) {
        if let Some((id, _)) = regs.lookup(name) {
            writes.push(id);
        }
    }
    let mut reads = Vec::new();
    let mut operand_reads = 0;
    for name in srcs.iter().flat_map(Operand::registers) {
        if let Some((id, is_pred)) = regs.lookup(name) {
            if !reads.contains(&id) {
                reads.push(id);
                // The operand collector reads general-purpose registers; predicates
                // live in their own file.
                if !is_pred {
                    operand_reads += 1;
                }
            }
        }
    }
    if let Some(g) = &instr.guard {
        if let Some((id, _)) = regs.lookup(&g.reg) {
            if !reads.contains(&id) {
                reads.push(id);
            }
        }
    }
    Classified {
        instr: Instr {
            class,
            reads,
            writes,
            operand_reads,
            global_bytes: global_bytes(instr),
            access: None,
            branch: instr.ends_block(),
            addressing: Addressing::None,
        },
        known,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::opcode::KNOWN_OPCODES;
    use crate::front::ptx::parse;
    use pipeline_model::{ArithOp, DataKind, OpClass};

    fn classify_body(body: &str) -> Vec<Classified> {
        let src = format!(
            ".visible .entry k()\n{{\n.reg .pred %p<3>;\n.reg .b32 %r<9>;\n.reg .f32 %f<9>;\n.reg .b64 %rd<9>;\n.reg .f64 %fd<4>;\n{body}\n}}\n"
        );
        let m = parse(&src).unwrap();
        let f = &m.functions[0];
        let mut regs = RegisterFile::new(f);
        f.blocks
            .iter()
            .flat_map(|b| &b.instrs)
            .map(|i| classify(i, &mut regs))
            .collect()
    }

    #[test]
    fn known_opcode_list_is_sorted() {
        assert!(KNOWN_OPCODES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn classes_follow_gpgpu_sims_mapping() {
        let c = classify_body(
            "add.s32 %r1, %r2, %r3;\nmax.f32 %f1, %f2, %f3;\nmul.wide.s32 %rd1, %r1, 4;\n\
             fma.rn.f64 %fd1, %fd2, %fd3, %fd1;\ndiv.rn.f32 %f4, %f1, %f2;\nrem.u32 %r4, %r1, %r2;\n\
             sqrt.rn.f32 %f5, %f4;\nex2.approx.f32 %f6, %f5;\nld.global.f32 %f7, [%rd1];\n\
             atom.global.add.u32 %r5, [%rd1], 1;\nsetp.lt.s32 %p1, %r1, %r2;\nmov.u32 %r6, %tid.x;\n\
             frobnicate.b32 %r7, %r6;",
        );
        use ArithOp::*;
        use DataKind::*;
        let classes: Vec<OpClass> = c.iter().map(|c| c.instr.class).collect();
        assert_eq!(
            classes,
            [
                OpClass::Arith(Int, Add),
                OpClass::Arith(Fp32, Max),
                OpClass::Arith(Int, Mul),
                OpClass::Arith(Fp64, Mad),
                OpClass::Arith(Fp32, Div),
                OpClass::Arith(Int, Div),
                OpClass::Sfu,
                OpClass::Sfu,
                OpClass::GlobalMem,
                OpClass::GlobalMem,
                OpClass::Other,
                OpClass::Other,
                OpClass::Other,
            ]
        );
        assert!(c[..12].iter().all(|c| c.known));
        assert!(!c[12].known);
    }

    #[test]
    fn global_bytes_are_the_accesses_to_global_and_generic_addresses() {
        let c = classify_body(
            "ld.global.f32 %f1, [%rd1];\nld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n\
             st.global.v2.f64 [%rd1], {%fd1, %fd2};\nst.global.u8 [%rd1], %r1;\n\
             ld.f32 %f1, [%rd1];\natom.global.add.u32 %r5, [%rd1], 1;\n\
             red.global.add.f32 [%rd1], %f1;\nld.shared.f32 %f1, [%rd1];\n\
             st.local.u32 [%rd1], %r1;\nld.param.u64 %rd1, [k_param_0];\n\
             ld.const.f32 %f1, [%rd1];\nadd.s32 %r1, %r2, %r3;\natom.shared.add.u32 %r5, [%rd1], 1;",
        );
        let bytes: Vec<u32> = c.iter().map(|c| c.instr.global_bytes).collect();
        assert_eq!(bytes, [4, 16, 16, 1, 4, 4, 4, 0, 0, 0, 0, 0, 0]);
        use OpClass::*;
        let classes: Vec<OpClass> = c.iter().map(|c| c.instr.class).collect();
        assert_eq!(
            classes,
            [
                GlobalMem,
                GlobalMem,
                GlobalMem,
                GlobalMem,
                GlobalMem,
                GlobalMem,
                GlobalMem,
                SharedMem,
                Mem,
                Mem,
                Mem,
                Arith(DataKind::Int, ArithOp::Add),
                SharedMem
            ]
        );
    }

    #[test]
    fn reads_and_writes() {
        let c = classify_body(
            "@!%p1 st.global.v2.f32 [%rd1+8], {%f1, %f2};\nsetp.lt.s32 %p1|%p2, %r1, %r1;\n\
             mov.u32 %r6, %tid.x;\nfma.rn.f32 %f3, %f1, %f1, 0f3F800000;",
        );
        // A store writes no register; reads address, data and guard; OC reads 3 GPRs.
        assert!(c[0].instr.writes.is_empty());
        assert_eq!(c[0].instr.reads.len(), 4);
        assert_eq!(c[0].instr.operand_reads, 3);
        // setp writes both predicates of a pair; %r1 is read once.
        assert_eq!(c[1].instr.writes.len(), 2);
        assert_eq!(c[1].instr.operand_reads, 1);
        // Special registers are no registers.
        assert_eq!(c[2].instr.reads.len(), 0);
        assert_eq!(c[2].instr.operand_reads, 0);
        assert_eq!(c[3].instr.operand_reads, 1);
    }

    /// An image read and write as clang's NVPTX back end writes them (the box filter of
    /// examples/hosts/kernels/images.cl): calls with their arguments and result in
    /// parameter memory.
    const IMAGE_CALLS: &str = "\
.extern .func (.param .align 16 .b8 func_retval0[16]) _Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i
(.param .b64 a, .param .b64 b, .param .align 8 .b8 c[8]);
.extern .func _Z12write_imagef14ocl_image2d_woDv2_iDv4_f
(.param .b64 a, .param .align 8 .b8 b[8], .param .align 16 .b8 c[16]);
.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)
{
.reg .b32 %r<9>;
.reg .f32 %f<9>;
.reg .b64 %rd<9>;
ld.param.u64 %rd1, [k_param_0];
ld.param.u64 %rd2, [k_param_1];
add.s32 %r1, %r2, 1;
{
.param .b64 param0;
st.param.b64 [param0+0], %rd1;
.param .align 8 .b8 param2[8];
st.param.v2.b32 [param2+0], {%r1, %r3};
.param .align 16 .b8 retval0[16];
call.uni (retval0), _Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i, (param0, param2);
ld.param.v4.f32 {%f1, %f2, %f3, %f4}, [retval0+0];
}
add.rn.f32 %f5, %f1, %f2;
{
.param .b64 param0;
st.param.b64 [param0+0], %rd2;
.param .align 16 .b8 param2[16];
st.param.v4.f32 [param2+0], {%f5, %f2, %f3, %f4};
call.uni _Z12write_imagef14ocl_image2d_woDv2_iDv4_f, (param0, param2);
}
ret;
}
";

    #[test]
    fn an_image_call_is_a_texture_access_that_waits_for_its_arguments_and_is_waited_for() {
        let m = parse(IMAGE_CALLS).unwrap();
        let f = m.function("k").unwrap();
        let c = classify_function(f);
        let all: Vec<&Instr> = c.blocks.iter().flatten().map(|c| &c.instr).collect();
        let at = |op: &str, nth: usize| {
            let i = f.blocks.iter().flat_map(|b| &b.instrs).enumerate();
            i.filter(|(_, i)| i.opcode.starts_with(op))
                .nth(nth)
                .unwrap()
                .0
        };
        let (read, write) = (at("call", 0), at("call", 1));
        let (result, add) = (at("ld.param.v4", 0), at("add.rn", 0));
        assert_eq!(all[read].class, OpClass::Texture);
        assert_eq!(all[write].class, OpClass::Texture);
        // The read waits for the image handle and both coordinates stored before it ...
        let reg_of = |i: usize, n: usize| all[i].writes[n];
        let handle = reg_of(at("ld.param.u64", 0), 0);
        let x = reg_of(at("add.s32", 0), 0);
        for r in [handle, x] {
            assert!(all[read].reads.contains(&r), "the read waits for {r}");
        }
        // ... and writes one carrier, which the load of its result reads, and nothing else.
        assert_eq!(all[read].writes.len(), 1);
        let carrier = all[read].writes[0];
        assert!(all[result].reads.contains(&carrier));
        assert!(!all[add].reads.contains(&carrier));
        assert_eq!(
            c.register_widths[carrier as usize], 0,
            "a carrier takes no register"
        );
        // The write waits for the value stored before it, not for the read's stores, and
        // returns nothing.
        let value = reg_of(add, 0);
        assert!(all[write].reads.contains(&value));
        assert!(!all[write].reads.contains(&x));
        assert!(all[write].writes.is_empty());
    }

    #[test]
    fn image_built_ins_are_named_by_their_demangled_names() {
        use crate::front::opcode::is_image_access;
        for f in [
            "_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i",
            "_Z12read_imageui14ocl_image3d_roDv4_i",
            "_Z12write_imagef14ocl_image2d_woDv2_iDv4_f",
            "write_imageh",
        ] {
            assert!(is_image_access(f), "{f}");
        }
        for f in [
            "_Z15get_image_width14ocl_image2d_ro",
            "_Z11read_imagex",
            "vprintf",
            "read_image",
        ] {
            assert!(!is_image_access(f), "{f}");
        }
    }
}
