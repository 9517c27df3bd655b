//! Refusing kernels: which functions a kernel runs (the call graph), which kernels a
//! code generation error or an unsupported construct refuses, and which functions leave
//! the annotated file with them.

use std::collections::BTreeMap;

use super::AnnotateError;
use crate::back::codegen::CodegenError;
use crate::back::sidecar::{AnnotatedKernel, RefusedKernel};
use crate::front::source::SourceFile;

/// One refusal while annotating: whether it was a loop unrolled past counting (which a
/// compile without unrolling may time).
pub(super) struct Refusal {
    pub(super) kernel: RefusedKernel,
    pub(super) unrolled: bool,
    /// Refused as a kernel another kernel calls, or a kernel that calls one: the file
    /// rewritten with a copy of the callee may annotate it (`super::called_kernels`).
    pub(super) called: bool,
}

/// Which functions of a file call which (by the calls written in their bodies).
pub(super) struct CallGraph {
    calls: BTreeMap<String, Vec<String>>,
}

impl CallGraph {
    pub(super) fn new(source: &SourceFile) -> Self {
        fn walk(n: &crate::front::source::AstNode, names: &[&str], out: &mut Vec<String>) {
            if n.kind == crate::front::source::NodeKind::Call
                && names.contains(&n.spelling.as_str())
                && !out.contains(&n.spelling)
            {
                out.push(n.spelling.clone());
            }
            for c in &n.children {
                walk(c, names, out);
            }
        }
        let names: Vec<&str> = source.functions.iter().map(|f| f.name.as_str()).collect();
        let calls = source
            .functions
            .iter()
            .map(|f| {
                let mut out = Vec::new();
                walk(&f.body, &names, &mut out);
                (f.name.clone(), out)
            })
            .collect();
        CallGraph { calls }
    }

    /// `from` and every function it calls, directly or not.
    pub(super) fn reach(&self, from: &str) -> Vec<String> {
        let mut seen = vec![from.to_string()];
        let mut i = 0;
        while i < seen.len() {
            for c in self.calls.get(&seen[i]).into_iter().flatten() {
                if !seen.contains(c) {
                    seen.push(c.clone());
                }
            }
            i += 1;
        }
        seen
    }
}

/// The line of `function`'s definition in `source`, or 0.
fn line_of(source: &SourceFile, function: &str) -> u32 {
    source.function(function).map_or(0, |f| f.extent.start.line)
}

/// The refusals so far, and per kernel the functions it runs (itself first).
pub(super) struct Refusals {
    pub(super) reach: BTreeMap<String, Vec<String>>,
    pub(super) list: Vec<Refusal>,
}

impl Refusals {
    /// Whether `kernel` is refused.
    pub(super) fn refused(&self, kernel: &str) -> bool {
        self.list.iter().any(|r| r.kernel.name == kernel)
    }

    /// Refuses every kernel that runs `function` (the kernel itself, or a helper of it).
    pub(super) fn refuse(
        &mut self,
        function: &str,
        path: &str,
        line: u32,
        reason: String,
        unrolled: bool,
    ) {
        for (kernel, reached) in &self.reach {
            if reached.iter().any(|f| f == function)
                && !self.list.iter().any(|r| r.kernel.name == *kernel)
            {
                self.list.push(Refusal {
                    kernel: RefusedKernel {
                        name: kernel.to_string(),
                        path: path.to_string(),
                        line,
                        reason: reason.clone(),
                    },
                    unrolled,
                    called: false,
                });
            }
        }
    }

    /// Refuses the `kernels` that `function` is inlined into (not its callers).
    pub(super) fn refuse_inlined(
        &mut self,
        kernels: &[AnnotatedKernel],
        function: &str,
        path: &str,
        line: u32,
        reason: String,
    ) {
        for k in kernels {
            let into = k
                .block_map
                .blocks
                .iter()
                .any(|m| m.source.as_ref().is_some_and(|s| s.function == function));
            if into {
                self.list.push(Refusal {
                    kernel: RefusedKernel {
                        name: k.name.clone(),
                        path: path.to_string(),
                        line,
                        reason: reason.clone(),
                    },
                    unrolled: false,
                    called: false,
                });
            }
        }
    }

