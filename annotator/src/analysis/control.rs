//! What decides the paths a kernel's work-items take: the inputs of its branches.
//!
//! The annotated program charges fixed cycles and usage to each path between timing
//! points, so a work-item's record is a function of the path it took (and, for a sampled
//! access, of its addresses). Where every branch of a kernel (the conditions of `if`,
//! loops, `switch`, `?:`, and the left side of `&&` and `||`, in the kernel and every
//! function it calls) is computed from the launch's geometry (`get_global_id`, ...),
//! constants and the values of some arguments alone, never from memory, a launch with
//! the same geometry and the same values of those arguments leaves the same records: the
//! shim then runs the application's kernel and takes the estimate of the first such
//! launch, instead of running the annotated one again ([`path_inputs`]).
//!
//! The analysis is a flow-insensitive dataflow over libclang's tree ([`crate::front::source`],
//! [`Role`]), to a fixed point: a variable's inputs are the union of what every
//! assignment to it anywhere in its function computes from; a parameter of a called
//! function takes what every call passes it; a call, what its function returns. Memory is
//! what an array subscript, `*p` or `p->f` reads, and so is everything whose origin it
//! cannot follow: a variable whose address is taken, a pointer, array or `__local`
//! variable, an image, a program-scope variable, a call of a function defined outside the
//! file that is no builtin. It over-approximates: a kernel it calls memory-dependent may
//! well not be; one it calls independent of memory is.

use std::collections::{BTreeSet, HashMap};

use crate::front::source::{AstNode, NodeKind, Referent, Role, SourceFile};

/// A value's inputs: which arguments of which kernels it is computed from, or memory.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Inputs {
    /// These value arguments, as (function, parameter), and the geometry and constants.
    Args(BTreeSet<(usize, u32)>),
    /// Memory, or what the analysis cannot follow.
    Memory,
}

impl Inputs {
    fn none() -> Self {
        Inputs::Args(BTreeSet::new())
    }

    /// Adds `other`'s inputs; whether that changed anything.
    fn join(&mut self, other: &Inputs) -> bool {
        match (&mut *self, other) {
            (Inputs::Memory, _) => false,
            (_, Inputs::Memory) => {
                *self = Inputs::Memory;
                true
            }
            (Inputs::Args(a), Inputs::Args(b)) => {
                let before = a.len();
                a.extend(b.iter().copied());
                a.len() != before
            }
        }
    }
}

/// Something that holds a value across statements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Var {
    /// A variable of function `.0` declared at offset `.1`.
    Local(usize, u32),
    /// Parameter `.1` of function `.0`.
    Param(usize, u32),
    /// What function `.0` returns.
    Returned(usize),
}

/// Where an assignment's value goes.
enum Target {
    Var(Var),
    /// Memory, or a variable that cannot hold a value of its own (an array).
    Memory,
    /// A form the analysis does not know.
    Unknown,
}

/// The dataflow over every function of a file.
struct Flow<'a> {
    file: &'a SourceFile,
    by_name: HashMap<&'a str, usize>,
    /// Subscript indices (byte extents) whose values decide the records as branches do.
    deciding: &'a [(u32, u32)],
    kernels: Vec<bool>,
    vars: HashMap<Var, Inputs>,
    changed: bool,
    /// Per function: the inputs of its branches.
    control: Vec<Inputs>,
    /// Per function: the file's functions it calls.
    calls: Vec<BTreeSet<usize>>,
}

/// At most this many passes over the file; the fixed point comes within a few (each pass
/// only grows sets over a file's finitely many arguments), so more means a bug: then
/// nothing is trusted.
const MAX_PASSES: usize = 64;

/// Per kernel of `file` (by name, among `kernels`): the positions of the value
/// arguments that, with the launch's geometry, decide every path its work-items take
/// and every index of `deciding` (the byte extents of subscripts' indices whose values
/// the records keep: sampled accesses), or `None` where one may depend on memory (or the
/// analysis cannot tell).
pub fn path_inputs(
    file: &SourceFile,
    kernels: &[&str],
    deciding: &[(u32, u32)],
) -> HashMap<String, Option<Vec<u32>>> {
    let n = file.functions.len();
    let by_name: HashMap<&str, usize> = file
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.as_str(), i))
        .collect();
    let mut flow = Flow {
        file,
        kernels: file
            .functions
            .iter()
            .map(|f| kernels.contains(&f.name.as_str()))
            .collect(),
        by_name,
        deciding,
        vars: HashMap::new(),
        changed: true,
        control: vec![Inputs::none(); n],
        calls: vec![BTreeSet::new(); n],
    };
    let mut passes = 0;
    while flow.changed && passes < MAX_PASSES {
        flow.changed = false;
        flow.control = vec![Inputs::none(); n];
        for (f, function) in file.functions.iter().enumerate() {
            flow.eval(f, &function.body);
        }
        passes += 1;
    }
    kernels
        .iter()
        .map(|&name| {
            let inputs = match flow.by_name.get(name) {
                Some(&k) if !flow.changed => flow.kernel_inputs(k),
                _ => None,
            };
            (name.to_string(), inputs)
        })
        .collect()
}

