//! Which barriers a work-group may not reach alike: a barrier inside a branch (an `if`,
//! `switch`, `?:`, or the right side of `&&` or `||`) is legal OpenCL only where the
//! branch's condition is the same for every work-item of a work-group (OpenCL C 1.2,
//! 6.12.8: "If barrier is inside a conditional statement, then all work-items must enter
//! the conditional if any work-item enters the conditional statement and executes the
//! barrier"); otherwise the program's behaviour is undefined, and its annotated twin
//! cannot be trusted to compute what it does.
//!
//! The analysis is conservative (it may call a uniform condition lane-varying, never the
//! reverse), a flow-insensitive dataflow over libclang's tree to a fixed point, as
//! [`crate::analysis::control`]'s: a value is work-group uniform where it is computed from the
//! kernel's by-value arguments, constants, the work-group's and grid's ids and sizes
//! (`get_group_id`, `get_num_groups`, `get_local_size`, `get_global_size`, ...) and values
//! computed from those alone. It varies between work-items where it is computed from a
//! work-item's ids (`get_local_id`, `get_global_id`, ...), from memory (a subscript, `*p`,
//! `p->f`, a variable whose address is taken, a pointer or array variable), from a call
//! the analysis cannot see, or where it is assigned under a condition that varies (in
//! a branch or a loop whose condition varies, after a `return` that only some
//! work-items take, or in a loop that only some leave or go on in by a `break` or
//! `continue`). A parameter of a function of the file varies where
//! some call passes it a varying value; what a function returns varies where a returned
//! value does, or a `return` sits under a varying condition.
//!
//! A call of a function of the file that waits at a barrier (itself or through the
//! functions it calls) counts as a barrier where it is called.

use std::collections::{HashMap, HashSet};

use crate::front::source::{AstNode, NodeKind, Referent, Role, SourceFile};

/// A barrier (or a call of a function that waits at one) under a branch whose condition
/// may differ between the work-items of a work-group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VaryingBarrier {
    /// The function that holds it.
    pub function: String,
    /// Its line.
    pub line: u32,
    /// The function called there that waits at a barrier, where it is a call.
    pub callee: Option<String>,
}

/// The builtins whose value differs between the work-items of a work-group: their ids,
/// sub-groups' values, atomics and what reads memory or the outside.
const VARYING_BUILTINS: [&str; 11] = [
    "get_global_id",
    "get_local_id",
    "get_global_linear_id",
    "get_local_linear_id",
    "get_sub_group",
    "sub_group_",
    "atom",
    "read_image",
    "vload",
    "printf",
    "intel_sub_group",
];

/// At most this many passes; a file that needs more (it never should: every pass only
/// turns values from uniform to varying) has every barrier in a branch taken as varying.
const MAX_PASSES: usize = 64;

/// The functions of `file` that wait at a barrier, themselves or through a function of
/// the file they call.
pub fn waiting_functions(file: &SourceFile) -> HashSet<String> {
    let mut waiting: HashSet<String> = file
        .functions
        .iter()
        .filter(|f| f.body.any(&AstNode::is_barrier))
        .map(|f| f.name.clone())
        .collect();
    loop {
        let more: Vec<String> = file
            .functions
            .iter()
            .filter(|f| !waiting.contains(&f.name))
            .filter(|f| {
                f.body.any(&|n| {
                    n.kind == NodeKind::Call
                        && n.role != Some(Role::Builtin)
                        && waiting.contains(&n.spelling)
                })
            })
            .map(|f| f.name.clone())
            .collect();
        if more.is_empty() {
            return waiting;
        }
        waiting.extend(more);
    }
}

/// Whether `n` waits at a barrier: a barrier, or a call of a function of `waiting`.
fn waits(n: &AstNode, waiting: &HashSet<String>) -> Option<Option<String>> {
    if n.is_barrier() {
        return Some(None);
    }
    (n.kind == NodeKind::Call && n.role != Some(Role::Builtin) && waiting.contains(&n.spelling))
        .then(|| Some(n.spelling.clone()))
}