    /// What the source itself refuses: a function declared again in an included file (its
    /// definition gets the counters' parameter, the declaration there cannot, so the
    /// annotated file would not build), a kernel another kernel calls (and the kernels
    /// that run it), and a barrier in a branch whose condition may
    /// differ between the work-items of a work-group.
    pub(super) fn of_source(&mut self, source: &SourceFile, program: &str) {
        for d in &source.declared_elsewhere {
            let line = source
                .function(&d.function)
                .map_or(0, |f| f.extent.start.line);
            let reason = format!(
                "{program}:{line}: `{}` is also declared in {}:{}, an included file the \
                 annotator cannot rewrite (it gives the definition the counters' parameter); \
                 the kernels that run it run unannotated",
                d.function, d.file, d.line
            );
            self.refuse(&d.function, program, line, reason, false);
        }
        // A kernel another kernel calls as a function: its twin would have to be both a
        // kernel writing a record and a function taking its caller's counters.
        let called: Vec<(String, String)> = self
            .reach
            .iter()
            .flat_map(|(caller, reached)| {
                reached
                    .iter()
                    .skip(1)
                    .filter(|f| self.reach.contains_key(*f))
                    .map(move |k| (k.clone(), caller.clone()))
            })
            .collect();
        for (kernel, caller) in called {
            let line = line_of(source, &kernel);
            let reason = format!(
                "{program}:{line}: `{kernel}` is a kernel that `{caller}` calls as a function; \
                 srcsim cannot time a kernel both launched and called (its twin would be \
                 both), so the kernels that run it run unannotated"
            );
            let before = self.list.len();
            self.refuse(&kernel, program, line, reason, false);
            self.list[before..].iter_mut().for_each(|r| r.called = true);
        }
        for b in crate::analysis::uniformity::varying_barriers(source) {
            let waits = match &b.callee {
                Some(callee) => format!("calls `{callee}`, which waits at a barrier,"),
                None => "waits at a barrier".to_string(),
            };
            let e = AnnotateError::VaryingBarrier {
                path: program.to_string(),
                line: b.line,
                function: b.function.clone(),
                waits,
            };
            self.refuse(&b.function, program, b.line, e.to_string(), false);
        }
    }

    /// The functions to leave out of the annotated file: those only refused kernels run.
    pub(super) fn removed<'a>(&'a self, kernels: &[AnnotatedKernel]) -> Vec<&'a str> {
        let live: Vec<&String> = kernels
            .iter()
            .flat_map(|k| &self.reach[k.name.as_str()])
            .collect();
        self.list
            .iter()
            .flat_map(|r| &self.reach[r.kernel.name.as_str()])
            .filter(|f| !live.contains(f))
            .map(String::as_str)
            .collect()
    }
}

/// The function a code generation error refuses, its line, and whether the kernels it is
/// inlined into are refused (rather than those that run it); `None` for an error that
/// refuses nothing (the whole file fails).
pub(super) fn refused_by(e: &CodegenError, source: &SourceFile) -> Option<(String, u32, bool)> {
    match e {
        CodegenError::MissingKernel { kernel, .. } => Some((kernel.clone(), 0, false)),
        CodegenError::ReturnInMacro { kernel, line, .. } => Some((kernel.clone(), *line, false)),
        CodegenError::InlinedAndCalled { function, .. } => {
            Some((function.clone(), line_of(source, function), true))
        }
        CodegenError::CallThroughMacro { line, .. } => {
            // The function whose body holds the call.
            let f = source
                .functions
                .iter()
                .find(|f| (f.extent.start.line..=f.extent.end.line).contains(line))?;
            Some((f.name.clone(), *line, false))
        }
        CodegenError::Prototype { .. } => None,
    }
}
