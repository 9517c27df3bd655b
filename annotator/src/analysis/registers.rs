//! Register pressure of a PTX function: the most 32-bit registers live at once, from a
//! liveness analysis over its CFG. PTX registers are virtual; ptxas allocates hardware
//! registers close to this pressure (plus a few of its own), so it is the register count
//! per work-item the occupancy model uses when no GPU binary is at hand.

use crate::analysis::classify::ClassifiedFunction;
use crate::front::ptx::Function;

/// A set of register numbers.
#[derive(Clone, PartialEq, Eq)]
struct RegSet(Vec<u64>);

impl RegSet {
    fn new(n: usize) -> Self {
        RegSet(vec![0; n.div_ceil(64)])
    }
    fn insert(&mut self, r: u32) {
        self.0[r as usize / 64] |= 1 << (r % 64);
    }
    fn remove(&mut self, r: u32) {
        self.0[r as usize / 64] &= !(1 << (r % 64));
    }
    fn union_with(&mut self, other: &RegSet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
    fn words(&self, widths: &[u32]) -> u32 {
        let mut total = 0;
        for (w, &bits) in self.0.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                total += widths[w * 64 + b];
                bits &= bits - 1;
            }
        }
        total
    }
}

/// The largest number of 32-bit registers live at any point of `f`, whose instructions
/// `classified` holds.
pub fn register_pressure(f: &Function, classified: &ClassifiedFunction) -> u32 {
    let blocks: Vec<Vec<(&[u32], &[u32])>> = classified
        .blocks
        .iter()
        .map(|b| {
            b.iter()
                .map(|c| (c.instr.reads.as_slice(), c.instr.writes.as_slice()))
                .collect()
        })
        .collect();
    let widths = &classified.register_widths;
    let n = widths.len();
    if n == 0 {
        return 0;
    }
    // Per block: registers read before written (use) and written (def).
    let mut uses = vec![RegSet::new(n); blocks.len()];
    let mut defs = vec![RegSet::new(n); blocks.len()];
    for (b, instrs) in blocks.iter().enumerate() {
        for (reads, writes) in instrs.iter().rev() {
            for &w in writes.iter() {
                defs[b].insert(w);
                uses[b].remove(w);
            }
            for &r in reads.iter() {
                uses[b].insert(r);
            }
        }
    }
    // live_in = use | (live_out - def); live_out = union of the successors' live_in.
    let mut live_in = vec![RegSet::new(n); blocks.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..blocks.len()).rev() {
            let mut out = RegSet::new(n);
            for &s in &f.blocks[b].successors {
                out.union_with(&live_in[s]);
            }
            let mut inn = out;
            for (x, d) in inn.0.iter_mut().zip(&defs[b].0) {
                *x &= !d;
            }
            inn.union_with(&uses[b]);
            if inn != live_in[b] {
                live_in[b] = inn;
                changed = true;
            }
        }
    }
    // Walk each block backwards; a result needs its register while everything live
    // after the instruction is still held.
    let mut peak = 0;
    for (b, instrs) in blocks.iter().enumerate() {
        let mut live = RegSet::new(n);
        for &s in &f.blocks[b].successors {
            live.union_with(&live_in[s]);
        }
        peak = peak.max(live.words(widths));
        for (reads, writes) in instrs.iter().rev() {
            let mut at = live.clone();
            writes.iter().for_each(|&w| at.insert(w));
            peak = peak.max(at.words(widths));
            writes.iter().for_each(|&w| live.remove(w));
            reads.iter().for_each(|&r| live.insert(r));
            peak = peak.max(live.words(widths));
        }
    }
    peak
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::ptx::parse;

    fn pressure(body: &str) -> u32 {
        let src = format!(
            ".visible .entry k(.param .u64 p)\n{{\n.reg .pred %p<3>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<9>;\n{body}\n}}\n"
        );
        let f = &parse(&src).unwrap().functions[0];
        register_pressure(f, &crate::analysis::classify::classify_function(f))
    }

    #[test]
    fn straight_line_pressure_counts_64_bit_registers_twice() {
        // %r1, %r2 live together, then %rd1 (2 words) with %r3: peak 3.
        let p = pressure(
            "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ntid.x;\nadd.s32 %r3, %r1, %r2;\n\
             cvt.u64.u32 %rd1, %r3;\nst.global.u32 [%rd1], %r3;\nret;",
        );
        assert_eq!(p, 3);
    }

    #[test]
    fn values_live_around_a_loop_count() {
        // %r1 (the bound) is live through the loop. The counter %r2 dies at the add,
        // since the move overwrites it: two registers suffice, predicates are free.
        let p = pressure(
            "mov.u32 %r1, %ntid.x;\nmov.u32 %r2, 0;\n$L__BB0_1:\nadd.s32 %r3, %r2, 1;\n\
             mov.u32 %r2, %r3;\nsetp.lt.u32 %p1, %r2, %r1;\n@%p1 bra $L__BB0_1;\nret;",
        );
        assert_eq!(p, 2);
        // Keeping the old counter alive past the add (it is stored after) needs a third.
        let p = pressure(
            "mov.u32 %r1, %ntid.x;\nmov.u32 %r2, 0;\n$L__BB0_1:\nadd.s32 %r3, %r2, 1;\n\
             st.shared.u32 [%r1], %r2;\nmov.u32 %r2, %r3;\nsetp.lt.u32 %p1, %r2, %r1;\n\
             @%p1 bra $L__BB0_1;\nret;",
        );
        assert_eq!(p, 3);
    }

    #[test]
    fn dead_results_still_take_a_register() {
        assert_eq!(pressure("mov.u32 %r1, %tid.x;\nret;"), 1);
    }
}
