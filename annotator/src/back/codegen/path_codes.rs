//! Copies that keep a work-item's path, not its counters: where every transition of a
//! kernel's timing state runs at most once per work-item, a work-item's timing values
//! are the sum of the charges of the transitions it took, so one bit per transition says
//! them all. The copy that reduces such a kernel's records to warps (module `warps`) then
//! keeps a single `ulong` per work-item (`s->m`, the bits of the transitions taken) in
//! place of its counters, which the compiler drops from the copy, and the warp's reducer
//! sums the charges of each distinct set of bits it meets (a warp's lanes take one or two
//! paths as a rule), giving the record the counters' reduction gives, bit for bit. The
//! 511 steps of an LU update of 262144 work-items, most of which do nothing: about 4.5
//! times the original's time on PoCL with counters per lane, about 1.5 times with paths
//! (`docs/performance.md`, session 13).
//!
//! When every transition runs at most once: the kernel's transitions (a timing
//! function's case, from the last block to the one it reaches, and the exit's cases)
//! form a graph without cycles, so that the last block only moves forward; it has no
//! unrolled loop (their settling charges many iterations at once) and the file no called
//! function (its transitions run once per call); and it has at most 64 transitions.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use pipeline_model::RecordFormat;

use super::{cases, encode, scaled, KernelTiming, NumberedLoops};
use crate::front::source::cfg::SourceCfg;
use crate::ids::SourceBlockId;
use crate::mapping::paths::{From, To};

use crate::back::host_paths::{Charge, Coding, HostPaths, PointAt};
use crate::front::source::SourceFile;

/// A path-coded kernel's transitions: the bit of each.
#[derive(Debug, Default)]
pub(super) struct KernelPaths {
    /// Per timing function's case, (source function, source block, encoded last block):
    /// its bit and the block it reaches (encoded).
    cases: BTreeMap<(String, usize, u32), (u32, u32)>,
    /// Per exit case, by encoded last block.
    exits: BTreeMap<u32, u32>,
    /// Per bit, what its transition charges.
    charges: Vec<Charge>,
}

/// Per kernel (in the kernels' order), its transitions' bits where it is path-coded.
pub(super) struct PathCodes(Vec<Option<KernelPaths>>);