/// `inputs` (what [`path_inputs`] found for `kernel`) where the indices of its sampled
/// accesses (among `sites`), which its records keep, come from the geometry and value
/// arguments as its paths do (a scan's `__local` indices from local ids and a loop's
/// stride); else `None`.
pub fn with_sampled_indices(
    file: &SourceFile,
    kernel: &str,
    inputs: Option<Vec<u32>>,
    sites: &[crate::analysis::sampling::Site],
) -> Option<Vec<u32>> {
    let indices: Vec<(u32, u32)> = sites
        .iter()
        .filter(|s| s.kernel == kernel)
        .map(|s| s.index)
        .collect();
    if indices.is_empty() {
        return inputs;
    }
    inputs?;
    path_inputs(file, &[kernel], &indices)
        .remove(kernel)
        .flatten()
}

impl Flow<'_> {
    /// Kernel `k`'s own arguments that its branches and its callees' depend on.
    fn kernel_inputs(&self, k: usize) -> Option<Vec<u32>> {
        let mut reached = BTreeSet::from([k]);
        let mut todo = vec![k];
        while let Some(f) = todo.pop() {
            for &g in &self.calls[f] {
                if reached.insert(g) {
                    todo.push(g);
                }
            }
        }
        let mut all = Inputs::none();
        for &f in &reached {
            all.join(&self.control[f]);
        }
        // Another kernel's arguments reach a shared helper only through that kernel's
        // own calls, never in a launch of this one.
        match all {
            Inputs::Memory => None,
            Inputs::Args(args) => Some(
                args.into_iter()
                    .filter(|&(f, _)| f == k)
                    .map(|(_, p)| p)
                    .collect(),
            ),
        }
    }

    fn get(&self, v: Var) -> Inputs {
        self.vars.get(&v).cloned().unwrap_or_else(Inputs::none)
    }

    fn assign(&mut self, v: Var, value: &Inputs) {
        let changed = self.vars.entry(v).or_insert_with(Inputs::none).join(value);
        self.changed |= changed;
    }

    fn branch(&mut self, f: usize, condition: &Inputs) {
        self.control[f].join(condition);
    }

    /// What `r`, named in function `f`, holds.
    fn named(&self, f: usize, r: Referent) -> Inputs {
        match r {
            Referent::Local { decl, value: true } => self.get(Var::Local(f, decl)),
            Referent::Param { index, value: true } => {
                let mut v = self.get(Var::Param(f, index));
                if self.kernels[f] {
                    v.join(&Inputs::Args(BTreeSet::from([(f, index)])));
                }
                v
            }
            Referent::Constant => Inputs::none(),
            Referent::Local { value: false, .. }
            | Referent::Param { value: false, .. }
            | Referent::Global => Inputs::Memory,
        }
    }

    /// Where a value assigned to `lhs` (in function `f`) goes.
    fn target(f: usize, lhs: &AstNode) -> Target {
        if lhs.subscript.is_some() {
            return Target::Memory;
        }
        match lhs.role {
            Some(Role::Names(Referent::Local { decl, value: true })) => {
                Target::Var(Var::Local(f, decl))
            }
            Some(Role::Names(Referent::Param { index, value: true })) => {
                Target::Var(Var::Param(f, index))
            }
            Some(Role::Names(_)) | Some(Role::Deref) | Some(Role::Arrow) => Target::Memory,
            // A member `s.f`, a vector's components `v.xy`, parentheses, casts: the
            // variable under them.
            None if lhs.kind == NodeKind::Expr && lhs.children.len() == 1 => {
                Self::target(f, &lhs.children[0])
            }
            _ => Target::Unknown,
        }
    }

    /// Every variable named under `n` may change behind its name: its value is memory.
    fn escape(&mut self, f: usize, n: &AstNode) {
        match n.role {
            Some(Role::Names(Referent::Local { decl, .. })) => {
                self.assign(Var::Local(f, decl), &Inputs::Memory)
            }
            Some(Role::Names(Referent::Param { index, .. })) => {
                self.assign(Var::Param(f, index), &Inputs::Memory)
            }
            _ => {}
        }
        for c in &n.children {
            self.escape(f, c);
        }
    }

    fn store(&mut self, f: usize, lhs: &AstNode, value: &Inputs) {
        match Self::target(f, lhs) {
            Target::Var(v) => self.assign(v, value),
            Target::Memory => {}
            Target::Unknown => self.escape(f, lhs),
        }
    }

    /// The union of what `n`'s children compute from (each evaluated for what it does).
    fn all(&mut self, f: usize, nodes: &[AstNode]) -> Inputs {
        let mut v = Inputs::none();
        for c in nodes {
            let inputs = self.eval(f, c);
            v.join(&inputs);
        }
        v
    }

    /// What `n`, in function `f`, computes from; records its assignments, calls and
    /// branches on the way.
    fn eval(&mut self, f: usize, n: &AstNode) -> Inputs {
        if n.subscript.is_some() {
            for (i, c) in n.children.iter().enumerate() {
                let inputs = self.eval(f, c);
                let extent = (c.extent.start.offset, c.extent.end.offset);
                if i == 1 && self.deciding.contains(&extent) {
                    self.branch(f, &inputs);
                }
            }
            return Inputs::Memory;
        }
        match n.role {
            Some(Role::Names(r)) => return self.named(f, r),
            Some(Role::Declares(Referent::Local { decl, value })) => {
                let init = self.all(f, &n.children);
                let held = if value { init } else { Inputs::Memory };
                self.assign(Var::Local(f, decl), &held);
                return Inputs::none();
            }
            Some(Role::Assign) | Some(Role::CompoundAssign) => {
                let [lhs, rhs] = &n.children[..] else {
                    self.escape(f, n);
                    return Inputs::Memory;
                };
                let mut value = self.eval(f, rhs);
                let old = self.eval(f, lhs);
                if n.role == Some(Role::CompoundAssign) {
                    value.join(&old);
                }
                self.store(f, lhs, &value);
                return value;
            }
            Some(Role::Deref) | Some(Role::Arrow) => {
                self.all(f, &n.children);
                return Inputs::Memory;
            }
            Some(Role::AddressOf) => {
                self.all(f, &n.children);
                if let [operand] = &n.children[..] {
                    match Self::target(f, operand) {
                        Target::Var(v) => self.assign(v, &Inputs::Memory),
                        Target::Memory => {}
                        Target::Unknown => self.escape(f, operand),
                    }
                } else {
                    self.escape(f, n);
                }
                return Inputs::Memory;
            }
            Some(Role::Builtin) => return self.all(f, &n.children),
            // `x++` computes from `x`, and leaves `x` computed from what it was.
            Some(Role::Step) | Some(Role::Declares(_)) | None => {}
        }
        // The child that decides a branch, if `n` branches (`usize::MAX`: every child).
        let condition = match n.kind {
            NodeKind::If
            | NodeKind::While
            | NodeKind::Switch
            | NodeKind::Conditional
            | NodeKind::LogicalAnd
            | NodeKind::LogicalOr => Some(0),
            // Init, condition, increment, body; a header not taken apart: all of it.
            NodeKind::For if n.children.len() == 4 => Some(1),
            NodeKind::For => Some(usize::MAX),
            NodeKind::Do => n.children.len().checked_sub(1),
            NodeKind::Call => return self.call(f, n),
            NodeKind::Return => {
                let value = self.all(f, &n.children);
                self.assign(Var::Returned(f), &value);
                return Inputs::none();
            }
            _ => None,
        };
        let mut v = Inputs::none();
        for (i, c) in n.children.iter().enumerate() {
            let inputs = self.eval(f, c);
            if condition.is_some_and(|c| c == i || c == usize::MAX) {
                self.branch(f, &inputs);
            }
            v.join(&inputs);
        }
        v
    }

    /// A call that is no builtin: of a function of the file (its parameters take the
    /// arguments, the call what it returns), else of one the analysis cannot see.
    fn call(&mut self, f: usize, n: &AstNode) -> Inputs {
        // The first child names the callee, the arguments follow.
        let args = n.children.get(1..).unwrap_or_default();
        let callee = self.by_name.get(n.spelling.as_str()).copied();
        match callee {
            Some(g) if self.file.functions[g].params.len() == args.len() => {
                self.calls[f].insert(g);
                for (i, a) in args.iter().enumerate() {
                    let inputs = self.eval(f, a);
                    self.assign(Var::Param(g, i as u32), &inputs);
                }
                self.get(Var::Returned(g))
            }
            _ => {
                self.all(f, args);
                self.branch(f, &Inputs::Memory);
                Inputs::Memory
            }
        }
    }
}
