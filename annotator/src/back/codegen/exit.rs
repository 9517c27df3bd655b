//! A kernel's exit: the charge of leaving it, the record (or its lanes, in the copy that
//! reduces to warps) written, the records parameter, the state, and the exit call at
//! every return, of the kernel and of its copy.

use std::fmt::Write as _;

use super::*;

impl Generation<'_> {
    /// Kernel `ki`'s exit function (the charge of leaving it, then its record), its records
    /// parameter, its state (with `entry`, the profile's count of its entry) and the exit
    /// call at every return.
    pub(super) fn kernel_exit(
        &mut self,
        ki: usize,
        exits: &ExitCharges,
        format: &RecordFormat,
        entry: &str,
    ) -> Result<(), CodegenError> {
        let file = self.file;
        let name = &self.kernels[ki].map.kernel;
        let to_warps = self.kernels[ki].warp_records;
        let values = self.values(ki, "s");
        let in_record = self.in_record[ki];
        // A copy keeping paths has an exit of its own; else the exit writes the lanes too.
        let coded = self.paths.of(ki).filter(|_| to_warps);
        let lanes = to_warps && coded.is_none();
        let f = file.function(name).expect("check_units");
        let functions = &mut self.functions;
        let _ = writeln!(
            functions,
            "static inline __attribute__((always_inline)) void __srcsim_exit_{name}(__private __srcsim_state *s, __global ulong *records{})\n{{",
            if lanes { ", __local ulong *lanes, uint warp" } else { "" }
        );
        for (l, (lk, _, _)) in self.loops.iter().enumerate() {
            if *lk == ki {
                let _ = writeln!(functions, "    __srcsim_settle_{l}(s);");
            }
        }
        if self.kernels[ki].branch_free {
            let cases: Vec<(String, Vec<(String, Amount)>)> = exits
                .iter()
                .map(|(from, (cycles, usage, booking))| {
                    let terms =
                        charge_terms(&values, *cycles, usage, ArmCharge::default(), *booking);
                    (format!("(from == {from}u)"), terms)
                })
                .collect();
            functions.push_str("    uint from = s->last;\n");
            select_charges(functions, "    ", &cases);
        } else {
            functions.push_str("    switch (s->last) {\n");
            for (from, (cycles, usage, booking)) in exits {
                let _ = write!(functions, "    case {from}u:");
                charge(
                    functions,
                    &values,
                    *cycles,
                    usage,
                    "",
                    ArmCharge::default(),
                    *booking,
                );
                functions.push_str(" break;\n");
            }
            functions.push_str("    default: break;\n    }\n");
        }
        if lanes {
            let k = &self.kernels[ki];
            warps::lane_write(functions, format, &values, k.branch_free, k.sampled);
        }
        if in_record {
            // The record is where the values already are; the copy writes none.
            functions.push_str("}\n");
        } else {
            records::record_write(functions, format);
        }
        if let Some(paths) = coded {
            let branch_free = self.kernels[ki].branch_free;
            functions.push_str(&path_codes::functions(
                name,
                paths,
                format,
                self.memory,
                branch_free,
            ));
        }

        // The records parameter, the state, the exits: of the kernel, and of its copy that
        // reduces its records to warps.
        let start = encode(ki, From::Start);
        let state = |enter: &str| {
            Edit {
            offset: f.body.extent.start.offset + 1,
            class: CLOSE,
            nesting: i64::MIN,
            text: format!(
                " __srcsim_state {STATE}_st = {{0}}; __private __srcsim_state *{STATE} = &{STATE}_st; {STATE}->last = {start}u;{enter}{entry}",
            ),
        }
        };
        let enter = if in_record {
            format!(" __srcsim_enter_record({STATE}, {RECORDS});")
        } else {
            String::new()
        };
        let mut own = param_edits(file, f, &format!("__global ulong *{RECORDS}"));
        own.push(state(&enter));
        let no_lanes = if lanes {
            ", (__local ulong *)0, 0u"
        } else {
            ""
        };
        let exit_call = format!("__srcsim_exit_{name}({STATE}, {RECORDS}{no_lanes});");
        wrap_returns(
            file,
            f,
            |_| format!("{{ {exit_call} "),
            &exit_call,
            &mut own,
        )?;
        let copy = if to_warps {
            let sampled = self.kernels[ki].sampled;
            let mut copy = param_edits(file, f, &warps::params(sampled));
            copy.push(state(""));
            warps::exits(file, f, name, coded.is_some(), sampled, &mut copy)?;
            Some(copy)
        } else {
            None
        };
        self.kernel_edits.push(KernelEdits {
            kernel: ki,
            own,
            copy,
        });
        Ok(())
    }
}

/// The edits of a kernel's own parameters and exits (its records parameter, its state, the
/// exit call at every return), kept apart until the other edits inside it are known: the
/// copy that reduces its records to warps gets those and `copy` in place of `own`.
pub(super) struct KernelEdits {
    pub(super) kernel: usize,
    pub(super) own: Vec<Edit>,
    pub(super) copy: Option<Vec<Edit>>,
}