impl PathCodes {
    /// The kernels of a file that may keep paths, with their bits.
    pub(super) fn new(
        kernels: &[KernelTiming<'_>],
        cfgs: &[SourceCfg],
        loops: &NumberedLoops<'_>,
        usage_scale: u64,
    ) -> PathCodes {
        let calls = kernels.iter().any(|k| k.called);
        let may = |ki: usize| {
            let k = &kernels[ki];
            k.warp_records
                && !k.called
                && !k.sampled
                && !calls
                && !loops.iter().any(|(lk, _, _)| *lk == ki)
        };
        let mut paths: Vec<Option<KernelPaths>> = (0..kernels.len())
            .map(|ki| may(ki).then(KernelPaths::default))
            .collect();
        let mut edges: Vec<BTreeSet<(u32, u32)>> = vec![BTreeSet::new(); kernels.len()];
        // Every timing function's cases, once (they are of all the kernels).
        for cfg in cfgs {
            for block in &cfg.blocks {
                let id = SourceBlockId(block.id);
                for (from, (path, usage, to, arm)) in cases(kernels, usage_scale, cfg, id, &[]) {
                    let ki = (from >> 16) as usize;
                    let Some(Some(k)) = paths.get_mut(ki) else {
                        continue;
                    };
                    edges[ki].insert((from, to));
                    let bit = k.charges.len() as u32;
                    k.cases
                        .insert((cfg.function.clone(), block.id, from), (bit, to));
                    k.charges.push(Charge {
                        cycles: path.cycles,
                        usage,
                        arm: arm.cycles,
                        entered: arm.entered,
                        sibling: arm.sibling,
                    });
                }
            }
        }
        for (ki, slot) in paths.iter_mut().enumerate() {
            let Some(k) = slot else { continue };
            for p in kernels[ki].table.paths.iter().filter(|p| p.to == To::Exit) {
                let bit = k.charges.len() as u32;
                k.exits.insert(encode(ki, p.from), bit);
                k.charges.push(Charge {
                    cycles: p.cycles,
                    usage: scaled(p, usage_scale),
                    arm: None,
                    entered: None,
                    sibling: None,
                });
            }
            if k.charges.len() > 64 || !acyclic(&edges[ki], encode(ki, From::Start)) {
                *slot = None;
            }
        }
        PathCodes(paths)
    }

    /// The path-coded kernels of `file` whose paths the host can evaluate, with their
    /// skeletons.
    pub(super) fn host_paths(
        &self,
        file: &SourceFile,
        kernels: &[KernelTiming<'_>],
        cfgs: &[SourceCfg],
        format: &RecordFormat,
        memory: Option<usize>,
    ) -> Vec<(String, HostPaths)> {
        kernels
            .iter()
            .enumerate()
            .filter_map(|(ki, k)| {
                let coding = self.coding(ki, cfgs, format, memory)?;
                let f = file.function(&k.map.kernel)?;
                Some((
                    k.map.kernel.clone(),
                    crate::back::host_paths::build(f, coding)?,
                ))
            })
            .collect()
    }

    /// What the host needs of path-coded kernel `ki` to evaluate its paths
    /// ([`crate::back::host_paths`]): its timing points (the blocks with cases of it, where
    /// their calls go), its start, exits and charges, and the record's timing values.
    fn coding(
        &self,
        ki: usize,
        cfgs: &[SourceCfg],
        format: &RecordFormat,
        memory: Option<usize>,
    ) -> Option<Coding> {
        let k = self.of(ki)?;
        // The cases come ordered by function and block: one point per block.
        let mut points: Vec<((&str, usize), PointAt)> = Vec::new();
        for ((function, block, from), (bit, to)) in &k.cases {
            let case = (*from, *bit, *to);
            match points.last_mut() {
                Some((at, point)) if *at == (function.as_str(), *block) => point.cases.push(case),
                _ => {
                    let cfg = cfgs.iter().find(|c| c.function == *function)?;
                    let point = PointAt {
                        insertion: cfg.blocks.get(*block)?.insertion,
                        cases: vec![case],
                    };
                    points.push(((function.as_str(), *block), point));
                }
            }
        }
        Some(Coding {
            points: points.into_iter().map(|(_, p)| p).collect(),
            start: encode(ki, From::Start),
            exits: k.exits.iter().map(|(f, b)| (*f, *b)).collect(),
            charges: k.charges.clone(),
            format: format.timing_only(),
            memory,
        })
    }

    /// Whether some kernel keeps paths (the state then has `m`).
    pub(super) fn any(&self) -> bool {
        self.0.iter().any(Option::is_some)
    }

    /// Kernel `ki`'s bits, where it keeps paths.
    pub(super) fn of(&self, ki: usize) -> Option<&KernelPaths> {
        self.0.get(ki).and_then(Option::as_ref)
    }

    /// The statement that sets the bit of the case from `from` of the timing function of
    /// `block` of `function` (empty where its kernel does not keep paths).
    pub(super) fn set_case(&self, function: &str, block: usize, from: u32) -> String {
        let bit = self
            .of((from >> 16) as usize)
            .and_then(|k| k.cases.get(&(function.to_string(), block, from)));
        bit.map_or(String::new(), |(b, _)| {
            format!(" s->m |= {:#x}ul;", 1u64 << b)
        })
    }
}

/// Whether the transitions `edges` (from, to) have no cycle (a depth-first search from
/// every node, `start` first).
fn acyclic(edges: &BTreeSet<(u32, u32)>, start: u32) -> bool {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    let mut marks: BTreeMap<u32, Mark> = BTreeMap::new();
    let nodes = std::iter::once(start).chain(edges.iter().map(|e| e.0));
    for root in nodes {
        if marks.contains_key(&root) {
            continue;
        }
        // (node, whether its successors were pushed)
        let mut stack = vec![(root, false)];
        while let Some((node, expanded)) = stack.pop() {
            if expanded {
                marks.insert(node, Mark::Done);
                continue;
            }
            match marks.get(&node) {
                Some(Mark::Done) => continue,
                Some(Mark::Open) => return false,
                None => {}
            }
            marks.insert(node, Mark::Open);
            stack.push((node, true));
            for &(_, to) in edges.range((node, 0)..=(node, u32::MAX)) {
                match marks.get(&to) {
                    Some(Mark::Open) => return false,
                    Some(Mark::Done) => {}
                    None => stack.push((to, false)),
                }
            }
        }
    }
    true
}

/// The functions of path-coded kernel `name`: its copy's exit (the exit's bit, then the
/// work-item's bits into its place in `lanes`), the charges of a set of bits folded into
/// a warp's record, and the reduction of each warp's lanes (`memory`: the resource whose
/// usage is summed as the bytes past the L1). The warp record is the one
/// `warps::functions` reduces from counters ([`RecordFormat::warp_stride`]).
pub(super) fn functions(
    name: &str,
    paths: &KernelPaths,
    format: &RecordFormat,
    memory: Option<usize>,
    branch_free: bool,
) -> String {
    let stride = format.warp_stride();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "static inline __attribute__((always_inline)) void __srcsim_lanes_{name}(__private __srcsim_state *s, __local ulong *lanes)\n{{"
    );
    if branch_free {
        // As a kernel's exit charges (`charges::select_charges`).
        let bits: Vec<String> = paths
            .exits
            .iter()
            .map(|(from, bit)| format!("(from == {from}u ? {:#x}ul : 0ul)", 1u64 << bit))
            .collect();
        if !bits.is_empty() {
            let _ = writeln!(
                out,
                "    uint from = s->last;\n    s->m |= {};",
                bits.join(" | ")
            );
        }
    } else {
        out.push_str("    switch (s->last) {\n");
        for (from, bit) in &paths.exits {
            let _ = writeln!(
                out,
                "    case {from}u: s->m |= {:#x}ul; break;",
                1u64 << bit
            );
        }
        out.push_str("    default: break;\n    }\n");
    }
    out.push_str("    lanes[__srcsim_local_id()] = s->m;\n}\n");

    fold_function(&mut out, name, paths, format, memory);

    // The reduction: a warp's lanes counted per distinct bits, two at a time (folding
    // is a max, or a sum times the count: the order does not matter), after a pass that
    // finds most warps' lanes all alike, sixteen lanes a vector: a CPU runtime vectorises
    // across work-items, not along this loop (an LU update's copy on PoCL: 127 to 122 ms
    // of CPU for 511 steps, the loop of single lanes against vectors). The vector is
    // written out lane by lane, which the compiler loads as one: PoCL's `vload16` has no
    // `__local` overload under OpenCL C 2.0.
    let written: String = (0..stride)
        .map(|v| format!("\n        r[{v}] = w[{v}];"))
        .collect();
    let sixteen = (0..16)
        .map(|j| match j {
            0 => "lanes[i]".to_string(),
            j => format!("lanes[i + {j}]"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let body = format!(
        "        ulong w[{stride}] = {{0}};
        ulong a = lanes[first], b = 0, na = end - first, nb = 0, other = 0;
        ulong16 differ = 0;
        size_t i = first;
        for (; i + 16 <= end; i += 16) differ |= (ulong16)({sixteen}) ^ a;
        for (; i < end; ++i) other |= lanes[i] ^ a;
        ulong8 d8 = differ.lo | differ.hi;
        ulong4 d4 = d8.lo | d8.hi;
        ulong2 d2 = d4.lo | d4.hi;
        other |= d2.x | d2.y;
        if (other != 0) {{
            na = 0;
            for (size_t i = first; i < end; ++i) {{
                ulong p = lanes[i];
                if (p == a) {{
                    na += 1;
                }} else if (nb != 0 && p == b) {{
                    nb += 1;
                }} else {{
                    if (nb != 0) __srcsim_fold_{name}(b, nb, w);
                    b = p;
                    nb = 1;
                }}
            }}
        }}
        __srcsim_fold_{name}(a, na, w);
        if (nb != 0) __srcsim_fold_{name}(b, nb, w);{written}
"
    );
    out.push_str(&super::warps::reducer(name, format, &body));
    out
}

/// `__srcsim_fold_<name>(p, c, w)`: the values of the work-items of bits `p`, `c` of them,
/// folded into warp record `w` (the most, or the sum times `c`, field by field).
fn fold_function(
    out: &mut String,
    name: &str,
    paths: &KernelPaths,
    format: &RecordFormat,
    memory: Option<usize>,
) {
    let (resources, arms) = (format.resources, format.arms);
    let (outside, t_max) = (RecordFormat::WARP_OUTSIDE, RecordFormat::WARP_T_MAX);
    let _ = writeln!(
        out,
        "static inline __attribute__((always_inline)) void __srcsim_fold_{name}(ulong p, ulong c, __private ulong *w)\n{{"
    );
    let zeros: Vec<String> = std::iter::once("t = 0".to_string())
        .chain((0..resources).map(|r| format!("u{r} = 0")))
        .chain((0..arms).flat_map(|a| {
            [
                format!("a{a} = 0"),
                format!("e{a} = 0"),
                format!("d{a} = 0"),
            ]
        }))
        .collect();
    let _ = writeln!(out, "    ulong {};", zeros.join(", "));
    for (bit, charge) in paths.charges.iter().enumerate() {
        let _ = write!(
            out,
            "    if ((p & {:#x}ul) != 0) {{ t += {}ul;",
            1u64 << bit,
            charge.cycles
        );
        if let Some(a) = charge.arm {
            let _ = write!(out, " a{a} += {}ul;", charge.cycles);
        }
        if let Some(a) = charge.entered {
            let _ = write!(out, " e{a} += 1ul; d{a} += 1ul;");
        }
        if let Some(s) = charge.sibling {
            let _ = write!(out, " d{s} += 1ul;");
        }
        for (r, u) in charge
            .usage
            .iter()
            .enumerate()
            .filter(|(_, u)| !u.is_zero())
        {
            let _ = write!(out, " u{r} += {};", super::charges::opencl(u));
        }
        out.push_str(" }\n");
    }
    if arms > 0 {
        let sum: Vec<String> = (0..arms).map(|a| format!("a{a}")).collect();
        let _ = writeln!(
            out,
            "    ulong arms = {};\n    w[{outside}] = max(w[{outside}], t > arms ? t - arms : (ulong)0);",
            sum.join(" + ")
        );
    } else {
        let _ = writeln!(out, "    w[{outside}] = max(w[{outside}], t);");
    }
    let _ = writeln!(out, "    w[{t_max}] = max(w[{t_max}], t);");
    for r in 0..resources {
        let at = format.warp_usage(r);
        let _ = writeln!(out, "    w[{at}] = max(w[{at}], u{r});");
    }
    for a in 0..arms {
        let (at, sum) = (format.warp_arm(a), format.warp_arm_sum(a));
        let (entries, decisions) = (format.warp_arm_entries(a), format.warp_arm_decisions(a));
        let _ = writeln!(
            out,
            "    w[{at}] = max(w[{at}], a{a}); w[{sum}] += c * a{a}; w[{entries}] += c * e{a}; w[{decisions}] = max(w[{decisions}], d{a});"
        );
    }
    if let Some(m) = memory {
        let _ = writeln!(out, "    w[{}] += c * u{m};", format.warp_bytes());
    }
    out.push_str("}\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cycle_anywhere_is_found() {
        let edges: BTreeSet<(u32, u32)> = [(0, 1), (1, 2), (0, 2), (2, 3)].into();
        assert!(acyclic(&edges, 0));
        let back: BTreeSet<(u32, u32)> = [(0, 1), (1, 2), (2, 3), (3, 1)].into();
        assert!(!acyclic(&back, 0));
        let own: BTreeSet<(u32, u32)> = [(0, 1), (1, 1)].into();
        assert!(!acyclic(&own, 0));
        // A cycle the start does not reach is one too.
        let apart: BTreeSet<(u32, u32)> = [(0, 1), (5, 6), (6, 5)].into();
        assert!(!acyclic(&apart, 0));
    }
}
