//! The source control-flow graph of a function: its statements and expressions cut into
//! basic blocks, with edges for if/else, for/while/do, break/continue, return, switch,
//! the ternary and the short-circuit operators. Each block knows the regions of source it
//! evaluates (to be matched with PTX line and column information) and how a call can be
//! inserted so that it runs exactly once each time the block runs.

use petgraph::algo::dominators::{self, Dominators};
use petgraph::graph::{DiGraph, NodeIndex};
use serde::{Deserialize, Serialize};

use super::{AstNode, Extent, NodeKind, SourceFile, SourceFunction};
use crate::front::cfg::PostDominators;
use crate::ids::SourceBlockId;

/// How to insert code that runs exactly when a block runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Insertion {
    /// Insert `call;` at this offset: after the `{` of a compound statement, before a
    /// statement of a sequence, or after the `:` of a case label.
    Before {
        /// Byte offset.
        offset: u32,
        /// The statement there starts with a preprocessor directive (`#pragma unroll`)
        /// on this line: the call goes on a line of its own before it, and a `#line`
        /// gives the directive its line back.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        directive: Option<u32>,
    },
    /// The statement `[start, end)` (its `;` included) is no compound: replace it by
    /// `{ call; statement }`.
    WrapStatement {
        /// First byte.
        start: u32,
        /// One past its last byte.
        end: u32,
        /// As for `Before`: the statement starts with a directive on this line.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        directive: Option<u32>,
    },
    /// The expression `[start, end)` is evaluated by the block: replace it by
    /// `(call, (expression))`.
    WrapExpression {
        /// First byte.
        start: u32,
        /// One past its last byte.
        end: u32,
    },
    /// An absent `for` condition at this offset: insert `(call, 1)`.
    EmptyCondition {
        /// Byte offset.
        offset: u32,
    },
    /// An absent `for` increment at this offset: insert `call`.
    EmptyIncrement {
        /// Byte offset.
        offset: u32,
    },
    /// The block holds no code (a join point): nothing to insert, nothing to match.
    Nothing,
}

/// What made a block start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockRole {
    /// The function's first block.
    Entry,
    /// A statement sequence (then, else, loop body, after a construct).
    Sequence,
    /// A loop condition.
    LoopCondition,
    /// A `for` increment.
    LoopIncrement,
    /// A `case` or `default` label.
    CaseLabel,
    /// An operand evaluated conditionally (`&&`, `||`, `?:`).
    ConditionalOperand,
    /// Where paths join; no code.
    Join,
}

/// A source basic block.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SourceBlock {
    /// Index in its function's CFG.
    pub id: usize,
    /// Why it starts.
    pub role: BlockRole,
    /// How to instrument it.
    pub insertion: Insertion,
    /// The source regions it evaluates, outermost first; a region nested in another block's
    /// region belongs to the inner block.
    pub regions: Vec<Extent>,
    /// Successor blocks.
    pub successors: Vec<usize>,
}

impl SourceBlock {
    /// The lines its regions span.
    pub fn lines(&self) -> impl Iterator<Item = u32> + '_ {
        self.regions.iter().flat_map(|e| e.start.line..=e.end.line)
    }
}

/// A construct the annotator does not handle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}:{col}: {construct} is not supported by the annotator")]
pub struct Unsupported {
    /// The file.
    pub path: String,
    /// Line.
    pub line: u32,
    /// Column.
    pub col: u32,
    /// What it is.
    pub construct: &'static str,
}

/// The source CFG of one function.
#[derive(Debug, Clone)]
pub struct SourceCfg {
    /// The function's name.
    pub function: String,
    /// Blocks; block 0 is the entry.
    pub blocks: Vec<SourceBlock>,
    /// Blocks that end the function (a `return`, or the end of the body).
    pub exits: Vec<usize>,
    dominators: Dominators<NodeIndex>,
    post_dominators: PostDominators,
}