/// The first barrier (or call of a function that waits at one) inside a branch of each
/// function that has one, whatever the branch's condition, as the function and its line:
/// the functions whose annotated code must give no work-item a path of its own to the
/// end (see `codegen`).
pub fn barriers_in_branches(file: &SourceFile) -> Vec<(String, u32)> {
    fn walk(node: &AstNode, in_branch: bool, waiting: &HashSet<String>) -> Option<u32> {
        if in_branch && waits(node, waiting).is_some() {
            return Some(node.extent.start.line);
        }
        let branch = in_branch
            || matches!(
                node.kind,
                NodeKind::If
                    | NodeKind::Switch
                    | NodeKind::Conditional
                    | NodeKind::LogicalAnd
                    | NodeKind::LogicalOr
            );
        node.children.iter().find_map(|c| walk(c, branch, waiting))
    }
    let waiting = waiting_functions(file);
    file.functions
        .iter()
        .filter_map(|f| walk(&f.body, false, &waiting).map(|line| (f.name.clone(), line)))
        .collect()
}

/// The functions whose annotated exits (and unrolled loops' settling) must have no
/// branch: each function with a barrier inside a branch ([`barriers_in_branches`]), each
/// function that calls one, directly or not, and each function any of those calls. Their
/// work-groups all take the branch alike (else they are refused: [`varying_barriers`]),
/// but PoCL takes a per-work-item branch after such a barrier for a uniform one where the
/// exit's charges give some work-items a path of their own to the end of the kernel.
pub fn branch_free_units(file: &SourceFile) -> HashSet<String> {
    let calls = |name: &str| -> Vec<String> {
        let mut out = Vec::new();
        if let Some(f) = file.function(name) {
            collect_calls(&f.body, file, &mut out);
        }
        out
    };
    let reach = |from: &str| -> Vec<String> {
        let mut seen = vec![from.to_string()];
        let mut i = 0;
        while i < seen.len() {
            for c in calls(&seen[i]) {
                if !seen.contains(&c) {
                    seen.push(c);
                }
            }
            i += 1;
        }
        seen
    };
    let waiting: Vec<String> = barriers_in_branches(file)
        .into_iter()
        .map(|(f, _)| f)
        .collect();
    let mut units = HashSet::new();
    for f in &file.functions {
        let reached = reach(&f.name);
        if reached.iter().any(|g| waiting.contains(g)) {
            units.extend(reached);
        }
    }
    units
}

/// The functions of `file` that `node` calls, in order, each once.
fn collect_calls(node: &AstNode, file: &SourceFile, out: &mut Vec<String>) {
    if node.kind == NodeKind::Call
        && node.role != Some(Role::Builtin)
        && file.function(&node.spelling).is_some()
        && !out.contains(&node.spelling)
    {
        out.push(node.spelling.clone());
    }
    for c in &node.children {
        collect_calls(c, file, out);
    }
}

/// Every barrier of `file` (and call of a function that waits at one) inside a branch
/// whose condition may differ between the work-items of a work-group, in file order per
/// function.
pub fn varying_barriers(file: &SourceFile) -> Vec<VaryingBarrier> {
    let mut flow = Flow {
        file,
        by_name: file
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.as_str(), i))
            .collect(),
        waiting: waiting_functions(file),
        varying: HashSet::new(),
        after_varying_exit: vec![false; file.functions.len()],
        varying_loops: HashSet::new(),
        changed: true,
        found: None,
    };
    let mut passes = 0;
    while flow.changed && passes < MAX_PASSES {
        flow.changed = false;
        flow.pass();
        passes += 1;
    }
    if flow.changed {
        // No fixed point: every condition may vary.
        flow.varying.clear();
        flow.everything_varies();
    }
    flow.found = Some(Vec::new());
    flow.pass();
    flow.found.unwrap_or_default()
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
    /// Everything (no fixed point was found).
    All,
}

/// The conditions a node is under: whether some branch, loop or earlier exit around it
/// varies (`values`: assignments there make varying values), and whether some branch
/// around it in its function does (`branch`: a barrier there is not reached alike).
/// `in_loop`: the innermost loop around it (its offset) and whether values vary in its
/// body from the start (a `break` or `continue` under a condition that varies only
/// inside it makes its body's values vary).
#[derive(Debug, Clone, Copy, Default)]
struct Under {
    values: bool,
    branch: bool,
    in_loop: Option<(u32, bool)>,
}

impl Under {
    fn loop_on(self, at: u32, varies: bool) -> Self {
        let values = self.values || varies;
        Under {
            values,
            branch: self.branch,
            in_loop: Some((at, values)),
        }
    }

    fn branch_on(self, varies: bool) -> Self {
        Under {
            values: self.values || varies,
            branch: self.branch || varies,
            in_loop: self.in_loop,
        }
    }
}

