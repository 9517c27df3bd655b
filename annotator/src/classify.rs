//! PTX instructions -> the pipeline model's [`Instr`]: instruction class (GPGPU-Sim's
//! mapping, docs/design.md), registers read and written, operand-collector reads.

use std::collections::HashMap;

use pipeline_model::rows::ROW_LANES;
use pipeline_model::{Addressing, Instr, MemAccess, Reg};

use crate::access::{accesses_with, lane_values, values_along, Axis};
use crate::addressing::absorbed_addressing;
use crate::cfg::Cfg;
use crate::opcode::{global_bytes, op_class, source_operands};
use crate::ptx::{Function, Instruction, Operand, RegDecl};
use crate::reuse::reused_loads;
use crate::rows::{accesses_in_rows, differs_by_row};

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
        let v = (self.ids.len() as Reg, decl.is_predicate());
        self.ids.insert(name.to_string(), v);
        self.widths.push(decl.width_in_words());
        Some(v)
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
/// of its global and shared accesses ([`crate::access`]).
pub fn classify_function(f: &Function) -> ClassifiedFunction {
    let mut regs = RegisterFile::new(f);
    let (values, cfg) = (lane_values(f), Cfg::new(f));
    let mut accesses = accesses_with(f, &values, &cfg);
    with_reuse(&mut accesses, &reused_loads(f, &values, &cfg));
    let addressing = absorbed_addressing(f);
    let blocks = f
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
    ClassifiedFunction {
        blocks,
        register_widths: regs.widths,
    }
}

/// `base` (`f` from [`classify_function`]) in each narrow width class of
/// `pipeline_model::rows` (1 to 5: warps spanning `32 / ROW_LANES[c]` rows of their
/// work-groups, [`crate::rows`]): the same instructions, their global and shared accesses
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
/// ([`crate::reuse`]), with their reuse distance.
fn with_reuse(accesses: &mut [Vec<Option<MemAccess>>], reused: &HashMap<(usize, usize), u32>) {
    for (&(b, i), &lines) in reused {
        if let Some(access) = accesses[b][i].as_mut() {
            access.reuse_lines = Some(lines);
        }
    }
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
    use crate::opcode::KNOWN_OPCODES;
    use crate::ptx::parse;
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
}