impl SourceCfg {
    /// The block `id` names (what a [`SourceBlockId`] from outside the front end indexes).
    pub fn block(&self, id: SourceBlockId) -> &SourceBlock {
        &self.blocks[id.index()]
    }

    /// Whether block `a` dominates block `b`.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.dominators
            .dominators(NodeIndex::new(b))
            .is_some_and(|mut it| it.any(|d| d.index() == a))
    }

    /// Whether block `a` post-dominates block `b`: every path from `b` to the function's
    /// end passes `a`.
    pub fn post_dominates(&self, a: usize, b: usize) -> bool {
        self.post_dominators.post_dominates(a, b)
    }

    /// The block whose innermost region contains the position (line, col); `None` when no
    /// region of the function does.
    pub fn block_at(&self, line: u32, col: u32) -> Option<SourceBlockId> {
        let key = (line, col);
        self.blocks
            .iter()
            .flat_map(|b| b.regions.iter().map(move |r| (b.id, r)))
            .filter(|(_, r)| (r.start.line, r.start.col) <= key && key <= (r.end.line, r.end.col))
            // Innermost: the latest start, then the earliest end.
            .max_by_key(|(_, r)| (r.start.offset, std::cmp::Reverse(r.end.offset)))
            .map(|(b, _)| SourceBlockId(b))
    }
}

/// Where a statement starts, for code inserted before it: an attributed statement
/// (`#pragma unroll` then a loop) starts with its attribute, and when that is a directive
/// the code inserted before it must end its own line.
#[derive(Debug, Clone, Copy)]
struct Anchor {
    offset: u32,
    /// The line of the directive the statement starts with.
    directive: Option<u32>,
}

struct Builder<'a> {
    file: &'a SourceFile,
    blocks: Vec<SourceBlock>,
    exits: Vec<usize>,
    /// Enclosing loops and switches, innermost last: (where `continue` goes, for loops;
    /// where `break` goes).
    breakable: Vec<(Option<usize>, usize)>,
    /// Blocks of a lone statement (a loop's or `if`'s body without braces) that no call
    /// can precede: a call before it would take its place as the body.
    sealed: Vec<usize>,
}