struct Flow<'a> {
    file: &'a SourceFile,
    by_name: HashMap<&'a str, usize>,
    waiting: HashSet<String>,
    /// The variables whose values vary.
    varying: HashSet<Var>,
    /// Per function: whether some work-items may leave it where others go on (a `return`
    /// under a varying condition).
    after_varying_exit: Vec<bool>,
    /// The loops (function, offset) some work-items may leave, or go on to the next pass
    /// of, where others do not (a `break` or `continue` under a varying condition).
    varying_loops: HashSet<(usize, u32)>,
    changed: bool,
    /// In the last pass: the barriers found under varying branches.
    found: Option<Vec<VaryingBarrier>>,
}

impl Flow<'_> {
    fn pass(&mut self) {
        for (f, function) in self.file.functions.iter().enumerate() {
            let under = Under {
                values: self.after_varying_exit[f],
                ..Under::default()
            };
            self.eval(f, &function.body, under);
        }
    }

    fn everything_varies(&mut self) {
        self.varying.insert(Var::All);
    }

    fn get(&self, v: Var) -> bool {
        self.varying.contains(&Var::All) || self.varying.contains(&v)
    }

    fn vary(&mut self, v: Var, varies: bool) {
        if varies && self.varying.insert(v) {
            self.changed = true;
        }
    }

    /// Whether what `r`, named in function `f`, holds varies.
    fn named(&self, f: usize, r: Referent) -> bool {
        match r {
            Referent::Local { decl, value: true } => self.get(Var::Local(f, decl)),
            Referent::Param { index, value: true } => self.get(Var::Param(f, index)),
            Referent::Constant => self.get(Var::All),
            Referent::Local { value: false, .. }
            | Referent::Param { value: false, .. }
            | Referent::Global => true,
        }
    }

    /// The variable a value assigned to `lhs` goes to, if one.
    fn target(f: usize, lhs: &AstNode) -> Option<Var> {
        if lhs.subscript.is_some() {
            return None;
        }
        match lhs.role {
            Some(Role::Names(Referent::Local { decl, value: true })) => Some(Var::Local(f, decl)),
            Some(Role::Names(Referent::Param { index, value: true })) => Some(Var::Param(f, index)),
            None if lhs.kind == NodeKind::Expr && lhs.children.len() == 1 => {
                Self::target(f, &lhs.children[0])
            }
            _ => None,
        }
    }

    /// Every variable named under `n` may change behind its name: it varies.
    fn escape(&mut self, f: usize, n: &AstNode) {
        match n.role {
            Some(Role::Names(Referent::Local { decl, .. })) => self.vary(Var::Local(f, decl), true),
            Some(Role::Names(Referent::Param { index, .. })) => {
                self.vary(Var::Param(f, index), true)
            }
            _ => {}
        }
        for c in &n.children {
            self.escape(f, c);
        }
    }

    fn store(&mut self, f: usize, lhs: &AstNode, varies: bool) {
        match Self::target(f, lhs) {
            Some(v) => self.vary(v, varies),
            None if lhs.subscript.is_some()
                || matches!(lhs.role, Some(Role::Deref) | Some(Role::Arrow)) => {}
            None => self.escape(f, lhs),
        }
    }

    fn all(&mut self, f: usize, nodes: &[AstNode], under: Under) -> bool {
        let mut varies = false;
        for c in nodes {
            varies |= self.eval(f, c, under);
        }
        varies
    }

    /// Whether what `n` (in function `f`, under `under`) computes varies; records its
    /// assignments and, in the last pass, its barriers under varying branches.
    fn eval(&mut self, f: usize, n: &AstNode, under: Under) -> bool {
        if under.branch {
            if let Some(callee) = waits(n, &self.waiting) {
                if let Some(found) = &mut self.found {
                    found.push(VaryingBarrier {
                        function: self.file.functions[f].name.clone(),
                        line: n.extent.start.line,
                        callee,
                    });
                }
            }
        }
        if n.subscript.is_some() {
            self.all(f, &n.children, under);
            return true;
        }
        match n.role {
            Some(Role::Names(r)) => return self.named(f, r),
            Some(Role::Declares(Referent::Local { decl, value })) => {
                let init = self.all(f, &n.children, under);
                self.vary(Var::Local(f, decl), !value || init || under.values);
                return false;
            }
            Some(Role::Assign) | Some(Role::CompoundAssign) => {
                let [lhs, rhs] = &n.children[..] else {
                    self.escape(f, n);
                    return true;
                };
                let mut varies = self.eval(f, rhs, under);
                let old = self.eval(f, lhs, under);
                if n.role == Some(Role::CompoundAssign) {
                    varies |= old;
                }
                self.store(f, lhs, varies || under.values);
                return varies;
            }
            Some(Role::Step) => {
                let varies = self.all(f, &n.children, under);
                if let [operand] = &n.children[..] {
                    self.store(f, operand, varies || under.values);
                }
                return varies;
            }
            Some(Role::Deref) | Some(Role::Arrow) => {
                self.all(f, &n.children, under);
                return true;
            }
            Some(Role::AddressOf) => {
                self.all(f, &n.children, under);
                self.escape(f, n);
                return true;
            }
            Some(Role::Builtin) => {
                let args = self.all(f, &n.children, under);
                let varying = VARYING_BUILTINS.iter().any(|p| n.spelling.starts_with(p));
                return args || varying;
            }
            Some(Role::Declares(_)) | None => {}
        }
        match n.kind {
            NodeKind::Call => self.call(f, n, under),
            NodeKind::Return => {
                let varies = self.all(f, &n.children, under);
                self.vary(Var::Returned(f), varies || under.values);
                self.exit_under(f, under);
                false
            }
            NodeKind::Break | NodeKind::Continue => {
                match under.in_loop {
                    Some((at, from_start)) => {
                        if under.values && !from_start && self.varying_loops.insert((f, at)) {
                            self.changed = true;
                        }
                    }
                    // A `break` out of a `switch` outside any loop.
                    None => self.exit_under(f, under),
                }
                false
            }
            // The condition first, then what it decides.
            NodeKind::If
            | NodeKind::Switch
            | NodeKind::Conditional
            | NodeKind::LogicalAnd
            | NodeKind::LogicalOr => {
                let Some((condition, rest)) = n.children.split_first() else {
                    return false;
                };
                let c = self.eval(f, condition, under);
                let decided = under.branch_on(c);
                let rest = self.all(f, rest, decided);
                c || rest
            }
            NodeKind::While | NodeKind::For | NodeKind::Do => {
                // Init, condition, increment, body (a `for` taken apart); a `while`'s
                // condition first; a `do`'s last; a header not taken apart: all of it.
                let condition = match n.kind {
                    NodeKind::For if n.children.len() == 4 => Some(1),
                    NodeKind::For => None,
                    NodeKind::Do => n.children.len().checked_sub(1),
                    _ => Some(0),
                };
                let at = n.extent.start.offset;
                let c = match condition.and_then(|i| n.children.get(i)) {
                    Some(cond) => self.eval(f, cond, under),
                    None => self.all(f, &n.children, under),
                };
                let looped = under.loop_on(at, c || self.varying_loops.contains(&(f, at)));
                for (i, child) in n.children.iter().enumerate() {
                    if Some(i) != condition {
                        // A `for`'s init runs once, before the condition decides anything.
                        let at = if n.kind == NodeKind::For && n.children.len() == 4 && i == 0 {
                            under
                        } else {
                            looped
                        };
                        self.eval(f, child, at);
                    }
                }
                false
            }
            _ => self.all(f, &n.children, under),
        }
    }

    /// A `return`, `break` or `continue` under a varying condition: what follows it in its
    /// function runs in only some work-items.
    fn exit_under(&mut self, f: usize, under: Under) {
        if under.values && !self.after_varying_exit[f] {
            self.after_varying_exit[f] = true;
            self.changed = true;
        }
    }

    /// A call that is no builtin: of a function of the file (its parameters take the
    /// arguments, the call what it returns), else of one the analysis cannot see.
    fn call(&mut self, f: usize, n: &AstNode, under: Under) -> bool {
        let args = n.children.get(1..).unwrap_or_default();
        match self.by_name.get(n.spelling.as_str()).copied() {
            Some(g) if self.file.functions[g].params.len() == args.len() => {
                for (i, a) in args.iter().enumerate() {
                    let varies = self.eval(f, a, under);
                    self.vary(Var::Param(g, i as u32), varies);
                }
                self.get(Var::Returned(g))
            }
            _ => {
                self.all(f, args, under);
                true
            }
        }
    }
}