impl Builder<'_> {
    fn new_block(&mut self, role: BlockRole, insertion: Insertion) -> usize {
        let id = self.blocks.len();
        self.blocks.push(SourceBlock {
            id,
            role,
            insertion,
            regions: Vec::new(),
            successors: Vec::new(),
        });
        id
    }

    fn join(&mut self) -> usize {
        self.new_block(BlockRole::Join, Insertion::Nothing)
    }

    fn edge(&mut self, from: usize, to: usize) {
        if !self.blocks[from].successors.contains(&to) {
            self.blocks[from].successors.push(to);
        }
    }

    fn unsupported(&self, n: &AstNode, construct: &'static str) -> Unsupported {
        Unsupported {
            path: self.file.path.display().to_string(),
            line: n.extent.start.line,
            col: n.extent.start.col,
            construct,
        }
    }

    /// One past the statement's last byte, its `;` included.
    fn statement_end(&self, n: &AstNode) -> u32 {
        match n.kind {
            NodeKind::Compound | NodeKind::Decl => n.extent.end.offset,
            NodeKind::If
            | NodeKind::For
            | NodeKind::While
            | NodeKind::Switch
            | NodeKind::Case
            | NodeKind::Default
            | NodeKind::Label
            | NodeKind::Attributed => n
                .children
                .last()
                .map_or(n.extent.end.offset, |c| self.statement_end(c)),
            _ => {
                let text = self.file.text.as_bytes();
                let mut i = n.extent.end.offset as usize;
                while i < text.len() && text[i] != b';' {
                    i += 1;
                }
                (i + 1).min(text.len()) as u32
            }
        }
    }

    /// One past the `;` that ends statement `n`, which starts in a macro invocation, where
    /// that `;` follows its end in the file (after spaces only).
    fn macro_statement_end(&self, n: &AstNode) -> Option<u32> {
        let text = self.file.text.as_bytes();
        let mut i = n.extent.end.offset as usize;
        if i <= n.extent.start.offset as usize {
            return None;
        }
        while i < text.len() && text[i].is_ascii_whitespace() {
            i += 1;
        }
        (text.get(i) == Some(&b';')).then_some(i as u32 + 1)
    }

    /// Where statement `n` starts.
    fn anchor(&self, n: &AstNode) -> Anchor {
        let offset = n.extent.start.offset;
        let directive = (n.kind == NodeKind::Attributed
            && !n.in_macro
            && self.file.text.as_bytes().get(offset as usize) == Some(&b'#'))
        .then_some(n.extent.start.line);
        Anchor { offset, directive }
    }

    /// A block that starts with statement `n`, entered from `from`.
    fn statement_block(&mut self, n: &AstNode, role: BlockRole) -> usize {
        let insertion = if n.in_macro {
            // A statement that starts with a macro invocation (`AT(t, x) = in[i];`) is
            // wrapped whole when its `;` follows it in the file; one the macro makes
            // entirely cannot be, and its block takes no call (a call before it would
            // become the body of its loop or `if`).
            match self.macro_statement_end(n) {
                Some(end) => Insertion::WrapStatement {
                    start: n.extent.start.offset,
                    end,
                    directive: None,
                },
                None => {
                    let b = self.new_block(role, Insertion::Nothing);
                    self.sealed.push(b);
                    return b;
                }
            }
        } else if n.kind == NodeKind::Compound {
            Insertion::Before {
                offset: n.extent.start.offset + 1,
                directive: None,
            }
        } else {
            let at = self.anchor(n);
            Insertion::WrapStatement {
                start: at.offset,
                end: self.statement_end(n),
                directive: at.directive,
            }
        };
        self.new_block(role, insertion)
    }

    /// Evaluates expression `n` starting in block `cur`; returns the block in which its
    /// value is available.
    fn expr(&mut self, n: &AstNode, cur: usize) -> usize {
        if n.in_macro {
            // Code from a macro's definition takes no insertions: it stays whole.
            return cur;
        }
        match n.kind {
            NodeKind::LogicalAnd | NodeKind::LogicalOr if n.children.len() == 2 => {
                let after_lhs = self.expr(&n.children[0], cur);
                let rhs = &n.children[1];
                let b = self.new_block(
                    BlockRole::ConditionalOperand,
                    Insertion::WrapExpression {
                        start: rhs.extent.start.offset,
                        end: rhs.extent.end.offset,
                    },
                );
                self.blocks[b].regions.push(rhs.extent);
                self.edge(after_lhs, b);
                let after_rhs = self.expr(rhs, b);
                let j = self.join();
                self.edge(after_lhs, j);
                self.edge(after_rhs, j);
                j
            }
            NodeKind::Conditional if n.children.len() == 3 => {
                let after_cond = self.expr(&n.children[0], cur);
                let j = self.join();
                for arm in &n.children[1..] {
                    let b = self.new_block(
                        BlockRole::ConditionalOperand,
                        Insertion::WrapExpression {
                            start: arm.extent.start.offset,
                            end: arm.extent.end.offset,
                        },
                    );
                    self.blocks[b].regions.push(arm.extent);
                    self.edge(after_cond, b);
                    let end = self.expr(arm, b);
                    self.edge(end, j);
                }
                j
            }
            _ => n.children.iter().fold(cur, |c, child| self.expr(child, c)),
        }
    }

    /// Appends `region` (a part of the statement starting at `statement`) to `cur`; a
    /// code-less block gets its call inserted before the statement.
    fn place_region(&mut self, region: Extent, statement: Anchor, cur: usize) {
        let sealed = self.sealed.contains(&cur);
        let b = &mut self.blocks[cur];
        if b.insertion == Insertion::Nothing && !sealed {
            b.insertion = Insertion::Before {
                offset: statement.offset,
                directive: statement.directive,
            };
            if b.role == BlockRole::Join {
                b.role = BlockRole::Sequence;
            }
        }
        b.regions.push(region);
    }

    /// Builds statement `n` entered in block `cur`; returns the block control falls into
    /// afterwards, or `None` if it never falls through.
    fn stmt(&mut self, n: &AstNode, cur: usize) -> Result<Option<usize>, Unsupported> {
        self.stmt_at(n, self.anchor(n), cur)
    }

    /// [`Self::stmt`] for statement `n` starting at `at` (before its attributes).
    fn stmt_at(
        &mut self,
        n: &AstNode,
        at: Anchor,
        cur: usize,
    ) -> Result<Option<usize>, Unsupported> {
        use NodeKind::*;
        Ok(match n.kind {
            // The attributes (an unroll hint) change how the compiler shapes the loop,
            // not the control flow of the source: the statement is built as it is.
            Attributed => {
                let Some(inner) = n.children.last() else {
                    return Err(self.unsupported(n, "an attributed statement without one"));
                };
                self.stmt_at(inner, at, cur)?
            }
            Compound => {
                let mut c = Some(cur);
                for s in &n.children {
                    let entry = match c {
                        Some(c) => c,
                        // Unreachable code after a jump: a block of its own, no predecessor.
                        None => self.join(),
                    };
                    c = self.stmt(s, entry)?;
                }
                c
            }
            If => {
                let [cond, then, rest @ ..] = n.children.as_slice() else {
                    return Err(self.unsupported(n, "an `if` without a condition"));
                };
                self.place_region(cond.extent, at, cur);
                let decided = self.expr(cond, cur);
                let j = self.join();
                let t = self.statement_block(then, BlockRole::Sequence);
                self.edge(decided, t);
                if let Some(end) = self.stmt(then, t)? {
                    self.edge(end, j);
                }
                match rest.first() {
                    Some(els) => {
                        let e = self.statement_block(els, BlockRole::Sequence);
                        self.edge(decided, e);
                        if let Some(end) = self.stmt(els, e)? {
                            self.edge(end, j);
                        }
                    }
                    None => self.edge(decided, j),
                }
                Some(j)
            }
            While => {
                let [cond, body] = n.children.as_slice() else {
                    return Err(self.unsupported(n, "a `while` without a condition"));
                };
                let h = self.condition_block(cond);
                self.edge(cur, h);
                let decided = self.expr(cond, h);
                let exit = self.join();
                self.loop_body(body, decided, h, exit)?;
                self.edge(decided, exit);
                Some(exit)
            }
            Do => {
                let [body, cond] = n.children.as_slice() else {
                    return Err(self.unsupported(n, "a `do` without a condition"));
                };
                let b = self.statement_block(body, BlockRole::Sequence);
                self.edge(cur, b);
                let c = self.condition_block(cond);
                let exit = self.join();
                self.breakable.push((Some(c), exit));
                let end = self.stmt(body, b)?;
                self.breakable.pop();
                if let Some(end) = end {
                    self.edge(end, c);
                }
                let decided = self.expr(cond, c);
                self.edge(decided, b);
                self.edge(decided, exit);
                Some(exit)
            }
            For => self.for_stmt(n, at, cur)?,
            Switch => self.switch(n, at, cur)?,
            Case | Default => {
                return Err(self.unsupported(n, "a `case` label outside a switch's body"))
            }
            Break => {
                let Some(&(_, to)) = self.breakable.last() else {
                    return Err(self.unsupported(n, "a `break` outside a loop or switch"));
                };
                self.place_region(n.extent, at, cur);
                self.edge(cur, to);
                None
            }
            Continue => {
                let Some(to) = self.breakable.iter().rev().find_map(|(c, _)| *c) else {
                    return Err(self.unsupported(n, "a `continue` outside a loop"));
                };
                self.place_region(n.extent, at, cur);
                self.edge(cur, to);
                None
            }
            Return => {
                self.place_region(n.extent, at, cur);
                let end = n.children.iter().fold(cur, |c, e| self.expr(e, c));
                self.exits.push(end);
                None
            }
            Goto | Label => return Err(self.unsupported(n, "`goto` and labels")),
            _ => {
                self.place_region(n.extent, at, cur);
                Some(self.expr(n, cur))
            }
        })
    }

    /// A `for`: init, the condition block, the body, the increment block and back.
    fn for_stmt(
        &mut self,
        n: &AstNode,
        at: Anchor,
        cur: usize,
    ) -> Result<Option<usize>, Unsupported> {
        use NodeKind::*;
        let [init, cond, inc, body] = n.children.as_slice() else {
            return Err(self.unsupported(n, "a `for` the parser did not complete"));
        };
        let mut c = cur;
        if init.kind != Null && !init.in_macro {
            self.place_region(init.extent, at, c);
            c = self.expr(init, c);
        }
        let h = if cond.kind == Null && n.in_macro {
            self.new_block(BlockRole::LoopCondition, Insertion::Nothing)
        } else if cond.kind == Null {
            self.new_block(
                BlockRole::LoopCondition,
                Insertion::EmptyCondition {
                    offset: cond.extent.start.offset,
                },
            )
        } else {
            self.condition_block(cond)
        };
        self.edge(c, h);
        let decided = if cond.kind == Null {
            h
        } else {
            self.expr(cond, h)
        };
        let i = if n.in_macro && (inc.kind == Null || inc.in_macro) {
            self.new_block(BlockRole::LoopIncrement, Insertion::Nothing)
        } else if inc.kind == Null {
            self.new_block(
                BlockRole::LoopIncrement,
                Insertion::EmptyIncrement {
                    offset: inc.extent.start.offset,
                },
            )
        } else {
            let i = self.new_block(
                BlockRole::LoopIncrement,
                Insertion::WrapExpression {
                    start: inc.extent.start.offset,
                    end: inc.extent.end.offset,
                },
            );
            self.blocks[i].regions.push(inc.extent);
            i
        };
        let after_inc = if inc.kind == Null {
            i
        } else {
            self.expr(inc, i)
        };
        self.edge(after_inc, h);
        let exit = self.join();
        self.loop_body(body, decided, i, exit)?;
        if cond.kind != Null {
            self.edge(decided, exit);
        }
        Ok(Some(exit))
    }

    /// A `switch`: the decision, then its body's statements ([`Self::switch_stmt`]).
    fn switch(
        &mut self,
        n: &AstNode,
        at: Anchor,
        cur: usize,
    ) -> Result<Option<usize>, Unsupported> {
        use NodeKind::*;
        let [cond, body] = n.children.as_slice() else {
            return Err(self.unsupported(n, "a `switch` without a body"));
        };
        self.place_region(cond.extent, at, cur);
        let decided = self.expr(cond, cur);
        let exit = self.join();
        self.breakable.push((None, exit));
        let mut has_default = false;
        let mut c: Option<usize> = None;
        let stmts: &[AstNode] = if body.kind == Compound {
            &body.children
        } else {
            std::slice::from_ref(body)
        };
        for s in stmts {
            c = self.switch_stmt(s, decided, c, &mut has_default)?;
        }
        self.breakable.pop();
        if let Some(c) = c {
            self.edge(c, exit);
        }
        if !has_default {
            self.edge(decided, exit);
        }
        Ok(Some(exit))
    }

    /// One statement of a switch body: a case label starts a block entered from the
    /// decision and, by fall-through, from the previous statements.
    fn switch_stmt(
        &mut self,
        s: &AstNode,
        decided: usize,
        cur: Option<usize>,
        has_default: &mut bool,
    ) -> Result<Option<usize>, Unsupported> {
        match s.kind {
            NodeKind::Case | NodeKind::Default => {
                *has_default |= s.kind == NodeKind::Default;
                // The label's statement is its last child; `case 1: case 2: x` nests.
                let inner = s
                    .children
                    .last()
                    .ok_or_else(|| self.unsupported(s, "an empty case"))?;
                let colon = if s.kind == NodeKind::Case {
                    s.children
                        .first()
                        .map_or(s.extent.start.offset, |v| v.extent.end.offset)
                } else {
                    s.extent.start.offset + "default".len() as u32
                };
                let text = self.file.text.as_bytes();
                let mut at = colon as usize;
                while at < text.len() && text[at] != b':' {
                    at += 1;
                }
                let b = self.new_block(
                    BlockRole::CaseLabel,
                    Insertion::Before {
                        offset: (at + 1) as u32,
                        directive: None,
                    },
                );
                self.edge(decided, b);
                if let Some(c) = cur {
                    self.edge(c, b);
                }
                if matches!(inner.kind, NodeKind::Case | NodeKind::Default) {
                    return self.switch_stmt(inner, decided, Some(b), has_default);
                }
                self.stmt(inner, b)
            }
            _ => {
                let c = match cur {
                    Some(c) => c,
                    None => self.join(),
                };
                self.stmt(s, c)
            }
        }
    }

    /// A block that evaluates loop condition `cond`, instrumented by wrapping it.
    fn condition_block(&mut self, cond: &AstNode) -> usize {
        if cond.in_macro {
            // Not instrumentable: no region either, so nothing maps to it.
            return self.new_block(BlockRole::LoopCondition, Insertion::Nothing);
        }
        let h = self.new_block(
            BlockRole::LoopCondition,
            Insertion::WrapExpression {
                start: cond.extent.start.offset,
                end: cond.extent.end.offset,
            },
        );
        self.blocks[h].regions.push(cond.extent);
        h
    }

    /// The body of a loop entered from `decided`: `continue` and the end of the body go
    /// to `next` (the condition or increment), `break` to `exit`.
    fn loop_body(
        &mut self,
        body: &AstNode,
        decided: usize,
        next: usize,
        exit: usize,
    ) -> Result<(), Unsupported> {
        let b = self.statement_block(body, BlockRole::Sequence);
        self.edge(decided, b);
        self.breakable.push((Some(next), exit));
        let end = self.stmt(body, b)?;
        self.breakable.pop();
        if let Some(end) = end {
            self.edge(end, next);
        }
        Ok(())
    }
}

/// Builds the source CFG of `f`.
pub fn build(file: &SourceFile, f: &SourceFunction) -> Result<SourceCfg, Unsupported> {
    let mut b = Builder {
        file,
        blocks: Vec::new(),
        exits: Vec::new(),
        breakable: Vec::new(),
        sealed: Vec::new(),
    };
    let entry = b.new_block(
        BlockRole::Entry,
        Insertion::Before {
            offset: f.body.extent.start.offset + 1,
            directive: None,
        },
    );
    if let Some(end) = b.stmt(&f.body, entry)? {
        b.exits.push(end);
    }
    let mut graph = DiGraph::<(), ()>::with_capacity(b.blocks.len(), b.blocks.len() * 2);
    for _ in &b.blocks {
        graph.add_node(());
    }
    for blk in &b.blocks {
        for &s in &blk.successors {
            graph.add_edge(NodeIndex::new(blk.id), NodeIndex::new(s), ());
        }
    }
    let dominators = dominators::simple_fast(&graph, NodeIndex::new(entry));
    let post_dominators = PostDominators::new(
        b.blocks.len(),
        |x| b.blocks[x].successors.clone(),
        b.exits.iter().copied(),
    );
    Ok(SourceCfg {
        function: f.name.clone(),
        blocks: b.blocks,
        exits: b.exits,
        dominators,
        post_dominators,
    })
}
